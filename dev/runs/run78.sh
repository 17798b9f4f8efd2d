#!/usr/bin/env bash
# Run 78: run 77's grad_weight A/B was 4-7x slower on every shape (tests right): which kernels run, how long.
set -u
# (Run then through dev/python/kernel_times.py, since folded into profile_case.py as its "times" mode.)
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
for sh in kernelbench_64 kernelbench_74; do
  for env in "" CONVT1D_WGMMA_BW_RS=0 CONVT1D_WGMMA_BW_RS_CPS=1; do
    echo "== $sh $env"; env $env timeout 60 python3 dev/python/profile_case.py $sh bwd_weight fp32 times 2>&1 | grep -v Warn | tail -4
  done
done
