#!/usr/bin/env bash
# Run 80: the register-A grad_weight back to session 9's staging (runs 76-79: the shared bulk helper made it
# 5-7x slower, cause not found), with alternate stages at an even stage count (4 at least) and strides
# 2..4 on by default. grad_weight and taken tests, sanitizer, a stress loop on the shapes that failed in
# runs 68-69, A/B.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight or taken" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4; awk '{print $NF}' $R/san.txt | sort -g | tail -1
timeout 150 python3 - <<'PY' 2>&1 | grep -v CUDAEvent | tail -8
import json, os, torch, convt1d
suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
for name, dts in (("kernelbench_79", (torch.float32,)), ("hifigan_up3", (torch.float32, torch.bfloat16)), ("hifigan_up4", (torch.float32,))):
    c = suite[name]
    for dt in dts:
        x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
        w = torch.randn(c["Cin"], c["Cout"], c["K"], device="cuda", dtype=dt) * 0.1
        args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
        gy = torch.randn_like(torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args))
        first = torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, [False, True, False])[1]
        same = True
        for i in range(1500):
            g = torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, [False, True, False])[1]
            if i % 100 == 0: same &= torch.equal(g, first)
        torch.cuda.synchronize()
        print(name, dt, "stress 1500 calls ok, bitwise same:", same, flush=True)
PY
timeout 120 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up3,hifigan_up4 --modes fp32,bf16 --variants shipped,nostrided=CONVT1D_WGMMA_BW_RS_STRIDED:0 --out $R/ab_bw.json > $R/ab_bw.txt 2>&1; echo "ab bwd_weight exit $?"; grep -v Warn $R/ab_bw.txt | tail -10
