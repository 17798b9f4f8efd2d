/* Internal helpers shared by the CPU and CUDA back ends. Not part of the public API. */
#ifndef CONVT1D_INTERNAL_H
#define CONVT1D_INTERNAL_H

#include "convt1d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Records a formatted message for convt1d_last_error() and returns `status`. */
convt1d_status convt1d_fail(convt1d_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void convt1d_clear_error(void);

/* Validation plus the pointer checks every entry point makes. */
convt1d_status convt1d_check_call(const convt1d_params *p, convt1d_dtype dtype, int64_t *out_length,
                                  const void *a, const char *a_name, const void *b, const char *b_name,
                                  const void *c, const char *c_name);

/* getenv for the library's CONVT1D_* switches, from a snapshot of them taken by convt1d_env_refresh (env.c): every
 * CUDA entry point refreshes it once, so reads within a call cost a few compares instead of a scan of the environment. */
const char *convt1d_env(const char *name);
void convt1d_env_refresh(void);

/* Floor division and modulo for possibly negative a, positive b. */
static inline int64_t convt1d_floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t convt1d_floormod(int64_t a, int64_t b) { return a - convt1d_floordiv(a, b) * b; }

#ifdef __cplusplus
}
#endif
#endif
