# On the GPU machine (repository root): the tensor-core synthesis (leg_synth_mma.mlir) against
# the float32 scheme, 16 fields. Modules built here by build.py into $DIR/<tag> (DIR, TAGS:
# the environment's, default expx/s17 and base mma16 mma8).
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-seventeenth
ab_setup
for round in 1 2; do
  for tag in ${TAGS:-base mma16 mma8}; do
    PYTHONPATH=/tmp/site:$PWD python3 $D/mma.py time ${DIR:-expx/s17} $tag
  done
done 2>&1 | tee $OUT/times.txt
for tag in ${TAGS:-base mma16 mma8}; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $D/mma.py launch ${DIR:-expx/s17} $tag
done 2>&1 | tee $OUT/stages.txt
