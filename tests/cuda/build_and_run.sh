#!/usr/bin/env bash
# Builds the GPU self-test of the CUDA entry points and direct kernels (against build/gpu/libconvt1d.so
# when that is up to date, else straight from the sources: no CMake needed) and runs it. Needs nvcc and
# a GPU (sm_80 or newer).
#   bash tests/cuda/build_and_run.sh [test args: --seed S --random N --no-large --bench]
# Environment: ARCH (default: the GPU's own, else "80;90a"), BENCH=1 adds --bench, BUILD (output dir),
# NO_RUN=1 builds only.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$ROOT/build/cuda_test}
mkdir -p "$B"
if [ -z "${ARCH:-}" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  case "$cap" in 90) ARCH="90a" ;; "") ARCH="80;90a" ;; *) ARCH="$cap" ;; esac
fi
GENCODE=""
for a in ${ARCH//;/ }; do GENCODE="$GENCODE -gencode arch=compute_${a},code=sm_${a}"; done
NVFLAGS="-O3 -std=c++17 -lineinfo --expt-relaxed-constexpr $GENCODE -I$ROOT/include -I$ROOT/src/core -I$ROOT/tests/cuda"
# A library the project build already made (scripts/gpu_all.sh builds build/gpu first) saves compiling
# the kernels twice; it is used when it is newer than every CUDA and core source. LIB=none forces sources.
LIB=${LIB:-$ROOT/build/gpu/libconvt1d.so}
if [ "$LIB" != none ] && [ -f "$LIB" ] && { [ "${FORCE_LIB:-0}" = 1 ] || [ -z "$(find "$ROOT/src" "$ROOT/include" -newer "$LIB" -type f | head -1)" ]; }; then
  echo "building the test in $B for sm $ARCH against $LIB"
  nvcc $NVFLAGS "$ROOT/tests/cuda/test_cuda_direct.cu" -o "$B/test_cuda_direct" -L"$(dirname "$LIB")" -lconvt1d -Xlinker -rpath="$(dirname "$LIB")"
else
  echo "building in $B for sm $ARCH from the sources"
  gcc -O2 -std=c11 -fPIC -I"$ROOT/include" -c "$ROOT/src/core/params.c" -o "$B/params.o"
  gcc -O2 -std=c11 -fPIC -I"$ROOT/include" -c "$ROOT/src/core/env.c" -o "$B/env.o"
  objs=("$B/params.o" "$B/env.o")
  pids=()
  for f in "$ROOT"/src/cuda/*.cu; do
    o="$B/$(basename "$f" .cu).o"
    nvcc $NVFLAGS -c "$f" -o "$o" & pids+=($!)
    objs+=("$o")
  done
  nvcc $NVFLAGS -c "$ROOT/tests/cuda/test_cuda_direct.cu" -o "$B/test_cuda_direct.o" & pids+=($!)
  for p in "${pids[@]}"; do wait "$p"; done
  nvcc $GENCODE "$B/test_cuda_direct.o" "${objs[@]}" -o "$B/test_cuda_direct"
fi
[ "${NO_RUN:-0}" = 1 ] && { echo "built $B/test_cuda_direct"; exit 0; }
args=("$@")
[ "${BENCH:-0}" = 1 ] && args+=(--bench)
"$B/test_cuda_direct" "${args[@]}"
