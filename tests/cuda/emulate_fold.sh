#!/usr/bin/env bash
# Runs batch folding (src/cuda/fold.cu: plan, gather / scatter / place kernels, scratch) on the CPU through the
# emulator of tests/cuda/emu, with the emulated direct kernels as the folded layer's: no GPU needed. Every dtype
# against the brute-force reference, forward and gradients, with AddressSanitizer.
#   bash tests/cuda/emulate_fold.sh [seed] [random_configs]
set -euo pipefail
bin=$(bash "$(dirname "$0")/emu/build.sh" emu_fold emu_fold_main.cpp fold.cu fwd_direct.cu bwd_direct.cu)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0} "$bin" "$@"
