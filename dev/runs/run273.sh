#!/usr/bin/env bash
# Run 273 (session 25, final library 009aff3's): the fuzz with each forced path (the kernels the shipped heuristics take
# for some layers, forced wherever they can run: register-A / mma.sync forward, every grad_input path, the wgmma
# grad_weight kernels, the fused and phase forwards, the direct kernels, 64-bit indexing), 30 s each at the default
# sizes; and single_utterance_x8's strict grad_input, previous library against the new (run 272's suite read it 1.5x
# slower with the split-TF32 fix, on a latency row).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 40 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 60 --shapes single_utterance_x8,codec_dec_s5 \
    --modes fp32_strict --variants shipped --out $R/ab_su_${v}_$i.json > $R/ab_su_${v}_$i.txt 2>&1; echo "$v $i: $(grep -E '^(single|codec)' $R/ab_su_${v}_$i.txt | cut -c1-90 | tr '\n' ' ')"
done; done
seed=10
for cfg in rs:CONVT1D_WGMMA_RS=1 mma:CONVT1D_WGMMA=0 bi_tc:CONVT1D_BWD_INPUT=tc bi_planes:CONVT1D_BWD_INPUT=planes \
           bi_wgmma:CONVT1D_BWD_INPUT=wgmma bi_direct:CONVT1D_BWD_INPUT=direct bw:CONVT1D_WGMMA_BW=1,CONVT1D_WGMMA_BW_RS=1 \
           fused:CONVT1D_FWD_FUSED=1,CONVT1D_BWD_INPUT_FUSED=1,CONVT1D_BWD_WEIGHT_FUSED=1 phase:CONVT1D_FWD_PHASE=1 \
           direct:CONVT1D_FORCE_DIRECT=1 idx64:CONVT1D_FORCE_INDEX64=1; do
  name=${cfg%%:*}; envs=${cfg#*:}; seed=$((seed + 1))
  env $(echo $envs | tr ',' ' ') timeout 60 python3 dev/python/fuzz.py --seed $seed --count 3000 --time-budget 30 --out $R/fuzz_$name.json > $R/fuzz_$name.txt 2>&1
  echo "fuzz $name ($envs, seed $seed) exit $? ($SECONDS s): $(tail -1 $R/fuzz_$name.txt)"; grep -E "^FAIL" $R/fuzz_$name.txt | head -3 | cut -c1-600
done
