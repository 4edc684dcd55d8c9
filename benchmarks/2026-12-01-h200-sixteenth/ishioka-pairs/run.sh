#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried: expx/proto/l1023.npz from
# make_data.py, expx/b7/final the committed package's modules): proto.py at lmax 1023
# (error and CUDA-event time) and 2047 (time), each under Nsight Compute too, with the
# committed analysis in the same run.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD
D=benchmarks/2026-12-01-h200-sixteenth/ishioka-pairs
{ python3 $D/proto.py 1023 expx/proto/l1023.npz; python3 $D/proto.py 2047; } 2>&1 | tee $OUT/proto.txt
for L in 1023 2047; do
  echo "== proto $L: Nsight Compute, first three launches"
  ncu --csv -k proto --launch-count 3 --metrics gpu__time_duration.sum,launch__registers_per_thread \
    python3 $D/proto.py $L 2>/dev/null | grep -i "duration\|registers_per"
done 2>&1 | tee $OUT/proto-ncu.txt
echo "== final: Nsight Compute per launch: id, grid, block, time, registers" | tee $OUT/stages.txt
ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread --log-file /tmp/ncu.csv \
  python3 benchmarks/2026-12-01-h200-fifteenth/ab.py launch expx/b7 final final >/dev/null 2>&1
grep -c . /tmp/ncu.csv; python3 - /tmp/ncu.csv <<'PY' | tee -a $OUT/stages.txt
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
rows = {}
for r in csv.DictReader(lines[i:]):
    rows.setdefault(r["ID"], [r["Grid Size"], r["Block Size"]]).append(f'{r["Metric Name"]}={r["Metric Value"]}')
for k, v in rows.items():
    print(k, *v)
PY
