#!/usr/bin/env bash
# Run 366 (session 34): early tap release (WgArgs::etr, the kernel's ETR; CONVT1D_WGMMA_RS_ETR=0 off),
# library .carry/libconvt1d_366.so.xz (Session 33's final library + this). 1) Tests of the register-A forward
# (fast epilogue, spare rows, ordered ping-pong, the forward picks). 2) Rotated ABBA in one process, on / off.
# 3) Session 33's library and this one in alternating processes, 2 rounds (the change compiles into every forward
# kernel, and the weight map is now one tap deep everywhere).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 366; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l366 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l366/libconvt1d_torch.so /tmp/l366/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l366/libconvt1d.so
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "fast_epilogue or spare or ordered_pingpong or (test_wgmma_forward and (rs or heuristic)) or rs_taken or adjoint" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64,kernelbench_74,hifigan_up1,upsample_x8_bias,codec_dec_s5,hifigan_up2 --modes fp32,fp16 \
  --variants shipped,noetr=CONVT1D_WGMMA_RS_ETR:0 --out $R/ab_etr.json > $R/ab_etr.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|upsa|hifi|codec)" $R/ab_etr.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
for i in 1 2; do for v in 360 366; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 45 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up1 --modes fp32,fp16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
