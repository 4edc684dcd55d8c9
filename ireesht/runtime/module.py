"""``Module``: a compiled plan loaded on a device, with its tables resident there."""

from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ireesht import adjoint, host, interop
from ireesht.tables import device_tables
from ireesht.plan import Plan
from ireesht.runtime import artifacts
from ireesht.runtime import device as rtmod
from ireesht.validate import check_int, check_kind, check_representable, check_result


class ApproximationWarning(UserWarning):
    """A module's analysis is not exact for fields band-limited to its lmax (an equiangular
    grid with ``lmax > nlat - 2``): ``info["note"]`` says why; ``ireesht.analys_lsq`` solves
    the least-squares problem instead."""


class PerformanceWarning(UserWarning):
    """A plan takes a path far slower than its size needs: rows of ``nphi`` points that its
    kernels transform by a direct DFT (``numerics.fourier.direct_dft``)."""


class Module:
    """A compiled plan, loaded on a device with its tables resident there.

    ``synth(qlm)``: ``(..., nlm)`` complex coefficients (packed m-major, see
    ``ireesht.numerics.layout``) -> ``(..., nlat, nphi)`` real field.
    ``analys(f)``: ``(..., nlat, nphi)`` real field -> ``(..., nlm)`` complex coefficients.
    numpy in, numpy out (computed in the plan's dtype); torch, JAX, CuPy (DLPack) arrays in,
    the same kind out, without copies where the device allows (``ireesht.interop``). A list of
    arrays (of one library, one shape) is one call on them stacked: one result, its first axis
    over the list, for one call's host cost.
    ``synth_adjoint`` / ``analys_adjoint`` are the exact transposes (``ireesht.adjoint``).
    Device arrays in
    (``iree.runtime.DeviceArray`` in the kernel layout, of the plan's dtype: ``(B, nlm, 2)``
    for synth, ``(B, nlat, nphi)`` for analys), device arrays out, with no host copy;
    ``to_numpy`` copies one to the host.

    Calls return when their result is ready, except ``synth(q, out=f, sync=False)`` /
    ``analys(f, out=q, sync=False)`` on device arrays: these enqueue the call and return
    at once, so that the host's cost of the next call overlaps the device's work. Calls
    of one module run in the order they were made (each may read the last one's result);
    an enqueued call's ``out`` holds its result once ``synchronize()`` (or any call without
    ``sync=False``, or ``to_numpy``) has returned.

    Each call writes into device buffers kept for the last batch size (the intermediate
    F, and for numpy inputs the result too), so that IREE allocates nothing per call;
    they stay allocated as long as the module lives.

    ``out`` for numpy input: a numpy array of the result's shape and dtype, filled and
    returned, or a device array ``(B, ...)`` in the kernel layout. Numpy inputs must be
    finite and representable in the plan's dtype (ValueError naming the largest value);
    numpy results are checked to be finite. Device arrays are not inspected.

    Threads: a module may be called from any number of threads at once; each call is
    right (its own inputs and results) and calls run one after another on the device
    (``runtime.device.Session`` says why they hold a lock). A device failure raises
    ``ireesht.DeviceError``; ``usable`` says whether the module can still be called.
    """

    def __init__(self, vmfb: bytes, plan: Plan, info: dict[str, Any],
                 device: int | str | None = None):
        self.plan = plan
        self._real = np.dtype(plan.dtype)
        self._complex = np.result_type(self._real, np.complex64)
        self._vmfb = vmfb
        self._session = rtmod.Session(vmfb, plan.target, device, plan.fingerprint)
        # each function's shapes, once (read on every call): ``signature``
        self._signatures = {n: self._signature(n) for n in (
            ("vsynth", "vanalys") if plan.transform == "vector" else ("synth", "analys"))}
        t0 = time.perf_counter()
        tables = device_tables(plan)
        self._tables = {k: self._session.upload(v) for k, v in tables.items()}
        # the table arguments of each exported function
        self._args = {name: [self._tables[k] for k in names] for name, names in (
            ("synth", plan.synth_tables), ("analys", plan.analys_tables),
            ("vsynth", plan.vsynth_tables), ("vanalys", plan.vanalys_tables))}
        # device buffers kept for the last batch size: key (kind, function) -> (batch, array)
        self._kept: dict[tuple[str, str], tuple[int, object]] = {}
        self.info: dict[str, Any] = {
            **info,
            "plan": plan.as_dict(),
            "device": self._session.device_name,
            "kernels": plan.kernels,
            "variants": dict(plan.variant_names),
            "recurrence": plan.recurrence,
            "exact_quadrature": plan.exact,
            "exact_lmax": plan.exact_lmax,
            "theta_step": plan.theta_step,  # exact equiangular / Fejer analysis past quadrature
            "tables_s": time.perf_counter() - t0,  # computed on the host and uploaded
            # device memory the resident tables take, O(lmax^2)
            "tables_bytes": sum(v.nbytes for v in tables.values()),
        }
        if plan.target == "cpu":
            self.info["cpu_baseline"] = host.baseline(plan.cpu)
        if plan.transform == "vector":
            self.info["transform"] = "vector"
            self.info["band_lmax"] = plan.band_lmax
        if not plan.exact:
            self.info["note"] = (
                f"{plan.grid} grid with nlat={plan.nlat} is analysed exactly only up to "
                f"lmax={plan.exact_lmax}: analysis of lmax={plan.band_lmax} is approximate"
                + (f" (ireesht.analys_lsq: least squares; or nlat >= {plan.exact_nlat})"
                   if plan.transform == "scalar" else ""))
            warnings.warn(self.info["note"], ApproximationWarning, stacklevel=_caller_level())

    # --- transforms ------------------------------------------------------------
    def synth(self, qlm, out=None, *, sync: bool = True):
        """Synthesis: ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real (see class doc).

        For a device-array ``qlm``, ``out`` may be a device array ``(B, nlat, nphi)``
        to write into (the fast path: no allocation per call); it is returned. For numpy
        ``qlm``, ``out`` may be a numpy array ``(..., nlat, nphi)`` of the plan's real dtype
        to fill (or a device array ``(B, nlat, nphi)``); it is returned.
        ``sync=False`` (device arrays with ``out`` only) enqueues the call and returns
        ``out`` at once; ``synchronize()`` waits for it.
        """
        return self._transform("synth", qlm, out, sync)

    def analys(self, f, out=None, *, sync: bool = True):
        """Analysis: ``(..., nlat, nphi)`` real -> ``(..., nlm)`` complex (see class doc).

        For a device-array ``f``, ``out`` may be a device array ``(B, nlm, 2)`` to
        write into (no allocation per call); it is returned. For numpy ``f``, ``out`` may
        be a numpy array ``(..., nlm)`` of the plan's complex dtype to fill (or a device
        array ``(B, nlm, 2)``); it is returned. ``sync=False`` (device arrays
        with ``out`` only) enqueues the call and returns ``out`` at once; ``synchronize()``
        waits for it.
        """
        return self._transform("analys", f, out, sync)

    def vsynth(self, st, out=None, *, sync: bool = True):
        """Vector synthesis (plans with ``transform="vector"``): ``(..., 2, nlm)`` complex,
        the spheroidal and toroidal coefficients (S, T) -> ``(..., 2, nlat, nphi)`` real,
        ``(u_theta, u_phi)`` with ``u = grad S + r x grad T`` (``ireesht.numerics.vector``).
        ``nlm`` is that of ``band_lmax``; device arrays ``(B, 2, nlm, 2)`` -> ``(B, 2, nlat,
        nphi)``; ``out`` and ``sync`` as for ``synth``."""
        return self._transform("vsynth", st, out, sync)

    def vanalys(self, u, out=None, *, sync: bool = True):
        """Vector analysis (plans with ``transform="vector"``): ``(..., 2, nlat, nphi)`` real
        ``(u_theta, u_phi)`` -> ``(..., 2, nlm)`` complex (S, T), 0 at l = 0; device arrays
        ``(B, 2, nlat, nphi)`` -> ``(B, 2, nlm, 2)``; ``out`` and ``sync`` as for
        ``analys``."""
        return self._transform("vanalys", u, out, sync)

    def signature(self, name: str) -> tuple[str, tuple[int, ...], bool, tuple[int, ...], bool]:
        """Function ``name``'s argument name, its trailing shape and whether it is complex,
        and the same for its result (complex arrays are ``(..., 2)`` reals on the device).
        Raises ValueError for a function the plan's transform does not have."""
        sig = self._signatures.get(name)
        return sig if sig is not None else self._signature(name)

    def _signature(self, name: str) -> tuple[str, tuple[int, ...], bool, tuple[int, ...], bool]:
        p = self.plan
        vector = name in ("vsynth", "vanalys")
        if vector != (p.transform == "vector"):
            have = "vsynth and vanalys" if p.transform == "vector" else "synth and analys"
            raise ValueError(f"{name}: a plan with transform={p.transform!r} has {have}; "
                             f"compile one with transform={'vector' if vector else 'scalar'!r}")
        field, coef = (p.nlat, p.nphi), (p.band_nlm,)
        if vector:
            field, coef = (2, *field), (2, *coef)
        if name in ("synth", "vsynth"):
            return ("st" if vector else "qlm"), coef, True, field, False
        return ("u" if vector else "spatial"), field, False, coef, True

    def shape_error(self, name: str, shape) -> ValueError:
        """The error for an argument of function ``name`` of the wrong ``shape``."""
        p = self.plan
        what, trailing, *_ = self.signature(name)
        detail = {"synth": f" for lmax={p.band_lmax}, mmax={p.mmax}",
                  "analys": " (nlat, nphi)",
                  "vsynth": f" (S, T) for lmax={p.band_lmax}, mmax={p.mmax}",
                  "vanalys": " (u_theta, u_phi; nlat, nphi)"}[name]
        return ValueError(f"{what}: shape {tuple(shape)}, expected (..., "
                          + ", ".join(map(str, trailing)) + ")" + detail)

    def _transform(self, name: str, x, out, sync: bool):
        """``name`` on numpy, DLPack or device-array input (the methods above)."""
        what, trailing, complex_in, result, complex_out = self.signature(name)
        if isinstance(x, (list, tuple)) and x and any(interop.is_foreign(a) for a in x):
            x = interop.stack(what, x)  # one call for the list (numpy lists: np.asarray)
        if interop.is_foreign(x):
            return interop.transform(self, name, x, out, sync)
        _check_sync(sync, x, out)
        k_in = trailing + ((2,) if complex_in else ())
        k_out = result + ((2,) if complex_out else ())
        if rtmod.is_device_array(x):
            batch = rtmod.check_device_array(what, x, k_in, self._real)
            if out is None:
                return self._session.call(name, *self._args[name], x)
            rtmod.check_device_array("out", out, k_out, self._real, batch)
            return self._enqueue(name, x, batch, out, sync)
        arr = _as_array(what, x, complex_=complex_in)
        n = len(trailing)
        if arr.ndim < n or arr.shape[arr.ndim - n:] != trailing:
            raise self.shape_error(name, arr.shape)
        flat = check_representable(what, arr, self._complex if complex_in else self._real)
        flat = flat.reshape((-1, *trailing))
        if complex_in:
            flat = flat.view(self._real).reshape((-1, *k_in))
        lead = arr.shape[:arr.ndim - n]
        return self._numpy_call(name, flat, lead + result,
                                self._complex if complex_out else self._real, k_out, out)

    def _numpy_call(self, name: str, flat: np.ndarray, shape: tuple[int, ...], dtype,
                    kernel_shape: tuple[int, ...], out):
        """A call on numpy input ``flat`` (the kernel layout, of the plan's real dtype)
        whose result has ``shape`` and ``dtype``; ``out``: None, a numpy array to fill, or a
        device array ``(B, *kernel_shape)`` (returned once it holds the result)."""
        batch = flat.shape[0]
        if rtmod.is_device_array(out):
            rtmod.check_device_array("out", out, kernel_shape, self._real, batch)
        elif out is not None:
            _check_numpy_out(out, shape, dtype)
        if batch == 0:
            return out if out is not None else np.zeros(shape, dtype)
        x = self._session.upload(flat)
        if rtmod.is_device_array(out):
            return self._enqueue(name, x, batch, out, sync=True)
        with self._session.lock:  # the kept result buffer is this call's until copied out
            result = self.to_numpy(self._enqueue(name, x, batch, None, sync=False))
        result = result.view(dtype).reshape(shape)
        check_result(name, result, self.plan.dtype)
        if out is None:
            return result
        out[...] = result
        return out

    @property
    def usable(self) -> bool:
        """False once a call failed on the device (``ireesht.DeviceError``): load or compile
        the module again."""
        return self._session.failed is None

    def synth_adjoint(self, f):
        """``S^T f``, the transpose of ``synth``: ``(..., nlat, nphi)`` real -> ``(..., nlm)``
        complex, for the real inner products of ``ireesht.adjoint`` (host or DLPack arrays)."""
        return adjoint.synth_adjoint(self, f)

    def analys_adjoint(self, qlm):
        """``A^T q``, the transpose of ``analys``: ``(..., nlm)`` complex -> ``(..., nlat,
        nphi)`` real (``ireesht.adjoint``; host or DLPack arrays)."""
        return adjoint.analys_adjoint(self, qlm)

    @property
    def grid(self):
        """The plan's ``numerics.grid.Grid``: ``theta``, ``lat``, ``lon`` (radians, and
        ``lat_deg``, ``lon_deg``), quadrature ``weights`` (sum 2)."""
        return self.plan.make_grid()

    @property
    def lat(self) -> np.ndarray:
        """Latitudes of the rings, radians, north first: ``(nlat,) float64``."""
        return self.grid.lat

    @property
    def lon(self) -> np.ndarray:
        """Longitudes ``2 pi j / nphi``, radians: ``(nphi,) float64``."""
        return self.grid.lon

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

    def upload(self, array: np.ndarray):
        """Copy a host array to a new device array on this module's device."""
        return self._session.upload(array)

    def empty(self, shape: tuple[int, ...]):
        """A new device array of the plan's dtype on this module's device (contents
        undefined): an ``out`` to write into."""
        shape = tuple(check_int(f"shape[{i}]", n, minimum=0) for i, n in enumerate(shape))
        return self._session.empty(shape, self._real)

    def _enqueue(self, name: str, x, batch: int, out, sync: bool):
        """Enqueue ``<name>_async`` on ``batch`` fields ``x`` (device array), which writes
        the result into ``out``, the intermediate F and the others (``iree.abi.transients``)
        into kept buffers: IREE then allocates nothing per call.
        ``out=None`` writes into a kept result buffer (only for results that are copied to
        the host at once). Returns the result's array, ready once ``sync`` has waited for
        it."""
        p = self.plan
        _, _, _, result, complex_out = self.signature(name)
        fields = 2 if p.transform == "vector" else 1  # F holds both components
        with self._session.lock:  # the kept buffers and the order of calls
            if out is None:
                result_shape = result + ((2,) if complex_out else ())
                out = self._kept_buffer("result", name, (batch, *result_shape))
            # F as the kernels make it: one order less for a Nyquist plan (Plan.kernel_plan)
            workspaces = [self._kept_buffer("F", name, (fields * batch, p.nlat,
                                                        p.kernel_plan.mc, 2))]
            args = (*self._args[name], x, out, *workspaces)
            self._session.enqueue(f"{name}_async", *args,
                                  transients=self._kept_transients(name, batch, args))
            if sync:
                self._session.synchronize()
        return out

    def _kept_transients(self, name: str, batch: int, args):
        """The storage of the other intermediates of ``<name>_async`` on ``batch`` fields
        (``Session.transients``)."""
        return self._kept_for(("transients", name), batch,
                              lambda: self._session.transients(f"{name}_async", *args))

    def _kept_buffer(self, kind: str, name: str, shape: tuple[int, ...]):
        return self._kept_for((kind, name), shape[0],
                              lambda: self._session.empty(shape, self._real))

    def _kept_for(self, key, batch: int, make):
        """The buffer kept under ``key`` for ``batch`` fields, made anew (``make()``) when
        the batch changes."""
        kept_batch, buffer = self._kept.get(key, (None, None))
        if kept_batch != batch:
            self._session.synchronize()  # no enqueued call still uses the one replaced
            buffer = make()
            self._kept[key] = (batch, buffer)
        return buffer

    # --- artifacts -------------------------------------------------------------
    def save(self, path: str | os.PathLike) -> Path:
        """Write the module and its ``manifest.json`` into directory ``path`` (the format
        of ``ireesht build``, with one target); returns the directory."""
        return artifacts.write(path, [(self.plan, self._vmfb, artifacts.requirements(self.plan))],
                               self.info.get("iree_compiler"))


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside the package, for the caller of
    ``_caller_level``: a warning then names the user's line (``compile``, ``load``, ...)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _check_sync(sync: bool, x, out) -> None:
    """Only a call on a device array with ``out`` can be enqueued."""
    if not sync and (out is None or not rtmod.is_device_array(x)):
        raise ValueError("sync=False: expected device-array input and out= (an "
                         "iree.runtime.DeviceArray to write into); numpy inputs and "
                         "allocated results are returned when ready")


def _as_array(name: str, value, complex_: bool) -> np.ndarray:
    """``value`` as a numpy array of the dtypes accepted (values are checked by
    ``check_representable`` once converted to the plan's dtype)."""
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as e:  # ragged lists and the like
        raise ValueError(f"{name}: cannot be converted to an array ({e})") from None
    check_kind(name, arr.dtype, complex_)
    return arr


def _check_numpy_out(out, shape: tuple[int, ...], dtype) -> None:
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out: {type(out).__name__}, expected a numpy array {shape} "
                         f"{np.dtype(dtype).name} or an iree.runtime.DeviceArray")
    if out.shape != shape or out.dtype != dtype:
        raise ValueError(f"out: numpy array {out.shape} {out.dtype}, expected {shape} "
                         f"{np.dtype(dtype).name}")
    if not out.flags.writeable:
        raise ValueError("out: a read-only numpy array, expected a writeable one")


def load(path: str | os.PathLike, target: str | None = None, device: int | str | None = None,
         kernels: str | None = None) -> Module:
    """Load a module written by ``ireesht build`` or ``Module.save`` (needs only
    iree-base-runtime and numpy: imports no code generator and not IREE's compiler).

    ``path`` is the directory (or one ``.vmfb`` in it). With several targets there, the one
    that matches a device here is picked (CUDA, then a Vulkan GPU, Metal, the CPU), unless
    ``target`` names one (and ``kernels`` a family, where the directory has several);
    ``device``: the device's index, name or IREE URI (``ireesht devices`` lists them). The file's sha256, its plan and the IREE release that
    compiled it are checked first. Raises ``ireesht.runtime.artifacts.ArtifactError`` (a
    ValueError) for a corrupt, mismatched or foreign artifact.
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


def load_entry(manifest: dict, entry: dict, device: int | str | None = None) -> Module:
    """Load one module of a manifest (``artifacts.read_manifest``) after checking its bytes,
    plan and IREE release (``artifacts.verified_bytes``, ``artifacts.entry_plan``)."""
    vmfb = artifacts.verified_bytes(manifest, entry)
    plan = artifacts.entry_plan(manifest, entry)
    info = {"target": plan.target, "module": "loaded",
            "path": str(Path(manifest["_dir"]) / entry["file"]),
            "iree_compiler": manifest.get("iree_compiler")}
    return Module(vmfb, plan, info, device)
