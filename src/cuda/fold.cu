/* Batch folding (Session 50): a batch of short rows run as one long row. The tensor-core kernels tile each sample's
 * positions separately, 128 (or 256) to a tile, and every tile reads its rows' whole weights. A sample of 34 input
 * positions (dac_44k_up1_train: 8 x 1536 -> 768, K 16, stride 8) fills about a quarter of its tile: the SS kernel
 * took 124 us there, 0.75x of cuDNN in fp16 (run 447). Here the samples of x are laid end to end, each followed by
 * enough zeros that no sample's taps reach the next one's outputs; the layer runs once, at batch 1 and padding 0,
 * into scratch; and each sample's y is cut out of that long output. Two copies (x's and y's) buy tiles that are
 * full: 3 tiles of 128 instead of 8 on dac_44k_up1_train. The gradients fold the same way, the folded layer's
 * gradients between the copies' adjoints: grad_y placed into a long row of zeros, grad_x cut out of the long one.
 *
 * The layout (where each sample's x, y and gradients sit in the long rows, and why they stay apart) is
 * fold_layout.cuh's, which tests/c/test_fold.c checks on the CPU against the unfolded layer. */
#include <stdint.h>
#include <stdlib.h>

#include "kernels.cuh"

namespace {

/* Elements move as raw bits: 4 bytes (fp32) or 2 (fp16, bf16); zero bits are +0.0 in each. One block per row. */
template <typename U>
__global__ void __launch_bounds__(128) fold_gather_kernel(const U *src, U *dst, int64_t N, int64_t C, int L, int Lp) {
    /* Block b: row (n, c) of src (N x C x L), written to dst[c][n*Lp .. n*Lp + Lp) (C rows of N*Lp), zeros past L. */
    const int64_t row = blockIdx.x, n = row / C, c = row - n * C;
    const U *in = src + row * L;
    U *out = dst + (c * N + n) * Lp;
    for (int l = threadIdx.x; l < Lp; l += blockDim.x) out[l] = l < L ? in[l] : U(0);
}

template <typename U>
__global__ void __launch_bounds__(128)
    fold_scatter_kernel(const U *src, U *dst, int64_t C, int64_t src_len, int64_t seg, int64_t off, int len) {
    /* Block b: row (n, c) of dst (N x C x len) = src[c][n*seg + off .. + len) (src: C rows of src_len). */
    const int64_t row = blockIdx.x, n = row / C, c = row - n * C;
    const U *in = src + c * src_len + n * seg + off;
    U *out = dst + row * len;
    for (int j = threadIdx.x; j < len; j += blockDim.x) out[j] = in[j];
}

template <typename U>
__global__ void __launch_bounds__(128) fold_place_kernel(const U *src, U *dst, int64_t N, int64_t C, int64_t dst_len,
                                                         int64_t seg, int64_t off, int len) {
    /* Block c: row c of dst (C rows of dst_len): position t = n*seg + off + j holds src[n][c][j] (src: N x C x len) for
     * 0 <= j < len and n < N, zero elsewhere (the adjoint of fold_scatter_kernel). */
    const int64_t c = blockIdx.x;
    U *out = dst + c * dst_len;
    for (int64_t t = threadIdx.x; t < dst_len; t += blockDim.x) {
        const int64_t n = t / seg, j = t - n * seg - off;
        out[t] = n < N && j >= 0 && j < len ? src[(n * C + c) * len + j] : U(0);
    }
}

/* The three copies for either element size (U: uint32_t or uint16_t). */
template <typename U>
void gather_as(const void *src, void *dst, int64_t N, int64_t C, int64_t L, int64_t Lp, cudaStream_t s) {
    const unsigned rows = (unsigned)(N * C);
    fold_gather_kernel<<<rows, 128, 0, s>>>(static_cast<const U *>(src), static_cast<U *>(dst), N, C, (int)L, (int)Lp);
}
template <typename U>
void scatter_as(const void *src, void *dst, int64_t N, int64_t C, int64_t src_len, int64_t seg, int64_t off,
                int64_t len, cudaStream_t s) {
    const unsigned rows = (unsigned)(N * C);
    fold_scatter_kernel<<<rows, 128, 0, s>>>(static_cast<const U *>(src), static_cast<U *>(dst), C, src_len, seg, off,
                                             (int)len);
}
template <typename U>
void place_as(const void *src, void *dst, int64_t N, int64_t C, int64_t dst_len, int64_t seg, int64_t off, int64_t len,
              cudaStream_t s) {
    fold_place_kernel<<<(unsigned)C, 128, 0, s>>>(static_cast<const U *>(src), static_cast<U *>(dst), N, C, dst_len,
                                                  seg, off, (int)len);
}
void gather(size_t es, const void *src, void *dst, int64_t N, int64_t C, int64_t L, int64_t Lp, cudaStream_t s) {
    (es == 4 ? gather_as<uint32_t> : gather_as<uint16_t>)(src, dst, N, C, L, Lp, s);
}
void scatter(size_t es, const void *src, void *dst, int64_t N, int64_t C, int64_t src_len, int64_t seg, int64_t off,
             int64_t len, cudaStream_t s) {
    (es == 4 ? scatter_as<uint32_t> : scatter_as<uint16_t>)(src, dst, N, C, src_len, seg, off, len, s);
}
void place(size_t es, const void *src, void *dst, int64_t N, int64_t C, int64_t dst_len, int64_t seg, int64_t off,
           int64_t len, cudaStream_t s) {
    (es == 4 ? place_as<uint32_t> : place_as<uint16_t>)(src, dst, N, C, dst_len, seg, off, len, s);
}

size_t round256(size_t b) { return (b + 255) / 256 * 256; }

} // namespace

bool convt1d_fold_plan(const convt1d_problem &pr, bool gradients, convt1d_fold_layout *layout) {
    const convt1d_params &p = pr.p;
    const char *v = convt1d_env(gradients ? "CONVT1D_FOLD_BWD" : "CONVT1D_FOLD");
    const int forced = v && v[0] == '1' ? 1 : v && v[0] == '0' ? 0 : -1;
    /* fp64 stays on its direct kernels; depthwise layers (one input channel a group) on theirs */
    if (forced == 0 || p.batch < 2 || pr.dtype == CONVT1D_F64 || pr.cin_g == 1) return false;
    const bool split_tf32 = pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32;
    /* the size test first: the latency-bound layers, which never fold, pay nothing more for the layout */
    if (forced < 0 && layer_macs(p) < (double)(split_tf32 ? 1ll << 27 : 1ll << 31)) return false;
    convt1d_fold_layout f;
    if (!convt1d_fold_make_layout(&p, pr.out_length, &f)) {
        convt1d_clear_error();
        return false;
    }
    if (forced < 0) {
        /* Where it pays (run 453, H100, ms, folded / not, cuDNN beside; the gradients alike): half the 128-position
         * tiles or fewer, on a layer of 2^31 multiply-adds or more (2^27 in split TF32, whose kernels are compute-bound
         * sooner). dac_44k_up1_train (5.1e9, 8 -> 3 tiles): forward TF32 0.162 / 0.328 (cuDNN 0.575), strict 0.323 /
         * 0.528, 16-bit 0.108 / 0.167 (0.125); grad_input bf16 0.133 / 0.180, grad_weight 0.135 / 0.196. Probe
         * short_rows_c512 (3.4e9, 32 -> 13): 0.066 / 0.114, 0.118 / 0.200, 0.054 / 0.067. Below the size the two copies
         * and launches cost more than the tiles: hifigan_v1_up1_train (1.1e9, 16 -> 5) TF32 0.054 / 0.047, 16-bit
         * 0.044 / 0.033, but strict 0.068 / 0.095; hifigan_v2_up1_train (6.7e7) 0.027 / 0.019, strict 0.030 / 0.024;
         * probe short_rows_c64 (1.8e8, 40 -> 11) strict 0.031 / 0.060, fp16 0.033 / 0.030. Fewer tiles saved:
         * encodec_24k_up1_train (8 -> 5) 0.052 / 0.041 TF32, 0.041 / 0.029 16-bit. */
        const int64_t tiles = p.batch * ((f.Lp + 127) / 128), folded_tiles = (p.batch * f.Lp + 127) / 128;
        if (2 * folded_tiles > tiles) return false;
    }
    *layout = f;
    return true;
}

convt1d_status convt1d_fwd_fold(const convt1d_problem &pr, const convt1d_fold_layout &layout, const void *x,
                                const void *w, const void *bias, void *y, cudaStream_t stream, ForwardFn forward) {
    const convt1d_params &p = pr.p, &f = layout.folded;
    const size_t es = convt1d_dtype_size(pr.dtype);
    const int64_t N = p.batch, Lp = layout.Lp, Lf = layout.folded_length;
    const size_t xs_bytes = round256((size_t)p.in_channels * f.in_length * es);
    void *scratch = nullptr;
    if (cudaMallocAsync(&scratch, xs_bytes + (size_t)p.out_channels * Lf * es, stream) != cudaSuccess) {
        (void)cudaGetLastError(); /* out of memory here is not an error: the layer runs unfolded */
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    void *xs = scratch, *ys = static_cast<char *>(scratch) + xs_bytes;
    gather(es, x, xs, N, p.in_channels, p.in_length, Lp, stream);
    convt1d_status st = convt1d_cuda_check("folded forward: gather");
    if (st == CONVT1D_SUCCESS) {
        convt1d_problem pf = pr; /* the caller's math (the tiny rule was applied to the layer as called) and cache */
        pf.p = f;
        pf.out_length = Lf;
        st = forward(pf, xs, w, bias, ys, stream);
    }
    if (st == CONVT1D_SUCCESS) {
        scatter(es, ys, y, N, p.out_channels, Lf, layout.seg, p.padding, pr.out_length, stream);
        st = convt1d_cuda_check("folded forward: scatter");
    }
    cudaFreeAsync(scratch, stream);
    return st;
}

convt1d_status convt1d_bwd_fold(const convt1d_problem &pr, const convt1d_fold_layout &layout, const void *gy,
                                const void *x, const void *w, void *gx, void *gw, cudaStream_t stream,
                                BwdInputFn bwd_input, BwdWeightFn bwd_weight) {
    const convt1d_params &p = pr.p, &f = layout.folded;
    const size_t es = convt1d_dtype_size(pr.dtype);
    const int64_t N = p.batch, Lp = layout.Lp, Lf = layout.folded_length;
    const size_t gys_bytes = round256((size_t)p.out_channels * Lf * es);
    const size_t xs_bytes = round256((size_t)p.in_channels * f.in_length * es); /* grad_x's long row, or x's */
    const size_t xs2_bytes = gx && gw ? xs_bytes : 0;                          /* both: x's beside grad_x's */
    void *scratch = nullptr;
    if (cudaMallocAsync(&scratch, gys_bytes + xs_bytes + xs2_bytes, stream) != cudaSuccess) {
        (void)cudaGetLastError(); /* as in the forward: the gradients run unfolded */
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    char *gys = static_cast<char *>(scratch), *gxs = gys + gys_bytes, *xs = gx ? gxs + xs_bytes : gxs;
    convt1d_problem pf = pr;
    pf.p = f;
    pf.out_length = Lf;
    place(es, gy, gys, N, p.out_channels, Lf, layout.seg, p.padding, pr.out_length, stream);
    convt1d_status st = convt1d_cuda_check("folded backward: grad_y placed");
    if (st == CONVT1D_SUCCESS && gx) {
        st = bwd_input(pf, gys, w, gxs, stream);
        if (st == CONVT1D_SUCCESS) {
            scatter(es, gxs, gx, N, p.in_channels, f.in_length, Lp, 0, p.in_length, stream);
            st = convt1d_cuda_check("folded backward: grad_x cut");
        }
    }
    if (st == CONVT1D_SUCCESS && gw) {
        gather(es, x, xs, N, p.in_channels, p.in_length, Lp, stream);
        st = convt1d_cuda_check("folded backward: x gathered");
        if (st == CONVT1D_SUCCESS) st = bwd_weight(pf, gys, xs, gw, stream);
    }
    cudaFreeAsync(scratch, stream);
    return st;
}
