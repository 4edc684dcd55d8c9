"""Float64 reference vector (spin-1) transforms: the oracle of the vector tests.

Fields ``u = grad S + r x grad T`` (``ireesht.numerics.vector``). Independent of the
kernels' l-mixing and of the division by sin(theta): direct sums over ``dP_lm/dtheta`` and
``m P_lm / sin(theta)`` built from ``reference.legendre_values``, numpy's FFT. Checked
against ducc0's spin-1 transforms (tests/numerics/test_vector_reference.py).
"""

from __future__ import annotations

import numpy as np

from .grid import Grid
from .layout import m_offsets, nlm
from .reference import _check_common, legendre_values
from ireesht.validate import check_array, check_finite, check_shape

__all__ = ["vsynth", "vanalys"]

def _vector_functions(lmax: int, m: int, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """``(dP_lm/dtheta, m P_lm / sin theta)`` at the grid's rings, ``(lmax + 1 - m, nlat)``
    each: the derivative from orders m -/+ 1, ``(sqrt((l-m)(l+m+1)) P_{l,m+1} -
    sqrt((l+m)(l-m+1)) P_{l,m-1}) / 2`` with ``P_{l,-1} = -P_l1``; the quotient by
    division, and at a pole its limit (order 1 only: ``d_l``, ``(-1)^(l+1) d_l``)."""
    x, s = grid.cost, grid.sint
    l = np.arange(m, lmax + 1, dtype=np.float64)[:, None]
    up = np.zeros((lmax + 1 - m, x.size))
    if m + 1 <= lmax:
        up[1:] = legendre_values(lmax, m + 1, x, s)
    if m > 0:
        down = legendre_values(lmax, m - 1, x, s)[1:]
    else:
        down = np.zeros_like(up)
        down[1:] = -legendre_values(lmax, 1, x, s) if lmax >= 1 else 0.0
    dth = 0.5 * (np.sqrt((l - m) * (l + m + 1)) * up - np.sqrt((l + m) * (l - m + 1)) * down)
    quot = np.zeros_like(dth)
    if m > 0:
        inner = s > 0
        quot[:, inner] = m * legendre_values(lmax, m, x, s)[:, inner] / s[inner]
        if m == 1:
            d = -0.5 * np.sqrt((2 * l[:, 0] + 1) * l[:, 0] * (l[:, 0] + 1) / (4 * np.pi))
            for i in np.flatnonzero(~inner):
                quot[:, i] = d * (1.0 if x[i] > 0 else -(-1.0) ** l[:, 0])
    return dth, quot


def vsynth(st: np.ndarray, lmax: int, mmax: int, grid: Grid) -> np.ndarray:
    """Vector synthesis: spheroidal and toroidal coefficients to ``(u_theta, u_phi)``
    (float64), ``u = grad S + r x grad T`` (``ireesht.numerics.vector``).

    Parameters
    ----------
    st : (..., 2, nlm) complex
        S and T, packed m-major; ``Im`` of the m = 0 coefficients is ignored. Finite.
    lmax, mmax : int
    grid : Grid

    Returns
    -------
    (..., 2, nlat, nphi) float64: u_theta, u_phi at ``(grid.theta[i], 2 pi j / nphi)``.

    Direct sums over ``dP_lm/dtheta`` and ``m P_lm / sin(theta)`` (``_vector_functions``),
    independent of the l-mixing the kernels use.
    """
    lmax, mmax = _check_common(lmax, mmax, grid)
    st = check_array("st", st, kinds="iufc")
    check_shape("st", st, (2, nlm(lmax, mmax)), what=("2", "nlm"))
    check_finite("st", st)
    batch = st.shape[:-2]
    nb = int(np.prod(batch))
    q = st.reshape(nb, 2, -1).astype(np.complex128)
    q[:, :, : lmax + 1] = q[:, :, : lmax + 1].real
    off = m_offsets(lmax, mmax)
    spec = np.zeros((nb, 2, grid.nlat, grid.nphi // 2 + 1), dtype=np.complex128)
    for m in range(mmax + 1):
        dth, quot = _vector_functions(lmax, m, grid)
        s = q[:, 0, off[m]:off[m] + lmax + 1 - m]
        t = q[:, 1, off[m]:off[m] + lmax + 1 - m]
        spec[:, 0, :, m] = s @ dth - 1j * (t @ quot)
        spec[:, 1, :, m] = 1j * (s @ quot) + t @ dth
    f = np.fft.irfft(spec, n=grid.nphi, axis=-1) * grid.nphi
    return f.reshape(batch + (2, grid.nlat, grid.nphi))


def vanalys(u: np.ndarray, lmax: int, mmax: int, grid: Grid, *, exact: bool = True) -> np.ndarray:
    """Vector analysis by quadrature: ``(u_theta, u_phi)`` to ``(S, T)`` (``vsynth``'s
    convention), ``l(l+1) S_lm = int u . grad conj(Y_lm)``, ``l(l+1) T_lm = int u . (r x
    grad conj(Y_lm))``; exact for fields of band limit ``lmax <= grid.exact_lmax``.

    Parameters
    ----------
    u : (..., 2, nlat, nphi) real
    lmax, mmax : int
    grid : Grid
    exact : bool, default True
        If True, require ``lmax <= grid.exact_lmax``.

    Returns
    -------
    (..., 2, nlm) complex128: S and T, 0 at l = 0, real at m = 0.
    """
    lmax, mmax = _check_common(lmax, mmax, grid)
    if exact and lmax > grid.exact_lmax:
        raise ValueError(
            f"lmax={lmax}: a {grid.kind} grid of nlat={grid.nlat} is exact only up to "
            f"lmax={grid.exact_lmax}; use more rings or pass exact=False")
    u = check_array("u", u, kinds="iuf")
    check_shape("u", u, (2, grid.nlat, grid.nphi), what=("2", "nlat", "nphi"))
    check_finite("u", u)
    batch = u.shape[:-3]
    nb = int(np.prod(batch))
    g = np.fft.rfft(u.reshape(nb, 2, grid.nlat, grid.nphi).astype(np.float64), axis=-1)
    g = g[..., : mmax + 1] * (2.0 * np.pi / grid.nphi) * grid.weights[:, None]
    off = m_offsets(lmax, mmax)
    out = np.zeros((nb, 2, nlm(lmax, mmax)), dtype=np.complex128)
    for m in range(mmax + 1):
        dth, quot = _vector_functions(lmax, m, grid)
        gt, gp = g[:, 0, :, m], g[:, 1, :, m]
        l = np.arange(m, lmax + 1)
        ll1 = (l * (l + 1)).astype(np.float64)
        inv = np.divide(1.0, ll1, out=np.zeros_like(ll1), where=ll1 > 0)
        out[:, 0, off[m]:off[m] + lmax + 1 - m] = (gt @ dth.T - 1j * (gp @ quot.T)) * inv
        out[:, 1, off[m]:off[m] + lmax + 1 - m] = (gp @ dth.T + 1j * (gt @ quot.T)) * inv
    out[:, :, : lmax + 1] = out[:, :, : lmax + 1].real
    return out.reshape(batch + out.shape[1:])
