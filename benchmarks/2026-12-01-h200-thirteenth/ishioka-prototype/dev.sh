#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
python3 -c "import cupy; print('cupy', cupy.__version__)"
run() { echo "== $*"; env "$@"; }
{
run AT=128 AKP=4 ASPAN=8 SKP=2 python3 expx/ish/run.py 1023 time
run AT=256 AKP=2 ASPAN=4 SKP=1 python3 expx/ish/run.py 1023 time
run AT=64 AKP=8 ASPAN=8 SKP=4 python3 expx/ish/run.py 1023 time
run AT=256 AKP=4 ASPAN=4 SKP=2 python3 expx/ish/run.py 2047 time
run AT=128 AKP=2 ASPAN=8 SKP=2 python3 expx/ish/run.py 511 time
} 2>&1 | tee $OUT/time.txt
{
run AT=128 AKP=4 ASPAN=8 SKP=2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active python3 expx/ish/run.py 1023 ncu
run AT=256 AKP=4 ASPAN=4 SKP=2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread python3 expx/ish/run.py 2047 ncu
} > $OUT/ncu.txt 2>&1
grep -E "==|gpu__time|registers_per|synth|analys" $OUT/ncu.txt | grep -v "^==PROF" | head -60
