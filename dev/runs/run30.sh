#!/usr/bin/env bash
# Run 30: strided grad_input through the wgmma forward (convt1d_bwd_input_wgmma): tests, sanitizer, A/B
# against the planes path (CONVT1D_BWD_INPUT=planes), forward+backward totals; Nsight Compute on the
# grad_weight kernels (upsample_x8 bf16 and TF32) to see what bounds the GEMM.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 60 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_input_strided and (upsample or s7)" 2>&1 | tail -15) | tee $R/pytest_quick.txt
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer.txt 2>&1; echo "sanitizer exit $?"; tail -26 $R/sanitizer.txt
V=upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5,single_utterance_x8
M=fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input
CONVT1D_BWD_INPUT=planes timeout 80 python3 -m convt1d.bench --backward --shapes $V --modes $M --budget-ms 50 --out $R/bi_planes.json > $R/bi_planes.txt 2>&1; echo "planes exit $?"
timeout 80 python3 -m convt1d.bench --backward --shapes $V --modes $M --budget-ms 50 --out $R/bi_on.json > $R/bi_on.txt 2>&1; echo "on exit $?"
timeout 90 python3 -m convt1d.bench --backward --shapes $V --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd --budget-ms 50 --out $R/fwd_bwd.json > $R/fwd_bwd.txt 2>&1; echo "fwd_bwd exit $?"
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
for f in ["bi_planes", "bi_on", "fwd_bwd"]:
    try:
        d = json.load(open(f"{R}/{f}.json"))
    except Exception as e:
        print(f, "missing", e); continue
    recs = d["records"] if isinstance(d, dict) else d
    for r in recs:
        if r.get("convt1d_ms") is None: continue
        print(f"{f:10s} {r['name']:22s} {r['mode']:24s} {r['convt1d_ms']:8.3f} {r['cudnn_ms']:8.3f} {r['speedup']:6.2f} err {r.get('rel_err', float('nan')):.1e}")
PY
for m in bf16 fp32; do
  timeout 90 ncu --profile-from-start off -k regex:"bw_|bwd_weight_wgmma" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --metrics lts__t_bytes.sum.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tma.sum \
    python3 dev/python/profile_case.py upsample_x8_bias bwd_weight $m > $R/ncu_bw_upsample_$m.txt 2>&1
  echo "== ncu $m"; grep -E "bw_.*kernel|bwd_weight_wgmma_kernel|Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|lts__t_bytes|hmma|No Eligible|Stall" $R/ncu_bw_upsample_$m.txt | cut -c1-140 | head -40
done
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -15) | tee $R/pytest_wgmma.txt
