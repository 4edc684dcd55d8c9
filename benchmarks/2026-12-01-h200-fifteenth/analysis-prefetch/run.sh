#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the analysis prefetch A/B,
# modules of ../radix8/build.py with the package at commit 442adf6 (base, expx/basepkg)
# and with the next span's coefficients loaded a span ahead (pf, expx/pfpkg).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/pf base "base=$PWD/expx/basepkg pf=$PWD/expx/pfpkg"
