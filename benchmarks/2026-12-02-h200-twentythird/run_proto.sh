#!/usr/bin/env bash
# Twenty-third run, on the GPU machine (repository root; `.whl` and expx/s23 carried):
# a prototype SCRIPT (synth_fields.py, anal_dmma.py: its kernel is named as the script) with
# ARGS in each variant of nvrtc OPTIONS (proto.txt: the first checked, CUDA-event times of
# all), the same under Nsight Compute (proto-ncu.txt); with TAGS set, the product's modules
# expx/s23/TAG of each (anal_set.py time, Nsight Compute per launch: times.txt, stages.txt); with
# PROFILE=OPTIONS Nsight Compute's full set of the prototype so built (profile-proto.txt,
# stalls-proto.txt, sass-proto.csv). Usage: run_proto.sh SCRIPT "ARGS" "OPTIONS"...
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD
P=benchmarks/2026-12-02-h200-twentythird/$1
K=$(basename $1 .py)
ARGS=$2
shift 2
first=1
for v in "$@"; do
  if [ $first = 1 ]; then python3 $P $ARGS $v; first=0; else python3 $P $ARGS -noref $v; fi
done 2>&1 | tee $OUT/proto.txt
for v in "$@"; do
  echo "== $v"
  ncu_launches $P $ARGS -noref $v | K=$K python3 -c "
import os, sys, statistics as st
t = [float(l.split('gpu__time_duration.sum=')[1].split()[0].replace(',', '')) / 1e3
     for l in sys.stdin if os.environ['K'] in l]
print(f'{len(t)} launches: median {st.median(t):.1f} us, min {min(t):.1f}, max {max(t):.1f}' if t else 'none')"
done 2>&1 | tee $OUT/proto-ncu.txt
[ -n "${TAGS:-}" ] && tag_runs benchmarks/2026-12-02-h200-twentysecond/anal_set.py expx/s23 1 $TAGS
if [ -n "${PROFILE:-}" ]; then
  ncu_profile proto 1 $P $ARGS -noref $PROFILE
fi
