# On the GPU machine (repository root): the final A/B (run.sh on expx/s18f, tags base and
# mma), then `ireesht check --artifacts` of the tensor-core plan at lmax 1023 with 16 fields
# (built here: ireesht build --lmax 1023 --targets cuda --fields-per-thread 4 --recurrence
# ishioka --out expx/chk).
DIR=expx/s18f TAGS="base mma" bash benchmarks/2026-12-01-h200-eighteenth/run.sh
PYTHONPATH=/tmp/site:$PWD python3 -m ireesht check --artifacts expx/chk --batch 16 2>&1 | tee $OUT/check.txt
