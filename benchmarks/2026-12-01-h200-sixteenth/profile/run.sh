#!/usr/bin/env bash
# On the GPU machine: Nsight Compute's stall reasons and per-instruction samples of the
# Legendre analysis (lmax 1023 and 2047, one field; modules of ../split-timing, base).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD/expx/basepkg
for m in l1023_b1 l2047_b1; do
  ncu --launch-skip 3 --launch-count 1 --section WarpStateStats --section SourceCounters \
      --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio \
      -o /tmp/prof_$m python3 benchmarks/2026-12-01-h200-fifteenth/profile/launch.py expx/sp/base/$m >/dev/null 2>&1
  ncu -i /tmp/prof_$m.ncu-rep --page raw --csv > $OUT/raw_$m.csv 2>&1
  ncu -i /tmp/prof_$m.ncu-rep --page details > $OUT/details_$m.txt 2>&1
  ncu -i /tmp/prof_$m.ncu-rep --page source --print-source sass --csv > $OUT/sass_$m.csv 2>&1
done
ls -la $OUT
