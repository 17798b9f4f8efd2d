"""What the C++ eager op (src/torch/convt1d_torch.cpp) is built against, from the torch this Python imports, as one
line `include,dirs|lib_dir|cxx11_abi|torch_version|has_cuda`: read by CMakeLists.txt and scripts/build_torch_op.sh."""
import torch
import torch.utils.cpp_extension as ext

print(",".join(ext.include_paths()), ext.library_paths()[0], int(torch._C._GLIBCXX_USE_CXX11_ABI), torch.__version__,
      int(torch.version.cuda is not None), sep="|")
