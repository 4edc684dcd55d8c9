#!/usr/bin/env bash
# thirteenth run: the official benchmark (defaults: CUDA one field takes the ishioka recurrence),
# then both recurrences side by side (check + Nsight Compute stage times)
set -uo pipefail
bash expx/run_official2.sh
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
mkdir -p $OUT/ish
python3 expx/ish/check2.py expx/ishmods2 > $OUT/ish/ish.txt 2>&1
ncu --csv --metrics gpu__time_duration.sum --log-file /tmp/ncu_ish.csv python3 tools/cuda_stages.py launch expx/ishmods2 > /tmp/order_ish.json 2>/tmp/launch_ish.err
python3 expx/metrics3.py /tmp/order_ish.json /tmp/ncu_ish.csv >> $OUT/ish/ish.txt
cd $OUT && tar czf raw.tar.gz ncu.csv order.json && rm -f ncu.csv order.json
ls -la $OUT $OUT/ish
