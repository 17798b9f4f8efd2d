#!/usr/bin/env bash
# Run 287 (session 26): how much of the edge kernel (the dropped last position tile's columns, on a side stream beside the
# register-A forward) sticks out past the forward: kernel start / end times of one call (torch.profiler), and the
# rotated A/B of the edge beside (shipped) / after / never (one more round of the forward).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for s in codec_dec_s8 hifigan_up1 upsample_x8_bias codec_dec_s5; do for m in fp32 bf16; do
  timeout 60 python3 dev/python/profile_case.py $s fwd $m times 2>/dev/null | cut -c1-140; done; done | tee $R/kernels.txt
timeout 240 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes hifigan_up1,codec_dec_s8,upsample_x8_bias --modes fp32,bf16 \
  --variants shipped,after=CONVT1D_WGMMA_RS_EDGE_BESIDE:0,noedge=CONVT1D_WGMMA_RS_EDGE:0 \
  --out $R/ab_edge.json > $R/ab_edge.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^[a-z]" $R/ab_edge.txt | sed 's/ | /\n  /g' | cut -c1-60
