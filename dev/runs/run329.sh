#!/usr/bin/env bash
# Run 329 (session 30, 4f7c4ba's library: the transposes' shared load helper, load_tile64): the pack tests, the weight
# cache's, every wgmma test, and the pack / transpose kernels' times on codec_dec_s8 and single_utterance_x8.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for c in "codec_dec_s8 fp16" "codec_dec_s8 fp32" "codec_dec_s8 fp32_strict" "single_utterance_x8 fp16" "single_utterance_x8 fp32"; do set -- $c
  timeout 60 python3 dev/python/profile_case.py $1 fwd $2 times 2>&1 | grep -E "pack|transpose" | sed 's/void (anonymous namespace):://; s/((anonymous.*//'
done | tee $R/kernels.txt
timeout 60 python3 -m pytest -q tests/python/test_weight_cache.py > $R/tests_wcache.txt 2>&1; echo "wcache tests exit $? ($SECONDS s)"; tail -1 $R/tests_wcache.txt
timeout 440 python3 -m pytest -q tests/python/test_cuda_wgmma.py > $R/tests_wgmma.txt 2>&1; echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head; tail -1 $R/tests_wgmma.txt
