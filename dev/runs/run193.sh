#!/usr/bin/env bash
# Run 193 (session 19): the register-A forward's staged epilogue for phase-merged rows (ps > 1; run 192's ncu:
# codec_dec_s5 bf16 stores use 8.6 of 32 bytes per sector, hifigan_up3 bf16 10.7): forward tests, sanitizer with it
# forced, A/B staged / direct (element or pair stores) in every mode.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (rs or heuristic)" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
CONVT1D_WGMMA_RS_EPI=staged CONVT1D_WGMMA_RS=1 timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san.txt
timeout 240 python3 dev/python/ab_wgmma.py --kind fwd --shapes codec_dec_s5,hifigan_up3,hifigan_up4,upsample_x8_bias,hifigan_up1,codec_dec_s8,kernelbench_64,kernelbench_74 --modes fp32,fp32_strict,bf16 --budget-ms 25 \
  --variants "shipped,staged=CONVT1D_WGMMA_RS_EPI:staged,direct=CONVT1D_WGMMA_RS_EPI:direct" --out $R/ab_staged.json > $R/ab_staged.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-230 $R/ab_staged.txt | tail -24
