#!/usr/bin/env bash
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
for tp in baseish=expx/pkg24 split; do
  pkg=${tp#*=}; [ "$pkg" = "$tp" ] && pkg=.
  PYTHONPATH=/tmp/site:$PWD/$pkg python3 $A time expx/s24e ${tp%%=*}
done 2>&1 | tee $OUT/times.txt
echo "== split"
PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch expx/s24e split 2>&1 | tee $OUT/stages.txt
