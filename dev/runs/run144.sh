#!/usr/bin/env bash
# Run 144 (session 15): the register-A forward without its nearly empty last position tile (fwd_edge.cu writes those
# outputs): edge tests (forced / off / codec_dec_s8 as shipped), the wgmma forward tests (some SHAPES now drop it),
# sanitizer, and A/B on the vocoder layers it applies to (shipped = edge where it saves a round, noedge = off).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=session15-edge
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs_edge or test_wgmma_forward" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; tail -2 $R/san_edge.txt
timeout 200 python3 dev/python/ab_wgmma.py --shapes codec_dec_s8,hifigan_up1,upsample_x8_bias --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,noedge=CONVT1D_WGMMA_RS_EDGE:0 --out $R/ab_edge.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-300 $R/ab.txt | tail -12
