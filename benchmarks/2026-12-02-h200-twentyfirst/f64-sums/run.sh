#!/usr/bin/env bash
# Twenty-first run, fourth call, on the GPU machine (repository root; `.whl`, expx/proto
# (l1023.npz of the sixteenth run's make_data.py) and expx/s21/ab (prod: the one-field
# modules of build.sh) carried): the sixteenth run's proto.py (the Ishioka analysis with
# four pairs per thread, its sums rounded to float32 per step) against proto2.py (the same,
# its sums reduced in float64), error at lmax 1023 and CUDA-event times (proto.txt), then
# each under Nsight Compute with the product's Legendre analysis (ncu.txt).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD
D=benchmarks/2026-12-02-h200-twentyfirst/f64-sums
P1=benchmarks/2026-12-01-h200-sixteenth/ishioka-pairs/proto.py
{
  echo "== proto (float32 sums)"; python3 $P1 1023 expx/proto/l1023.npz
  for o in "" -DMINB=5 -DMINB=6; do echo "== proto2 $o"; python3 $D/proto2.py 1023 expx/proto/l1023.npz $o; done
  echo "== proto (float32 sums)"; python3 $P1 2047
  for o in "" -DMINB=5 -DKP=8; do echo "== proto2 $o"; python3 $D/proto2.py 2047 - $o; done
} 2>&1 | tee $OUT/proto.txt
{
  for L in 1023 2047; do
    echo "== proto $L"; ncu_launches $P1 $L | grep proto
    for o in "" -DMINB=5 -DMINB=6 -DKP=8; do
      echo "== proto2 $L $o"; ncu_launches $D/proto2.py $L - $o | grep proto
    done
  done
  echo "== product (anal.py launch), Legendre analysis: the launches of 1024 / 2048 x 128 with 96 / 72 registers"
  ncu_launches benchmarks/2026-12-01-h200-eighteenth/anal.py launch expx/s21/ab prod
} 2>&1 | tee $OUT/ncu.txt
