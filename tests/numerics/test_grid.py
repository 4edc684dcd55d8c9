"""Latitude grids: Gauss-Legendre and Clenshaw-Curtis nodes, weights, exactness."""

import time

import numpy as np
import pytest
from numpy.polynomial import chebyshev, legendre

from ireesht.numerics.grid import (
    GRID_KINDS,
    Grid,
    clenshaw_curtis,
    clenshaw_curtis_rule,
    default_sizes,
    gauss_legendre,
    gauss_legendre_rule,
    make_grid,
    min_nlat,
)
from ireesht.numerics import fourier, resample


def _monomial_errors(x, w, degrees):
    """Relative error of sum w x^d against int_{-1}^{1} x^d dx for each degree."""
    errs = []
    for d in degrees:
        exact = 2.0 / (d + 1) if d % 2 == 0 else 0.0
        got = np.sum(w * x**d)
        errs.append(abs(got - exact) / (2.0 / (d + 1)))
    return np.array(errs)


def _cc_exact_degree(nlat):
    # Interpolatory on N + 1 = nlat Chebyshev points (degree N), symmetric so every
    # odd degree is exact too: the first failure is the first even degree > N.
    return nlat if nlat % 2 else nlat - 1


# ---------------------------------------------------------------- Gauss-Legendre

@pytest.mark.parametrize("n", list(range(1, 41)) + [63, 64, 99, 100])
def test_gauss_matches_numpy_leggauss(n):
    x, w = gauss_legendre(n)
    xr, wr = legendre.leggauss(n)
    # ours run north to south (x descending); leggauss ascending
    np.testing.assert_allclose(x, xr[::-1], rtol=0, atol=1e-14)
    # Absolute: leggauss's own small polar weights are off by up to 2e-12
    # *relative* at n = 100 (checked against mpmath); ours by < 4e-15.
    np.testing.assert_allclose(w, wr[::-1], rtol=0, atol=1e-14)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 33, 128, 513])
def test_gauss_integrates_monomials_up_to_degree_2n_minus_1(n):
    x, w = gauss_legendre(n)
    errs = _monomial_errors(x, w, range(2 * n))
    assert errs.max() < 1e-14 * max(1.0, np.log2(n))


@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 33, 128, 513])
def test_gauss_fails_at_degree_2n(n):
    # P_n^2 has degree 2n and vanishes at every node, but int P_n^2 = 2/(2n+1).
    x, w = gauss_legendre(n)
    pn = legendre.legval(x, [0] * n + [1])
    assert abs(np.sum(w * pn**2) - 2.0 / (2 * n + 1)) > 0.5 * 2.0 / (2 * n + 1)


def test_gauss_small_n_monomial_check_can_fail():
    # The monomial test itself catches a wrong degree where the error is visible.
    x, w = gauss_legendre(3)
    assert _monomial_errors(x, w, [6])[0] > 1e-3


def test_gauss_theta_cost_sint_consistent_and_symmetric():
    q = gauss_legendre_rule(101)
    nh = 50
    assert np.all(np.diff(q.theta) > 0)
    np.testing.assert_array_equal(q.cost[:nh], np.cos(q.theta[:nh]))
    np.testing.assert_array_equal(q.sint[:nh], np.sin(q.theta[:nh]))
    np.testing.assert_array_equal(q.cost[::-1], -q.cost)
    np.testing.assert_array_equal(q.sint[::-1], q.sint)
    np.testing.assert_array_equal(q.weights[::-1], q.weights)
    assert q.cost[nh] == 0.0 and q.sint[nh] == 1.0


def test_gauss_polar_nodes_have_full_relative_precision():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    n = 1000
    q = gauss_legendre_rule(n)

    def pn(t):
        x = mpmath.cos(t)
        p0, p1 = mpmath.mpf(1), x
        for k in range(1, n):
            p0, p1 = p1, ((2 * k + 1) * x * p1 - k * p0) / (k + 1)
        return p1

    for i in (0, 1, n - 1):
        t = mpmath.findroot(pn, mpmath.mpf(q.theta[i]))
        # theta and sin(theta) to a few ulps *relative* (x alone would give ~1e-10 here)
        assert abs((q.theta[i] - t) / t) < 2e-15
        assert abs((q.sint[i] - mpmath.sin(t)) / mpmath.sin(t)) < 2e-15


def test_gauss_16384_newton_residual_and_weights():
    n = 16384
    gauss_legendre_rule(64)  # warm-up
    t0 = time.perf_counter()
    q = gauss_legendre_rule(n)
    dt = time.perf_counter() - t0
    print(f"\ngauss_legendre_rule({n}): {dt:.3f} s")
    assert np.all(np.diff(q.theta) > 0) and q.theta[0] > 0 and q.theta[-1] < np.pi
    # Independent residual: plain three-term recurrence in x, one Newton step
    # dx = P_n / P_n'. Its size is what the recurrence can resolve (~ulp(x)).
    x = q.cost
    p0, p1 = np.ones_like(x), x.copy()
    for k in range(1, n):
        p0, p1 = p1, ((2 * k + 1) * x * p1 - k * p0) / (k + 1)
    dpdx = n * (p0 - x * p1) / q.sint**2
    step = p1 / dpdx
    assert np.max(np.abs(step)) < 1e-15, np.max(np.abs(step))
    assert abs(q.weights.sum() - 2.0) < 1e-13
    assert np.all(q.weights > 0)
    assert dt < 10.0


# --------------------------------------------------------------- Clenshaw-Curtis

@pytest.mark.parametrize("nlat", [2, 3, 4, 5, 8, 9, 17, 64, 65, 721])
def test_clenshaw_curtis_integrates_monomials_to_its_degree(nlat):
    x, w = clenshaw_curtis(nlat)
    errs = _monomial_errors(x, w, range(_cc_exact_degree(nlat) + 1))
    assert errs.max() < 1e-14 * max(1.0, np.log2(nlat))


@pytest.mark.parametrize("nlat", [2, 3, 4, 5, 8, 9, 17, 64, 65, 721])
def test_clenshaw_curtis_fails_one_degree_beyond(nlat):
    # T_D for the first even degree D past the exact one: at the nodes it aliases to
    # T_{2N - D}, whose integral differs by much more than rounding.
    x, w = clenshaw_curtis(nlat)
    d = _cc_exact_degree(nlat) + 1
    exact = 2.0 / (1.0 - d * d)
    got = np.sum(w * chebyshev.chebval(x, [0] * d + [1]))
    assert abs(got - exact) > 1e-3 * abs(exact)


def test_clenshaw_curtis_small_nlat_monomial_check_can_fail():
    x, w = clenshaw_curtis(5)     # exact to degree 5
    assert _monomial_errors(x, w, [6])[0] > 1e-3


@pytest.mark.parametrize("nlat", [2, 3, 10, 721])
def test_clenshaw_curtis_nodes_poles_and_symmetry(nlat):
    q = clenshaw_curtis_rule(nlat)
    np.testing.assert_allclose(q.theta, np.pi * np.arange(nlat) / (nlat - 1), rtol=0, atol=1e-15)
    assert q.theta[0] == 0.0 and q.theta[-1] == np.pi
    assert (q.cost[0], q.cost[-1], q.sint[0], q.sint[-1]) == (1.0, -1.0, 0.0, 0.0)
    np.testing.assert_array_equal(q.cost[::-1], -q.cost)
    np.testing.assert_array_equal(q.sint[::-1], q.sint)
    np.testing.assert_array_equal(q.weights[::-1], q.weights)
    assert np.all(q.weights > 0)
    assert abs(q.weights.sum() - 2.0) < 1e-14


# ------------------------------------------------------------------ Grid values

def test_exact_lmax():
    assert make_grid("gauss", 256, 512).exact_lmax == 255
    assert make_grid("gauss", 1, 1).exact_lmax == 0
    assert make_grid("equiangular", 721, 1440).exact_lmax == 360
    assert make_grid("equiangular", 722, 1440).exact_lmax == 360
    assert make_grid("equiangular", 2, 1).exact_lmax == 0


@pytest.mark.parametrize("kind", GRID_KINDS)
@pytest.mark.parametrize("lmax,mmax", [(0, 0), (1, 0), (31, 31), (360, 200)])
def test_default_sizes_are_exact_and_alias_free(kind, lmax, mmax):
    """Exact analysis: by quadrature (Gauss, equiangular) or with the theta step (Fejer,
    ``resample.exact_lmax``; its docstring says why); the fewest rings that are."""
    nlat, nphi = default_sizes(lmax, mmax, kind)
    exact = resample.exact_lmax if kind == "fejer" else (
        lambda k, n: make_grid(k, n, nphi).exact_lmax)
    assert exact(kind, nlat) >= lmax and nphi > 2 * mmax
    # and the fewest rings that are exact
    if nlat > min_nlat(kind):
        assert exact(kind, nlat - 1) < lmax


def test_default_sizes_values():
    assert default_sizes(1023, 1023, "gauss") == (1024, 2048)
    assert default_sizes(360, 360, "equiangular") == (721, 1440)
    assert default_sizes(719, 719, "fejer") == (720, 1440)
    # 2 (lmax + 1) = 1442 = 2 * 7 * 103 has no FFT: the next FFT size, 1458 = 2 * 3^6
    assert default_sizes(720, 720, "gauss") == (721, 1458)


def _largest_prime_factor(n: int) -> int:
    f, big = 2, 1
    while n > 1:
        while n % f == 0:
            n, big = n // f, f
        f += 1
    return big


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_default_nphi_is_the_next_fft_size(kind):
    """nphi / 2 has no prime factor above 5 (the MLIR family's FFT path, not its direct DFT)
    and no smaller even length from the grid's own 2 (lmax + 1) or 4 lmax has."""
    for lmax in range(0, 2048, 7):
        nphi = default_sizes(lmax, lmax, kind)[1]
        least = 4 * lmax if kind == "equiangular" and lmax else 2 * (lmax + 1)
        assert nphi % 2 == 0 and _largest_prime_factor(nphi // 2) <= 5 and nphi >= least
        assert all(_largest_prime_factor(n // 2) > 5 for n in range(least, nphi, 2))
        assert fourier.fft_path(nphi) or not 4 <= nphi <= fourier.FFT_MAX


def test_direct_dft_is_where_a_family_has_no_fft():
    # MLIR: even rows whose half is 2^a 3^b 5^c, up to 4096 points; C and WGSL: Bluestein
    # for other factors while its FFT (2 n - 1 points at least) fits 2048 complex points
    assert fourier.direct_dft(28, "mlir") and not fourier.direct_dft(30, "mlir")
    assert not fourier.direct_dft(28, "c") and not fourier.direct_dft(28, "wgsl")
    assert fourier.direct_dft(2 * 1031, "c") and not fourier.direct_dft(2 * 1021, "c")
    assert all(fourier.direct_dft(4100, f) for f in ("mlir", "c", "wgsl"))
    assert not fourier.direct_dft(4096, "mlir") and fourier.direct_dft(4097, "mlir")


def test_make_grid_is_cached_and_read_only():
    g = make_grid("gauss", 33, 64)
    assert make_grid("gauss", 33, 64) is g
    assert isinstance(g, Grid) and g.theta.shape == (33,) and g.nphi == 64
    with pytest.raises(ValueError):
        g.weights[0] = 1.0
    np.testing.assert_allclose(g.phi, 2 * np.pi * np.arange(64) / 64)


# ------------------------------------------------------------------- validation

def test_make_grid_rejects_unknown_kind():
    with pytest.raises(ValueError, match="kind='healpix'"):
        make_grid("healpix", 10, 20)


def test_make_grid_rejects_too_few_gauss_rings():
    with pytest.raises(ValueError, match="nlat=0"):
        make_grid("gauss", 0, 20)


def test_make_grid_rejects_too_few_equiangular_rings():
    with pytest.raises(ValueError, match="nlat=1"):
        make_grid("equiangular", 1, 20)


def test_make_grid_rejects_bad_nphi():
    with pytest.raises(ValueError, match="nphi=0"):
        make_grid("gauss", 10, 0)


def test_make_grid_rejects_non_integer_sizes():
    with pytest.raises(ValueError, match="nlat=10.0"):
        make_grid("gauss", 10.0, 20)
    with pytest.raises(ValueError, match="nphi=True"):
        make_grid("gauss", 10, True)


def test_rules_reject_bad_nlat():
    with pytest.raises(ValueError, match="nlat"):
        gauss_legendre(0)
    with pytest.raises(ValueError, match="nlat"):
        clenshaw_curtis(1)


def test_default_sizes_rejects_bad_arguments():
    with pytest.raises(ValueError, match="mmax=5"):
        default_sizes(4, 5, "gauss")
    with pytest.raises(ValueError, match="grid='reduced'"):
        default_sizes(4, 4, "reduced")
    with pytest.raises(ValueError, match="lmax=-1"):
        default_sizes(-1, 0, "gauss")


def test_latitudes_and_longitudes_in_radians_and_degrees():
    g = make_grid("equiangular", 5, 8)
    np.testing.assert_allclose(g.lat_deg, [90, 45, 0, -45, -90], atol=1e-13)
    np.testing.assert_allclose(g.lat, np.radians(g.lat_deg))
    np.testing.assert_array_equal(g.lon_deg, [0, 45, 90, 135, 180, 225, 270, 315])
    np.testing.assert_array_equal(g.lon, g.phi)
    gauss = make_grid("gauss", 4, 8)
    assert np.all(np.diff(gauss.lat) < 0) and abs(gauss.lat[0]) < np.pi / 2
