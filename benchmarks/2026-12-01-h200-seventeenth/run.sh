# On the GPU machine (repository root): the tensor-core synthesis (leg_synth_mma.mlir) against
# the float32 scheme, 16 fields. Modules built here by build.py into $DIR/<tag> (DIR, TAGS:
# the environment's, default expx/s17 and base mma16 mma8).
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-seventeenth
ab_setup
for round in 1 2; do
  for tag in ${TAGS:-base mma16 mma8}; do
    PYTHONPATH=/tmp/site:$PWD python3 $D/mma.py time ${DIR:-expx/s17} $tag
  done
done 2>&1 | tee $OUT/times.txt
for tag in ${TAGS:-base mma16 mma8}; do
  echo "== $tag: Nsight Compute per launch: id, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread \
    --log-file /tmp/ncu.csv python3 $D/mma.py launch ${DIR:-expx/s17} $tag >/dev/null 2>&1
  python3 - /tmp/ncu.csv <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
rows = {}
for r in csv.DictReader(lines[i:]):
    rows.setdefault(r["ID"], [r["Kernel Name"][:24], r["Grid Size"], r["Block Size"]]).append(f'{r["Metric Name"]}={r["Metric Value"]}')
for k, v in rows.items():
    print(k, *v)
PY
done 2>&1 | tee $OUT/stages.txt
