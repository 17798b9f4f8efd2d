#!/usr/bin/env bash
# Run 133 (session 14): grad_weight's shift 0 read from x itself, the one shifted copy by bw_shift1_kernel (16-bit, two
# shifts: the vocoder layers). Tests (units / x0 rules, grad_weight forced / general / chunked / shipped, determinism),
# sanitizer, ABBA timing against the general pre-passes on the vocoder grad_weights (bf16, fp16).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "planes_units or test_wgmma_grad_weight or (test_wgmma_grad_input_strided and forced)" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^E " $R/pytest.txt | tail -8)
CONVT1D_BWD_INPUT=wgmma CONVT1D_WGMMA=1 CONVT1D_WGMMA_RS=0 CONVT1D_WGMMA_BW=1 CONVT1D_WGMMA_BW_RS=0 CONVT1D_BWD_WEIGHT_FUSED=0 \
  timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_planes_wgmma.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san.txt | head -3
timeout 200 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s5 --modes bf16,fp16 \
  --variants x1=CONVT1D_WGMMA_BW_X0:1,x0=CONVT1D_WGMMA_BW_X0:0,y0=CONVT1D_WGMMA_BW_X0:0,y1=CONVT1D_WGMMA_BW_X0:1 \
  --out $R/ab_x0.json 2>&1 | tail -10
