#!/usr/bin/env bash
# The modules of run.sh, built on the 2-core machine (expx/ is git-excluded): the package at
# commit 2a591a3 copied to expx/oldpkg, then every variant.
set -euo pipefail
D=benchmarks/2026-12-01-h200-fifteenth/level-sums
git worktree add /tmp/old 2a591a3
mkdir -p expx/oldpkg && cp -r /tmp/old/ireesht /tmp/old/kernels /tmp/old/mlir expx/oldpkg/
PYTHONPATH=expx/oldpkg:$D python $D/build.py expx/ls old
for t in new kp4 ana1 ana2; do PYTHONPATH=$PWD:$D python $D/build.py expx/ls $t; done
