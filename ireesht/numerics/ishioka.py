"""Tables of the Ishioka recurrence, run in float64 by the MLIR kernels' ``"ishioka"`` scheme.

For order m write ``P_lm = a_l x P_{l-1,m} + b_l P_{l-2,m}`` (``ireesht/numerics/legendre.py``) and
split the degrees by the parity of l - m, with ``u = x^2``:

- odd:  ``O_k = P_{m+2k+1,m} / x``, a polynomial in u (times ``sin^m``);
- even: ``E_k = P_{m+2k,m} = (O_k - b_{m+2k+1} O_{k-1}) / a_{m+2k+1}`` (from the recurrence at
  l = m+2k+1), so both parities come from the one sequence O_k.

Eliminating the even degrees from two steps of the recurrence gives
``O_{k+1} = (A_k u + B_k) O_k + C_k O_{k-1}`` with, at l = m+2k+3,
``A_k = a_l a_{l-1}``, ``B_k = b_l + a_l b_{l-1} / a_{l-2}``, ``C_k = -a_l b_{l-1} b_{l-2} / a_{l-2}``
(Ishioka 2018, as SHTns runs it on GPUs with fast float64). The kernels carry
``y_k = O_k / g_k`` with ``g_0 = g_1 = 1``, ``g_{k+1} = C_k g_{k-1}``, so that

    y_{k+1} = (alpha_k u + beta_k) y_k + y_{k-1},   y_{-1} = 0,  y_0 = a_{m+1} P_mm,

two fused multiply-adds per two degrees, against four or five per degree for the float32
scheme. Synthesis sums ``y_k`` against ``qe_k = e1_k Q_{m+2k} + e2_k Q_{m+2k+2}`` (even part)
and ``qo_k = g_k Q_{m+2k+1}`` (odd part, times x at the end); analysis takes the transpose,
``Q_{m+2k} = e1_k S_k + e2_{k-1} S_{k-1}``.

In float64 the scheme is accurate for every row: the even values, a difference of two odd
ones, lose up to ``1 / |x|`` of relative precision next to the equator, which float64's
rounding absorbs (in float32 it would not, and SHTns runs it in float64 only).
"""

from __future__ import annotations

import numpy as np

COLUMNS = 5  # alpha, beta, e1, e2, g


def steps(lmax: int, m: int) -> int:
    """Steps of order m: ``K_m + 1`` with ``K_m = (lmax - m) // 2`` (y_0 .. y_K)."""
    return (lmax - m) // 2 + 1


def offset(lmax: int, m: int) -> int:
    """First row of order m in :func:`chain_table`: ``G(lmax) - G(lmax - m)`` with
    ``G(n) = floor(n/2) floor((n+1)/2) + n + 1 = sum_{j<=n} (floor(j/2) + 1)``, the closed form
    the kernels use."""
    def g(n: int) -> int:
        return (n // 2) * ((n + 1) // 2) + n + 1
    return g(lmax) - g(lmax - m)


def _ab(lmax: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """``a_l``, ``b_l`` of the plain recurrence for l = 0 .. lmax + 3 (0 for l <= m)."""
    l = np.arange(lmax + 4, dtype=np.float64)
    a, b, s = np.zeros_like(l), np.zeros_like(l), np.zeros_like(l)
    up = l > m
    s[up] = np.sqrt((2 * l[up] + 1) / ((2 * l[up] - 1) * (l[up] ** 2 - m * m)))
    a[up] = (2 * l[up] - 1) * s[up]
    b[up] = -((l[up] - 1) ** 2 - m * m) * s[up] * np.concatenate(([0.0], s[:-1]))[up]
    return a, b


def order_chain(lmax: int, m: int) -> np.ndarray:
    """The rows of order m: ``(steps(lmax, m), 5)`` float64, ``(alpha_k, beta_k, e1_k, e2_k,
    g_k)`` for k = 0 .. K_m (the last alpha, beta make y_{K+1}, which nothing uses)."""
    a, b = _ab(lmax, m)
    n = steps(lmax, m)
    k = np.arange(n)
    l = m + 2 * k + 3
    big_a = a[l] * a[l - 1]
    big_b = b[l] + a[l] * b[l - 1] / a[l - 2]
    big_c = -a[l] * b[l - 1] * b[l - 2] / a[l - 2]
    g = np.ones(n + 1)
    # g_{k+1} = C_k g_{k-1} for k >= 1 (C_0 = 0: y_1 has no y_{-1} term): running products of
    # every other C, which stay within a few powers of two of 1
    g[2::2] = np.cumprod(big_c[1::2])
    g[3::2] = np.cumprod(big_c[2::2])
    out = np.empty((n, COLUMNS))
    out[:, 0] = big_a * g[:n] / g[1:]
    out[:, 1] = big_b * g[:n] / g[1:]
    out[:, 2] = g[:n] / a[m + 2 * k + 1]
    out[:, 3] = -g[:n] * b[m + 2 * k + 3] / a[m + 2 * k + 3]
    out[:, 4] = g[:n]
    return out


def chain_table(lmax: int, mmax: int) -> np.ndarray:
    """The kernels' table: ``(offset(lmax, mmax + 1), 5)`` float64, order m's
    :func:`order_chain` rows from row ``offset(lmax, m)``."""
    return np.concatenate([order_chain(lmax, m) for m in range(mmax + 1)])


def seed_factor(m: np.ndarray) -> np.ndarray:
    """``a_{m+1} = sqrt(2m + 3)``: ``y_0 = a_{m+1} P_mm``, from the plain seed."""
    return np.sqrt(2.0 * np.asarray(m, dtype=np.float64) + 3.0)


def synth_order(lmax: int, m: int, q: np.ndarray, x: np.ndarray, pmm: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Order m of the Legendre synthesis by the scheme, in numpy float64 (a model of the
    kernel, for tests): ``q (lmax+1-m,)`` complex for l = m..lmax, ``x, pmm (n,)``; returns
    F at x and at -x."""
    rows = order_chain(lmax, m)
    qx = np.zeros(lmax - m + 3, complex)
    qx[: lmax + 1 - m] = q
    k = np.arange(rows.shape[0])
    qe = rows[:, 2] * qx[2 * k] + rows[:, 3] * qx[2 * k + 2]
    qo = rows[:, 4] * qx[2 * k + 1]
    u = x * x
    y0, y1 = np.zeros_like(x), seed_factor(m) * pmm
    fe = np.zeros(x.shape, complex)
    fo = np.zeros(x.shape, complex)
    for j in range(rows.shape[0]):
        fe += y1 * qe[j]
        fo += y1 * qo[j]
        y1, y0 = (rows[j, 0] * u + rows[j, 1]) * y1 + y0, y1
    return fe + x * fo, fe - x * fo


def segment_rows(lmax: int, mmax: int, segment: int) -> tuple[np.ndarray, int]:
    """Where each order's segments of ``segment`` steps restart in :func:`restart_states`:
    ``(mmax+1,)`` order m's first row (its segments 1 .. S_m - 1, S_m = ceil(steps(lmax, m)
    / segment)), and the rows of all orders."""
    m = np.arange(mmax + 1)
    restarts = -(-((lmax - m) // 2 + 1) // segment) - 1
    return np.concatenate(([0], np.cumsum(restarts)[:-1])), int(restarts.sum())


def restart_states(lmax: int, mmax: int, chain: np.ndarray, u: np.ndarray, y0: np.ndarray,
                   segment: int) -> tuple[np.ndarray, np.ndarray]:
    """The chain's states where segments of ``segment`` steps start, in float64: for order m
    (``steps(lmax, m)`` steps, ``S_m`` segments) and each segment s = 1 .. S_m - 1, the
    state (y_{kb-1}, y_kb) at kb = s segment - 1 of every pair, from ``u (npairs,)`` and the
    seeds ``y0 (mmax+1, npairs)`` (y_{-1} = 0) by the rows of ``chain``, the plan's
    :func:`chain_table` (the kernels' recurrence, without their fused roundings).

    Returns ``rows (mmax+1,)``, order m's first row (:func:`segment_rows`), and ``states
    (rows, npairs, 2)``, the rows of each order's segments 1 .. S_m - 1 in turn.
    """
    rows, nrows = segment_rows(lmax, mmax, segment)
    nseg = np.diff(rows, append=nrows) + 1
    states = np.zeros((nrows, u.size, 2))
    first = offset(lmax, np.arange(mmax + 1))
    a, b = np.zeros_like(y0), np.array(y0, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # orders past their last step
        for k in range(int((nseg - 1).max()) * segment):
            if (k + 1) % segment == 0:  # the state at kb = k: segment s = (k + 1) / segment
                s = (k + 1) // segment
                run = s < nseg
                states[rows[run] + s - 1, :, 0] = a[run]
                states[rows[run] + s - 1, :, 1] = b[run]
            r = np.minimum(first + k, len(chain) - 1)  # past an order's last step: unused
            a, b = b, (chain[r, 0, None] * u + chain[r, 1, None]) * b + a
    if not np.isfinite(states).all():
        raise ValueError("the chain overflowed float64 before a segment's start")
    return rows, states
