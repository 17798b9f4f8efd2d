#!/usr/bin/env bash
# Run 352 (session 32, review): the graph tests rewritten around helpers.captured(), with the final library
# (.carry/libconvt1d_350.so.xz): the programmatic-launch tests, the edge kernel in a CUDA graph, the fused one-phase graph test.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_350.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
cd tests/python
timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py test_cuda.py -k "programmatic or edge_in_cuda_graph or fused_one_phase_in_cuda_graph" \
  > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt
