#!/usr/bin/env bash
# Run 381 (session 37, H200): library 381 = Session 33's with the H200's defaults (convt1d_dram_rich, runs 378-380): TF32
# stride-1 direct stores without RX, 16-bit stride-2 direct stores, 256x1 from 513 rows, fused TF32 without whole lines;
# host code only (the kernels' SASS is Session 33's). 1) Tests: the new defaults' test, RX defaults, the register-A
# forward tests as the H200 runs them by default, the fused forward's. 2) 360 and 381 in alternating processes, 2 rounds.
# 3) The forward suite and the KernelBench evaluation (the H200 records).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
for v in 360 381; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l381 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l381/libconvt1d_torch.so /tmp/l381/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l381/libconvt1d.so
(cd tests/python && timeout 170 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "dram_rich or rounded_boxes or fast_epilogue or (test_wgmma_forward and (rs or rspp or rsdirect or rsstaged))" > $R/tests_wgmma.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -6 | cut -c1-250; tail -1 $R/tests_wgmma.txt)
(cd tests/python && timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda.py -k "fused" > $R/tests_fused.txt 2>&1; echo "tests fused exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_fused.txt | head -4 | cut -c1-250; tail -1 $R/tests_fused.txt)
SH=kernelbench_74,kernelbench_79,kernelbench_64,hifigan_up2,hifigan_up3,hifigan_up4,grouped_g4
for i in 1 2; do for v in 360 381; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes $SH --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|grou)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | sed 's/kernelbench_/kb/; s/hifigan_//' | tr '\n' ' ')"
done; done
for i in 1 2; do for v in 360 381; do  # the stride-1 grad_input is the forward on the adjoint weights: it takes the new rules too
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 --kind bwd_input \
    --shapes kernelbench_74,kernelbench_64 --modes fp32,bf16 --variants shipped --out $R/abgi_${v}_$i.json > $R/abgi_${v}_$i.txt 2>&1
  echo "grad_input $v $i ($SECONDS s): $(grep -E '^kernel' $R/abgi_${v}_$i.txt | awk '{print $1, $2, $7}' | sed 's/kernelbench_/kb/' | tr '\n' ' ')"
done; done
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|hifigan_up[1-4]|grouped_g4|codec_dec_s5) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
