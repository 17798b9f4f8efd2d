#!/usr/bin/env bash
# Run 131 (session 14): unit transposes for grad_y's phase planes (grad_input's transposed planes, grad_weight's planes)
# where a plane position of a channel is 16 or 32 bytes starting 8-byte aligned. Tests (new units test, the strided
# grad_input / grad_weight tests with the general kernels forced too), sanitizer, ABBA timing units vs general on the
# gradients of codec_dec_s8 / upsample_x8 / hifigan_up1 / single_utterance_x8, then the suite bench with --backward on
# codec_dec_s8 (fwd+bwd against cuDNN).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "planes_units or test_wgmma_grad_weight or (test_wgmma_grad_input_strided and (forced or heuristic))" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^E " $R/pytest.txt | tail -8)
CONVT1D_BWD_INPUT=wgmma CONVT1D_WGMMA=1 CONVT1D_WGMMA_RS=0 CONVT1D_WGMMA_BW=1 CONVT1D_WGMMA_BW_RS=0 CONVT1D_BWD_WEIGHT_FUSED=0 \
  timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_planes_wgmma.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san.txt | head -3
for k in bwd_input bwd_weight; do
timeout 150 python3 dev/python/ab_wgmma.py --kind $k --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1,single_utterance_x8 --modes bf16,fp32 \
  --variants u1=CONVT1D_WGMMA_PLANES_UNITS:1,g1=CONVT1D_WGMMA_PLANES_UNITS:0,g2=CONVT1D_WGMMA_PLANES_UNITS:0,u2=CONVT1D_WGMMA_PLANES_UNITS:1 \
  --out $R/ab_units_$k.json 2>&1 | tail -8
done
timeout 200 python3 -m convt1d.bench --backward --shapes codec_dec_s8 --out $R/bench_codec_s8.json 2>&1 | grep -vE "^\s*$|it/s|%\|" | tail -24
