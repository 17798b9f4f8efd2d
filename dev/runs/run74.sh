#!/usr/bin/env bash
# Run 74: edge stages of the bulk staging send each row's aligned middle by a bulk copy and only the ends
# element by element (run 73: element by element throughout, 18-25% lost on hifigan_up1, codec_dec_s5/s8,
# whose rows have few tiles); the strided grad_input on the register-A kernel also where phases get no tap
# (KernelBench 79) when the bulk staging is on. Tests, sanitizer, A/B of the grad_input (strided and
# stride 1) and the forward where only bulk can stage.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "taken or adjoint or rsbulk or rscp or grad_input_strided" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^E |^FAILED" $R/pytest.txt | tail -12)
SAN_TILES=auto,bulk,nobulk timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4; grep -c "grad_x" $R/san.txt
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
timeout 200 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_79,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,upsample_x8_bias,codec_dec_s8,codec_dec_s5 --modes fp32,fp32_strict,bf16 --variants shipped,nobulk=CONVT1D_WGMMA_RS_BULK:0 --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab bwd_input exit $?"; grep -v Warn $R/ab_bi.txt | tail -27
