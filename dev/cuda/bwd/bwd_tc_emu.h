/* Host emulation of the tiny CUDA subset src/cuda/bwd_tc.cu uses, so its kernels can run on a machine
 * without a GPU (g++ -DCONVT1D_BWD_EMU). Each CUDA thread of a block is a ucontext coroutine; the
 * scheduler runs every thread up to its next barrier (__syncthreads or a warp-wide mma.sync), checks
 * that all threads reached the same kind of barrier (a divergent barrier is a bug: it aborts), then
 * executes the mma of every warp from the 32 lanes' fragments with the PTX fragment layouts:
 *   A word r of lane l -> (row l/4 + 8*(r&1), word col l%4 + 4*(r>>1))
 *   B word r           -> (word row l%4 + 4*r, col l/4)
 *   D r                -> (row l/4 + 8*(r>>1), col 2*(l%4) + (r&1))
 * A word holds one tf32 (m16n8k8) or two f16/bf16 values, low half first (m16n8k16).
 * Shared memory is refilled with NaN bytes for every block, so reading anything not staged shows up.
 * This checks index math and fragment plumbing, not timing or memory-model subtleties. */
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

namespace emu {

struct u3 {
    unsigned x, y, z;
};
enum { ST_RUN, ST_SYNC, ST_MMA, ST_DONE };

struct Thread {
    ucontext_t ctx;
    int state;
    u3 tid;
    int kind;
    uint32_t a[4], b[2];
    float c[4];
};

struct State {
    std::vector<Thread> th;
    ucontext_t sched;
    int cur = 0;
    u3 bid{0, 0, 0};
    std::vector<unsigned char> smem;
    std::vector<char> stacks;
    std::function<void()> body;
    size_t stack_size = 256 * 1024;
    long long mma_count = 0, blocks = 0;
};
inline State &S() {
    static State s;
    return s;
}
inline u3 thread_idx() { return S().th[S().cur].tid; }
inline u3 block_idx() { return S().bid; }
inline void *dyn_smem() { return S().smem.data(); }

inline void park(int st) {
    State &s = S();
    Thread &t = s.th[s.cur];
    t.state = st;
    swapcontext(&t.ctx, &s.sched);
}
inline void sync_threads() { park(ST_SYNC); }

/* cvt.rna.tf32.f32: round to nearest, ties away from zero, to 10 explicit mantissa bits. */
inline uint32_t cvt_rna_tf32(uint32_t u) {
    if ((u & 0x7f800000u) == 0x7f800000u) return u; /* inf / nan unchanged */
    return (u + 0x1000u) & 0xffffe000u;
}

inline void mma(int kind, float c[4], const uint32_t a[4], const uint32_t b[2]) {
    State &s = S();
    Thread &t = s.th[s.cur];
    t.kind = kind;
    memcpy(t.a, a, sizeof t.a);
    memcpy(t.b, b, sizeof t.b);
    memcpy(t.c, c, sizeof t.c);
    park(ST_MMA);
    memcpy(c, s.th[s.cur].c, sizeof t.c);
}

inline float half_bits(uint16_t v, int kind) {
    if (kind == 2) {
        uint32_t u = (uint32_t)v << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    __half_raw r;
    r.x = v;
    return __half2float(__half(r));
}

inline void warp_mma(Thread *lanes) {
    const int kind = lanes[0].kind;
    const int KS = kind == 0 ? 8 : 16;
    double A[16][16], B[16][8];
    for (int l = 0; l < 32; ++l) {
        if (lanes[l].kind != kind) {
            fprintf(stderr, "emu: lanes of one warp issued different mma kinds\n");
            abort();
        }
        const int g = l >> 2, t = l & 3;
        for (int r = 0; r < 4; ++r) {
            const int row = g + 8 * (r & 1), wc = t + 4 * (r >> 1);
            const uint32_t w = lanes[l].a[r];
            if (kind == 0) {
                uint32_t m = w & 0xffffe000u; /* the unit reads only the tf32 bits */
                float f;
                memcpy(&f, &m, 4);
                A[row][wc] = f;
            } else {
                A[row][2 * wc] = half_bits((uint16_t)(w & 0xffff), kind);
                A[row][2 * wc + 1] = half_bits((uint16_t)(w >> 16), kind);
            }
        }
        for (int r = 0; r < 2; ++r) {
            const int wr = t + 4 * r, col = g;
            const uint32_t w = lanes[l].b[r];
            if (kind == 0) {
                uint32_t m = w & 0xffffe000u;
                float f;
                memcpy(&f, &m, 4);
                B[wr][col] = f;
            } else {
                B[2 * wr][col] = half_bits((uint16_t)(w & 0xffff), kind);
                B[2 * wr + 1][col] = half_bits((uint16_t)(w >> 16), kind);
            }
        }
    }
    float D[16][8];
    for (int l = 0; l < 32; ++l) {
        const int g = l >> 2, t = l & 3;
        for (int r = 0; r < 4; ++r) D[g + 8 * (r >> 1)][2 * t + (r & 1)] = lanes[l].c[r];
    }
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 8; ++j) {
            double acc = D[i][j];
            for (int k = 0; k < KS; ++k) acc += A[i][k] * B[k][j];
            D[i][j] = (float)acc;
        }
    for (int l = 0; l < 32; ++l) {
        const int g = l >> 2, t = l & 3;
        for (int r = 0; r < 4; ++r) lanes[l].c[r] = D[g + 8 * (r >> 1)][2 * t + (r & 1)];
    }
}

inline void trampoline() {
    S().body();
    S().th[S().cur].state = ST_DONE; /* returning resumes uc_link = the scheduler */
}

inline void run_block(int nthreads) {
    State &s = S();
    if ((int)s.th.size() < nthreads) s.th.resize(nthreads);
    if (s.stacks.size() < (size_t)nthreads * s.stack_size) s.stacks.resize((size_t)nthreads * s.stack_size);
    for (int i = 0; i < nthreads; ++i) {
        Thread &t = s.th[i];
        getcontext(&t.ctx);
        t.ctx.uc_stack.ss_sp = s.stacks.data() + (size_t)i * s.stack_size;
        t.ctx.uc_stack.ss_size = s.stack_size;
        t.ctx.uc_link = &s.sched;
        makecontext(&t.ctx, trampoline, 0);
        t.state = ST_RUN;
        t.tid = u3{(unsigned)i, 0, 0};
    }
    for (;;) {
        for (int i = 0; i < nthreads; ++i) {
            if (s.th[i].state == ST_DONE) continue;
            s.cur = i;
            s.th[i].state = ST_RUN;
            swapcontext(&s.sched, &s.th[i].ctx);
        }
        int nd = 0, nsync = 0, nmma = 0;
        for (int i = 0; i < nthreads; ++i) {
            nd += s.th[i].state == ST_DONE;
            nsync += s.th[i].state == ST_SYNC;
            nmma += s.th[i].state == ST_MMA;
        }
        if (nd == nthreads) break;
        if (nd && (nsync || nmma)) {
            fprintf(stderr, "emu: some threads exited while others wait at a barrier (block %u,%u,%u)\n", s.bid.x,
                    s.bid.y, s.bid.z);
            abort();
        }
        if (nsync && nmma) {
            fprintf(stderr, "emu: threads at __syncthreads and at mma at the same time\n");
            abort();
        }
        if (nmma) {
            if (nthreads % 32) abort();
            for (int w = 0; w < nthreads / 32; ++w) warp_mma(&s.th[w * 32]);
            s.mma_count += nthreads / 32;
        }
    }
}

template <typename... P, typename... A>
void launch(void (*kern)(P...), dim3 grid, int threads, size_t smem, A... args) {
    State &s = S();
    s.smem.assign(smem + 16, 0xff);
    s.body = [&]() { kern(args...); };
    for (unsigned z = 0; z < grid.z; ++z)
        for (unsigned y = 0; y < grid.y; ++y)
            for (unsigned x = 0; x < grid.x; ++x) {
                s.bid = u3{x, y, z};
                memset(s.smem.data(), 0xff, s.smem.size());
                run_block(threads);
                ++s.blocks;
            }
}

} // namespace emu

#define threadIdx (::emu::thread_idx())
#define blockIdx (::emu::block_idx())
#ifdef __launch_bounds__
#undef __launch_bounds__
#endif
#define __launch_bounds__(...)
