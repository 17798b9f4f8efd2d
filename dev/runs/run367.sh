#!/usr/bin/env bash
# Run 367 (session 34): early tap release compiled into the TF32 256x1 kernels only (the kernel's ETR_OK; run 366 had
# it in every forward kernel, with the weight map one tap deep everywhere, and KernelBench 64 ran 35% slower with it
# off), library .carry/libconvt1d_367.so.xz. 1) Tests of the register-A forward. 2) Rotated ABBA in one process,
# on / off (CONVT1D_WGMMA_RS_ETR=0). 3) Session 33's library and this one in alternating processes, 2 rounds.
# 4) The forward suite (the committed record if adopted).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 367; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l367 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l367/libconvt1d_torch.so /tmp/l367/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l367/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes hifigan_up1,upsample_x8_bias,codec_dec_s5,codec_dec_s8 --modes fp32 \
  --variants shipped,noetr=CONVT1D_WGMMA_RS_ETR:0 --out $R/ab_etr.json > $R/ab_etr.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|upsa|hifi|codec)" $R/ab_etr.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
for i in 1 2; do for v in 360 367; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 45 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up1,upsample_x8_bias,codec_dec_s5 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up2|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
