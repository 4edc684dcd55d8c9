"""On the GPU machine: synthesis error against the float64 reference, wall and enqueued
time per call; `launch` mode calls each module a few times for Nsight Compute; `th` times
torch-harmonics on the same grid."""
import sys
from pathlib import Path
import numpy as np

mode, root = sys.argv[1], Path(sys.argv[2])
if mode == "th":
    import importlib.util, types, torch
    spec = importlib.util.find_spec("torch_harmonics")
    pkg = types.ModuleType("torch_harmonics"); pkg.__path__ = list(spec.submodule_search_locations)
    sys.modules["torch_harmonics"] = pkg
    import torch_harmonics.sht as th
    from ireesht.bench import median_ms
    for b in (1, 16):
        dev = torch.device("cuda")
        fwd = th.RealSHT(721, 1440, lmax=721, mmax=721, grid="equiangular").to(dev)
        inv = th.InverseRealSHT(721, 1440, lmax=721, mmax=721, grid="equiangular").to(dev)
        x = torch.randn(b, 721, 1440, device=dev); c = fwd(x)
        def timed(fn):
            def run():
                fn(); torch.cuda.synchronize()
            return median_ms(run, 30)
        print(f"torch-harmonics 721x1440 lmax 720 batch {b}: synth {timed(lambda: inv(c)):.3f} ms  analys {timed(lambda: fwd(x)):.3f} ms", flush=True)
    sys.exit()
import ireesht
from ireesht.bench import device_inputs, median_ms, pipelined_ms
for path in sorted(root.glob("l*")):
    mod = ireesht.load(path, "cuda")
    batch = int(path.name.split("_")[1][1:])
    rng = np.random.default_rng(7)
    q, _, q_dev, f_out, q_out = device_inputs(mod, batch, rng)
    if mode == "launch":
        for _ in range(3):
            mod.synth(q_dev, out=f_out); mod.analys(f_out, out=q_out)
        mod.synchronize()
        continue
    f = mod._session.to_numpy(mod.synth(q_dev, out=f_out))
    err = aerr = float("nan")
    if batch == 1:
        from ireesht import reference
        g = mod.plan.make_grid()
        ref = reference.synth(q, mod.plan.lmax, mod.plan.mmax, g)
        err = np.linalg.norm(f - ref) / np.linalg.norm(ref)
        qa = mod.analys(ref.astype(mod.plan.dtype))  # the analysis alone, of the exact field
        qref = reference.analys(ref, mod.plan.lmax, mod.plan.mmax, g, exact=False)
        aerr = np.linalg.norm(qa - qref) / np.linalg.norm(qref)
    tsy = median_ms(lambda: mod.synth(q_dev, out=f_out), 30)
    tan = median_ms(lambda: mod.analys(f_out, out=q_out), 30)
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 100)
    print(f"{path.name:16s} synth err {err:.2e}  analys err {aerr:.2e}  wall {tsy:.3f} / {tan:.3f} ms  enqueued {psy:.3f} / {pan:.3f} ms  {mod.info['variants']}", flush=True)
