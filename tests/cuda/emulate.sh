#!/usr/bin/env bash
# Runs the direct CUDA kernels (fwd_direct.cu, bwd_direct.cu) on the CPU through a small emulator
# (tests/cuda/emu): no GPU needed. Checks every dtype against the brute-force reference, with
# AddressSanitizer for out-of-bounds reads and writes.
#   bash tests/cuda/emulate.sh [seed] [random_configs] [path_cases 0/1]
set -euo pipefail
bin=$(bash "$(dirname "$0")/emu/build.sh" emu emu_main.cpp fwd_direct.cu bwd_direct.cu)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0} "$bin" "$@"
