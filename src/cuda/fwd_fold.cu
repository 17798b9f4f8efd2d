/* Batch folding (Session 50): a batch of short rows run as one long row. The tensor-core forwards tile each sample's
 * positions separately, 128 (or 256) to a tile, and every tile reads its rows' whole weights. A sample of 34 input
 * positions (dac_44k_up1_train: 8 x 1536 -> 768, K 16, stride 8) fills about a quarter of its tile: the SS kernel
 * took 124 us there, 0.75x of cuDNN in fp16 (run 447). Here the samples of x are laid end to end, each followed by
 * enough zeros that no sample's taps reach the next one's outputs; the layer runs once, at batch 1 and padding 0,
 * into scratch; and each sample's y is cut out of that long output. Two copies (x's and y's) buy tiles that are
 * full: 3 tiles of 128 instead of 8 on dac_44k_up1_train.
 *
 * Sample n's input position l sits at n*Lp + l of the long row, so its outputs start at n*Lp*s. Its full output
 * (before the padding's crop) is F = (L-1)*s + d*(K-1) + 1 long, and y keeps [p, p + L_out) of it, where
 * p + L_out <= F + output_padding (the columns past F hold only the bias). Lp*s >= max(F, p + L_out) keeps both
 * apart from sample n+1, which starts at (n+1)*Lp*s. */
#include <stdint.h>
#include <stdlib.h>

#include "kernels.cuh"

namespace {

/* Elements move as raw bits: 4 bytes (fp32) or 2 (fp16, bf16); zero bits are +0.0 in each. */
template <typename U>
__global__ void __launch_bounds__(128) fold_gather_kernel(const U *x, U *xs, int64_t N, int64_t cin, int L, int Lp) {
    /* Block b: row (n, c) of x, written to xs[c][n*Lp .. n*Lp + Lp) (xs: C_in rows of N*Lp) with zeros past L. */
    const int64_t row = blockIdx.x, n = row / cin, c = row - n * cin;
    const U *src = x + row * L;
    U *dst = xs + (c * N + n) * Lp;
    for (int l = threadIdx.x; l < Lp; l += blockDim.x) dst[l] = l < L ? src[l] : U(0);
}

template <typename U>
__global__ void __launch_bounds__(128) fold_scatter_kernel(const U *ys, U *y, int64_t cout, int64_t Lf, int64_t seg,
                                                           int64_t p, int L_out) {
    /* Block b: row (n, c) of y = ys[c][n*seg + p .. + L_out), seg = Lp*s. */
    const int64_t row = blockIdx.x, n = row / cout, c = row - n * cout;
    const U *src = ys + c * Lf + n * seg + p;
    U *dst = y + row * L_out;
    for (int j = threadIdx.x; j < L_out; j += blockDim.x) dst[j] = src[j];
}

} // namespace

bool convt1d_fwd_fold_plan(const convt1d_problem &pr, convt1d_params *folded, int64_t *folded_length) {
    const convt1d_params &p = pr.p;
    const char *v = convt1d_env("CONVT1D_FOLD");
    const int forced = v && v[0] == '1' ? 1 : v && v[0] == '0' ? 0 : -1;
    if (forced == 0 || p.batch < 2 || pr.dtype == CONVT1D_F64 || pr.cin_g == 1) return false; /* depthwise: its own kernels */
    const int64_t s = p.stride, L = p.in_length;
    const int64_t F = (L - 1) * s + p.dilation * (p.kernel_size - 1) + 1;
    const int64_t need = F > p.padding + pr.out_length ? F : p.padding + pr.out_length;
    int64_t Lp = (need + s - 1) / s > L ? (need + s - 1) / s : L;
    /* The last sample's y must lie inside the folded output, (N*Lp - 1)*s + d*(K-1) + 1 long: (Lp - L)*s >= op - p.
     * Only output_padding past the padding asks more (K 1, stride 3, output_padding 2: Lp = L otherwise). */
    if ((Lp - L) * s < p.output_padding - p.padding) Lp = L + (p.output_padding - p.padding + s - 1) / s;
    if (forced < 0) {
        /* Folding pays where tiles of 128 positions are mostly empty: a third fewer tiles at least, and a layer past the
         * tiny rule (below it the time is the launches, and folding adds two). */
        const int64_t tiles = p.batch * ((Lp + 127) / 128), folded_tiles = (p.batch * Lp + 127) / 128;
        if (tiny_layer(&p) || 3 * folded_tiles > 2 * tiles) return false;
    }
    convt1d_params f = p;
    f.batch = 1;
    f.in_length = p.batch * Lp;
    f.padding = 0;
    f.output_padding = 0;
    int64_t lf = 0;
    const int64_t rows = p.batch * (p.in_channels > p.out_channels ? p.in_channels : p.out_channels);
    if (f.in_length > INT32_MAX / 2 || rows > INT32_MAX || convt1d_output_length(&f, &lf) != CONVT1D_SUCCESS ||
        lf > INT32_MAX / 2 || (p.batch - 1) * Lp * s + p.padding + pr.out_length > lf) {
        convt1d_clear_error();
        return false;
    }
    *folded = f;
    *folded_length = lf;
    return true;
}

convt1d_status convt1d_fwd_fold(const convt1d_problem &pr, const convt1d_params &f, int64_t Lf, const void *x,
                                const void *w, const void *bias, void *y, cudaStream_t stream, ForwardFn forward) {
    const convt1d_params &p = pr.p;
    const size_t es = convt1d_dtype_size(pr.dtype);
    const int64_t Lp = f.in_length / p.batch;
    const size_t xs_bytes = (size_t)p.in_channels * f.in_length * es;
    const size_t ys_bytes = (size_t)p.out_channels * Lf * es;
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, (xs_bytes + 255) / 256 * 256 + ys_bytes, stream);
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "folded forward: scratch (cudaMallocAsync): %s", cudaGetErrorString(e));
    void *xs = scratch, *ys = static_cast<char *>(scratch) + (xs_bytes + 255) / 256 * 256;
    const unsigned xrows = (unsigned)(p.batch * p.in_channels), yrows = (unsigned)(p.batch * p.out_channels);
    if (es == 4)
        fold_gather_kernel<uint32_t><<<xrows, 128, 0, stream>>>(static_cast<const uint32_t *>(x), static_cast<uint32_t *>(xs),
                                                               p.batch, p.in_channels, (int)p.in_length, (int)Lp);
    else
        fold_gather_kernel<uint16_t><<<xrows, 128, 0, stream>>>(static_cast<const uint16_t *>(x), static_cast<uint16_t *>(xs),
                                                               p.batch, p.in_channels, (int)p.in_length, (int)Lp);
    convt1d_status st = convt1d_cuda_check("folded forward: gather");
    if (st == CONVT1D_SUCCESS) {
        convt1d_problem pf = pr; /* the caller's math (the tiny rule was applied to the layer as called) and cache */
        pf.p = f;
        pf.out_length = Lf;
        st = forward(pf, xs, w, bias, ys, stream);
    }
    if (st == CONVT1D_SUCCESS) {
        if (es == 4)
            fold_scatter_kernel<uint32_t><<<yrows, 128, 0, stream>>>(static_cast<const uint32_t *>(ys), static_cast<uint32_t *>(y),
                                                                    p.out_channels, Lf, Lp * p.stride, p.padding,
                                                                    (int)pr.out_length);
        else
            fold_scatter_kernel<uint16_t><<<yrows, 128, 0, stream>>>(static_cast<const uint16_t *>(ys), static_cast<uint16_t *>(y),
                                                                    p.out_channels, Lf, Lp * p.stride, p.padding,
                                                                    (int)pr.out_length);
        st = convt1d_cuda_check("folded forward: scatter");
    }
    cudaFreeAsync(scratch, stream);
    return st;
}
