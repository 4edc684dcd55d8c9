#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): lmax 1023, 16 fields (four
# per thread), the committed analysis (base: four pairs per thread, 128 registers with 28
# bytes of spills, 4 workgroups per SM) against the same with room for 168 registers (r168:
# 162, no spill, 3 per SM) and two pairs per thread (kp2: 96 registers, two chunks).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b9 base "base=$PWD/expx/basepkg r168=$PWD/expx/r168pkg kp2=$PWD/expx/kp2pkg"
