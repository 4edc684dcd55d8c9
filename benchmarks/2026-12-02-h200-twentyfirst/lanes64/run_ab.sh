#!/usr/bin/env bash
# Twenty-first run, sixth to ninth calls, on the GPU machine (repository root; `.whl`,
# expx/s21/l64 of the build_*.py here and, for prod, expx/pkg21 (the package of commit
# eeb36ee) carried). Usage: run_ab.sh ROUNDS CHK TAG[=PACKAGE]...: `ireesht check
# --artifacts` of expx/s21/l64/CHK/* (check.txt); the eighteenth run's anal.py time of each
# tag's modules expx/s21/l64/TAG, ROUNDS rounds (times.txt), and Nsight Compute per launch
# (stages.txt), each tag loaded by PACKAGE (default: this tree). The calls:
#   first/   run_ab.sh 2 chk prod=expx/pkg21 new        (build_l64.py)
#   final/   run_ab.sh 2 chk2 prod=expx/pkg21 new2      (build_l64b.py; Nsight Compute of
#            new2 only)
#   span64/  run_ab.sh 2 chk3 base32 span64             (build_span64.py; base32: new2's
#            modules but lmax 2047)
#   small/   run_ab.sh 1 chk4 small small4              (build_small.py)
# (each call ran an earlier copy of this script written for it).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
S=expx/s21/l64
ROUNDS=$1 CHK=$2
shift 2
for d in $S/$CHK/*; do
  echo "== ireesht check --artifacts $d"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d
done 2>&1 | tee $OUT/check.txt
tag_runs $A $S $ROUNDS "$@"
