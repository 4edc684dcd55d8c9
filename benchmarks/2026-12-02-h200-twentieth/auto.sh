#!/usr/bin/env bash
# Twentieth run, fifth call, on the GPU machine (repository root; `.whl`, expx/s20a of
# build_auto.py carried): `ireesht check --artifacts` of the "auto" batch plan at lmax 1023
# with 16 fields (check.txt); the eighteenth run's anal.py time of std and auto, two rounds
# (times.txt); Nsight Compute per launch of both (stages.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts expx/s20a/chk/g1023_b4 --batch 16 2>&1 | tee $OUT/check.txt
for round in 1 2; do
  for tag in std auto; do
    PYTHONPATH=/tmp/site:$PWD python3 $A time expx/s20a $tag
  done
done 2>&1 | tee $OUT/times.txt
for tag in std auto; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch expx/s20a $tag
done 2>&1 | tee $OUT/stages.txt
