#!/usr/bin/env bash
# The Ishioka analysis: the package at commit 527b1de (prev: the float32 scheme's analysis,
# copied to expx/prevpkg) and the working tree (new), alternating; then Nsight Compute of
# both. Refactored after the run onto ../ab.sh (shared with ../final/run.sh).
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
NEW=/tmp/site:$PWD
PREV=/tmp/site:$PWD/expx/prevpkg
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/devices.txt
. benchmarks/2026-12-01-h200-fourteenth/ab.sh
alternate "$PREV" expx/ab2/prev "$NEW" expx/ab2/new 2>&1 | tee $OUT/times.txt
{ stages "$PREV" expx/ab2/prev; stages "$NEW" expx/ab2/new; } 2>&1 | tee $OUT/stages.txt
