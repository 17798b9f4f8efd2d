#!/usr/bin/env bash
# Run 139 (session 15): KernelBench 79's fused forward with two output tiles (CONVT1D_FUSED_DB: bulk-copied rows drain
# during the next tile's math) against the shipped stores, A/B in three modes; the write-side ceilings of y's size
# (copy, fill, sum) and ncu DRAM bytes of the fused kernel; the fused forward tests with DB forced; the host cost of
# the latency shapes' training step (host_profile.py).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "forward_fused" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_79 --modes fp32,fp32_strict,bf16 \
  --variants shipped,bulk=CONVT1D_FUSED_BULK:1,db=CONVT1D_FUSED_BULK:1+CONVT1D_FUSED_DB:1,vec=CONVT1D_FUSED_BULK:0 \
  --out $R/ab_fused_db.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-400 $R/ab.txt | tail -8
for m in fp32 fp32_strict bf16; do timeout 60 python3 dev/python/probe_write_bw.py --mode $m; done 2>&1 | tee $R/write_bw.txt
for v in "0 0" "1 1"; do set -- $v
  CONVT1D_FUSED_BULK=$1 CONVT1D_FUSED_DB=$2 timeout 90 ncu --clock-control none -k regex:fwd_phase_fused --launch-skip 2 --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 dev/python/probe_write_bw.py --mode fp32 --probe-only > $R/ncu_bulk$1_db$2.txt 2>&1; grep -E "duration|dram__|lts__|warps" $R/ncu_bulk$1_db$2.txt | sed "s/^/bulk=$1 db=$2 /"; done
CONVT1D_FUSED_BULK=1 CONVT1D_FUSED_DB=1 timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san_db.txt 2>&1; tail -2 $R/san_db.txt
for sm in "kernelbench_64_small fp32" "kernelbench_64_small fp32_strict" "kernelbench_74_small fp32_strict" "kernelbench_79_small fp32_strict"; do
  timeout 60 python3 dev/python/host_profile.py $sm >> $R/host.txt 2>&1; done; grep -E "step|C |py |aten" $R/host.txt
