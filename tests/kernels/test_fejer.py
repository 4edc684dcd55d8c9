"""Fejer grids (``grid="fejer"``: rings at pi (i + 1/2) / nlat, no poles, ducc0's "F1"):
the rule, the theta step on offset rings (exact analysis up to lmax = nlat - 1), the C and
Vulkan families against ducc0's ``synthesis_2d`` / ``analysis_2d(geometry="F1")``, the
ApproximationWarning past nlat - 1, and the grid through plans, vectors, artifacts and
``ireesht check``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference, resample, vector_reference
from ireesht.numerics.grid import default_sizes, fejer_rule, make_grid
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.plan import Plan

ducc0 = pytest.importorskip("ducc0")

# as tests/kernels/test_equiangular_exact.py: float64 the kernels' ~1e-14 plus one nlat-term
# sum of the theta step; float32 the kernels' 2e-6 (tests/checks.py BOUNDS) and the step's
# own rounding (measured 2-4e-7 here)
TOL = {"float64": 1e-12, "float32": 5e-6}


def _ducc0_synthesis(q, lmax, mmax, nlat, nphi):
    return np.stack([ducc0.sht.experimental.synthesis_2d(
        alm=x[None], spin=0, lmax=lmax, mmax=mmax, ntheta=nlat, nphi=nphi, geometry="F1")[0]
        for x in q])


def _ducc0_analysis(f, lmax, mmax):
    """ducc0's F1 analysis of real fields ``(B, nlat, nphi)``, packed as ours (m-major)."""
    return np.stack([ducc0.sht.experimental.analysis_2d(
        map=x[None], spin=0, lmax=lmax, mmax=mmax, geometry="F1")[0] for x in f])


# --- the rule and the limits (host only) -----------------------------------------------------
@pytest.mark.parametrize("nlat", [1, 2, 9, 16, 17, 64, 721])
def test_rule_nodes_weights_and_exactness(nlat):
    q = fejer_rule(nlat)
    i = np.arange(nlat)
    np.testing.assert_allclose(q.theta, np.pi * (i + 0.5) / nlat, rtol=0, atol=1e-15)
    assert np.all(np.diff(q.theta) > 0) and 0 < q.theta[0] and q.theta[-1] < np.pi
    assert np.array_equal(q.cost[::-1], -q.cost) and np.array_equal(q.sint[::-1], q.sint)
    assert np.array_equal(q.weights[::-1], q.weights)
    north = i < (nlat + 1) // 2       # the southern rings are their mirror images
    np.testing.assert_allclose(q.sint[north], np.sin(q.theta[north]), rtol=1e-15)
    # the textbook form (module doc of fejer_rule), which loses ~nlat ulps near the poles
    # (3e-14 relative at nlat 721 against mpmath, where fejer_rule's weights are within 1e-15)
    j = np.arange(1, (nlat - 1) // 2 + 1)
    direct = 2 / nlat * (1 - 2 * (np.cos(2 * np.outer(q.theta, j)) / (4 * j * j - 1)).sum(1))
    np.testing.assert_allclose(q.weights, direct, rtol=1e-13, atol=0)
    # exact for every degree <= nlat - 1 (and odd ones); the first even degree >= nlat fails:
    # Chebyshev polynomials T_d(x) = cos(d theta), int T_d dx = 2 / (1 - d^2) (d even)
    first_bad = nlat + nlat % 2
    for d in range(0, first_bad + 1):
        exact = 2.0 / (1 - d * d) if d % 2 == 0 else 0.0
        err = abs(q.weights @ np.cos(d * q.theta) - exact)
        assert (err > 1.0 / d**2) if d == first_bad else (err < 1e-13), (d, err)


def test_rule_weights_match_mpmath_to_a_few_ulps():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 30
    nlat = 64
    q = fejer_rule(nlat)
    for k in (0, 1, 10, 31):       # the polar rings, where the textbook form cancels
        th = mpmath.pi * (k + mpmath.mpf(1) / 2) / nlat
        s = mpmath.fsum(mpmath.cos(2 * j * th) / (4 * j * j - 1) for j in range(1, nlat // 2))
        exact = float(2 * (1 - 2 * s) / nlat)
        assert abs(q.weights[k] / exact - 1) < 2e-15, (k, q.weights[k], exact)


@pytest.mark.parametrize("nlat", [1, 8, 9, 32, 33])
def test_limits_quadrature_theta_step_and_ducc0(nlat, rng):
    """Quadrature exact to (nlat - 1) // 2, the theta step to nlat - 1: ducc0's largest lmax
    for F1 (it refuses lmax = nlat)."""
    g = make_grid("fejer", nlat, 2 * nlat + 2)
    assert g.exact_lmax == (nlat - 1) // 2 and g.step_lmax == nlat - 1
    assert resample.exact_lmax("fejer", nlat) == nlat - 1
    assert resample.exact_nlat("fejer", nlat - 1) == nlat
    lmax = nlat - 1
    f = rng.standard_normal((1, nlat, 2 * nlat + 2))
    assert _ducc0_analysis(f, lmax, lmax).shape == (1, (lmax + 1) * (lmax + 2) // 2)
    with pytest.raises(RuntimeError):
        _ducc0_analysis(f, lmax + 1, lmax + 1)


def test_default_sizes_are_the_fewest_exact_rings():
    # nphi 42 rounded up to an FFT size (48 = 2 * 2^3 * 3)
    assert default_sizes(20, 20, "fejer") == (21, 48) and default_sizes(0, 0, "fejer") == (1, 2)
    p = Plan.create(20, grid="fejer", target="cpu", dtype="float64")
    assert (p.nlat, p.nphi, p.exact, p.theta_step) == (21, 48, True, True)
    assert not Plan.create(10, nlat=21, grid="fejer", target="cpu").theta_step  # quadrature


def test_a_bad_grid_names_the_field_and_the_kinds():
    with pytest.raises(ValueError, match=r"grid='fejr': expected one of 'gauss', "
                                         r"'equiangular', 'fejer'"):
        ireesht.compile(8, grid="fejr", target="cpu")


@pytest.mark.parametrize("lmax,nlat", [(32, 33), (31, 32), (20, 32), (0, 1)])
def test_operator_integrates_band_limited_rows_exactly(lmax, nlat, rng):
    """sum_i v_i (K_p F)_i P_lm(theta_i) is the exact integral (midpoint rule v)."""
    g = make_grid("fejer", nlat, 2 * nlat)
    v = resample.step_weights(g)
    for m in {0, 1, 2, 5} & set(range(lmax + 1)):
        p = reference.legendre_values(lmax, m, g.cost, g.sint)
        q = rng.standard_normal(lmax + 1 - m)
        got = p @ (v * (resample.operator("fejer", nlat, lmax, m % 2) @ (q @ p)))
        assert np.abs(got * 2 * np.pi - q).max() < 1e-13


@pytest.mark.parametrize("nlat", [32, 33])
def test_beyond_nlat_minus_1_the_operator_is_refused(nlat):
    # the folded blocks of Fejer grids are checked with the equiangular ones
    # (tests/kernels/test_equiangular_exact.py)
    with pytest.raises(ValueError, match=f"lmax={nlat}: the theta step needs"):
        resample.operator("fejer", nlat, nlat, 0)


# --- the kernels against ducc0 -----------------------------------------------------------------
def _check(mod, rng, tol):
    """Synthesis against ducc0 (and the reference); analysis of band-limited fields against the
    coefficients and ducc0; at lmax = nlat - 1 any field against ducc0 (both integrate the
    trigonometric interpolant exactly)."""
    p = mod.plan
    assert p.exact and p.theta_step == (p.lmax > (p.nlat - 1) // 2)
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = mod.synth(q)
    f_ducc = _ducc0_synthesis(q, p.lmax, p.mmax, p.nlat, p.nphi)
    assert rel_l2(f, f_ducc) <= tol, rel_l2(f, f_ducc)
    f64 = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    assert rel_l2(f_ducc, f64) <= 1e-13
    assert rel_l2(mod.analys(f64.astype(p.dtype)), q) <= tol
    assert rel_l2(mod.analys(f), q) <= tol                             # the roundtrip
    assert rel_l2(mod.analys(f64.astype(p.dtype)), _ducc0_analysis(f64, p.lmax, p.mmax)) <= tol
    if p.lmax == p.nlat - 1:
        noise = rng.standard_normal((2, p.nlat, p.nphi))
        got = mod.analys(noise.astype(p.dtype))
        assert rel_l2(got, _ducc0_analysis(noise, p.lmax, p.mmax)) <= tol


# (lmax, mmax, nlat, nphi): the limit nlat - 1 with odd and even nlat (the latter with mmax <
# lmax and an odd nphi: direct DFT), and plain quadrature with even and odd nlat
CASES = [(32, 32, 33, 66), (31, 29, 32, 63), (15, 15, 32, 34), (16, 13, 33, 34)]


@pytest.mark.parametrize("lmax,mmax,nlat,nphi", CASES)
def test_cpu_float64_matches_ducc0(lmax, mmax, nlat, nphi, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ireesht.ApproximationWarning)   # exact: no warning
        mod = ireesht.compile(lmax, mmax, nlat, nphi, "fejer", target="cpu", dtype="float64")
    assert mod.info["exact_lmax"] == nlat - 1 and "note" not in mod.info
    _check(mod, rng, TOL["float64"])


def test_cpu_float32_matches_ducc0(rng):
    _check(ireesht.compile(31, 31, 32, 64, "fejer", target="cpu"), rng, TOL["float32"])


@pytest.mark.parametrize("kernels,dtype,case", [("mlir", "float64", CASES[0]),
                                                ("mlir", "float32", CASES[1]),
                                                ("wgsl", "float32", CASES[0]),
                                                ("mlir", "float32", CASES[2]),
                                                # the theta step's kernels (rank 24)
                                                ("mlir", "float32", (255, 250, 256, 512))])
def test_vulkan_matches_ducc0(vulkan, kernels, dtype, case, rng):
    mod = ireesht.compile(*case, "fejer", target="vulkan", dtype=dtype, kernels=kernels)
    _check(mod, rng, TOL[dtype])


# --- past the limit, and the grid elsewhere -----------------------------------------------------
def test_past_nlat_minus_1_warns_and_least_squares_solves(rng):
    with pytest.warns(ireesht.ApproximationWarning, match=r"fejer grid with nlat=12 is "
                      r"analysed exactly only up to lmax=11: .* or nlat >= 14") as caught:
        mod = ireesht.compile(13, 13, 12, 28, "fejer", target="cpu", dtype="float64")
    assert caught[0].filename == __file__
    assert not mod.plan.exact and not mod.plan.theta_step
    g = mod.plan.make_grid()
    q = random_coefficients(rng, 13, 13, (2,))
    f = reference.synth(q, 13, 13, g)
    assert rel_l2(reference.synth(mod.analys(f), 13, 13, g), f) > 1e-2   # quadrature is not
    x = ireesht.analys_lsq(mod, f, iterations=200)
    assert rel_l2(reference.synth(x, 13, 13, g), f) < 1e-9


def test_vector_transforms_without_poles(rng):
    """1 / sin(theta) (in the seeds) on every ring, no pole row: the quadrature's limit (nlat - 1) // 2."""
    mod = ireesht.compile(10, 10, 21, 22, "fejer", target="cpu", dtype="float64",
                          transform="vector")
    p = mod.plan
    assert p.exact and not p.theta_step
    st = np.stack([random_coefficients(rng, 10, 10, (2,)) for _ in range(2)], axis=-2)
    st[..., 0] = 0.0
    u = mod.vsynth(st)
    assert rel_l2(u, vector_reference.vsynth(st, 10, 10, p.make_grid())) <= TOL["float64"]
    assert rel_l2(mod.vanalys(u), st) <= TOL["float64"]


def test_saved_module_loads_and_check_runs(tmp_path, rng):
    mod = ireesht.compile(9, grid="fejer", target="cpu", dtype="float64")
    mod.save(tmp_path / "m")
    back = ireesht.load(tmp_path / "m")
    assert back.plan == mod.plan and back.plan.grid == "fejer" and back.plan.theta_step
    f = rng.standard_normal((2, mod.plan.nlat, mod.plan.nphi))
    np.testing.assert_array_equal(back.analys(f), mod.analys(f))
    from ireesht.comparison import check

    rows = check(9, grid="fejer", dtype="float64", verbose=False,
                 paths=[("cpu", "c", {})])
    assert [r["ok"] for r in rows] == [True]
