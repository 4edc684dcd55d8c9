# On the GPU machine (repository root): modules built by build.py into $DIR/<tag> (DIR, TAGS:
# the environment's, default expx/s19, base fuse): two rounds of the eighteenth run's
# anal.py time per tag into times.txt, then Nsight Compute per launch into stages.txt.
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
ab_setup
for round in 1 2; do
  for tag in ${TAGS:-base fuse}; do
    PYTHONPATH=/tmp/site:$PWD python3 $A time ${DIR:-expx/s19} $tag
  done
done 2>&1 | tee $OUT/times.txt
for tag in ${TAGS:-base fuse}; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch ${DIR:-expx/s19} $tag
done 2>&1 | tee $OUT/stages.txt
