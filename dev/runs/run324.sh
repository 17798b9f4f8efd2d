#!/usr/bin/env bash
# Run 324 (session 30): the vectorized weight pack (wgmma_pack_kernel) against the scalar transpose
# (CONVT1D_WGMMA_PACK=0), on a library that also carries 2621819's CachedPack refactor (not yet run on a GPU):
# tests (weight cache, test_cuda, test_autograd, the pack tests), each vocoder layer's kernels with their GPU times
# under both packs, Nsight Compute on both pack kernels, and the plain forward A/B (rotated ABBA, one process).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_cached_op is not None, \"C++ cached op not loaded\"" || exit 1
timeout 150 python3 -m pytest -q tests/python/test_cuda_wgmma.py -k "rs_pack" > $R/tests_pack.txt 2>&1; echo "pack tests exit $? ($SECONDS s)"; tail -3 $R/tests_pack.txt
for s in single_utterance_x8 hifigan_up1 codec_dec_s5 codec_dec_s8; do for m in fp32 fp32_strict fp16; do for p in 1 0; do
  echo "== pack=$p"; CONVT1D_WGMMA_PACK=$p timeout 60 python3 dev/python/profile_case.py $s fwd $m times 2>&1 | grep -i "pack\|transpose\|fwd_wgmma" | sed 's/  *\[.*\]//' | cut -c1-130
done; done; done > $R/kernels.txt; grep -v "^==" $R/kernels.txt | head -60
for c in "single_utterance_x8 fp16" "codec_dec_s8 fp16" "codec_dec_s8 fp32"; do for p in 1 0; do
  set -- $c
  CONVT1D_WGMMA_PACK=$p timeout 100 ncu --profile-from-start off -k regex:"pack_kernel|transpose_kernel" -c 1 --clock-control none --section SpeedOfLight --section WarpStateStats --section LaunchStats \
    --metrics smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_pack_$1_$2_$p.txt 2>&1; echo "ncu $1 $2 pack=$p exit $? ($SECONDS s)"
  grep -E "^  [a-z_]*(pack|transpose)_kernel|Duration|inst_executed|dram__bytes|Memory Throughput|Compute \(SM\)|Warp Cycles Per Issued" $R/ncu_pack_$1_$2_$p.txt | head -9 | cut -c1-120
done; done
timeout 200 python3 dev/python/ab_wgmma.py --shapes single_utterance_x8,hifigan_up1,codec_dec_s5,codec_dec_s8 --modes fp32,fp16,bf16 \
  --order rotate --budget-ms 60 --variants scalar=CONVT1D_WGMMA_PACK:0,shipped --out $R/ab_pack.json > $R/ab_pack.txt 2>&1; echo "ab exit $? ($SECONDS s)"; tail -14 $R/ab_pack.txt | cut -c1-200
# single_utterance_x8 (batch 1, 56-112 tiles): the SS kernel's tiles against the register-A kernel's, with the new pack.
timeout 150 python3 dev/python/ab_wgmma.py --shapes single_utterance_x8 --modes fp32,fp16 --order rotate --budget-ms 40 \
  --variants shipped,br64=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:64,br128=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:128,rs=CONVT1D_WGMMA_RS:1,rs128x2=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_TILE:128x2,rs64x2=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_TILE:64x2 \
  --out $R/ab_su_tiles.json > $R/ab_su_tiles.txt 2>&1; echo "ab su exit $? ($SECONDS s)"; tail -10 $R/ab_su_tiles.txt | cut -c1-200
timeout 200 python3 -m pytest -q tests/python/test_weight_cache.py tests/python/test_cuda.py tests/python/test_autograd.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; tail -3 $R/tests.txt
