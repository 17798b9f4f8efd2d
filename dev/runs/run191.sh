#!/usr/bin/env bash
# Run 191 (session 19): the register-A forward's phase-merged outputs stored as pairs of adjacent phases
# (WgArgs::ypair; run 190's ncu: upsample_x8 TF32 used 14.2 of 32 bytes per store sector): forward tests, sanitizer,
# A/B against one element per store on the stride-8 vocoder layers.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (rs or heuristic)" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san.txt
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,single_utterance_x8 --modes fp32,fp32_strict,bf16 --budget-ms 30 \
  --variants "shipped,noypair=CONVT1D_WGMMA_RS_YPAIR:0" --out $R/ab_ypair.json > $R/ab_ypair.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_ypair.txt | tail -15
