#!/usr/bin/env bash
# Run 126 (session 13): the whole Python suite (tests/python) on the final source, GPU tests included.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 540 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^ERROR" $R/pytest.txt | tail -10)
