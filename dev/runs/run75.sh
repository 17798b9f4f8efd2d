#!/usr/bin/env bash
# Run 75: 16-bit strided grad_input with even stride / padding / length loads each A register's channel
# pair as one word (pair32). The whole test_cuda_wgmma.py, test_cuda.py and test_autograd.py; sanitizer on
# the register-A target; A/B of pair32 on the s = 8 layers.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes hifigan_up1,hifigan_up2,upsample_x8_bias,codec_dec_s8 --modes fp16,bf16 --variants shipped,nopair=CONVT1D_WGMMA_RS_PAIR32:0 --out $R/ab_pair.json > $R/ab_pair.txt 2>&1; echo "ab pair32 exit $?"; grep -v Warn $R/ab_pair.txt | tail -8
SAN_TILES=auto,nobulk timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4; grep -c "grad_x" $R/san.txt
python3 - $R/san.txt <<'PY'
import re, sys
worst = {}
for line in open(sys.argv[1]):
    m = re.search(r"^(\S+) (\S+) (\S+) (\S+) y (\S+) grad_x (\S+)", line)
    if m:
        k = (m.group(2), m.group(3))
        worst[k] = max(worst.get(k, 0), float(m.group(5)), float(m.group(6)))
print("san worst rel err per (dtype, tf32):", {f"{a}/{b}": f"{v:.1e}" for (a, b), v in worst.items()})
PY
for f in test_cuda_wgmma test_cuda test_autograd; do
  (cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/$f.py > $R/pytest_$f.txt 2>&1; echo "$f exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_$f.txt | tail -6)
done
