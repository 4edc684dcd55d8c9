#!/usr/bin/env bash
# Twenty-first run, fifth call (as run.sh; proto2.py with -DNT/-DSPAN): proto2.py's
# variants at lmax 1023 (error against expx/proto/l1023.npz) and 2047, CUDA events
# (proto.txt) and Nsight Compute (ncu.txt), with the product's Legendre analysis.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD
D=benchmarks/2026-12-02-h200-twentyfirst/f64-sums
V1023=("" "-DNT=64 -DKP=8" "-DNT=64 -DKP=8 -DSPAN=32" "-DNT=64 -DKP=8 -DMINB=8")
V2047=("-DKP=8" "-DKP=8 -DSPAN=32" "-DKP=8 -DMINB=4" "-DNT=256 -DKP=4")
{
  for o in "${V1023[@]}"; do echo "== proto2 1023 $o"; python3 $D/proto2.py 1023 expx/proto/l1023.npz $o; done
  for o in "${V2047[@]}"; do echo "== proto2 2047 $o"; python3 $D/proto2.py 2047 - $o; done
} 2>&1 | tee $OUT/proto.txt
{
  for o in "${V1023[@]}"; do echo "== proto2 1023 $o"; ncu_launches $D/proto2.py 1023 - $o | grep proto | head -12; done
  for o in "${V2047[@]}"; do echo "== proto2 2047 $o"; ncu_launches $D/proto2.py 2047 - $o | grep proto | head -12; done
  echo "== product (anal.py launch)"
  ncu_launches benchmarks/2026-12-01-h200-eighteenth/anal.py launch expx/s21/ab prod
} 2>&1 | tee $OUT/ncu.txt
