#!/usr/bin/env bash
# Run 129 (session 14): the register-A forward's weight ring apart from the input stages (CONVT1D_WGMMA_RS_WSPLIT):
# wgmma forward tests with it forced / off / shipped, the sanitizer on it, then an ABBA timing against the joint
# stages on the vocoder layers (fp16, TF32), and 128-row tiles with the ring (slots of 16 KB: more of them).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (wsplit or heuristic or rs-)" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^E " $R/pytest.txt | tail -6)
SAN_TILES=wsplit,wsplit128x2,wsplit64x2 timeout 200 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|rel|worst" $R/san.txt | tail -4
timeout 240 python3 dev/python/ab_wgmma.py --kind fwd --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s5 --modes fp16,fp32 \
  --variants a1=CONVT1D_WGMMA_RS_WSPLIT:1,a0=CONVT1D_WGMMA_RS_WSPLIT:0,b0=CONVT1D_WGMMA_RS_WSPLIT:0,b1=CONVT1D_WGMMA_RS_WSPLIT:1,c1=CONVT1D_WGMMA_RS_WSPLIT:1+CONVT1D_WGMMA_RS_TILE:128x1,c0=CONVT1D_WGMMA_RS_WSPLIT:0+CONVT1D_WGMMA_RS_TILE:128x1 \
  --out $R/ab_wsplit.json 2>&1 | tail -12
