"""On the GPU machine, `mma.py time|launch DIR TAG`: each module DIR/TAG/<plan> (plan names
l{L}_b{B}...). `time`: synthesis error of fields 0, 1 and B-1 against the float64 reference,
roundtrip error, wall time (median of 30 synchronous calls) and enqueued time (runs of 300);
`launch`: three synth + analys calls per module, for Nsight Compute."""
import sys
from pathlib import Path
import numpy as np
import ireesht
from ireesht import reference
from ireesht.bench import device_inputs, median_ms, pipelined_ms

mode, root, tag = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
for path in sorted((root / tag).glob("l*_b*")):
    mod = ireesht.load(path, "cuda")
    batch = int(path.name.split("_")[1][1:])
    q, _, q_dev, f_out, q_out = device_inputs(mod, batch, np.random.default_rng(7))
    if mode == "launch":
        for _ in range(3):
            mod.synth(q_dev, out=f_out)
            mod.analys(f_out, out=q_out)
        mod.synchronize()
        continue
    f = mod.to_numpy(mod.synth(q_dev, out=f_out))
    qr = mod.to_numpy(mod.analys(f_out, out=q_out))
    rt = np.linalg.norm(qr[..., 0] + 1j * qr[..., 1] - q) / np.linalg.norm(q)
    p = mod.plan
    pick = sorted({0, min(1, batch - 1), batch - 1})
    ref = reference.synth(q[pick], p.lmax, p.mmax, p.make_grid())
    errs = [np.linalg.norm(f[b] - ref[i]) / np.linalg.norm(ref[i]) for i, b in enumerate(pick)]
    mx = max(np.abs(f[b] - ref[i]).max() / np.abs(ref[i]).max() for i, b in enumerate(pick))
    tsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
    tan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
    print(f"{tag:5s} {path.name:18s} synth err {' '.join(f'{e:.2e}' for e in errs)} max {mx:.1e}  "
          f"roundtrip {rt:.2e}  wall {tsy:.3f} / {tan:.3f} ms  enqueued {psy:.3f} / {pan:.3f} ms",
          flush=True)
