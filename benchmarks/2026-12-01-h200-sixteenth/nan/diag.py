"""On the GPU machine: where the analysis of module DIR (CUDA; plan names l{L}_b{B}) gives
NaN: the orders m and degrees l of the NaN entries of q. Usage: diag.py DIR"""
import sys
import numpy as np
import ireesht
from ireesht.bench import device_inputs

mod = ireesht.load(sys.argv[1], "cuda")
batch = int(sys.argv[1].rstrip("/").split("_")[1][1:])
q, _, q_dev, f_out, q_out = device_inputs(mod, batch, np.random.default_rng(7))
mod.synth(q_dev, out=f_out)
qr = mod.to_numpy(mod.analys(f_out, out=q_out))
p = mod.plan
bad = ~np.isfinite(qr).all(axis=-1).reshape(batch, -1).all(axis=0)
ms = np.concatenate([np.full(p.lmax + 1 - m, m) for m in range(p.mmax + 1)])
ls = np.concatenate([np.arange(m, p.lmax + 1) for m in range(p.mmax + 1)])
print(sys.argv[1], "non-finite entries:", int(bad.sum()), "of", bad.size)
if bad.any():
    um = np.unique(ms[bad])
    print("  orders:", um.size, um[:20], "...", um[-5:])
    for m in um[:5]:
        sel = bad & (ms == m)
        print(f"  m={m}: l from {ls[sel].min()} to {ls[sel].max()}, {sel.sum()} entries")
