#!/usr/bin/env bash
# Builds one emulator test program and prints its path: the named src/cuda files rewritten for the CPU (transform.py),
# the core's params.c and env.c, emu.cpp and the program's main, with AddressSanitizer (EMU_SAN and EMU_OPT override
# the flags), in $EMU_BUILD or build/NAME. Used by tests/cuda/emulate*.sh.
#   bash tests/cuda/emu/build.sh NAME MAIN.cpp FILE.cu...        ->  build/NAME/NAME_test
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
NAME=$1 MAIN=$2
shift 2
B=${EMU_BUILD:-$ROOT/build/$NAME}
mkdir -p "$B"
CUDA_INC=$(nvcc --dryrun -x cu /dev/null 2>&1 | sed -n "s/.*INCLUDES=\"-I\([^\"]*\)\".*/\1/p" | head -1)
[ -d "${CUDA_INC:-}" ] || CUDA_INC=/usr/local/cuda/include
SAN=${EMU_SAN-"-fsanitize=address,undefined -fno-sanitize-recover=undefined"}
FLAGS="${EMU_OPT:--O1} -g -std=c++17 $SAN -I$ROOT/include -I$ROOT/src/core -I$ROOT/src/cuda -I$ROOT/tests/cuda/emu -isystem $CUDA_INC"
gcc -O1 -g -std=c11 $SAN -I"$ROOT/include" -c "$ROOT/src/core/params.c" -o "$B/params.o" >&2
gcc -O1 -g -std=c11 $SAN -I"$ROOT/include" -c "$ROOT/src/core/env.c" -o "$B/env.o" >&2
objs=()
for cu in "$@"; do
  f=$(basename "$cu" .cu)_emu
  python3 "$ROOT/tests/cuda/emu/transform.py" "$ROOT/src/cuda/$cu" "$B/$f.cpp"
  g++ $FLAGS -c "$B/$f.cpp" -o "$B/$f.o" >&2 &
  objs+=("$B/$f.o")
done
g++ $FLAGS -c "$ROOT/tests/cuda/emu/emu.cpp" -o "$B/emu.o" >&2 &
g++ $FLAGS -c "$ROOT/tests/cuda/emu/$MAIN" -o "$B/${NAME}_main.o" >&2 &
wait
g++ $SAN "$B"/params.o "$B"/env.o "${objs[@]}" "$B"/emu.o "$B/${NAME}_main.o" -o "$B/${NAME}_test" >&2
echo "$B/${NAME}_test"
