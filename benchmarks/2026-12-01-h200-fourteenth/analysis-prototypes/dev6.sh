#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
for v in "511 2 8 4 2" "511 1 8 8 2" "720 1 8 12 1" "720 1 8 12 2" "720 2 8 6 1" "1023 2 8 8 2" "1023 1 8 16 2" "1023 1 8 16 1" "2047 2 8 16 1"; do set -- $v
run KP4=$2 SP4=$3 NWARP=$4 MINB=$5 python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run4.py $1 time
done
run KP4=1 SP4=8 NWARP=16 MINB=2 ncu --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run4.py 1023 ncu
run KP4=2 SP4=8 NWARP=8 MINB=2 ncu --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run4.py 1023 ncu
} 2>&1 | grep -a -E "^==|rel L2|ms |regs|gpu__time|warps_active|throughput|^  [a-z]|Error|error" | tee $OUT/a4d.txt
