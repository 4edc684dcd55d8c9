#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the analysis prefetch A/B,
# modules of ../radix8/build.py with the package at commit 442adf6 (base, expx/basepkg)
# and with the next span's coefficients loaded a span ahead (pf, expx/pfpkg).
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_run expx/pf base "base=$PWD/expx/basepkg pf=$PWD/expx/pfpkg"
