"""The public entry points that compile: ``compile`` (one plan, here, cached on disk) and
``build`` (one plan for several targets, into an artifact directory). ``load`` needs no
compiler and lives in ``ireesht.runtime.module``."""

from __future__ import annotations

import hashlib
import os
import time
import warnings
from collections.abc import Mapping
from pathlib import Path

from ireesht.codegen import module as codegen
from ireesht.host import CPU_BASELINES
from ireesht.numerics import fourier
from ireesht.plan import Plan
from ireesht.registry import TARGETS, VARIANTS
from ireesht.runtime import artifacts, cache
from ireesht.runtime import device as rtmod
from ireesht.runtime.module import Module, PerformanceWarning, _caller_level
from ireesht.validate import check_choice


def compile(
    lmax: int,
    mmax: int | None = None,
    nlat: int | None = None,
    nphi: int | None = None,
    grid: str = "gauss",
    target: str = "auto",
    dtype: str = "float32",
    *,
    kernels: str = "auto",
    fields_per_thread: int = 1,
    recurrence: str = "auto",
    variants: Mapping | None = None,
    norm: str = "ortho",
    csphase: bool = True,
    use_cache: bool = True,
    device: int | str | None = None,
    transform: str = "scalar",
) -> Module:
    """Build (or fetch from the disk cache) the module of one transform plan.

    Parameters
    ----------
    lmax : band limit, >= 0
    mmax : highest order, <= lmax (default lmax)
    nlat, nphi : grid size (defaults: Gauss nlat = lmax+1, nphi = 2 (lmax+1); equiangular
        2 lmax + 1 and 4 lmax; Fejer lmax + 1 and 2 (lmax + 1))
    grid : "gauss" (Gauss-Legendre), "equiangular" (both poles, Clenshaw-Curtis weights) or
        "fejer" (rings at pi (i + 1/2) / nlat, no poles, Fejer's first rule: ducc0's "F1");
        analysis is exact up to lmax nlat - 1 (Gauss, Fejer) and nlat - 2 (equiangular)
    target : "auto" (CUDA if there is a CUDA GPU, else a Vulkan GPU, else Metal, else the
        CPU), "cuda", "vulkan", "metal" or "cpu"
    dtype : "float32" or "float64" (not on Metal, nor with the WGSL kernels)
    kernels : kernel family: "auto" (the target's first: "mlir" on GPUs, "c" on the CPU) or
        one of the target's (``ireesht.registry.TARGETS``: "wgsl" on Vulkan too)
    fields_per_thread : fields sharing one Legendre recurrence on GPUs (1, 2 or 4): 4 for
        batches of many fields (CUDA: 1.2-2.1x faster at 16 fields, float32 recurrence), 1
        for single fields and for ducc0's float32 accuracy (float64 recurrence)
    recurrence : "auto" (the registry's choice: "ishioka" with one field per thread on CUDA
        and on Vulkan, where a device without float64 falls back to "standard";
        the analysis of CUDA batch plans on tensor cores), "standard" (float32 recurrence in
        the plan's dtype) or "ishioka" (float64 recurrence: on GPUs with fast float64)
    variants : ``{stage: name}`` or ``{stage: {"name": name, param: value}}``: force kernel
        variants (docs/variants.md lists them); the others are chosen as usual
    norm : the coefficients' normalisation: "ortho" (orthonormal), "four_pi" (4 pi,
        geodesy) or "schmidt" (Schmidt semi-normalised), as pyshtools' (README "Conventions")
    csphase : whether the harmonics carry the Condon-Shortley phase (-1)^m
    use_cache : reuse a module compiled earlier for the same plan
    device : the target's device: its index, name or IREE URI (``ireesht devices`` lists
        them); default the first (a GPU before a software Vulkan driver)
    transform : "scalar" (``synth``, ``analys``) or "vector": ``vsynth``, ``vanalys`` of
        vector fields (spheroidal and toroidal coefficients, ``ireesht.numerics.vector``),
        through the scalar kernels at lmax + 1

    Returns
    -------
    Module with ``synth``, ``analys``, ``synchronize``, ``to_numpy``, ``info`` (its target,
    device and ``variants``) and ``save``. Needs IREE's compiler (``ireesht[compile]``).
    """
    codegen.require_compiler()
    if target == "auto":
        target = rtmod.auto_target()
    plan = Plan.create(lmax, mmax, nlat, nphi, grid, target, dtype, kernels, fields_per_thread,
                       recurrence=recurrence, variants=variants, norm=norm, csphase=csphase,
                       transform=transform)
    _warn_direct_dft(plan)
    if device is not None:
        rtmod.open_device(target, device)  # a wrong device fails before compiling
    def fallback(**changes) -> Module | None:
        """The plan with other options, loaded here; None if this device cannot either."""
        options = {**dict(recurrence=recurrence, variants=variants, norm=norm,
                          csphase=csphase, transform=transform), **changes}
        try:
            return load_plan(Plan.create(lmax, mmax, nlat, nphi, grid, target, dtype, kernels,
                                         fields_per_thread, **options), use_cache, device)
        except rtmod.ExecutableLoadError:
            return None

    try:
        return load_plan(plan, use_cache, device)
    except rtmod.ExecutableLoadError:
        # subgroup arithmetic is the optional device feature of the WGSL kernels
        if plan.variant_names["leg_analys"] == "subgroup" and not (variants or {}).get(
                "leg_analys"):
            mod = fallback(variants={**(variants or {}), "leg_analys": "tree"})
            if mod is not None:
                return mod
        # auto's float64 recurrence (CUDA and Vulkan, one field per thread) needs float64 and
        # subgroup shuffles: a device without them takes the float32 scheme
        if (recurrence == "auto" and not variants and plan.dtype == "float32"
                and plan.needs() & {"float64", "subgroup_shuffle"}):
            mod = fallback(recurrence="standard")
            if mod is not None:
                warnings.warn(f"the {target} device cannot create the float64 recurrence's "
                              f"kernels (no shaderFloat64 or subgroup shuffles?): the float32 "
                              f"scheme instead (recurrence='standard'), with larger float32 "
                              f"errors", RuntimeWarning, stacklevel=_caller_level())
                return mod
        if plan.dtype == "float64" or "float64" in plan.needs():
            what = (f"dtype={plan.dtype!r}" if plan.dtype == "float64"
                    else f"recurrence={plan.recurrence!r}")
            raise ValueError(f"{what}: the {target} device cannot run float64 kernels (no "
                             f"shaderFloat64?); expected dtype='float32', "
                             f"recurrence='standard' here, or target='cpu'") from None
        raise


def load_plan(plan: Plan, use_cache: bool = True,
              device: int | str | None = None) -> Module:
    """The plan's module, from the disk cache or compiled (and cached), loaded here.

    A cache entry is used only if its sha256 matches; a corrupt one, or one that is not the
    plan's module, is discarded with a warning and compiled again; an unusable cache
    directory means compiling without it, with one warning (``runtime.cache``)."""
    text = codegen.render(plan)
    # the flags name the host CPU's features for target cpu: part of the key, as is the
    # compiler (VM bytecode is versioned per IREE release)
    flags = " ".join(codegen.compile_flags(plan))
    key = hashlib.sha256((text + codegen.digest(plan) + flags + codegen.compiler_version())
                         .encode()).hexdigest()[:24]
    t0 = time.perf_counter()
    if use_cache and (problem := cache.problem()):
        cache.warn(f"{problem}; compiling without the cache")
        use_cache = False
    vmfb = cache.read(key) if use_cache else None
    info = {"target": plan.target, "module": "cache", "iree_compiler": codegen.compiler_version()}
    if vmfb is not None:
        try:
            return Module(vmfb, plan, {**info, "compile_s": time.perf_counter() - t0}, device)
        except artifacts.ArtifactError as e:  # not the plan's module
            cache.discard(key, f"is not this plan's module ({e})")
    vmfb = codegen.compile_plan(plan, text)
    if use_cache:
        cache.write(key, vmfb)
    return Module(vmfb, plan, {**info, "module": "compiled",
                               "compile_s": time.perf_counter() - t0}, device)


def build(
    lmax: int,
    out: str | os.PathLike,
    targets: tuple[str, ...] = ("vulkan", "cuda", "metal", "cpu"),
    mmax: int | None = None,
    nlat: int | None = None,
    nphi: int | None = None,
    grid: str = "gauss",
    dtype: str = "float32",
    *,
    fields_per_thread: int = 1,
    recurrence: str = "auto",
    variants: Mapping | None = None,
    norm: str = "ortho",
    csphase: bool = True,
    cpu_baselines: tuple[str, ...] = ("x86-64-v3", "aarch64"),
    progress=None,
    transform: str = "scalar",
) -> Path:
    """Compile one plan for several targets into directory ``out`` (no device needed).

    A target is ``"cuda"`` (its default kernel family) or ``"vulkan:mlir"`` (a given
    family); the CPU gets one module per portable baseline in ``cpu_baselines`` (never the
    host's own features, so the artifacts run on any CPU of that baseline). ``recurrence``
    (see ``compile``) applies to the targets whose kernels run it, "auto" to each target's
    default. ``variants`` (see ``compile``) applies to every target: each must serve the
    variants named. ``norm``, ``csphase``, ``transform``: as ``compile``. ``progress(message)``
    is called before each compilation. Returns the directory; load it with ``ireesht.load``.
    Needs IREE's compiler (``ireesht[compile]``).
    """
    codegen.require_compiler()
    for b in cpu_baselines:
        check_choice("cpu_baselines", b, CPU_BASELINES)
    jobs = []
    for spec in dict.fromkeys(targets):
        t, _, kernels = spec.partition(":")
        check_choice("targets", t, TARGETS)
        for cpu in (cpu_baselines if t == "cpu" else ("host",)):
            plan = Plan.create(lmax, mmax, nlat, nphi, grid, t, dtype, kernels or "auto",
                               fields_per_thread, recurrence=_recurrence_for(t, recurrence),
                               variants=variants, cpu=cpu, norm=norm, csphase=csphase,
                               transform=transform)
            jobs.append(plan)
    for plan in {p.kernels: p for p in jobs}.values():
        _warn_direct_dft(plan)
    modules = []
    for i, plan in enumerate(jobs):
        if progress:
            progress(f"[{i + 1}/{len(jobs)}] {plan.target}"
                     + (f" ({plan.cpu})" if plan.target == "cpu" else "")
                     + f", {plan.kernels} kernels")
        t0 = time.perf_counter()
        vmfb = codegen.compile_plan(plan)
        modules.append((plan, vmfb, {**artifacts.requirements(plan),
                                     "compile_s": round(time.perf_counter() - t0, 2)}))
    return artifacts.write(out, modules, codegen.compiler_version())


def _warn_direct_dft(plan: Plan) -> None:
    """PerformanceWarning where the plan's kernels have no FFT for its rows (the default
    grids never: ``grid.default_sizes``)."""
    if not fourier.direct_dft(plan.nphi, plan.kernels):
        return
    better = fourier.fft_size(plan.nphi)
    hint = (f"nphi={better}, the next FFT size, runs an FFT" if not fourier.direct_dft(
        better, plan.kernels) else f"no row past {fourier.FFT_MAX} points has one yet")
    warnings.warn(f"nphi={plan.nphi}: the {plan.kernels} kernels have no FFT for rows of "
                  f"{plan.nphi} points and run a direct DFT, O(nphi mmax) per ring (lmax 720 on "
                  f"721 x 1442: 9-34x the time of 721 x 1458 on an H100); {hint}",
                  PerformanceWarning, stacklevel=_caller_level())


def _recurrence_for(target: str, recurrence: str) -> str:
    """A recurrence named for a build applies to the targets whose kernels run it."""
    runs = any(v.stage == "leg_synth" and v.recurrence == recurrence and target in v.targets
               for v in VARIANTS)
    return recurrence if runs else "auto"
