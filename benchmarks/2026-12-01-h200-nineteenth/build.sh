#!/usr/bin/env bash
# The modules of final.sh, built on the 2-core machine (expx/ is git-excluded): this run's
# A/B plans, base from a worktree of the commit before (BASE, a path), fuse from this tree;
# and the artifacts of `ireesht check`. (Later runs set OUT, TAGS "base-tag this-tag" and
# CHK: the twentieth's build.sh.)
set -euo pipefail
D=benchmarks/2026-12-01-h200-nineteenth
NAMES="l255_b1 l511_b1 l1023_b1 l2047_b1 l1023_b16 l1023_b16_mma l720_b1_weather l720_b16_weather"
OUT=${OUT:-expx/s19}
read -r T0 T1 <<< "${TAGS:-base fuse}"
C=${CHK:-expx/chk19}
PYTHONPATH=$BASE python $D/build.py $OUT $T0 $NAMES
PYTHONPATH=$PWD python $D/build.py $OUT $T1 $NAMES
B="python -m ireesht build"
$B --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out $C/g1023
$B --lmax 2047 --targets cuda,vulkan:mlir --out $C/g2047
$B --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir --out $C/e720_1440
$B --lmax 255 --dtype float64 --targets cuda,vulkan:mlir --out $C/g255_f64
$B --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence ishioka --out $C/g1023_mma
