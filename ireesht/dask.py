"""Dask arrays through ireesht: lazy, chunk by chunk, each process loading a plan once.

A task graph carries a :class:`ShippedModule`, a module's artifact (the ``manifest.json``
and ``.vmfb`` bytes that ``Module.save`` or ``ireesht build`` write) and the device to run
it on, as one graph key: Dask moves it to each worker once. A worker process loads it with
``ireesht.load`` (the runtime only, no compiler) the first time a task asks for it, keeps it
in a per-process cache keyed by (artifact digest, target, kernels, device), and reuses it for
every later chunk; the process that built the ShippedModule uses the module it was built
from. ``Module`` is thread-safe, so the threaded scheduler and multi-threaded workers share
one module per process. Same plan, same module, same kind of device: the results are the
single-process results, bit for bit (``tests/integration/test_dask.py``).

Devices: ``device=None`` is each process's first device, which under dask_cuda's
``LocalCUDACluster`` (``CUDA_VISIBLE_DEVICES`` rotated per worker) is the worker's own GPU;
an index or name picks another (``runtime.device.open_device``).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from pathlib import Path

import numpy as np

import dask
import dask.array as da

from ireesht.runtime import artifacts
from ireesht.runtime.module import Module, load

# per process: (digest, target, kernels, device) -> Module
_MODULES: dict[tuple, Module] = {}
_LOCK = threading.Lock()


class ShippedModule:
    """A module's artifact and the device to load it on: what a task graph carries.

    Build one with :meth:`from_module` (a compiled or loaded module: exactly its bytes) or
    :meth:`from_directory` (an ``ireesht build`` directory of several targets: each worker
    picks the module that runs on its device, unless ``target`` names one). ``plan``: the
    plan, for shapes and dtypes (the same in every module of a directory).
    """

    def __init__(self, files: dict[str, bytes], plan, target: str | None = None,
                 kernels: str | None = None, device: int | str | None = None,
                 local: Module | None = None):
        self.files, self.plan = files, plan
        self.target, self.kernels, self.device = target, kernels, device
        self._local = local  # not pickled: workers load from the files
        digest = hashlib.sha256(files[artifacts.MANIFEST]).hexdigest()
        self.key = (digest, target, kernels, None if device is None else str(device))

    @classmethod
    def from_module(cls, module: Module, device: int | str | None = None) -> "ShippedModule":
        """Ship ``module`` (its plan and module bytes); workers load it on ``device``
        (default: their first device of the module's target). In this process, tasks use
        ``module`` itself."""
        with tempfile.TemporaryDirectory() as d:
            files = _read_files(module.save(Path(d) / "m"))
        return cls(files, module.plan, module.plan.target, module.plan.kernels, device, module)

    @classmethod
    def from_directory(cls, path: str | os.PathLike, target: str | None = None,
                       kernels: str | None = None,
                       device: int | str | None = None) -> "ShippedModule":
        """Ship an artifact directory (``ireesht build``, ``Module.save``); nothing is loaded
        here, so the process that builds the graph needs no device of the target."""
        manifest = artifacts.read_manifest(path)
        entries = [e for e in manifest["artifacts"]
                   if target in (None, e["target"]) and kernels in (None, e["kernels"])]
        if not entries:
            found = sorted({f"{e['target']}:{e['kernels']}" for e in manifest["artifacts"]})
            raise ValueError(f"target={target!r}, kernels={kernels!r}: {path} has no such "
                             f"module; expected one of {found}")
        plan = artifacts.entry_plan(manifest, entries[0])
        return cls(_read_files(Path(manifest["_dir"])), plan, target, kernels, device)

    def module(self) -> Module:
        """The module, loaded once per process (thread-safe)."""
        if self._local is not None:
            return self._local
        with _LOCK:  # threads of one worker asking at once load it once
            mod = _MODULES.get(self.key)
            if mod is None:
                with tempfile.TemporaryDirectory() as d:
                    for name, data in self.files.items():
                        (Path(d) / name).write_bytes(data)
                    mod = _MODULES[self.key] = load(d, self.target, self.device, self.kernels)
        return mod

    def __getstate__(self):
        return {**self.__dict__, "_local": None}

    def __dask_tokenize__(self):
        return ("ireesht.ShippedModule", self.key)


def _read_files(directory: Path) -> dict[str, bytes]:
    """The manifest and module files of an artifact directory (its README is left out)."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())
            if p.name == artifacts.MANIFEST or p.suffix == ".vmfb"}


def loaded_modules() -> str:
    """``"target: device name"`` of each module this process loaded for tasks, one line per
    artifact and device (``client.run(ireesht.dask.loaded_modules)`` asks each worker)."""
    with _LOCK:
        return "\n".join(f"{m.plan.target}: {m.info['device']}" for m in _MODULES.values())


def analys(x: da.Array, shipped: ShippedModule) -> da.Array:
    """Analysis of a Dask array ``(..., nlat, nphi)`` real -> ``(..., nlm)`` complex, lazy:
    one task per chunk of the leading dimensions. nlat and nphi must be single chunks."""
    p = shipped.plan
    _check_core(x, (p.nlat, p.nphi), "(nlat, nphi)")
    complex_ = np.result_type(np.dtype(p.dtype), np.complex64)
    return x.map_blocks(_analys_block, dask.delayed(shipped, pure=True),
                        dtype=complex_, drop_axis=x.ndim - 1,
                        chunks=x.chunks[:-2] + ((p.nlm,),),
                        meta=np.empty((0,) * (x.ndim - 1), complex_))


def synth(q: da.Array, shipped: ShippedModule) -> da.Array:
    """Synthesis of a Dask array ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real, lazy:
    one task per chunk of the leading dimensions. nlm must be a single chunk."""
    p = shipped.plan
    _check_core(q, (p.nlm,), "(nlm,)")
    real = np.dtype(p.dtype)
    return q.map_blocks(_synth_block, dask.delayed(shipped, pure=True),
                        dtype=real, new_axis=q.ndim, chunks=q.chunks[:-1] + ((p.nlat,), (p.nphi,)),
                        meta=np.empty((0,) * (q.ndim + 1), real))


def _check_core(x, core: tuple[int, ...], what: str) -> None:
    k = len(core)
    if x.ndim < k or tuple(x.shape[-k:]) != core:
        raise ValueError(f"array: shape {x.shape}, expected (..., "
                         + ", ".join(map(str, core)) + f") {what}")
    split = [n for n, c in zip(x.shape[-k:], x.chunks[-k:]) if len(c) > 1]
    if split:
        raise ValueError(f"array: chunks {x.chunks[-k:]} along the last {k} axes {what}, "
                         f"expected one chunk each: rechunk them with "
                         f"x.rechunk({{{', '.join(str(x.ndim - k + i) + ': -1' for i in range(k))}}})")


def _analys_block(block: np.ndarray, shipped: ShippedModule) -> np.ndarray:
    return shipped.module().analys(block)


def _synth_block(block: np.ndarray, shipped: ShippedModule) -> np.ndarray:
    return shipped.module().synth(block)
