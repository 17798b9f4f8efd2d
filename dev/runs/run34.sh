#!/usr/bin/env bash
# Run 34: register-A forward with the measured heuristic (rs_pays) and the split-TF32 tile fallback:
# the whole wgmma test file, ncu of the RS kernel on KernelBench 64/74/79 (TF32), and A/B timing
# (RS off vs as shipped) on the suite shapes run 33 did not cover.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -8) | tee $R/pytest_wgmma.txt
for s in kernelbench_64 kernelbench_74 kernelbench_79; do
  CONVT1D_WGMMA_RS=1 timeout 60 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --metrics lts__t_bytes.sum.per_second,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum \
    python3 dev/python/profile_case.py $s fwd fp32 > $R/ncu_rs_$s.txt 2>&1
  echo "== ncu $s"; grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\)|lts__t_bytes|gmma|dram__bytes|lts__t_sectors|No Eligible|Issued Warp|Stall|stall" $R/ncu_rs_$s.txt | cut -c1-120 | head -30
done
S=hifigan_up1,hifigan_up2,codec_dec_s5,codec_dec_s8,kernelbench_64,kernelbench_74,kernelbench_79,single_utterance_x8
for v in 0 auto; do
  if [ $v = auto ]; then unset CONVT1D_WGMMA_RS; else export CONVT1D_WGMMA_RS=$v; fi
  timeout 150 python3 -m convt1d.bench --shapes $S --budget-ms 50 --out $R/ab_rs$v.json > $R/ab_rs$v.txt 2>&1; echo "ab rs=$v exit $?"
done
unset CONVT1D_WGMMA_RS
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
def load(f):
    d = json.load(open(f)); return {(r["name"], r["mode"]): r for r in (d["records"] if isinstance(d, dict) else d)}
a, b = load(f"{R}/ab_rs0.json"), load(f"{R}/ab_rsauto.json")
print(f"{'shape':20s} {'mode':12s} {'off':>8s} {'auto':>8s} {'cudnn':>8s} {'x_off':>6s} {'x_auto':>6s} {'err':>8s}")
for k in a:
    if k in b and a[k].get("convt1d_ms") and b[k].get("convt1d_ms"):
        print(f"{k[0]:20s} {k[1]:12s} {a[k]['convt1d_ms']:8.3f} {b[k]['convt1d_ms']:8.3f} {b[k]['cudnn_ms']:8.3f} {a[k]['cudnn_ms']/a[k]['convt1d_ms']:6.2f} {b[k]['cudnn_ms']/b[k]['convt1d_ms']:6.2f} {b[k]['rel_err']:8.1e}")
PY
