#!/usr/bin/env bash
# Twenty-first run, ninth call (build_small.py's modules): `ireesht check --artifacts` of
# chk4/g511 (check.txt); anal.py time of small (leg_analys_ishioka.mlir) and small4
# (leg_analys_lanes64.mlir, four pairs per thread), one round (times.txt); Nsight Compute
# per launch of both (stages.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
S=expx/s21/l64
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $S/chk4/g511 2>&1 | tee $OUT/check.txt
for tag in small small4; do PYTHONPATH=/tmp/site:$PWD python3 $A time $S $tag; done 2>&1 | tee $OUT/times.txt
for tag in small small4; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch $S $tag
done 2>&1 | tee $OUT/stages.txt
