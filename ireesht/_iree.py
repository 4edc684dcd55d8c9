"""Thin helpers around IREE 3.13 used across ireesht: compile, load, read back.

The compiler (``iree-base-compiler``) is imported lazily, so modules that only run
precompiled ``.vmfb`` files need just ``iree-base-runtime``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

import iree.runtime as rt

__all__ = ["TARGET_FLAGS", "Loaded", "compile_mlir", "kernels_dir", "load_vmfb", "to_numpy"]

# iree-compile flags selecting the device of each ireesht target.
TARGET_FLAGS: dict[str, list[str]] = {
    "vulkan": ["--iree-hal-target-device=vulkan"],
}

# IREE runtime driver of each target.
TARGET_DRIVERS: dict[str, str] = {"vulkan": "vulkan"}

_SOURCE_KERNELS = Path(__file__).resolve().parent.parent / "kernels" / "wgsl"


def kernels_dir() -> Path:
    """Directory holding the shipped ``.spv`` kernels.

    From a wheel it is the package ``ireesht.kernels.wgsl`` (pyproject maps
    ``kernels/wgsl`` there; editable installs resolve the same way); from a plain source
    checkout it is ``<repo>/kernels/wgsl``. The spec's search locations are used rather
    than ``importlib.resources.files``: the package has no ``__init__.py``, and for such
    namespace packages ``files()`` returns a ``MultiplexedPath`` whose ``str()`` is not a path.
    """
    try:
        spec = importlib.util.find_spec("ireesht.kernels.wgsl")
    except ModuleNotFoundError:
        spec = None
    if spec is not None:
        for loc in spec.submodule_search_locations or ():
            if any(Path(loc).glob("*.spv")):
                return Path(loc)
    if _SOURCE_KERNELS.is_dir():
        return _SOURCE_KERNELS
    raise FileNotFoundError("ireesht kernels not found: neither package ireesht.kernels.wgsl "
                            f"nor {_SOURCE_KERNELS} holds .spv files")


def compile_mlir(text: str, target: str, extra_args: Sequence[str] = ()) -> bytes:
    """Compile MLIR text to a ``.vmfb`` for ``target`` (``"vulkan"``).

    Relative ``#hal.executable.object<{path = ...}>`` paths resolve against
    :func:`kernels_dir`. f64 demotion is turned off: ireesht's f64 tensors are meant as
    such, and the demotion pass crashes on ``hal.dispatch.extern`` in 3.13.

    Raises ``ValueError`` for an unknown target and ``iree.compiler.CompilerToolError``
    when iree-compile fails (its message carries the diagnostics).
    """
    from iree.compiler import compile_str

    if target not in TARGET_FLAGS:
        raise ValueError(f"unknown target {target!r}; known: {sorted(TARGET_FLAGS)}")
    args = [
        *TARGET_FLAGS[target],
        "--iree-input-demote-f64-to-f32=false",
        f"--iree-hal-executable-object-search-path={kernels_dir()}",
        *extra_args,
    ]
    return compile_str(text, extra_args=args)


@dataclass
class Loaded:
    """A ``.vmfb`` loaded on a device; ``module`` exposes its exported functions."""

    device: Any  # iree.runtime.HalDevice
    config: rt.Config
    context: rt.SystemContext
    module: Any  # attribute/item access to the exported functions

    def to_numpy(self, array: rt.DeviceArray | rt.HalBufferView) -> np.ndarray:
        """:func:`to_numpy` on this device."""
        return to_numpy(self.device, array)


def load_vmfb(vmfb: bytes, target: str = "vulkan", device: Any = None) -> Loaded:
    """Load compiled bytes on ``device`` (default: the first device of the target's driver)."""
    if device is None:
        device = rt.get_device(TARGET_DRIVERS[target])
    config = rt.Config(device=device)
    vm_module = rt.VmModule.copy_buffer(config.vm_instance, vmfb)
    context = rt.SystemContext(vm_modules=[vm_module], config=config)
    return Loaded(device, config, context, context.modules[vm_module.name])


def to_numpy(device: Any, device_array: rt.DeviceArray | rt.HalBufferView) -> np.ndarray:
    """Copy a device result to a new host array through a host-visible staging buffer.

    ``DeviceArray.to_host()`` / ``np.asarray`` fail on IREE 3.13's Vulkan driver: they try
    to import a fresh numpy allocation, and Vulkan imports only 4096-byte aligned host
    memory. A queue copy into a mappable buffer works on every driver.
    """
    view = device_array._buffer_view if isinstance(device_array, rt.DeviceArray) else device_array
    src = view.get_buffer()
    staging = device.allocator.allocate_buffer(
        memory_type=int(rt.MemoryType.HOST_LOCAL | rt.MemoryType.DEVICE_VISIBLE),
        allowed_usage=int(rt.BufferUsage.TRANSFER_TARGET | rt.BufferUsage.MAPPING_SCOPED),
        allocation_size=src.byte_length(),
    )
    sem = device.create_semaphore(0)
    device.queue_copy(
        src, staging,
        wait_semaphores=rt.HalFence.create_at(sem, 0),
        signal_semaphores=rt.HalFence.create_at(sem, 1),
    )
    rt.HalFence.create_at(sem, 1).wait()
    dtype = rt.HalElementType.map_to_dtype(view.element_type)
    return np.array(staging.map().asarray(tuple(view.shape), dtype))  # copy out of the mapping
