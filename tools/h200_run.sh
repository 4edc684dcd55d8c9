#!/usr/bin/env bash
# Runs on the lent GPU machine (device tool), from the repository root, with `.gl` (Vulkan
# loader debs), `.whl` (iree-base-runtime and torch-harmonics wheels for its Python) and
# `benchdata` (modules from `python tools/bench.py prepare benchdata`) carried along.
# Writes the benchmark log to $OUT.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
python3 -c "import iree.runtime as rt; print(rt.get_driver('vulkan').query_available_devices())" | tee -a "$OUT/device.txt"
python3 tools/bench.py run benchdata --peers "$@" 2>&1 | tee "$OUT/bench.txt"
# per-call wall time of one plan under IREE Vulkan flags that could change the host cost
for flags in "" "--vulkan_dedicated_compute_queue=false" "--vulkan_dispatch_abi=descriptor" "--vulkan_tracing=false"; do
  IREESHT_IREE_FLAGS="$flags" python3 tools/bench.py walltime benchdata/l1023_nf1 2>&1 | tee -a "$OUT/flags.txt"
done
