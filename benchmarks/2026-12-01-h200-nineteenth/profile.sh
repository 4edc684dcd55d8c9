# On the GPU machine (repository root): Nsight Compute's full set of the Fourier stages of
# this run's committed code (modules in expx/prof/fuse: lmax 1023 with one field and with 16),
# launches in anal.py's order (per module: Legendre synthesis, Fourier synthesis, Fourier
# analysis, Legendre analysis; three calls).
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
ab_setup
export PYTHONPATH=/tmp/site:$PWD
ncu_profile fsyn1 1 $A launch expx/prof fuse
ncu_profile fana1 2 $A launch expx/prof fuse
ncu_profile fsyn16 13 $A launch expx/prof fuse
ncu_profile fana16 14 $A launch expx/prof fuse
