/* The host side shared by the emulator's test programs (emu_main.cpp, emu_planes_main.cpp, emu_fold_main.cpp): the few
 * CUDA runtime calls a path makes outside its kernels, the pass / fail count, and the kernels' problem of a reference
 * one. Include once per program, after reference.h and kernels.cuh. Scratch from cudaMallocAsync is malloc'ed at the
 * exact size and poisoned (0xff bytes, NaN in every float type), so AddressSanitizer catches an out-of-range access
 * and an unwritten element shows as NaN; g_allocs holds what is not yet freed, g_alloc_calls counts the calls, and
 * g_out_of_memory makes them fail. */
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

/* The problem api.cu would hand the kernels for P in dtype dt (strict fp32: no TF32 in float32). */
static convt1d_problem problem_of(const ref::Problem &P, convt1d_dtype dt) {
    convt1d_problem pr;
    pr.p = P.p; pr.out_length = P.Lout; pr.cin_g = P.cin_g; pr.cout_g = P.cout_g; pr.dtype = dt;
    pr.math = CONVT1D_MATH_STRICT_FP32;
    return pr;
}

static int passed = 0, failed = 0;
static void check(bool ok, const std::string &what) {
    if (ok) ++passed;
    else { ++failed; fprintf(stderr, "FAIL %s\n", what.c_str()); }
}
