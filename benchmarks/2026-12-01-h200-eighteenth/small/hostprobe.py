"""On the GPU machine, `hostprobe.py NAME...`: modules expx/kp/base/NAME (small/build.py): 300
synth calls enqueued back to back, then 300 analys, three times each: the enqueue loop's
time per call and the time per call to the end of the work."""
import sys, time
import numpy as np
import ireesht
from ireesht.bench import device_inputs
for name in sys.argv[1:]:
    mod = ireesht.load(f"expx/kp/base/{name}", "cuda")
    q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(1))
    mod.synth(q_dev, out=f_out); mod.analys(f_out, out=q_out); mod.synchronize()
    for label, call in (("synth", lambda: mod.synth(q_dev, out=f_out, sync=False)),
                        ("analys", lambda: mod.analys(f_out, out=q_out, sync=False))):
        for rep in range(3):
            t0 = time.perf_counter()
            for _ in range(300):
                call()
            t1 = time.perf_counter()
            mod.synchronize()
            t2 = time.perf_counter()
            print(f"{name} {label}: enqueue {1e3 * (t1 - t0) / 300:.4f} ms/call, total {1e3 * (t2 - t0) / 300:.4f} ms/call", flush=True)
