#!/usr/bin/env bash
# Run 449 (session 49, on run 448's warm machine, library 447 and its op in /tmp/l447): learning only. Which kernels the
# short-row layers take with the rule (dev/python/zoo_probe.py): dac_44k_up1_train (fp16 0.166 ms against cuDNN's
# 0.125 in run 447), short_rows_c512 and short_rows_c64 (fp32 0.80x / 0.90x).
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=/tmp/l447/libconvt1d.so; mkdir -p $OUT/r; (python3 dev/python/zoo_probe.py --shapes dac_44k_up1_train --modes fp16,fp32 --reps 10; python3 dev/python/zoo_probe.py --problems dev/python/probe_shapes.json --shapes short_rows_c512,short_rows_c64 --modes fp16,fp32 --reps 10) 2>&1 | grep -v -i "warn" | tee $OUT/r/probe449.txt
