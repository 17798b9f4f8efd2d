#!/usr/bin/env bash
# Run 69: run 68's A/B died with "unspecified launch failure" on a full-size stride-2 shape; each shape in
# its own process to find which, then compute-sanitizer on the full-size grad_weight of each.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
for sh in kernelbench_79 hifigan_up3 hifigan_up4; do
  for m in fp32 bf16; do
    timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes $sh --modes $m --variants old=CONVT1D_WGMMA_BW_RS:0,shipped > $R/ab_$sh.$m.txt 2>&1; echo "$sh $m exit $?"; grep -E "^$sh" $R/ab_$sh.$m.txt
  done
done
for sh in kernelbench_79 hifigan_up3 hifigan_up4; do
  timeout 90 compute-sanitizer --tool memcheck python3 dev/python/profile_case.py $sh bwd_weight fp32 > $R/san_$sh.txt 2>&1; echo "san $sh exit $?"; grep -E "ERROR SUMMARY|Invalid|at 0x|by thread" $R/san_$sh.txt | head -6
done
