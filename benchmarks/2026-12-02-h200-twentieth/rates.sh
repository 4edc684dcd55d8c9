#!/usr/bin/env bash
# Twentieth run, third call, on the GPU machine (repository root; `.gl`, `.whl`, expx/chk20
# carried): rates.py of every module of expx/chk20 (CUDA, and both kernel families on
# NVIDIA's Vulkan driver), one field, twice (rates.txt).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
for round in 1 2; do
  PYTHONPATH=/tmp/site:$PWD python3 benchmarks/2026-12-02-h200-twentieth/rates.py expx/chk20/g1023 expx/chk20/g2047 expx/chk20/e720_1440 expx/chk20/g255_f64
done 2>&1 | tee $OUT/rates.txt
