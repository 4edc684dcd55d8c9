#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
for L in 511 1023 2047; do
for v in "1 8" "2 4" "1 4"; do set -- $v
run KP3=$1 SP3=$2 python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run3.py $L time
done; done
for v in "1 8" "2 4"; do set -- $v
for L in 1023 2047; do
run KP3=$1 SP3=$2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run3.py $L ncu
done; done
} 2>&1 | grep -a -E "^==|rel L2|ms |regs|gpu__time|registers_per|warps_active|^  [a-z]|Error|error|H200" | tee $OUT/a3.txt
