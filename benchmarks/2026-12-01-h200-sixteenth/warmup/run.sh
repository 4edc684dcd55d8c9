#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the analysis with two barriers
# per span, the first span staged by a warm-up iteration (bar2w: no copy of the staging and
# vote before the loop, 80 registers) against four barriers per span (base); then
# compute-sanitizer's racecheck of bar2w (lmax 2047 one field, 1023 with 16 fields).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b4 base "base=$PWD/expx/basepkg bar2w=$PWD/expx/bar2wpkg"
for m in l2047_b1 l1023_b16; do
  echo "== bar2w $m racecheck"
  PYTHONPATH=/tmp/site:$PWD/expx/bar2wpkg timeout 250 compute-sanitizer --tool racecheck \
    --racecheck-report hazard python3 benchmarks/2026-12-01-h200-sixteenth/nan/diag.py \
    expx/b4/bar2w/$m 2>&1 | grep -v "Host Frame" | tail -n 12
done 2>&1 | tee $OUT/racecheck.txt
