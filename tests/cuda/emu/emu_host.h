/* The host side shared by the emulator's test programs (emu_main.cpp, emu_planes_main.cpp, emu_fold_main.cpp): the few
 * CUDA runtime calls a path makes outside its kernels, and the pass / fail count. Include once per program, after
 * kernels.cuh. Scratch from cudaMallocAsync is malloc'ed at the exact size and poisoned (0xff bytes, NaN in every float
 * type), so AddressSanitizer catches an out-of-range access and an unwritten element shows as NaN; g_allocs holds what
 * is not yet freed, g_alloc_calls counts the calls, and g_out_of_memory makes them fail. */
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <utility>
#include <vector>

convt1d_status convt1d_cuda_check(const char *) { return CONVT1D_SUCCESS; }

static std::vector<std::pair<void *, size_t>> g_allocs;
static size_t g_alloc_calls = 0;
static bool g_out_of_memory = false;
extern "C" cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t) {
    if (g_out_of_memory) return cudaErrorMemoryAllocation;
    *p = malloc(n ? n : 1);
    memset(*p, 0xff, n);
    g_allocs.push_back({*p, n});
    ++g_alloc_calls;
    return cudaSuccess;
}
extern "C" cudaError_t cudaFreeAsync(void *p, cudaStream_t) {
    for (size_t i = 0; i < g_allocs.size(); ++i)
        if (g_allocs[i].first == p) {
            g_allocs.erase(g_allocs.begin() + i);
            free(p);
            return cudaSuccess;
        }
    fprintf(stderr, "cudaFreeAsync of an unknown pointer\n");
    abort();
}
extern "C" cudaError_t cudaGetLastError(void) { return cudaSuccess; }
extern "C" const char *cudaGetErrorString(cudaError_t) { return "emulated"; }

static int passed = 0, failed = 0;
static void check(bool ok, const std::string &what) {
    if (ok) ++passed;
    else { ++failed; fprintf(stderr, "FAIL %s\n", what.c_str()); }
}
