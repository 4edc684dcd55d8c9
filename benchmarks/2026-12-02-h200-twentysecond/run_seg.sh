#!/usr/bin/env bash
# Twenty-second run, on the GPU machine (repository root; `.whl`, expx/$SET (default s22) of build_*.py
# and expx/pkg22, the package of 655eb3f, carried). Usage: run_seg.sh ROUNDS TAG[=PACKAGE]...:
# anal_set.py (the eighteenth run's anal.py) time of each tag's modules expx/$SET/TAG, ROUNDS rounds
# (times.txt), then Nsight Compute per launch (stages.txt), each tag loaded by PACKAGE
# (default: this tree); first, with CHK set, `ireesht check --artifacts` of expx/$SET/$CHK/*
# (check.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
S=expx/${SET:-s22}
ROUNDS=$1
shift
if [ -n "${CHK:-}" ]; then
  for d in $S/$CHK/*; do
    echo "== ireesht check --artifacts $d"
    PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d
  done 2>&1 | tee $OUT/check.txt
fi
tag_runs $A $S $ROUNDS "$@"
