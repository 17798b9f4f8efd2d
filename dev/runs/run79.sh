#!/usr/bin/env bash
# Run 79: run 78 found the register-A grad_weight kernel itself 7x slower (KernelBench 64 TF32 16.5 ms, 41
# at one chunk per stage: a cost per stage). Suspect: neighbouring rows' bulk spans overlapped in shared
# memory (pitch = window + 16 bytes; the old layout had none): now window + 32. Kernel times, then A/B.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
for sh in kernelbench_64 kernelbench_74 kernelbench_79; do
  timeout 60 python3 dev/python/profile_case.py $sh bwd_weight fp32 times 2>&1 | grep "ms "
done
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up3,hifigan_up4 --modes fp32,bf16 --variants shipped,nostrided=CONVT1D_WGMMA_BW_RS_STRIDED:0,off=CONVT1D_WGMMA_BW_RS:0 --out $R/ab_bw.json > $R/ab_bw.txt 2>&1; echo "ab bwd_weight exit $?"; grep -v Warn $R/ab_bw.txt | tail -10
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp32,bf16 --variants shipped --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; grep -v Warn $R/ab_bi.txt | tail -2
