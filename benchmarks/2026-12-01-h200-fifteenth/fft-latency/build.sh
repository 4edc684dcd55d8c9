#!/usr/bin/env bash
# The modules of run.sh, built on the 2-core machine (expx/ is git-excluded): the package at
# commit 42418a2 (base), with measured.patch (all), and with its row reads only (pre: all,
# with fft_core.mlir of 42418a2), each in expx/<tag>pkg.
set -euo pipefail
D=benchmarks/2026-12-01-h200-fifteenth/fft-latency
git worktree add /tmp/base 42418a2
mkdir -p expx/basepkg
cp -r /tmp/base/ireesht /tmp/base/kernels /tmp/base/mlir expx/basepkg/
cp -r expx/basepkg expx/allpkg
(cd expx/allpkg && patch -p1 < ../../$D/measured.patch)
cp -r expx/allpkg expx/prepkg
cp expx/basepkg/kernels/mlir/fft_core.mlir expx/prepkg/kernels/mlir/
for v in base pre all; do
  PYTHONPATH=$PWD/expx/${v}pkg python $D/build.py expx/fl $v
done
