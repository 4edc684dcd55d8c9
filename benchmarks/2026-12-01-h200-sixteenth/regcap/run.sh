#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): one-field analysis, lmax 1023
# and 2047. base: four barriers per span; bar2r80: two (../barriers), capped at 80 registers
# (nvvm.maxnreg); bases28: four barriers, spans of 28 degrees (30 KB of workgroup memory:
# 7 workgroups per SM); bar2r72s28: two barriers, 72 registers, spans of 28.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b3 base "base=$PWD/expx/basepkg bar2r80=$PWD/expx/bar2r80pkg bases28=$PWD/expx/bases28pkg bar2r72s28=$PWD/expx/bar2r72s28pkg"
