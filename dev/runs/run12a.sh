#!/usr/bin/env bash
# Run 12a (final validation, part 1): backward harness (validation + kernel timings), CUDA self-test,
# pytest CUDA subset. Needs CONVT1D_LIBRARY (carried build); writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 -c "import torch; print(torch.__version__, torch.backends.cudnn.version())"
timeout 150 bash dev/cuda/bwd/run.sh > $R/bwd_harness.txt 2>&1; echo "bwd harness exit $?"
grep -E "FAIL|PASSED|FAILED" $R/bwd_harness.txt | head -12; sed -n '/== timing/,$p' $R/bwd_harness.txt | grep -E "kernelbench|upsample|hifigan_up3|codec_dec_s8" 
LIB=$CONVT1D_LIBRARY FORCE_LIB=1 timeout 150 bash tests/cuda/build_and_run.sh > $R/cudatest.txt 2>&1; echo "cudatest exit $?"; tail -1 $R/cudatest.txt
(cd /tmp && timeout 250 python3 -m pytest -q -x --timeout=600 -p no:cacheprovider $OLDPWD/tests/python -k cuda > $R/pytest_cuda.txt 2>&1; echo "pytest exit $?"); tail -3 $R/pytest_cuda.txt
