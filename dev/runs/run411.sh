#!/usr/bin/env bash
# Run 411 (session 41, H200): library 411 = library 407 + the edge kernel with 16 weight loads in flight per warp (run
# 410; sass_diff against 400: 683 equal, the 3 edge kernels changed). Library 407 = library 400's kernels + rs_edge_drop asking
# convt1d_fwd_edge_fits before it drops a tile (host code). Runs 405-406's edge kernels lost and were removed; this
# checks the final library: every edge test (the new stride-5 output_padding shape, the edge columns on their own scale),
# memcheck of the edge target, then test_cuda.py + test_autograd.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_411.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge" > $R/tests_edge.txt 2>&1; echo "edge tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_edge.txt | head -8 | cut -c1-300; tail -1 $R/tests_edge.txt)
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; echo "san edge exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_edge.txt | head -3
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider -x test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1; echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_cuda.txt | head -8 | cut -c1-300; tail -1 $R/tests_cuda.txt)
