#!/usr/bin/env bash
# Run 339 (session 31): the cached module call without its per-shape table (modules.py _cached_forward: the checks,
# the weight's key, the cached op). 1) test_weight_cache.py + test_module.py on the GPU. 2) Host time by layer
# (host_probe) with the previous package (.carry/py_old: 2d78107's python/) and this one in alternating processes,
# fp16 and TF32, 3 rounds. 3) The latency rows with the weight cache, both packages alternating, 2 rounds.
set -u
export CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
PYTHONPATH=$PWD/python timeout 90 python3 -m pytest -q tests/python/test_weight_cache.py tests/python/test_module.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -5 | cut -c1-250; tail -1 $R/tests.txt
cp -r python/convt1d /tmp/convt1d_new
use() { rm -rf python/convt1d; if [ $1 = old ]; then cp -r .carry/py_old/python/convt1d python/; else cp -r /tmp/convt1d_new python/convt1d; fi; }
for i in 1 2 3; do for v in old new; do use $v; for dt in fp16 fp32; do
  echo "$v $i $dt: $(timeout 60 python3 dev/python/host_probe.py --dtype $dt 2>&1 | grep -E 'convt1d module|C\+\+ op, cached' | sed 's/  */ /g' | tr '\n' ';')"
done; done; done | tee $R/host_probe.txt
for i in 1 2; do for v in old new; do use $v
  PYTHONPATH=$PWD/python timeout 60 python3 -m convt1d.bench --weight-cache --shapes single_utterance_x8,kernelbench_64_small,kernelbench_79_small --modes fp32,fp16,bf16 --budget-ms 100 --out $R/latc_${v}_$i.json > $R/latc_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(single|kernelbench)' $R/latc_${v}_$i.txt | awk '{print $1, $3, $4, $5, $6}' | tr '\n' ';')"
done; done
use new
