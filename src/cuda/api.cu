/* Public CUDA entry points: validate, describe the problem once, pick a kernel, launch on the caller's
 * stream. Nothing here synchronizes or prints; kernel scratch is stream-ordered (cudaMallocAsync), so every
 * call can be captured in a CUDA graph. */
#include <stdlib.h>
#include <string.h>

#include <atomic>

#include "kernels.cuh"

convt1d_status convt1d_cuda_check(const char *what) {
    const cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return CONVT1D_SUCCESS;
    return convt1d_fail(CONVT1D_ERROR_CUDA, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

namespace {

/* The kernels' scratch (packed weights, transposes, partial sums) comes from cudaMallocAsync on the caller's stream,
 * out of the device's default pool. That pool's release threshold is 0 by default: at every synchronization it hands
 * freed memory back to the driver, and the next call maps it again. A caller that synchronizes after each call
 * (kernelbench/evaluate.py, a step-by-step inference loop) paid that on every call: KernelBench 74 read 0.82 ms per
 * synchronized call against 0.65 back to back (run 310). Until Session 28 only the mma.sync forward (fwd_tc.cu) set
 * the threshold, so the wgmma paths never did. Set once per device; the race between threads is benign (same value). */
void keep_pool_scratch() {
    static std::atomic<bool> kept[64];
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) { /* no device: the call itself will say so; leave no error behind */
        cudaGetLastError();
        return;
    }
    if (dev < 64 && kept[dev].load(std::memory_order_relaxed)) return;
    cudaMemPool_t pool;
    const uint64_t keep = 256ull << 20;
    if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, (void *)&keep) != cudaSuccess)
        cudaGetLastError(); /* no memory pools on this device: nothing kept, nothing to report */
    if (dev < 64) kept[dev].store(true, std::memory_order_relaxed);
}

/* Tiny layers in float32 are computed fp32-accurate even where TF32 is allowed: their time is the launch and the host,
 * not the arithmetic, and TF32's error there is what a user comparing against nn.ConvTranspose1d sees (cuDNN computes
 * many small layers in fp32: KernelBench 64 / 79's small sizes 1.9e-7 / 3.3e-7 against TF32's 2.9e-4 / 2.7e-4, run
 * 428; and a one-output layer whose 476 terms cancel was 1.2e-2 off in TF32, run 438). CONVT1D_TINY_FP32=0 keeps TF32
 * there (the tests of the TF32 kernels on small layers set it; read at every call). */
bool tiny_fp32() {
    const char *v = convt1d_env("CONVT1D_TINY_FP32");
    return !(v && v[0] == '0');
}

convt1d_problem make_problem(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                             int64_t out_length) {
    keep_pool_scratch(); /* every entry point with work to do comes through here */
    convt1d_env_refresh(); /* the CONVT1D_* switches as they are at this call (convt1d_env) */
    convt1d_problem pr;
    pr.p = *p;
    pr.out_length = out_length;
    pr.cin_g = p->in_channels / p->groups;
    pr.cout_g = p->out_channels / p->groups;
    pr.dtype = dtype;
    pr.math = math == CONVT1D_MATH_ALLOW_TF32 && dtype == CONVT1D_F32 && tiny_layer(p) && tiny_fp32()
                  ? CONVT1D_MATH_STRICT_FP32
                  : math;
    return pr;
}

convt1d_status check_math(convt1d_math math) {
    if (math != CONVT1D_MATH_ALLOW_TF32 && math != CONVT1D_MATH_STRICT_FP32)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE,
                            "math must be CONVT1D_MATH_ALLOW_TF32 or CONVT1D_MATH_STRICT_FP32, got %d", (int)math);
    return CONVT1D_SUCCESS;
}

/* CONVT1D_FORCE_DIRECT=1 in the environment sends forward and backward to the direct kernels (tests use
 * it to cover them on shapes the specialised kernels would take). */
bool force_direct() {
    const char *v = convt1d_env("CONVT1D_FORCE_DIRECT");
    return v && v[0] && v[0] != '0';
}

/* Whether the depthwise kernels (depthwise.cu: forward, grad_input, grad_weight) are tried: C_in / groups == 1, and
 * not turned off by CONVT1D_DW=0 (an A/B in one process against the paths the layer takes without them; read at
 * every call). */
bool depthwise_layer(const convt1d_problem &pr) {
    const char *v = convt1d_env("CONVT1D_DW");
    return pr.cin_g == 1 && !(v && v[0] == '0');
}

/* CONVT1D_BWD_INPUT=planes|tc|direct picks the first grad_input kernel to try, whatever the problem's
 * size (planes -> tc -> direct, tc -> direct, direct only; a kernel that declines the problem passes it
 * on), so one process can A/B them; unset, empty or anything else: the heuristic below.
 * CONVT1D_FORCE_DIRECT wins over it. Read at every call, like force_direct(). */
enum class BwdInputPick { Auto, Wgmma, Planes, Tc, Direct };
BwdInputPick bwd_input_pick() {
    const char *v = convt1d_env("CONVT1D_BWD_INPUT");
    if (!v) return BwdInputPick::Auto;
    if (!strcmp(v, "wgmma")) return BwdInputPick::Wgmma;
    if (!strcmp(v, "planes")) return BwdInputPick::Planes;
    if (!strcmp(v, "tc")) return BwdInputPick::Tc;
    if (!strcmp(v, "direct")) return BwdInputPick::Direct;
    return BwdInputPick::Auto;
}

cudaStream_t as_cuda(convt1d_stream s) { return reinterpret_cast<cudaStream_t>(s); }

int64_t numel_w(const convt1d_params *p) { return p->in_channels * (p->out_channels / p->groups) * p->kernel_size; }

/* The forward's kernel choice for a validated, non-empty problem (also the folded problem's, fold.cu). */
convt1d_status forward_kernels(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                               cudaStream_t s) {
    convt1d_status st;
    if (!force_direct()) {
        st = convt1d_fwd_wgmma_one_phase(pr, x, w, bias, y, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        st = convt1d_fwd_phase_fused(pr, x, w, bias, y, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        st = convt1d_fwd_one_phase(pr, x, w, bias, y, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        st = convt1d_fwd_tc(pr, x, w, bias, y, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        if (depthwise_layer(pr)) {
            st = convt1d_fwd_depthwise(pr, x, w, bias, y, s);
            if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        }
        convt1d_clear_error(); /* a declined kernel leaves no message behind */
    }
    return convt1d_fwd_direct(pr, x, w, bias, y, s);
}

} // namespace

int convt1d_has_cuda(void) { return 1; }

convt1d_status convt1d_forward_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                    const void *x, const void *w, const void *bias, void *y,
                                    convt1d_stream stream) {
    return convt1d_forward_cuda_cached(p, dtype, math, x, w, bias, y, nullptr, stream);
}

convt1d_status convt1d_forward_cuda_cached(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                           const void *x, const void *w, const void *bias, void *y,
                                           convt1d_weight_cache *cache, convt1d_stream stream) {
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, x, "x", w, "weight", y, "y");
    if (st != CONVT1D_SUCCESS) return st;
    if ((st = check_math(math)) != CONVT1D_SUCCESS) return st;
    if (p->batch == 0) return CONVT1D_SUCCESS; /* empty output */
    convt1d_problem pr = make_problem(p, dtype, math, lout);
    pr.wcache = cache; /* read only where a forward packs its weights (fwd_wgmma.cu) */
    const cudaStream_t s = as_cuda(stream);
    convt1d_fold_layout fold;
    if (!force_direct() && convt1d_fold_plan(pr, false, &fold)) {
        st = convt1d_fwd_fold(pr, fold, x, w, bias, y, s, forward_kernels);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st; /* else no scratch for the fold: run it unfolded */
    }
    return forward_kernels(pr, x, w, bias, y, s);
}

namespace {

/* The three gradients' kernel choice, for a validated, non-empty problem (shared by the one-gradient
 * entry points and convt1d_backward_cuda). */
convt1d_status run_bwd_input(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                             cudaStream_t s) {
    const convt1d_params *p = &pr.p;
    convt1d_status st;
    /* grad_input at stride >= 4 goes through the stride-1 tensor-core forward on the phase planes of
     * grad_y first (bwd_input_planes.cu): the tensor-core grad_input kernel's grad_y window grows with
     * the stride. Measured on an H100 (ms, planes vs tc, TF32 / bf16): upsample_x8 7.61 vs 18.70 /
     * 4.71 vs 11.76, codec_dec_s5 1.26 vs 3.04 / 0.79 vs 1.81 (strict fp32: equal); at stride 2 tc
     * wins (hifigan_up3 2.79 vs 3.02, kernelbench_79 0.88 vs 1.40). At stride 1 the planes path is the
     * forward kernel on grad_y itself with the weight read as its adjoint (no gather, no scratch).
     * Tiny problems take the direct kernel, except at stride 1 where the adjoint forward comes first. */
    BwdInputPick pick = force_direct() ? BwdInputPick::Direct : bwd_input_pick();
    if (pick == BwdInputPick::Auto && depthwise_layer(pr)) { /* depthwise: a bandwidth kernel of its own */
        st = convt1d_bwd_input_depthwise(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    if (pick == BwdInputPick::Auto) { /* narrow one-phase layers (KernelBench 79): one launch, its own heuristic */
        st = convt1d_bwd_input_phase_fused(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    if (pick == BwdInputPick::Auto && tiny_layer(p) && p->stride == 1 &&
        p->padding <= (p->kernel_size - 1) * p->dilation) { /* the adjoint case: no planes, no scratch */
        /* Tiny stride-1 problems: the adjoint forward is one launch of the tiny forward tile (the
         * direct grad_input kernel took ~60 us of GPU time on kernelbench_74_small); if it declines
         * (C_out/groups < 8), the direct kernel, not the tensor-core one. */
        st = convt1d_bwd_input_planes(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        pick = BwdInputPick::Direct;
    }
    if (pick == BwdInputPick::Auto && !tiny_layer(p) && p->stride >= 2) pick = BwdInputPick::Wgmma;
    if (pick == BwdInputPick::Wgmma) {
        /* Hopper: grad_y's phase planes written transposed, then the wgmma forward (fwd_wgmma.cu); its
         * heuristic declines the layers with short reductions (s*C_out*T < 512), and then the rest. */
        st = convt1d_bwd_input_wgmma(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        pick = BwdInputPick::Auto;
    }
    if (pick == BwdInputPick::Auto)
        pick = tiny_layer(p)                      ? BwdInputPick::Direct
               : p->stride >= 4 || p->stride == 1 ? BwdInputPick::Planes
                                                  : BwdInputPick::Tc;
    if (pick == BwdInputPick::Planes) {
        st = convt1d_bwd_input_planes(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        pick = BwdInputPick::Tc;
    }
    if (pick == BwdInputPick::Tc) {
        st = convt1d_bwd_input_tc(pr, grad_y, w, grad_x, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    return convt1d_bwd_input_direct(pr, grad_y, w, grad_x, s);
}

convt1d_status run_bwd_weight(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                              void *workspace, size_t workspace_bytes, cudaStream_t s) {
    convt1d_status st;
    if (!force_direct() && depthwise_layer(pr)) { /* depthwise: a bandwidth kernel of its own */
        st = convt1d_bwd_weight_depthwise(pr, grad_y, x, grad_w, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    if (!force_direct()) { /* narrow one-phase layers: one launch, its own heuristic (declines small problems) */
        st = convt1d_bwd_weight_phase_fused(pr, grad_y, x, grad_w, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    if (!force_direct() && !tiny_layer(&pr.p)) {
        st = convt1d_bwd_weight_rs_phase(pr, grad_y, x, grad_w, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        st = convt1d_bwd_weight_rs(pr, grad_y, x, grad_w, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        st = convt1d_bwd_weight_wgmma(pr, grad_y, x, grad_w, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
        st = convt1d_bwd_weight_tc(pr, grad_y, x, grad_w, workspace, workspace_bytes, s);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
        convt1d_clear_error();
    }
    return convt1d_bwd_weight_direct(pr, grad_y, x, grad_w, workspace, workspace_bytes, s);
}

/* Workspace for whichever grad_w kernel this problem takes: the larger of the two plans that use one. */
convt1d_status weight_workspace(const convt1d_problem &pr, size_t *bytes) {
    size_t direct = 0, tc = 0;
    const convt1d_status st = convt1d_bwd_weight_workspace(pr, &direct);
    if (st != CONVT1D_SUCCESS) return st;
    if (convt1d_bwd_weight_tc_workspace(pr, &tc) != CONVT1D_SUCCESS) tc = 0;
    convt1d_clear_error();
    *bytes = direct > tc ? direct : tc;
    return CONVT1D_SUCCESS;
}

/* grad_w with its workspace from the stream's pool (convt1d_backward_cuda, the folded gradients). */
convt1d_status run_bwd_weight_own_workspace(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                            cudaStream_t s) {
    size_t bytes = 0;
    convt1d_status st = weight_workspace(pr, &bytes);
    if (st != CONVT1D_SUCCESS) return st;
    void *ws = nullptr;
    if (bytes && cudaMallocAsync(&ws, bytes, s) != cudaSuccess)
        return convt1d_cuda_check("backward: grad_w scratch (cudaMallocAsync)");
    st = run_bwd_weight(pr, grad_y, x, grad_w, ws, bytes, s);
    if (ws) cudaFreeAsync(ws, s);
    return st;
}

/* The gradients of a layer whose batch folds (fold.cu): *folded says whether they were computed here. */
convt1d_status folded_gradients(const convt1d_problem &pr, const void *grad_y, const void *x, const void *w, void *grad_x,
                                void *grad_w, cudaStream_t s, bool *folded) {
    convt1d_fold_layout fold;
    *folded = !force_direct() && convt1d_fold_plan(pr, true, &fold);
    if (!*folded) return CONVT1D_SUCCESS;
    const convt1d_status st =
        convt1d_bwd_fold(pr, fold, grad_y, x, w, grad_x, grad_w, s, run_bwd_input, run_bwd_weight_own_workspace);
    *folded = st != CONVT1D_ERROR_NOT_SUPPORTED; /* no scratch for the fold: the caller runs them unfolded */
    return *folded ? st : CONVT1D_SUCCESS;
}

} // namespace

convt1d_status convt1d_backward_input_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                           const void *grad_y, const void *w, void *grad_x,
                                           convt1d_stream stream) {
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", w, "weight", grad_x, "grad_x");
    if (st != CONVT1D_SUCCESS) return st;
    if ((st = check_math(math)) != CONVT1D_SUCCESS) return st;
    if (p->batch == 0) return CONVT1D_SUCCESS; /* grad_x is empty */
    const convt1d_problem pr = make_problem(p, dtype, math, lout);
    bool folded = false;
    st = folded_gradients(pr, grad_y, nullptr, w, grad_x, nullptr, as_cuda(stream), &folded);
    if (folded) return st;
    return run_bwd_input(pr, grad_y, w, grad_x, as_cuda(stream));
}

convt1d_status convt1d_backward_weight_workspace_size(const convt1d_params *p, convt1d_dtype dtype,
                                                      size_t *bytes) {
    convt1d_clear_error();
    if (!bytes) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "bytes must not be NULL");
    *bytes = 0;
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, NULL, NULL, NULL, NULL, NULL, NULL);
    if (st != CONVT1D_SUCCESS) return st;
    /* Enough for whichever kernel the call takes (the tensor-core one declines some problems, and
     * CONVT1D_FORCE_DIRECT skips it): the larger of the two plans. Both depend on the problem only. */
    for (int m = 0; m < 2; ++m) {
        const convt1d_problem pr = make_problem(p, dtype, m ? CONVT1D_MATH_STRICT_FP32 : CONVT1D_MATH_ALLOW_TF32, lout);
        size_t b = 0;
        if ((st = weight_workspace(pr, &b)) != CONVT1D_SUCCESS) return st;
        if (b > *bytes) *bytes = b;
    }
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_backward_weight_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                            const void *grad_y, const void *x, void *grad_w,
                                            void *workspace, size_t workspace_bytes, convt1d_stream stream) {
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", x, "x", grad_w, "grad_w");
    if (st != CONVT1D_SUCCESS) return st;
    if ((st = check_math(math)) != CONVT1D_SUCCESS) return st;
    const cudaStream_t s = as_cuda(stream);
    if (p->batch == 0) {
        /* No terms: the gradient is zero, and it must still be written. */
        if (!grad_w) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "grad_w must not be NULL");
        cudaMemsetAsync(grad_w, 0, (size_t)numel_w(p) * convt1d_dtype_size(dtype), s);
        return convt1d_cuda_check("backward_weight: zeroing grad_w for an empty batch");
    }
    const convt1d_problem pr = make_problem(p, dtype, math, lout);
    bool folded = false; /* the folded layer's grad_w takes its workspace from the stream's pool */
    st = folded_gradients(pr, grad_y, x, nullptr, nullptr, grad_w, s, &folded);
    if (folded) return st;
    return run_bwd_weight(pr, grad_y, x, grad_w, workspace, workspace_bytes, s);
}

convt1d_status convt1d_backward_bias_cuda(const convt1d_params *p, convt1d_dtype dtype, const void *grad_y,
                                          void *grad_b, convt1d_stream stream) {
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", grad_b, "grad_b", NULL, NULL);
    if (st != CONVT1D_SUCCESS) return st;
    const cudaStream_t s = as_cuda(stream);
    if (p->batch == 0) {
        if (!grad_b) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "grad_b must not be NULL");
        cudaMemsetAsync(grad_b, 0, (size_t)p->out_channels * convt1d_dtype_size(dtype), s);
        return convt1d_cuda_check("backward_bias: zeroing grad_b for an empty batch");
    }
    return convt1d_bwd_bias_direct(make_problem(p, dtype, CONVT1D_MATH_STRICT_FP32, lout), grad_y, grad_b, s);
}

convt1d_status convt1d_backward_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                     const void *grad_y, const void *x, const void *w, void *grad_x,
                                     void *grad_w, void *grad_b, convt1d_stream stream) {
    int64_t lout = 0;
    convt1d_status st = convt1d_check_call(p, dtype, &lout, grad_y, "grad_y", grad_x ? w : grad_y,
                                           "weight (grad_x is requested)", grad_w ? x : grad_y,
                                           "x (grad_w is requested)");
    if (st != CONVT1D_SUCCESS) return st;
    if ((st = check_math(math)) != CONVT1D_SUCCESS) return st;
    const cudaStream_t s = as_cuda(stream);
    if (p->batch == 0) { /* grad_x is empty; grad_w and grad_b have no terms and are zero */
        if (grad_w) cudaMemsetAsync(grad_w, 0, (size_t)numel_w(p) * convt1d_dtype_size(dtype), s);
        if (grad_b) cudaMemsetAsync(grad_b, 0, (size_t)p->out_channels * convt1d_dtype_size(dtype), s);
        return convt1d_cuda_check("backward: zeroing grad_w / grad_b for an empty batch");
    }
    const convt1d_problem pr = make_problem(p, dtype, math, lout);
    bool folded = false;
    if ((grad_x || grad_w) && (st = folded_gradients(pr, grad_y, x, w, grad_x, grad_w, s, &folded)) != CONVT1D_SUCCESS)
        return st;
    if (!folded && grad_x && (st = run_bwd_input(pr, grad_y, w, grad_x, s)) != CONVT1D_SUCCESS) return st;
    if (!folded && grad_w && (st = run_bwd_weight_own_workspace(pr, grad_y, x, grad_w, s)) != CONVT1D_SUCCESS) return st;
    if (grad_b) return convt1d_bwd_bias_direct(make_problem(p, dtype, CONVT1D_MATH_STRICT_FP32, lout), grad_y, grad_b, s);
    return CONVT1D_SUCCESS;
}
