#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from build.sh carried): the radix-8 A/B.
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_run expx/r8 r4 "r4=$PWD/expx/r4pkg r8=$PWD/expx/r8pkg"
