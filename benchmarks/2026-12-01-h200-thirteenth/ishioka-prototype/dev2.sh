#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
run AK=analys2 AT=128 AKP=4 SKP=2 python3 expx/ish/run.py 1023 time
run AK=analys2 AT=256 AKP=2 SKP=2 python3 expx/ish/run.py 1023 time
run AK=analys2 AT=64 AKP=8 SKP=2 python3 expx/ish/run.py 1023 time
run AK=analys2 AT=256 AKP=4 SKP=2 python3 expx/ish/run.py 2047 time
run AK=analys2 AT=128 AKP=8 SKP=2 python3 expx/ish/run.py 2047 time
run AK=analys2 AT=128 AKP=2 SKP=2 python3 expx/ish/run.py 511 time
run AK=analys2 AT=64 AKP=4 SKP=2 python3 expx/ish/run.py 511 time
run AK=analys2 AT=64 AKP=2 SKP=1 python3 expx/ish/run.py 255 time
run AK=analys2 AT=64 AKP=1 SKP=1 python3 expx/ish/run.py 127 time
} 2>&1 | tee $OUT/time2.txt
{
run AK=analys2 AT=128 AKP=4 SKP=2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active python3 expx/ish/run.py 1023 ncu
run AK=analys2 AT=256 AKP=4 SKP=2 ncu --metrics gpu__time_duration.sum python3 expx/ish/run.py 2047 ncu
run AK=analys2 AT=128 AKP=2 SKP=2 ncu --metrics gpu__time_duration.sum python3 expx/ish/run.py 511 ncu
} > $OUT/ncu2.txt 2>&1
grep -E "^==|gpu__time|registers_per|inst_exec|issue_active|warps_active|^  [a-z]" $OUT/ncu2.txt | head -80
