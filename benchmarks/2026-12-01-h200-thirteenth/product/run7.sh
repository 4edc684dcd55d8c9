#!/usr/bin/env bash
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
D=$1
python3 expx/ish/check2.py $D > $OUT/check.txt 2>&1
for rep in 1 2; do
ncu --csv --metrics gpu__time_duration.sum --log-file $OUT/ncu$rep.csv python3 tools/cuda_stages.py launch $D > $OUT/order$rep.json 2>$OUT/launch.err
python3 expx/metrics3.py $OUT/order$rep.json $OUT/ncu$rep.csv | sed "s/^/rep$rep /" | tee -a $OUT/metrics.txt
done
grep -c "" $OUT/check.txt
