#!/usr/bin/env bash
# Fourteenth run, on the GPU machine (device tool; `.gl`, `.whl` with iree-base-runtime and
# torch-harmonics for its Python, and `expx` from build.sh carried along): the runtime
# comparison on grids of 1440 and 720 points (FFT with radix-3 and radix-5 passes in the
# MLIR kernels), the weather grid's timings against torch-harmonics, and the power-of-two
# plans before (expx/oldpkg: the package at commit 7529756) and after, alternating.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=benchmarks/2026-12-01-h200-fourteenth/weather-grid/run.py  # also set by ab.sh
NEW=/tmp/site:$PWD
OLD=/tmp/site:$PWD/expx/oldpkg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
for d in g719_1440 e720_1440 g359_720_f64; do
  echo "== ireesht check --artifacts $d"
  PYTHONPATH=$NEW python3 -m ireesht check --artifacts expx/chk/$d
done 2>&1 | tee $OUT/check.txt
{
PYTHONPATH=$NEW python3 $R time expx/g720/mods
PYTHONPATH=$NEW python3 $R th x
} 2>&1 | tee $OUT/weather.txt
. benchmarks/2026-12-01-h200-fourteenth/ab.sh
alternate "$OLD" expx/ab/old "$NEW" expx/ab/new 2>&1 | tee $OUT/pow2.txt
{ stages "$NEW" expx/g720/mods; stages "$OLD" expx/ab/old; stages "$NEW" expx/ab/new; } 2>&1 | tee $OUT/stages.txt
