"""Vector (spin-1) fields: the convention, the coefficient helpers and the host tables of the
vector transforms, which compose the scalar kernels (docs/design.md, "Vector transforms").

Convention
----------
A tangent vector field ``u = (u_theta, u_phi)`` on the unit sphere (theta colatitude, so
``u_theta`` points south and ``u_phi`` east) is written with a spheroidal scalar ``S`` and a
toroidal scalar ``T``, each a real field of band limit lmax with packed coefficients
(``ireesht.numerics.layout``)::

    u = grad S + r x grad T
    u_theta = dS/dtheta - (1/sin theta) dT/dphi,   u_phi = (1/sin theta) dS/dphi + dT/dtheta

so that ``div u = lap S`` and ``r . curl u = lap T``: ``div_lm = -l(l+1) S_lm`` and
``vort_lm = -l(l+1) T_lm``. In meteorology's terms ``S`` is the velocity potential chi and
``T`` the streamfunction psi (``u = k x grad psi + grad chi``), and the wind components are
``(u, v) = (u_phi, -u_theta)``. ``S_00`` and ``T_00`` carry nothing (set to 0 by analysis).
ducc0's spin-1 transforms use the same fields: its ``(grad, curl)`` coefficients are
``sqrt(l(l+1)) (S, T)`` and its maps ``(u_theta, u_phi)``
(tests/numerics/test_vector_reference.py).

The transforms (device side) use ``sin(theta) d/dtheta Y_lm = l e_{l+1,m} Y_{l+1,m} -
(l+1) e_{lm} Y_{l-1,m}``, ``e_lm = sqrt((l^2 - m^2) / (4 l^2 - 1))``: ``sin(theta) u`` is a
scalar field of band limit lmax + 1 whose coefficients mix S and T along l
(``synth_mix``), and the analysis is its transpose (``analys_mix``). The division by
``sin(theta)`` is in the Legendre seeds (``legendre.seed_table(..., over_sin=True)``). At a
pole it has a finite limit: there the m = 0 parts of ``u_theta``, ``u_phi`` vanish (they are
``-sin(theta) dP_l0/dx`` terms), orders m >= 2 carry ``sin^(m-1)`` and vanish, and order 1's
``P_l1 / sin(theta)`` tends to a polynomial's value, so the seeds there are ``c_1`` for m = 1
and 0 otherwise, and the pole rows need no terms of their own, in synthesis (their values) or
analysis (the quadrature's node there).
"""

from __future__ import annotations

import numpy as np

from ireesht.numerics.layout import lm_indices, nlm
from ireesht.validate import check_array

__all__ = ["divergence", "vorticity", "from_divergence_vorticity", "gradient",
           "synth_mix", "analys_mix"]


def _eps(l: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``e_lm = sqrt((l^2 - m^2) / (4 l^2 - 1))`` (0 where l <= m)."""
    l, m = np.asarray(l, np.float64), np.asarray(m, np.float64)
    return np.sqrt(np.maximum(l * l - m * m, 0.0) / np.maximum(4.0 * l * l - 1.0, 1.0))


def _ll1(lmax: int, mmax: int, shape: tuple[int, ...]) -> np.ndarray:
    """``l (l + 1)`` of each packed coefficient; checks the last axis of ``shape``."""
    n = nlm(lmax, mmax)
    if len(shape) < 1 or shape[-1] != n:
        raise ValueError(f"coefficients: shape {shape}, expected (..., {n}) for "
                         f"lmax={lmax}, mmax={mmax}")
    l, _ = lm_indices(lmax, mmax)
    return (l * (l + 1)).astype(np.float64)


def divergence(st, lmax: int, mmax: int | None = None) -> np.ndarray:
    """Coefficients of ``div u`` from ``st = (..., 2, nlm)`` (S, T): ``-l(l+1) S``."""
    st = check_array("st", st, kinds="iufc")
    mmax = lmax if mmax is None else mmax
    if st.ndim < 2 or st.shape[-2] != 2:
        raise ValueError(f"st: shape {st.shape}, expected (..., 2, nlm): S and T")
    return -_ll1(lmax, mmax, st.shape) * st[..., 0, :]


def vorticity(st, lmax: int, mmax: int | None = None) -> np.ndarray:
    """Coefficients of the radial vorticity ``r . curl u`` from ``st = (..., 2, nlm)``:
    ``-l(l+1) T``."""
    st = check_array("st", st, kinds="iufc")
    mmax = lmax if mmax is None else mmax
    if st.ndim < 2 or st.shape[-2] != 2:
        raise ValueError(f"st: shape {st.shape}, expected (..., 2, nlm): S and T")
    return -_ll1(lmax, mmax, st.shape) * st[..., 1, :]


def from_divergence_vorticity(div, vort, lmax: int, mmax: int | None = None) -> np.ndarray:
    """``(..., 2, nlm)`` (S, T) from the coefficients of the divergence and the vorticity
    (``(..., nlm)`` each): ``S = -div / (l(l+1))``, ``T = -vort / (l(l+1))``, 0 at l = 0
    (whose divergence and vorticity integrate to zero over the sphere)."""
    div = check_array("div", div, kinds="iufc")
    vort = check_array("vort", vort, kinds="iufc")
    mmax = lmax if mmax is None else mmax
    if div.shape != vort.shape:
        raise ValueError(f"div, vort: shapes {div.shape} and {vort.shape}, expected equal")
    ll1 = _ll1(lmax, mmax, div.shape)
    inv = np.divide(-1.0, ll1, out=np.zeros_like(ll1), where=ll1 > 0)
    return np.stack([div * inv, vort * inv], axis=-2).astype(np.result_type(div, vort, 1j))


def gradient(qlm) -> np.ndarray:
    """``(..., 2, nlm)`` (S, T) = (q, 0) of the gradient of the scalar field of coefficients
    ``qlm`` ``(..., nlm)``: ``module.vsynth(gradient(q))`` is ``(df/dtheta, df/dphi /
    sin(theta))``; ``(0, q)`` would give ``r x grad f``."""
    q = check_array("qlm", qlm, kinds="iufc")
    if q.ndim < 1:
        raise ValueError(f"qlm: shape {q.shape}, expected (..., nlm)")
    return np.stack([q, np.zeros_like(q)], axis=-2).astype(np.result_type(q, 1j))


def synth_mix(lmax: int, mmax: int) -> np.ndarray:
    """``(nlm(lmax + 1, mmax), 4)`` float64, row k' = (l', m) of the packing at lmax + 1:
    ``(a, b, mm, m)`` with ``sin(theta) u_theta`` of coefficients ``a S_{l'-1} + b S_{l'+1}
    - i mm T_{l'}`` and ``sin(theta) u_phi`` of ``a T_{l'-1} + b T_{l'+1} + i mm S_{l'}``
    (S, T packed at lmax, where (l', m) sits at k' - m): ``a = (l'-1) e_{l'm}``, ``b =
    -(l'+2) e_{l'+1,m}`` (0 past lmax), ``mm = m`` (0 at l' = lmax + 1)."""
    l, m = lm_indices(lmax + 1, mmax)
    a = np.where(l > m, (l - 1) * _eps(l, m), 0.0)
    b = np.where(l + 1 <= lmax, -(l + 2) * _eps(l + 1, m), 0.0)
    mm = np.where(l <= lmax, m, 0).astype(np.float64)
    return np.stack([a, b, mm, m.astype(np.float64)], axis=-1)


def analys_mix(lmax: int, mmax: int) -> np.ndarray:
    """``(nlm(lmax, mmax), 4)`` float64, row k = (l, m) of the packing at lmax: ``(cp, cm,
    cmm, m)`` with, from the scalar analyses ``A_theta``, ``A_phi`` of ``u / sin(theta)`` at
    lmax + 1 (where (l, m) sits at k + m),
    ``S = cp A_theta[l+1] + cm A_theta[l-1] - i cmm A_phi[l]`` and
    ``T = cp A_phi[l+1] + cm A_phi[l-1] + i cmm A_theta[l]``: ``cp = l e_{l+1,m} / (l(l+1))``,
    ``cm = -(l+1) e_lm / (l(l+1))``, ``cmm = m / (l(l+1))`` (all 0 at l = 0)."""
    l, m = lm_indices(lmax, mmax)
    ll1 = (l * (l + 1)).astype(np.float64)
    inv = np.divide(1.0, ll1, out=np.zeros_like(ll1), where=ll1 > 0)
    cp = l * _eps(l + 1, m) * inv
    cm = -(l + 1) * _eps(l, m) * inv
    cmm = m * inv
    return np.stack([cp, cm, cmm, m.astype(np.float64)], axis=-1)
