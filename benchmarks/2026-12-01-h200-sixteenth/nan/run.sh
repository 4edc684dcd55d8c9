#!/usr/bin/env bash
# On the GPU machine: the NaN of the capped two-barrier analysis at lmax 2047 (../regcap):
# where it is, and compute-sanitizer's racecheck of the uncapped and capped kernels.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
D=benchmarks/2026-12-01-h200-sixteenth/nan
for t in bar2r80 bar2; do
  PYTHONPATH=/tmp/site:$PWD/expx/${t}pkg python3 $D/diag.py expx/b3/$t/l2047_b1
done 2>&1 | tee $OUT/diag.txt
which compute-sanitizer
for t in bar2r80 bar2; do
  echo "== $t racecheck"
  PYTHONPATH=/tmp/site:$PWD/expx/${t}pkg timeout 200 compute-sanitizer --tool racecheck --racecheck-report hazard \
    python3 $D/diag.py expx/b3/$t/l2047_b1 2>&1 | tail -n 30
done 2>&1 | tee $OUT/racecheck.txt
