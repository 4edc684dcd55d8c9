#!/usr/bin/env bash
# The modules of final.sh, built on the 2-core machine (expx/ is git-excluded): this run's
# A/B plans, base from a worktree of the commit before (BASE, a path), fuse from this tree;
# and the artifacts of `ireesht check`.
set -euo pipefail
D=benchmarks/2026-12-01-h200-nineteenth
NAMES="l255_b1 l511_b1 l1023_b1 l2047_b1 l1023_b16 l1023_b16_mma l720_b1_weather l720_b16_weather"
PYTHONPATH=$BASE python $D/build.py expx/s19 base $NAMES
PYTHONPATH=$PWD python $D/build.py expx/s19 fuse $NAMES
B="python -m ireesht build"
$B --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out expx/chk19/g1023
$B --lmax 2047 --targets cuda,vulkan:mlir --out expx/chk19/g2047
$B --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir --out expx/chk19/e720_1440
$B --lmax 255 --dtype float64 --targets cuda,vulkan:mlir --out expx/chk19/g255_f64
$B --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence ishioka --out expx/chk19/g1023_mma
