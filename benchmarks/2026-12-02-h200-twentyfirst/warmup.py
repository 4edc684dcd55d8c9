"""On the GPU machine, `warmup.py DIR...`: how the rate of enqueued calls depends on how long
the GPU has been busy. For each build directory's CUDA module (one field): after 2 s idle,
40 runs of 100 calls enqueued back to back (`synth(q, out=f, sync=False)`, then one
`synchronize()`), each run's us per call and its start since the first (s), then the same
for `analys`. The runs print at once with their wall clock (time.time()), to set beside
`nvidia-smi`'s clock log."""
import sys
import time
import numpy as np
import ireesht
from ireesht.bench import device_inputs


def series(mod, call, runs=40, n=100):
    time.sleep(2.0)
    t_start, out = time.perf_counter(), []
    print(f"   start {time.time():.3f}")
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(n):
            call()
        mod.synchronize()
        out.append((t0 - t_start, (time.perf_counter() - t0) / n * 1e6))
    first = " ".join(f"{u:.1f}" for _, u in out[:12])
    late = np.median([u for _, u in out[-10:]])
    t_late = out[-10][0]
    return f"first 12 runs {first} | median of runs 31-40 (from {t_late:.2f} s) {late:.1f}"


for d in sys.argv[1:]:
    mod = ireesht.load(d, "cuda")
    q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
    mod.synth(q_dev, out=f_out)
    mod.analys(f_out, out=q_out)
    name = f"lmax {mod.plan.lmax}"
    print(f"{name} synth us per call: " + series(mod, lambda: mod.synth(q_dev, out=f_out, sync=False)), flush=True)
    print(f"{name} analys us per call: " + series(mod, lambda: mod.analys(f_out, out=q_out, sync=False)), flush=True)
