#!/usr/bin/env bash
# On the GPU machine: Nsight Compute's sections for the four kernels of one call (lmax 1023
# and 2047, one field; lmax 1023 with 16 fields), modules of ../fft-latency (base).
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/iree*.whl >/dev/null 2>&1 || exit 1
export PYTHONPATH=/tmp/site:$PWD/expx/basepkg PYTHONUNBUFFERED=1
for m in l1023_b1 l2047_b1 l1023_b16; do
  echo "=== $m"
  ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      --section WarpStateStats --section Occupancy --section InstructionStats --section LaunchStats \
      python3 benchmarks/2026-12-01-h200-fifteenth/profile/launch.py expx/fl/base/$m 2>&1 | grep -v "^==PROF==\|^ *$"
done > $OUT/sections.txt 2>&1
