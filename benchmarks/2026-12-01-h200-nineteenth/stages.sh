# On the GPU machine (repository root): Nsight Compute per launch of the modules in
# $DIR/<tag> for each tag of $TAGS (default expx/s19; base fuse noglob) into stages.txt.
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
A=benchmarks/2026-12-01-h200-eighteenth/anal.py
ab_setup
for tag in ${TAGS:-base fuse noglob}; do
  echo "== $tag: Nsight Compute per launch: id, kernel, grid, block, time, registers"
  PYTHONPATH=/tmp/site:$PWD ncu_launches $A launch ${DIR:-expx/s19} $tag
done 2>&1 | tee $OUT/stages.txt
