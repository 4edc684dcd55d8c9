# On the GPU machine: Nsight Compute's full set for the Legendre analysis (the fourth launch)
# of expx/s18p/<tag>/l1023_b16; the digest into $OUT/profile-<tag>.txt, stall reasons into
# $OUT/stalls-<tag>.txt, stall samples per SASS instruction into $OUT/sass-<tag>.csv.
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-eighteenth
ab_setup
for tag in ${TAGS:-mma}; do
  PYTHONPATH=/tmp/site:$PWD ncu_profile $tag 3 $D/anal.py launch expx/s18p $tag
done
