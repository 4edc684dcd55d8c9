#!/usr/bin/env bash
# Twenty-fourth run, on the GPU machine (repository root; `.whl` and expx/SET carried).
# Usage: run_ab.sh SET TAG...: two rounds of anal_set.py time per tag's modules expx/SET/TAG
# (times.txt), Nsight Compute per launch (stages.txt) and stages.py's summary (summary.txt).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-02-h200-twentysecond/anal_set.py
SET=$1
shift
tag_runs $A expx/$SET 2 "$@"
python3 benchmarks/2026-12-02-h200-twentysecond/stages.py $OUT/stages.txt | tee $OUT/summary.txt
