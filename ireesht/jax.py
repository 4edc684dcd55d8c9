"""JAX: differentiable transforms that work under ``jax.jit`` and ``jax.vmap``.

``synth(module, q)``: ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real; ``analys(module,
f)``: the reverse; ``module`` any ``ireesht.Module`` (compiled or loaded, any target), results
of the plan's dtype. Each is a ``jax.custom_vjp`` whose backward pass is the exact adjoint
(``ireesht.adjoint``), conjugated for JAX's convention (JAX pairs a cotangent ``ct`` with a
tangent ``t`` as ``Re(ct t)``, PyTorch as ``Re(conj(ct) t)``). Reverse mode only (``grad``,
``vjp``); forward mode (``jvp``) is not defined.

Cost: the module runs through ``jax.pure_callback``, so that it can sit inside ``jit``: each
call is a round trip through the host (the arguments are copied to numpy, the module's
device is called, and the result copied back into JAX), whatever JAX's device. Outside
``jit``, ``module.synth(jax_array)`` (``ireesht.interop``) avoids the copies on the CPU.
float64 plans need ``jax.config.update("jax_enable_x64", True)``.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ireesht import adjoint
from ireesht.validate import check_kind

__all__ = ["synth", "analys"]


def _like(a: np.ndarray, x):
    return jnp.asarray(a)


def synth(module, q):
    """Synthesis of ``q`` (``(..., nlm)`` complex) by ``module``: ``(..., nlat, nphi)`` real."""
    return _synth(module, _checked(module, "synth", q))


def analys(module, f):
    """Analysis of ``f`` (``(..., nlat, nphi)`` real) by ``module``: ``(..., nlm)`` complex."""
    return _analys(module, _checked(module, "analys", f))


def _checked(module, name: str, x):
    """``x`` checked as the module checks it, in the plan's dtype (the cast is JAX's, and
    differentiated by it)."""
    p = module.plan
    x = jnp.asarray(x)
    real = np.dtype(p.dtype)
    if name == "synth":
        trailing, what, kind, dtype = (p.nlm,), "qlm", "c", np.result_type(real, np.complex64)
    else:
        trailing, what, kind, dtype = (p.nlat, p.nphi), "spatial", "f", real
    if np.dtype(x.dtype).kind != kind:  # the width is the cast's (to the plan's dtype)
        check_kind(what, x.dtype, kind == "c")
    n = len(trailing)
    if x.ndim < n or tuple(x.shape[x.ndim - n:]) != trailing:
        raise ValueError(f"{what}: shape {tuple(x.shape)}, expected (..., "
                         + ", ".join(map(str, trailing)) + ")")
    return x.astype(dtype)


def _call(module, name: str, x):
    """``module.<name>`` through a host callback (``vmap``: one call, batch dims leading)."""
    p = module.plan
    real = np.dtype(p.dtype)
    n, result = (1, (p.nlat, p.nphi)) if name == "synth" else (2, (p.nlm,))
    out = jax.ShapeDtypeStruct(tuple(x.shape[:x.ndim - n]) + result,
                               real if name == "synth" else np.result_type(real, np.complex64))

    def host(a):
        return np.asarray(getattr(module, name)(np.asarray(a)))

    return jax.pure_callback(host, out, x, vmap_method="expand_dims")


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def _synth(module, q):
    return _call(module, "synth", q)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0,))
def _analys(module, f):
    return _call(module, "analys", f)


def _synth_fwd(module, q):
    return _synth(module, q), None


def _synth_bwd(module, _, g):
    # S^T g is the gradient for PyTorch's pairing; JAX's cotangent is its conjugate
    return (jnp.conj(adjoint.transpose_synth(g, module.plan, lambda f: _analys(module, f),
                                             _like)),)


def _analys_fwd(module, f):
    return _analys(module, f), None


def _analys_bwd(module, _, ct):
    return (adjoint.transpose_analys(jnp.conj(ct), module.plan, lambda q: _synth(module, q),
                                     _like),)


_synth.defvjp(_synth_fwd, _synth_bwd)
_analys.defvjp(_analys_fwd, _analys_bwd)
