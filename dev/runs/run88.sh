#!/usr/bin/env bash
# Run 88: vectorized grad_input pre-passes (weight gather pack, grad_y planes transpose) and the wgmma
# grad_weight's reduce with 32-bit indexing: the wgmma pytest file, test_cuda.py, sanitizer on a
# planes grad_input, kernel times of the layers that take these paths, and their bench rows.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for s in codec_dec_s8 single_utterance_x8 codec_dec_s5 upsample_x8_bias hifigan_up1 hifigan_up2; do for k in bwd_input bwd_weight; do for m in bf16 fp32 fp32_strict; do
  python3 dev/python/profile_case.py $s $k $m times 2>/dev/null >> $R/times.txt; done; done; done
grep -E "pack_bwd|planes_t|bw_reduce|bw_planes|bw_shift" $R/times.txt | grep -E "bf16|fp32 " | head -40
(cd /tmp && timeout 330 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py $OLDPWD/tests/python/test_cuda.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
cat > /tmp/san.py <<'PY'
import torch, convt1d
for dt in (torch.bfloat16, torch.float32):
    for (N, ci, co, K, L, s, p) in ((2, 96, 40, 16, 203, 8, 4), (1, 64, 24, 10, 130, 5, 3), (2, 128, 64, 16, 96, 8, 4)):
        x = torch.randn(N, ci, L, device="cuda", dtype=dt, requires_grad=True)
        w = (torch.randn(ci, co, K, device="cuda", dtype=dt) * .1).requires_grad_()
        y = convt1d.conv_transpose1d(x, w, None, s, p)
        gy = torch.randn_like(y)
        y.backward(gy)
        xd, wd = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
        torch.nn.functional.conv_transpose1d(xd, wd, None, s, p).backward(gy.double())
        for a, b in ((x.grad, xd.grad), (w.grad, wd.grad)):
            e = ((a.double() - b).norm() / b.norm()).item()
            assert e < 2e-2, (dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize(); print("san ok")
PY
CONVT1D_BWD_INPUT=wgmma timeout 120 compute-sanitizer --tool memcheck python3 /tmp/san.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid|san ok" $R/san.txt | head -4
timeout 150 python3 -m convt1d.bench --backward --shapes codec_dec_s8,codec_dec_s5,single_utterance_x8,upsample_x8_bias,hifigan_up1,hifigan_up2 --modes fp32_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench.json > $R/bench.txt 2>&1; echo "bench exit $?"; grep -E "x8|s5|s8|hifi" $R/bench.txt | head -45
