#!/usr/bin/env bash
# Run 194 (session 19): the new epilogue defaults of phase-merged forwards (pairs where aligned, else staged):
# forward tests, A/B against the old default (one element per direct store) on the strided suite layers; then
# codec_dec_s5's grad_input (16-bit 0.79x cuDNN alone) under the register-A tiles and the SS path.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (heuristic or rsdirect or rsnoypair or rsstaged)" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes hifigan_up3,hifigan_up4,upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s5,codec_dec_s8,single_utterance_x8 --modes fp32,fp32_strict,bf16 --budget-ms 25 \
  --variants "shipped,old=CONVT1D_WGMMA_RS_EPI:direct+CONVT1D_WGMMA_RS_YPAIR:0" --out $R/ab_fwd_epi.json > $R/ab_fwd_epi.txt 2>&1; echo "ab fwd exit $? ($SECONDS s)"; cut -c1-170 $R/ab_fwd_epi.txt | tail -24
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes codec_dec_s5 --modes fp32,bf16 --budget-ms 25 \
  --variants "shipped,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,ss=CONVT1D_WGMMA_RS:0,ss128x2=CONVT1D_WGMMA_RS:0+CONVT1D_WGMMA_BR:128x2" --out $R/ab_bi_s5.json > $R/ab_bi_s5.txt 2>&1; echo "ab bi exit $? ($SECONDS s)"; cut -c1-330 $R/ab_bi_s5.txt | tail -2
