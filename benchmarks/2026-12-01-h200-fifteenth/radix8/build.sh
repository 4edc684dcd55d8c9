#!/usr/bin/env bash
# The modules of run.sh, built on the 2-core machine (expx/ is git-excluded): the working
# tree with the radix-8 FFT (r8) and with the radix-4 FFT of commit 42418a2 (r4:
# fft_core.mlir, fourier.py and plan.py of that commit), each copied to expx/<tag>pkg.
set -euo pipefail
D=benchmarks/2026-12-01-h200-fifteenth/radix8
mkdir -p expx/r4pkg expx/r8pkg
cp -r ireesht kernels mlir expx/r8pkg/
cp -r ireesht kernels mlir expx/r4pkg/
for f in kernels/mlir/fft_core.mlir ireesht/fourier.py ireesht/plan.py; do
  git show 42418a2:$f > expx/r4pkg/$f
done
for v in r4 r8; do PYTHONPATH=$PWD/expx/${v}pkg python $D/build.py expx/r8 $v; done
