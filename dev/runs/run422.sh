#!/usr/bin/env bash
# Run 422 (prepared in session 45, not run): KernelBench 64 TF32's stores through a staged tile that fits beside its
# ring. Run 421 found its direct stores cost 20-25% (1.39-1.48 ms without them against 1.83-1.85) and its restaged
# weights ~5%; its per-warpgroup staged tiles (2 x 66 KB) do not fit beside three 65 KB stages. dev/probes/staged_rows.patch
# (CONVT1D_WGMMA_RS_STG_ROWS=n) sends the stride-1 staged epilogue in passes of n rows through a tile of n rows per
# warpgroup: n = 64 fits with two stages, n = 16 with three (8 passes, a bulk-copy read wait between passes). The passes
# are compiled into the TF32 128x2 forward kernels only (16, 32 or 64 rows, each pass unrolled with its rows known, so
# each accumulator dies in its pass); built in session 45 with no ptxas warning, the non-view kernel's stack 0 -> 8 bytes,
# every other register-A kernel's as before. Never run: correctness is the tests below and the A/B's error column.
# Before the call, on the host (~5 min each):
#   bash dev/probes/build_probe.sh cur                                  # the shipped library
#   bash dev/probes/build_probe.sh sr dev/probes/staged_rows.patch      # the probe build (switch off = shipped picks)
# 1) the register-A forward tests with the passes forced; 2) rotated A/B in one process on the probe build: shipped,
# two stages with direct stores (the ring's cost alone), passes of 64 / 32 / 16 rows; 3) the shipped library and the
# probe build with the switch off in alternating processes (what the patch's code alone costs).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur sr; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/lsr/
export CONVT1D_LIBRARY=/tmp/lsr/libconvt1d.so
for n in 16 64; do
  (cd tests/python && CONVT1D_WGMMA_RS_STG_ROWS=$n timeout 100 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py \
    -k "test_wgmma_forward and (rsstaged or rspp or rsppo or rs128x1 or rs64x2 or heuristic)" > $R/tests_sr$n.txt 2>&1
   echo "tests STG_ROWS=$n exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_sr$n.txt | head -5 | cut -c1-250; tail -1 $R/tests_sr$n.txt)
done
ab() { # name timeout kind shapes modes variants
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^[a-z]" $R/$1.txt | grep -E "cudnn" | sed 's/ *[0-9]* TF\/s//g' | cut -c1-400; }
S=CONVT1D_WGMMA_RS_STG_ROWS
V="shipped,ppo2=CONVT1D_WGMMA_RS_PPO:2,sr64=$S:64,sr32=$S:32,sr16=$S:16"
ab kb64_sr 150 fwd kernelbench_64 fp32 $V
ab kb64_sr_gi 150 bwd_input kernelbench_64 fp32 $V
for i in 1 2; do for v in cur sr; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1 --modes fp32 --variants shipped --out $R/ctl_${v}_$i.json > $R/ctl_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi)' $R/ctl_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
