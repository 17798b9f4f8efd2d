/* GPU self-test of the CUDA entry points and the direct kernels, against a CPU double-precision
 * brute-force reference (tests/cuda/reference.h). Every case runs each dtype (f32, f16, bf16, f64)
 * through:
 *   - the public entry points as shipped (they may take the tensor-core or depthwise kernels);
 *   - CONVT1D_FORCE_DIRECT=1: the direct kernels (forward and backward);
 *   - CONVT1D_FORCE_INDEX64=1: the direct kernels on their int64-index path;
 *   - grad_input only: CONVT1D_BWD_INPUT=planes / tc / direct (each kernel the dispatcher can pick first).
 * Outputs are poisoned with NaN bytes first; backward_weight and backward_bias run twice (workspace
 * re-poisoned) and must match bitwise. Plus: empty batch zeroing, error codes, CUDA-graph capture,
 * one problem with more than 2^31 output elements, and (--bench) timings of the suite's shapes.
 *
 *   test_cuda_direct [--seed S] [--random N] [--no-large] [--bench]
 * Prints "N passed, M failed" and exits non-zero on any failure. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>

#include "reference.h"

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
            exit(2);                                                                                   \
        }                                                                                              \
    } while (0)

static int passed = 0, failed = 0;
static bool check(bool ok, const std::string &what) {
    if (ok) ++passed;
    else { ++failed; fprintf(stderr, "FAIL %s\n", what.c_str()); }
    return ok;
}
static bool ok_status(convt1d_status st, const std::string &what) {
    if (st == CONVT1D_SUCCESS) return true;
    fprintf(stderr, "    %s returned %d (%s): %s\n", what.c_str(), (int)st, convt1d_status_string(st), convt1d_last_error());
    return false;
}

struct Buf {
    void *p = nullptr;
    size_t bytes = 0;
    explicit Buf(size_t n) : bytes(n) { if (n) CK(cudaMalloc(&p, n)); }
    ~Buf() { if (p) cudaFree(p); }
    Buf(const Buf &) = delete;
    Buf &operator=(const Buf &) = delete;
};

static void set_mode(bool force_direct, bool index64) {
    setenv("CONVT1D_FORCE_DIRECT", force_direct ? "1" : "0", 1);
    setenv("CONVT1D_FORCE_INDEX64", index64 ? "1" : "0", 1);
}

static std::vector<unsigned char> fetch(const Buf &b, size_t bytes) {
    std::vector<unsigned char> h(bytes);
    if (bytes) CK(cudaMemcpy(h.data(), b.p, bytes, cudaMemcpyDeviceToHost));
    return h;
}

struct FwdMode { const char *name; bool direct, idx64; convt1d_math math; };

/* Error-bound roundoff per term: TF32 rounds both inputs to 10 mantissa bits; strict fp32 as shipped
 * may be 3xTF32 on tensor cores (about 2^-21 per product); the direct kernels are plain fp32 (0 keeps
 * the dtype's own accumulator roundoff). */
static double accumulator_roundoff(convt1d_dtype dt, const FwdMode &m) {
    if (dt != CONVT1D_F32) return 0.0;
    if (m.math == CONVT1D_MATH_ALLOW_TF32) return ldexp(1.0, -10);
    return m.direct ? 0.0 : ldexp(1.0, -21);
}

/* ---------------------------------------------------------------- one problem, all dtypes */
static void run_case(const ref::Config &c, std::mt19937_64 &rng, cudaStream_t stream, bool graph_check) {
    const ref::Problem P = ref::make_problem(c);
    const convt1d_stream cs = reinterpret_cast<convt1d_stream>(stream);
    const convt1d_dtype dts[] = {CONVT1D_F32, CONVT1D_F16, CONVT1D_BF16, CONVT1D_F64};
    const auto t0 = std::chrono::steady_clock::now();
    for (convt1d_dtype dt : dts) {
        const size_t es = convt1d_dtype_size(dt);
        const std::string base = c.name + " " + ref::dtype_name(dt);
        ref::Tensor x = ref::random_tensor(dt, P.nx, rng), w = ref::random_tensor(dt, P.nw, rng);
        ref::Tensor b = ref::random_tensor(dt, P.nb, rng), gy = ref::random_tensor(dt, P.ny, rng);
        Buf dx(P.nx * es), dw(P.nw * es), db(P.nb * es), dgy(P.ny * es), dy(P.ny * es), dgx(P.nx * es),
            dgw(P.nw * es), dgw2(P.nw * es), dgb(P.nb * es), dgb2(P.nb * es);
        if (P.nx) CK(cudaMemcpy(dx.p, x.bytes.data(), P.nx * es, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dw.p, w.bytes.data(), P.nw * es, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(db.p, b.bytes.data(), P.nb * es, cudaMemcpyHostToDevice));
        if (P.ny) CK(cudaMemcpy(dgy.p, gy.bytes.data(), P.ny * es, cudaMemcpyHostToDevice));
        const void *bias = c.bias ? db.p : nullptr;
        size_t wsb = 0;
        check(ok_status(convt1d_backward_weight_workspace_size(&P.p, dt, &wsb), "workspace_size"), base + " workspace_size");
        Buf ws(wsb);

        if (c.N == 0) {
            /* Empty batch: forward and grad_x are empty; grad_w and grad_b must be zeroed. */
            CK(cudaMemsetAsync(dgw.p, 0xff, P.nw * es, stream));
            CK(cudaMemsetAsync(dgb.p, 0xff, P.nb * es, stream));
            bool ok = ok_status(convt1d_forward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, nullptr, dw.p, bias, nullptr, cs), "forward");
            ok &= ok_status(convt1d_backward_input_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, nullptr, dw.p, nullptr, cs), "backward_input");
            ok &= ok_status(convt1d_backward_weight_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, nullptr, nullptr, dgw.p, nullptr, 0, cs), "backward_weight");
            ok &= ok_status(convt1d_backward_bias_cuda(&P.p, dt, nullptr, dgb.p, cs), "backward_bias");
            CK(cudaStreamSynchronize(stream));
            std::vector<unsigned char> hw = fetch(dgw, P.nw * es), hb = fetch(dgb, P.nb * es);
            bool zero = true;
            for (unsigned char v : hw) zero &= v == 0;
            for (unsigned char v : hb) zero &= v == 0;
            check(ok && zero && wsb == 0, base + " empty batch zeroes grad_w and grad_b");
            continue;
        }

        const ref::Result ry = ref::forward(P, x, w, c.bias ? &b : nullptr);
        const ref::Result rgx = ref::backward_input(P, gy, w);
        const ref::Result rgw = ref::backward_weight(P, gy, x);
        const ref::Result rgb = ref::backward_bias(P, gy);

        /* Forward: as shipped (f32 in both math modes), then the direct kernel, then its int64 path. */
        std::vector<FwdMode> fmodes = {{"", false, false, CONVT1D_MATH_STRICT_FP32},
                                       {" direct", true, false, CONVT1D_MATH_STRICT_FP32},
                                       {" direct idx64", true, true, CONVT1D_MATH_STRICT_FP32}};
        if (dt == CONVT1D_F32) fmodes.push_back({" tf32", false, false, CONVT1D_MATH_ALLOW_TF32});
        std::vector<unsigned char> y_first;
        for (const FwdMode &m : fmodes) {
            set_mode(m.direct, m.idx64);
            CK(cudaMemsetAsync(dy.p, 0xff, P.ny * es, stream));
            bool ok = ok_status(convt1d_forward_cuda(&P.p, dt, m.math, dx.p, dw.p, bias, dy.p, cs), "forward");
            CK(cudaStreamSynchronize(stream));
            std::vector<unsigned char> hy = fetch(dy, P.ny * es);
            const double ua = accumulator_roundoff(dt, m);
            check(ok && ref::compare("y", ry, dt, hy.data(), ua) == 0, base + " forward" + m.name);
            if (y_first.empty()) y_first = hy;
        }

        /* Backward: as shipped, the direct kernels, their int64 path; f32 also with TF32 allowed. */
        std::vector<unsigned char> gx_first, gw_first, gb_first;
        for (const FwdMode &m : fmodes) {
            set_mode(m.direct, m.idx64);
            const std::string tag = base + m.name;
            const double ua = accumulator_roundoff(dt, m);
            CK(cudaMemsetAsync(dgx.p, 0xff, P.nx * es, stream));
            bool ok = ok_status(convt1d_backward_input_cuda(&P.p, dt, m.math, dgy.p, dw.p, dgx.p, cs), "backward_input");
            CK(cudaStreamSynchronize(stream));
            std::vector<unsigned char> hgx = fetch(dgx, P.nx * es);
            check(ok && ref::compare("grad_x", rgx, dt, hgx.data(), ua) == 0, tag + " backward_input");

            CK(cudaMemsetAsync(dgw.p, 0xff, P.nw * es, stream));
            CK(cudaMemsetAsync(dgw2.p, 0xff, P.nw * es, stream));
            if (wsb) CK(cudaMemsetAsync(ws.p, 0xff, wsb, stream));
            ok = ok_status(convt1d_backward_weight_cuda(&P.p, dt, m.math, dgy.p, dx.p, dgw.p, ws.p, wsb, cs), "backward_weight");
            if (wsb) CK(cudaMemsetAsync(ws.p, 0x3c, wsb, stream));
            ok &= ok_status(convt1d_backward_weight_cuda(&P.p, dt, m.math, dgy.p, dx.p, dgw2.p, ws.p, wsb, cs), "backward_weight");
            CK(cudaStreamSynchronize(stream));
            std::vector<unsigned char> hgw = fetch(dgw, P.nw * es), hgw2 = fetch(dgw2, P.nw * es);
            check(ok && ref::compare("grad_w", rgw, dt, hgw.data(), ua) == 0, tag + " backward_weight");
            check(hgw == hgw2, tag + " backward_weight bitwise deterministic");

            CK(cudaMemsetAsync(dgb.p, 0xff, P.nb * es, stream));
            CK(cudaMemsetAsync(dgb2.p, 0xff, P.nb * es, stream));
            ok = ok_status(convt1d_backward_bias_cuda(&P.p, dt, dgy.p, dgb.p, cs), "backward_bias");
            ok &= ok_status(convt1d_backward_bias_cuda(&P.p, dt, dgy.p, dgb2.p, cs), "backward_bias");
            CK(cudaStreamSynchronize(stream));
            std::vector<unsigned char> hgb = fetch(dgb, P.nb * es), hgb2 = fetch(dgb2, P.nb * es);
            check(ok && ref::compare("grad_b", rgb, dt, hgb.data()) == 0, tag + " backward_bias");
            check(hgb == hgb2, tag + " backward_bias bitwise deterministic");
            if (gx_first.empty()) { gx_first = hgx; gw_first = hgw; gb_first = hgb; }
        }
        set_mode(false, false);

        /* The one-call backward (convt1d_backward_cuda): the same kernels as the three calls, so the same
         * bits; with all three gradients asked, then grad_w alone (w NULL) and grad_x alone (x NULL). */
        {
            const std::string tag = base + " backward (one call)";
            CK(cudaMemsetAsync(dgx.p, 0xff, P.nx * es, stream));
            CK(cudaMemsetAsync(dgw.p, 0xff, P.nw * es, stream));
            CK(cudaMemsetAsync(dgb.p, 0xff, P.nb * es, stream));
            bool ok = ok_status(convt1d_backward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, dx.p, dw.p, dgx.p,
                                                      dgw.p, dgb.p, cs), tag);
            CK(cudaStreamSynchronize(stream));
            check(ok && fetch(dgx, P.nx * es) == gx_first && fetch(dgw, P.nw * es) == gw_first &&
                      fetch(dgb, P.nb * es) == gb_first, tag + ": bitwise equal to the three calls");
            CK(cudaMemsetAsync(dgw.p, 0xff, P.nw * es, stream));
            ok = ok_status(convt1d_backward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, dx.p, nullptr, nullptr,
                                                 dgw.p, nullptr, cs), tag + " grad_w only");
            CK(cudaMemsetAsync(dgx.p, 0xff, P.nx * es, stream));
            ok &= ok_status(convt1d_backward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, nullptr, dw.p, dgx.p,
                                                  nullptr, nullptr, cs), tag + " grad_x only");
            CK(cudaStreamSynchronize(stream));
            check(ok && fetch(dgw, P.nw * es) == gw_first && fetch(dgx, P.nx * es) == gx_first,
                  tag + ": one gradient at a time, bitwise equal");
        }

        /* grad_input through each kernel the dispatcher can pick first (CONVT1D_BWD_INPUT), whatever the
         * problem's size: the phase-plane path (stride-1 tensor-core forward on the planes of grad_y), the
         * tensor-core grad_input kernel, the direct kernel (a kernel that declines passes the call on). */
        {
            const char *prev = getenv("CONVT1D_BWD_INPUT");
            const std::string saved = prev ? prev : "";
            std::vector<convt1d_math> maths = {CONVT1D_MATH_STRICT_FP32};
            if (dt == CONVT1D_F32) maths.push_back(CONVT1D_MATH_ALLOW_TF32);
            for (const char *pick : {"planes", "tc", "direct"})
                for (convt1d_math math : maths) {
                    setenv("CONVT1D_BWD_INPUT", pick, 1);
                    const FwdMode m = {"", strcmp(pick, "direct") == 0, false, math};
                    const std::string tag = base + " backward_input CONVT1D_BWD_INPUT=" + pick +
                                            (math == CONVT1D_MATH_ALLOW_TF32 ? " tf32" : "");
                    CK(cudaMemsetAsync(dgx.p, 0xff, P.nx * es, stream));
                    const bool ok = ok_status(convt1d_backward_input_cuda(&P.p, dt, math, dgy.p, dw.p, dgx.p, cs), tag);
                    CK(cudaStreamSynchronize(stream));
                    std::vector<unsigned char> hgx = fetch(dgx, P.nx * es);
                    check(ok && ref::compare("grad_x", rgx, dt, hgx.data(), accumulator_roundoff(dt, m)) == 0, tag);
                }
            if (prev) setenv("CONVT1D_BWD_INPUT", saved.c_str(), 1);
            else unsetenv("CONVT1D_BWD_INPUT");
        }

        if (graph_check) {
            /* The four calls captured into one CUDA graph on this stream (global capture mode: any
             * synchronization, allocation or legacy-stream work inside would break the capture). */
            CK(cudaMemsetAsync(dy.p, 0xff, P.ny * es, stream));
            CK(cudaMemsetAsync(dgx.p, 0xff, P.nx * es, stream));
            CK(cudaMemsetAsync(dgw.p, 0xff, P.nw * es, stream));
            CK(cudaMemsetAsync(dgb.p, 0xff, P.nb * es, stream));
            CK(cudaStreamSynchronize(stream));
            cudaGraph_t graph = nullptr;
            CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
            bool ok = ok_status(convt1d_forward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dx.p, dw.p, bias, dy.p, cs), "forward (capture)");
            ok &= ok_status(convt1d_backward_input_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, dw.p, dgx.p, cs), "backward_input (capture)");
            ok &= ok_status(convt1d_backward_weight_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, dx.p, dgw.p, ws.p, wsb, cs), "backward_weight (capture)");
            ok &= ok_status(convt1d_backward_bias_cuda(&P.p, dt, dgy.p, dgb.p, cs), "backward_bias (capture)");
            /* ... and the one-call backward, whose grad_w scratch is stream-ordered (capturable) */
            ok &= ok_status(convt1d_backward_cuda(&P.p, dt, CONVT1D_MATH_STRICT_FP32, dgy.p, dx.p, dw.p, dgx.p, dgw.p,
                                                  dgb.p, cs), "backward (one call, capture)");
            const cudaError_t ce = cudaStreamEndCapture(stream, &graph);
            if (ce != cudaSuccess) fprintf(stderr, "    capture failed: %s\n", cudaGetErrorString(ce));
            bool same = false;
            if (ok && ce == cudaSuccess) {
                cudaGraphExec_t exec = nullptr;
                CK(cudaGraphInstantiate(&exec, graph, 0));
                CK(cudaGraphLaunch(exec, stream));
                CK(cudaGraphLaunch(exec, stream)); /* replays must be idempotent */
                CK(cudaStreamSynchronize(stream));
                same = fetch(dy, P.ny * es) == y_first && fetch(dgx, P.nx * es) == gx_first &&
                       fetch(dgw, P.nw * es) == gw_first && fetch(dgb, P.nb * es) == gb_first;
                CK(cudaGraphExecDestroy(exec));
            }
            if (graph) CK(cudaGraphDestroy(graph));
            (void)cudaGetLastError();
            check(ok && ce == cudaSuccess && same, base + " CUDA graph capture and replay (bitwise equal)");
        }
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    printf("%-30s N=%lld Cin=%lld Cout=%lld K=%lld L=%lld s=%lld p=%lld op=%lld g=%lld d=%lld bias=%d  (%.0f ms)\n",
           c.name.c_str(), (long long)c.N, (long long)c.Cin, (long long)c.Cout, (long long)c.K, (long long)c.L,
           (long long)c.s, (long long)c.p, (long long)c.op, (long long)c.g, (long long)c.d, (int)c.bias, ms);
    fflush(stdout);
}

/* ---------------------------------------------------------------- error codes */
static void run_errors(cudaStream_t stream) {
    const convt1d_stream cs = reinterpret_cast<convt1d_stream>(stream);
    check(convt1d_has_cuda() == 1, "convt1d_has_cuda() == 1");
    convt1d_params p = convt1d_params_make(2, 4, 6, 16, 3);
    Buf a(4096), b(4096), c(4096);
    check(convt1d_forward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, nullptr, b.p, nullptr, c.p, cs) == CONVT1D_ERROR_NULL_POINTER,
          "forward with x == NULL -> NULL_POINTER");
    check(convt1d_forward_cuda(&p, CONVT1D_F32, (convt1d_math)7, a.p, b.p, nullptr, c.p, cs) == CONVT1D_ERROR_INVALID_VALUE,
          "forward with math 7 -> INVALID_VALUE");
    check(convt1d_forward_cuda(&p, (convt1d_dtype)9, CONVT1D_MATH_STRICT_FP32, a.p, b.p, nullptr, c.p, cs) == CONVT1D_ERROR_INVALID_VALUE,
          "forward with dtype 9 -> INVALID_VALUE");
    convt1d_params bad = p;
    bad.groups = 4; /* does not divide C_out = 6 */
    check(convt1d_backward_input_cuda(&bad, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, a.p, b.p, c.p, cs) == CONVT1D_ERROR_INVALID_VALUE,
          "backward_input with groups not dividing C_out -> INVALID_VALUE");
    check(strlen(convt1d_last_error()) > 0, "last_error names the failure");
    size_t wsb = 0;
    check(convt1d_backward_weight_workspace_size(&p, CONVT1D_F32, &wsb) == CONVT1D_SUCCESS && wsb > 0, "workspace size > 0");
    if (wsb > 0) {
        check(convt1d_backward_weight_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, a.p, b.p, c.p, a.p, wsb - 1, cs) ==
                  CONVT1D_ERROR_INVALID_VALUE, "backward_weight with a short workspace -> INVALID_VALUE");
        check(convt1d_backward_weight_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, a.p, b.p, c.p, nullptr, wsb, cs) ==
                  CONVT1D_ERROR_NULL_POINTER, "backward_weight with a NULL workspace -> NULL_POINTER");
    }
    check(convt1d_backward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, a.p, b.p, nullptr, c.p, nullptr, nullptr, cs) ==
              CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), "weight"),
          "backward (one call) asking grad_x with weight == NULL -> NULL_POINTER naming the weight");
    check(convt1d_backward_cuda(&p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, a.p, nullptr, b.p, nullptr, c.p, nullptr, cs) ==
              CONVT1D_ERROR_NULL_POINTER && strstr(convt1d_last_error(), "x (grad_w"),
          "backward (one call) asking grad_w with x == NULL -> NULL_POINTER naming x");
    check(convt1d_backward_cuda(&p, CONVT1D_F32, (convt1d_math)7, a.p, b.p, b.p, c.p, nullptr, nullptr, cs) ==
              CONVT1D_ERROR_INVALID_VALUE, "backward (one call) with a bad math -> INVALID_VALUE");
    check(convt1d_backward_bias_cuda(&p, CONVT1D_F32, a.p, nullptr, cs) == CONVT1D_ERROR_NULL_POINTER,
          "backward_bias with grad_b == NULL -> NULL_POINTER");
    CK(cudaStreamSynchronize(stream));
}

/* ---------------------------------------------------------------- more than 2^31 elements */
__host__ __device__ inline float hash_val(uint64_t i, uint64_t seed) {
    uint64_t z = i + seed * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)((int)(z % 17) - 8) * 0.125f; /* multiples of 1/8 in [-1, 1]: exact in f16 */
}
__global__ void fill_f16(uint16_t *p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = ref::f32_to_f16_bits(hash_val(i, seed));
}
__global__ void fill_f32(float *p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = hash_val(i, seed);
}

/* f16, C_in 1, C_out 2, K 3, stride 1, padding 1: L_out = L_in = 2^30 + 3, so y and grad_y have
 * 2^31 + 6 elements (the int64 path by size). Values are multiples of 1/8 and each output has at
 * most 6 terms, so forward and grad_x are exact: sampled outputs must match bitwise. */
static void run_large(cudaStream_t stream, std::mt19937_64 &rng) {
    const int64_t L = (int64_t(1) << 30) + 3;
    convt1d_params p = convt1d_params_make(1, 1, 2, L, 3);
    p.padding = 1;
    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    const size_t need = (size_t)L * 2 * 6 + (size_t(1) << 30);
    if (free_b < need) {
        printf("large: skipped (%.1f GiB free, need %.1f)\n", free_b / 1073741824.0, need / 1073741824.0);
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const convt1d_stream cs = reinterpret_cast<convt1d_stream>(stream);
    const size_t nx = (size_t)L, ny = 2 * (size_t)L;
    Buf dx(nx * 2), dw(6 * 2), dy(ny * 2), dgy(ny * 2), dgx(nx * 2), dgb(2 * 2);
    const uint64_t sx = rng(), sw = rng(), sg = rng();
    fill_f16<<<4096, 256, 0, stream>>>((uint16_t *)dx.p, nx, sx);
    fill_f16<<<1, 32, 0, stream>>>((uint16_t *)dw.p, 6, sw);
    fill_f16<<<4096, 256, 0, stream>>>((uint16_t *)dgy.p, ny, sg);
    CK(cudaGetLastError());
    auto X = [&](int64_t i) -> double { return (i < 0 || i >= L) ? 0.0 : hash_val((uint64_t)i, sx); };
    auto W = [&](int64_t co, int64_t k) -> double { return hash_val((uint64_t)(co * 3 + k), sw); };
    auto G = [&](int64_t co, int64_t o) -> double { return (o < 0 || o >= L) ? 0.0 : hash_val((uint64_t)(co * L + o), sg); };
    /* sample positions: both ends of both rows and random ones */
    std::vector<int64_t> pos;
    for (int64_t i = 0; i < 64; ++i) { pos.push_back(i); pos.push_back(L - 1 - i); }
    for (int i = 0; i < 20000; ++i) pos.push_back((int64_t)(rng() % (uint64_t)L));

    for (int direct = 0; direct < 2; ++direct) {
        set_mode(direct != 0, false);
        CK(cudaMemsetAsync(dy.p, 0xff, ny * 2, stream));
        bool ok = ok_status(convt1d_forward_cuda(&p, CONVT1D_F16, CONVT1D_MATH_STRICT_FP32, dx.p, dw.p, nullptr, dy.p, cs), "forward (large)");
        CK(cudaStreamSynchronize(stream));
        size_t bad = 0;
        for (int co = 0; co < 2 && ok; ++co)
            for (int64_t o : pos) {
                double ref = 0;
                for (int k = 0; k < 3; ++k) ref += X(o + 1 - k) * W(co, k); /* i = o + p - k */
                uint16_t h;
                CK(cudaMemcpy(&h, (uint16_t *)dy.p + co * L + o, 2, cudaMemcpyDeviceToHost));
                if (ref::f16_bits_to_f32(h) != (float)ref) {
                    if (bad < 5) fprintf(stderr, "    y[%d, %lld] = %g, expected %g\n", co, (long long)o, ref::f16_bits_to_f32(h), ref);
                    ++bad;
                }
            }
        check(ok && bad == 0, std::string("large (2^31 + 6 outputs) forward") + (direct ? " direct" : ""));
    }
    set_mode(false, false);

    CK(cudaMemsetAsync(dgx.p, 0xff, nx * 2, stream));
    bool ok = ok_status(convt1d_backward_input_cuda(&p, CONVT1D_F16, CONVT1D_MATH_STRICT_FP32, dgy.p, dw.p, dgx.p, cs), "backward_input (large)");
    CK(cudaStreamSynchronize(stream));
    size_t bad = 0;
    for (int64_t i : pos) {
        if (!ok) break;
        double ref = 0;
        for (int co = 0; co < 2; ++co)
            for (int k = 0; k < 3; ++k) ref += G(co, i + k - 1) * W(co, k); /* o = i*s + k*d - p */
        uint16_t h;
        CK(cudaMemcpy(&h, (uint16_t *)dgx.p + i, 2, cudaMemcpyDeviceToHost));
        if (ref::f16_bits_to_f32(h) != (float)ref) {
            if (bad < 5) fprintf(stderr, "    grad_x[%lld] = %g, expected %g\n", (long long)i, ref::f16_bits_to_f32(h), ref);
            ++bad;
        }
    }
    check(ok && bad == 0, "large (2^31 + 6 grad_y elements) backward_input");

    CK(cudaMemsetAsync(dgb.p, 0xff, 4, stream));
    ok = ok_status(convt1d_backward_bias_cuda(&p, CONVT1D_F16, dgy.p, dgb.p, cs), "backward_bias (large)");
    CK(cudaStreamSynchronize(stream));
    uint16_t hb[2];
    CK(cudaMemcpy(hb, dgb.p, 4, cudaMemcpyDeviceToHost));
    for (int co = 0; co < 2 && ok; ++co) {
        double ref = 0; /* every partial sum is a multiple of 1/8 below 2^21: exact in the fp32 accumulator */
        for (int64_t o = 0; o < L; ++o) ref += G(co, o);
        const double got = ref::f16_bits_to_f32(hb[co]);
        if (fabs(ref) >= 65520.0) ok &= isinf(got) && (got > 0) == (ref > 0); /* beyond f16's range */
        else ok &= fabs(got - ref) <= ldexp(1.0, -11) * fabs(ref) + 1e-3;
        if (!ok) fprintf(stderr, "    grad_b[%d] = %g, expected %g\n", co, got, ref);
    }
    check(ok, "large (2^31 + 6 grad_y elements) backward_bias");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("large: L_in = 2^30 + 3, 2^31 + 6 outputs (%.1f s)\n", s);
}

/* ---------------------------------------------------------------- timings */
static void run_bench(cudaStream_t stream) {
    /* tests/problems.json "suite" (name, N, Cin, Cout, K, L, stride, padding, output_padding, groups, dilation, bias) */
    const std::vector<ref::Config> suite = {
        {"kernelbench_64", 64, 128, 128, 3, 65536, 1, 0, 0, 1, 1, false},
        {"kernelbench_74", 32, 32, 64, 5, 131072, 1, 0, 0, 1, 3, false},
        {"kernelbench_79", 16, 32, 64, 3, 131072, 2, 1, 0, 1, 2, false},
        {"kernelbench_64_small", 16, 64, 3, 3, 128, 1, 0, 0, 1, 1, false},
        {"kernelbench_74_small", 16, 3, 64, 5, 256, 1, 0, 0, 1, 3, false},
        {"kernelbench_79_small", 16, 32, 64, 3, 128, 2, 1, 0, 1, 2, false},
        {"upsample_x8_bias", 16, 512, 256, 16, 8192, 8, 4, 0, 1, 1, true},
        {"grouped_g4", 32, 256, 256, 4, 16384, 2, 1, 0, 4, 1, true},
        {"depthwise_s2", 32, 256, 256, 4, 16384, 2, 1, 1, 256, 1, true},
        {"hifigan_up1", 16, 512, 256, 16, 2048, 8, 4, 0, 1, 1, true},
        {"hifigan_up2", 16, 256, 128, 16, 16384, 8, 4, 0, 1, 1, true},
        {"hifigan_up3", 16, 128, 64, 4, 131072, 2, 1, 0, 1, 1, true},
        {"hifigan_up4", 16, 64, 32, 4, 262144, 2, 1, 0, 1, 1, true},
        {"codec_dec_s8", 8, 1536, 768, 16, 1024, 8, 4, 0, 1, 1, true},
        {"codec_dec_s5", 8, 512, 256, 10, 4096, 5, 3, 1, 1, 1, true},
        {"antialias_up2_depthwise", 8, 512, 512, 12, 8192, 2, 0, 0, 512, 1, false},
        {"single_utterance_x8", 1, 512, 256, 16, 861, 8, 4, 0, 1, 1, true},
    };
    const convt1d_stream cs = reinterpret_cast<convt1d_stream>(stream);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("\nbench: median of 5 after a warm-up, ms; TFLOP/s counts 2 flops per multiply-add\n");
    /* D = CONVT1D_FORCE_DIRECT (the direct kernels); the others are the entry points as shipped. */
    const char *cols[] = {"fwd f32s", "fwd bf16", "fwdD f32s", "fwdD bf16", "bx f32s", "bxD f32s", "bw f32s", "bwD f32s", "bias f32"};
    printf("%-24s", "shape");
    for (const char *h : cols) printf(" %9s", h);
    printf("   TFLOP/s: fwdD bxD bwD\n");
    for (const ref::Config &c : suite) {
        const ref::Problem P = ref::make_problem(c);
        const double flops = 2.0 * c.N * c.Cin * P.cout_g * c.K * c.L;
        Buf x(P.nx * 4), w(P.nw * 4), b(P.nb * 4), y(P.ny * 4), gx(P.nx * 4);
        size_t wsb = 0;
        convt1d_backward_weight_workspace_size(&P.p, CONVT1D_F32, &wsb);
        Buf ws(wsb), gw(P.nw * 4), gb(P.nb * 4);
        Buf x16(P.nx * 2), w16(P.nw * 2), b16(P.nb * 2), y16(P.ny * 2);
        fill_f32<<<1024, 256, 0, stream>>>((float *)x.p, P.nx, 1);
        fill_f32<<<1024, 256, 0, stream>>>((float *)w.p, P.nw, 2);
        fill_f32<<<1024, 256, 0, stream>>>((float *)y.p, P.ny, 3);
        fill_f32<<<1024, 256, 0, stream>>>((float *)b.p, P.nb, 4);
        /* f16 bit patterns of multiples of 1/8 are finite bf16 values too: fine for timing */
        fill_f16<<<1024, 256, 0, stream>>>((uint16_t *)x16.p, P.nx, 1);
        fill_f16<<<1024, 256, 0, stream>>>((uint16_t *)w16.p, P.nw, 2);
        fill_f16<<<1024, 256, 0, stream>>>((uint16_t *)b16.p, P.nb, 4);
        CK(cudaGetLastError());
        auto time_it = [&](auto fn) -> double {
            if (fn() != CONVT1D_SUCCESS) return -1;
            std::vector<float> t;
            for (int r = 0; r < 5; ++r) {
                CK(cudaEventRecord(e0, stream));
                fn();
                CK(cudaEventRecord(e1, stream));
                CK(cudaEventSynchronize(e1));
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            return t[2];
        };
        const void *bias = c.bias ? b.p : nullptr, *bias16 = c.bias ? b16.p : nullptr;
        double r[9];
        for (int direct = 0; direct < 2; ++direct) {
            set_mode(direct != 0, false);
            r[direct * 2 + 0] = time_it([&] { return convt1d_forward_cuda(&P.p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, x.p, w.p, bias, y.p, cs); });
            r[direct * 2 + 1] = time_it([&] { return convt1d_forward_cuda(&P.p, CONVT1D_BF16, CONVT1D_MATH_STRICT_FP32, x16.p, w16.p, bias16, y16.p, cs); });
            r[4 + direct] = time_it([&] { return convt1d_backward_input_cuda(&P.p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, y.p, w.p, gx.p, cs); });
            r[6 + direct] = time_it([&] { return convt1d_backward_weight_cuda(&P.p, CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, y.p, x.p, gw.p, ws.p, wsb, cs); });
        }
        set_mode(false, false);
        r[8] = time_it([&] { return convt1d_backward_bias_cuda(&P.p, CONVT1D_F32, y.p, gb.p, cs); });
        printf("%-24s", c.name.c_str());
        for (int i = 0; i < 9; ++i) printf(" %9.4f", r[i]);
        printf("   %.1f %.1f %.1f\n", flops / r[2] * 1e-9, flops / r[5] * 1e-9, flops / r[7] * 1e-9);
        fflush(stdout);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

int main(int argc, char **argv) {
    uint64_t seed = (uint64_t)std::chrono::system_clock::now().time_since_epoch().count();
    int nrandom = 50;
    bool large = true, bench = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = strtoull(argv[++i], nullptr, 10);
        else if (a == "--random" && i + 1 < argc) nrandom = atoi(argv[++i]);
        else if (a == "--no-large") large = false;
        else if (a == "--bench") bench = true;
        else { fprintf(stderr, "usage: %s [--seed S] [--random N] [--no-large] [--bench]\n", argv[0]); return 2; }
    }
    int dev = 0;
    cudaDeviceProp prop;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("device: %s (sm_%d%d), seed %llu (reproduce with --seed)\n", prop.name, prop.major, prop.minor,
           (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    cudaStream_t stream;
    CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    run_errors(stream);
    std::vector<ref::Config> cases = ref::edge_cases();
    for (const ref::Config &c : ref::path_cases()) cases.push_back(c);
    /* Strided problems above the tiny-problem threshold (2^24 multiply-adds): as shipped, their grad_input
     * takes the phase-plane path (bwd_input_planes.cu); graph capture covers its stream-ordered scratch. */
    const std::vector<ref::Config> planes_cases = {
        {"planes_upsample_x8", 2, 64, 32, 16, 1100, 8, 4, 0, 1, 1, true},
        {"planes_s5_grouped", 2, 96, 48, 10, 900, 5, 3, 1, 2, 1, true},
        {"planes_s3_dilated", 2, 64, 64, 5, 1000, 3, 4, 1, 1, 2, false},
        {"planes_s2", 2, 64, 64, 4, 1500, 2, 1, 1, 1, 1, true},
    };
    for (const ref::Config &c : planes_cases) cases.push_back(c);
    for (int i = 0; i < nrandom; ++i) cases.push_back(ref::random_config(rng, i));
    for (size_t i = 0; i < cases.size(); ++i)
        run_case(cases[i], rng, stream, /*graph_check=*/i % 4 == 0 || cases[i].name == "grouped_g4" ||
                                            cases[i].name.rfind("planes_", 0) == 0);
    if (large) run_large(stream, rng);
    if (bench) run_bench(stream);

    CK(cudaStreamDestroy(stream));
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
