#!/usr/bin/env bash
# Run 285 (session 26): where single_utterance_x8's forward call goes (batch 1, 14-32 tiles: the latency + vocoder row at
# 1.34-1.53x, 2x wanted): the kernels of one call and their GPU time (torch.profiler), and the time per call of the module
# (bursts of 200, synchronized at the end) for convt1d and cuDNN, in the four modes.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for m in fp32 fp32_strict fp16 bf16; do timeout 60 python3 dev/python/profile_case.py single_utterance_x8 fwd $m times; done 2>&1 | tee $R/kernels.txt
timeout 120 python3 - <<'P' 2>&1 | tee $R/percall.txt
import time, torch, convt1d
dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
for mode, d in dt.items():
    torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
    ref = torch.nn.ConvTranspose1d(512, 256, 16, stride=8, padding=4).cuda().to(d)
    ours = convt1d.ConvTranspose1d(512, 256, 16, stride=8, padding=4).cuda().to(d)
    ours.load_state_dict(ref.state_dict())
    x = torch.randn(1, 512, 861, device="cuda", dtype=d)
    res = {}
    with torch.no_grad():
        for rnd in range(5):
            for name, m in (("convt1d", ours), ("cudnn", ref)):
                for _ in range(20): m(x)
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(200): m(x)
                t1 = time.perf_counter()
                torch.cuda.synchronize()
                t2 = time.perf_counter()
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record()
                for _ in range(200): m(x)
                e1.record(); torch.cuda.synchronize()
                res.setdefault(name, []).append(((t2 - t0) / 200 * 1e6, (t1 - t0) / 200 * 1e6, e0.elapsed_time(e1) / 200 * 1e3))
    for name, v in res.items():
        v = sorted(v)[len(v) // 2]
        print(f"{mode:11s} {name:8s} per call {v[0]:6.1f} us (host issue {v[1]:6.1f} us, GPU events {v[2]:6.1f} us)")
P
