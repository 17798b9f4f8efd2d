/* Runs the phase-plane grad_input (src/cuda/bwd_input_planes.cu: gather and weight re-index kernels,
 * batch chunking, scratch handling) on the CPU emulator against the brute-force reference. The
 * stride-1 tensor-core forward it calls is replaced here by the emulated direct forward (fwd_direct.cu)
 * on the same problem, so this checks everything of the path except the tensor-core kernel itself
 * (which its own harness checks). Scratch is malloc'ed at the exact size and poisoned (NaN bytes), so
 * AddressSanitizer catches any out-of-range access and an unwritten plane or W' element shows as NaN.
 *   emu_planes_test [seed] [random_configs]          (built and run by tests/cuda/emulate_planes.sh) */
#include <stdlib.h>

#include <chrono>

#include "../reference.h"
#include "bwd_input_planes.cuh"
#include "kernels.cuh"
#include "emu_host.h"

/* ---- the stride-1 forward: checks the problem it is handed, runs the emulated direct kernel */
static std::vector<int64_t> g_fwd_batches;
static bool g_fwd_bad = false;
convt1d_status convt1d_fwd_tc(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                              cudaStream_t stream) {
    const convt1d_params &q = pr.p;
    int64_t lq = -1;
    if (pr.w_adjoint) {
        /* stride-1 grad_input: the adjoint problem on grad_y, truncated to L_in outputs; w is the original
         * weight. Mirror the real kernel's refusals, then hand the direct kernel W' = w transposed and
         * flipped per group. */
        if (pr.cin_g < 8 || (q.kernel_size - 1) * q.dilation > 32) return CONVT1D_ERROR_NOT_SUPPORTED;
        if (bias || q.stride != 1 || q.output_padding != 0 || convt1d_validate(&q, &lq) != CONVT1D_SUCCESS ||
            lq < pr.out_length || pr.cin_g != q.in_channels / q.groups || pr.cout_g != q.out_channels / q.groups) {
            fprintf(stderr, "    fwd_tc handed a bad adjoint problem\n");
            g_fwd_bad = true;
        }
        g_fwd_batches.push_back(q.batch);
        const size_t es = convt1d_dtype_size(pr.dtype);
        const int64_t K = q.kernel_size, cin_g = pr.cin_g, ocg = pr.cout_g;
        std::vector<unsigned char> wt((size_t)(q.in_channels * ocg * K) * es);
        for (int64_t grp = 0; grp < q.groups; ++grp)
            for (int64_t ci = 0; ci < cin_g; ++ci)
                for (int64_t co = 0; co < ocg; ++co)
                    for (int64_t k = 0; k < K; ++k)
                        memcpy(&wt[(size_t)((((grp * cin_g + ci) * ocg + co) * K + k) * (int64_t)es)],
                               (const unsigned char *)w + (((grp * ocg + co) * cin_g + ci) * K + (K - 1 - k)) * (int64_t)es, es);
        convt1d_problem plain = pr;
        plain.w_adjoint = false;
        return convt1d_fwd_direct(plain, x, wt.data(), bias, y, stream);
    }
    if (bias || q.stride != 1 || q.dilation != 1 || q.output_padding != 0 || q.padding != q.kernel_size - 1 ||
        convt1d_validate(&q, &lq) != CONVT1D_SUCCESS || lq != pr.out_length ||
        pr.cin_g != q.in_channels / q.groups || pr.cout_g != q.out_channels / q.groups || pr.cin_g < 8 ||
        q.kernel_size > 16) {
        fprintf(stderr, "    fwd_tc handed a bad problem\n");
        g_fwd_bad = true;
    }
    g_fwd_batches.push_back(q.batch);
    return convt1d_fwd_direct(pr, x, w, bias, y, stream);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : (uint64_t)time(0);
    int nrandom = argc > 2 ? atoi(argv[2]) : 40;
    printf("seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    std::vector<ref::Config> cfgs = ref::edge_cases();
    for (auto &c : ref::path_cases())
        if (c.name.rfind("bias_", 0) != 0) cfgs.push_back(c); /* the long grad_b rows: not this path's, and slow here */
    /* strided shapes the path takes: vocoder-like, grouped, large padding, dilation, L_in = 1, big stride */
    const std::vector<ref::Config> extra = {
        {"planes_x8", 3, 16, 8, 16, 37, 8, 4, 0, 1, 1, false},
        {"planes_s5_op", 2, 12, 6, 10, 29, 5, 3, 1, 1, 1, false},
        {"planes_groups", 2, 12, 24, 4, 33, 2, 1, 1, 3, 1, false},
        {"planes_dilated", 2, 9, 10, 5, 21, 3, 6, 2, 1, 3, false},
        {"planes_pad_gt_span", 2, 5, 9, 3, 25, 4, 9, 0, 1, 2, false},
        {"planes_len1", 3, 7, 5, 6, 1, 4, 1, 3, 1, 1, false},
        {"planes_s9_k17", 2, 4, 3, 17, 12, 9, 7, 8, 1, 1, false},
        {"planes_stride_gt_k", 2, 6, 4, 3, 15, 7, 0, 2, 1, 1, false},
        {"planes_big_tile_stride", 1, 3, 2, 2, 5, 600, 0, 0, 1, 1, false},
        {"planes_s1", 2, 10, 9, 3, 40, 1, 1, 0, 1, 1, false},
        {"adjoint_s1_dilated_op", 2, 12, 10, 5, 37, 1, 4, 2, 1, 3, false},
        {"adjoint_s1_groups", 3, 6, 32, 3, 50, 1, 2, 0, 2, 2, false},
        {"adjoint_s1_pad_gt_span", 2, 9, 8, 3, 40, 1, 3, 0, 1, 1, false},
        {"planes_long_rows", 1, 3, 4, 4, 2100, 2, 1, 1, 1, 1, false},
    };
    for (auto &c : extra) cfgs.push_back(c);
    for (int i = 0; i < nrandom; ++i) cfgs.push_back(ref::random_config(rng, i));
    const convt1d_dtype dts[] = {CONVT1D_F32, CONVT1D_F16, CONVT1D_BF16, CONVT1D_F64};
    int taken = 0, declined = 0;
    for (const auto &c : cfgs) {
        if (c.N == 0) continue; /* api.cu handles the empty batch before any kernel */
        const ref::Problem P = ref::make_problem(c);
        const auto t0 = std::chrono::steady_clock::now();
        bool took = false;
        for (convt1d_dtype dt : dts) {
            const size_t es = convt1d_dtype_size(dt);
            ref::Tensor w = ref::random_tensor(dt, P.nw, rng), gy = ref::random_tensor(dt, P.ny, rng);
            const ref::Result rgx = ref::backward_input(P, gy, w);
            const convt1d_problem pr = problem_of(P, dt);
            /* planes budget: 0 = the default (the whole batch here), 1 byte = one sample per chunk, two
             * samples' planes = chunks of 2 (an uneven batch gets a smaller last chunk) */
            const convt1d_planes_geom g0 = convt1d_planes_make_geom(&P.p, P.Lout);
            const size_t two = (size_t)(2 * g0.C1 * g0.Lg) * es;
            for (size_t budget : {size_t(0), size_t(1), two}) {
                convt1d_bwd_input_planes_set_budget(budget);
                const std::string tag = c.name + " " + ref::dtype_name(dt) +
                                        (budget == 1 ? " chunks of 1" : budget ? " chunks of 2" : "");
                std::vector<unsigned char> gx(P.nx * es + 1, 0xff);
                g_fwd_batches.clear();
                g_fwd_bad = false;
                const size_t allocs0 = g_alloc_calls;
                const convt1d_status st = convt1d_bwd_input_planes(pr, gy.bytes.data(), w.bytes.data(), gx.data(), nullptr);
                const convt1d_planes_geom g = convt1d_planes_make_geom(&P.p, P.Lout);
                /* stride 1 (padding within the taps' span): the adjoint forward, no gather, no scratch */
                const bool adj = P.p.stride == 1 && P.p.padding <= (P.p.kernel_size - 1) * P.p.dilation;
                const bool expect = dt != CONVT1D_F64 && (adj ? g.cout_g >= 8 && (P.p.kernel_size - 1) * P.p.dilation <= 32
                                                             : g.cout_g * g.R >= 8 && g.P + 1 <= 16);
                if (st == CONVT1D_ERROR_NOT_SUPPORTED) {
                    check(!expect && g_alloc_calls == allocs0 && g_fwd_batches.empty(),
                          tag + " declined before launching anything (and only where expected)");
                    continue;
                }
                took = true;
                check(st == CONVT1D_SUCCESS && expect, tag + " status");
                check(ref::compare("grad_x", rgx, dt, gx.data()) == 0, tag + " backward_input");
                check(gx.back() == 0xff, tag + " no overrun");
                check(g_allocs.empty() && g_alloc_calls == allocs0 + (adj ? 0 : 1),
                      tag + (adj ? " no scratch" : " one scratch allocation, freed"));
                int64_t total = 0;
                for (int64_t b : g_fwd_batches) total += b;
                const size_t want_calls = adj ? 1 : budget == 1 ? (size_t)c.N : budget ? (size_t)(c.N + 1) / 2 : 1;
                check(!g_fwd_bad && total == c.N && g_fwd_batches.size() == want_calls, tag + " forward calls cover the batch");
            }
        }
        took ? ++taken : ++declined;
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        printf("%-30s N%lld Cin%lld Cout%lld K%lld L%lld s%lld p%lld op%lld g%lld d%lld  %s  %.0f ms\n", c.name.c_str(),
               (long long)c.N, (long long)c.Cin, (long long)c.Cout, (long long)c.K, (long long)c.L, (long long)c.s,
               (long long)c.p, (long long)c.op, (long long)c.g, (long long)c.d, took ? "taken" : "declined", ms);
        fflush(stdout);
    }
    convt1d_bwd_input_planes_set_budget(0);
    printf("%d problems taken by the planes path, %d declined\n", taken, declined);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
