"""Timing helpers for ``ireesht bench`` and tools/bench.py: medians of synchronous calls,
and of calls enqueued back to back."""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from ireesht import api
from ireesht.numerics.reference import random_coefficients


def median_ms(fn, n: int, warmup: bool = True, clock=time.perf_counter) -> float:
    """Median wall time of ``n`` calls of ``fn()`` in ms (after one warm-up call: pipeline
    creation and first allocations are not what a user pays per call); with ``clock=
    time.process_time`` the CPU time of all the process's threads instead, which other
    load on a shared machine disturbs far less."""
    if warmup:
        fn()
    times = []
    for _ in range(n):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return 1e3 * float(np.median(times))


def functions(mod) -> tuple[str, str]:
    """The synthesis and analysis of a module's plan: ``synth``, ``analys`` or, for vector
    plans, ``vsynth``, ``vanalys``."""
    return ("vsynth", "vanalys") if mod.plan.transform == "vector" else ("synth", "analys")


def pipelined_ms(mod, q_dev, f_out, q_out, n: int, rounds: int = 5) -> tuple[float, float]:
    """Time per call in ms of ``n`` calls made back to back with ``sync=False``, then one
    ``synchronize()``: the rate of a loop of calls whose results stay on the device (the
    host's cost per call overlaps the device's work). Median over ``rounds``, after one
    warm-up round; ``(synth, analys)`` of module ``mod`` on ``q_dev`` into ``f_out``, and on
    ``f_out`` into ``q_out``."""
    def rate(enqueue) -> float:
        times = []
        for r in range(rounds + 1):
            t0 = time.perf_counter()
            for _ in range(n):
                enqueue()
            mod.synchronize()
            if r:
                times.append((time.perf_counter() - t0) / n)
        return 1e3 * float(np.median(times))

    synth, analys = (getattr(mod, name) for name in functions(mod))
    return (rate(lambda: synth(q_dev, out=f_out, sync=False)),
            rate(lambda: analys(f_out, out=q_out, sync=False)))


class DeviceInputs(NamedTuple):
    """What a timed call needs, made once: ``q`` (B, nlm) complex coefficients, ``q_host``
    (B, nlm, 2) the same interleaved in the plan's dtype, ``q_dev`` its device copy, and the
    kept result buffers ``f_out`` (B, nlat, nphi) and ``q_out`` (B, nlm, 2); for vector
    plans (B, 2, ...) each (S and T; u_theta and u_phi)."""

    q: np.ndarray
    q_host: np.ndarray
    q_dev: object
    f_out: object
    q_out: object


def device_inputs(mod, batch: int, rng: np.random.Generator | None = None) -> DeviceInputs:
    """Fresh random coefficients for module ``mod`` and device buffers to time it with."""
    p, real = mod.plan, np.dtype(mod.plan.dtype)
    rng = np.random.default_rng() if rng is None else rng
    _, coef, _, field, _ = mod.signature(functions(mod)[0])
    q = random_coefficients(rng, p.band_lmax, p.mmax, (batch, *coef[:-1]), nphi=p.nphi)
    if p.transform == "vector":
        q[..., 0] = 0.0  # l = 0 carries no vector field: the roundtrip returns 0 there
    q_host = q.astype(np.result_type(real, np.complex64)).view(real).reshape(batch, *coef, 2)
    return DeviceInputs(q, q_host, mod.upload(q_host), mod.empty((batch, *field)),
                        mod.empty((batch, *coef, 2)))


def bench_plan(lmax: int, target: str, batch: int, repeat: int, grid: str = "gauss",
               dtype: str = "float32", *, mmax: int | None = None, nlat: int | None = None,
               nphi: int | None = None, fields_per_thread: int | None = None,
               recurrence: str = "auto") -> dict:
    """Time one plan on one target: synth / analys on device-resident arrays written into
    kept buffers (results stay on the device; each call waits for its result, or calls
    enqueued back to back, ``pipelined_ms``), and with numpy in and out. ``fields_per_thread``
    (None: 4 from 8 fields per call, else 1) and ``recurrence`` go to ``ireesht.compile``.
    Returns the medians in ms with the device, kernel family (", tensor cores" where those
    run) and grid (``nlat x nphi``)."""
    if fields_per_thread is None:
        fields_per_thread = 4 if batch >= 8 else 1
    mod = api.compile(lmax, mmax, nlat, nphi, grid=grid, target=target, dtype=dtype,
                          fields_per_thread=fields_per_thread, recurrence=recurrence)
    q, _, q_dev, f_out, q_out = device_inputs(mod, batch)
    f_dev = mod.synth(q_dev, out=f_out)
    f = mod.to_numpy(f_dev)
    tensor = "tensor_cores" in mod.info["variants"].values()
    r = dict(
        kernels=mod.info["kernels"] + (", tensor cores" if tensor else ""),
        device=mod.info["device"],
        grid=f"{mod.plan.nlat} x {mod.plan.nphi}",
        synth_ms=median_ms(lambda: mod.synth(q_dev, out=f_out), repeat),
        analys_ms=median_ms(lambda: mod.analys(f_dev, out=q_out), repeat),
    )
    r["synth_pipelined_ms"], r["analys_pipelined_ms"] = pipelined_ms(mod, q_dev, f_out, q_out,
                                                                     repeat)
    return dict(r, synth_numpy_ms=median_ms(lambda: mod.synth(q), repeat),
                analys_numpy_ms=median_ms(lambda: mod.analys(f), repeat))
