#!/usr/bin/env bash
# Run 317 (session 29): single_utterance_x8 in fp16, host side of one call (torch.profiler CPU averages over 200 calls)
# for convt1d plain / cached and cuDNN: run 316 read 28 us per eager call against 19 us replayed from a graph.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
timeout 150 python3 dev/python/latency_probe.py --modes fp16 --host --out $R/latency_su_host.json > $R/latency_su_host.txt 2>&1; echo "probe exit $? ($SECONDS s)"
grep -v "^-" $R/latency_su_host.txt | cut -c1-190 | head -120
