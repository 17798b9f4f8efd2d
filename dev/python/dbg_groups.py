"""Run 177 debug: the stride-1 grad_input through the register-A kernel with grouped rows, one configuration per
process (an illegal instruction kills the context): prints ok / error and the relative error."""
import json
import os
import subprocess
import sys

CASES = {"kb64_like": dict(N=2, Cin=128, Cout=128, K=3, L=2048, stride=1, padding=0, output_padding=0, groups=1,
                           dilation=1, bias=False),
         "odd_rows": dict(N=3, Cin=72, Cout=40, K=3, L=1001, stride=1, padding=0, output_padding=0, groups=1,
                          dilation=2, bias=True)}
CHILD = r'''
import sys, json, torch
sys.path.insert(0, "tests/python")
import convt1d
from helpers import kwargs, make_inputs, ref, rel_err
c = json.loads(sys.argv[1]); dt = {"f16": torch.float16, "tf32": torch.float32, "strict": torch.float32}[sys.argv[2]]
torch.backends.cudnn.allow_tf32 = sys.argv[2] != "strict"
x, w, b = make_inputs(c, dtype=dt, device="cuda")
xr = x.clone().requires_grad_()
y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
gy = torch.randn(y.shape, dtype=torch.float64).to(device="cuda", dtype=dt)
(gx,) = torch.autograd.grad(y, xr, gy)
torch.cuda.synchronize()
x64 = x.double().requires_grad_()
(g64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
print("relerr %.2e" % rel_err(gx, g64))
'''
for name, envs in [("kb64_like", ["", "PP=1", "PP=0", "TILE=64x1", "TILE=128x1", "TILE=64x2", "WRES=0", "GROUPS=0", "BULK=1"]),
                   ("odd_rows", ["", "PP=0", "TILE=64x1"])]:
    for dt in ["f16", "tf32", "strict"]:
        for e in envs:
            env = dict(os.environ, CONVT1D_WGMMA_RS="1", CONVT1D_BWD_INPUT_FUSED="0", CUDA_LAUNCH_BLOCKING="1")
            if e:
                k, v = e.split("=")
                env["CONVT1D_WGMMA_RS_" + k] = v
            r = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CASES[name]), dt], env=env, capture_output=True,
                               text=True, timeout=60)
            out = r.stdout.strip().splitlines()[-1] if r.returncode == 0 else "ERROR " + (r.stderr.strip().splitlines() or ["?"])[-1][:90]
            print(f"{name:10s} {dt:6s} {e or 'default':11s} {out}", flush=True)
