#!/usr/bin/env bash
# Twenty-fifth run, on the GPU machine (repository root; `.whl` and expx/SET carried).
# Usage: run25.sh SET TAG[=PACKAGE]...: ROUNDS (2) rounds of anal_set.py time per tag's modules
# expx/SET/TAG (times.txt), Nsight Compute per launch (stages.txt), stages.py's summary
# (summary.txt); with PROF="TAG...", Nsight Compute's full set of the first module's Legendre
# analysis (its fourth launch) per tag, key lines and stall reasons into profiles.txt; with
# CHK="DIR...", first `ireesht check --artifacts` of each module directory (check.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
SET=$1
shift
for d in ${CHK:-}; do
  echo "== ireesht check --artifacts $d"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d
done 2>&1 | tee $OUT/check.txt
tag_runs $A expx/$SET ${ROUNDS:-2} "$@"
python3 benchmarks/2026-12-02-h200-twentysecond/stages.py $OUT/stages.txt | tee $OUT/summary.txt
for t in ${PROF:-}; do
  PYTHONPATH=/tmp/site:$PWD ncu_profile $t 3 $A launch expx/$SET $t
  { echo "== $t"
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|FP64|Issue Slots|Executed Ipc|Warp Cycles Per Issued|Block Limit" $OUT/profile-$t.txt | sort -u
    cat $OUT/stalls-$t.txt; } >> $OUT/profiles.txt
  rm -f $OUT/profile-$t.txt $OUT/stalls-$t.txt $OUT/sass-$t.csv
done
