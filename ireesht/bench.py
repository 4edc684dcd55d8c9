"""Timing helpers for ``ireesht bench`` and tools/bench.py: medians of synchronous calls."""

from __future__ import annotations

import time

import numpy as np


def median_ms(fn, n: int, warmup: bool = True) -> float:
    """Median wall time of ``n`` calls of ``fn()`` in ms (after one warm-up call: pipeline
    creation and first allocations are not what a user pays per call)."""
    if warmup:
        fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def bench_plan(lmax: int, target: str, batch: int, repeat: int, grid: str = "gauss",
               dtype: str = "float32") -> dict:
    """Time one plan on one target: synth / analys on device-resident arrays written into
    kept buffers (results stay on the device; each call waits for its result), and with
    numpy in and out. Returns the medians in ms with the device and kernel family."""
    import ireesht
    from ireesht.cli import random_coefficients

    mod = ireesht.compile(lmax, grid=grid, target=target, dtype=dtype,
                          fields_per_thread=4 if batch >= 8 else 1)
    p, session, real = mod.plan, mod._session, np.dtype(dtype)
    q = random_coefficients(np.random.default_rng(), p.lmax, p.mmax, (batch,))
    q_dev = session.upload(q.astype(np.result_type(real, np.complex64)).view(real)
                           .reshape(batch, p.nlm, 2))
    f_out = session.empty((batch, p.nlat, p.nphi), real)
    q_out = session.empty((batch, p.nlm, 2), real)
    f_dev = mod.synth(q_dev, out=f_out)
    f = session.to_numpy(f_dev)
    return dict(
        kernels=mod.info["kernels"], device=mod.info["device"],
        synth_ms=median_ms(lambda: mod.synth(q_dev, out=f_out), repeat),
        analys_ms=median_ms(lambda: mod.analys(f_dev, out=q_out), repeat),
        synth_numpy_ms=median_ms(lambda: mod.synth(q), repeat),
        analys_numpy_ms=median_ms(lambda: mod.analys(f), repeat),
    )
