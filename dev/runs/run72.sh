#!/usr/bin/env bash
# Run 72: the register-A forward stages rows that TMA cannot address (the stride-1 grad_input's grad_y:
# 65538 per row on KernelBench 64) by one bulk copy per row at a row pitch = L*es (mod 16), instead of
# 8-byte cp.async (fp32) / not at all (16-bit). Tests (forward matrix with the bulk path forced, the
# adjoint grad_input, the taken checks), compute-sanitizer on the bulk and cp.async staging, then A/B:
# grad_input of KernelBench 64 / 74 (bulk vs the old staging), forward where TMA works (bulk forced vs TMA)
# and single_utterance_x8 (L = 861: rows no 16-byte multiple, newly taken by the RS kernel).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "taken or adjoint or rsbulk or rscp" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^E |^FAILED" $R/pytest.txt | tail -12)
SAN_TILES=auto,bulk,cp,128x1 timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4; grep -c "grad_x" $R/san.txt
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
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 --variants shipped,nobulk=CONVT1D_WGMMA_RS_BULK:0 --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab bwd_input exit $?"; cat $R/ab_bi.txt | grep -v Warn | tail -8
timeout 120 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_64,kernelbench_74,single_utterance_x8 --modes fp32,fp32_strict,bf16 --variants shipped,bulk=CONVT1D_WGMMA_RS_BULK:1,nobulk=CONVT1D_WGMMA_RS_BULK:0 --out $R/ab_fwd.json > $R/ab_fwd.txt 2>&1; echo "ab fwd exit $?"; cat $R/ab_fwd.txt | grep -v Warn | tail -9
