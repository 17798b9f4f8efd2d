#!/usr/bin/env bash
# Run 206 (session 20): first run of the register-A forward as clusters of two blocks sharing each stage's weights
# by TMA multicast (WgArgs::cl, default on phase-merged layers): cluster tests (bitwise equal to no clusters),
# the forward tests with cluster picks, sanitizer; A/B clusters on / off on the strided suite layers.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=30 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "cluster" > $R/pytest_cl.txt 2>&1; echo "pytest cluster exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout|Error" $R/pytest_cl.txt | tail -6)
timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5,hifigan_up3,hifigan_up4,kernelbench_79 --modes fp32,bf16 --budget-ms 25 \
  --variants "shipped,nocl=CONVT1D_WGMMA_RS_CLUSTER:0" --out $R/ab_cl.json > $R/ab_cl.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-160 $R/ab_cl.txt | tail -16
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or taken" > $R/pytest_fwd.txt 2>&1; echo "pytest fwd exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_fwd.txt | tail -6)
