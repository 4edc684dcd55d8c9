#!/usr/bin/env bash
# Twentieth run, second call, on the GPU machine (repository root; `.whl`, expx/s20
# carried): fences.py on the one-field plans of prune, twice, then once with CUDA graphs
# (fences.txt); then, where the
# machine has Nsight Systems, the GPU's timeline of a run of enqueued calls at lmax 255 and
# 1023 (gaps.txt: kernel time and the idle time between kernels, per call).
set -uo pipefail
source benchmarks/2026-12-01-h200-fifteenth/ab.sh
ab_setup
F=benchmarks/2026-12-02-h200-twentieth/fences.py
{
  for round in 1 2; do PYTHONPATH=/tmp/site:$PWD python3 $F expx/s20 prune; done
  echo "== with CUDA graphs (--cuda_use_streams=false)"
  IREESHT_IREE_FLAGS=--cuda_use_streams=false PYTHONPATH=/tmp/site:$PWD python3 $F expx/s20 prune
} 2>&1 | tee $OUT/fences.txt
which nsys || exit 0
cat > /tmp/loop.py <<'PY'
import sys, numpy as np, ireesht
from ireesht.bench import device_inputs
mod = ireesht.load(sys.argv[1], "cuda")
q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
for _ in range(3):
    for _ in range(200):
        mod.synth(q_dev, out=f_out, sync=False)
    mod.synchronize()
    for _ in range(200):
        mod.analys(f_out, out=q_out, sync=False)
    mod.synchronize()
PY
for plan in l255_b1 l1023_b1; do
  PYTHONPATH=/tmp/site:$PWD nsys profile -o /tmp/n_$plan -t cuda --force-overwrite true python3 /tmp/loop.py expx/s20/prune/$plan >/dev/null 2>&1
  nsys stats -r cuda_gpu_trace -f csv -o /tmp/t_$plan /tmp/n_$plan.nsys-rep >/dev/null 2>&1
  python3 - /tmp/t_${plan}_cuda_gpu_trace.csv $plan <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r.get("Name", "").startswith("main")]
start = [int(r["Start (ns)"]) for r in rows]; dur = [int(r["Duration (ns)"]) for r in rows]
# the last run of 200 synth calls (2 kernels each) and of 200 analysis calls
for name, lo in (("synth", len(rows) - 800), ("analys", len(rows) - 400)):
    s, d = start[lo:lo + 400], dur[lo:lo + 400]
    span = (s[-1] + d[-1] - s[0]) / 200 / 1e3
    busy = sum(d) / 200 / 1e3
    gaps = sorted(s[i + 1] - s[i] - d[i] for i in range(len(s) - 1))
    print(f"{sys.argv[2]} {name}: per call {span:.1f} us on the GPU's timeline, kernels {busy:.1f} us; "
          f"gap between kernels median {gaps[len(gaps) // 2] / 1e3:.1f} us, 90th pct {gaps[int(len(gaps) * .9)] / 1e3:.1f} us")
PY
done 2>&1 | tee $OUT/gaps.txt
