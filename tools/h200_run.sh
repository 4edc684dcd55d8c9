#!/usr/bin/env bash
# Runs on the lent GPU machine (device tool), from the repository root, with `.gl` (Vulkan
# loader debs), `.whl` (iree-base-runtime and torch-harmonics wheels for its Python) and
# `benchdata` (from `python tools/bench.py prepare benchdata`) carried along.
# Writes the device list, the runtime comparison and the benchmark log to $OUT.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/devices.txt"
python3 -m ireesht devices 2>&1 | tee -a "$OUT/devices.txt"
python3 -m ireesht check --artifacts benchdata/check 2>&1 | tee "$OUT/check.txt"
timeout "${BENCH_TIMEOUT:-500}" python3 tools/bench.py run benchdata --peers "$@" 2>&1 | tee "$OUT/bench.txt"
