"""On the GPU machine: per variant module, synthesis against the base variant of the same
(lmax, batch), the roundtrip error, and the wall time of synth / analys (median of 30)."""
import sys
from pathlib import Path
import numpy as np
import ireesht
from ireesht import artifacts
from ireesht.bench import device_inputs, median_ms

root = Path(sys.argv[1])
base = {}
refs = {}
for path in sorted(root.glob("l*_b*_*"), key=lambda p: ("base" not in p.name, p.name)):
    L, B = path.name.split("_")[:2]
    mod = ireesht.load(path, "cuda")
    batch = int(B[1:])
    rng = np.random.default_rng(7)
    q, _, q_dev, f_out, q_out = device_inputs(mod, batch, rng)
    f = mod._session.to_numpy(mod.synth(q_dev, out=f_out))
    qr = mod._session.to_numpy(mod.analys(f_out, out=q_out))
    qc = qr[..., 0] + 1j * qr[..., 1]
    rt = np.linalg.norm(qc - q) / np.linalg.norm(q)
    key = (L, B, path.name[-2:])
    if "base" in path.name or key not in base:
        base[key] = f
    if batch == 1 and key not in refs:
        from ireesht import reference
        refs[key] = reference.synth(q, mod.plan.lmax, mod.plan.mmax, mod.plan.make_grid())
    ref = np.linalg.norm(f - refs[key]) / np.linalg.norm(refs[key]) if key in refs else float("nan")
    vs = np.linalg.norm(f - base[key]) / np.linalg.norm(base[key])
    from ireesht.bench import pipelined_ms
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
    tsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
    tan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
    print(f"{path.name:22s} vs base {vs:.1e}  synth err {ref:.2e}  roundtrip {rt:.2e}  synth {tsy:.3f} ms  analys {tan:.3f} ms  enqueued {psy:.3f} / {pan:.3f} ms  {mod.info['variants']['recurrence']}", flush=True)
