# On the GPU machine: the committed tensor-core synthesis (expx/s17f/mma16, and mmaall: the
# same below MMA_PAIRS) against the float32 scheme (base), then `ireesht check --artifacts`
# of the lmax 1023 plan built by `ireesht build --fields-per-thread 4 --recurrence ishioka`.
export DIR=expx/s17f TAGS="base mma16 mmaall"
bash benchmarks/2026-12-01-h200-seventeenth/run.sh
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts expx/s17f/chk --batch 16 2>&1 | tee $OUT/check.txt
