#!/usr/bin/env bash
# Run 188 (session 19): the SS wgmma kernel's split reduction for grad_input with too few tiles (WgArgs::ks,
# CONVT1D_WGMMA_KSPLIT): tests (forced 3 splits / one chunk per split on every strided shape, the shipped pick on
# batch-1 layers with a bitwise repeat), sanitizer, A/B against no split, single_utterance_x8 in the bench.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_input_strided or ksplit_taken" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
CONVT1D_BWD_INPUT=wgmma CONVT1D_WGMMA=1 CONVT1D_WGMMA_KSPLIT=3 timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_planes_wgmma.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok" $R/san.txt
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes single_utterance_x8 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 20 \
  --variants "shipped,nosplit=CONVT1D_WGMMA_KSPLIT:0,ks4=CONVT1D_WGMMA_KSPLIT:4,ks8=CONVT1D_WGMMA_KSPLIT:8,ks16=CONVT1D_WGMMA_KSPLIT:16" --out $R/ab_ksplit.json > $R/ab_ksplit.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_ksplit.txt | tail -4
timeout 60 python3 dev/python/profile_latency_bwd.py single_utterance_x8 fp32,bf16 > $R/bwd.txt 2>&1; echo "bwd exit $? ($SECONDS s)"; grep -E "=====|ksplit|fwd_wgmma_kernel" $R/bwd.txt | cut -c1-60,120-200
timeout 90 python3 -m convt1d.bench --backward --shapes single_utterance_x8 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 60 --out $R/bench_su.json > $R/bench_su.txt 2>&1; echo "bench exit $? ($SECONDS s)"; grep -E "^single" $R/bench_su.txt | cut -c1-80
