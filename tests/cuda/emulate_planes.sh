#!/usr/bin/env bash
# Runs the phase-plane grad_input path (src/cuda/bwd_input_planes.cu) on the CPU through the emulator of
# tests/cuda/emu, with the emulated direct forward standing in for the tensor-core forward: no GPU
# needed. Every dtype against the brute-force reference, with AddressSanitizer.
#   bash tests/cuda/emulate_planes.sh [seed] [random_configs]
set -euo pipefail
bin=$(bash "$(dirname "$0")/emu/build.sh" emu_planes emu_planes_main.cpp bwd_input_planes.cu fwd_direct.cu)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0} "$bin" "$@"
