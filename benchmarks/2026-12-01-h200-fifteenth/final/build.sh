#!/usr/bin/env bash
# The modules of run.sh, built on the 2-core machine (benchdata/ is git-excluded).
set -euo pipefail
python tools/bench.py prepare benchdata --lmax 127,511,1023,2047
B="python -m ireesht build"
$B --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out benchdata/chk/g1023
$B --lmax 2047 --targets cuda,vulkan:mlir --out benchdata/chk/g2047
$B --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir,vulkan:wgsl --out benchdata/chk/e720_1440
$B --lmax 511 --recurrence ishioka --targets cuda,vulkan:mlir --out benchdata/chk/g511_ishioka
$B --lmax 255 --dtype float64 --targets cuda,vulkan:mlir --out benchdata/chk/g255_f64
# 16 fields with either recurrence (spans of 64 in the Ishioka kernel since 4c51079)
for rec in standard ishioka; do
  python -c "
import ireesht
for L in (127, 1023):
    ireesht.build(L, f'benchdata/ab16/$rec/l{L}_b16', targets=('cuda',), fields_per_thread=4, recurrence='$rec')"
done
