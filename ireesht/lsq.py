"""Least-squares analysis for plans whose analysis is approximate (an equiangular grid with
``lmax > nlat - 2``, a Fejer grid with ``lmax > nlat - 1``): conjugate gradients on the normal equations (CGLS) with the module's
own synthesis and analysis, nothing else.

With ``W_i = w_i 2 pi / nphi`` (the analysis's ring weights) and ``c_m`` (1 for m = 0, 2 for
m > 0, 4 for a Nyquist order: ``adjoint.order_factors``), the quadrature analysis is ``A =
S^*``, the adjoint of synthesis S for the inner products ``<f, g>_W = sum W f g`` on fields
and ``<a, b>_c = sum c_m Re(a conj b)`` on coefficients (``ireesht.adjoint``: ``S^T g = c_m
A(g / W)``). CGLS on ``min ||S q - f||_W`` then needs only S and A; started from 0 it
converges to the least-squares solution of least ``c``-norm, which per order is the least
Euclidean norm (the problem separates by order and c is constant in each), i.e. ``pinv(S_m)
f_m`` when f is in S's range.
"""

from __future__ import annotations

import numpy as np

from ireesht.adjoint import order_factors, ring_weights
from ireesht.validate import check_int

__all__ = ["analys_lsq"]

# default relative tolerance on ||A r||_c, per dtype: past it rounding dominates
_TOL = {"float32": 1e-5, "float64": 1e-11}


def analys_lsq(module, f, iterations: int = 50, tol: float | None = None) -> np.ndarray:
    """Least-squares analysis: ``argmin_q ||synth(q) - f||_W`` (least norm), by CGLS.

    For plans whose analysis is exact (``module.info["exact_quadrature"]``) this is
    ``module.analys(f)``, one call. Else each iteration costs one synthesis and one analysis
    of the batch on the module's device; the host does the vector updates in float64.

    Parameters
    ----------
    module : ireesht.Module
    f : (..., nlat, nphi) real numpy array, finite
    iterations : the most CGLS iterations, >= 1
    tol : stop once ``||A r||_c <= tol ||A f||_c`` for every field (default 1e-5 in
        float32, 1e-11 in float64)

    Returns
    -------
    (..., nlm) complex numpy array, of the plan's complex dtype.
    """
    plan = module.plan
    iterations = check_int("iterations", iterations, minimum=1)
    tol = _TOL[plan.dtype] if tol is None else tol
    if not isinstance(tol, (int, float)) or isinstance(tol, bool) or not tol >= 0:
        raise ValueError(f"tol={tol!r}: expected a number >= 0")
    f = np.asarray(f)
    if f.ndim < 2 or f.shape[-2:] != (plan.nlat, plan.nphi):
        raise ValueError(f"f: shape {f.shape}, expected (..., {plan.nlat}, {plan.nphi})")
    if plan.exact:
        return module.analys(f)
    real = np.dtype(plan.dtype)
    cplx = np.result_type(real, np.complex64)
    batch = f.shape[:-2]
    fb = f.reshape(-1, plan.nlat, plan.nphi).astype(np.float64)
    w = ring_weights(plan.grid, plan.nlat, plan.nphi)
    c = order_factors(plan.lmax, plan.mmax, plan.nyquist)

    def synth(q):
        return module.synth(q.astype(cplx)).astype(np.float64)

    def analys(r):
        return module.analys(r.astype(real)).astype(np.complex128)

    def norm_c(a):
        return np.sum(c * (a.real ** 2 + a.imag ** 2), axis=-1)

    def norm_w(g):
        return np.sum(w * g * g, axis=(-2, -1))

    x = np.zeros((fb.shape[0], plan.nlm), np.complex128)
    r = fb.copy()
    s = analys(r)
    p = s.copy()
    gamma = norm_c(s)
    stop = (tol * tol) * gamma
    for _ in range(iterations):
        active = gamma > stop
        if not active.any():
            break
        t = synth(p)
        alpha = np.where(active, gamma / np.maximum(norm_w(t), np.finfo(np.float64).tiny), 0.0)
        x += alpha[:, None] * p
        r -= alpha[:, None, None] * t
        s = analys(r)
        new = norm_c(s)
        beta = np.where(active, new / np.maximum(gamma, np.finfo(np.float64).tiny), 0.0)
        p = s + beta[:, None] * p
        gamma = np.where(active, new, gamma)
    return x.astype(cplx).reshape(batch + (plan.nlm,))
