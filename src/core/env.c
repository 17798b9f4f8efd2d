/* The library's CONVT1D_* switches (kernel choices for A/B runs and tests), read at every call. getenv scans the whole
 * environment on each read, and one CUDA forward reads 30-40 switches: with 90 variables that was ~4 us of the ~21 us
 * host time of single_utterance_x8's call into the library, and 13 us more with 300 variables (run 318). So each call
 * takes one snapshot of the CONVT1D_* entries (convt1d_env_refresh, one pass over the environment) and the reads look
 * only at those. Per thread: a call's reads see the environment as it was when that call began. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef _WIN32
#define environ _environ
#else
extern char **environ;
#endif

#define SNAP_MAX 32

static _Thread_local const char *snap[SNAP_MAX];
static _Thread_local int snap_n = -1; /* -1: no snapshot yet on this thread; SNAP_MAX + 1: too many, use getenv */

void convt1d_env_refresh(void) {
    int n = 0;
    for (char **e = environ; e && *e; ++e) {
        const char *s = *e;
        if (s[0] != 'C' || strncmp(s, "CONVT1D_", 8) != 0) continue;
        if (n == SNAP_MAX) {
            n = SNAP_MAX + 1;
            break;
        }
        snap[n++] = s;
    }
    snap_n = n;
}

const char *convt1d_env(const char *name) {
    if (snap_n < 0) convt1d_env_refresh();
    if (snap_n > SNAP_MAX) return getenv(name);
    const size_t len = strlen(name);
    for (int i = 0; i < snap_n; ++i)
        if (strncmp(snap[i], name, len) == 0 && snap[i][len] == '=') return snap[i] + len + 1;
    return NULL;
}
