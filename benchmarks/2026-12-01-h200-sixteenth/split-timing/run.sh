#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried): timing only. The analysis of
# lmax 1023 with the orders below 256 / 512 split in two workgroups by degree (s256, s512:
# the second piece starts from the seed, so its values are wrong: this measures the time a
# balanced grid would take), and four / eight pairs per analysis thread at lmax 2047 (kp8).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
ab_run expx/sp base "base=$PWD/expx/basepkg kp8=$PWD/expx/kp8pkg s256=$PWD/expx/splitpkg s512=$PWD/expx/splitpkg"
