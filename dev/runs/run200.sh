#!/usr/bin/env bash
# Run 200 (session 19): did this session's forward changes move KernelBench 64/74 (run 199: KernelBench 64 fp16
# forward 1.176 ms against 1.069-1.089 in runs 180/197)? The session-start library (1b5b08f, .carry/old.so.xz) and
# the final one (d0eab8a) in alternating processes, three times each, same machine.
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/old && xz -dc .carry/old.so.xz > /tmp/old/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; bash scripts/build_torch_op.sh /tmp/old > $R/build_op_old.txt 2>&1; echo "op builds $?"
for i in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then L=/tmp/old/libconvt1d.so; C=1b5b08f; else L=$PWD/.carry/libconvt1d.so; C=d0eab8a; fi
    CONVT1D_LIBRARY=$L CONVT1D_COMMIT=$C timeout 60 python3 -m convt1d.bench --shapes kernelbench_64,kernelbench_74 --modes fp32,fp16,bf16 --budget-ms 60 --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
    echo "$v $i: $(grep -E '^kernelbench_(64|74) ' $R/ab_${v}_$i.txt | awk '{printf "%s/%s %s  ", substr($1,13), $2, $3}')"
  done
done
