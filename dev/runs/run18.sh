#!/usr/bin/env bash
# Run 18: TMA probe (dev/cuda/tma/tma_probe.cu): which map/box/memory kind makes cp.async.bulk.tensor
# illegal; then the library smoke with PyTorch's allocator settings spelled out.
set -u
export PYTHONPATH=$PWD/python
nvcc -O2 -gencode arch=compute_90a,code=sm_90a dev/cuda/tma/tma_probe.cu -lcuda -o /tmp/tma_probe || exit 1
for v in 0 1 2 3 4 5; do /tmp/tma_probe $v; /tmp/tma_probe $v vmm; done
python3 -c "import torch; print(torch.cuda.memory._get_current_allocator if hasattr(torch.cuda.memory,'_get_current_allocator') else '', torch._C._cuda_getAllocatorBackend() if hasattr(torch._C,'_cuda_getAllocatorBackend') else '')"
env | grep -i alloc
