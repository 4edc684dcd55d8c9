#!/usr/bin/env bash
# Sixteenth run, on the GPU machine (device tool; `.gl`, `.whl` and `expx` carried): the
# runtime comparison of lmax 1023 on every H200 path (modules of the final commit:
# `python -m ireesht build --lmax 1023 --targets cuda,vulkan:mlir,vulkan:wgsl --out
# expx/chk1023`), then the A/B of the one-field analysis over lane pairs (final, the same
# package) against the commit before (base, expx/basepkg), lmax 1023.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts expx/chk1023 2>&1 | tee $OUT/check.txt
ab_run expx/b7 base "base=$PWD/expx/basepkg final=$PWD"
