#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
for L in 511 1023 2047; do
n=$(( (L + 1) / 2 ))
for v in "float 2 8" "float 1 8" "float 2 4" "float 4 4" "double 1 8" "double 2 4"; do set -- $v
nw=$(( n / (32 * $2) ))
run YT=$1 KP4=$2 SP4=$3 NWARP=$nw python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run4.py $L time
done; done
for v in "float 2 8 8" "float 1 8 16" "double 1 8 16"; do set -- $v
run YT=$1 KP4=$2 SP4=$3 NWARP=$4 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run4.py 1023 ncu
done
} 2>&1 | grep -a -E "^==|rel L2|ms |regs|gpu__time|registers_per|warps_active|throughput|pipe_fp64|^  [a-z]|Error|error" | tee $OUT/a4.txt
