#!/usr/bin/env bash
# Run 447 (session 49): library 447 = library 440 + no bulk-copied register-A input rows shorter than 128 positions
# (src/cuda/fwd_wgmma.cu run_rs; run 446: dac_44k_up1_train fp16 0.572 ms on the register-A kernel, 0.157 on the SS
# kernel). 1. Tests: the register-A staging tests (bulk, no bulk, taken; the new test_wgmma_rs_short_bulk_rows),
# test_cuda.py + test_autograd.py. 2. The rule against the old default (CONVT1D_WGMMA_RS_BULK=1 takes the bulk copies
# whatever the rows), alternating processes, 2 rounds, the four forward modes, cuDNN beside: the zoo's two layers it
# changes (dac_44k_up1_train, 35 positions a sample; encodec_24k_up1_train, 76) and two probes (short_rows_c64 / _c512).
# 3. Learning only: the 16-bit grad_input / grad_weight picks on bigvgan_v2_up3/up4_train (run 445: 16-bit
# forward+backward 0.74-0.86x of cuDNN; run 446: grad_input 121 us on the mma.sync kernel, grad_weight 131 us on the
# register-A one). 4. The zoo (bench/zoo.json) with library 447. Before the call: bash dev/probes/build_probe.sh l447.
# As run, the backward switches CONVT1D_X=0, CONVT1D_WGMMA_BW_RS=0 (and in run 447 CONVT1D_WGMMA_BW=0) wrote one file,
# bwd_0.json: the last one stands; bench/results/ab/h100_zoo_bwd_picks_run447_448.json has every result, from stdout.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l447 && xz -dc .carry/libconvt1d_l447.so.xz > /tmp/l447/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l447 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l447/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "short_bulk or rsbulk or rsnobulk or taken" > $R/tests_wgmma.txt 2>&1
 echo "wgmma staging tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt
 timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
for i in 1 2; do for v in rule old; do
  E=CONVT1D_X=0; [ $v = old ] && E=CONVT1D_WGMMA_RS_BULK=1
  env $E timeout 40 python3 -m convt1d.bench --problems bench/zoo.json --shapes dac_44k_up1_train,encodec_24k_up1_train \
    --budget-ms 40 --out $R/short_zoo_${v}_$i.json > $R/short_zoo_${v}_$i.txt 2>&1
  env $E timeout 40 python3 -m convt1d.bench --problems dev/python/probe_shapes.json --shapes short_rows_c64,short_rows_c512 \
    --budget-ms 40 --out $R/short_probe_${v}_$i.json > $R/short_probe_${v}_$i.txt 2>&1
  echo "$v round $i ($SECONDS s)"
  cat $R/short_zoo_${v}_$i.txt $R/short_probe_${v}_$i.txt | grep -E "^(dac|encodec|short)" | awk '{print "  ", $1, $2, $3, $4, $5, $6}'
  tar -C "$OUT" -czf "$OUT/results.tgz" r
done; done
for e in CONVT1D_X=0 CONVT1D_BWD_INPUT=wgmma CONVT1D_BWD_INPUT=planes CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_BW_RS=0 CONVT1D_WGMMA_BW=0; do
  env $e timeout 40 python3 -m convt1d.bench --problems bench/zoo.json --shapes bigvgan_v2_up3_train,bigvgan_v2_up4_train --backward \
    --modes bf16_bwd_input,bf16_bwd_weight --budget-ms 30 --out $R/bwd_${e#*=}.json > $R/bwd_${e#*=}.txt 2>&1
  echo "$e ($SECONDS s)"; grep -E "^bigvgan" $R/bwd_${e#*=}.txt | awk '{print "  ", $1, $2, $3, $4, $5}'
done
# 4. The zoo's records with library 447 (run 445's commands, budget 40 ms).
Z=bench/zoo.json
names() { python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if sys.argv[1] in c['tags']))" $1; }
summ() { grep -E "geomean" $1; awk '$0 ~ /x / && $1 != "geomean" {for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+x$/ && $i + 0 < 1.0) print "  below cuDNN:", $1, $2, $3, $4, $5, $i}' $1; }
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 150 python3 -m convt1d.bench --problems $Z --budget-ms 40 --out $R/zoo_fwd.json --plot $R/zoo_fwd.png > $R/zoo_fwd.txt 2>&1
echo "zoo fwd exit $? ($SECONDS s)"; summ $R/zoo_fwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 150 python3 -m convt1d.bench --problems $Z --shapes $(names train) --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd \
  --budget-ms 40 --out $R/zoo_fwd_bwd.json --plot $R/zoo_fwd_bwd.png > $R/zoo_fwd_bwd.txt 2>&1
echo "zoo fwd+bwd exit $? ($SECONDS s)"; summ $R/zoo_fwd_bwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 100 python3 -m convt1d.bench --problems $Z --shapes $(names infer) --weight-cache --budget-ms 40 --out $R/zoo_fwd_wcache.json \
  --plot $R/zoo_fwd_wcache.png > $R/zoo_fwd_wcache.txt 2>&1
echo "zoo fwd weight cache exit $? ($SECONDS s)"; summ $R/zoo_fwd_wcache.txt
