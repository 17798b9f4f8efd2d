"""pytest setup: import convt1d from this checkout (python/) unless CONVT1D_TEST_INSTALLED=1 asks for
the pip-installed package; the loader finds build/*/libconvt1d.so or $CONVT1D_LIBRARY."""
import os
import sys

import pytest

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if not os.environ.get("CONVT1D_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(_REPO, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

# Tiny float32 layers (under 2^24 multiply-adds) run fp32-accurate even with TF32 allowed (src/cuda/api.cu, tiny_fp32).
# The tests keep TF32 there, so that their small layers in TF32 mode still cover the TF32 kernels (the fp32-accurate
# paths are covered by the strict-mode tests); test_cuda.py's test_cuda_tiny_layers_* turn the rule on.
os.environ.setdefault("CONVT1D_TINY_FP32", "0")


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: needs a CUDA GPU and a CUDA build of libconvt1d")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


def pytest_report_header(config):
    import convt1d
    return (f"convt1d library: {convt1d.library_path} (CUDA build: {convt1d.has_cuda()}); "
            f"torch {torch.__version__}, CUDA available: {torch.cuda.is_available()}")


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(1234)
    yield
