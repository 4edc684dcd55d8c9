#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
for L in 1023 2047; do
for v in "2 4 2 0 1" "2 4 4 0 1" "2 4 2 1 1" "2 4 4 1 1" "2 4 2 0 0" "1 8 2 1 1" "1 8 2 0 0"; do set -- $v
run KP3=$1 SP3=$2 NACC=$3 PREF=$4 ATOM=$5 python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run3.py $L time
done; done
} 2>&1 | grep -a -E "^==|rel L2|ms |regs|Error|error" | tee $OUT/a3b.txt
KP3=2 SP3=4 ncu -k analys3 -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section Occupancy --section InstructionStats python3 benchmarks/2026-12-01-h200-fourteenth/analysis-prototypes/run3.py 1023 ncu > $OUT/ncu_full.txt 2>&1
tail -150 $OUT/ncu_full.txt
