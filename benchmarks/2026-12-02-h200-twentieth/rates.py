"""On the GPU machine, `rates.py DIR...`: for each artifact directory of `ireesht build`
and each (target, kernels) module in it, the enqueued rate (runs of 300 calls, median of 5
after a warm-up run) and the time of a call that waits for its result (median of 30), one
field, float data on the device, with the synthesis error against the float64 reference."""
import sys
import numpy as np
import ireesht
from ireesht import artifacts, reference
from ireesht.bench import device_inputs, median_ms, pipelined_ms

for d in sys.argv[1:]:
    for e in artifacts.read_manifest(d)["artifacts"]:
        target, kernels = e["plan"]["target"], e["plan"]["kernels"]
        mod = ireesht.load(d, target, kernels=kernels)
        q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
        p = mod.plan
        f = mod.to_numpy(mod.synth(q_dev, out=f_out))
        ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
        err = np.linalg.norm(f - ref) / np.linalg.norm(ref)
        wsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
        wan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
        psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
        print(f"{d:24s} {target:6s} {kernels:4s} {p.dtype} lmax {p.lmax} {p.nlat}x{p.nphi}: "
              f"synth err {err:.1e}; waited {wsy:.3f} / {wan:.3f} ms, enqueued {psy:.3f} / "
              f"{pan:.3f} ms  [{mod.info['device']}]", flush=True)
