#!/usr/bin/env bash
# On the GPU machine (device tool, `.whl` and `expx` carried: expx/proto/l1023.npz from
# make_data.py, expx/b7/final the committed package's modules): proto.py at lmax 1023
# (error and CUDA-event time) and 2047 (time), each under Nsight Compute too, with the
# committed analysis in the same run (proto-ncu.txt was kept as one line per metric).
set -uo pipefail
. benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
export PYTHONPATH=/tmp/site:$PWD
D=benchmarks/2026-12-01-h200-sixteenth/ishioka-pairs
{ python3 $D/proto.py 1023 expx/proto/l1023.npz; python3 $D/proto.py 2047; } 2>&1 | tee $OUT/proto.txt
for L in 1023 2047; do
  echo "== proto $L: Nsight Compute, first three launches"
  ncu --csv -k proto --launch-count 3 --metrics gpu__time_duration.sum,launch__registers_per_thread \
    python3 $D/proto.py $L 2>/dev/null | grep -i "duration\|registers_per"
done 2>&1 | tee $OUT/proto-ncu.txt
ab_stages final $PWD expx/b7 final 2>&1 | tee $OUT/stages.txt
