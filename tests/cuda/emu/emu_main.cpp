/* Runs the direct kernels on the CPU emulator against the brute-force reference (no GPU needed). */
#include <stdlib.h>

#include <chrono>

#include "../reference.h"
#include "kernels.cuh"
#include "emu_host.h"

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : (uint64_t)time(0);
    int nrandom = argc > 2 ? atoi(argv[2]) : 30;
    bool big = argc > 3 ? atoi(argv[3]) != 0 : true;
    printf("seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    std::vector<ref::Config> cfgs = ref::edge_cases();
    if (big) for (auto &c : ref::path_cases()) cfgs.push_back(c);
    for (int i = 0; i < nrandom; ++i) cfgs.push_back(ref::random_config(rng, i));
    const convt1d_dtype dts[] = {CONVT1D_F32, CONVT1D_F16, CONVT1D_BF16, CONVT1D_F64};
    for (const auto &c : cfgs) {
        const ref::Problem P = ref::make_problem(c);
        auto t0 = std::chrono::steady_clock::now();
        for (convt1d_dtype dt : dts) {
            const size_t es = convt1d_dtype_size(dt);
            ref::Tensor x = ref::random_tensor(dt, P.nx, rng), w = ref::random_tensor(dt, P.nw, rng);
            ref::Tensor b = ref::random_tensor(dt, P.nb, rng), gy = ref::random_tensor(dt, P.ny, rng);
            const convt1d_problem pr = problem_of(P, dt);
            const ref::Result ry = ref::forward(P, x, w, c.bias ? &b : nullptr);
            const ref::Result rgx = ref::backward_input(P, gy, w);
            const ref::Result rgw = ref::backward_weight(P, gy, x);
            const ref::Result rgb = ref::backward_bias(P, gy);
            for (int mode = 0; mode < 2; ++mode) {
                setenv("CONVT1D_FORCE_INDEX64", mode ? "1" : "0", 1);
                std::string tag = c.name + " " + ref::dtype_name(dt) + (mode ? " idx64" : "");
                std::vector<unsigned char> y(P.ny * es + 1, 0xff), gx(P.nx * es + 1, 0xff),
                    gw(P.nw * es + 1, 0xff), gw2(P.nw * es + 1, 0xee), gb(P.nb * es + 1, 0xff);
                if (c.N == 0) continue; /* api.cu handles the empty batch */
                convt1d_status st = convt1d_fwd_direct(pr, x.bytes.data(), w.bytes.data(), c.bias ? b.bytes.data() : nullptr, y.data(), nullptr);
                check(st == 0 && ref::compare("y", ry, dt, y.data()) == 0, tag + " forward");
                st = convt1d_bwd_input_direct(pr, gy.bytes.data(), w.bytes.data(), gx.data(), nullptr);
                check(st == 0 && ref::compare("grad_x", rgx, dt, gx.data()) == 0, tag + " backward_input");
                size_t wsb = 0;
                convt1d_bwd_weight_workspace(pr, &wsb);
                std::vector<unsigned char> ws(wsb + 16, 0xff);
                st = convt1d_bwd_weight_direct(pr, gy.bytes.data(), x.bytes.data(), gw.data(), ws.data(), wsb, nullptr);
                check(st == 0 && ref::compare("grad_w", rgw, dt, gw.data()) == 0, tag + " backward_weight");
                memset(ws.data(), 0x55, ws.size());
                st = convt1d_bwd_weight_direct(pr, gy.bytes.data(), x.bytes.data(), gw2.data(), ws.data(), wsb, nullptr);
                check(st == 0 && memcmp(gw.data(), gw2.data(), P.nw * es) == 0, tag + " backward_weight deterministic");
                st = convt1d_bwd_bias_direct(pr, gy.bytes.data(), gb.data(), nullptr);
                check(st == 0 && ref::compare("grad_b", rgb, dt, gb.data()) == 0, tag + " backward_bias");
                /* nothing written past the end */
                check(y.back() == 0xff && gx.back() == 0xff && gw.back() == 0xff && gb.back() == 0xff, tag + " no overrun");
            }
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        printf("%-30s N%lld Cin%lld Cout%lld K%lld L%lld s%lld p%lld op%lld g%lld d%lld  %.0f ms\n", c.name.c_str(),
               (long long)c.N, (long long)c.Cin, (long long)c.Cout, (long long)c.K, (long long)c.L, (long long)c.s,
               (long long)c.p, (long long)c.op, (long long)c.g, (long long)c.d, ms);
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
