#!/usr/bin/env bash
# Nineteenth run, last call, on the GPU machine (repository root; `.gl`, `.whl`, expx/chk19
# from this tree, expx/s19c: fuse (commit 6b2afcf, loaded by its own package expx/fusepkg) and
# r16 modules): `ireesht check` of expx/chk19/* (CUDA and NVIDIA's Vulkan driver) into
# check.txt, then one round of anal.py time per tag into times.txt.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
for d in expx/chk19/*; do
  batch=1; [ "${d##*_}" = mma ] && batch=16
  echo "== ireesht check --artifacts $d --batch $batch"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d --batch $batch
done 2>&1 | tee $OUT/check.txt
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
for t in fuse r16; do
  pp=$PWD; [ $t = fuse ] && pp=$PWD/expx/fusepkg
  PYTHONPATH=/tmp/site:$pp python3 $A time expx/s19c $t
done 2>&1 | tee $OUT/times.txt
