# Shared by the run.sh of this session's A/Bs and later runs' scripts (sourced on the GPU
# machine). ab_setup: the iree-base-runtime wheel into /tmp/site, and the GPU into
# $OUT/devices.txt. ncu_launches ARGS...: Nsight Compute over `python3 ARGS...` (one line
# per launch: id, kernel, grid, block, time in ns, registers). ncu_profile TAG SKIP ARGS...:
# its full set for the launch after SKIP into $OUT/profile-TAG.txt, stall reasons into
# $OUT/stalls-TAG.txt, stall samples per SASS instruction into $OUT/sass-TAG.csv.
# ab_stages TAG PYTHONPATH DIR BASE [VARIANTS]: ncu_launches over ab.py launch of one tag.
# Usage: ab_run DIR BASE "TAG=PYTHONPATH ..." [VARIANTS]: two rounds of ab.py time per tag
# in turn, then ab_stages per tag, into $OUT/times.txt and $OUT/stages.txt.
# tag_runs SCRIPT DIR ROUNDS TAG[=PACKAGE]... (later runs): ROUNDS rounds of `python3 SCRIPT
# time DIR TAG` per tag in turn into $OUT/times.txt, then ncu_launches of `SCRIPT launch DIR
# TAG` into $OUT/stages.txt, each tag loaded by PACKAGE (default: the repository's tree).
S=benchmarks/2026-12-01-h200-fifteenth
ab_setup() {
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
  export PYTHONUNBUFFERED=1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
}
ncu_launches() {
  ncu --csv --metrics gpu__time_duration.sum,launch__registers_per_thread \
    --log-file /tmp/ncu.csv python3 "$@" >/dev/null 2>&1
  python3 - /tmp/ncu.csv <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith('"ID"'))
rows = {}
for r in csv.DictReader(lines[i:]):
    rows.setdefault(r["ID"], [r["Kernel Name"][:24], r["Grid Size"], r["Block Size"]]).append(
        f'{r["Metric Name"]}={r["Metric Value"]}')
for k, v in rows.items():
    print(k, *v)
PY
}
ncu_profile() {
  local tag=$1 skip=$2
  shift 2
  ncu --set full --launch-skip $skip --launch-count 1 -o /tmp/p_$tag python3 "$@" >/dev/null 2>&1
  ncu --import /tmp/p_$tag.ncu-rep --page details --print-details all > $OUT/profile-$tag.txt 2>&1
  ncu --import /tmp/p_$tag.ncu-rep --page raw --csv 2>/dev/null | python3 -c "
import csv,sys
r=list(csv.reader(sys.stdin)); h,u,v=r[0],r[1],r[2]
keys=[k for k in h if k.startswith('smsp__pcsamp_warps_issue_stalled') and not k.endswith('not_issued')]
for k in sorted(keys, key=lambda k: -float(v[h.index(k)].replace(',','') or 0))[:14]:
    print(k, v[h.index(k)])
" > $OUT/stalls-$tag.txt
  ncu --import /tmp/p_$tag.ncu-rep --page source --csv --print-source sass > $OUT/sass-$tag.csv 2>&1
}
ab_stages() {
  local tag=$1 pp=$2 dir=$3 base=$4 variants=${5:-}
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$pp ncu_launches $S/ab.py launch $dir $tag $base $variants
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
tag_runs() {
  local script=$1 dir=$2 rounds=$3 round tp
  shift 3
  package() { local pkg=${1#*=}; [ "$pkg" = "$1" ] && pkg=.; echo "$PWD/$pkg"; }
  for round in $(seq $rounds); do
    for tp in "$@"; do
      PYTHONPATH=/tmp/site:$(package $tp) python3 $script time $dir ${tp%%=*}
    done
  done 2>&1 | tee $OUT/times.txt
  for tp in "$@"; do
    echo "== ${tp%%=*}: Nsight Compute per launch: id, kernel, grid, block, time, registers"
    PYTHONPATH=/tmp/site:$(package $tp) ncu_launches $script launch $dir ${tp%%=*}
  done 2>&1 | tee $OUT/stages.txt
}
