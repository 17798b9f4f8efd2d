#!/usr/bin/env bash
# Run 201 (session 19): a candidate for run 200's KernelBench 74 16-bit drift (the staged-epilogue lambda takes WgArgs
# by value and its fields once; the position-pairs kernels compile only its ps = 1 form): its forward and grad_input
# tests, then the session-start (1b5b08f), current (d0eab8a) and candidate libraries in alternating processes.
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/old /tmp/cand && xz -dc .carry/old.so.xz > /tmp/old/libconvt1d.so && xz -dc .carry/cand.so.xz > /tmp/cand/libconvt1d.so
for d in .carry /tmp/old /tmp/cand; do bash scripts/build_torch_op.sh $d >> $R/build_op.txt 2>&1 || echo "op build $d failed"; done
(cd /tmp && CONVT1D_LIBRARY=/tmp/cand/libconvt1d.so timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "(test_wgmma_forward and (rs or heuristic)) or grad_input_strided or rs_pairs or rs_taken or grad_input_adjoint" > $R/pytest_cand.txt 2>&1; echo "pytest cand exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cand.txt | tail -4)
for i in 1 2 3; do
  for v in old cur cand; do
    case $v in old) L=/tmp/old/libconvt1d.so;; cur) L=$PWD/.carry/libconvt1d.so;; cand) L=/tmp/cand/libconvt1d.so;; esac
    CONVT1D_LIBRARY=$L CONVT1D_COMMIT=$v timeout 60 python3 -m convt1d.bench --shapes kernelbench_64,kernelbench_74,hifigan_up4 --modes fp32,fp16,bf16 --budget-ms 50 --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
    echo "$v $i: $(grep -E '^(kernelbench_(64|74)|hifigan_up4) ' $R/ab_${v}_$i.txt | awk '{printf "%s/%s %s  ", substr($1,1,14), $2, $3}')"
  done
done
