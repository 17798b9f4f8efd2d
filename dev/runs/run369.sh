#!/usr/bin/env bash
# Run 369 (session 35): deferred chunk release (the kernel's DCR) moved to the 16-bit 256-row forward kernels without
# position pairs (three stages; run 368: the TF32 ones, two stages, 6-8% slower), library .carry/libconvt1d_369.so.xz
# (every other kernel's SASS identical to run 360's library). 1) A smoke test with a short limit (a release that
# never comes hangs). 2) The 16-bit register-A forward tests. 3) Session 33's library (360) and this one in
# alternating processes, 3 rounds, fp16 / bf16. 4) Knob: KernelBench 64 16-bit with ping-pong over resident weights.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 369; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l369 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l369/libconvt1d_torch.so /tmp/l369/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l369/libconvt1d.so
timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 5 --order once --shapes hifigan_up1,codec_dec_s8 --modes fp16,bf16 --variants shipped > $R/smoke.txt 2>&1; echo "smoke exit $? ($SECONDS s)"; grep -E "^(hifi|codec)" $R/smoke.txt | cut -c1-120
(cd tests/python && timeout 150 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "(fp16 or bf16) and (fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken)" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
for i in 1 2 3; do for v in 360 369; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up1,upsample_x8_bias,codec_dec_s8 --modes fp16,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
CONVT1D_LIBRARY=/tmp/l360/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64 --modes fp16,bf16 \
  --variants shipped,pp=CONVT1D_WGMMA_RS_PP:1 --out $R/ab_kb64pp.json > $R/ab_kb64pp.txt 2>&1; echo "kb64 pp exit $? ($SECONDS s)"; grep -E "^kern" $R/ab_kb64pp.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
