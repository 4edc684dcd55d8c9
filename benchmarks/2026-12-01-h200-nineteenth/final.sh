#!/usr/bin/env bash
# Nineteenth run, on the GPU machine (repository root; `.gl`, `.whl` and the expx/ modules of
# build.sh carried): `ireesht check` of every artifact set in expx/chk19 into check.txt
# (CUDA and NVIDIA's Vulkan driver), then run.sh's A/B of base and fuse (times.txt,
# stages.txt).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht devices 2>&1 | tee -a $OUT/devices.txt
for d in expx/chk19/*; do
  batch=1; [ "${d##*_}" = mma ] && batch=16
  echo "== ireesht check --artifacts $d --batch $batch"
  PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts $d --batch $batch
done 2>&1 | tee $OUT/check.txt
bash benchmarks/2026-12-01-h200-nineteenth/run.sh
