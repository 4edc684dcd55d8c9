# Shared by final/run.sh and ishioka-analysis/run.sh (sourced, on the GPU machine): two
# packages' modules timed alternating, and Nsight Compute's kernel times digested.
R=benchmarks/2026-12-01-h200-fourteenth/weather-grid/run.py

# alternate PYTHONPATH_A DIR_A PYTHONPATH_B DIR_B: two rounds of `run.py time`, A then B
alternate() {
  for round in 1 2; do
    echo "== round $round: $2"; PYTHONPATH=$1 python3 $R time "$2"
    echo "== round $round: $4"; PYTHONPATH=$3 python3 $R time "$4"
  done
}

# stages PYTHONPATH DIR: `run.py launch` under Nsight Compute, one line per kernel launch
stages() {
  echo "== $2: Nsight Compute gpu__time_duration per launch: id, grid, block, time"
  PYTHONPATH=$1 ncu --csv --metrics gpu__time_duration.sum --log-file /tmp/ncu.csv \
    python3 $R launch "$2" >/dev/null 2>&1
  python3 - /tmp/ncu.csv <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
for r in csv.DictReader(lines[i:]):
    print(r["ID"], r["Grid Size"], r["Block Size"], r["Metric Value"], r["Metric Unit"])
PY
}
