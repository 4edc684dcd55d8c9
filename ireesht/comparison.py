"""Runtime comparison: the same fresh inputs through every backend and kernel variant
available here, each result against the float64 reference and against the others.

This is how a user catches a driver that miscompiles a kernel: results that disagree
with the reference, or with another path on the same machine, fail the check.
"""

from __future__ import annotations

import time

import numpy as np

from ireesht import registry
from ireesht.api import load_plan
from ireesht.geometry import MMA_FIELDS
from ireesht.numerics import reference, vector_reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.plan import Plan
from ireesht.registry import TARGETS
from ireesht.runtime import artifacts
from ireesht.runtime import device as runtime
from ireesht.runtime.module import load_entry
from ireesht.validate import check_int

# float32 transforms: a few 1e-6 up to lmax ~1000 on GPUs, twice that on lavapipe (its fma
# is not fused); float64 about 1e-13. An order of magnitude above that is a wrong result,
# not rounding.
TOLERANCE = {"float32": 2e-5, "float64": 1e-10}


def _paths(dtype: str) -> list[tuple[str, str, dict]]:
    """(target, kernel family, ``compile`` options) of every path this machine can run: each
    target with a device here, each of its families that runs ``dtype``; the WGSL family with
    both analysis reductions; the MLIR family and the C family's float32 plans with the other
    recurrences, and on CUDA the batch plans (lane sums; "auto": on tensor cores where the grid allows)."""
    drivers = runtime.available_drivers()
    found = []
    for target in TARGETS.values():
        if target.driver not in drivers or dtype not in target.dtypes:
            continue
        for family in target.families:
            if not any(dtype in v.dtypes and target.name in v.targets
                       for v in registry.candidates(family, "leg_synth")):
                continue
            found.append((target.name, family, {}))
            if family == "wgsl":
                found.append((target.name, family, {"variants": {"leg_analys": "tree"}}))
            if family == "mlir" and target.name == "cuda":
                found.append((target.name, family, {"fields_per_thread": 4,
                                                    "recurrence": "standard"}))
                found.append((target.name, family, {"fields_per_thread": 4}))
            if family == "mlir" and target.name in ("cuda", "vulkan"):
                # the recurrence auto does not take (the one that is auto's plan on the
                # grid is not run twice)
                others = ("standard",) if target.name == "cuda" else ("standard", "ishioka")
                found += [(target.name, family, {"recurrence": r}) for r in others]
            if family == "c" and dtype == "float32":  # the float32 kernels, not the default
                found.append((target.name, family, {"recurrence": "standard"}))
    return found


def _modules(lmax: int, grid: str, dtype: str, artifacts_dir: str | None, sizes: dict,
             paths: list | None = None, transform: str = "scalar"):
    """(target, family, module) of every path: compiled here (``sizes``: mmax, nlat, nphi,
    None for the grid's defaults), or the runnable modules of an artifact directory
    (``ireesht build``)."""
    if artifacts_dir is not None:
        manifest = artifacts.read_manifest(artifacts_dir)
        for e in artifacts.runnable(manifest["artifacts"], runtime.available_drivers()):
            yield e["target"], e["kernels"], load_entry(manifest, e)
        return
    seen = set()
    for target, family, options in (_paths(dtype) if paths is None else paths):
        plan = Plan.create(lmax, grid=grid, target=target, dtype=dtype, kernels=family,
                           transform=transform, **sizes, **options)
        if plan in seen:  # two paths that are one plan on this grid
            continue
        seen.add(plan)
        try:
            yield target, family, load_plan(plan, use_cache=True)
        except runtime.ExecutableLoadError as e:  # e.g. no subgroup arithmetic here
            print(f"skipped {target}/{family} {options}: {str(e).splitlines()[0][:120]}")


def _group(mod) -> int:
    """Fields per group of a synthesis that takes whole groups on tensor cores, else 0."""
    return MMA_FIELDS if mod.plan.variant_names["leg_synth"] == "tensor_cores" else 0


def check(lmax: int = 127, batch: int = 2, grid: str = "gauss", verbose: bool = True,
          artifacts: str | None = None, dtype: str = "float32", *, mmax: int | None = None,
          nlat: int | None = None, nphi: int | None = None,
          paths: list[tuple[str, str, dict]] | None = None,
          transform: str = "scalar") -> list[dict]:
    """Run synth and analys on every available path; print and return one row per path.

    The paths are every target with a device here and each of its kernel families and
    analysis reductions, compiled for ``lmax``, ``grid``, ``dtype`` and the grid's sizes
    (``mmax``, ``nlat``, ``nphi``; None: the defaults, as ``compile``); or, with
    ``artifacts`` (a directory from ``ireesht build``), each module there that this machine
    can run; or only ``paths``, ``(target, family, compile options)`` each.
    Each row has target, family, variant, device, relative L2 and max errors of synthesis
    against the reference, the larger relative L2 difference of synthesis and analysis
    against the first path, the roundtrip error (against the coefficients; on a grid whose
    quadrature is not exact for ``lmax``, such as 721 x 1440 at lmax 720, against the float64
    reference's own roundtrip), the times, and ``ok`` (all within ``TOLERANCE[dtype]``).
    A path whose synthesis takes whole groups of 16 fields on tensor cores (and the fields
    past them on CUDA cores) also synthesises the ``batch`` fields repeated to 16 + batch,
    so that both kernels are checked (its errors the larger of the two calls').
    ``transform="vector"`` checks ``vsynth`` / ``vanalys`` the same way (against
    ``numerics.vector_reference``: O(lmax^3) on the host, keep lmax modest); an
    artifact directory's modules are checked with their own plans' transform.
    Raises RuntimeError when no path is available.
    """
    batch = check_int("batch", batch, minimum=1)
    # first: the first path's (synth, analys); q_ref: what the roundtrip should give
    rows, first, q, f_ref, q_ref = [], None, None, None, None
    rng = np.random.default_rng()
    sizes = dict(mmax=mmax, nlat=nlat, nphi=nphi)
    for target, family, mod in _modules(lmax, grid, dtype, artifacts, sizes, paths, transform):
        p = mod.plan
        vector = p.transform == "vector"
        synth, analys = (mod.vsynth, mod.vanalys) if vector else (mod.synth, mod.analys)
        if q is None:
            L, g = p.band_lmax, p.make_grid()
            if vector:
                q = np.stack([random_coefficients(rng, L, p.mmax, (batch,))
                              for _ in range(2)], axis=1)
                q[..., 0] = 0.0  # l = 0 carries no vector field
                f_ref = vector_reference.vsynth(q, L, p.mmax, g)
                q_ref = q if p.exact else vector_reference.vanalys(f_ref, L, p.mmax, g,
                                                                   exact=False)
            else:
                q = random_coefficients(rng, L, p.mmax, (batch,), nphi=p.nphi)
                f_ref = reference.synth(q, L, p.mmax, g)
                q_ref = q if p.exact else reference.analys(f_ref, L, p.mmax, g, exact=False)
        t0 = time.perf_counter()
        f = synth(q)
        t1 = time.perf_counter()
        q2 = analys(f)
        t2 = time.perf_counter()
        first = (f, q2) if first is None else first
        group = _group(mod)
        fields = np.arange(group + batch) % batch  # the batch, after a group of it
        f_all, f_all_ref = (synth(q[fields]), f_ref[fields]) if group else (f, f_ref)
        variant = p.describe()
        row = dict(
            target=target, family=family, variant=variant, dtype=p.dtype,
            device=mod.info["device"], lmax=p.band_lmax, transform=p.transform,
            synth_rel_l2=max(rel_l2(f, f_ref), rel_l2(f_all, f_all_ref)),
            synth_max=float(max(np.abs(f - f_ref).max(), np.abs(f_all - f_all_ref).max())
                            / np.abs(f_ref).max()),
            vs_first=max(rel_l2(f, first[0]), rel_l2(q2, first[1])),
            roundtrip_rel_l2=rel_l2(q2, q_ref),
            synth_ms=1e3 * (t1 - t0), analys_ms=1e3 * (t2 - t1),
        )
        row["ok"] = (max(row["synth_rel_l2"], row["vs_first"], row["roundtrip_rel_l2"])
                     <= TOLERANCE[p.dtype])
        rows.append(row)
    if not rows:
        raise RuntimeError(f"no backend to check: drivers with a device here: "
                           f"{runtime.available_drivers()}")
    if verbose:
        print("| target | family | variant | device | dtype | lmax | synth rel L2 / max "
              "| vs first | roundtrip rel L2 | synth / analys ms | ok |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['target']} | {r['family']} | {r['variant']} | {r['device']} "
                  f"| {r['dtype']} | {r['lmax']} "
                  f"| {r['synth_rel_l2']:.1e} / {r['synth_max']:.1e} | {r['vs_first']:.1e} "
                  f"| {r['roundtrip_rel_l2']:.1e} | {r['synth_ms']:.1f} / {r['analys_ms']:.1f} "
                  f"| {'yes' if r['ok'] else 'NO'} |")
    return rows
