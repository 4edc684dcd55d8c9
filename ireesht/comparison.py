"""Runtime comparison: the same fresh inputs through every backend and kernel variant
available here, each result against the float64 reference and against the others.

This is how a user catches a driver that miscompiles a kernel: results that disagree
with the reference, or with another path on the same machine, fail the check.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from ireesht import reference, runtime
from ireesht.plan import Plan

# float32 transforms: a few 1e-6 up to lmax ~1000 on GPUs, twice that on lavapipe (its fma
# is not fused); an order of magnitude above that is a wrong result, not rounding
TOLERANCE = 2e-5


def _paths() -> list[tuple[str, str, dict]]:
    """(target, kernel family, plan overrides) for every path this machine can run."""
    found = []
    if "vulkan" in runtime.available_drivers():
        found.append(("vulkan", "wgsl", {"subgroups": True}))
        found.append(("vulkan", "wgsl", {"subgroups": False}))
    return found


def check(lmax: int = 127, batch: int = 2, grid: str = "gauss", verbose: bool = True) -> list[dict]:
    """Run synth and analys on every available path; print and return one row per path.

    Each row has target, family, variant, device, relative L2 and max errors of synthesis
    against the reference, the larger relative L2 difference of synthesis and analysis
    against the first path, the roundtrip error, the times, and ``ok`` (all within
    TOLERANCE). Raises RuntimeError when no path is available.
    """
    from ireesht.cli import random_coefficients, rel_l2
    from ireesht.module import _build

    paths = _paths()
    if not paths:
        raise RuntimeError(f"no backend to check: drivers with a device here: "
                           f"{runtime.available_drivers()}")
    base = Plan.create(lmax, grid=grid)
    q = random_coefficients(np.random.default_rng(), lmax, lmax, (batch,))
    f_ref = reference.synth(q, lmax, lmax, base.make_grid())
    rows, first = [], None  # the first path's (synthesis, analysis)
    for target, family, overrides in paths:
        mod = _build(dataclasses.replace(base, target=target, **overrides), use_cache=True)
        t0 = time.perf_counter()
        f = mod.synth(q)
        t1 = time.perf_counter()
        q2 = mod.analys(f)
        t2 = time.perf_counter()
        first = (f, q2) if first is None else first
        row = dict(
            target=target, family=family, variant=mod.info["variants"]["analysis_reduction"],
            device=mod.info["device"], lmax=lmax,
            synth_rel_l2=rel_l2(f, f_ref),
            synth_max=float(np.abs(f - f_ref).max() / np.abs(f_ref).max()),
            vs_first=max(rel_l2(f, first[0]), rel_l2(q2, first[1])),
            roundtrip_rel_l2=rel_l2(q2, q),
            synth_ms=1e3 * (t1 - t0), analys_ms=1e3 * (t2 - t1),
        )
        row["ok"] = max(row["synth_rel_l2"], row["vs_first"], row["roundtrip_rel_l2"]) <= TOLERANCE
        rows.append(row)
    if verbose:
        print("| target | family | analysis | device | lmax | synth rel L2 / max | vs first "
              "| roundtrip rel L2 | synth / analys ms | ok |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['target']} | {r['family']} | {r['variant']} | {r['device']} | {r['lmax']} "
                  f"| {r['synth_rel_l2']:.1e} / {r['synth_max']:.1e} | {r['vs_first']:.1e} "
                  f"| {r['roundtrip_rel_l2']:.1e} | {r['synth_ms']:.1f} / {r['analys_ms']:.1f} "
                  f"| {'yes' if r['ok'] else 'NO'} |")
    return rows
