# Shared by the run.sh of this session's A/Bs (sourced on the GPU machine). ab_setup: the
# iree-base-runtime wheel into /tmp/site, and the GPU into $OUT/devices.txt. ab_stages TAG
# PYTHONPATH DIR BASE [VARIANTS]: Nsight Compute over ab.py launch of one tag (one line per
# launch: id, grid, block, time in ns, registers). Usage: ab_run DIR BASE "TAG=PYTHONPATH
# ..." [VARIANTS]: two rounds of ab.py time per tag in turn, then ab_stages per tag, into
# $OUT/times.txt and $OUT/stages.txt.
S=benchmarks/2026-12-01-h200-fifteenth
ab_setup() {
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
  export PYTHONUNBUFFERED=1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
}
ab_stages() {
  local tag=$1 pp=$2 dir=$3 base=$4 variants=${5:-}
  echo "== $tag: Nsight Compute per launch: id, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$pp ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread \
    --log-file /tmp/ncu.csv python3 $S/ab.py launch $dir $tag $base $variants >/dev/null 2>&1
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
}
ab_run() {
  local dir=$1 base=$2 tags=$3 variants=${4:-}
  for round in 1 2; do
    for tp in $tags; do
      PYTHONPATH=/tmp/site:${tp#*=} python3 $S/ab.py time $dir ${tp%%=*} $base $variants
    done
  done 2>&1 | tee $OUT/times.txt
  for tp in $tags; do
    ab_stages ${tp%%=*} ${tp#*=} $dir $base $variants
  done 2>&1 | tee $OUT/stages.txt
}
