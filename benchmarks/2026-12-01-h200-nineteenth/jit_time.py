"""Here, on the 2-core machine (no GPU): `MESA_SHADER_CACHE_DISABLE=true PYTHONPATH=<tree>
python jit_time.py`: the build of the Vulkan MLIR-family module of lmax 63 and 255
(`ireesht.compile`, no cache) and its first synthesis on lavapipe, which creates the
pipelines, then a second; the synthesis error against the float64 reference."""
import time
import numpy as np
import ireesht
from ireesht import reference
from ireesht.layout import nlm

for lmax in (63, 255):
    t0 = time.time()
    m = ireesht.compile(lmax, target="vulkan", kernels="mlir", use_cache=False)
    t1 = time.time()
    rng = np.random.default_rng(0)
    q = rng.standard_normal(nlm(lmax, lmax)) + 1j * rng.standard_normal(nlm(lmax, lmax))
    q[: lmax + 1] = q[: lmax + 1].real
    f = m.synth(q)
    t2 = time.time()
    m.synth(q)
    t3 = time.time()
    ref = reference.synth(q, lmax, lmax, m.plan.make_grid())
    print(lmax, "compile", round(t1 - t0, 1), "first", round(t2 - t1, 2), "second",
          round(t3 - t2, 3), "err", np.linalg.norm(f - ref) / np.linalg.norm(ref))
