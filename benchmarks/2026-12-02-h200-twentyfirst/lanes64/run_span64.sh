#!/usr/bin/env bash
# Twenty-first run, eighth call (as run_l64.sh; build_span64.py's modules): `ireesht check
# --artifacts` of chk3 (check.txt); anal.py time of base32 (new2 without lmax 2047: spans of 32) and span64, two
# rounds (times.txt); Nsight Compute per launch of both (stages.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
S=expx/s21/l64
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $S/chk3/g1023 2>&1 | tee $OUT/check.txt
for round in 1 2; do
  for tag in base32 span64; do PYTHONPATH=/tmp/site:$PWD python3 $A time $S $tag; done
done 2>&1 | tee $OUT/times.txt
for tag in base32 span64; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch $S $tag
done 2>&1 | tee $OUT/stages.txt
