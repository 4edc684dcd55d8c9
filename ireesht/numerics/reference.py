"""Float64 reference spherical harmonic transforms: the oracle of the test suite.

Independent of the kernels and of ``ireesht.numerics.legendre`` on purpose (it imports
only ``grid``, ``layout`` and ``validate``): its own Legendre recurrence, its own
scaling, numpy's FFT. It is itself checked against ducc0.

Conventions (README, docs/design.md): orthonormal ``Y_lm = P_lm(cos theta) e^{i m phi}`` with
the Condon-Shortley phase, ``2 pi int P_lm^2 dx = 1``; a real field is
``f = sum_l [q_l0 Y_l0 + 2 Re sum_{m>0} q_lm Y_lm]`` (``Im q_l0`` ignored);
coefficients packed m-major (``ireesht.numerics.layout``); spatial arrays
``(..., nlat, nphi)``, theta increasing, ``phi_j = 2 pi j / nphi``.

The Nyquist order (``nphi = 2 mmax``, ``m = N = nphi / 2``): ``sin(N phi_j) = 0`` on the grid,
so a field carries only ``2 Re q_lN P_lN(x_i) (-1)^j`` of it, ducc0's synthesis (the same
formula); ``Im q_lN`` is ignored, as ``Im q_l0``. Analysis returns ``q_lN`` real, the inverse
of synthesis on band-limited fields: half the quadrature, where ducc0's ``analysis_2d``
returns the quadrature itself (``2 Re q_lN`` for its own synthesis of ``q``).

How it is computed
------------------
For each order ``m`` the normalized functions follow

    P_mm = (-1)^m sqrt((2m+1)/(4 pi) prod_{k<=m} (2k-1)/(2k)) sin^m(theta)
    P_lm = a_lm (x P_{l-1,m} - b_lm P_{l-2,m}),
    a_lm = sqrt((4l^2-1)/(l^2-m^2)),  b_lm = sqrt(((l-1)^2-m^2)/(4(l-1)^2-1)).

Two changes of variable make it fast and safe in numpy:

* ``P_lm = s_lm Q_lm`` with ``s_lm = a_lm b_lm s_{l-2,m}`` turns the recurrence
  into ``Q_l = alpha_l x Q_{l-1} - Q_{l-2}`` (one multiply fewer per value;
  ``s`` stays in [0.2, 1.2] up to lmax 2047). ``s`` is folded into the
  coefficients (synthesis) or the results (analysis).
* The seed ``sin^m(theta)`` underflows double precision for large ``m`` near the
  poles (``m = 2047`` at ``theta = 1e-3`` is ``1e-6141``) although the values it
  seeds grow back to O(1) at larger ``l``. Seeds therefore carry an explicit
  power-of-two exponent (built by ``np.frexp`` after each factor), and the
  recurrence runs on mantissas with that exponent, renormalised every few
  blocks, until the true values are representable. Values still below
  2^-1074 then are negligible and enter the sums as zeros.

Values are produced in blocks of ``_K`` degrees for a block of orders times a
chunk of latitudes, and consumed by matrix products (BLAS): the Legendre sums
cost one small GEMM per order and block instead of elementwise passes. Only the
northern half of the latitudes is computed: ``P_lm(-x) = (-1)^(l+m) P_lm(x)``
(both grids are exactly symmetric). Work is spread over threads (numpy and BLAS
release the GIL).

Accuracy: ~1e-13 relative (L2) at lmax 255, ~4e-12 at lmax 2047 against ducc0.
Rounding grows like ``l^2 eps`` on the rings nearest the poles for small ``m``,
as in every three-term recurrence (ducc0's is as far from an mpmath sum there).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterator

import numpy as np

from .grid import Grid
from .layout import m_offsets, nlm
from ireesht.validate import check_array, check_finite, check_int, check_shape

__all__ = ["synth", "analys", "legendre_values"]

_K = 16            # degrees per block
_CHUNK_LAT = 256   # latitudes per block
_ROWS = 64         # orders per block
_RENORM_EVERY = 4  # blocks between renormalisations of scaled values
# True values above 2^_SAFE_EXP are held unscaled: they are far from underflow,
# and from here on the recurrence only grows them or oscillates.
_SAFE_EXP = -800


# ----------------------------------------------------------------------------
# Recurrence tables
# ----------------------------------------------------------------------------

def _recurrence_tables(lmax: int, mmax: int) -> tuple[np.ndarray, np.ndarray]:
    """``alpha[k, m]`` and ``s[k, m]`` for ``l = m + k``, shape ``(lmax + 1 + _K, mmax + 1)``.

    Entries with ``l > lmax`` are 0 (``alpha`` is then harmless and ``s`` zeroes
    any contribution), and the ``_K`` extra rows let blocks run past ``lmax``.
    """
    m = np.arange(mmax + 1, dtype=np.float64)
    nk = lmax + 1 + _K
    alpha = np.zeros((nk, mmax + 1))
    s = np.zeros((nk, mmax + 1))
    s[0] = 1.0
    if lmax >= 1:
        alpha[1] = np.sqrt(2.0 * m + 3.0)    # P_{m+1,m} = sqrt(2m+3) x P_mm
        s[1] = 1.0
    for k in range(2, lmax + 1):
        l = m + k
        # l^2 - m^2 written as k (k + 2m)
        a = np.sqrt((2.0 * l - 1.0) * (2.0 * l + 1.0) / (k * (k + 2.0 * m)))
        b = np.sqrt((k - 1.0) * (k - 1.0 + 2.0 * m) / ((2.0 * l - 3.0) * (2.0 * l - 1.0)))
        s[k] = a * b * s[k - 2]
        alpha[k] = a * s[k - 1] / s[k]
    kk = np.arange(nk)[:, None]
    invalid = (m[None, :] + kk) > lmax
    alpha[invalid] = 0.0
    s[invalid] = 0.0
    return alpha, s


def _seeds(sint: np.ndarray, mmax: int) -> tuple[np.ndarray, np.ndarray]:
    """``P_mm(theta) = mant * 2**expo``: ``(mmax + 1, n)`` float64 and int32.

    Built one factor at a time and renormalised with ``np.frexp``: the product
    never underflows, and its rounding error grows like ``sqrt(m)`` ulps.
    """
    n = sint.size
    mant = np.empty((mmax + 1, n))
    # int32: what np.ldexp takes on every platform; m log2(1/sin) fits easily.
    expo = np.zeros((mmax + 1, n), dtype=np.int32)
    mant[0] = 1.0 / np.sqrt(4.0 * np.pi)
    for m in range(1, mmax + 1):
        # The minus sign is the Condon-Shortley phase.
        v = mant[m - 1] * (-np.sqrt((2.0 * m + 1.0) / (2.0 * m))) * sint
        mant[m], e = np.frexp(v)
        expo[m] = expo[m - 1] + e
    return mant, expo


class _Legendre:
    """Blocked generator of ``Q_lm`` values on a set of latitudes."""

    def __init__(self, lmax: int, mmax: int, cost: np.ndarray, sint: np.ndarray):
        self.lmax, self.mmax = lmax, mmax
        self.x = np.ascontiguousarray(cost, dtype=np.float64)
        self.alpha, self.s = _recurrence_tables(lmax, mmax)
        self.alpha_t = np.ascontiguousarray(self.alpha.T)   # [m, k]
        self.mant, self.expo = _seeds(np.asarray(sint, dtype=np.float64), mmax)

    def blocks(self, m0: int, m1: int, c0: int, c1: int) -> Iterator[tuple[int, int, int, np.ndarray]]:
        """Yield ``(k0, kn, nm, Q)`` for orders ``m0 <= m < m1``, latitudes ``c0:c1``.

        ``Q[r, j, c] = Q_{l, m}(x_c)`` with ``m = m0 + r``, ``l = m + k0 + j``, shape
        ``(nm, kn, c1 - c0)``: true values (exponents applied). Rows ``r >= nm``
        are finished (``m + k0 > lmax``). Entries with ``l > lmax`` are junk;
        the caller weights them by ``s = 0``. The array is reused: consume it
        before the next iteration.
        """
        lmax = self.lmax
        rows, cols = m1 - m0, c1 - c0
        x = self.x[c0:c1]
        # buf[0:2] carries Q_{l-2}, Q_{l-1} into the block; 2.._K+1 are its values.
        # Degree-major, so each step works on one contiguous slab (measured twice
        # as fast as strided rows).
        buf = np.empty((_K + 2, rows, cols))
        mant = self.mant[m0:m1, c0:c1]
        expo = self.expo[m0:m1, c0:c1]
        unscaled = expo >= _SAFE_EXP
        # The first block starts at k = 1 with Q_{m-1} = 0 and Q_m = the seed.
        buf[1] = 0.0
        buf[2] = np.where(unscaled, np.ldexp(mant, np.where(unscaled, expo, 0)), mant)
        e = np.where(unscaled, 0, expo)
        # Rows below ms hold true values everywhere; rows >= ms may carry exponents.
        ms = _first_scaled_row(e, 0)
        sc = np.ldexp(1.0, e)
        k0 = 0
        jstart = 1
        nblock = 0
        while True:
            nm = min(rows, lmax - m0 - k0 + 1)
            if nm <= 0:
                return
            alpha = self.alpha_t[m0:m0 + nm]
            for j in range(jstart, _K):
                k = k0 + j
                out = buf[j + 2, :nm]
                # Q_l = alpha_l x Q_{l-1} - Q_{l-2}: the three passes that cost.
                np.multiply(buf[j + 1, :nm], x, out=out)
                out *= alpha[:, k : k + 1]
                out -= buf[j, :nm]
            jstart = 0
            nblock += 1
            vals = buf[2:, :nm].transpose(1, 0, 2)
            if ms < nm:
                carry = buf[_K:, ms:nm].copy()
                vals[ms:] *= sc[ms:nm, None, :]
            yield k0, _K, nm, vals
            buf[0:2, :ms] = buf[_K:, :ms]
            if ms < nm:
                buf[0:2, ms:nm] = carry
                # Mantissas grow by at most ~6 bits a step (sqrt(2m+3) <= 64 for
                # m < 2046, far less after the first steps), so renormalising
                # every few blocks keeps them far from overflow.
                if nblock % _RENORM_EVERY == 0:
                    ms = self._renormalise(buf, e, sc, ms, nm)
            k0 += _K

    @staticmethod
    def _renormalise(buf: np.ndarray, e: np.ndarray, sc: np.ndarray, ms: int, nm: int) -> int:
        """Move the carried pair of scaled rows back to mantissas near 1.

        The exponent comes from the larger of the pair: one of two consecutive
        values can sit at a zero crossing. Elements whose true values reach
        ``2**_SAFE_EXP`` drop their exponent for good.
        """
        pair = buf[0:2, ms:nm]
        big = np.maximum(np.abs(pair[0]), np.abs(pair[1]))
        ex = np.frexp(big)[1]
        ee = e[ms:nm]
        total = ee + ex
        e_new = np.where(total >= _SAFE_EXP, 0, total)
        shift = ee - e_new
        pair[:] = np.ldexp(pair, shift[None])
        ee[:] = e_new
        sc[ms:nm] = np.ldexp(1.0, e_new)
        return _first_scaled_row(e, ms)


def _first_scaled_row(e: np.ndarray, start: int) -> int:
    nz = np.flatnonzero(np.any(e[start:] != 0, axis=1))
    return start + int(nz[0]) if nz.size else e.shape[0]


# ----------------------------------------------------------------------------
# Work splitting
# ----------------------------------------------------------------------------

def _tasks(lmax: int, mmax: int, nlat_h: int) -> list[tuple[int, int, int, int]]:
    """``(m0, m1, c0, c1)`` work items, largest first, for a thread pool.

    Blocks of ``_ROWS`` orders by ``_CHUNK_LAT`` latitudes: array operations of
    ~16k values with rows of ``_CHUNK_LAT`` contiguous doubles, long enough to
    amortise numpy's per-call and per-row costs, and a working set
    (``_ROWS x (_K + 2) x _CHUNK_LAT`` doubles, 2.4 MB per thread) that stays
    in the last-level cache.
    """
    counts = lmax + 1 - np.arange(mmax + 1)
    bounds = list(range(0, mmax + 1, _ROWS)) + [mmax + 1]
    chunks = [(c, min(c + _CHUNK_LAT, nlat_h)) for c in range(0, nlat_h, _CHUNK_LAT)]
    tasks = [(m0, m1, c0, c1) for m0, m1 in zip(bounds[:-1], bounds[1:]) for c0, c1 in chunks]
    tasks.sort(key=lambda t: -(t[3] - t[2]) * int(counts[t[0]:t[1]].sum()))
    return tasks


def _run(tasks: list, fn: Callable) -> list:
    workers = min(len(tasks), os.cpu_count() or 1)
    if workers <= 1:
        return [fn(*t) for t in tasks]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda t: fn(*t), tasks))


def _half(grid: Grid) -> tuple[int, bool]:
    """Latitudes computed (north half incl. equator) and whether to mirror."""
    n = grid.nlat
    symmetric = (np.array_equal(grid.cost[::-1], -grid.cost)
                 and np.array_equal(grid.sint[::-1], grid.sint)
                 and np.array_equal(grid.weights[::-1], grid.weights))
    return ((n + 1) // 2, True) if symmetric else (n, False)


# ----------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------

def _check_common(lmax: int, mmax: int, grid: Grid) -> tuple[int, int]:
    lmax = check_int("lmax", lmax, minimum=0)
    mmax = check_int("mmax", mmax, minimum=0, maximum=lmax)
    if not isinstance(grid, Grid):
        raise ValueError(f"grid={grid!r}: expected an ireesht.numerics.grid.Grid (see make_grid)")
    if grid.nphi < 2 * mmax:
        raise ValueError(f"nphi={grid.nphi}: need nphi >= 2*mmax = {2 * mmax}")
    return lmax, mmax


def _real_orders(lmax: int, mmax: int, nphi: int) -> list[slice]:
    """The packed coefficients whose imaginary part a real field on ``nphi`` points cannot
    carry: order 0, and the Nyquist order ``mmax = nphi / 2``."""
    real = [slice(0, lmax + 1)]
    if nphi == 2 * mmax:
        real.append(slice(int(m_offsets(lmax, mmax)[mmax]), nlm(lmax, mmax)))
    return real


# ----------------------------------------------------------------------------
# Public transforms
# ----------------------------------------------------------------------------

def synth(qlm: np.ndarray, lmax: int, mmax: int, grid: Grid) -> np.ndarray:
    """Synthesis: packed coefficients to a real field on ``grid`` (float64).

    Parameters
    ----------
    qlm : (..., nlm) complex (real accepted)
        Packed m-major coefficients, ``nlm = (mmax+1)(lmax+1) - mmax(mmax+1)/2``;
        ``Im q_l0`` is ignored, and ``Im q_lN`` of the Nyquist order. Finite.
    lmax, mmax : int
        ``0 <= mmax <= lmax``.
    grid : Grid
        Needs ``nphi >= 2 mmax`` (``nphi = 2 mmax``: the Nyquist order, module doc).

    Returns
    -------
    (..., nlat, nphi) float64
        ``f = sum_l [q_l0 Y_l0 + 2 Re sum_{m>0} q_lm Y_lm]`` at
        ``(grid.theta[i], 2 pi j / nphi)``.
    """
    lmax, mmax = _check_common(lmax, mmax, grid)
    qlm = check_array("qlm", qlm, kinds="iufc")
    check_shape("qlm", qlm, (nlm(lmax, mmax),), what=("nlm",))
    check_finite("qlm", qlm)

    batch = qlm.shape[:-1]
    nb = int(np.prod(batch))
    q = qlm.reshape(nb, qlm.shape[-1]).astype(np.complex128)
    off = m_offsets(lmax, mmax)
    for r in _real_orders(lmax, mmax, grid.nphi):  # Im q_l0 (and Im q_lN) carry nothing
        q[:, r] = q[:, r].real
    nh, mirror = _half(grid)
    leg = _Legendre(lmax, mmax, grid.cost[:nh], grid.sint[:nh])

    # Coefficients as (nlm + 1, 2 nb) reals, scaled by s; the extra zero row is
    # what indices with l > lmax point at.
    m_of = np.repeat(np.arange(mmax + 1), lmax + 1 - np.arange(mmax + 1))
    k_of = np.arange(q.shape[1]) - off[m_of]
    qs = np.zeros((q.shape[1] + 1, 2 * nb))
    scale = leg.s[k_of, m_of]
    qs[:-1, :nb] = (q.real * scale).T
    qs[:-1, nb:] = (q.imag * scale).T
    sentinel = q.shape[1]

    # fold[p][b, c, m]: sums over l with l - m even (p = 0) or odd (p = 1),
    # b running over real parts then imaginary parts of the batch.
    fold = np.zeros((2, 2 * nb, nh, mmax + 1))

    def task(m0: int, m1: int, c0: int, c1: int) -> None:
        rows = np.arange(m0, m1)
        acc = np.zeros((2, m1 - m0, 2 * nb, c1 - c0))
        part = np.empty((m1 - m0, 2 * nb, c1 - c0))
        for k0, kn, nm, vals in leg.blocks(m0, m1, c0, c1):
            k = k0 + np.arange(kn)
            idx = off[rows[:nm], None] + k[None, :]
            idx[rows[:nm, None] + k[None, :] > lmax] = sentinel
            coef = qs[idx].transpose(0, 2, 1)          # (nm, 2 nb, kn)
            for p in (0, 1):
                j0 = (p - k0) % 2
                np.matmul(coef[:, :, j0::2], vals[:, j0::2], out=part[:nm])
                acc[p, :nm] += part[:nm]
        fold[:, :, c0:c1, m0:m1] = acc.transpose(0, 2, 3, 1)

    _run(_tasks(lmax, mmax, nh), task)

    spec = np.zeros((nb, grid.nlat, grid.nphi // 2 + 1), dtype=np.complex128)
    north = fold[0] + fold[1]
    spec.real[:, :nh, : mmax + 1] = north[:nb]
    spec.imag[:, :nh, : mmax + 1] = north[nb:]
    if mirror:
        ns = grid.nlat - nh                             # southern rings, mirrored
        south = (fold[0] - fold[1])[:, ns - 1::-1] if ns else fold[0][:, :0]
        spec.real[:, nh:, : mmax + 1] = south[:nb]
        spec.imag[:, nh:, : mmax + 1] = south[nb:]
    # irfft computes (1/n)[X_0 + 2 Re sum_m X_m e^{i m phi}]: our convention times 1/n;
    # but (1/n) Re X_N (-1)^j for the Nyquist bin N = n / 2, where ours is 2 Re q_lN
    if grid.nphi == 2 * mmax:
        spec[..., mmax] *= 2.0
    f = np.fft.irfft(spec, n=grid.nphi, axis=-1) * grid.nphi
    return f.reshape(batch + (grid.nlat, grid.nphi))


def analys(
    f: np.ndarray, lmax: int, mmax: int, grid: Grid, *, exact: bool = True
) -> np.ndarray:
    """Analysis by quadrature: a real field on ``grid`` to packed coefficients.

    ``q_lm = sum_i w_i P_lm(x_i) (2 pi / nphi) sum_j f_ij e^{-i m phi_j}``, the
    quadrature of ``int f conj(Y_lm) dOmega`` (half of it, real, for the Nyquist order
    ``m = nphi / 2``: module doc); it inverts :func:`synth` exactly for fields
    band-limited to ``lmax`` when ``lmax <= grid.exact_lmax``.

    Parameters
    ----------
    f : (..., nlat, nphi) real
        Finite samples on ``grid``.
    lmax, mmax : int
        ``0 <= mmax <= lmax``.
    grid : Grid
        Needs ``nphi >= 2 mmax``.
    exact : bool, default True
        If True, require ``lmax <= grid.exact_lmax``; pass False to get the
        (inexact) quadrature on a coarser grid anyway.

    Returns
    -------
    (..., nlm) complex128
        Packed m-major; ``q_l0`` real.
    """
    lmax, mmax = _check_common(lmax, mmax, grid)
    if not isinstance(exact, (bool, np.bool_)):
        raise ValueError(f"exact={exact!r}: expected a bool")
    if exact and lmax > grid.exact_lmax:
        raise ValueError(
            f"lmax={lmax}: a {grid.kind} grid of nlat={grid.nlat} is exact only up to "
            f"lmax={grid.exact_lmax}; use more rings or pass exact=False"
        )
    f = check_array("f", f, kinds="iuf")
    check_shape("f", f, (grid.nlat, grid.nphi), what=("nlat", "nphi"))
    check_finite("f", f)

    batch = f.shape[:-2]
    nb = int(np.prod(batch))
    ff = f.reshape(nb, grid.nlat, grid.nphi).astype(np.float64)
    g = np.fft.rfft(ff, axis=-1)[..., : mmax + 1] * (2.0 * np.pi / grid.nphi)
    if grid.nphi == 2 * mmax:
        g[..., mmax] *= 0.5  # synthesis counts the Nyquist order's real part twice
    g *= grid.weights[None, :, None]
    nh, mirror = _half(grid)
    north = g[:, :nh]
    south = np.zeros_like(north)
    if mirror:
        ns = grid.nlat - nh
        south[:, :ns] = g[:, nh:][:, ::-1]
    # h[p][m, c, b]: weighted Fourier coefficients folded by parity of l - m.
    h = np.empty((2, mmax + 1, nh, 2 * nb))
    for p, v in enumerate((north + south, north - south)):
        v = v.transpose(2, 1, 0)                        # (M, nh, nb)
        h[p, :, :, :nb] = v.real
        h[p, :, :, nb:] = v.imag

    leg = _Legendre(lmax, mmax, grid.cost[:nh], grid.sint[:nh])
    off = m_offsets(lmax, mmax)

    tasks = _tasks(lmax, mmax, nh)
    # One accumulator per block of orders, [r, k, b] for m = m0 + r, l = m + k;
    # latitude chunks of the same block add into it under its lock.
    total = {t[0]: np.zeros((t[1] - t[0], lmax + 1 - t[0] + _K, 2 * nb)) for t in tasks}
    locks = {m0: threading.Lock() for m0 in total}

    def task(m0: int, m1: int, c0: int, c1: int) -> None:
        acc = np.zeros_like(total[m0])
        for k0, kn, nm, vals in leg.blocks(m0, m1, c0, c1):
            for p in (0, 1):
                j0 = (p - k0) % 2
                acc[:nm, k0 + j0:k0 + kn:2] += np.matmul(vals[:, j0::2], h[p, m0:m0 + nm, c0:c1])
        with locks[m0]:
            total[m0] += acc

    _run(tasks, task)

    out = np.zeros((nb, nlm(lmax, mmax)), dtype=np.complex128)
    for m0, acc in total.items():
        for r in range(acc.shape[0]):
            m = m0 + r
            n_l = lmax + 1 - m
            v = acc[r, :n_l] * leg.s[:n_l, m, None]
            out[:, off[m]:off[m] + n_l] = (v[:, :nb] + 1j * v[:, nb:]).T
    for r in _real_orders(lmax, mmax, grid.nphi):
        out[:, r] = out[:, r].real
    return out.reshape(batch + (out.shape[-1],))


def legendre_values(lmax: int, m: int, x: np.ndarray, sint: np.ndarray | None = None) -> np.ndarray:
    """Normalized associated Legendre functions ``P_lm(x)`` for ``l = m..lmax``.

    ``Y_lm = P_lm(cos theta) e^{i m phi}``, orthonormal on the sphere, with the
    Condon-Shortley phase (``P_11 = -sqrt(3/(8 pi)) sin theta``).

    Parameters
    ----------
    lmax, m : int
        ``0 <= m <= lmax``.
    x : (n,) float
        Points in [-1, 1].
    sint : (n,) float, optional
        ``sqrt(1 - x^2)``; pass it (e.g. ``grid.sint``) for full relative
        precision near the poles, where it cannot be recovered from ``x``.

    Returns
    -------
    (lmax + 1 - m, n) float64
        Row ``l - m``.
    """
    lmax = check_int("lmax", lmax, minimum=0)
    m = check_int("m", m, minimum=0, maximum=lmax)
    x = check_array("x", x, kinds="iuf").astype(np.float64)
    if x.ndim != 1:
        raise ValueError(f"x: shape {x.shape}; expected (n,)")
    check_finite("x", x)
    if np.any(np.abs(x) > 1):
        raise ValueError(f"x: expected values in [-1, 1], found {x[np.abs(x) > 1][0]!r}")
    if sint is None:
        sint = np.sqrt((1.0 - x) * (1.0 + x))
    else:
        sint = check_array("sint", sint, kinds="iuf").astype(np.float64)
        check_shape("sint", sint, (x.size,), what=("n",))
        check_finite("sint", sint)
        if sint.ndim != 1 or np.any(sint < 0):
            raise ValueError("sint: expected a (n,) array of values >= 0")
    # Seeds for orders below m are never used past the seed loop; running the
    # engine for orders 0..m keeps one code path.
    leg = _Legendre(lmax, m, x, sint)
    out = np.empty((lmax + 1 - m, x.size))
    if x.size == 0:
        return out
    for k0, kn, nm, vals in leg.blocks(m, m + 1, 0, x.size):
        n = min(kn, lmax + 1 - m - k0)
        out[k0:k0 + n] = vals[0, :n] * leg.s[k0:k0 + n, m, None]
    return out


def random_coefficients(rng: np.random.Generator, lmax: int, mmax: int,
                        batch: tuple = (), nphi: int | None = None) -> np.ndarray:
    """Fresh random coefficients ``batch + (nlm,)``, uniform in [-1, 1] (complex), with
    Im = 0 for m = 0 and, on ``nphi = 2 mmax`` points, for the Nyquist order m = mmax: what
    a real field carries, so that analysis returns them."""
    n = nlm(lmax, mmax)
    q = rng.uniform(-1, 1, batch + (n,)) + 1j * rng.uniform(-1, 1, batch + (n,))
    for r in _real_orders(lmax, mmax, 0 if nphi is None else nphi):
        q[..., r] = q[..., r].real
    return q


def rel_l2(a: np.ndarray, b: np.ndarray) -> float:
    """Relative L2 error of ``a`` against ``b``."""
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))
