#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the analysis with two
# barriers per span (bar2: the next span's coefficients staged and its vote cast during the
# row sums) against the four of the package before (base).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b2 base "base=$PWD/expx/basepkg bar2=$PWD/expx/bar2pkg"
