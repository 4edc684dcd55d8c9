#!/usr/bin/env bash
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
for d in expx/s24f/tc expx/s24f/tc720; do
  echo "== ireesht check --artifacts $d"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d
  echo "rc=$?"
done 2>&1 | tee $OUT/check.txt
