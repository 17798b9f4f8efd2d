#!/usr/bin/env bash
# Run 453 (session 50): library 453 = library 450 + three changes. (a) Batch folding (src/cuda/fold.cu): a batch of
# short samples run as one long row (each sample followed by zeros), y cut out of it, for the forward and the gradients
# (grad_y placed into the long row, grad_x cut out); auto where it saves a third of the 128-position tiles;
# CONVT1D_FOLD / CONVT1D_FOLD_BWD = 1 / 0 force it on / off. (b) Register-A grad_weight splits of 8 stages at least
# (run 450). (c) Strided grad_input on the register-A kernel from 7/8 of the SMs' tiles (run 451: bigvgan_v2_up4_train,
# 128 tiles, 0.063 vs 0.126 ms; CONVT1D_WGMMA_RS_BI_MINTILES=132 is the old rule). 1. Tests: test_cuda.py (the fold
# tests) + test_autograd.py; the strided grad_input's taken test (new 96 / 128-tile cases) and the register-A
# grad_weight tests. 2. A/B, rotated in one process, 3 rounds: fold shipped / off / forced on the zoo's short-row
# training layers and two probes (forward, grad_input, grad_weight); grad_input new / old threshold on the layers whose
# tile count is 116-131 (zoo, suite). 3. The zoo's records with library 453. (Library 452, the forward fold alone, was
# never run.) Before the call: bash dev/probes/build_probe.sh l453.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l453 && xz -dc .carry/libconvt1d_l453.so.xz > /tmp/l453/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l453 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l453/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests (fold included) exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt
 timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "grad_input_strided_taken or grad_weight_rs" > $R/tests_wgmma.txt 2>&1
 echo "wgmma grad_input taken + grad_weight_rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
ab() { # name problems shapes modes kind variants
  timeout 120 python3 dev/python/ab_wgmma.py --problems $2 --shapes $3 --modes $4 --kind $5 --variants $6 \
    --order rotate --rounds 3 --budget-ms 20 --out $R/$1.json > $R/$1.txt 2>&1
  echo "$1 exit $? ($SECONDS s)"; grep cudnn $R/$1.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g' | cut -c1-200
  tar -C "$OUT" -czf "$OUT/results.tgz" r
}
F=shipped,nofold=CONVT1D_FOLD:0,fold=CONVT1D_FOLD:1
B=shipped,nofold=CONVT1D_FOLD_BWD:0,fold=CONVT1D_FOLD_BWD:1
ZS=hifigan_v1_up1_train,hifigan_v2_up1_train,encodec_24k_up1_train,dac_44k_up1_train
ab fold_zoo bench/zoo.json $ZS fp32,fp32_strict,fp16,bf16 fwd $F
ab fold_probe dev/python/probe_shapes.json short_rows_c64,short_rows_c512 fp32,fp32_strict,fp16 fwd $F
ab fold_zoo_bi bench/zoo.json $ZS fp32,fp32_strict,bf16 bwd_input $B
ab fold_zoo_bw bench/zoo.json $ZS fp32,fp32_strict,bf16 bwd_weight $B
T=shipped,old=CONVT1D_WGMMA_RS_BI_MINTILES:132
ab bi_zoo bench/zoo.json hifigan_v1_up3_train,hifigan_v2_up3_train,bigvgan_v2_up4_infer,bigvgan_v2_up4_train,encodec_24k_up3_infer fp32,fp32_strict,bf16 bwd_input $T
ab bi_suite python/convt1d/problems.json hifigan_up1,codec_dec_s5 fp32,fp32_strict,bf16 bwd_input $T
# 3. The zoo's records with library 453 (run 447's commands).
Z=bench/zoo.json
names() { python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if sys.argv[1] in c['tags']))" $1; }
timeout 150 python3 -m convt1d.bench --problems $Z --shapes $(names train) --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd \
  --budget-ms 40 --out $R/zoo_fwd_bwd.json --plot $R/zoo_fwd_bwd.png > $R/zoo_fwd_bwd.txt 2>&1
echo "zoo fwd+bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd_bwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 150 python3 -m convt1d.bench --problems $Z --budget-ms 40 --out $R/zoo_fwd.json --plot $R/zoo_fwd.png > $R/zoo_fwd.txt 2>&1
echo "zoo fwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd.txt
