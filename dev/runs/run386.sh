#!/usr/bin/env bash
# Run 386 (session 38, H200; library 381, no build): 1) what the H200's memory gives KernelBench 79's traffic
# (probe_write_bw.py: copy / fill / sum of y's size beside the fused forward; store_probe79.cu, Session 22's probe of its
# write pattern); 2) switches no H200 run has swept, rotated in one process, 3 rounds: KernelBench 79 TF32's fused forward
# (bulk rows, tile, row pitch, lines, the register-A one-phase form, phase + scatter), KernelBench 64 16-bit (resident
# weights, position pairs, ping-pong), single_utterance_x8 (SS tile, register-A, pre-pass, PDL, mma.sync), codec_dec_s5 /
# s8 and hifigan_up1 (SS path, mma.sync, pairs, spare rows); 3) the forward record with the packed-weight cache (the H200
# has none).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l381 && xz -dc .carry/libconvt1d_381.so.xz > /tmp/l381/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l381 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l381/libconvt1d.so
for m in fp32 bf16; do timeout 40 python3 dev/python/probe_write_bw.py --mode $m 2>&1 | tee -a $R/write_bw.txt; done
(nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp dev/cuda/store_probe79.cu && timeout 60 /tmp/sp) > $R/store_probe79.txt 2>&1
echo "store_probe79 exit $? ($SECONDS s)"; cat $R/store_probe79.txt | cut -c1-160
sweep() { # name shapes modes variants
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^(kern|hifi|codec|upsa|single)" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-400
}
sweep kb79 kernelbench_79 fp32 shipped,bulk1=CONVT1D_FUSED_BULK:1,bt128=CONVT1D_FUSED_BT:128,yp0=CONVT1D_FUSED_YP:0,line1=CONVT1D_FUSED_LINE:1,op=CONVT1D_FWD_FUSED:0+CONVT1D_WGMMA_RS_OP:1,opd=CONVT1D_FWD_FUSED:0+CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_EPI:direct,phase=CONVT1D_FWD_FUSED:0+CONVT1D_FWD_PHASE:1
sweep kb64 kernelbench_64 fp16,bf16 shipped,wres0=CONVT1D_WGMMA_RS_WRES:0,wres0pp=CONVT1D_WGMMA_RS_WRES:0+CONVT1D_WGMMA_RS_PP:1,pairs0=CONVT1D_WGMMA_RS_PAIRS:0,hoist0=CONVT1D_WGMMA_RS_HOIST:0,t128x1=CONVT1D_WGMMA_RS_TILE:128x1
sweep su single_utterance_x8 fp32,bf16 shipped,wg64=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:64,wg256=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:256,wg128x2=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:128x2,rs1=CONVT1D_WGMMA_RS:1,pdl0=CONVT1D_WGMMA_PDL:0,pre0=CONVT1D_WGMMA_PREPASS:0,mma_sync
sweep voc codec_dec_s5,codec_dec_s8,hifigan_up1 fp32,bf16 shipped,rs0=CONVT1D_WGMMA_RS:0,mma_sync,ypair0=CONVT1D_WGMMA_RS_YPAIR:0,spare0=CONVT1D_WGMMA_RS_SPARE:0
timeout 130 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd_wcache.txt | cut -c1-100
