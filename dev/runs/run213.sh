#!/usr/bin/env bash
# Run 213 (session 20): the register-A kernel releases a chunk's stage after the next chunk's first k-step instead of
# draining its MMAs at every chunk boundary (WgArgs::defer): A/B on / off (forward and grad_input), then every wgmma test.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
V="shipped,nodefer=CONVT1D_WGMMA_RS_DEFER:0"
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8,codec_dec_s5 --modes fp32,bf16 --budget-ms 25 --variants "$V" --out $R/ab_defer.json > $R/ab_defer.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-150 $R/ab_defer.txt | tail -18
timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,upsample_x8_bias,hifigan_up3 --modes fp32,bf16 --budget-ms 25 --variants "$V" --out $R/ab_defer_bi.json > $R/ab_defer_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-150 $R/ab_defer_bi.txt | tail -6
(cd /tmp && timeout 230 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -6)
