#!/usr/bin/env bash
# Run 319 (session 29): the CONVT1D_* switches read from a per-call snapshot (convt1d_env) instead of getenv.
# Host time of single_utterance_x8's call by layer, previous library (b47c3ab's build) and this one in alternating
# processes; the tests that flip switches within a process (wgmma paths, one-phase, fused), the weight cache's.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
mkdir -p /tmp/prev && xz -dc .carry/libconvt1d_prev.so.xz > /tmp/prev/libconvt1d.so
xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
for d in .carry /tmp/prev; do bash scripts/build_torch_op.sh $d > $R/build_op_$(basename $d).txt 2>&1 || echo "op build $d failed"; done
echo "op builds ($SECONDS s)"
for i in 1 2; do for lib in prev new; do
  L=$PWD/.carry/libconvt1d.so; [ $lib = prev ] && L=/tmp/prev/libconvt1d.so
  CONVT1D_LIBRARY=$L timeout 60 python3 dev/python/host_probe.py --dtype fp16 > $R/host_${lib}_$i.txt 2>&1
  echo "== $lib $i"; grep -E "module|C forward" $R/host_${lib}_$i.txt
done; done
export CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
timeout 100 python3 -m pytest -q tests/python/test_weight_cache.py tests/python/test_sass_hazard.py > $R/test_wcache.txt 2>&1; echo "wcache+sass tests exit $? ($SECONDS s)"; tail -1 $R/test_wcache.txt
timeout 300 python3 -m pytest -q tests/python/test_cuda.py tests/python/test_cuda_wgmma.py -k "one_phase or fused or tf32_flag or graph or _rx or ldm or ksplit or rs_edge or pairs" > $R/test_env.txt 2>&1; echo "switch tests exit $? ($SECONDS s)"; tail -1 $R/test_env.txt
