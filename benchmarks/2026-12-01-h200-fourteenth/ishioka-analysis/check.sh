#!/usr/bin/env bash
# On the GPU machine, with .gl, .whl and expx carried; the modules built here by
#   python -m ireesht build --lmax L --recurrence ishioka --targets cuda,vulkan:mlir --out expx/chk2/lL
# for L = 255, 511, and --lmax 300 --nlat 301 --nphi 602 --targets vulkan:mlir for l300
# (the first call checked l255, l511 and the 721 x 1440 plan at lmax 720, e720).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for d in l511 l300 l255; do
  echo "== ireesht check --artifacts $d (recurrence ishioka: CUDA and Vulkan, the Ishioka analysis)"
  python3 -m ireesht check --artifacts expx/chk2/$d
done 2>&1 | tee $OUT/check-ishioka-analysis.txt
