#!/usr/bin/env bash
# The modules of run.sh, built on the 2-core machine (expx/ is git-excluded): the runtime
# comparison's directories, then the weather-grid modules (../weather-grid/build.py).
set -euo pipefail
python -m ireesht build --lmax 719 --nphi 1440 --targets cuda,vulkan:mlir,vulkan:wgsl,cpu --cpu-baselines x86-64-v3 --out expx/chk/g719_1440
python -m ireesht build --lmax 720 --mmax 719 --grid equiangular --nlat 721 --nphi 1440 --targets cuda,vulkan:mlir,vulkan:wgsl --out expx/chk/e720_1440
python -m ireesht build --lmax 359 --nphi 720 --dtype float64 --targets cuda,vulkan:mlir,cpu --cpu-baselines x86-64-v3 --out expx/chk/g359_720_f64
python benchmarks/2026-12-01-h200-fourteenth/weather-grid/build.py expx/g720/mods
# the power-of-two plans before (the package at commit 7529756, carried as expx/oldpkg) and after
git worktree add /tmp/old 7529756
mkdir -p expx/oldpkg && cp -r /tmp/old/ireesht expx/oldpkg/
for v in old new; do
  if [ $v = old ]; then P=/tmp/old; else P=$PWD; fi
  PYTHONPATH=$P python -c "
import ireesht
for L in (511, 1023):
    ireesht.build(L, f'expx/ab/$v/l{L}_b1', targets=('cuda',))"
done
