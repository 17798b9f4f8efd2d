#!/usr/bin/env bash
# Runs batch folding (src/cuda/fold.cu: plan, gather / scatter / place kernels, scratch) on the CPU through the
# emulator of tests/cuda/emu, with the emulated direct kernels as the folded layer's: no GPU needed. Every dtype
# against the brute-force reference, forward and gradients, with AddressSanitizer.
#   bash tests/cuda/emulate_fold.sh [seed] [random_configs]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${EMU_BUILD:-$ROOT/build/emu_fold}
mkdir -p "$B"
CUDA_INC=$(nvcc --dryrun -x cu /dev/null 2>&1 | sed -n "s/.*INCLUDES=\"-I\([^\"]*\)\".*/\1/p" | head -1)
[ -d "${CUDA_INC:-}" ] || CUDA_INC=/usr/local/cuda/include
for f in fold fwd_direct bwd_direct; do python3 "$ROOT/tests/cuda/emu/transform.py" "$ROOT/src/cuda/$f.cu" "$B/${f}_emu.cpp"; done
SAN=${EMU_SAN-"-fsanitize=address,undefined -fno-sanitize-recover=undefined"}
FLAGS="${EMU_OPT:--O1} -g -std=c++17 $SAN -I$ROOT/include -I$ROOT/src/core -I$ROOT/src/cuda -I$ROOT/tests/cuda/emu -isystem $CUDA_INC"
gcc -O1 -g -std=c11 $SAN -I"$ROOT/include" -c "$ROOT/src/core/params.c" -o "$B/params.o"
gcc -O1 -g -std=c11 $SAN -I"$ROOT/include" -c "$ROOT/src/core/env.c" -o "$B/env.o"
for f in fold_emu fwd_direct_emu bwd_direct_emu; do g++ $FLAGS -c "$B/$f.cpp" -o "$B/$f.o" & done
g++ $FLAGS -c "$ROOT/tests/cuda/emu/emu.cpp" -o "$B/emu.o" &
g++ $FLAGS -c "$ROOT/tests/cuda/emu/emu_fold_main.cpp" -o "$B/emu_fold_main.o" &
wait
g++ $SAN "$B"/params.o "$B"/env.o "$B"/fold_emu.o "$B"/fwd_direct_emu.o "$B"/bwd_direct_emu.o "$B"/emu.o \
  "$B"/emu_fold_main.o -o "$B/emu_fold_test"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0:detect_leaks=0} "$B/emu_fold_test" "$@"
