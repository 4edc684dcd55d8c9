#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` from build.sh carried): the FFT A/B,
# base (commit 42418a2), pre (row reads unrolled) and all (and butterflies unconditional).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/fl base "base=$PWD/expx/basepkg pre=$PWD/expx/prepkg all=$PWD/expx/allpkg"
