#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from `build.py` carried): the span A/B.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/sp s64 "s64=$PWD:$PWD/$S/span s128=$PWD:$PWD/$S/span s256=$PWD:$PWD/$S/span" variants
