/* Allocation and threading helpers of the CPU back end. */
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu_internal.h"

void *cpu_alloc(int64_t count, size_t size) {
    if (count < 0) return NULL;
    size_t n = (size_t)count, bytes;
    if ((uint64_t)count > SIZE_MAX || __builtin_mul_overflow(n, size, &bytes)) return NULL;
    if (bytes > SIZE_MAX - 64) return NULL;
    bytes = (bytes + 63) / 64 * 64; /* aligned_alloc wants a multiple of the alignment */
    if (bytes == 0) bytes = 64;
    return aligned_alloc(64, bytes);
}

void cpu_free(void *ptr) { free(ptr); }

int cpu_threads(int requested, int64_t work_items, double work) {
    int n = requested;
#ifdef _OPENMP
    if (n <= 0) n = omp_get_max_threads();
#else
    n = 1;
#endif
    if (n < 1) n = 1;
    if (work_items < n) n = work_items < 1 ? 1 : (int)work_items;
    if (work / CPU_MIN_WORK < n) n = work < CPU_MIN_WORK ? 1 : (int)(work / CPU_MIN_WORK);
    return n;
}

typedef struct {
    int64_t res, k;
} tap_key;

static int tap_cmp(const void *a, const void *b) {
    const tap_key *x = (const tap_key *)a, *y = (const tap_key *)b;
    if (x->res != y->res) return x->res < y->res ? -1 : 1;
    return x->k < y->k ? -1 : (x->k > y->k);
}

convt1d_status cpu_phases_make(cpu_phases *ph, int64_t K, int64_t s, int64_t d) {
    tap_key *keys = (tap_key *)cpu_alloc(K, sizeof *keys);
    ph->np = 0;
    ph->r = (int64_t *)cpu_alloc(K, sizeof(int64_t));
    ph->first = (int64_t *)cpu_alloc(K + 1, sizeof(int64_t));
    ph->k = (int64_t *)cpu_alloc(K, sizeof(int64_t));
    ph->off = (int64_t *)cpu_alloc(K, sizeof(int64_t));
    if (!keys || !ph->r || !ph->first || !ph->k || !ph->off) {
        cpu_free(keys);
        cpu_phases_free(ph);
        return CONVT1D_ERROR_OUT_OF_MEMORY;
    }
    for (int64_t k = 0; k < K; k++) { /* k*d <= d*(K-1): checked by validation */
        keys[k].res = (k * d) % s;
        keys[k].k = k;
    }
    qsort(keys, (size_t)K, sizeof *keys, tap_cmp);
    for (int64_t t = 0; t < K; t++) {
        if (t == 0 || keys[t].res != keys[t - 1].res) {
            ph->r[ph->np] = keys[t].res;
            ph->first[ph->np++] = t;
        }
        ph->k[t] = keys[t].k;
        ph->off[t] = (keys[t].k * d) / s;
    }
    ph->first[ph->np] = K;
    cpu_free(keys);
    return CONVT1D_SUCCESS;
}

void cpu_phases_free(cpu_phases *ph) {
    cpu_free(ph->r);
    cpu_free(ph->first);
    cpu_free(ph->k);
    cpu_free(ph->off);
    ph->r = ph->first = ph->k = ph->off = NULL;
}
