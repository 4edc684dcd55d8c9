#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from build.sh carried): the radix-8 A/B.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/r8 r4 "r4=$PWD/expx/r4pkg r8=$PWD/expx/r8pkg"
