# On the GPU machine: Nsight Compute's full set for the Legendre synthesis (first launch) of
# expx/s17p/<tag>/l1023_b16; the digest into $OUT/profile-<tag>.txt, stall samples per SASS
# instruction into $OUT/sass-<tag>.csv.
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-seventeenth
ab_setup
for tag in mma16; do
  PYTHONPATH=/tmp/site:$PWD ncu_profile $tag 0 $D/mma.py launch expx/s17p $tag
done
