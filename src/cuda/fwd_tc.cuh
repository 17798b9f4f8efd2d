/* Tensor-core forward: launcher interface shared by fwd_tc.cu and the dev harness (dev/cuda). */
#pragma once
#include "fwd_tc_kernel.cuh"
#include "kernels.cuh"

/* Below this many input channels per group the GEMM's reduction is too short for tensor cores to pay
 * (depthwise and near-depthwise): the direct kernels take it. */
#define CONVT1D_TC_MIN_CIN_G 8

/* Number of tile configurations (ids 0 .. CONVT1D_TC_NCFG-1; the table is in fwd_tc.cu). */
#define CONVT1D_TC_NCFG 36

/* convt1d_fwd_tc with a forced tile configuration (cfg >= 0, see fwd_tc.cu), or -1 for the heuristic. */
convt1d_status convt1d_fwd_tc_cfg(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                  void *y, cudaStream_t stream, int cfg);

/* The configuration the last successful call on this thread chose (diagnostics for the harness). */
extern thread_local int convt1d_tc_last_cfg;
