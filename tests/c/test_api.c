/* Parameter rules, status codes and messages of the public API, through every entry point.
 *
 * Each illegal parameter must give CONVT1D_ERROR_INVALID_VALUE with a message naming it; sizes
 * whose arithmetic overflows int64 give CONVT1D_ERROR_OVERFLOW; missing pointers give
 * CONVT1D_ERROR_NULL_POINTER (naming the pointer). Also: output_padding_for_size's range, the
 * helpers, and that convt1d_has_cuda() matches the build (CPU-only builds: every CUDA entry point
 * says NOT_SUPPORTED). CONVT1D_TEST_EXPECT_CUDA is set by CMake. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convt1d.h"

#ifndef CONVT1D_TEST_EXPECT_CUDA
#define CONVT1D_TEST_EXPECT_CUDA 0
#endif

static long n_checks = 0, n_failures = 0;

#define CHECK(cond, ...)                                                                               \
    do {                                                                                               \
        n_checks++;                                                                                    \
        if (!(cond)) {                                                                                 \
            n_failures++;                                                                              \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                                              \
            fputc('\n', stderr);                                                                       \
        }                                                                                              \
    } while (0)

/* Dummy buffers: never dereferenced by a call that fails validation. */
static double dummy[8192];
#define D ((void *)dummy)

typedef convt1d_status (*entry_fn)(const convt1d_params *p, convt1d_dtype dt);

static convt1d_status call_validate(const convt1d_params *p, convt1d_dtype dt) {
    (void)dt;
    int64_t len;
    return convt1d_validate(p, &len);
}
static convt1d_status call_sizes(const convt1d_params *p, convt1d_dtype dt) {
    (void)dt;
    int64_t a, b, c;
    return convt1d_tensor_sizes(p, &a, &b, &c);
}
static convt1d_status call_fwd(const convt1d_params *p, convt1d_dtype dt) {
    return convt1d_forward_cpu(p, dt, D, D, NULL, D, 1);
}
static convt1d_status call_bwd_in(const convt1d_params *p, convt1d_dtype dt) {
    return convt1d_backward_input_cpu(p, dt, D, D, D, 1);
}
static convt1d_status call_bwd_w(const convt1d_params *p, convt1d_dtype dt) {
    return convt1d_backward_weight_cpu(p, dt, D, D, D, 1);
}
static convt1d_status call_bwd_b(const convt1d_params *p, convt1d_dtype dt) {
    return convt1d_backward_bias_cpu(p, dt, D, D, 1);
}

static const struct {
    const char *name;
    entry_fn fn;
    int checks_dtype;
} entries[] = {
    {"convt1d_validate", call_validate, 0},
    {"convt1d_tensor_sizes", call_sizes, 0},
    {"convt1d_forward_cpu", call_fwd, 1},
    {"convt1d_backward_input_cpu", call_bwd_in, 1},
    {"convt1d_backward_weight_cpu", call_bwd_w, 1},
    {"convt1d_backward_bias_cpu", call_bwd_b, 1},
};
#define N_ENTRIES ((int)(sizeof entries / sizeof entries[0]))

static convt1d_params base(void) {
    convt1d_params p = convt1d_params_make(2, 4, 6, 10, 3);
    return p;
}

/* Every entry point must answer `want` with a message containing `needle`. */
static void expect_all(const char *what, const convt1d_params *p, convt1d_status want, const char *needle) {
    for (int e = 0; e < N_ENTRIES; e++) {
        convt1d_status st = entries[e].fn(p, CONVT1D_F32);
        const char *msg = convt1d_last_error();
        CHECK(st == want, "%s via %s: status %d (%s), want %d", what, entries[e].name, st, msg, want);
        CHECK(needle == NULL || strstr(msg, needle) != NULL, "%s via %s: message \"%s\" does not name \"%s\"", what,
              entries[e].name, msg, needle);
    }
}

static void test_invalid_values(void) {
    convt1d_params p;
#define BAD(field, value, needle)                                                                      \
    do {                                                                                               \
        p = base();                                                                                    \
        p.field = (value);                                                                             \
        expect_all(#field " = " #value, &p, CONVT1D_ERROR_INVALID_VALUE, needle);                       \
    } while (0)
    BAD(batch, -1, "batch");
    BAD(in_channels, 0, "in_channels");
    BAD(in_channels, -3, "in_channels");
    BAD(out_channels, 0, "out_channels");
    BAD(in_length, 0, "L_in");
    BAD(kernel_size, 0, "kernel_size");
    BAD(stride, 0, "stride");
    BAD(stride, -2, "stride");
    BAD(padding, -1, "padding");
    BAD(output_padding, -1, "output_padding");
    BAD(dilation, 0, "dilation");
    BAD(groups, 0, "groups");
    BAD(groups, -1, "groups");
    BAD(groups, 3, "groups"); /* divides neither 4 nor 6 */
    BAD(groups, 4, "out_channels"); /* divides in_channels = 4, not out_channels = 6 */
    p = base();
    p.in_channels = 5;
    p.groups = 2;
    p.out_channels = 4;
    expect_all("in_channels not divisible by groups", &p, CONVT1D_ERROR_INVALID_VALUE, "in_channels");
    /* output_padding must be < stride or < dilation */
    p = base();
    p.stride = 2;
    p.dilation = 3;
    p.output_padding = 3;
    expect_all("output_padding >= max(stride, dilation)", &p, CONVT1D_ERROR_INVALID_VALUE, "output_padding");
    p.output_padding = 2; /* < dilation: legal */
    expect_all("output_padding < dilation", &p, CONVT1D_SUCCESS, NULL);
    /* output length <= 0 */
    p = base();
    p.in_length = 2;
    p.kernel_size = 1;
    p.padding = 1; /* (2-1)*1 - 2 + 0 + 0 + 1 = 0 */
    expect_all("output length 0", &p, CONVT1D_ERROR_INVALID_VALUE, "output length");
    p.padding = 5;
    expect_all("output length negative", &p, CONVT1D_ERROR_INVALID_VALUE, "output length");
    p.padding = 0; /* length 2: legal */
    expect_all("output length 2", &p, CONVT1D_SUCCESS, NULL);
    /* dtype */
    p = base();
    for (int e = 0; e < N_ENTRIES; e++) {
        if (!entries[e].checks_dtype) continue;
        convt1d_status st = entries[e].fn(&p, (convt1d_dtype)7);
        CHECK(st == CONVT1D_ERROR_INVALID_VALUE && strstr(convt1d_last_error(), "dtype"),
              "bad dtype via %s: status %d, message \"%s\"", entries[e].name, st, convt1d_last_error());
    }
#undef BAD
}

static void test_overflow(void) {
    convt1d_params p = base();
    p.in_length = INT64_MAX / 2;
    p.stride = 4;
    expect_all("(L_in - 1) * stride overflows", &p, CONVT1D_ERROR_OVERFLOW, NULL);
    p = base();
    p.kernel_size = INT64_MAX / 4;
    p.dilation = 8;
    expect_all("dilation * (K - 1) overflows", &p, CONVT1D_ERROR_OVERFLOW, NULL);
    p = base();
    p.batch = (int64_t)1 << 40;
    p.in_length = (int64_t)1 << 30;
    expect_all("N * C * L overflows", &p, CONVT1D_ERROR_OVERFLOW, NULL);
    p = base();
    p.in_channels = (int64_t)1 << 31;
    p.out_channels = (int64_t)1 << 31;
    p.kernel_size = (int64_t)1 << 10;
    expect_all("weight element count overflows", &p, CONVT1D_ERROR_OVERFLOW, NULL);
    p = base();
    p.padding = INT64_MAX / 2 + 1;
    expect_all("2 * padding overflows", &p, CONVT1D_ERROR_OVERFLOW, NULL);
}

static void test_null_pointers(void) {
    convt1d_params p = base();
    convt1d_status st;
    st = convt1d_validate(NULL, NULL);
    CHECK(st == CONVT1D_ERROR_NULL_POINTER, "validate(NULL): %d", st);
    st = convt1d_forward_cpu(NULL, CONVT1D_F32, D, D, NULL, D, 1);
    CHECK(st == CONVT1D_ERROR_NULL_POINTER, "forward(params NULL): %d", st);
#define NUL(call, needle)                                                                              \
    do {                                                                                               \
        st = (call);                                                                                   \
        CHECK(st == CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), needle),                 \
              #call ": status %d, message \"%s\"", st, convt1d_last_error());                          \
    } while (0)
    NUL(convt1d_forward_cpu(&p, CONVT1D_F32, NULL, D, D, D, 1), "x");
    NUL(convt1d_forward_cpu(&p, CONVT1D_F32, D, NULL, D, D, 1), "w");
    NUL(convt1d_forward_cpu(&p, CONVT1D_F32, D, D, D, NULL, 1), "y");
    NUL(convt1d_backward_input_cpu(&p, CONVT1D_F32, NULL, D, D, 1), "grad_y");
    NUL(convt1d_backward_input_cpu(&p, CONVT1D_F32, D, NULL, D, 1), "w");
    NUL(convt1d_backward_input_cpu(&p, CONVT1D_F32, D, D, NULL, 1), "grad_x");
    NUL(convt1d_backward_weight_cpu(&p, CONVT1D_F32, NULL, D, D, 1), "grad_y");
    NUL(convt1d_backward_weight_cpu(&p, CONVT1D_F32, D, NULL, D, 1), "x");
    NUL(convt1d_backward_weight_cpu(&p, CONVT1D_F32, D, D, NULL, 1), "grad_w");
    NUL(convt1d_backward_bias_cpu(&p, CONVT1D_F32, NULL, D, 1), "grad_y");
    NUL(convt1d_backward_bias_cpu(&p, CONVT1D_F32, D, NULL, 1), "grad_b");
    NUL(convt1d_output_padding_for_size(&p, 12, NULL), "output_padding");
#undef NUL
    /* bias may be NULL */
    {
        float x[2 * 4 * 10] = {0}, w[4 * 6 * 3] = {0}, y[2 * 6 * 12];
        st = convt1d_forward_cpu(&p, CONVT1D_F32, x, w, NULL, y, 0);
        CHECK(st == CONVT1D_SUCCESS, "forward with bias NULL: %d (%s)", st, convt1d_last_error());
        CHECK(convt1d_last_error()[0] == '\0', "a successful call leaves the message empty");
    }
}

static void test_output_padding_for_size(void) {
    int checked = 0;
    for (int64_t s = 1; s <= 5; s++)
        for (int64_t d = 1; d <= 3; d++)
            for (int64_t pad = 0; pad <= 3; pad++) {
                convt1d_params p = base();
                p.stride = s;
                p.dilation = d;
                p.padding = pad;
                p.output_padding = 0;
                int64_t minlen;
                if (convt1d_output_length(&p, &minlen) != CONVT1D_SUCCESS) continue;
                for (int64_t req = minlen - 2; req <= minlen + s + 1; req++) {
                    int64_t op = -7;
                    convt1d_status st = convt1d_output_padding_for_size(&p, req, &op);
                    if (req >= minlen && req <= minlen + s - 1) {
                        CHECK(st == CONVT1D_SUCCESS && op == req - minlen,
                              "output_padding_for_size(s=%lld, d=%lld, p=%lld, size=%lld [min %lld]): status %d, "
                              "op %lld (%s)",
                              (long long)s, (long long)d, (long long)pad, (long long)req, (long long)minlen, st,
                              (long long)op, convt1d_last_error());
                        convt1d_params q = p;
                        q.output_padding = op;
                        int64_t len = -1;
                        CHECK(convt1d_output_length(&q, &len) == CONVT1D_SUCCESS && len == req,
                              "output_padding %lld does not give length %lld", (long long)op, (long long)req);
                    } else {
                        CHECK(st == CONVT1D_ERROR_INVALID_VALUE && op == -7 &&
                                  strstr(convt1d_last_error(), "output_size") != NULL,
                              "output_padding_for_size(s=%lld, size=%lld [min %lld]) must be rejected: status %d, "
                              "message \"%s\"",
                              (long long)s, (long long)req, (long long)minlen, st, convt1d_last_error());
                    }
                    checked++;
                }
            }
    CHECK(checked > 100, "output_padding_for_size: only %d requests checked", checked);
}

static void test_helpers(void) {
    convt1d_params p = convt1d_params_make(3, 8, 12, 100, 5);
    CHECK(p.batch == 3 && p.in_channels == 8 && p.out_channels == 12 && p.in_length == 100 && p.kernel_size == 5 &&
              p.stride == 1 && p.padding == 0 && p.output_padding == 0 && p.dilation == 1 && p.groups == 1,
          "convt1d_params_make defaults");
    p.stride = 3;
    p.padding = 2;
    p.output_padding = 1;
    p.dilation = 2;
    p.groups = 4;
    int64_t len = 0, ni = 0, nw = 0, no = 0;
    CHECK(convt1d_output_length(&p, &len) == CONVT1D_SUCCESS && len == 99 * 3 - 4 + 2 * 4 + 1 + 1,
          "output length: %lld", (long long)len);
    CHECK(convt1d_tensor_sizes(&p, &ni, &nw, &no) == CONVT1D_SUCCESS && ni == 3 * 8 * 100 && nw == 8 * 3 * 5 &&
              no == 3 * 12 * len,
          "tensor sizes %lld %lld %lld", (long long)ni, (long long)nw, (long long)no);
    CHECK(convt1d_dtype_size(CONVT1D_F32) == 4 && convt1d_dtype_size(CONVT1D_F16) == 2 &&
              convt1d_dtype_size(CONVT1D_BF16) == 2 && convt1d_dtype_size(CONVT1D_F64) == 8 &&
              convt1d_dtype_size((convt1d_dtype)9) == 0,
          "dtype sizes");
    for (int s = 0; s <= 7; s++) {
        const char *str = convt1d_status_string((convt1d_status)s);
        CHECK(str && str[0] && strcmp(str, "unknown status code") != 0, "status string %d", s);
    }
    CHECK(strcmp(convt1d_status_string((convt1d_status)99), "unknown status code") == 0, "unknown status");
}

static void test_cuda_consistency(void) {
    int has = convt1d_has_cuda();
    CHECK(has == 0 || has == 1, "convt1d_has_cuda() = %d", has);
    CHECK(has == CONVT1D_TEST_EXPECT_CUDA, "convt1d_has_cuda() = %d but this build %s CUDA", has,
          CONVT1D_TEST_EXPECT_CUDA ? "has" : "has no");
    convt1d_params p = base();
    if (!has) {
        convt1d_status st;
        size_t bytes = 99;
#define NOCUDA(call)                                                                                   \
    do {                                                                                               \
        st = (call);                                                                                   \
        CHECK(st == CONVT1D_ERROR_NOT_SUPPORTED && convt1d_last_error()[0] != '\0',                    \
              #call ": status %d, message \"%s\"", st, convt1d_last_error());                          \
    } while (0)
        NOCUDA(convt1d_forward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, NULL, D, NULL));
        NOCUDA(convt1d_backward_input_cuda(&p, CONVT1D_F32, CONVT1D_MATH_ALLOW_TF32, D, D, D, NULL));
        NOCUDA(convt1d_backward_weight_workspace_size(&p, CONVT1D_F32, &bytes));
        NOCUDA(convt1d_backward_weight_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, D, NULL, 0, NULL));
        NOCUDA(convt1d_backward_bias_cuda(&p, CONVT1D_F32, D, D, NULL));
        NOCUDA(convt1d_backward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, D, D, D, D, NULL));
#undef NOCUDA
        CHECK(bytes == 0, "workspace size of a CPU-only build: %zu", bytes);
    } else {
        /* A CUDA build validates before touching the device: bad parameters and NULL pointers are
         * reported without any device memory. */
        convt1d_params q = p;
        q.stride = 0;
        convt1d_status st = convt1d_forward_cuda(&q, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, NULL, D, NULL);
        CHECK(st == CONVT1D_ERROR_INVALID_VALUE && strstr(convt1d_last_error(), "stride"),
              "CUDA forward with stride 0: %d (%s)", st, convt1d_last_error());
        st = convt1d_forward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, NULL, D, NULL, D, NULL);
        CHECK(st == CONVT1D_ERROR_NULL_POINTER, "CUDA forward with x NULL: %d (%s)", st, convt1d_last_error());
        st = convt1d_backward_cuda(&q, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, D, D, D, D, NULL);
        CHECK(st == CONVT1D_ERROR_INVALID_VALUE && strstr(convt1d_last_error(), "stride"),
              "CUDA one-call backward with stride 0: %d (%s)", st, convt1d_last_error());
        st = convt1d_backward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, NULL, D, NULL, NULL, NULL);
        CHECK(st == CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), "weight"),
              "CUDA one-call backward asking grad_x with w NULL: %d (%s)", st, convt1d_last_error());
    }
}

/* The packed-weight cache's host API, in either build: create, an empty cache's info, clear, destroy; NULL handles named.
 * A CPU-only build's cached forward says NOT_SUPPORTED like the uncached one; a CUDA build's validates first. (Filling and
 * reuse are tested on the GPU: tests/python/test_cuda.py, test_weight_cache_*.) */
static void test_weight_cache(void) {
    convt1d_weight_cache *c = NULL;
    convt1d_status st = convt1d_weight_cache_create(&c);
    CHECK(st == CONVT1D_SUCCESS && c != NULL, "weight cache create: %d (%s)", st, convt1d_last_error());
    size_t bytes = 99;
    int entries = 99;
    uint64_t uses = 99;
    st = convt1d_weight_cache_info(c, &bytes, &entries, &uses);
    CHECK(st == CONVT1D_SUCCESS && bytes == 0 && entries == 0 && uses == 0,
          "empty cache info: %d, %zu bytes, %d entries, %llu uses", st, bytes, entries, (unsigned long long)uses);
    CHECK(convt1d_weight_cache_info(c, NULL, NULL, NULL) == CONVT1D_SUCCESS, "info with no outputs");
    CHECK(convt1d_weight_cache_clear(c) == CONVT1D_SUCCESS, "clear of an empty cache");
    CHECK(convt1d_weight_cache_clear(NULL) == CONVT1D_SUCCESS, "clear(NULL) is a no-op");
    st = convt1d_weight_cache_create(NULL);
    CHECK(st == CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), "cache"), "create(NULL): %d (%s)", st,
          convt1d_last_error());
    st = convt1d_weight_cache_info(NULL, &bytes, &entries, &uses);
    CHECK(st == CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), "cache"), "info(NULL): %d (%s)", st,
          convt1d_last_error());
    convt1d_params p = base();
    if (!convt1d_has_cuda()) {
        st = convt1d_forward_cuda_cached(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, NULL, D, c, NULL);
        CHECK(st == CONVT1D_ERROR_NOT_SUPPORTED, "CPU-only cached forward: %d (%s)", st, convt1d_last_error());
    } else {
        p.stride = 0;
        st = convt1d_forward_cuda_cached(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, D, D, NULL, D, c, NULL);
        CHECK(st == CONVT1D_ERROR_INVALID_VALUE && strstr(convt1d_last_error(), "stride"),
              "cached forward with stride 0: %d (%s)", st, convt1d_last_error());
    }
    convt1d_weight_cache_destroy(c);
    convt1d_weight_cache_destroy(NULL);
}

int main(void) {
    test_invalid_values();
    test_weight_cache();
    test_overflow();
    test_null_pointers();
    test_output_padding_for_size();
    test_helpers();
    test_cuda_consistency();
    printf("test_api: %ld checks, %ld failures (has_cuda = %d)\n", n_checks, n_failures, convt1d_has_cuda());
    return n_failures ? 1 : 0;
}
