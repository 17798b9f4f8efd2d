#!/usr/bin/env bash
# Run 423 (session 46): the register-A kernel's tile order in groups of row tiles (tile_rt, CONVT1D_WGMMA_RS_RGROUP=g).
# Row tiles fastest, codec_dec_s8's 24 TF32 row tiles use all 75 MB of its weights at once (50 MB of L2), so every pass
# over the position tiles may bring them from DRAM again; run 421 saw it 20% faster with its weights free. Groups of g
# row tiles keep one group's weights in L2 (the input is then read once per group).
# Before the call, on the host (~5 min each):
#   bash dev/probes/build_probe.sh cur     # library 415 (the shipped one)
#   bash dev/probes/build_probe.sh rg      # HEAD: library 415 + tile_rt (the switch off = the shipped order)
# 1) the tile-order tests and the register-A forward tests on rg; 2) DRAM bytes and L2 hit rate of codec_dec_s8's kernel
# by Nsight Compute, order off / g = 6; 3) rotated A/B in one process on rg: g = off, 2, 3, 4, 6, 8, 12 on codec_dec_s8
# (forward, grad_input) and g = off, 2, 4 on the layers whose weights fit in L2; 4) library 415 and rg with the switch
# off in alternating processes (what the code alone costs).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur rg; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/lrg/
export CONVT1D_LIBRARY=/tmp/lrg/libconvt1d.so
for v in cur rg; do echo "$v register-A kernels by stack bytes: $(cuobjdump --dump-resource-usage /tmp/l$v/libconvt1d.so | grep -A1 fwd_wgmma_rs_kernel | grep -o "STACK:[0-9]*" | sort | uniq -c | tr '\n' ' ')"; done
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py \
  -k "test_wgmma_rs_tile_order or (test_wgmma_forward and (codec or upsample or s7) and (rs or heuristic))" > $R/tests.txt 2>&1
 echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -5 | cut -c1-250; tail -1 $R/tests.txt)
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
for g in 0 6; do for m in fp32 fp16; do
  CONVT1D_WGMMA_RS_RGROUP=$g timeout 60 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --metrics $M \
    python3 dev/python/profile_case.py codec_dec_s8 fwd $m > $R/ncu_g${g}_$m.txt 2>&1
  echo "ncu g=$g $m exit $? ($SECONDS s): $(grep -E 'dram__bytes|hit_rate|gpu__time' $R/ncu_g${g}_$m.txt | awk '{print $1, $(NF-1), $NF}' | tr '\n' ' ')"
done; done
ab() { # name timeout kind shapes modes variants
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^[a-z]" $R/$1.txt | grep -E "cudnn" | sed 's/ *[0-9]* TF\/s//g' | cut -c1-500; }
G=CONVT1D_WGMMA_RS_RGROUP
ab s8 150 fwd codec_dec_s8 fp32,fp16,bf16 "shipped,g2=$G:2,g3=$G:3,g4=$G:4,g6=$G:6,g8=$G:8,g12=$G:12"
ab s8_gi 90 bwd_input codec_dec_s8 fp32,bf16 "shipped,g2=$G:2,g4=$G:4,g6=$G:6,g12=$G:12"
ab fit 120 fwd upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s5 fp32,bf16 "shipped,g2=$G:2,g4=$G:4"
for i in 1 2; do for v in cur rg; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1,codec_dec_s8 --modes fp32 --variants shipped --out $R/ctl_${v}_$i.json > $R/ctl_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec)' $R/ctl_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
