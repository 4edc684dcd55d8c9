#!/usr/bin/env bash
# The modules of this run, built on the 2-core machine from this tree (expx/ is
# git-excluded): tools/bench.py prepare (lmax 127-2047, one field and 16, float32 on CUDA and
# both Vulkan families, float64 on CUDA) into expx/s21/bench, plus the 16-field plan with
# recurrence="ishioka" (the synthesis on tensor cores too); the artifacts of `ireesht check`
# into expx/s21/chk.
set -euo pipefail
export PYTHONPATH=$PWD
O=expx/s21
python tools/bench.py prepare $O/bench --lmax 127,255,511,1023,2047
B="python -m ireesht build"
$B --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence ishioka --out $O/bench/l1023_b16_float32_ishioka
$B --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out $O/chk/g1023
$B --lmax 2047 --targets cuda,vulkan:mlir --out $O/chk/g2047
$B --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir --out $O/chk/e720_1440
$B --lmax 255 --dtype float64 --targets cuda,vulkan:mlir --out $O/chk/g255_f64
$B --lmax 1023 --targets cuda --fields-per-thread 4 --out $O/chk/g1023_b16
$B --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence ishioka --out $O/chk/g1023_b16_mma
