"""Compiled transform modules: ``compile``, ``load`` and the ``Module`` they return."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from ireesht import __version__, artifacts, host
from ireesht import runtime as rtmod
from ireesht.plan import (CPU_BASELINES, ISHIOKA_TARGETS, TARGETS, Plan,
                          analys_fields_per_thread, analys_lane_group)
from ireesht.validate import check_choice, check_finite


def cache_dir() -> Path:
    """Where compiled modules are cached: ``$IREESHT_CACHE`` or ``~/.cache/ireesht``."""
    root = os.environ.get("IREESHT_CACHE") or Path.home() / ".cache" / "ireesht"
    return Path(root) / __version__


class Module:
    """A compiled plan, loaded on a device with its tables resident there.

    ``synth(qlm)``: ``(..., nlm)`` complex coefficients (packed m-major, see
    ``ireesht.layout``) -> ``(..., nlat, nphi)`` real field.
    ``analys(f)``: ``(..., nlat, nphi)`` real field -> ``(..., nlm)`` complex coefficients.
    numpy in, numpy out (computed in the plan's dtype). Device arrays in
    (``iree.runtime.DeviceArray`` in the kernel layout, of the plan's dtype: ``(B, nlm, 2)``
    for synth, ``(B, nlat, nphi)`` for
    analys), device arrays out, with no host copy; ``to_numpy`` copies one to the host.

    Calls return when their result is ready, except ``synth(q, out=f, sync=False)`` /
    ``analys(f, out=q, sync=False)`` on device arrays: these enqueue the call and return
    at once, so that the host's cost of the next call overlaps the device's work. Calls
    of one module run in the order they were made (each may read the last one's result);
    an enqueued call's ``out`` holds its result once ``synchronize()`` (or any call without
    ``sync=False``, or ``to_numpy``) has returned.

    Each call writes into device buffers kept for the last batch size (the intermediate
    F, and for numpy inputs the result too), so that IREE allocates nothing per call;
    they stay allocated as long as the module lives.
    """

    def __init__(self, vmfb: bytes, plan: Plan, info: dict[str, Any], device: str | None = None):
        self.plan = plan
        self._real = np.dtype(plan.dtype)
        self._complex = np.result_type(self._real, np.complex64)
        self._vmfb = vmfb
        self._session = rtmod.Session(vmfb, plan.target, device)
        t0 = time.perf_counter()
        tables = plan.tables()
        self._tables = {k: self._session.upload(v) for k, v in tables.items()}
        self._synth_args = [self._tables[k] for k in plan.synth_tables]
        self._analys_args = [self._tables[k] for k in plan.analys_tables]
        # device buffers kept for the last batch size: key (kind, function) -> (batch, array)
        self._kept: dict[tuple[str, str], tuple[int, object]] = {}
        g = plan.make_grid()
        self.info: dict[str, Any] = {
            **info,
            "plan": plan.as_dict(),
            "device": self._session.device_name,
            "kernels": plan.kernels,
            "variants": _variants(plan),
            "exact_quadrature": plan.exact,
            "exact_lmax": g.exact_lmax,
            "tables_s": time.perf_counter() - t0,  # computed on the host and uploaded
            # device memory the resident tables take, O(lmax^2)
            "tables_bytes": sum(v.nbytes for v in tables.values()),
        }
        if not plan.exact:
            self.info["note"] = (
                f"{plan.grid} grid with nlat={plan.nlat} integrates exactly only up to "
                f"lmax={g.exact_lmax}: analysis of lmax={plan.lmax} is approximate"
            )

    # --- transforms ------------------------------------------------------------
    def synth(self, qlm, out=None, *, sync: bool = True):
        """Synthesis: ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real (see class doc).

        For a device-array ``qlm``, ``out`` may be a device array ``(B, nlat, nphi)``
        to write into (the fast path: no allocation per call); it is returned.
        ``sync=False`` (device arrays with ``out`` only) enqueues the call and returns
        ``out`` at once; ``synchronize()`` waits for it.
        """
        p = self.plan
        _check_sync(sync, qlm, out)
        if rtmod.is_device_array(qlm):
            batch = rtmod.check_device_array("qlm", qlm, (p.nlm, 2), self._real)
            if out is None:
                return self._session.call("synth", *self._synth_args, qlm)
            rtmod.check_device_array("out", out, (p.nlat, p.nphi), self._real, batch)
            return self._enqueue("synth", qlm, batch, out, sync)
        q = _as_array("qlm", qlm, complex_=True)
        if q.ndim < 1 or q.shape[-1] != p.nlm:
            raise ValueError(
                f"qlm: shape {q.shape}, expected (..., {p.nlm}) for lmax={p.lmax}, mmax={p.mmax}"
            )
        lead = q.shape[:-1]
        flat = np.ascontiguousarray(q.reshape(-1, p.nlm), dtype=self._complex)
        if flat.shape[0] == 0:
            return np.zeros(lead + (p.nlat, p.nphi), self._real)
        x = self._session.upload(flat.view(self._real).reshape(-1, p.nlm, 2))
        f = self._enqueue("synth", x, flat.shape[0], None, sync=False)
        return self.to_numpy(f).reshape(lead + (p.nlat, p.nphi))

    def analys(self, f, out=None, *, sync: bool = True):
        """Analysis: ``(..., nlat, nphi)`` real -> ``(..., nlm)`` complex (see class doc).

        For a device-array ``f``, ``out`` may be a device array ``(B, nlm, 2)`` to
        write into (no allocation per call); it is returned. ``sync=False`` (device arrays
        with ``out`` only) enqueues the call and returns ``out`` at once; ``synchronize()``
        waits for it.
        """
        p = self.plan
        _check_sync(sync, f, out)
        if rtmod.is_device_array(f):
            batch = rtmod.check_device_array("spatial", f, (p.nlat, p.nphi), self._real)
            if out is None:
                return self._session.call("analys", *self._analys_args, f)
            rtmod.check_device_array("out", out, (p.nlm, 2), self._real, batch)
            return self._enqueue("analys", f, batch, out, sync)
        x = _as_array("spatial", f, complex_=False)
        if x.ndim < 2 or x.shape[-2:] != (p.nlat, p.nphi):
            raise ValueError(
                f"spatial: shape {x.shape}, expected (..., {p.nlat}, {p.nphi}) (nlat, nphi)"
            )
        lead = x.shape[:-2]
        flat = np.ascontiguousarray(x.reshape(-1, p.nlat, p.nphi), dtype=self._real)
        if flat.shape[0] == 0:
            return np.zeros(lead + (p.nlm,), self._complex)
        q = self._enqueue("analys", self._session.upload(flat), flat.shape[0], None, sync=False)
        return self.to_numpy(q).view(self._complex).reshape(lead + (p.nlm,))

    def synchronize(self) -> None:
        """Wait until every call enqueued with ``sync=False`` is done. Raises the device's
        error if one of them failed."""
        self._session.synchronize()

    def to_numpy(self, array) -> np.ndarray:
        """Copy a device array (a result, or any ``iree.runtime.DeviceArray`` on this
        module's device) to a new numpy array, after every enqueued call is done."""
        if not rtmod.is_device_array(array):
            raise ValueError(f"array: {type(array).__name__}, expected an "
                             "iree.runtime.DeviceArray")
        return self._session.to_numpy(array)

    def _enqueue(self, name: str, x, batch: int, out, sync: bool):
        """Enqueue ``<name>_async`` on ``batch`` fields ``x`` (device array), which writes
        the result into ``out`` and the intermediate F into a kept buffer: IREE then
        allocates nothing per call. ``out=None`` writes into a kept result buffer (only
        for results that are copied to the host at once). Returns the result's array,
        ready once ``sync`` has waited for it."""
        p = self.plan
        if out is None:
            result_shape = (p.nlat, p.nphi) if name == "synth" else (p.nlm, 2)
            out = self._kept_buffer("result", name, (batch, *result_shape))
        workspace = self._kept_buffer("F", name, (batch, p.nlat, p.mc, 2))
        tables = self._synth_args if name == "synth" else self._analys_args
        self._session.enqueue(f"{name}_async", *tables, x, out, workspace)
        if sync:
            self._session.synchronize()
        return out

    def _kept_buffer(self, kind: str, name: str, shape: tuple[int, ...]):
        batch, buffer = self._kept.get((kind, name), (None, None))
        if batch != shape[0]:
            self._session.synchronize()  # no enqueued call still uses the one replaced
            buffer = self._session.empty(shape, self._real)
            self._kept[(kind, name)] = (shape[0], buffer)
        return buffer

    # --- artifacts -------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> Path:
        """Write the module and its ``manifest.json`` into directory ``path`` (the format
        of ``ireesht build``, with one target); returns the directory."""
        return artifacts.write(path, [(self.plan.as_dict(), self._vmfb, _arch(self.plan))],
                               self.info.get("iree_compiler"))


def _variants(plan: Plan) -> dict:
    """The compile-time kernel variants a plan runs (``info["variants"]``)."""
    if plan.target == "cpu":
        from ireesht.kernels_c import LEG_FIELDS, baseline

        return {"fields_per_work_item": LEG_FIELDS, "cpu_baseline": baseline(plan)}
    nf = analys_fields_per_thread(plan)
    out = {"fields_per_thread": plan.fields_per_thread, "analysis_fields_per_thread": nf}
    if plan.kernels == "mlir":  # the family with a choice of recurrence
        from ireesht.kernels_mlir import (MMA_FIELDS, ishioka_analysis, lanes64_analysis,
                                          mma_analysis, mma_synthesis)

        lanes = analys_lane_group(plan, nf) > 1
        out["recurrence"] = (plan.recurrence if plan.analys_recurrence == plan.recurrence
                             else f"{plan.recurrence}, analysis {plan.analys_recurrence}")
        if mma_synthesis(plan):
            out["synthesis_sums"] = f"tensor cores, whole groups of {MMA_FIELDS}"
        out["analysis_reduction"] = ("tensor cores" if mma_analysis(plan) else
                                     "ishioka, transposed sums" if ishioka_analysis(plan) else
                                     _lanes64_variant(plan) if lanes64_analysis(plan) else
                                     "lane sums, workgroup rows" if lanes else "workgroup rows")
    else:
        out["analysis_reduction"] = "subgroup" if plan.subgroups else "workgroup tree"
    return out


def _lanes64_variant(plan: Plan) -> str:
    from ireesht.kernels_mlir import lanes64_segment

    steps = lanes64_segment(plan)
    return "ishioka, float64 lane sums" + (f", segments of {steps} steps" if steps else "")


def _check_sync(sync: bool, x, out) -> None:
    """Only a call on a device array with ``out`` can be enqueued."""
    if not sync and (out is None or not rtmod.is_device_array(x)):
        raise ValueError("sync=False: expected device-array input and out= (an "
                         "iree.runtime.DeviceArray to write into); numpy inputs and "
                         "allocated results are returned when ready")


def _as_array(name: str, value, complex_: bool) -> np.ndarray:
    arr = np.asarray(value)
    if complex_:
        if arr.dtype not in (np.complex64, np.complex128):
            raise ValueError(f"{name}: dtype {arr.dtype}, expected complex64 or complex128")
    elif arr.dtype not in (np.float32, np.float64):
        raise ValueError(f"{name}: dtype {arr.dtype}, expected float32 or float64")
    check_finite(name, arr)
    return arr


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
    use_cache: bool = True,
) -> Module:
    """Build (or fetch from the disk cache) the module of one transform plan.

    Parameters
    ----------
    lmax : band limit, >= 0
    mmax : highest order, <= lmax (default lmax)
    nlat, nphi : grid size (defaults: Gauss nlat = lmax+1, nphi = 2 (lmax+1); equiangular
        2 lmax + 1 and 4 lmax; see ``ireesht.grid.default_sizes``)
    grid : "gauss" (Gauss-Legendre) or "equiangular" (both poles, Clenshaw-Curtis weights)
    target : "auto" (CUDA if there is a CUDA GPU, else a Vulkan GPU, else Metal, else the
        CPU; ``info["target"]`` says which), "cuda", "vulkan", "metal" or "cpu"
    dtype : "float32" or "float64" (CUDA, CPU, Vulkan devices with shaderFloat64; MLIR and C
        kernel families)
    kernels : kernel family: "auto" (the fastest measured for the target: "mlir" on Vulkan,
        CUDA and Metal, "c" on the CPU), or one of ``ireesht.plan.TARGET_KERNELS[target]``
        ("wgsl" on Vulkan too)
    fields_per_thread : fields sharing one Legendre recurrence on GPUs (1, 2 or 4): use 4
        for batches of many fields (the CPU kernels always share it among 4; the float64
        analysis on CUDA among 2 at most, ``info["analysis_fields_per_thread"]``)
    recurrence : the Legendre recurrence: "auto" ("ishioka" on CUDA with
        ``fields_per_thread=1``; on CUDA with ``fields_per_thread=4``, float32, "standard"
        in the synthesis and "ishioka" in the analysis where it runs on tensor cores, below;
        else "standard"), "standard" (in the plan's dtype) or
        "ishioka" (a float64 recurrence whatever the dtype, in the synthesis: in float32 ten
        times more accurate with one field per thread, 1.3-1.4x with several, which sum in
        float32; faster for single fields where float64 runs at half the float32 rate, as
        on NVIDIA's datacenter GPUs; on GPUs with slow float64, such as GeForce cards,
        choose "standard"; mlir kernels on CUDA, or Vulkan devices with shaderFloat64). The
        analysis runs it for float32 plans of one field per thread on grids of at most 384
        latitude pairs, else the standard one. ``info["variants"]["recurrence"]`` says which
        runs. On CUDA, float32 with ``fields_per_thread=4`` and "ishioka" sums the synthesis
        on tensor cores, 16 fields per workgroup, on grids of 256 latitude pairs or more
        whose seeds all start within float64's range (Gauss grids for lmax 511-1313), and
        the analysis too, 8 fields per workgroup, up to 512 pairs (lmax 1023): for batches
        of 16 fields or more faster and more accurate than the float32 scheme (H200, lmax
        1023: Legendre synthesis 13% and analysis 37% faster, roundtrip error 4.2e-7
        against 1.6e-6; ``info["variants"]["synthesis_sums"]`` says "tensor cores, whole
        groups of 16" and ``["analysis_reduction"]`` "tensor cores"). The synthesis takes
        the whole groups of 16 there and the fields past them (B mod 16) four per thread
        with float32 sums (5-6% slower than the float32 scheme, largest error 5x its own);
        the analysis pays for whole groups of 8; so "auto" runs only the analysis there (at
        most 6% slower up to 4 fields per call, 37% faster from 8; roundtrip error 9.8e-7)
    use_cache : reuse a module compiled earlier for the same plan

    Returns
    -------
    Module with ``synth``, ``analys`` (``sync=False`` enqueues), ``synchronize``, ``to_numpy``,
    ``info`` and ``save``.
    """
    if target == "auto":
        target = rtmod.auto_target()
    plan = Plan.create(lmax, mmax, nlat, nphi, grid, target, dtype, kernels, fields_per_thread,
                       recurrence=recurrence)
    try:
        return _build(plan, use_cache)
    except rtmod.ExecutableLoadError:
        # subgroup arithmetic is the optional device feature of the WGSL kernels
        if plan.subgroups and plan.kernels == "wgsl":
            try:
                return _build(Plan(**{**plan.as_dict(), "subgroups": False}), use_cache)
            except rtmod.ExecutableLoadError:
                pass
        if plan.dtype == "float64":
            raise ValueError(f"dtype='float64': the {target} device cannot run float64 "
                             f"kernels (no shaderFloat64?); expected dtype='float32' here, "
                             f"or target='cpu'") from None
        if plan.float64_recurrence:
            raise ValueError(f"recurrence='ishioka': the {target} device cannot run float64 "
                             f"kernels (no shaderFloat64?); expected recurrence='standard' "
                             f"here") from None
        raise


def _build(plan: Plan, use_cache: bool) -> Module:
    from ireesht import pipeline  # needs the compiler: imported only when compiling

    text = pipeline.render(plan)
    # the flags name the host CPU's features for target cpu: part of the key
    flags = " ".join(pipeline.family(plan).compile_flags(plan))
    key = hashlib.sha256((text + pipeline.digest(plan) + flags).encode()).hexdigest()[:24]
    cached = cache_dir() / f"{key}.vmfb"
    t0 = time.perf_counter()
    if use_cache and cached.exists():
        vmfb, source = cached.read_bytes(), "cache"
    else:
        vmfb, source = pipeline.compile_plan(plan, text), "compiled"
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(vmfb)
        tmp.replace(cached)  # atomic: concurrent compiles of one plan never see half a file
    info = {
        "target": plan.target,
        "module": source,
        "compile_s": time.perf_counter() - t0,
        "iree_compiler": pipeline.compiler_version(),
    }
    return Module(vmfb, plan, info)


def load(path: str | os.PathLike, target: str | None = None, device: str | None = None,
         kernels: str | None = None) -> Module:
    """Load a module written by ``ireesht build`` or ``Module.save`` (needs only
    iree-base-runtime and numpy).

    ``path`` is the directory (or one ``.vmfb`` in it). With several targets there, the one
    that matches a device here is picked (CUDA, then a Vulkan GPU, Metal, the CPU), unless
    ``target`` names one (and ``kernels`` a family, where the directory has several);
    ``device`` is an IREE device URI. The file's sha256 and the IREE
    release that compiled it are checked first. Raises ``ireesht.artifacts.ArtifactError``
    (a ValueError) for a corrupt, mismatched or foreign artifact.
    """
    manifest = artifacts.read_manifest(path)
    if target is None and Path(path).suffix == ".vmfb":
        entry = next((e for e in manifest["artifacts"] if e["file"] == Path(path).name), None)
        if entry is None:
            raise artifacts.ArtifactError(f"{path}: not listed in its directory's manifest")
        target = entry["target"]
    found = rtmod.scan_drivers()
    drivers = [d for d, devs in found.items() if isinstance(devs, list) and devs]
    entry = artifacts.select(manifest, target, drivers, rtmod.has_vulkan_gpu(found), kernels)
    return load_entry(manifest, entry, device)


def load_entry(manifest: dict, entry: dict, device: str | None = None) -> Module:
    """Load one module of a manifest (``ireesht.artifacts.read_manifest``) after checking
    its bytes and IREE release (``ireesht.artifacts.verified_bytes``)."""
    vmfb = artifacts.verified_bytes(manifest, entry)
    plan = Plan(**entry["plan"])
    info = {"target": plan.target, "module": "loaded",
            "path": str(Path(manifest["_dir"]) / entry["file"]),
            "iree_compiler": manifest.get("iree_compiler")}
    return Module(vmfb, plan, info, device)


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
    cpu_baselines: tuple[str, ...] = ("x86-64-v3", "aarch64"),
    progress=None,
) -> Path:
    """Compile one plan for several targets into directory ``out`` (no device needed).

    A target is ``"cuda"`` (its default kernel family) or ``"vulkan:mlir"`` (a given
    family); the CPU gets one module per portable baseline in ``cpu_baselines`` (never the host's own features, so the artifacts run on
    any CPU of that baseline). ``recurrence`` (see ``compile``) applies to the targets that
    run it, "auto" to each target's default. ``progress(message)`` is called before each
    compilation. Returns the directory; load it with ``ireesht.load``.
    """
    from ireesht import pipeline

    for b in cpu_baselines:
        check_choice("cpu_baselines", b, CPU_BASELINES)
    jobs = []
    for spec in dict.fromkeys(targets):
        t, _, kernels = spec.partition(":")
        check_choice("targets", t, TARGETS)
        for cpu in (cpu_baselines if t == "cpu" else ("host",)):
            # "auto" resolves per target; a recurrence named is for the targets that run it
            rec = recurrence if t in ISHIOKA_TARGETS else "auto"
            plan = Plan.create(lmax, mmax, nlat, nphi, grid, t, dtype, kernels or "auto",
                               fields_per_thread, recurrence=rec)
            jobs.append(dataclasses.replace(plan, cpu=cpu))
    modules = []
    for i, plan in enumerate(jobs):
        if progress:
            progress(f"[{i + 1}/{len(jobs)}] {plan.target}"
                     + (f" ({plan.cpu})" if plan.target == "cpu" else "") + f", {plan.kernels} kernels")
        t0 = time.perf_counter()
        vmfb = pipeline.compile_plan(plan)
        modules.append((plan.as_dict(), vmfb,
                        {**_arch(plan), "compile_s": round(time.perf_counter() - t0, 2)}))
    return artifacts.write(out, modules, pipeline.compiler_version())


def _arch(plan: Plan) -> dict:
    """What a module needs from the machine, for the manifest."""
    if plan.target == "cpu":
        if plan.cpu == "host":  # this CPU's own features: it loads only on the same CPU
            return {"cpu_baseline": "host", "cpu_arch": platform.machine(),
                    "cpu_id": host.cpu_id()}
        return {"cpu_baseline": plan.cpu, "cpu_arch": artifacts.cpu_arch(plan.cpu)}
    return {"gpu_arch": {"vulkan": "SPIR-V 1.3, Vulkan 1.1 (subgroup arithmetic optional)",
                         "cuda": "PTX, sm_80 and newer", "metal": "MSL source (Apple GPUs)"}[plan.target]}
