#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): one-field analysis with lane
# sums over lane pairs (one shuffle per value; the partial sums array halves), spans of 64
# (l2s64: half the barriers per degree) or 32 (l2s32), against the committed kernel (base)
# and pad5 (../occupancy), lmax 1023 and 2047.
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b5 base "base=$PWD/expx/basepkg pad5=$PWD/expx/pad5pkg l2s64=$PWD/expx/l2s64pkg l2s32=$PWD/expx/l2s32pkg"
