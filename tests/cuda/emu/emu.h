/* CPU emulation of the few CUDA features the direct kernels use, so their logic can be tested on a
 * machine without a GPU. Each block runs its threads as coroutines (ucontext) in a random order
 * between barriers; __syncthreads() is a real barrier, dynamic shared memory starts as NaN bytes, so
 * a missing barrier or an unstaged read shows up as a wrong or NaN result. Included after the CUDA
 * headers by the transformed kernel sources (see emulate.sh). */
#pragma once
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <cmath>
#include <functional>

#undef __global__
#define __global__
#undef __device__
#define __device__
#undef __launch_bounds__
#define __launch_bounds__(...)

struct emu_dim3 { unsigned x, y, z; };

namespace emu {
extern emu_dim3 cur_thread, cur_block, block_dim, grid_dim;
extern unsigned char dyn_smem[];
void syncthreads();
void launch(unsigned grid, unsigned block, size_t smem, std::function<void()> body);
} // namespace emu

#define threadIdx emu::cur_thread
#define blockIdx emu::cur_block
#define blockDim emu::block_dim
#define gridDim emu::grid_dim
#define __syncthreads() emu::syncthreads()
#define __ffs(x) __builtin_ffs(x)
using std::fma;
using std::max;
using std::min;
