set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
SEED=1795284221 timeout 400 bash dev/cuda/bwd/run.sh > $R/bwd_harness.txt 2>&1; echo "exit $?"
grep -v " ok \| ok (\|^validating\|^timing\|declined\|ptxas\|HMMA" $R/bwd_harness.txt | head -80
