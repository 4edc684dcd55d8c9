"""Tables for the Legendre stage: recurrence coefficients, seeds and the fp32 rescaling.

Orthonormal associated Legendre functions with the Condon-Shortley phase,
``P_lm(x)``, ``x = cos(theta)``, normalised so that ``Y_lm = P_lm(x) exp(i m phi)`` has
unit norm on the sphere (``int_{-1}^{1} P_lm^2 dx = 1 / (2 pi)``). They obey

    P_mm = c_m sin(theta)^m,   c_m = (-1)^m sqrt((2m+1)/(4 pi) prod_{k<=m} (2k-1)/(2k))
    P_lm = a_l x P_{l-1,m} + b_l P_{l-2,m}                                  (l > m)
    a_l = (2l-1) s_l,  b_l = -((l-1)^2 - m^2) s_l s_{l-1},
    s_l = sqrt((2l+1) / ((2l-1) (l^2 - m^2)))

float32 accuracy (measured in tools/recurrence_accuracy.md). Three changes to the plain
recurrence take the fp32 synthesis error at lmax 1023 from 1.8e-4 to 1.1e-6:

- Exact coefficients. The kernels carry ``y_l = P_lm / S_l`` where ``S_l = prod s_k 2^-N_l``
  with integers N_l chosen so that S_l stays in [2^-1/2, 2^1/2]. The recurrence of y has
  coefficients that are integers times powers of two, exact in float32 for l <= 4097:
  ``A = (2l-1) 2^-K_l``, ``B = -((l-1)^2 - m^2) 2^-(K_l + K_{l-1})``, ``C = (l+m) 2^-K_l``,
  ``E = (l-1-m) 2^-K_l`` with ``K_l = N_{l-1} - N_l``. ``S_l`` (the table ``stab``) scales
  the coefficient q_lm once, outside the recurrence, so its rounding never propagates.
- The difference form near the poles. Next to x = 1 the recurrence has a near-double root
  and cancels (errors grow like l^2). For rows with ``x > X0 = cos 55 deg`` the kernels run
  the equivalent two-term form in ``t = 1 - x`` (Reinsch's modification):
  ``d_l = E d_{l-1} - A t y_{l-1}``, ``y_l = C y_{l-1} + d_l``, ``d_m = 0``.
- The node as hi + lo pairs (``x`` and ``t``), since float32 cos(theta) is off by ~1e-8
  absolute, a large relative error in theta next to the poles. (In float64 the lo parts
  are 0, and the MLIR and C kernels multiply by the hi part alone: the same rounding,
  one multiply less per step.)

The rescaling scheme (after SHTns). ``sin(theta)^m`` underflows float32 (and even
float64) for large m near the poles, although ``P_lm`` grows back to O(1) further along the
recurrence. So the kernels carry every value as ``y * 2^(SCALE_BITS * k)`` with an integer
exponent counter ``k <= 0``:

- the seed ``c_m sin^m`` of every order and latitude pair comes from a table built on the
  host (:func:`seed_table`: double-float64 products, rounded once), so it is exact to the
  dtype's rounding for any m; its exponent E picks ``k = floor((E + THRESHOLD_BITS) /
  SCALE_BITS)`` so that ``|y| < 2^THRESHOLD_BITS``;
- while ``k < 0`` the recurrence runs on the scaled values and nothing is accumulated (the
  true value is below ``2^(THRESHOLD_BITS - SCALE_BITS)``: negligible); whenever
  ``|y_l| > 2^THRESHOLD_BITS`` both state values are multiplied by ``2^-SCALE_BITS``
  (exact: a power of two) and ``k`` goes up by one;
- from ``k == 0`` on the values are the true ones and are accumulated; they never
  overflow (``|P_lm| <= sqrt((2l+1)/(4 pi))``).

Nothing ever leaves the normal float32 range, for any lmax below 16384 (the bound of the
MLIR kernels' rescaling checks). :func:`scaled_legendre` evaluates this exact scheme in
numpy, at float32 or float64, so it can be checked against the independent float64
reference. (The MLIR kernels check the rescaling every 8 degrees instead of every degree,
and add the values of ``k = -1`` with their true size, ``2^-SCALE_BITS y``, below
``2^(THRESHOLD_BITS - SCALE_BITS)``: the same sums to float32 rounding.)

Work the kernels may skip: for each order m, the latitude pairs next to the pole whose
values stay below the counting threshold for every l (:func:`polar_rows`, in ``polar``).
"""

from __future__ import annotations

import numpy as np

SCALE_BITS = 64
THRESHOLD_BITS = 32
# (THRESHOLD_BITS, SCALE_BITS) of each dtype, in every kernel family and in the seed table:
# float32 as above; float64 drops values below 2^(128 - 256), far below its rounding too
RESCALE_BITS = {"float32": (THRESHOLD_BITS, SCALE_BITS), "float64": (128, 256)}


def recurrence_tables(lmax: int, mmax: int) -> tuple[np.ndarray, np.ndarray]:
    """The exact-coefficient recurrence of ``y_l = P_lm / S_l`` (see the module doc).

    Returns
    -------
    coef : (nlm, 4) float64, rows ``(A, B, C, E)`` of entry (l, m) in the packed m-major
        layout; exact in float32 for l <= 4097; ``(0, 1, 0, 1)`` for the seeds (l = m): a
        step from the state ``(y_{m-1}, y_{m-2} or d_{m-1}) = (0, seed)`` with that row
        gives ``y_m = seed`` in either form, so a kernel may step at l = m too
    scale : (nlm,) float64, ``S_lm`` (1 for l = m)
    """
    parts = [order_tables(lmax, m) for m in range(mmax + 1)]
    return np.concatenate([c for c, _ in parts]), np.concatenate([s for _, s in parts])


def order_tables(lmax: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """``recurrence_tables`` for one order m: ``(lmax+1-m, 4)`` and ``(lmax+1-m,)``, l = m.."""
    coef = np.zeros((lmax + 1 - m, 4))
    coef[0] = (0.0, 1.0, 0.0, 1.0)
    scale = np.ones(lmax + 1 - m)
    l = np.arange(m + 1, lmax + 1, dtype=np.float64)
    if l.size == 0:
        return coef, scale
    s = np.sqrt((2 * l + 1) / ((2 * l - 1) * (l * l - m * m)))
    mant, exp = _cumprod_frexp(s)
    n = np.rint(np.log2(mant) + exp)  # N_l: S_l = prod s * 2^-N_l in [2^-1/2, 2^1/2]
    k = (np.concatenate(([0.0], n[:-1])) - n).astype(int)
    kprev = np.concatenate(([0], k[:-1]))
    coef[1:, 0] = np.ldexp(2 * l - 1, -k)
    coef[1:, 1] = -np.ldexp((l - 1) ** 2 - m * m, -(k + kprev))
    coef[1:, 2] = np.ldexp(l + m, -k)
    coef[1:, 3] = np.ldexp(l - 1 - m, -k)
    scale[1:] = np.ldexp(mant, (exp - n).astype(int))
    return coef, scale


def _cumprod_frexp(s: np.ndarray, block: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Running products of ``s`` as ``mant * 2^exp`` (they underflow float64 as plain numbers)."""
    mant = np.empty_like(s)
    exp = np.empty(s.size, dtype=np.int64)
    carry_m, carry_e = 1.0, 0
    for i in range(0, s.size, block):
        # blocks of 64 factors >= 2^-15 stay far inside float64's range
        fr, ex = np.frexp(np.cumprod(s[i : i + block]) * carry_m)
        mant[i : i + block], exp[i : i + block] = fr, ex + carry_e
        carry_m, carry_e = fr[-1], exp[min(i + block, s.size) - 1]
    return mant, exp


X0 = float(np.cos(np.deg2rad(55.0)))  # rows with x > X0 run the difference form


def seed_constants(mmax: int) -> np.ndarray:
    """Return ``c_m`` for m = 0..mmax, ``(mmax+1,)`` float64, Condon-Shortley phase included."""
    m = np.arange(mmax + 1, dtype=np.float64)
    # log of prod_{k<=m} (2k-1)/(2k), summed in log space so large m loses nothing
    ratio = np.concatenate(([0.0], np.cumsum(np.log((2 * m[1:] - 1) / (2 * m[1:])))))
    c = np.sqrt((2 * m + 1) / (4 * np.pi) * np.exp(ratio))
    return np.where(m % 2 == 1, -c, c)


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a b = p + e exactly in float64 (Dekker; numpy has no fma)."""
    p = a * b
    split = 134217729.0  # 2^27 + 1
    ta = split * a
    ah = ta - (ta - a)
    al = a - ah
    tb = split * b
    bh = tb - (tb - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _df_times(hi: np.ndarray, lo: np.ndarray, b) -> tuple[np.ndarray, np.ndarray]:
    """(hi + lo) b as a renormalised double-float64 pair (one exact product)."""
    p, e = _two_prod(hi, np.broadcast_to(b, hi.shape))
    e = e + lo * b
    h = p + e
    return h, e - (h - p)


def seed_table(mmax: int, sint: np.ndarray, dtype: type, over_sin: bool = False) -> np.ndarray:
    """The seeds ``P_mm = c_m sin^m theta`` of every order m and latitude, as the kernels
    start from them.

    Each seed is ``(y, k)`` with the value ``y 2^(S k)``, ``k = floor((E + T) / S)`` for the
    value's exponent E (S, T of ``RESCALE_BITS[dtype]``), so ``2^(-T-1) <= |y| < 2^(S-T)``;
    or ``y = k = 0`` where ``sin theta = 0`` and m > 0.
    ``sin^m`` is carried as a double-float64 mantissa and an integer exponent from m - 1 to
    m (one exact product per step, so nothing is lost for any m), and each seed is rounded
    once to ``dtype``: O(mmax npts) host work.

    Parameters
    ----------
    mmax : int
    sint : (npts,) float64, sin(theta) in [0, 1]
    dtype : np.float32 or np.float64
    over_sin : bool
        the seeds of ``P_mm / sin(theta)`` (vector plans, ``geometry.seeds``): the kernels then
        make ``P_lm / sin(theta)``. At a pole these are the limits of the vector fields'
        parts there: ``c_1`` for m = 1, 0 for the others (``numerics.vector``)

    Returns
    -------
    (mmax+1, npts, 2) of ``dtype``: y, and k (a small integer, exact).
    """
    threshold_bits, scale_bits = RESCALE_BITS[np.dtype(dtype).name]
    s = np.asarray(sint, dtype=np.float64)
    c = seed_constants(mmax)
    out = np.zeros((mmax + 1, s.size, 2), dtype)
    hi = np.ones_like(s)  # sin^m = (hi + lo) 2^ex
    lo = np.zeros_like(s)
    ex = np.zeros(s.size, dtype=np.int64)
    pole = s == 0
    inv = np.divide(1.0, s, out=np.zeros(s.size), where=~pole)
    for m in range(mmax + 1):
        if m > 0:
            hi, lo = _df_times(hi, lo, s)
            fr, de = np.frexp(hi)
            hi, lo, ex = fr, np.ldexp(lo, -de), ex + de
        vh, vl = _df_times(hi, lo, c[m])
        if over_sin:  # exact at the pole (sin^(m-1) there); rounded once elsewhere
            vh, vl = _df_times(vh, vl, inv)
            if m == 1:
                vh, vl = np.where(pole, c[1], vh), np.where(pole, 0.0, vl)
        fr, de = np.frexp(vh)
        E = ex + de
        k = np.floor_divide(E + threshold_bits, scale_bits)
        y = np.ldexp(fr + np.ldexp(vl, -de), E - scale_bits * k)
        zero = vh == 0
        out[m, :, 0] = np.where(zero, 0.0, y).astype(dtype)
        out[m, :, 1] = np.where(zero, 0, k)
    return out


def split(x: np.ndarray, dtype: type = np.float32) -> tuple[np.ndarray, np.ndarray]:
    """Split float64 ``x`` into ``hi + lo`` of ``dtype`` (lo = 0 for float64)."""
    x = np.asarray(x, dtype=np.float64)
    hi = x.astype(dtype)
    lo = (x - hi.astype(np.float64)).astype(dtype)
    return hi, lo


def scaled_legendre(
    lmax: int, m: int, cost: np.ndarray, sint: np.ndarray, dtype: type = np.float32
) -> np.ndarray:
    """Evaluate ``P_lm(x)`` for l = m..lmax with the kernels' rescaled recurrence.

    Every operation is carried out in ``dtype`` as the kernels do (an FMA is emulated
    by one rounding of the float64 result), so at float32 this shows the kernels'
    rounding error, and at float64 it checks the scheme itself.

    Parameters
    ----------
    lmax, m : int, 0 <= m <= lmax
    cost, sint : (npts,) float64, cos(theta) and sin(theta)
    dtype : np.float32 or np.float64

    Returns
    -------
    (lmax+1-m, npts) float64: the true values where the exponent counter has reached 0,
    and 0 where the value is still below the accumulation threshold.
    """
    dt = np.dtype(dtype).type
    cost = np.asarray(cost, dtype=np.float64)

    def fma(a, b, c):
        # one rounding of the exact result: float64 holds a float32 product exactly
        f64 = np.float64
        return (np.asarray(a, f64) * np.asarray(b, f64) + np.asarray(c, f64)).astype(dt)

    npts = cost.size
    seeds = seed_table(m, sint, dt)[m]
    y1 = seeds[:, 0]
    k = seeds[:, 1].astype(np.int64)

    coef, scale = order_tables(lmax, m)
    c = coef.astype(dt)
    x_hi, x_lo = split(cost, dt)
    t_hi, t_lo = split(1.0 - cost, dt)
    dif = cost > X0

    out = np.zeros((lmax + 1 - m, npts))
    out[0] = np.where(k == 0, y1, 0.0)
    threshold_bits, scale_bits = RESCALE_BITS[np.dtype(dt).name]
    big = dt(2.0**threshold_bits)
    shrink = dt(2.0**-scale_bits)
    z = np.zeros(npts, dtype=dt)  # y_{l-2} (standard form) or d_{l-1} (difference form)
    for i in range(1, lmax + 1 - m):
        A, B, C, E = c[i]
        # difference form: p = t y, d = E d - A p, y = C y + d
        p = fma(t_hi, y1, (t_lo * y1).astype(dt))
        d = fma(-A, p, (E * z).astype(dt))
        y_dif = fma(C, y1, d)
        # standard form: y = A x y1 + B y0
        v = fma(x_hi, y1, (x_lo * y1).astype(dt))
        y_std = fma(A, v, (B * z).astype(dt))
        z = np.where(dif, d, y1).astype(dt)
        y1 = np.where(dif, y_dif, y_std).astype(dt)
        rescale = (k < 0) & (np.abs(y1) > big)
        z = np.where(rescale, z * shrink, z).astype(dt)
        y1 = np.where(rescale, y1 * shrink, y1).astype(dt)
        k = k + rescale
        out[i] = np.where(k == 0, y1, 0.0) * scale[i]
    return out


def polar_rows(lmax: int, mmax: int, cost: np.ndarray, sint: np.ndarray, dtype: type,
               over_sin: bool = False) -> np.ndarray:
    """For each order m, how many of the latitude pairs next to the pole contribute nothing.

    Pair p (``cost[p]``, ``sint[p]``, ordered from the pole to the equator) contributes
    nothing to order m when ``|P_lm| < 2^(T - S - 8)`` for every l <= lmax: far below the
    value (``2^(T - S)``) at which the kernels' recurrence starts to count, so the kernels
    may skip the pair for that m with the same result. Such rows lie where
    ``l (l + 1) sin^2 theta < m^2`` for every l <= lmax (there P_lm grows with l), so the
    largest is ``P_lmax,m``; it comes from the recurrence in m at l = lmax, downwards from
    ``P_lmax,lmax = c_lmax sin^lmax``, which is stable there (the values grow).

    ``over_sin``: for the seeds of ``seed_table(..., over_sin=True)``, ``P_lm / sin(theta)``
    (a pole pair is live for m = 1 alone).

    Returns
    -------
    (mmax+1,) int64: for each m, the number of leading pairs to skip.
    """
    L = lmax
    threshold_bits, scale_bits = RESCALE_BITS[np.dtype(dtype).name]
    drop = threshold_bits - scale_bits - 8
    cost = np.asarray(cost, dtype=np.float64)
    sint = np.asarray(sint, dtype=np.float64)
    # a pole row (sin = 0) has P_lm = 0 for m > 0 (P_lm / sin: for m != 1); the recurrence
    # runs on the others
    pole = sint <= 0
    cost, sint = cost[~pole], sint[~pole]
    ls = np.log2(sint)
    gain = -ls if over_sin else 0.0
    cot = cost / sint
    # P_L^m = mant * 2^e, carried from m = L down, with P_L^(m+1) in the same scale
    e = np.log2(abs(seed_constants(L)[L])) + L * ls
    big = np.floor(e)
    e = e - big
    hi = np.full(cost.size, 2.0**e)  # P_L^m / 2^big
    lo = np.zeros(cost.size)  # P_L^(m+1) / 2^big
    out = np.zeros(mmax + 1, dtype=np.int64)
    evanescent_l = np.sqrt(L * (L + 1.0)) * sint
    for m in range(L, -1, -1):
        if m <= mmax:
            log2p = big + np.log2(np.maximum(np.abs(hi), np.finfo(np.float64).tiny)) + gain
            dead = np.full(pole.size, m != 1 if over_sin else m > 0)
            dead[~pole] = (log2p < drop) & (evanescent_l < m)
            out[m] = np.argmin(dead) if not dead.all() else dead.size
        if m == 0:
            break
        # P^(m-1) = -(2 m cot P^m + sqrt((L+m+1)(L-m)) P^(m+1)) / sqrt((L+m)(L-m+1))
        nxt = -(2.0 * m * cot * hi + np.sqrt((L + m + 1.0) * (L - m)) * lo) / np.sqrt((L + m) * (L - m + 1.0))
        fr, ex = np.frexp(nxt)
        lo = np.ldexp(hi, -ex)
        hi = fr
        big = big + ex
    return out
