#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
run() { echo "== $*"; env "$@"; }
{
for L in 511 1023 2047; do
run SK=synth AK=analys2 AT=256 AKP=4 ASPAN=4 SKP=2 python3 expx/ish/run.py $L time
run SK=synth32 AK=analys2 AT=256 AKP=4 ASPAN=4 SKP=2 python3 expx/ish/run.py $L time
done
run SK=synth32 AK=analys2 AT=256 AKP=4 ASPAN=4 SKP=2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread python3 expx/ish/run.py 1023 ncu
run SK=synth AK=analys2 AT=256 AKP=4 ASPAN=4 SKP=2 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread python3 expx/ish/run.py 1023 ncu
} 2>&1 | grep -a -E "^==|rel L2|ms per|regs|gpu__time|registers_per|^  [a-z]" | tee $OUT/time3.txt
