"""The Legendre tables and the fp32 rescaling scheme (ireesht/numerics/legendre.py) against the
independent float64 reference recurrence (ireesht/numerics/reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from ireesht.numerics import grid, layout, legendre, reference


def test_coefficients_reproduce_reference_values():
    lmax, mmax = 40, 25
    g = grid.make_grid("gauss", 41, 82)
    coef, scale = legendre.recurrence_tables(lmax, mmax)
    c = legendre.seed_constants(mmax)
    for m in (0, 1, 7, 25):
        ref = reference.legendre_values(lmax, m, g.cost, g.sint)
        start = layout.m_offsets(lmax, mmax)[m]
        y = np.zeros_like(ref)
        y[0] = c[m] * g.sint**m
        for i in range(1, lmax + 1 - m):
            A, B = coef[start + i, :2]
            y[i] = A * g.cost * y[i - 1] + (B * y[i - 2] if i > 1 else 0)
        p = y * scale[start : start + lmax + 1 - m, None]
        np.testing.assert_allclose(p, ref, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("m", [0, 1, 2, 3, 100, 1000, 2047, 4000, 4096, 4097])
def test_coefficients_are_exact_in_float32_and_scales_near_one(m):
    # orders of every size up to lmax 4097; m = 0 holds the largest integers, (l-1)^2 < 2^24
    # (every order took 45 s)
    coef, scale = legendre.order_tables(4097, m)
    assert np.array_equal(coef.astype(np.float32).astype(np.float64), coef)
    np.testing.assert_array_equal(coef[0], [0.0, 1.0, 0.0, 1.0])  # l = m: the seed's step
    np.testing.assert_array_equal(coef[1:, 0], coef[1:, 2] + coef[1:, 3])  # A = C + E
    assert np.all((scale > 2**-0.5 - 1e-12) & (scale < 2**0.5 + 1e-12))


def test_recurrence_tables_pack_the_orders_m_major():
    lmax, mmax = 300, 200
    coef, scale = legendre.recurrence_tables(lmax, mmax)
    m = np.arange(mmax + 1)
    seeds = m * (2 * lmax + 3 - m) // 2  # rows l = m
    assert coef.shape == (layout.nlm(lmax, mmax), 4) and scale.shape == (len(coef),)
    np.testing.assert_array_equal(coef[seeds], np.tile([0.0, 1.0, 0.0, 1.0], (m.size, 1)))
    c, s = legendre.order_tables(lmax, 150)
    np.testing.assert_array_equal(coef[seeds[150]:seeds[150] + len(c)], c)
    np.testing.assert_array_equal(scale[seeds[150]:seeds[150] + len(s)], s)


@pytest.mark.parametrize("lmax", [127, 511])
def test_float32_scheme_error_at_the_poles(lmax):
    # the kernels' arithmetic emulated: every row, poles included, within a few float32
    # ulps per step of accumulated rounding (the plain recurrence is at 1e-4 there)
    g = grid.make_grid("gauss", lmax + 1, 2 * lmax + 2)
    rows = slice(0, (lmax + 1) // 2)
    for m in (0, 3, lmax // 3):
        got = legendre.scaled_legendre(lmax, m, g.cost[rows], g.sint[rows], np.float32)
        ref = reference.legendre_values(lmax, m, g.cost[rows], g.sint[rows])
        scale = np.sqrt((2 * np.arange(m, lmax + 1) + 1) / (4 * np.pi))[:, None]
        assert np.abs(got - ref).max() / scale.max() < 3e-6 * (lmax / 127) ** 0.5


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_seed_table_holds_the_seeds_to_the_dtypes_rounding(dtype):
    # y 2^(S k) = c_m sin^m: against float64 powers where they are representable, and in
    # log2 for every m (sin^m of the pole rows underflows float64 from m ~ 100 on)
    t, scale = legendre.RESCALE_BITS[np.dtype(dtype).name]
    rng = np.random.default_rng(3)
    s = np.concatenate(([0.0, 1.0, 1e-4], rng.uniform(0.01, 1.0, 5)))
    mmax = 3000
    tab = legendre.seed_table(mmax, s, dtype)
    y, k = tab[..., 0].astype(np.float64), tab[..., 1].astype(np.float64)
    assert np.array_equal(k, np.round(k))
    c = legendre.seed_constants(mmax)
    m = np.arange(mmax + 1)[:, None]
    live = s > 0
    # the counter keeps |y| in [2^(-T-1), 2^(S-T))
    assert np.all(np.abs(y[:, live]) < 2.0 ** (scale - t))
    assert np.all(np.abs(y[:, live]) >= 2.0 ** (-t - 1))
    np.testing.assert_array_equal(y[1:, 0], 0.0)  # sin = 0: nothing from m = 1 on
    np.testing.assert_array_equal(y[0], np.full(s.size, c[0], dtype).astype(np.float64))
    eps = np.finfo(dtype).eps
    small = m[:, 0] <= 60
    direct = c[small, None] * s[live] ** m[small]
    np.testing.assert_allclose(y[small][:, live] * 2.0 ** (scale * k[small][:, live]), direct,
                               rtol=2 * eps + 60 * 2.3e-16)
    log2 = np.log2(np.abs(y[:, live])) + scale * k[:, live]
    np.testing.assert_allclose(log2, np.log2(np.abs(c))[:, None] + m * np.log2(s[live]),
                               rtol=0, atol=2 * eps + 1e-11)  # the right side's own error
    np.testing.assert_array_equal(np.sign(y[:, live]),
                                  np.broadcast_to(np.sign(c)[:, None], y[:, live].shape))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_seeds_over_sin_are_the_seeds_divided_by_sin(dtype):
    """Vector plans' seeds (``over_sin``): ``c_m sin^(m-1)``, in the counter's range; at a pole
    the limits of the vector fields' parts, ``c_1`` for m = 1 and 0 for the others; and
    ``polar_rows`` keeps the pole pair for m = 1 alone."""
    t, bits = legendre.RESCALE_BITS[np.dtype(dtype).name]
    rng = np.random.default_rng()
    s = np.concatenate(([0.0], rng.uniform(1e-3, 1.0, 7)))
    plain = legendre.seed_table(200, s, np.float64)
    tab = legendre.seed_table(200, s, dtype, over_sin=True)
    # the ratio to the plain seeds over sin, in the tables' own scaled form (the values
    # themselves leave float64's normal range)
    y, k = tab[:, 1:, 0].astype(np.float64), tab[:, 1:, 1].astype(np.float64)
    y0, k0 = plain[:, 1:, 0], plain[:, 1:, 1]
    b64 = legendre.RESCALE_BITS["float64"][1]
    ratio = (y / y0) * s[1:] * np.exp2(bits * k - b64 * k0)
    np.testing.assert_allclose(ratio, 1.0, rtol=2 * np.finfo(dtype).eps)
    live = tab[..., 0] != 0
    assert np.all(np.abs(tab[..., 0][live]) < 2.0 ** (bits - t))
    assert np.all(np.abs(tab[..., 0][live]) >= 2.0 ** (-t - 1))
    pole = tab[:, 0, 0].astype(np.float64) * np.exp2(bits * tab[:, 0, 1].astype(np.float64))
    assert pole[1] == np.float64(dtype(legendre.seed_constants(1)[1]))
    np.testing.assert_array_equal(np.delete(pole, 1), 0.0)
    cost = np.sqrt(1.0 - s * s)
    skip = legendre.polar_rows(200, 200, cost, s, dtype, over_sin=True)
    assert skip[1] == 0 and np.all(np.delete(skip, 1) >= 1)
    assert np.all(skip <= legendre.polar_rows(200, 200, cost, s, dtype) + 1)


@pytest.mark.parametrize("m", [0, 1500, 4000])
def test_rescaled_recurrence_at_lmax_16383_matches_reference(m):
    # float64 evaluation of the kernels' scheme: equal to the reference wherever the
    # reference value is representable (above float64's normal range) and not negligible
    lmax = 16383
    theta = np.array([2e-4, 0.01, 0.3, 1.0, np.pi / 2])
    x, s = np.cos(theta), np.sin(theta)
    got = legendre.scaled_legendre(lmax, m, x, s, np.float64)
    ref = reference.legendre_values(lmax, m, x, s)
    scale = np.sqrt((2 * np.arange(m, lmax + 1) + 1) / (4 * np.pi))[:, None]
    visible = np.abs(ref) > 1e-9 * scale  # below: skipped by design (k < 0)
    assert visible.any()
    # both recurrences round at every step; near the pole the error grows like l^2 eps
    # (3e-8 at l = 16383), so compare against the function's size with that allowance
    err = np.abs(got - ref) / scale
    assert err[visible].max() < 1e-7
    # what the scheme leaves out is negligible against the function's size
    assert np.all(np.abs(ref[~visible & (got == 0)]) <= 2.0**-31 * scale.repeat(5, 1)[~visible & (got == 0)])


@pytest.mark.parametrize("grid_name", ["gauss", "equiangular"])
def test_polar_rows_contribute_nothing(grid_name):
    # every pair that polar_rows lets an order skip has all its values below the counting
    # threshold in the kernels' float32 scheme (so they would add exactly 0), and the
    # skipped rows are most of those
    lmax = 150
    g = grid.make_grid(grid_name, lmax + 2, 2 * lmax + 4)
    pairs = slice(0, (g.nlat + 1) // 2)
    skip = legendre.polar_rows(lmax, lmax, g.cost[pairs], g.sint[pairs], np.float32)
    dead = 0
    for m in range(lmax + 1):
        v = legendre.scaled_legendre(lmax, m, g.cost[pairs], g.sint[pairs], np.float32)
        live = (v != 0).any(axis=0)
        first = int(np.argmax(live)) if live.any() else live.size
        assert skip[m] <= first, (m, skip[m], first)
        dead += first
    assert skip.sum() > 0.8 * dead
