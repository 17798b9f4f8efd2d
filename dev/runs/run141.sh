#!/usr/bin/env bash
# Run 141 (session 15): the C++ eager op built on the GPU machine against its torch (scripts/build_torch_op.sh, kept
# under $OUT/lib for later runs); the autograd / module / compile / CUDA tests through it; the latency shapes' step
# and bench rows with it and with CONVT1D_TORCH_OP=0 (the Python Function), same process order A B B A for the bench.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R $OUT/lib
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(time bash scripts/build_torch_op.sh .carry) > $R/build_op.txt 2>&1; tail -4 $R/build_op.txt; cp .carry/libconvt1d_torch.so .carry/libconvt1d_torch.torch_version $OUT/lib/
python3 -c "import convt1d; from convt1d import _ops; print('eager op', _ops.eager_op, 'cuda', _ops.eager_op_cuda)"
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_module.py $OLDPWD/tests/python/test_compile.py $OLDPWD/tests/python/test_errors.py $OLDPWD/tests/python/test_cuda.py -k "not fused and not strided and not suite" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
for sm in "kernelbench_64_small fp32" "kernelbench_74_small fp32_strict"; do
  timeout 90 python3 dev/python/profile_step_host.py $sm 200 >> $R/step_host.txt 2>&1; done; grep -E "^==" $R/step_host.txt
S=kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8
M=fp32,fp32_strict,bf16,fp32_fwd_bwd,fp32_strict_fwd_bwd,bf16_fwd_bwd
timeout 120 python3 -m convt1d.bench --backward --shapes $S --modes $M --out $R/latency_cpp.json > $R/latency_cpp.txt 2>&1
CONVT1D_TORCH_OP=0 timeout 120 python3 -m convt1d.bench --backward --shapes $S --modes $M --out $R/latency_py.json > $R/latency_py.txt 2>&1
timeout 120 python3 -m convt1d.bench --backward --shapes $S --modes $M --out $R/latency_cpp2.json > $R/latency_cpp2.txt 2>&1
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
runs = {k: {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/latency_{k}.json"))["records"]} for k in ("cpp", "py", "cpp2")}
for key in runs["cpp"]:
    a, p, b = runs["cpp"][key], runs["py"][key], runs["cpp2"][key]
    print(f"{key[0]:22s} {key[1]:20s} C++ op {a['speedup']:.2f}x / {b['speedup']:.2f}x ({a['convt1d_ms']*1e3:.0f}/{b['convt1d_ms']*1e3:.0f} us vs cuDNN {a['cudnn_ms']*1e3:.0f}/{b['cudnn_ms']*1e3:.0f})   Python Function {p['speedup']:.2f}x ({p['convt1d_ms']*1e3:.0f} vs {p['cudnn_ms']*1e3:.0f} us)")
PY
