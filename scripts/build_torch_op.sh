#!/usr/bin/env bash
# Builds only the C++ eager op (src/torch/convt1d_torch.cpp) against the torch of this Python, next to an existing
# libconvt1d.so: for a GPU machine whose torch differs from the one the library was built beside (the CMake build
# makes both at once). With CUDA when this torch has it and nvcc's headers are found.
#   bash scripts/build_torch_op.sh DIR      (DIR holds libconvt1d.so; writes DIR/libconvt1d_torch.so + .torch_version)
set -euo pipefail
DIR=$(cd "$1" && pwd); ROOT=$(cd "$(dirname "$0")/.." && pwd)
IFS='|' read -r INC LIBDIR ABI VER CUDA < <(python3 "$ROOT/scripts/torch_build_info.py")
FLAGS=(-O2 -std=c++17 -shared -fPIC -Wno-c++20-extensions -D_GLIBCXX_USE_CXX11_ABI=$ABI "-DCONVT1D_TORCH_VERSION=\"$VER\"" -I"$ROOT/include")
for i in ${INC//,/ }; do FLAGS+=(-isystem "$i"); done
LIBS=(-L"$DIR" -lconvt1d -L"$LIBDIR" -lc10 -ltorch -ltorch_cpu -Wl,-rpath,'$ORIGIN' -Wl,-rpath,"$LIBDIR")
NVCC=$(command -v nvcc || true)
if [ "$CUDA" = 1 ] && [ -n "$NVCC" ]; then
  FLAGS+=(-DCONVT1D_TORCH_CUDA=1 -isystem "$(dirname "$(dirname "$NVCC")")/include"); LIBS+=(-lc10_cuda)
fi
g++ "${FLAGS[@]}" "$ROOT/src/torch/convt1d_torch.cpp" "${LIBS[@]}" -o "$DIR/libconvt1d_torch.so"
echo "$VER" > "$DIR/libconvt1d_torch.torch_version"
echo "built $DIR/libconvt1d_torch.so for torch $VER (CUDA $CUDA)"
