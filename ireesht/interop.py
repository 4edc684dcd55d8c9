"""DLPack in, same kind out: ``Module.synth`` / ``analys`` (and their adjoints) on torch, JAX,
CuPy or any other DLPack array, returning an array of the caller's library on its device.

Coefficients come as complex arrays ``(..., nlm)`` (any leading batch shape) and are read
as the kernels' interleaved ``(B, nlm, 2)`` real layout by re-viewing their memory (IREE
buffer views take any shape and element type over one buffer: no copy, for JAX too, which
has no ``view_as_real``). Fields are ``(..., nlat, nphi)`` real. Results: complex
``(..., nlm)`` or real ``(..., nlat, nphi)``, of the plan's dtype.

Where the module's device can read the array's memory in place, nothing is copied:

- target ``cpu`` and an array in host memory: ``HalDevice.from_dlpack_capsule`` imports it,
  and the result (a buffer IREE allocated for this call, never reused) goes back through
  ``HalDevice.create_dlpack_capsule``. IREE imports only 64-byte aligned memory (torch and
  JAX allocate so; numpy, ``torch.from_numpy`` and offset views often are not): other arrays
  are copied once.
- target ``cuda`` and an array on CUDA device 0 (the device ``target="cuda"`` opens by
  default): the same calls with DLPack's CUDA device type. UNTESTED: it has never run on
  a GPU. The caller's stream is synchronized before IREE reads the array, and IREE's call
  has finished when the result is handed back.

Every other case (Vulkan and Metal modules, an array on another device than the module's)
goes through the host: one copy to the host in the caller's library, the module's upload,
and one copy back to the caller's device. Inputs are first made contiguous and of the plan's
dtype in the caller's library (a copy where they are not). Values are not checked for NaN,
as for device arrays. ``out=`` and ``sync=False`` take ``iree.runtime.DeviceArray`` only.
"""

from __future__ import annotations

import math

import iree.runtime as rt
import numpy as np

from ireesht.runtime import device as rtmod

__all__ = ["is_foreign", "transform", "constant_like", "dtype_of"]

# DLPack device types (dlpack.h)
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST = 1, 2, 3

_ELEMENT = {np.dtype(np.float32): rt.HalElementType.FLOAT_32,
            np.dtype(np.float64): rt.HalElementType.FLOAT_64}
_COMPLEX_ELEMENT = {np.dtype(np.float32): rt.HalElementType.COMPLEX_64,
                    np.dtype(np.float64): rt.HalElementType.COMPLEX_128}


def is_foreign(x) -> bool:
    """Whether ``x`` is a DLPack array that is neither numpy's nor IREE's (torch, JAX, CuPy)."""
    return (hasattr(x, "__dlpack__") and not isinstance(x, (np.ndarray, np.generic))
            and not rtmod.is_device_array(x))


def dtype_of(x) -> np.dtype | None:
    """The numpy dtype of an array of any library (None for one numpy has no name for)."""
    d = x.dtype
    if isinstance(d, np.dtype):
        return d
    try:
        return np.dtype(str(d).removeprefix("torch."))
    except TypeError:
        return None


# --- the few operations each array library needs ---------------------------------------
class _Numpy:
    """numpy, and any other DLPack library on the host (its results come back as numpy)."""

    def plain(self, x, dtype):
        return np.ascontiguousarray(np.from_dlpack(x) if is_foreign(x) else x, dtype=dtype)

    def host(self, x) -> np.ndarray:
        return x

    def from_dlpack(self, obj):
        return np.from_dlpack(obj)

    def from_numpy(self, a: np.ndarray, like):
        return a

    def constant(self, a: np.ndarray, like):
        return a

    def synchronize(self, x) -> None:
        pass


class _Torch(_Numpy):
    def plain(self, x, dtype):
        import torch

        to = getattr(torch, dtype.name)
        # detach: autograd's tensors refuse DLPack; conj/neg bits are lazy, DLPack has none
        return x.detach().resolve_conj().resolve_neg().to(dtype=to).contiguous()

    def host(self, x) -> np.ndarray:
        return x.cpu().numpy()

    def from_dlpack(self, obj):
        import torch

        return torch.from_dlpack(obj)

    def from_numpy(self, a, like):
        import torch

        return torch.from_numpy(a).to(like.device)

    def constant(self, a, like):
        import torch

        return torch.as_tensor(a, device=like.device)

    def synchronize(self, x) -> None:
        if x.is_cuda:
            import torch

            torch.cuda.current_stream(x.device).synchronize()


class _Jax(_Numpy):
    def plain(self, x, dtype):
        return x if x.dtype == dtype else x.astype(dtype)  # JAX arrays are contiguous

    def host(self, x) -> np.ndarray:
        return np.asarray(x)

    def from_dlpack(self, obj):
        import jax.numpy as jnp

        return jnp.from_dlpack(obj)

    def from_numpy(self, a, like):
        import jax

        return jax.device_put(a, next(iter(like.devices())))

    constant = from_numpy

    def synchronize(self, x) -> None:
        x.block_until_ready()


class _Cupy(_Numpy):
    def plain(self, x, dtype):
        import cupy

        return cupy.ascontiguousarray(x, dtype=dtype)

    def host(self, x) -> np.ndarray:
        return x.get()

    def from_dlpack(self, obj):
        import cupy

        return cupy.from_dlpack(obj)

    def from_numpy(self, a, like):
        import cupy

        with like.device:
            return cupy.asarray(a)

    constant = from_numpy

    def synchronize(self, x) -> None:
        import cupy

        with x.device:
            cupy.cuda.get_current_stream().synchronize()


_LIBRARIES = {"torch": _Torch(), "jax": _Jax(), "jaxlib": _Jax(), "cupy": _Cupy()}
_HOST_ONLY = _Numpy()


def _library(x) -> _Numpy:
    return _LIBRARIES.get(type(x).__module__.split(".")[0], _HOST_ONLY)


def constant_like(a: np.ndarray, like):
    """Host array ``a`` as an array of ``like``'s library on ``like``'s device (numpy for
    numpy and host-only libraries): for elementwise scalings in that library."""
    return _library(like).constant(a, like) if is_foreign(like) else a


# --- the transform -----------------------------------------------------------------------
def transform(module, name: str, x, out=None, sync: bool = True):
    """``module.<name>(x)`` (``name`` "synth", "analys", "vsynth" or "vanalys", shapes from
    ``Module.signature``) for a DLPack array ``x`` of any library: the result in that
    library, on ``x``'s device (module doc for the copies)."""
    if out is not None or not sync:
        raise ValueError(f"out= and sync=False take iree.runtime.DeviceArray inputs; "
                         f"{type(x).__module__}.{type(x).__name__}: the result is returned")
    p = module.plan
    real = np.dtype(p.dtype)
    cplx = np.result_type(real, np.complex64)
    lib = _library(x)
    what, trailing, complex_in, result, complex_out = module.signature(name)
    wanted = (np.complex64, np.complex128) if complex_in else (np.float32, np.float64)
    if dtype_of(x) not in [np.dtype(t) for t in wanted]:
        raise ValueError(f"{what}: dtype {x.dtype}, expected "
                         + " or ".join(np.dtype(t).name for t in wanted))
    shape = tuple(x.shape)
    if len(shape) < len(trailing) or shape[len(shape) - len(trailing):] != trailing:
        raise module.shape_error(name, shape)
    lead = shape[:len(shape) - len(trailing)]
    result_shape = lead + result
    batch = math.prod(lead)
    x = lib.plain(x, cplx if complex_in else real)
    if batch == 0:
        return lib.from_numpy(np.zeros(result_shape, cplx if complex_out else real), x)
    kernel_shape = (batch, *trailing) + ((2,) if complex_in else ())
    shared = _shared_device(module, x)
    arg = _import(module, x, kernel_shape, real, lib) if shared else None
    if arg is None:  # through the host
        host = np.ascontiguousarray(lib.host(x), dtype=cplx if complex_in else real)
        arg = module.upload(host.view(real).reshape(kernel_shape))
    y = getattr(module, name)(arg)  # device array in, a new device array out
    if shared:
        et = _COMPLEX_ELEMENT[real] if complex_out else _ELEMENT[real]
        view = rt.HalBufferView(y._buffer_view.get_buffer(), list(result_shape), int(et))
        capsule = module._session.device.create_dlpack_capsule(view, *shared)
        return lib.from_dlpack(_Exported(capsule, shared))
    host = module.to_numpy(y)
    host = host.view(cplx) if complex_out else host
    return lib.from_numpy(host.reshape(result_shape), x)


def _shared_device(module, x) -> tuple[int, int] | None:
    """The DLPack device ``(type, id)`` of ``x`` where the module's device reads it in place."""
    dev_type, dev_id = (int(v) for v in x.__dlpack_device__())
    target = module.plan.target
    if target == "cpu" and dev_type in (_DL_CPU, _DL_CUDA_HOST):
        return (_DL_CPU, 0)
    if target == "cuda" and dev_type == _DL_CUDA and dev_id == 0:
        return (_DL_CUDA, 0)
    return None


def _import(module, x, kernel_shape, real: np.dtype, lib):
    """``x`` as a device array of the kernel layout without a copy, or None where IREE
    cannot import it (memory not 64-byte aligned, strides it does not take)."""
    lib.synchronize(x)  # the producer's pending writes are done before IREE reads x
    try:
        view = module._session.device.from_dlpack_capsule(x.__dlpack__())
    except (IndexError, ValueError, RuntimeError, TypeError, BufferError):
        return None
    buffer = view.get_buffer()
    if buffer.byte_length() != math.prod(kernel_shape) * real.itemsize:
        return None
    kernel_view = rt.HalBufferView(buffer, list(kernel_shape), int(_ELEMENT[real]))
    return rt.DeviceArray(module._session.device, kernel_view, override_dtype=real)


class _Exported:
    """A DLPack capsule made by IREE, as the object ``from_dlpack`` of each library takes."""

    def __init__(self, capsule, device: tuple[int, int]):
        self._capsule, self._device = capsule, device

    def __dlpack__(self, **_):
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return self._device
