/* Internal interface between the CUDA entry points (api.cu) and the kernel files. */
#pragma once
#include <cuda_runtime.h>

#include "fold_layout.cuh"
#include "internal.h"

/* Everything a kernel launcher needs, computed once on the host by api.cu after validation. */
struct convt1d_problem {
    convt1d_params p;
    int64_t out_length; /* L_out */
    int64_t cin_g;      /* C_in / groups  */
    int64_t cout_g;     /* C_out / groups */
    convt1d_dtype dtype;
    convt1d_math math;
    /* convt1d_fwd_tc only: w is the weight of the ADJOINT problem ([C_out, C_in/groups, K] of the
     * stride-1 problem whose grad_input this forward computes), read as W[co, ci, k] = w[ci, co, K-1-k]
     * per group, so grad_input needs no transposed weight copy (bwd_input_planes.cu). */
    bool w_adjoint = false;
    /* convt1d_forward_cuda_cached's cache of packed weights (weight_cache.cu); nullptr elsewhere. */
    convt1d_weight_cache *wcache = nullptr;
};

/* The packed-weight cache (weight_cache.cu). A layout's key: everything the packing pass's output depends on besides
 * the weight's contents (its pointer, the device, the kernel's operand type and the pack's sizes), zeros past those. */
struct PackKey {
    int64_t v[20] = {};
};
/* The cache's copy of `key` (bytes long) for a call on `stream`: *wp = that copy, *fill = whether the caller must pack
 * into it now (then weight_cache_filled, or weight_cache_failed if the pack could not be queued); *wp = nullptr where
 * the cache does not serve this call (pack into scratch as without a cache): a copy being filled by another call, a
 * stream being captured before the copy exists, the cache full, or no memory. */
void weight_cache_get(convt1d_weight_cache *c, const PackKey &key, size_t bytes, cudaStream_t stream, void **wp,
                      bool *fill);
void weight_cache_filled(convt1d_weight_cache *c, const void *wp, cudaStream_t stream);
void weight_cache_failed(convt1d_weight_cache *c, const void *wp);

/* A layer's multiply-adds, batch x L_in x C_in x C_out/groups x K, in double (exact below 2^53): the measure of the
 * size rules (tiny_layer below, the wgmma forward's lower limit in fwd_tc.cu). */
inline double layer_macs(const convt1d_params &p) {
    return (double)p.batch * p.in_length * p.in_channels * (p.out_channels / p.groups) * p.kernel_size;
}

/* Fewer than 2^24 multiply-adds (batch x L_in x C_in x C_out/groups x K): launch- and host-bound layers. Their
 * gradients take the direct kernels (the tensor-core kernels' few, long-reduction blocks lose to the direct kernels'
 * many short ones there; H100, strict fp32, ms, tensor-core -> direct: kernelbench_64_small grad_x 0.047 -> 0.010,
 * grad_w 0.053 -> 0.017; kernelbench_79_small grad_x 0.132 -> 0.052, grad_w 0.048 -> 0.034; kernelbench_74_small
 * equal), and in float32 they are computed fp32-accurate (tiny_fp32 in api.cu). */
inline bool tiny_layer(const convt1d_params *p) {
    return layer_macs(*p) < (double)(1 << 24);
}

/* One group of a grouped problem as a groups-1 problem of C_in/groups and C_out/groups channels: the grouped register-A
 * paths (fwd_wgmma.cu, bwd_weight_rs.cu) run it once per group on the group's views of the tensors. */
inline convt1d_problem one_group(const convt1d_problem &pr) {
    convt1d_problem pg = pr;
    pg.p.in_channels = pr.cin_g;
    pg.p.out_channels = pr.cout_g;
    pg.p.groups = 1;
    return pg;
}

/* Bytes from one group's view of x (grad_x), y (grad_y) and w to the next group's, for elements of es bytes. The grouped
 * paths run only where all three are 16-byte multiples: every view is then aligned as the whole tensors are, so every
 * group's launch makes the same choices. */
struct GroupSteps {
    int64_t x, y, w;
    bool aligned() const { return x % 16 == 0 && y % 16 == 0 && w % 16 == 0; }
};
inline GroupSteps group_steps(const convt1d_problem &pr, int64_t es) {
    return {pr.cin_g * pr.p.in_length * es, pr.cout_g * pr.out_length * es, pr.cin_g * pr.cout_g * pr.p.kernel_size * es};
}

/* launch(g) for every group g in order. Every view is alike (group_steps' aligned()), so a group declining after group 0
 * ran cannot happen; it is reported as an internal error, not passed on as NOT_SUPPORTED (the output half written). */
template <class Launch>
convt1d_status for_each_group(const convt1d_problem &pr, const char *what, Launch launch) {
    for (int64_t g = 0; g < pr.p.groups; ++g) {
        const convt1d_status st = launch(g);
        if (st == CONVT1D_ERROR_NOT_SUPPORTED && g > 0)
            return convt1d_fail(CONVT1D_ERROR_INTERNAL, "%s: group %d declined after group 0 ran", what, (int)g);
        if (st != CONVT1D_SUCCESS) return st;
    }
    return CONVT1D_SUCCESS;
}

/* Tensor-core forward (fwd_tc.cu). Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error,
 * when it has no kernel for this problem; api.cu then falls back to the direct kernel. */
convt1d_status convt1d_fwd_tc(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                              void *y, cudaStream_t stream);
/* Layers whose taps all land on one phase of y (dilation a multiple of the stride): that phase by the
 * stride-1 tensor-core forward into scratch, then y written in one pass (fwd_one_phase.cu). */
convt1d_status convt1d_fwd_one_phase(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream);

/* Narrow layers (C_out <= 64, groups 1, C_in*K small) whose taps all land on one phase of y, stride 1
 * included: one launch reading x once and writing y once, phase and bias interleaved (fwd_phase_fused.cu).
 * NOT_SUPPORTED, without an error, where it does not apply or is not the measured choice. */
convt1d_status convt1d_fwd_phase_fused(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                       void *y, cudaStream_t stream);

/* grad_input of narrow layers (C_in <= 32, C_out <= 64, groups 1) whose taps read one phase of
 * grad_y, stride 1 included: one launch reading grad_y once (bwd_input_phase_fused.cu). NOT_SUPPORTED, without
 * an error, where it does not apply or is not the measured choice. */
convt1d_status convt1d_bwd_input_phase_fused(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                             cudaStream_t stream);

/* The output columns o in [o_lo, L_out) of a forward (groups 1; fp32, fp16, bf16), every sample and channel, on
 * CUDA cores with fp32 sums (fwd_edge.cu): what the register-A wgmma forward leaves out when it drops a last,
 * nearly empty position tile. NOT_SUPPORTED where it does not apply. */
convt1d_status convt1d_fwd_edge(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                int64_t o_lo, cudaStream_t stream);
/* Whether convt1d_fwd_edge takes those columns (a tile is dropped only then). */
bool convt1d_fwd_edge_fits(const convt1d_problem &pr, int64_t o_lo);

/* Batch folding (fold.cu): a batch of short rows as one row of N*Lp positions, each sample's x followed by zeros
 * enough that its taps stay off the next sample's outputs. convt1d_fold_plan says whether it pays for the forward or
 * the gradients (CONVT1D_FOLD / CONVT1D_FOLD_BWD = 1 / 0 force it on where legal / off; read at every call) and gives
 * its layout (fold_layout.cuh: the folded layer at batch 1 and padding 0, its output length). convt1d_fwd_fold gathers
 * x, runs `forward` on the folded problem into scratch and cuts y out of it; convt1d_bwd_fold places grad_y into a
 * long row, runs the folded layer's gradients (grad_x and / or grad_w where not null) and cuts grad_x out. Both return
 * CONVT1D_ERROR_NOT_SUPPORTED, with nothing launched and no error recorded, where their scratch cannot be had: the
 * caller then runs the layer unfolded. */
using ForwardFn = convt1d_status (*)(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                     cudaStream_t stream);
using BwdInputFn = convt1d_status (*)(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                      cudaStream_t stream);
using BwdWeightFn = convt1d_status (*)(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                       cudaStream_t stream);
bool convt1d_fold_plan(const convt1d_problem &pr, bool gradients, convt1d_fold_layout *layout);
convt1d_status convt1d_fwd_fold(const convt1d_problem &pr, const convt1d_fold_layout &layout, const void *x,
                                const void *w, const void *bias, void *y, cudaStream_t stream, ForwardFn forward);
convt1d_status convt1d_bwd_fold(const convt1d_problem &pr, const convt1d_fold_layout &layout, const void *grad_y,
                                const void *x, const void *w, void *grad_x, void *grad_w,
                                cudaStream_t stream, BwdInputFn bwd_input, BwdWeightFn bwd_weight);

/* Compute-capability major of the current device, cached for the process (0 if it cannot be read). */
int convt1d_sm_major();
/* Multiprocessor count of the current device, cached for the process (0 if it cannot be read). */
int convt1d_sm_count();
/* Most dynamic shared memory one block may opt into on the current device (cudaDevAttrMaxSharedMemoryPerBlockOptin,
 * cached; 48 KB if it cannot be read): 227 KB on sm_90, 163 KB on sm_80, 99 KB on sm_86/89/120. */
size_t convt1d_smem_optin();
/* Peak DRAM bandwidth of the current device in GB/s (cached for the process, like convt1d_sm_count: the device current
 * at the first call; 0 if it cannot be read). */
int convt1d_dram_gbps();
/* L2 size of the current device in bytes (cached for the process; 0 if it cannot be read). */
int64_t convt1d_l2_bytes();
/* Whether the device has the H200's bandwidth class (>= 4500 GB/s peak; H100 SXM: 3352): some choices were measured
 * on both cards and differ (Session 37, runs 378-380, H200: the KernelBench 74/79 TF32 epilogues, 16-bit stride-2 stores;
 * hifigan_up2's tile, since Session 42 on both cards). The H100's choices stay where this is false. CONVT1D_DRAM_RICH=0/1 overrides (A/B, tests). */
bool convt1d_dram_rich();
/* Greatest common divisor of two non-negative ints (the stride and dilation's phase step). */
int convt1d_gcd(int a, int b);

/* Hopper (sm_90a) forward on wgmma (fwd_wgmma.cu), fp16/bf16/TF32/split TF32, groups == 1: the register-A
 * kernel reading x in place where rs_pays(), else the transposed-operand (SS) kernel for long reductions.
 * Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error, for anything it does not take;
 * convt1d_fwd_tc tries it first and otherwise runs its mma.sync kernel. */
convt1d_status convt1d_fwd_wgmma(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                 void *y, cudaStream_t stream);

/* Hopper forward of one-phase layers (dilation a multiple of the stride >= 2: KernelBench 79) on the register-A
 * kernel, phase 0 as a stride-1 GEMM whose staged rows carry the bias between its outputs (fwd_wgmma.cu).
 * NOT_SUPPORTED, without an error, where not taken; tried before convt1d_fwd_phase_fused. */
convt1d_status convt1d_fwd_wgmma_one_phase(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                           void *y, cudaStream_t stream);

/* Hopper grad_input of a strided layer (groups == 1) through the wgmma forward (fwd_wgmma.cu): where
 * rs_bi_pays(), the register-A kernel reading grad_y in place as s*C_out phase channels; else grad_y's
 * phase planes written transposed (each phase offset by the padding: no empty tap slot at d = 1), the
 * weight gathered, then the SS kernel with taps stepping backwards. NOT_SUPPORTED, without an error,
 * where not taken (its heuristics included; CONVT1D_WGMMA / CONVT1D_WGMMA_RS force or disable). */
convt1d_status convt1d_bwd_input_wgmma(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                       cudaStream_t stream);

/* Hopper (sm_90a) grad_weight on wgmma + TMA (bwd_weight_wgmma.cu): strided layers, groups == 1; phase
 * planes of grad_y and shifted copies of x in scratch from cudaMallocAsync, a deterministic split
 * reduction. Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error, for anything it does not
 * take (or where its heuristic prefers the mma.sync kernel). */
/* Hopper (sm_90a) grad_weight at stride 1 (bwd_weight_rs.cu; 2..4 as an opt-in experiment): wgmma with
 * grad_y in registers, x by TMA; groups == 1, fp16 / bf16 / TF32. NOT_SUPPORTED where it does not apply (the caller falls back). */
convt1d_status convt1d_bwd_weight_rs(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                     cudaStream_t stream);
/* Layers whose taps all land on one phase of y (dilation d = m*s, s >= 2): l*s - p + k*d = s*(l + k*m + c) + r
 * with -p = c*s + r, 0 <= r < s, so phase r of y (grad_y), q < Q = ceil((L_out - r) / s), is the stride-1
 * problem *q (padding -c >= 0, dilation m, output length Q) and the other phases get no products. Positions
 * outside [0, Q) are outside [0, L_out) in the original, so the kernels' zero fill stays right.
 * q->p.output_padding is Q's excess over the stride-1 length at output_padding 0: a legal output_padding
 * only when it is in [0, max(1, m)) (a caller that goes through the full forward requires that). Returns
 * false for other layers. Shared by fwd_one_phase.cu and bwd_weight_rs.cu. */
inline bool one_phase_problem(const convt1d_problem &pr, convt1d_problem *q, int *r) {
    const convt1d_params &P = pr.p;
    if (P.stride < 2 || P.dilation % P.stride != 0) return false;
    const int64_t s = P.stride, c = P.padding == 0 ? 0 : -((P.padding + s - 1) / s), m = P.dilation / s;
    *r = (int)(-P.padding - c * s);
    const int64_t Q = (pr.out_length - *r + s - 1) / s;
    if (Q < 1) return false;
    *q = pr;
    q->p.stride = 1;
    q->p.padding = -c;
    q->p.dilation = m;
    q->p.output_padding = Q - ((P.in_length - 1) + 2 * c + m * (P.kernel_size - 1) + 1);
    q->out_length = Q;
    return true;
}

/* grad_weight of narrow layers (C_in <= 32, C_out <= 64, K <= 4, groups 1) whose taps read one phase of grad_y,
 * stride 1 included: one launch reading grad_y and x once, then a fixed-order sum of the blocks' partials
 * (bwd_weight_phase_fused.cu). NOT_SUPPORTED, without an error, where it does not apply or is not the measured
 * choice. */
convt1d_status convt1d_bwd_weight_phase_fused(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                              cudaStream_t stream);
/* The fused one-phase kernels' view of a layer (fwd_phase_fused.cu, bwd_input_phase_fused.cu,
 * bwd_weight_phase_fused.cu): phase r of stride s of y (grad_y), Q positions long; input position l meets phase
 * position l + c + k*m through tap k. Stride 1 is the case s = 1, r = 0, c = -padding, m = dilation, Q = L_out;
 * false where the taps do not all land on one phase (one_phase_problem). */
struct one_phase_view {
    int64_t s, r, c, m, Q;
};
inline bool phase_view(const convt1d_problem &pr, one_phase_view *v) {
    const convt1d_params &P = pr.p;
    if (P.stride == 1) {
        *v = {1, 0, -P.padding, P.dilation, pr.out_length};
        return true;
    }
    convt1d_problem q;
    int r = 0;
    if (!one_phase_problem(pr, &q, &r)) return false;
    *v = {P.stride, r, -q.p.padding, q.p.dilation, q.out_length};
    return true;
}

/* The same kernel for layers whose taps all land on one phase of grad_y (dilation a multiple of the stride,
 * KernelBench 79): that phase is gathered into scratch, and the rest is a stride-1 problem (bwd_weight_rs.cu). */
convt1d_status convt1d_bwd_weight_rs_phase(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                           cudaStream_t stream);
convt1d_status convt1d_bwd_weight_wgmma(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                        cudaStream_t stream);

/* Direct (CUDA-core) kernels, every dtype and parameter combination (fwd_direct.cu, bwd_direct.cu). */
convt1d_status convt1d_fwd_direct(const convt1d_problem &pr, const void *x, const void *w,
                                  const void *bias, void *y, cudaStream_t stream);

/* Turns the last CUDA error (if any) into CONVT1D_ERROR_CUDA with a message naming `what`. */
convt1d_status convt1d_cuda_check(const char *what);

/* Depthwise / channel-multiplier forward (C_in / groups == 1): bandwidth-bound (depthwise.cu).
 * Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error, for shapes it does not take. */
convt1d_status convt1d_fwd_depthwise(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream);
/* Its grad_input (a depthwise strided correlation of grad_y; depthwise.cu), for C_in / groups == 1. */
convt1d_status convt1d_bwd_input_depthwise(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                           cudaStream_t stream);
/* Its grad_weight (a reduction over samples and positions per channel and tap, fixed order; depthwise.cu). */
convt1d_status convt1d_bwd_weight_depthwise(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                            cudaStream_t stream);

/* Direct backward kernels (bwd_direct.cu); deterministic, every dtype and parameter combination. */
convt1d_status convt1d_bwd_input_direct(const convt1d_problem &pr, const void *grad_y, const void *w,
                                        void *grad_x, cudaStream_t stream);
/* Workspace bytes of convt1d_bwd_weight_direct: a function of the problem only (0 for an empty batch). */
convt1d_status convt1d_bwd_weight_workspace(const convt1d_problem &pr, size_t *bytes);
/* Split reduction into the workspace, then a fixed-order sum into grad_w. */
convt1d_status convt1d_bwd_weight_direct(const convt1d_problem &pr, const void *grad_y, const void *x,
                                         void *grad_w, void *workspace, size_t workspace_bytes,
                                         cudaStream_t stream);
convt1d_status convt1d_bwd_bias_direct(const convt1d_problem &pr, const void *grad_y, void *grad_b,
                                       cudaStream_t stream);

/* Tensor-core backward (bwd_tc.cu): f32 (TF32 mma, or 3xTF32 under CONVT1D_MATH_STRICT_FP32), f16, bf16;
 * never f64. Each returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error, for a problem it
 * does not take (f64, C_in/groups < 8, windows too large for shared memory, grid limits); api.cu then
 * uses the direct kernel. batch == 0 is taken: grad_input does nothing, grad_weight zeroes grad_w.
 * grad_weight is bitwise deterministic for a given problem and workspace size: the reduction is split
 * into a fixed number of fp32 partials (as many as the workspace holds, up to the planned count)
 * summed in order by a second kernel; with workspace NULL / too small for two it uses one split. */
convt1d_status convt1d_bwd_input_tc(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                    cudaStream_t stream);
/* Workspace bytes for convt1d_bwd_weight_tc at full speed (0 allowed); NOT_SUPPORTED when not taken. */
convt1d_status convt1d_bwd_weight_tc_workspace(const convt1d_problem &pr, size_t *bytes);
convt1d_status convt1d_bwd_weight_tc(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                     void *workspace, size_t workspace_bytes, cudaStream_t stream);
/* grad_input of a strided problem as ONE stride-1 tensor-core forward (bwd_input_planes.cu): grad_y is
 * gathered into its phase planes (the R = s/gcd(s,d) phases taps reach) and w re-indexed
 * (bwd_input_planes.cuh), then convt1d_fwd_tc runs on [N, G*Cout_g*R, L_in+P] with K' = P+1 taps. Scratch (planes, W') from cudaMallocAsync on `stream`.
 * At stride 1 (padding <= (K-1)*d) no planes: the forward of the adjoint problem runs on grad_y itself,
 * reading w transposed and flipped (convt1d_problem::w_adjoint), with no scratch.
 * f32 (TF32 or 3xTF32 by pr.math), f16, bf16. Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an
 * error, for problems the forward kernel would not take (checked before launching) or declines. */
convt1d_status convt1d_bwd_input_planes(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                        cudaStream_t stream);
/* Test switch (not thread-safe): bytes of planes scratch per batch chunk (0 restores the 512 MiB default). */
void convt1d_bwd_input_planes_set_budget(size_t bytes);
/* Dev/benchmark switch (not thread-safe; default on): 0 makes the f32 tensor-core backward kernels use
 * single-buffered register staging instead of double-buffered cp.async, for A/B timing in dev/cuda/bwd. */
void convt1d_bwd_tc_set_pipeline(int enable);
