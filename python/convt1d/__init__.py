"""convt1d: fast transposed 1D convolution (PyTorch's ConvTranspose1d) on a C/CUDA core.

    import convt1d
    y = convt1d.conv_transpose1d(x, w, b, stride=2, padding=1)     # like F.conv_transpose1d
    m = convt1d.ConvTranspose1d(64, 32, 4, stride=2)                 # like nn.ConvTranspose1d

The operators are also registered as torch.ops.convt1d.conv_transpose1d and
torch.ops.convt1d.conv_transpose1d_backward (autograd, torch.compile and autocast aware).
"""
from ._lib import (Convt1dError, Convt1dValueError, has_cuda, library_path, output_length,
                   output_padding_for_size)
from . import _ops  # registers torch.ops.convt1d.*
from .functional import conv_transpose1d
from .modules import ConvTranspose1d

__version__ = "0.1.0"

__all__ = ["conv_transpose1d", "ConvTranspose1d", "Convt1dError", "Convt1dValueError", "has_cuda",
           "library_path", "output_length", "output_padding_for_size", "__version__"]
