#!/usr/bin/env bash
# Twentieth run, fourth call, on the GPU machine (repository root; `.gl`, `.whl`,
# expx/chk20 carried): fences.py on NVIDIA's Vulkan driver, MLIR kernels, one field (the
# float32 plans of expx/chk20 linked as l{lmax}_b1), twice (fences-vulkan.txt).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
mkdir -p /tmp/vk/chk20
ln -sfn $PWD/expx/chk20/g1023 /tmp/vk/chk20/l1023_b1
ln -sfn $PWD/expx/chk20/e720_1440 /tmp/vk/chk20/l720_b1
for round in 1 2; do
  PYTHONPATH=/tmp/site:$PWD python3 benchmarks/2026-12-02-h200-twentieth/fences.py /tmp/vk chk20 vulkan mlir
done 2>&1 | tee $OUT/fences-vulkan.txt
