#!/usr/bin/env bash
# Run 189 (session 19): split count = one block per SM (run 188: 4 splits beat 8); its tests, single_utterance_x8 in
# the bench; then the L2-blocked backward probe (dev/python/l2_blocked_probe.py) on KernelBench 64 / 74.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 60 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "ksplit" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes single_utterance_x8 --modes fp32,fp32_strict,bf16 --budget-ms 20 \
  --variants "shipped,nosplit=CONVT1D_WGMMA_KSPLIT:0,ks3=CONVT1D_WGMMA_KSPLIT:3,ks4=CONVT1D_WGMMA_KSPLIT:4" --out $R/ab_ksplit.json > $R/ab_ksplit.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_ksplit.txt | tail -3
timeout 90 python3 -m convt1d.bench --backward --shapes single_utterance_x8 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 60 --out $R/bench_su.json > $R/bench_su.txt 2>&1; echo "bench exit $? ($SECONDS s)"; grep -E "^single" $R/bench_su.txt | cut -c1-80
timeout 150 python3 dev/python/l2_blocked_probe.py kernelbench_64 fp32,bf16 1,2,4 > $R/l2_64.txt 2>&1; echo "l2 64 exit $? ($SECONDS s)"; cat $R/l2_64.txt | tail -3
timeout 90 python3 dev/python/l2_blocked_probe.py kernelbench_74 fp32 1,2 > $R/l2_74.txt 2>&1; echo "l2 74 exit $? ($SECONDS s)"; cat $R/l2_74.txt | tail -2
