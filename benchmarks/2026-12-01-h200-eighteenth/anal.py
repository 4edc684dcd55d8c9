"""On the GPU machine, `anal.py time|launch DIR TAG`: each module DIR/TAG/<plan> (plan names
l{L}_b{B}...). `time`: for fields 0, 1 and B-1, the synthesis error against the float64
reference and the analysis error of the device's own field against the float64 reference's
analysis of it (relative L2; max relative to the largest value), the roundtrip error of
all fields, wall time (median of 30 synchronous calls) and enqueued time (runs of 300);
`launch`: three synth + analys calls per module, for Nsight Compute."""
import sys
from pathlib import Path
import numpy as np
from ireesht import reference

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-01-h200-fifteenth"))
from ab import measured, timed  # noqa: E402


def errors(got, ref):
    l2 = [np.linalg.norm(g - r) / np.linalg.norm(r) for g, r in zip(got, ref)]
    mx = max(np.abs(g - r).max() / np.abs(r).max() for g, r in zip(got, ref))
    return f"{' '.join(f'{e:.2e}' for e in l2)} max {mx:.1e}"


mode, root, tag = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
for path, mod, batch, q, f, rt, buffers in measured(mode, root, tag):
    p = mod.plan
    pick = sorted({0, min(1, batch - 1), batch - 1})
    grid = p.make_grid()
    fref = reference.synth(q[pick], p.lmax, p.mmax, grid)
    q_dev, f_out, q_out = buffers
    qa = mod.to_numpy(q_out)
    qa = qa[..., 0] + 1j * qa[..., 1]
    qref = reference.analys(f[pick].astype(np.float64), p.lmax, p.mmax, grid, exact=False)
    print(f"{tag:5s} {path.name:18s} {mod.info['variants'].get('synthesis_sums', '-')} / "
          f"{mod.info['variants']['analysis_reduction']}\n"
          f"      synth err {errors(f[pick], fref)}  analys err {errors(qa[pick], qref)}  "
          f"roundtrip {rt:.2e}  {timed(mod, buffers)}", flush=True)
