#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): timing only, lmax 1023, one
# field. The orders below 256 / 512 split by degree into two workgroups (s256, s512; as
# ../split-timing, but the second pieces now run as if every pair were live, as most would
# from a true state: their values are wrong); s512pad: s512 with 5 workgroups per SM; pad5:
# the committed kernel with 5 workgroups per SM (../occupancy).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/b5 base "base=$PWD/expx/basepkg pad5=$PWD/expx/pad5pkg s256=$PWD/expx/splitpkg s512=$PWD/expx/splitpkg s512pad=$PWD/expx/splitpadpkg"
