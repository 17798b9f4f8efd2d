"""compute-sanitizer target: the register-A forward's phase-merged direct stores without checks (WgArgs::pfast,
Session 33) on the fast-epilogue test's layers (interior tiles take the unchecked loops, edge tiles the checked
ones), each tile the test uses, fp16 / bf16 / TF32 / strict. Every y is checked against float64 (a store that went
astray would leave NaN poison or a wrong value); the sanitizer reports any access outside an allocation.
Prints the worst relative error per case and "san ok" at the end."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402
from test_cuda_wgmma import FAST_EPILOGUE_LAYERS, poison_then_run  # noqa: E402

os.environ["CONVT1D_WGMMA_RS"] = "1"
os.environ["CONVT1D_WGMMA_RS_EPI"] = "direct"
worst = 0.0
for c in FAST_EPILOGUE_LAYERS:
    for dtype, tf32, tol in [(torch.float16, True, 2e-3), (torch.bfloat16, True, 1e-2), (torch.float32, True, 5e-3),
                             (torch.float32, False, 1e-5)]:
        for tile in ("", "256x1", "128x2", "64x2"):
            os.environ["CONVT1D_WGMMA_RS_TILE"] = tile
            torch.backends.cudnn.allow_tf32 = tf32
            x, w, b = make_inputs(c, dtype=dtype, device="cuda")
            y = poison_then_run(x, w, b, c)
            e = rel_err(y, ref(x, w, b, c))
            print(c["name"], dtype, tf32, tile or "auto", f"y {e:.2e}")
            assert e <= tol, (c["name"], dtype, tf32, tile, e)
torch.cuda.synchronize()
print("san ok")
