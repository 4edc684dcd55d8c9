#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the one-field analysis's row
# sums with four partial sums per load (vec4: rows of 132 instead of 129) against the
# committed kernel (base), lmax 1023 and 2047.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b6 base "base=$PWD/expx/basepkg vec4=$PWD/expx/vec4pkg"
