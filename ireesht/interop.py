"""DLPack in, same kind out: ``Module.synth`` / ``analys`` (and their adjoints) on torch, JAX,
CuPy or any other DLPack array, returning an array of the caller's library on its device.

Coefficients come as complex arrays ``(..., nlm)`` (any leading batch shape) and are read
as the kernels' interleaved ``(B, nlm, 2)`` real layout by re-viewing their memory (IREE
buffer views take any shape and element type over one buffer: no copy, for JAX too, which
has no ``view_as_real``). Fields are ``(..., nlat, nphi)`` real. Results: complex
``(..., nlm)`` or real ``(..., nlat, nphi)``, of the plan's dtype.

Where the module's device can read the array's memory in place, nothing is copied: the
input is imported (``HalDevice.from_dlpack_capsule``) and the result is a new array of the
caller's library (``torch.empty`` and the like, on the input's device) that the module writes
in place, so that the caller's allocator owns it:

- target ``cpu`` and arrays in host memory. IREE imports only 64-byte aligned memory (torch
  and JAX allocate so; numpy, ``torch.from_numpy`` and offset views often are not): other
  arrays are copied once.
- target ``cuda`` and arrays on CUDA device 0 (the device ``target="cuda"`` opens by
  default); tested on an H100/H200 with torch, CuPy and JAX (``tests/integration/
  test_cuda.py``). The caller's current stream is synchronized before IREE reads the input
  (its pending writes are done), and the call has finished when the result is handed back,
  so work the caller then queues on any stream sees it.

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

__all__ = ["is_foreign", "transform", "constant_like", "dtype_of", "stack"]

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

    def empty(self, shape, dtype, like):
        """A new array of ``like``'s library and device, for the module to write into."""
        return np.empty(shape, dtype)

    def device_key(self, like):
        """What tells ``like``'s device apart (``constant_like``'s cache)."""
        return None

    def synchronize(self, x) -> None:
        pass

    def stack(self, xs):
        """One array of the arrays ``xs`` (same shape) along a new first axis, on their
        device."""
        return np.stack([np.from_dlpack(x) for x in xs])


class _Torch(_Numpy):
    def plain(self, x, dtype):
        import torch

        to = getattr(torch, dtype.name)
        # detach: autograd's tensors refuse DLPack; conj/neg bits are lazy, DLPack has none
        return x.detach().resolve_conj().resolve_neg().to(dtype=to).contiguous()

    def host(self, x) -> np.ndarray:
        return x.cpu().numpy()

    def stack(self, xs):
        import torch

        return torch.stack([x.detach() for x in xs])

    def from_dlpack(self, obj):
        import torch

        return torch.from_dlpack(obj)

    def from_numpy(self, a, like):
        import torch

        return torch.from_numpy(a).to(like.device)

    def constant(self, a, like):
        import torch

        # a copy of a read-only array (torch warns that it cannot mark a tensor read-only);
        # constant_like converts those once per device
        return torch.as_tensor(a if a.flags.writeable else a.copy(), device=like.device)

    def device_key(self, like):
        return str(like.device)

    def empty(self, shape, dtype, like):
        import torch

        return torch.empty(shape, dtype=getattr(torch, np.dtype(dtype).name), device=like.device)

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

    def device_key(self, like):
        return str(next(iter(like.devices())))

    def empty(self, shape, dtype, like):
        import jax
        import jax.numpy as jnp

        # a fresh buffer that only the result will hold (jnp.empty is zeros in JAX)
        with jax.default_device(next(iter(like.devices()))):
            return jnp.zeros(shape, dtype).block_until_ready()

    def synchronize(self, x) -> None:
        x.block_until_ready()

    def stack(self, xs):
        import jax.numpy as jnp

        return jnp.stack(xs)


class _Cupy(_Numpy):
    def plain(self, x, dtype):
        import cupy

        return cupy.ascontiguousarray(x, dtype=dtype)

    def host(self, x) -> np.ndarray:
        return x.get()

    def stack(self, xs):
        import cupy

        return cupy.stack(xs)

    def from_dlpack(self, obj):
        import cupy

        return cupy.from_dlpack(obj)

    def from_numpy(self, a, like):
        import cupy

        with like.device:
            return cupy.asarray(a)

    constant = from_numpy

    def device_key(self, like):
        return like.device.id

    def empty(self, shape, dtype, like):
        import cupy

        with like.device:
            return cupy.empty(shape, dtype)

    def synchronize(self, x) -> None:
        import cupy

        with x.device:
            cupy.cuda.get_current_stream().synchronize()


_LIBRARIES = {"torch": _Torch(), "jax": _Jax(), "jaxlib": _Jax(), "cupy": _Cupy()}
_HOST_ONLY = _Numpy()


def _library(x) -> _Numpy:
    return _LIBRARIES.get(type(x).__module__.split(".")[0], _HOST_ONLY)


# read-only host constants already converted: (id, library, device) -> (host, converted)
_CONSTANTS: dict[tuple, tuple] = {}
_MAX_CONSTANTS = 64


def constant_like(a: np.ndarray, like):
    """Host array ``a`` as an array of ``like``'s library on ``like``'s device (numpy for
    numpy and host-only libraries): for elementwise scalings in that library. A read-only
    ``a`` (a plan's cached constant, ``adjoint._constants``) is converted once per device."""
    if not is_foreign(like):
        return a
    lib = _library(like)
    if a.flags.writeable:
        return lib.constant(a, like)
    key = (id(a), type(like).__module__, lib.device_key(like))
    hit = _CONSTANTS.get(key)
    if hit is not None and hit[0] is a:
        return hit[1]
    value = lib.constant(a, like)
    if len(_CONSTANTS) >= _MAX_CONSTANTS:
        _CONSTANTS.pop(next(iter(_CONSTANTS)))
    _CONSTANTS[key] = (a, value)
    return value


def stack(what: str, xs) -> object:
    """The DLPack arrays ``xs`` (a list or tuple, of one library, dtype and shape) as one array
    of their library with a new first axis: the fields of one call (``Module.synth([...])``).
    Raises ValueError naming what differs."""
    first = xs[0]
    kinds = {(type(x).__module__.split(".")[0], type(x).__name__) for x in xs}
    if len(kinds) > 1 or not all(is_foreign(x) for x in xs):
        raise ValueError(f"{what}: a list of {sorted(kinds)} arrays, expected arrays of one "
                         "library (torch, JAX or CuPy), or numpy arrays")
    for i, x in enumerate(xs):
        if tuple(x.shape) != tuple(first.shape) or x.dtype != first.dtype:
            raise ValueError(f"{what}[{i}]: {tuple(x.shape)} {x.dtype}, expected the shape "
                             f"and dtype of {what}[0], {tuple(first.shape)} {first.dtype}")
        if x.__dlpack_device__() != first.__dlpack_device__():
            raise ValueError(f"{what}[{i}]: on device {x.__dlpack_device__()}, expected "
                             f"{what}[0]'s, {first.__dlpack_device__()}")
    return _library(first).stack(list(xs))


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
    what, trailing, complex_in, result_trailing, complex_out = module.signature(name)
    wanted = (np.complex64, np.complex128) if complex_in else (np.float32, np.float64)
    if dtype_of(x) not in [np.dtype(t) for t in wanted]:
        raise ValueError(f"{what}: dtype {x.dtype}, expected "
                         + " or ".join(np.dtype(t).name for t in wanted))
    shape = tuple(x.shape)
    if len(shape) < len(trailing) or shape[len(shape) - len(trailing):] != trailing:
        raise module.shape_error(name, shape)
    lead = shape[:len(shape) - len(trailing)]
    result_shape = lead + result_trailing
    batch = math.prod(lead)
    x = lib.plain(x, cplx if complex_in else real)
    if batch == 0:
        return lib.from_numpy(np.zeros(result_shape, cplx if complex_out else real), x)
    kernel_shape = (batch, *trailing) + ((2,) if complex_in else ())
    shared = _shared_device(module, x)
    arg = _import(module, x, kernel_shape, real, lib) if shared else None
    if shared and arg is not None:
        # the result is an array of the caller's library, which the module writes in place:
        # IREE's CUDA allocator cannot export its own buffers (3.13: "CUDA buffer type is not
        # supported for export"), and the caller's allocator then accounts for the memory
        result = lib.empty(result_shape, cplx if complex_out else real, x)
        out = _import(module, result,
                      (batch, *result_trailing) + ((2,) if complex_out else ()), real, lib)
        if out is not None:
            getattr(module, name)(arg, out=out)  # returns once the result is written
            return result
    if arg is None:  # through the host
        host = np.ascontiguousarray(lib.host(x), dtype=cplx if complex_in else real)
        arg = module.upload(host.view(real).reshape(kernel_shape))
    y = getattr(module, name)(arg)  # device array in, a new device array out
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
