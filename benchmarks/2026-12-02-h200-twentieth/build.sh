#!/usr/bin/env bash
# The modules of this run, built on the 2-core machine (expx/ is git-excluded): r16 from a
# worktree of 96471ba (BASE: radix-16 passes, every row length's passes in each kernel),
# prune from this tree (each plan's kernels keep only their row length's passes); and the
# artifacts of `ireesht check`.
set -euo pipefail
D=benchmarks/2026-12-01-h200-nineteenth
NAMES="l255_b1 l511_b1 l1023_b1 l2047_b1 l1023_b16 l1023_b16_mma l720_b1_weather l720_b16_weather"
PYTHONPATH=$BASE python $D/build.py expx/s20 r16 $NAMES
PYTHONPATH=$PWD python $D/build.py expx/s20 prune $NAMES
B="python -m ireesht build"
$B --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out expx/chk20/g1023
$B --lmax 2047 --targets cuda,vulkan:mlir --out expx/chk20/g2047
$B --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir --out expx/chk20/e720_1440
$B --lmax 255 --dtype float64 --targets cuda,vulkan:mlir --out expx/chk20/g255_f64
$B --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence ishioka --out expx/chk20/g1023_mma
