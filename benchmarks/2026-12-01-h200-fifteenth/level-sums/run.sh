#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from build.sh carried): the level-sums
# A/B through ../ab.sh (the run used a run.py of the same steps, since folded into ../ab.py).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
D=$PWD/$S/level-sums
ab_run expx/ls old "old=$PWD/expx/oldpkg:$D new=$PWD:$D kp4=$PWD:$D ana1=$PWD:$D ana2=$PWD:$D" variants
