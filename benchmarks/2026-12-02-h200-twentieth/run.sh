#!/usr/bin/env bash
# Twentieth run, on the GPU machine (repository root; `.gl`, `.whl`, expx/s20 and expx/chk20
# of build.sh, and expx/pkg16, the package of 96471ba, carried): `ireesht check` of
# expx/chk20/* (CUDA and NVIDIA's Vulkan driver) into check.txt; the eighteenth run's
# anal.py time of r16 and prune into times.txt; hostcost.py of the one-field plans with
# this tree's package and with 96471ba's (host.txt); Nsight Compute per launch of both into
# stages.txt; a second round of anal.py time.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
H=benchmarks/2026-12-02-h200-twentieth/hostcost.py
{
  for d in expx/chk20/*; do
    batch=1; [ "${d##*_}" = mma ] && batch=16
    echo "== ireesht check --artifacts $d --batch $batch"
    PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d --batch $batch
  done
} 2>&1 | tee $OUT/check.txt
for tag in r16 prune; do
  PYTHONPATH=/tmp/site:$PWD python3 $A time expx/s20 $tag
done 2>&1 | tee $OUT/times.txt
{
  echo "== package of this tree"; PYTHONPATH=/tmp/site:$PWD python3 $H expx/s20 prune
  echo "== package of 96471ba"; PYTHONPATH=/tmp/site:$PWD/expx/pkg16 python3 $H expx/s20 prune
} 2>&1 | tee $OUT/host.txt
for tag in r16 prune; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch expx/s20 $tag
done 2>&1 | tee $OUT/stages.txt
for tag in r16 prune; do
  PYTHONPATH=/tmp/site:$PWD python3 $A time expx/s20 $tag
done 2>&1 | tee -a $OUT/times.txt
