#!/usr/bin/env bash
# Builds the library (sm_90a only, no tests, no torch op) from HEAD's source (REV's if set) with an optional probe patch, for a GPU run
# that takes prebuilt libraries from .carry/ (the run scripts build the C++ op there). ~5 minutes on a 2-core host.
#   [REV=commit] bash dev/probes/build_probe.sh NAME [PATCH [DEFINE=VALUE]]   ->  .carry/libconvt1d_NAME.so.xz
# NAME cur with no patch is the shipped library. DEFINE=VALUE is prepended to src/cuda/fwd_wgmma.cu (probe macros).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd); NAME=$1; PATCH=${2:-}; DEF=${3:-}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
git -C "$ROOT" archive "${REV:-HEAD}" | tar -x -C "$W"
if [ -n "$PATCH" ]; then patch -s -d "$W" -p1 < "$ROOT/$PATCH"; fi
if [ -n "$DEF" ]; then sed -i "1i #define ${DEF%%=*} ${DEF#*=}" "$W/src/cuda/fwd_wgmma.cu"; fi
cmake -S "$W" -B "$W/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real -DCONVT1D_TESTS=OFF \
  -DCONVT1D_TORCH=OFF > "$W/cmake.log"
ninja -C "$W/build" convt1d | tee "$W/ninja.log" | grep -E "warning|Potential Performance Loss|spill" || true
mkdir -p "$ROOT/.carry"; xz -T0 -c "$W/build/libconvt1d.so" > "$ROOT/.carry/libconvt1d_$NAME.so.xz"
echo "built .carry/libconvt1d_$NAME.so.xz"
