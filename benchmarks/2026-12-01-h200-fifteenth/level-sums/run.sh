#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from build.sh carried): the level-sums
# A/B, two rounds of run.py per variant in turn, then Nsight Compute per variant.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
D=benchmarks/2026-12-01-h200-fifteenth/level-sums
NEW=/tmp/site:$PWD:$D
OLD=/tmp/site:$PWD/expx/oldpkg:$D
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
for round in 1 2; do
  for t in old new kp4 ana1 ana2; do
    if [ $t = old ]; then P=$OLD; else P=$NEW; fi
    PYTHONPATH=$P python3 $D/run.py time expx/ls $t
  done
done 2>&1 | tee $OUT/times.txt
for t in old new kp4 ana1 ana2; do
  if [ $t = old ]; then P=$OLD; else P=$NEW; fi
  echo "== $t: Nsight Compute gpu__time_duration per launch: id, grid, block, time"
  PYTHONPATH=$P ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread --log-file /tmp/ncu.csv \
    python3 $D/run.py launch expx/ls $t >/dev/null 2>&1
  python3 - /tmp/ncu.csv <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
rows = {}
for r in csv.DictReader(lines[i:]):
    rows.setdefault(r["ID"], [r["Grid Size"], r["Block Size"]]).append(f'{r["Metric Name"]}={r["Metric Value"]}')
for k, v in rows.items():
    print(k, *v)
PY
done 2>&1 | tee $OUT/stages.txt
