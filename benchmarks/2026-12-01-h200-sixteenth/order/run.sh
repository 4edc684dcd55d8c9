#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): lmax 1023, one field, the
# committed analysis (base: lane pairs, 5 workgroups per SM) against workgroups that
# alternate long and short orders (inter: m = 0, mmax, 1, mmax - 1, ...) and against 4
# workgroups per SM (pad4lp: workgroup memory padded by 16 KB).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b8 base "base=$PWD/expx/basepkg inter=$PWD/expx/interpkg pad4lp=$PWD/expx/pad4lppkg"
