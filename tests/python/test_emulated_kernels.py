"""The CUDA kernels' own source, run on the CPU by the emulators (no GPU needed), so that CI guards their
index math and staging logic too: the phase-plane / adjoint grad_input path (tests/cuda/emulate_planes.sh),
batch folding (tests/cuda/emulate_fold.sh) and the tensor-core backward kernels on the configurations with 16-byte rows, which take the 16-bit
grad_weight pipeline (dev/cuda/bwd/run.sh --emu). Skipped where nvcc's headers are not installed."""
import os
import shutil
import subprocess

import pytest

from helpers import REPO

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None or shutil.which("g++") is None,
                                reason="needs nvcc's headers and g++")


def _run(cmd, timeout, build="emu_planes_ci"):
    env = dict(os.environ, EMU_BUILD=os.path.join(REPO, "build", build))
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout, env=env)


def test_grad_input_planes_and_adjoint_emulated():
    r = _run(["bash", "tests/cuda/emulate_planes.sh", "7", "8"], timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert " 0 failed" in r.stdout and "adjoint_s1_groups" in r.stdout, r.stdout[-3000:]


def test_batch_fold_emulated():
    # fold.cu's plan, copies and scratch with the direct kernels as the folded layer's, forced on, every dtype
    r = _run(["bash", "tests/cuda/emulate_fold.sh", "51", "10"], timeout=1200, build="emu_fold_ci")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert " 0 failed" in r.stdout and "fold_k1_outpad" in r.stdout and "problems folded" in r.stdout, r.stdout[-3000:]


def test_backward_tc_kernels_emulated():
    r = _run(["bash", "dev/cuda/bwd/run.sh", "--emu", "--no-bench", "vec_"], timeout=1200)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "PASSED: 0 failure(s)" in r.stdout, r.stdout[-3000:]
    assert "vec_odd_total" in r.stdout and "bf16-np" in r.stdout
