#!/usr/bin/env bash
# Twenty-first run, on the GPU machine (repository root; `.gl`, `.whl` (iree-base-runtime and
# torch-harmonics for its Python) and expx/s21 of build.sh carried), in two calls:
# `run.sh cuda`: warmup.py on the one-field CUDA modules with nvidia-smi's clock log beside
# it (warmup.txt, clocks.csv), then tools/bench.py run --targets cuda --peers (bench-cuda.txt);
# `run.sh vulkan`: `ireesht check --artifacts` of expx/s21/chk/* (check.txt), tools/bench.py
# run --targets vulkan (bench-vulkan.txt), tools/cuda_stages.py under Nsight Compute
# (cuda_stages.txt).
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl >/dev/null 2>&1 || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
[ -e /usr/share/vulkan/icd.d/nvidia_icd.json ] || export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=benchmarks/2026-12-02-h200-twentyfirst
S=expx/s21
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/devices.txt"
if [ "$1" = cuda ]; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu \
    --format=csv,noheader -lms 50 > "$OUT/clocks.csv" &
  SMI=$!
  python3 $D/warmup.py $S/bench/l{255,511,1023,2047}_b1_float32 2>&1 | tee "$OUT/warmup.txt"
  kill $SMI
  timeout 420 python3 tools/bench.py run $S/bench --peers --targets cuda --calls 50 2>&1 | tee "$OUT/bench-cuda.txt"
else
  for d in $S/chk/*; do
    batch=1; case $d in *_b16*) batch=16;; esac
    echo "== ireesht check --artifacts $d --batch $batch"
    python3 -m ireesht check --artifacts $d --batch $batch
  done 2>&1 | tee "$OUT/check.txt"
  timeout 240 python3 tools/bench.py run $S/bench --targets vulkan --calls 30 2>&1 | tee "$OUT/bench-vulkan.txt"
  ncu --csv --metrics gpu__time_duration.sum --log-file /tmp/ncu.csv \
    python3 tools/cuda_stages.py launch $S/bench > /tmp/order.json 2>/tmp/launch.err
  python3 tools/cuda_stages.py report /tmp/order.json /tmp/ncu.csv 2>&1 | tee "$OUT/cuda_stages.txt"
fi
