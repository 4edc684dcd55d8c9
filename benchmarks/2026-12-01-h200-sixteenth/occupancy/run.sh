#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): the one-field analysis (four
# barriers per span, as committed) with its workgroup memory padded so that 5 (pad5: +4.5 KB)
# or 4 (pad4: +11 KB) workgroups fit an SM instead of 6 (base): does fewer resident
# workgroups make lmax 1023 faster, as the 96-register two-barrier kernel was?
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b4 base "base=$PWD/expx/basepkg pad5=$PWD/expx/pad5pkg pad4=$PWD/expx/pad4pkg"
