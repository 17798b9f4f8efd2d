#!/usr/bin/env bash
# Run 135 (session 14): the register-A kernel's A fragments one k-step ahead (CONVT1D_WGMMA_RS_PREFETCH=1): the wgmma
# forward / strided grad_input tests with it forced, sanitizer, then ABBA timing against the plain loop on the layers
# it runs (vocoder forwards, KernelBench 64/74 forward, strided grad_inputs) in 16-bit and TF32.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && CONVT1D_WGMMA_RS_PREFETCH=1 timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "(test_wgmma_forward and (rs or heuristic)) or (test_wgmma_grad_input_strided and rs)" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^E " $R/pytest.txt | tail -6)
CONVT1D_WGMMA_RS_PREFETCH=1 SAN_TILES=auto,64x2,128x2,256x1,pp,bulk timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY" $R/san.txt | head -2
V=p1=CONVT1D_WGMMA_RS_PREFETCH:1,p0=CONVT1D_WGMMA_RS_PREFETCH:0,q0=CONVT1D_WGMMA_RS_PREFETCH:0,q1=CONVT1D_WGMMA_RS_PREFETCH:1
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1,kernelbench_64,kernelbench_74 --modes fp16,fp32 --variants $V --out $R/ab_pf_fwd.json 2>&1 | tail -10
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes upsample_x8_bias,hifigan_up3,kernelbench_64 --modes bf16,fp32 --variants $V --out $R/ab_pf_bi.json 2>&1 | tail -6
