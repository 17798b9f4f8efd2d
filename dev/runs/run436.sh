#!/usr/bin/env bash
# Run 436 (session 48): is shared memory the stride-8 layers' wall? Run 435's probe d4 (the weights written into every
# stage, no consumer waiting for them) timed as library 427 or slower, and d1 (weights on a stage's first fill only)
# 12% faster: what the weights cost is their bytes, not a wait. The estimate (docs/design.md, Session 47) puts the
# register-A kernel's shared-memory traffic at the tensor pipe's peak near the 128 bytes a cycle an SM has. Nsight
# Compute full set, raw page (every metric, l1tex data-bank reads/writes among them), library 427 on codec_dec_s8 TF32 /
# bf16, hifigan_up1 TF32 and KernelBench 64 TF32, and probe d1 on codec_dec_s8 TF32 (the same kernel without the weight
# writes). Before the call, on the host: bash dev/probes/build_probe.sh cur; ... d1 dev/probes/data_probe.patch
# CONVT1D_PROBE_DATA=1
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur d1; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/ld1/
ncu --query-metrics --chip gh100 > $R/metrics_gh100.txt 2>&1
for c in "cur codec_dec_s8 fp32" "d1 codec_dec_s8 fp32" "cur codec_dec_s8 bf16" "cur hifigan_up1 fp32" "cur kernelbench_64 fp32"; do
  set -- $c; n=$1_$2_$3
  [ $SECONDS -gt 300 ] && break
  CONVT1D_LIBRARY=/tmp/l$1/libconvt1d.so timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full \
    --import-source no -f -o /tmp/ncu_$n python3 dev/python/profile_case.py $2 fwd $3 > $R/ncu_$n.log 2>&1
  echo "ncu $n exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$n.ncu-rep --page raw --csv > $R/raw_$n.csv 2>&1
  ncu -i /tmp/ncu_$n.ncu-rep --page details > $R/details_$n.txt 2>&1
  python3 - $R/raw_$n.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h, u, v = rows[0], rows[1], rows[2]
for k, unit, val in zip(h, u, v):
    if any(s in k for s in ("gpu__time_duration.sum", "l1tex__data_bank_", "l1tex__data_pipe_lsu_wavefronts_mem_shared",
                            "pipe_tensor", "l1tex__throughput", "lts__t_bytes.sum.per_second", "sm__cycles_elapsed.avg.per_second")) \
            and ("pct" in k or "sum" in k or "per_second" in k):
        print(f"  {k} [{unit}] {val}")
PY
done
