# On the GPU machine (repository root): the tensor-core analysis (leg_analys_mma.mlir)
# against the float32 scheme. Modules built here by build.py into $DIR/<tag> (DIR, TAGS:
# the environment's, default expx/s18 and base mma).
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
D=benchmarks/2026-12-01-h200-eighteenth
ab_setup
for round in 1 2; do
  for tag in ${TAGS:-base mma}; do
    PYTHONPATH=/tmp/site:$PWD python3 $D/anal.py time ${DIR:-expx/s18} $tag
  done
done 2>&1 | tee $OUT/times.txt
for tag in ${TAGS:-base mma}; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $D/anal.py launch ${DIR:-expx/s18} $tag
done 2>&1 | tee $OUT/stages.txt
