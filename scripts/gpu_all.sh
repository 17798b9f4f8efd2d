#!/usr/bin/env bash
# One call on the GPU machine: build, test, benchmark. Writes logs and results under $OUT.
#   bash scripts/gpu_all.sh [stages...]   stages: info build ctest cudatest pytest kernelbench bench bwdbench zoo main train harness host profile
# With no stages, runs them all. Each stage's log is $OUT/<stage>.log; the summary is printed last.
set -u
OUT=${OUT:-$PWD/gpu_out}; mkdir -p "$OUT"
# The device tool returns at most 8 files: logs and results go to $OUT/r/, packed into one tarball at exit.
R="$OUT/r"; mkdir -p "$R"
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
export PYTHONUNBUFFERED=1
stages=${*:-"info build ctest cudatest pytest kernelbench main train bench bwdbench zoo"}
# CONVT1D_LIBRARY=<prebuilt .so> (carried from a build elsewhere) skips the build stage's work for the
# CUDA self-test too; the Python side then runs from python/ via PYTHONPATH.
if [ -n "${CONVT1D_LIBRARY:-}" ]; then export LIB=$CONVT1D_LIBRARY FORCE_LIB=1 PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}; fi
summary=()
run_stage() { # name, command...
  local name=$1; shift
  local t0=$(date +%s)
  ( set -o pipefail; timeout "${STAGE_TIMEOUT:-400}" "$@" 2>&1 | tee "$R/$name.log" | tail -n 40 )
  local rc=$?
  summary+=("$name rc=$rc $(( $(date +%s) - t0 ))s")
  return $rc
}
for s in $stages; do
  case $s in
    info) run_stage info bash -c 'nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv; nvcc --version | tail -1; python3 -c "import torch; print(torch.__version__, torch.version.cuda, torch.backends.cudnn.version(), torch.cuda.get_device_name())"; git log -1 --format=%H' ;;
    build)
      run_stage build bash -c 'cmake -S . -B build/gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES="80-real;90a-real" >/dev/null && cmake --build build/gpu -j16 && python3 -m pip install --no-build-isolation --no-deps -q . && python3 -c "import convt1d, sys; print(\"installed\", convt1d.__file__)"' ;;
    ctest) run_stage ctest bash -c 'cd build/gpu && ctest --output-on-failure' ;;
    cudatest) run_stage cudatest bash -c 'bash tests/cuda/build_and_run.sh' ;;
    pytest) run_stage pytest bash -c 'cd /tmp && python3 -m pytest -q --maxfail=40 --timeout=600 -p no:cacheprovider '"$PWD"'/tests/python -k "${PYTEST_K:-}" 2>&1; true' ;;
    kernelbench) run_stage kernelbench python3 kernelbench/evaluate.py --out "$R/kernelbench.json" ;;
    bench) run_stage bench python3 -m convt1d.bench ${BENCH_SHAPES:+--shapes $BENCH_SHAPES} ${BENCH_MODES:+--modes $BENCH_MODES} --budget-ms "${BENCH_MS:-300}" --out "$R/bench_fwd.json" --plot "$R/bench_fwd.png" ;;
    bwdbench) run_stage bwdbench python3 -m convt1d.bench --backward --modes "${BWD_MODES:-fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight}" --budget-ms "${BENCH_MS:-300}" --out "$R/bench_bwd.json" --plot "$R/bench_bwd.png" ;;
    # The model zoo (bench/zoo.json): the forward on every layer, forward+backward on the training layers.
    zoo) run_stage zoo bash -c 'python3 -m convt1d.bench --problems bench/zoo.json --budget-ms "${BENCH_MS:-100}" --out "'"$R"'/zoo_fwd.json" --plot "'"$R"'/zoo_fwd.png" && python3 -m convt1d.bench --problems bench/zoo.json --tags train --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd --budget-ms "${BENCH_MS:-100}" --out "'"$R"'/zoo_fwd_bwd.json" --plot "'"$R"'/zoo_fwd_bwd.png"' ;;
    # Forward tensor-core harness (dev/cuda): every product configuration checked against float64 on the
    # check shapes, then HSHAPES timed with HBASE_ENV set (default: phase merging off) and as shipped, per
    # configuration (HCFGS).
    harness) run_stage harness bash -c 'B=${HARNESS_BIN:-build/tc/fwd_tc_dev}; "$B" check -1,0,1,2,3,4,6,12 > "'"$R"'/harness_check.txt" 2>&1; echo "check exit $?"; grep -E "FAIL|harness:" "'"$R"'/harness_check.txt" | tail -20; SHAPES=${HSHAPES:-upsample,hifigan,codec,single,grouped} env ${HBASE_ENV:-CONVT1D_TC_MERGE=0} "$B" bench -1 2>&1 | grep RES; SHAPES=${HSHAPES:-upsample,hifigan,codec,single,grouped} "$B" bench ${HCFGS:--1,0,1,2,3,4,6,12} 2>&1 | grep RES' ;;
    # Host vs GPU microseconds per call of the latency shapes, layer by layer (dev/python/host_overhead_cuda.py).
    host) run_stage host python3 dev/python/host_overhead_cuda.py --out "$R/host_overhead.json" ;;
    # Nsight Compute sections of single calls: PROFILE_CASES="shape:fwd|bwd_input|bwd_weight:mode ..." .
    profile) run_stage profile bash -c 'for c in ${PROFILE_CASES:-kernelbench_74:fwd:fp32 kernelbench_74:fwd:bf16 kernelbench_64:fwd:fp32 kernelbench_64:bwd_weight:bf16}; do IFS=: read -r sh k m <<< "$c"; echo "=== $c"; ncu --clock-control none --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis python3 dev/python/profile_case.py "$sh" "$k" "$m" > "'"$R"'/ncu_${sh}_${k}_${m}.txt" 2>&1; echo "ncu exit $?"; grep -E "^  [a-z_].*\(|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issue Slots Busy|No Eligible" "'"$R"'/ncu_${sh}_${k}_${m}.txt"; done' ;;
    main) run_stage main python3 -m convt1d ;;
    train) run_stage train bash -c 'python3 examples/train_vocoder.py --device cuda --steps 300 && python3 examples/train_vocoder.py --device cuda --steps 300 --tf32' ;;
    *) echo "unknown stage $s" ;;
  esac
done
echo "==== summary"; printf '%s\n' "${summary[@]}"
