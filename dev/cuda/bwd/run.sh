#!/usr/bin/env bash
# Build and run the tensor-core backward harness (dev/cuda/bwd/bwd_bench.cu + src/cuda/bwd_tc.cu).
#   bash dev/cuda/bwd/run.sh             GPU: nvcc build for ARCH (default 90a), validate ~20 configs x 6
#                                        variants, time the big suite shapes (f32 with and without the
#                                        cp.async pipeline: tf32 vs tf32-np), print the tables last
#   bash dev/cuda/bwd/run.sh --emu       no GPU: the same kernel source in the host emulator (g++),
#                                        validation only (minutes on 2 cores)
# Other arguments go to the binary: --no-bench, --no-validate, or a substring of config/shape names.
# Env: ARCH=80 for an A100, SEED=<n> to replay a run, NVCC=..., SANITIZE=1 to run the validation (no timing)
# under compute-sanitizer memcheck first. Exit status: the harness's (0 = all passed).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
B="$ROOT/build/bwd"
mkdir -p "$B"
cd "$ROOT"
INC=(-Iinclude -Isrc/core -Isrc/cuda -Idev/cuda/bwd)

if [[ "${1:-}" == "--emu" ]]; then
  shift
  CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")}
  [[ -f "$CUDA_HOME/bin/nvcc" ]] || CUDA_HOME=/usr/local/cuda
  # nvcc is often a wrapper script; find the toolkit that holds the headers.
  [[ -f "$CUDA_HOME/include/cuda_runtime.h" ]] || CUDA_HOME=$(ls -d /usr/local/cuda-* 2>/dev/null | tail -1)
  FL=(-std=c++17 -O2 -g -DCONVT1D_BWD_EMU -Wall -Wno-unknown-pragmas -Wno-attributes -I"$CUDA_HOME/include" "${INC[@]}")
  gcc -std=c11 -O2 -Iinclude -Isrc/core -c src/core/params.c -o "$B/params_emu.o"
  g++ "${FL[@]}" -x c++ -c src/cuda/bwd_tc.cu -o "$B/bwd_tc_emu.o"
  g++ "${FL[@]}" -x c++ -c dev/cuda/bwd/bwd_bench.cu -o "$B/bwd_bench_emu.o"
  g++ -o "$B/bwd_bench_emu" "$B/bwd_bench_emu.o" "$B/bwd_tc_emu.o" "$B/params_emu.o" \
      -L"$CUDA_HOME/lib64" -lcudart_static -ldl -lpthread -lrt
  exec "$B/bwd_bench_emu" "$@"
fi

NVCC=${NVCC:-nvcc}
ARCH=${ARCH:-90a}
GEN=(-gencode "arch=compute_${ARCH},code=sm_${ARCH}")
echo "== build (sm_${ARCH})"
gcc -std=c11 -O2 -fPIC -Iinclude -Isrc/core -c src/core/params.c -o "$B/params.o"
"$NVCC" -std=c++17 -O3 "${GEN[@]}" -lineinfo -Xptxas -v "${INC[@]}" -c src/cuda/bwd_tc.cu -o "$B/bwd_tc.o" 2> "$B/ptxas.log" \
  || { cat "$B/ptxas.log"; exit 1; }
grep -E "spill|registers" "$B/ptxas.log" | paste - - | sed -E 's/ +/ /g' | sort | uniq -c | head -20 || true
"$NVCC" -std=c++17 -O3 "${GEN[@]}" "${INC[@]}" -c dev/cuda/bwd/bwd_bench.cu -o "$B/bwd_bench.o"
"$NVCC" "${GEN[@]}" -o "$B/bwd_bench" "$B/bwd_bench.o" "$B/bwd_tc.o" "$B/params.o"
# nvcc may be a wrapper script: look for cuobjdump next to the real one too.
CUOBJ=$(command -v cuobjdump || true)
[[ -n "$CUOBJ" ]] || CUOBJ="$(dirname "$(readlink -f "$(command -v "$NVCC")")")/cuobjdump"
if [[ -x "$CUOBJ" ]]; then
  echo "tensor-core instructions in bwd_tc.o (sm_${ARCH} SASS):"
  "$CUOBJ" -sass "$B/bwd_tc.o" | grep -oE "HMMA\.[0-9A-Z.]+" | sort | uniq -c || echo "  none found: FAILED"
fi
if [[ "${SANITIZE:-0}" == 1 ]]; then
  SAN=$(command -v compute-sanitizer || true)
  [[ -n "$SAN" ]] || SAN="$(dirname "$(readlink -f "$(command -v "$NVCC")")")/compute-sanitizer"
  [[ -x "$SAN" ]] || SAN=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
  echo "== compute-sanitizer memcheck (validation only)"
  "$SAN" --tool memcheck --error-exitcode 3 "$B/bwd_bench" --no-bench "$@" | tail -5
fi
echo "== run"
"$B/bwd_bench" "$@"
