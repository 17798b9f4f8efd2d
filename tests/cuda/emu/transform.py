"""Rewrites a CUDA kernel source into host C++ for emu.h: shared memory becomes static storage,
launches become emu::launch calls. Usage: transform.py in.cu out.cpp"""
import re
import sys

src = open(sys.argv[1]).read()
src = src.replace('#include "kernels.cuh"', '#include "kernels.cuh"\n#include "emu.h"')
src = re.sub(r'extern __shared__ __align__\(16\) unsigned char (\w+)\[\];',
             r'unsigned char *\1 = emu::dyn_smem;', src)
src = src.replace('__shared__ __align__(16)', 'alignas(16) static').replace('__shared__', 'static')

out, pos = [], 0
for m in re.finditer(r'<<<', src):
    if m.start() < pos:
        continue
    # kernel expression: back to the start of the statement
    start = max(src.rfind(';', 0, m.start()), src.rfind('{', 0, m.start()), src.rfind('}', 0, m.start()),
                src.rfind(')\n', 0, m.start()) + 1, src.rfind('else', 0, m.start()) + 3) + 1
    kernel = src[start:m.start()].strip()
    cfg_end = src.index('>>>', m.end())
    cfg = src[m.end():cfg_end]
    i = cfg_end + 3
    assert src[i] == '('
    depth, j = 0, i
    while True:
        if src[j] == '(':
            depth += 1
        elif src[j] == ')':
            depth -= 1
            if depth == 0:
                break
        j += 1
    args = src[i + 1:j]
    parts = [p.strip() for p in cfg.split(',')]
    lead = src[start:m.start()]
    indent = lead[:len(lead) - len(lead.lstrip())]
    out.append(src[pos:start])
    out.append(f'{indent}emu::launch({parts[0]}, {parts[1]}, {parts[2]}, [=]() {{ {kernel}({args}); }})')
    pos = j + 1
out.append(src[pos:])
open(sys.argv[2], 'w').write(''.join(out))
