/* Runs batch folding (src/cuda/fold.cu: its plan, the gather / scatter / place kernels, the scratch handling) on the
 * CPU emulator against the brute-force reference. The layer that runs on the folded row is the emulated direct kernels
 * (fwd_direct.cu, bwd_direct.cu) in place of the tensor-core ones, so this checks everything of the path except those
 * kernels (their own tests do). Folding is forced (CONVT1D_FOLD / CONVT1D_FOLD_BWD = 1: wherever legal). Scratch is
 * malloc'ed at the exact size and poisoned (0xff bytes, NaN in every float type), so AddressSanitizer catches an
 * out-of-range access and an unwritten element of the long rows shows as NaN; outputs carry a guard byte past the end.
 * Where the scratch cannot be had, both calls must decline (CONVT1D_ERROR_NOT_SUPPORTED) having launched nothing.
 *   emu_fold_test [seed] [random_configs]          (built and run by tests/cuda/emulate_fold.sh) */
#include <stdlib.h>

#include <chrono>

#include "../reference.h"
#include "kernels.cuh"
#include "emu_host.h"

/* ---- the folded layer's kernels: each checks the problem it is handed (batch 1, padding 0, output_padding 0, the
 * layout's lengths), then runs the emulated direct kernel */
static const convt1d_fold_layout *g_layout = nullptr;
static int g_calls = 0;
static bool g_bad = false;
static void check_folded(const convt1d_problem &pf, const char *who) {
    ++g_calls;
    const convt1d_params &f = pf.p;
    if (f.batch != 1 || f.padding != 0 || f.output_padding != 0 || f.in_length != g_layout->folded.in_length ||
        pf.out_length != g_layout->folded_length) {
        fprintf(stderr, "    %s handed a problem that is not the folded layer\n", who);
        g_bad = true;
    }
}
static convt1d_status forward_folded(const convt1d_problem &pf, const void *x, const void *w, const void *bias, void *y,
                                     cudaStream_t s) {
    check_folded(pf, "forward");
    return convt1d_fwd_direct(pf, x, w, bias, y, s);
}
static convt1d_status bwd_input_folded(const convt1d_problem &pf, const void *gy, const void *w, void *gx,
                                       cudaStream_t s) {
    check_folded(pf, "grad_input");
    return convt1d_bwd_input_direct(pf, gy, w, gx, s);
}
static convt1d_status bwd_weight_folded(const convt1d_problem &pf, const void *gy, const void *x, void *gw,
                                        cudaStream_t s) {
    check_folded(pf, "grad_weight");
    size_t bytes = 0;
    convt1d_bwd_weight_workspace(pf, &bytes);
    std::vector<double> ws(bytes / sizeof(double) + 1); /* 8-byte aligned */
    return convt1d_bwd_weight_direct(pf, gy, x, gw, ws.data(), bytes, s);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : (uint64_t)time(0);
    int nrandom = argc > 2 ? atoi(argv[2]) : 30;
    printf("seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    setenv("CONVT1D_FOLD", "1", 1);
    setenv("CONVT1D_FOLD_BWD", "1", 1);
    convt1d_env_refresh();
    std::vector<ref::Config> cfgs = ref::edge_cases();
    /* short samples in a batch, the kind folding is for: vocoder-like, output_padding past the padding (the last
     * sample's bias-only columns), K 1 with output_padding, padding wider than the span, groups, dilation, L 1 */
    const std::vector<ref::Config> extra = {
        {"fold_x8", 4, 12, 6, 16, 9, 8, 4, 0, 1, 1, true},
        {"fold_outpad_dilated", 5, 8, 10, 5, 7, 3, 0, 2, 1, 2, true},
        {"fold_k1_outpad", 4, 8, 12, 1, 9, 3, 0, 2, 1, 1, true},
        {"fold_pad_gt_span", 3, 6, 5, 3, 11, 4, 9, 3, 1, 1, false},
        {"fold_groups", 3, 12, 12, 4, 20, 2, 1, 1, 2, 1, false},
        {"fold_len1", 4, 9, 7, 3, 1, 1, 1, 0, 1, 1, true},
        {"fold_s5", 3, 10, 8, 10, 15, 5, 0, 4, 1, 1, false},
    };
    for (auto &c : extra) cfgs.push_back(c);
    for (int i = 0; i < nrandom; ++i) cfgs.push_back(ref::random_config(rng, i));
    const convt1d_dtype dts[] = {CONVT1D_F32, CONVT1D_F16, CONVT1D_BF16, CONVT1D_F64};
    int folded = 0, not_folded = 0;
    for (const auto &c : cfgs) {
        const ref::Problem P = ref::make_problem(c);
        const auto t0 = std::chrono::steady_clock::now();
        bool took = false;
        for (convt1d_dtype dt : dts) {
            const size_t es = convt1d_dtype_size(dt);
            ref::Tensor x = ref::random_tensor(dt, P.nx, rng), w = ref::random_tensor(dt, P.nw, rng);
            ref::Tensor b = ref::random_tensor(dt, P.nb, rng), gy = ref::random_tensor(dt, P.ny, rng);
            const convt1d_problem pr = problem_of(P, dt);
            const std::string tag = c.name + " " + ref::dtype_name(dt);
            convt1d_fold_layout layout;
            const bool plan = convt1d_fold_plan(pr, false, &layout), plan_bwd = convt1d_fold_plan(pr, true, &layout);
            /* forced: wherever legal (batch >= 2, not fp64, not depthwise; every layer here is small enough) */
            const bool legal = c.N >= 2 && dt != CONVT1D_F64 && P.cin_g != 1;
            check(plan == legal && plan_bwd == legal, tag + " folds exactly where legal");
            if (!legal) continue;
            took = true;
            g_layout = &layout;
            const size_t allocs0 = g_alloc_calls;

            std::vector<unsigned char> y(P.ny * es + 1, 0xff);
            g_calls = 0;
            g_bad = false;
            convt1d_status st = convt1d_fwd_fold(pr, layout, x.bytes.data(), w.bytes.data(),
                                                 c.bias ? b.bytes.data() : nullptr, y.data(), nullptr, forward_folded);
            check(st == CONVT1D_SUCCESS && g_calls == 1 && !g_bad, tag + " forward: one folded layer, status");
            check(ref::compare("y", ref::forward(P, x, w, c.bias ? &b : nullptr), dt, y.data()) == 0, tag + " forward");
            check(y.back() == 0xff, tag + " forward: no overrun");

            /* the gradients: both at once, and each alone (the scratch differs) */
            const ref::Result rgx = ref::backward_input(P, gy, w), rgw = ref::backward_weight(P, gy, x);
            for (int need = 3; need >= 1; --need) {
                const bool want_x = need & 1, want_w = need & 2;
                std::vector<unsigned char> gx(P.nx * es + 1, 0xff), gw(P.nw * es + 1, 0xff);
                g_calls = 0;
                g_bad = false;
                st = convt1d_bwd_fold(pr, layout, gy.bytes.data(), x.bytes.data(), w.bytes.data(),
                                      want_x ? gx.data() : nullptr, want_w ? gw.data() : nullptr, nullptr,
                                      bwd_input_folded, bwd_weight_folded);
                const std::string which = need == 3 ? " grad_x + grad_w" : want_x ? " grad_x alone" : " grad_w alone";
                check(st == CONVT1D_SUCCESS && g_calls == (need == 3 ? 2 : 1) && !g_bad, tag + which + ": status");
                if (want_x) check(ref::compare("grad_x", rgx, dt, gx.data()) == 0 && gx.back() == 0xff, tag + which);
                if (want_w) check(ref::compare("grad_w", rgw, dt, gw.data()) == 0 && gw.back() == 0xff, tag + which);
            }
            check(g_allocs.empty() && g_alloc_calls == allocs0 + 4, tag + " one scratch allocation a call, freed");

            /* out of memory for the scratch: each declines before launching anything, leaving no error behind */
            g_out_of_memory = true;
            g_calls = 0;
            convt1d_clear_error();
            std::vector<unsigned char> untouched(P.ny * es + 1, 0xff), gx(P.nx * es + 1, 0xff), gw(P.nw * es + 1, 0xff);
            y.assign(P.ny * es + 1, 0xff);
            const convt1d_status fs = convt1d_fwd_fold(pr, layout, x.bytes.data(), w.bytes.data(), nullptr, y.data(),
                                                       nullptr, forward_folded);
            const convt1d_status bs = convt1d_bwd_fold(pr, layout, gy.bytes.data(), x.bytes.data(), w.bytes.data(),
                                                       gx.data(), gw.data(), nullptr, bwd_input_folded, bwd_weight_folded);
            g_out_of_memory = false;
            check(fs == CONVT1D_ERROR_NOT_SUPPORTED && bs == CONVT1D_ERROR_NOT_SUPPORTED && g_calls == 0 &&
                      y == untouched && convt1d_last_error()[0] == 0,
                  tag + " no scratch: declined, nothing launched, no error");
        }
        took ? ++folded : ++not_folded;
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        printf("%-28s N%lld Cin%lld Cout%lld K%lld L%lld s%lld p%lld op%lld g%lld d%lld  %s  %.0f ms\n", c.name.c_str(),
               (long long)c.N, (long long)c.Cin, (long long)c.Cout, (long long)c.K, (long long)c.L, (long long)c.s,
               (long long)c.p, (long long)c.op, (long long)c.g, (long long)c.d, took ? "folded" : "not folded", ms);
        fflush(stdout);
    }
    printf("%d problems folded, %d not\n", folded, not_folded);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
