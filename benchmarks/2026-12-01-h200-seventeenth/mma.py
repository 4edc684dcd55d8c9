"""On the GPU machine, `mma.py time|launch DIR TAG`: each module DIR/TAG/<plan> (plan names
l{L}_b{B}...). `time`: synthesis error of fields 0, 1 and B-1 against the float64 reference,
roundtrip error, wall time (median of 30 synchronous calls) and enqueued time (runs of 300);
`launch`: three synth + analys calls per module, for Nsight Compute."""
import sys
from pathlib import Path
import numpy as np
from ireesht import reference

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-01-h200-fifteenth"))
from ab import measured, timed  # noqa: E402

mode, root, tag = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
for path, mod, batch, q, f, rt, buffers in measured(mode, root, tag):
    p = mod.plan
    pick = sorted({0, min(1, batch - 1), batch - 1})
    ref = reference.synth(q[pick], p.lmax, p.mmax, p.make_grid())
    errs = [np.linalg.norm(f[b] - ref[i]) / np.linalg.norm(ref[i]) for i, b in enumerate(pick)]
    mx = max(np.abs(f[b] - ref[i]).max() / np.abs(ref[i]).max() for i, b in enumerate(pick))
    print(f"{tag:5s} {path.name:18s} synth err {' '.join(f'{e:.2e}' for e in errs)} max {mx:.1e}  "
          f"roundtrip {rt:.2e}  {timed(mod, buffers)}", flush=True)
