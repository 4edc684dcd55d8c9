"""On the GPU machine, `run.py time|launch DIR TAG`: each module DIR/TAG/l*_b1 (variants.py
applied first): synthesis error against the float64 reference (cached in /tmp across
processes), against the `old` module's synthesis (saved there by its first run), roundtrip
error, wall time (median of 30 synchronous calls) and enqueued time (runs of 300);
`launch`: three synth + analys calls per module, for Nsight Compute."""
import sys
from pathlib import Path
import numpy as np
import ireesht
from ireesht import reference
from ireesht.bench import device_inputs, median_ms, pipelined_ms
from variants import apply

mode, root, tag = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
apply(tag)
for path in sorted((root / tag).glob("l*_b1")):
    mod = ireesht.load(path, "cuda")
    q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
    if mode == "launch":
        for _ in range(3):
            mod.synth(q_dev, out=f_out)
            mod.analys(f_out, out=q_out)
        mod.synchronize()
        continue
    f = mod.to_numpy(mod.synth(q_dev, out=f_out))
    qr = mod.to_numpy(mod.analys(f_out, out=q_out))
    rt = np.linalg.norm(qr[..., 0] + 1j * qr[..., 1] - q) / np.linalg.norm(q)
    cache = Path(f"/tmp/ref_{path.name}.npy")
    if not cache.exists():
        np.save(cache, reference.synth(q, mod.plan.lmax, mod.plan.mmax, mod.plan.make_grid()))
    ref = np.load(cache)
    old = Path(f"/tmp/old_{path.name}.npy")
    if tag == "old" and not old.exists():
        np.save(old, f)
    vs = np.linalg.norm(f - np.load(old)) / np.linalg.norm(ref) if old.exists() else float("nan")
    err = np.linalg.norm(f - ref) / np.linalg.norm(ref)
    tsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
    tan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
    print(f"{tag:5s} {path.name:9s} synth err {err:.2e}  vs old {vs:.1e}  roundtrip {rt:.2e}  "
          f"wall {tsy:.3f} / {tan:.3f} ms  enqueued {psy:.3f} / {pan:.3f} ms", flush=True)
