/* Direct (CUDA-core) forward for every dtype and parameter combination.
 *
 * Polyphase formulation: output o has t = o + p, phase r = t mod s, q = t div s. The taps reaching
 * phase r are k with k*d == r (mod s); with g = gcd(d, s) they exist only when g | r and then form
 * the arithmetic progression k = k0 + j*(s/g), whose input offsets (k*d - r)/s also step by d/g.
 * So a block works on one phase: the tap list is two numbers, no per-tap `%` or divisibility test.
 *
 * Phase index ph in [0, min(s, L_out)) names the phase of output o = ph; the outputs of that phase
 * are o = ph + m*s (m = 0, 1, ...), at q = (ph + p) div s + m. Lanes of a warp take consecutive m, so
 * input loads x[q - off] are coalesced; each thread keeps COT output channels x P positions in
 * registers and reuses every loaded input value COT times. Weights of the block's channel tile are
 * staged in shared memory as [ci][tap][co] so a thread reads its COT weights with vector loads.
 *
 * fp32 is computed in plain fp32 FMAs (never TF32): this is the strict fp32 path. f16/bf16
 * accumulate in fp32, f64 in f64. The index type is int32 when every index fits, else int64. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdlib.h>

#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using namespace convt1d_direct;

constexpr int kThreads = 128; /* 4 warps */
constexpr int kP = 4;         /* positions per thread, 32 apart */
constexpr int kSmemBytes = 12288;

/* (a * b) mod m for 0 <= a, b < m without overflow. */
__device__ __forceinline__ int64_t mulmod(int64_t a, int64_t b, int64_t m) {
    if (m <= 0x7fffffff) return (a * b) % m;
    uint64_t r = 0, x = (uint64_t)a, y = (uint64_t)b, um = (uint64_t)m;
    while (y) {
        if (y & 1) { r += x; if (r >= um) r -= um; }
        x += x; if (x >= um) x -= um;
        y >>= 1;
    }
    return (int64_t)r;
}

struct FwdArgs {
    int64_t N, Cin, Cout, Lin, Lout, K, s, p, d, G, cin_g, cout_g;
    int64_t nphase;   /* min(s, L_out) */
    int64_t mtiles;   /* tiles along m (outputs of one phase) */
    int64_t cotiles;  /* tiles along output channels of a group */
    int64_t total;    /* N * G * mtiles * nphase * cotiles */
    int64_t gcd, ks, dk, inv; /* gcd(d,s), s/gcd, d/gcd, (d/gcd)^-1 mod (s/gcd) */
    int ci_chunk, tap_chunk, wc; /* staging chunk sizes; warps along channels (1, 2 or 4) */
};

template <typename T, typename I, int COT>
__global__ void __launch_bounds__(kThreads)
fwd_direct_kernel(const FwdArgs a, const T *__restrict__ x, const T *__restrict__ w,
                  const T *__restrict__ bias, T *__restrict__ y) {
    using E = Elem<T>;
    using Acc = typename E::Acc;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    Acc *sw = reinterpret_cast<Acc *>(smem_raw);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int WC = a.wc, wc = warp % WC, wq = warp / WC, WQ = 4 / WC;
    const int COB = COT * WC; /* a power of two <= 64 */
    const int cob_shift = __ffs(COB) - 1;
    const I MB = (I)(32 * kP * WQ);
    const I Lin = (I)a.Lin, Lout = (I)a.Lout, Cin = (I)a.Cin, Cout = (I)a.Cout, K = (I)a.K;
    const I cin_g = (I)a.cin_g, cout_g = (I)a.cout_g, s = (I)a.s, dk = (I)a.dk, ks = (I)a.ks;
    const int ci_chunk = a.ci_chunk, tap_chunk = a.tap_chunk;

    for (int64_t tile = blockIdx.x; tile < a.total; tile += gridDim.x) {
        /* co tile fastest: neighbouring blocks share the same input rows through L2. */
        I t = (I)tile;
        const I cot = t % (I)a.cotiles; t /= (I)a.cotiles;
        const I ph = t % (I)a.nphase; t /= (I)a.nphase;
        const I mt = t % (I)a.mtiles; t /= (I)a.mtiles;
        const I g = t % (I)a.G;
        const I n = t / (I)a.G;

        const I cnt = (Lout - ph + s - 1) / s; /* outputs of this phase */
        if (mt * MB >= cnt) continue;          /* block-uniform */
        const I qf = (ph + (I)a.p) / s;
        const int64_t r = ((int64_t)ph + a.p) % a.s;
        int64_t k0 = 0, ntaps = 0, off0 = 0;
        if (r % a.gcd == 0) {
            k0 = mulmod(r / a.gcd, a.inv, a.ks);
            if (k0 < a.K) {
                ntaps = (a.K - 1 - k0) / a.ks + 1;
                off0 = (k0 * a.d - r) / a.s;
            }
        }

        const I m0 = mt * MB + (I)(wq * 32 * kP + lane);
        I qm[kP];
#pragma unroll
        for (int j = 0; j < kP; ++j) qm[j] = qf + m0 + (I)(32 * j);

        Acc acc[COT][kP];
#pragma unroll
        for (int c = 0; c < COT; ++c)
#pragma unroll
            for (int j = 0; j < kP; ++j) acc[c][j] = Acc(0);

        const I co_tile0 = cot * (I)COB;
        for (I ci0 = 0; ci0 < cin_g; ci0 += ci_chunk) {
            const int nci = (int)min((I)ci_chunk, cin_g - ci0);
            for (int64_t t0 = 0; t0 < ntaps; t0 += tap_chunk) {
                const int nt = (int)min((int64_t)tap_chunk, ntaps - t0);
                __syncthreads(); /* previous chunk's readers are done */
                {
                    /* Stage w[g*cin_g+ci0+c_l, co_tile0+co_l, k0+(t0+t_l)*ks] at [c_l][t_l][co_l]. */
                    const int co_l = tid & (COB - 1);
                    const int step = kThreads >> cob_shift;
                    int pr = tid >> cob_shift;
                    int c_l = pr / nt, t_l = pr - c_l * nt;
                    const I co = co_tile0 + co_l;
                    const bool co_ok = co < cout_g;
                    const I kbase = (I)k0 + (I)t0 * ks;
                    for (; c_l < nci;) {
                        Acc v = Acc(0);
                        if (co_ok)
                            v = E::load(w[((g * cin_g + ci0 + c_l) * cout_g + co) * K + kbase + (I)t_l * ks]);
                        sw[(c_l * tap_chunk + t_l) * COB + co_l] = v;
                        t_l += step;
                        if (t_l >= nt) { c_l += t_l / nt; t_l %= nt; }
                    }
                }
                __syncthreads();
                const I offb = (I)off0 + (I)t0 * dk;
                for (int c_l = 0; c_l < nci; ++c_l) {
                    const T *xrow = x + (n * Cin + g * cin_g + ci0 + c_l) * Lin;
                    const Acc *swc = sw + c_l * tap_chunk * COB + wc * COT;
                    for (int t_l = 0; t_l < nt; ++t_l) {
                        const I off = offb + (I)t_l * dk;
                        Acc xv[kP];
#pragma unroll
                        for (int j = 0; j < kP; ++j) {
                            const I i = qm[j] - off;
                            xv[j] = (i >= 0 && i < Lin) ? E::load(xrow[i]) : Acc(0);
                        }
                        Acc wv[COT];
                        lds_vec(swc + t_l * COB, wv);
#pragma unroll
                        for (int c = 0; c < COT; ++c)
#pragma unroll
                            for (int j = 0; j < kP; ++j) acc[c][j] = fma(wv[c], xv[j], acc[c][j]);
                    }
                }
            }
        }

#pragma unroll
        for (int c = 0; c < COT; ++c) {
            const I co = co_tile0 + (I)(wc * COT + c);
            if (co >= cout_g) continue;
            const I cg = g * cout_g + co;
            const Acc b = bias ? E::load(bias[cg]) : Acc(0);
            T *yrow = y + (n * Cout + cg) * Lout;
#pragma unroll
            for (int j = 0; j < kP; ++j) {
                const I m = m0 + (I)(32 * j);
                if (m < cnt) yrow[ph + m * s] = E::store(acc[c][j] + b);
            }
        }
    }
}

int64_t gcd64(int64_t a, int64_t b) {
    while (b) { const int64_t t = a % b; a = b; b = t; }
    return a;
}

/* Inverse of a modulo m (gcd(a, m) == 1, m >= 1); 0 when m == 1. */
int64_t modinv64(int64_t a, int64_t m) {
    if (m == 1) return 0;
    /* Extended Euclid; |coefficients| stay below m, so int64 does not overflow. */
    int64_t old_r = a % m, r = m, old_s = 1, s = 0;
    while (r != 0) {
        const int64_t q = old_r / r;
        int64_t tmp = old_r - q * r; old_r = r; r = tmp;
        tmp = old_s - q * s; old_s = s; s = tmp;
    }
    int64_t inv = old_s % m;
    return inv < 0 ? inv + m : inv;
}


template <typename T, typename I, int COT>
convt1d_status launch(const FwdArgs &a, size_t smem, const void *x, const void *w, const void *bias,
                      void *y, cudaStream_t stream) {
    const int64_t grid = a.total < (int64_t(1) << 30) ? a.total : (int64_t(1) << 30);
    fwd_direct_kernel<T, I, COT><<<(unsigned)grid, kThreads, smem, stream>>>(
        a, static_cast<const T *>(x), static_cast<const T *>(w), static_cast<const T *>(bias),
        static_cast<T *>(y));
    return convt1d_cuda_check("forward (direct kernel) launch");
}

template <typename T, typename I>
convt1d_status dispatch_cot(int cot, const FwdArgs &a, size_t smem, const void *x, const void *w,
                            const void *bias, void *y, cudaStream_t stream) {
    switch (cot) {
    case 1: return launch<T, I, 1>(a, smem, x, w, bias, y, stream);
    case 2: return launch<T, I, 2>(a, smem, x, w, bias, y, stream);
    case 4: return launch<T, I, 4>(a, smem, x, w, bias, y, stream);
    case 8: return launch<T, I, 8>(a, smem, x, w, bias, y, stream);
    default:
        if constexpr (sizeof(T) < 8) return launch<T, I, 16>(a, smem, x, w, bias, y, stream);
        return convt1d_fail(CONVT1D_ERROR_INTERNAL, "forward: no direct kernel for %d channels per thread", cot);
    }
}

template <typename T>
convt1d_status dispatch_index(bool fits32, int cot, const FwdArgs &a, size_t smem, const void *x,
                              const void *w, const void *bias, void *y, cudaStream_t stream) {
    return fits32 ? dispatch_cot<T, int32_t>(cot, a, smem, x, w, bias, y, stream)
                  : dispatch_cot<T, int64_t>(cot, a, smem, x, w, bias, y, stream);
}

} // namespace

convt1d_status convt1d_fwd_direct(const convt1d_problem &pr, const void *x, const void *w,
                                  const void *bias, void *y, cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    FwdArgs a;
    a.N = p.batch; a.Cin = p.in_channels; a.Cout = p.out_channels; a.Lin = p.in_length;
    a.Lout = pr.out_length; a.K = p.kernel_size; a.s = p.stride; a.p = p.padding; a.d = p.dilation;
    a.G = p.groups; a.cin_g = pr.cin_g; a.cout_g = pr.cout_g;
    if (a.N == 0) return CONVT1D_SUCCESS;

    const size_t acc_size = pr.dtype == CONVT1D_F64 ? 8 : 4;
    const int max_cot = pr.dtype == CONVT1D_F64 ? 8 : 16;
    int cot = 1;
    while (cot < max_cot && cot < a.cout_g) cot *= 2;
    int wc = 1;
    while (wc < 4 && (int64_t)cot * wc < a.cout_g) wc *= 2;
    a.wc = wc;
    const int cob = cot * wc, wq = 4 / wc;
    const int64_t mb = 32 * kP * wq;

    a.gcd = gcd64(a.d, a.s);
    a.ks = a.s / a.gcd;
    a.dk = a.d / a.gcd;
    a.inv = modinv64(a.dk % a.ks, a.ks);
    a.nphase = a.s < a.Lout ? a.s : a.Lout;
    a.mtiles = ceil_div(ceil_div(a.Lout, a.s), mb);
    a.cotiles = ceil_div(a.cout_g, cob);

    /* Staging chunks: [ci_chunk][tap_chunk][cob] accumulator values within kSmemBytes. */
    const int64_t budget = kSmemBytes / (int64_t)acc_size;
    const int64_t max_taps = ceil_div(a.K, a.ks);
    int64_t tap_chunk = budget / cob;
    if (tap_chunk > max_taps) tap_chunk = max_taps;
    int64_t ci_chunk = budget / (tap_chunk * cob);
    if (ci_chunk > a.cin_g) ci_chunk = a.cin_g;
    if (ci_chunk > 64) ci_chunk = 64;
    if (ci_chunk < 1) ci_chunk = 1;
    a.tap_chunk = (int)tap_chunk;
    a.ci_chunk = (int)ci_chunk;
    const size_t smem = (size_t)(ci_chunk * tap_chunk * cob) * acc_size;

    int64_t total;
    if (__builtin_mul_overflow(a.N * a.G, a.mtiles, &total) ||
        __builtin_mul_overflow(total, a.nphase, &total) || __builtin_mul_overflow(total, a.cotiles, &total))
        return convt1d_fail(CONVT1D_ERROR_OVERFLOW, "forward: tile count overflows int64");
    a.total = total;

    /* int32 indexing when every tensor index, every position arithmetic value and the tile index
     * stay below 2^31 (with margin for the padded tile ends). */
    const int64_t lim = (int64_t(1) << 31) - 1;
    const int64_t nx = a.N * a.Cin * a.Lin, ny = a.N * a.Cout * a.Lout, nw = a.Cin * a.cout_g * a.K;
    const bool fits32 = !force_index64() && nx < lim && ny < lim && nw < lim && total < lim &&
                        a.Lout + a.p + a.s + mb * 2 < lim / 2 && a.d * (a.K - 1) < lim / 2 &&
                        a.Lout + mb * 2 < lim / 2 && a.N * a.Cout < lim && a.N * a.Cin < lim;

    switch (pr.dtype) {
    case CONVT1D_F32: return dispatch_index<float>(fits32, cot, a, smem, x, w, bias, y, stream);
    case CONVT1D_F64: return dispatch_index<double>(fits32, cot, a, smem, x, w, bias, y, stream);
    case CONVT1D_F16: return dispatch_index<__half>(fits32, cot, a, smem, x, w, bias, y, stream);
    case CONVT1D_BF16: return dispatch_index<__nv_bfloat16>(fits32, cot, a, smem, x, w, bias, y, stream);
    }
    return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "forward: unknown dtype %d", (int)pr.dtype);
}
