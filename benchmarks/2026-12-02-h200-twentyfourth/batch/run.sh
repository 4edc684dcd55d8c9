#!/usr/bin/env bash
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
for tp in base=expx/pkg24 baseish=expx/pkg24 new; do
  pkg=${tp#*=}; [ "$pkg" = "$tp" ] && pkg=.
  PYTHONPATH=/tmp/site:$PWD/$pkg python3 $A time expx/s24d ${tp%%=*}
done 2>&1 | tee $OUT/times.txt
for tp in baseish=expx/pkg24 new; do
  pkg=${tp#*=}; [ "$pkg" = "$tp" ] && pkg=.
  echo "== ${tp%%=*}"
  PYTHONPATH=/tmp/site:$PWD/$pkg ncu_launches $A launch expx/s24d ${tp%%=*}
done 2>&1 | tee $OUT/stages.txt
