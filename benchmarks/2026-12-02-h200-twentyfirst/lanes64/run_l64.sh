#!/usr/bin/env bash
# Twenty-first run, sixth and seventh calls, on the GPU machine (repository root; `.whl`,
# expx/s21/l64 of build_l64.py and build_l64b.py, and expx/pkg21 (the package of commit
# eeb36ee) carried). Usage: run_l64.sh CHK NEW NCU_TAG... (first/: `chk new prod new`;
# final/: `chk2 new2 new2`). `ireesht check --artifacts` of expx/s21/l64/CHK/* (check.txt);
# the eighteenth run's anal.py time of prod (the float32 scheme at lmax 1023 / 2047,
# leg_analys_ishioka.mlir on the smaller grids; loaded by eeb36ee's package, whose analysis
# at 1023 / 2047 takes other tables) and NEW (leg_analys_lanes64.mlir, this tree's
# package), two rounds (times.txt); Nsight Compute per launch of each NCU_TAG (stages.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
S=expx/s21/l64
CHK=$1 NEW=$2
shift 2
for d in $S/$CHK/*; do
  echo "== ireesht check --artifacts $d"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d
done 2>&1 | tee $OUT/check.txt
for round in 1 2; do
  PYTHONPATH=/tmp/site:$PWD/expx/pkg21 python3 $A time $S prod
  PYTHONPATH=/tmp/site:$PWD python3 $A time $S $NEW
done 2>&1 | tee $OUT/times.txt
for tag in "$@"; do
  pkg=$PWD; [ $tag = prod ] && pkg=$PWD/expx/pkg21
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$pkg ncu_launches $A launch $S $tag
done 2>&1 | tee $OUT/stages.txt
