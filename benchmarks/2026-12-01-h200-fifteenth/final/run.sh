#!/usr/bin/env bash
# Fifteenth run, on the GPU machine (device tool; `.gl`, `.whl` with iree-base-runtime and
# torch-harmonics for its Python, and `benchdata` from build.sh carried along), in two calls:
# `run.sh check` (the runtime comparison on every path, then tools/bench.py with the peers),
# `run.sh stages` (16 fields with either recurrence through ../ab.sh, then
# tools/cuda_stages.py under Nsight Compute).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ "$1" = check ]; then
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/devices.txt"
  python3 -m ireesht devices 2>&1 | tee -a "$OUT/devices.txt"
  for d in benchdata/check benchdata/chk/*; do
    echo "== ireesht check --artifacts $d"
    python3 -m ireesht check --artifacts "$d"
  done 2>&1 | tee "$OUT/check.txt"
  timeout 400 python3 tools/bench.py run benchdata --peers --calls 30 2>&1 | tee "$OUT/bench.txt"
else
  . benchmarks/2026-12-01-h200-fifteenth/ab.sh
  ab_run benchdata/ab16 standard "standard=$PWD ishioka=$PWD"
  ncu --csv --metrics gpu__time_duration.sum --log-file /tmp/ncu.csv \
    python3 tools/cuda_stages.py launch benchdata > /tmp/order.json 2>/tmp/launch.err
  python3 tools/cuda_stages.py report /tmp/order.json /tmp/ncu.csv 2>&1 | tee "$OUT/cuda_stages.txt"
fi
