#include "emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <random>
#include <vector>

namespace emu {
emu_dim3 cur_thread, cur_block, block_dim, grid_dim;
alignas(16) unsigned char dyn_smem[64 * 1024];

namespace {
constexpr size_t kStack = 48 * 1024;
ucontext_t sched_ctx;
std::vector<ucontext_t> ctx;
std::vector<std::vector<unsigned char>> stacks;
std::vector<int> state; /* 0 runnable, 1 at barrier, 2 done */
const std::function<void()> *body_ptr;
int current;
std::mt19937 rng(12345);

void trampoline() {
    (*body_ptr)();
    state[current] = 2;
    /* returns through uc_link to the scheduler */
}
} // namespace

void syncthreads() {
    state[current] = 1;
    swapcontext(&ctx[current], &sched_ctx);
}

void launch(unsigned grid, unsigned block, size_t smem, std::function<void()> body) {
    if (smem > sizeof dyn_smem) { fprintf(stderr, "emu: %zu bytes of dynamic shared memory\n", smem); abort(); }
    if (block > 1024 || grid == 0) { fprintf(stderr, "emu: bad launch %u x %u\n", grid, block); abort(); }
    grid_dim = {grid, 1, 1};
    block_dim = {block, 1, 1};
    body_ptr = &body;
    ctx.resize(block);
    stacks.resize(block);
    state.assign(block, 0);
    std::vector<int> order(block);
    for (unsigned b = 0; b < grid; ++b) {
        cur_block = {b, 0, 0};
        memset(dyn_smem, 0xff, sizeof dyn_smem);
        for (unsigned t = 0; t < block; ++t) {
            stacks[t].resize(kStack);
            getcontext(&ctx[t]);
            ctx[t].uc_stack.ss_sp = stacks[t].data();
            ctx[t].uc_stack.ss_size = kStack;
            ctx[t].uc_link = &sched_ctx;
            makecontext(&ctx[t], trampoline, 0);
            state[t] = 0;
        }
        for (;;) {
            for (unsigned t = 0; t < block; ++t) order[t] = (int)t;
            std::shuffle(order.begin(), order.end(), rng);
            for (int t : order) {
                if (state[t] != 0) continue;
                current = t;
                cur_thread = {(unsigned)t, 0, 0};
                swapcontext(&sched_ctx, &ctx[t]);
            }
            int at_barrier = 0, done = 0;
            for (unsigned t = 0; t < block; ++t) { at_barrier += state[t] == 1; done += state[t] == 2; }
            if (done == (int)block) break;
            if (done > 0) { fprintf(stderr, "emu: block %u: %d threads exited while %d wait at a barrier\n", b, done, at_barrier); abort(); }
            for (unsigned t = 0; t < block; ++t) state[t] = 0; /* release the barrier */
        }
    }
}
} // namespace emu
