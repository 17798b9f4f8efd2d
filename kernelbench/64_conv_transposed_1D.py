"""KernelBench level 1, problem 64: transposed 1D convolution (square input, asymmetric kernel).

Model is the reference (nn.ConvTranspose1d); ModelNew has the same constructor and computes with
convt1d (C/CUDA kernels through the `convt1d` package)."""
import os
import sys

import torch
import torch.nn as nn

try:
    import convt1d
except ImportError:  # development checkout: the package lives in <repo>/python
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
    import convt1d


class Model(nn.Module):
    """Performs a transposed 1D convolution operation."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, output_padding: int = 0, groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv1d_transpose = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                                   padding=padding, output_padding=output_padding,
                                                   groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv1d_transpose(x)


class ModelNew(nn.Module):
    """Same constructor and parameters (same init under the same seed); convt1d computes."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, output_padding: int = 0, groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv1d_transpose = convt1d.ConvTranspose1d(in_channels, out_channels, kernel_size,
                                                        stride=stride, padding=padding,
                                                        output_padding=output_padding, groups=groups,
                                                        bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv1d_transpose(x)


# Test code
batch_size = 64
in_channels = 128
out_channels = 128
kernel_size = 3
length = 65536


def get_inputs():
    x = torch.rand(batch_size, in_channels, length)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]  # Provide in_channels, out_channels, kernel_size for initialization
