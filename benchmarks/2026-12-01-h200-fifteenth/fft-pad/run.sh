#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the padded FFT buffer A/B,
# modules of ../radix8/build.py with the package at commit 5e6372c (base, expx/basepkg)
# and with the padded buffer (pad, expx/padpkg).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/pad base "base=$PWD/expx/basepkg pad=$PWD/expx/padpkg"
