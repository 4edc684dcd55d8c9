"""On the GPU machine, `ab.py time|launch DIR TAG BASE [VARIANTS]`: each module DIR/TAG/<plan>
(plan names l{L}_b{B}[...]; VARIANTS: a module on sys.path whose apply(TAG) patches the
package first). `time`: synthesis error against the float64 reference (one field; cached in
/tmp across processes), against the BASE variant's synthesis (saved there by its first run),
roundtrip error (where the grid is exact), wall time (median of 30 synchronous calls) and
enqueued time (runs of 300); `launch`: three synth + analys calls per module, for Nsight
Compute."""
import importlib
import sys
from pathlib import Path
import numpy as np
import ireesht
from ireesht import reference
from ireesht.bench import device_inputs, median_ms, pipelined_ms


def measured(mode, root, tag):
    """Each module root/tag/<plan> with its fresh inputs (seed 7): for mode "launch" three
    synth + analys calls each, nothing yielded; else (path, mod, batch, q, f, rt, buffers)
    after one synth and analys, rt their roundtrip error and buffers (q_dev, f_out, q_out)."""
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
        yield path, mod, batch, q, f, rt, (q_dev, f_out, q_out)


def timed(mod, buffers):
    """The timing columns: wall synth / analys (median of 30 synchronous calls), enqueued
    (runs of 300)."""
    q_dev, f_out, q_out = buffers
    tsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
    tan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
    return f"wall {tsy:.3f} / {tan:.3f} ms  enqueued {psy:.3f} / {pan:.3f} ms"


def main():
    mode, root, tag, base = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    if len(sys.argv) > 5:
        importlib.import_module(sys.argv[5]).apply(tag)
    for path, mod, batch, q, f, rt, buffers in measured(mode, root, tag):
        err = float("nan")
        if batch == 1:
            cache = Path(f"/tmp/ref_{path.name}.npy")
            if not cache.exists():
                p = mod.plan
                np.save(cache, reference.synth(q, p.lmax, p.mmax, p.make_grid()))
            ref = np.load(cache)
            err = np.linalg.norm(f - ref) / np.linalg.norm(ref)
        saved = Path(f"/tmp/base_{path.name}.npy")
        if tag == base and not saved.exists():
            np.save(saved, f)
        vs = np.linalg.norm(f - np.load(saved)) / np.linalg.norm(f) if saved.exists() else float("nan")
        print(f"{tag:5s} {path.name:14s} synth err {err:.2e}  vs {base} {vs:.1e}  roundtrip {rt:.2e}  "
              f"{timed(mod, buffers)}", flush=True)


if __name__ == "__main__":
    main()
