#!/usr/bin/env bash
# Run 331 (session 30): the SS forward's weight pack and input transpose in one launch (wgmma_prepass_kernel) against
# two (CONVT1D_WGMMA_PREPASS=0): the pack tests, the weight cache's, single_utterance_x8's eager / graph times with
# each (latency_probe, processes alternating), its kernels, then every wgmma test.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
timeout 120 python3 -m pytest -q tests/python/test_cuda_wgmma.py -k "rs_pack" > $R/tests_pack.txt 2>&1; echo "pack tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_pack.txt | head -5; tail -1 $R/tests_pack.txt
timeout 60 python3 -m pytest -q tests/python/test_weight_cache.py > $R/tests_wcache.txt 2>&1; echo "wcache tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wcache.txt | head -5; tail -1 $R/tests_wcache.txt
for i in 1 2; do for v in 0 1; do
  echo "== prepass=$v ($i)"; CONVT1D_WGMMA_PREPASS=$v timeout 90 python3 dev/python/latency_probe.py --modes fp16,fp32 --out $R/lat_p${v}_$i.json 2>&1 | grep -E "eager" | grep -v cudnn | sed 's/kernels.*//'
done; done | tee $R/latency.txt
for dt in fp16 fp32; do timeout 60 python3 dev/python/profile_case.py single_utterance_x8 fwd $dt times 2>&1 | grep -v Warn | sed 's/void (anonymous namespace):://; s/((anonymous.*//; s/(CUtensorMap.*//' | cut -c1-140; done
timeout 420 python3 -m pytest -q tests/python/test_cuda_wgmma.py > $R/tests_wgmma.txt 2>&1; echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head; tail -1 $R/tests_wgmma.txt
