#!/usr/bin/env bash
# On the GPU machine: expx/g720m holds the CUDA module of 721 x 1440 at lmax 720 (mmax 719,
# equiangular), built here with ireesht.build(..., targets=("cuda",)).
set -uo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONUNBUFFERED=1
. benchmarks/2026-12-01-h200-fourteenth/ab.sh
{ PYTHONPATH=/tmp/site:$PWD python3 $R time expx/g720m; stages /tmp/site:$PWD expx/g720m; } 2>&1 | tee $OUT/scalar-stores.txt
