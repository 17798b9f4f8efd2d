"""The training example keeps working: convt1d and nn.ConvTranspose1d train to the same loss curve."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "train_vocoder.py")


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_train_vocoder_example_matches_pytorch(device):
    import torch
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no GPU")
    r = subprocess.run([sys.executable, EXAMPLE, "--device", device, "--steps", "60"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout and "max relative loss difference" in r.stdout
