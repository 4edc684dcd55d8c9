"""Exact equiangular analysis (the theta step, ``ireesht.numerics.resample``) on every kernel
family, against ducc0's ``analysis_2d(geometry="CC")``; the ApproximationWarning past
``lmax = nlat - 2`` and the least-squares analysis there."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ireesht
from ireesht.numerics import layout, reference, resample
from ireesht.numerics.grid import make_grid
from ireesht.numerics.reference import random_coefficients, rel_l2

ducc0 = pytest.importorskip("ducc0")

# float64: the theta step adds one nlat-term sum to the kernels' ~1e-14 (tests/checks.py);
# float32: the kernels' 2e-6 (tests/checks.py BOUNDS) and the step's own rounding, sqrt(nlat)
# eps ~ 1e-6 at these sizes, measured 2-3e-7
TOL = {"float64": 1e-12, "float32": 5e-6}


def _ducc0_analysis(f, lmax, mmax):
    """ducc0's Clenshaw-Curtis analysis of real fields ``(B, nlat, nphi)``, packed as ours
    (ducc0's layout is m-major with the same offsets)."""
    return np.stack([ducc0.sht.experimental.analysis_2d(
        map=x[None], spin=0, lmax=lmax, mmax=mmax, geometry="CC")[0] for x in f])


# (lmax, mmax, nlat, nphi): lmax = nlat - 2, odd and even nlat, mmax < lmax with odd nphi
# (direct DFT), and lmax between the quadrature's limit and nlat - 2
CASES = [(31, 31, 33, 64), (32, 30, 34, 66), (18, 17, 20, 37), (24, 24, 33, 50)]


@pytest.mark.parametrize("lmax,mmax,nlat,nphi", CASES)
def test_operator_integrates_band_limited_rows_exactly(lmax, mmax, nlat, nphi, rng):
    """The host operator alone: sum_i v_i (K_p F)_i P_lm(theta_i) is the exact integral."""
    g = make_grid("equiangular", nlat, nphi)
    v = resample.step_weights(g)
    for m in (0, 1, 2, 5):
        p = reference.legendre_values(lmax, m, g.cost, g.sint)      # (lmax + 1 - m, nlat)
        q = rng.standard_normal(lmax + 1 - m)
        got = p @ (v * (resample.operator("equiangular", nlat, lmax, m % 2) @ (q @ p)))
        # the P_lm are orthonormal with 2 pi int P^2 dx = 1
        assert np.abs(got * 2 * np.pi - q).max() < 1e-13


@pytest.mark.parametrize("kind,lmax,nlat", [("equiangular", 255, 257), ("equiangular", 719, 721),
                                             ("fejer", 255, 256), ("equiangular", 200, 257)])
def test_lowrank_tables_apply_the_operator(kind, lmax, nlat, rng):
    """The low-rank step's tables (``theta_d + U_p V_p``, as codegen/theta.py applies them)
    give the dense matrices' G to ``LOWRANK_TOL`` of F (float32 plans take them where
    ``theta_rank`` is nonzero: 24-28 at these grids' limits; below the limit the rank grows
    by ``nlat - 2 - lmax`` and the folded step stays)."""
    g = make_grid(kind, nlat, 2 * nlat)
    full, t = resample.theta_table(g, lmax), resample.theta_lowrank(g, lmax)
    r = t["theta_v"].shape[0] // 2
    expect_rank = lmax >= nlat - 2
    assert (resample.theta_rank(g, lmax, "float32") > 0) == expect_rank
    assert resample.theta_rank(g, lmax, "float64") == 0
    w = g.weights / resample.step_weights(g)  # G's scale in the Legendre analysis (v / w)
    for p in (0, 1):
        f = rng.standard_normal((nlat, 3))
        got = t["theta_d"][:, None] * f + t["theta_u"][:, p * r:(p + 1) * r] @ (
            t["theta_v"][p * r:(p + 1) * r] @ f)
        err = np.abs(w[:, None] * (got - full[p] @ f)).max() / np.abs(f).max()
        assert err < 10 * resample.LOWRANK_TOL * np.sqrt(nlat), err


@pytest.mark.parametrize("kind,lmax,nlat", [("equiangular", 31, 33), ("equiangular", 32, 34),
                                            ("equiangular", 15, 21), ("fejer", 31, 32),
                                            ("fejer", 32, 33)])
def test_folded_blocks_apply_the_operator(kind, lmax, nlat, rng):
    """The device table (``theta_blocks``: sums and differences of mirrored rings, two
    half-size blocks per parity) gives the full matrices' G, as codegen/theta.py applies it;
    a grid of even nlat (Fejer's 32) has no equator row: every ring pairs with its mirror."""
    g = make_grid(kind, nlat, 2 * nlat)
    full, blocks = resample.theta_table(g, lmax), resample.theta_blocks(g, lmax)
    nh, h = (nlat + 1) // 2, nlat // 2
    for p in (0, 1):
        f = rng.standard_normal((nlat, 3))
        ys = blocks[2 * p] @ (f[:nh] + f[::-1][:nh])
        ya = blocks[2 * p + 1] @ (f[:nh] - f[::-1][:nh])
        got = np.concatenate([ys + ya, (ys - ya)[:h][::-1]])
        # the blocks average T and its mirror image, equal to rounding (~1e-15 here)
        assert np.abs(got - full[p] @ f).max() < 1e-13 * np.abs(f).max()


def test_beyond_nlat_minus_2_the_operator_is_refused():
    with pytest.raises(ValueError, match="lmax=32: the theta step needs"):
        resample.operator("equiangular", 33, 32, 0)


@pytest.fixture(scope="module", params=[("cpu", "c", "float64"), ("cpu", "c", "float32")],
                ids=lambda p: "-".join(p))
def cpu_family(request):
    return request.param


def _check(mod, rng, tol):
    p = mod.plan
    assert p.theta_step and p.exact
    g = p.make_grid()
    # band-limited fields: the roundtrip is exact
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = reference.synth(q, p.lmax, p.mmax, g)
    assert rel_l2(mod.analys(f.astype(p.dtype)), q) <= tol
    # any field at lmax = nlat - 2: ducc0's analysis (both integrate the trigonometric
    # interpolant exactly); below nlat - 2 ducc0 resamples differently, so band-limited only
    f = rng.standard_normal((2, p.nlat, p.nphi))
    if p.lmax == p.nlat - 2:
        got = mod.analys(f.astype(p.dtype))
        assert rel_l2(got, _ducc0_analysis(f, p.lmax, p.mmax)) <= tol
    else:
        f = reference.synth(q, p.lmax, p.mmax, g)
        assert rel_l2(mod.analys(f.astype(p.dtype)), _ducc0_analysis(f, p.lmax, p.mmax)) <= tol


@pytest.mark.parametrize("lmax,mmax,nlat,nphi", CASES)
def test_cpu_analysis_matches_ducc0(cpu_family, lmax, mmax, nlat, nphi, rng):
    target, kernels, dtype = cpu_family
    with warnings.catch_warnings():
        warnings.simplefilter("error", ireesht.ApproximationWarning)   # exact: no warning
        mod = ireesht.compile(lmax, mmax, nlat, nphi, "equiangular", target=target,
                              dtype=dtype, kernels=kernels)
    assert mod.info["exact_lmax"] == nlat - 2 and "note" not in mod.info
    _check(mod, rng, TOL[dtype])


@pytest.mark.parametrize("kernels,dtype", [("mlir", "float64"), ("mlir", "float32"),
                                           ("wgsl", "float32")])
# odd nlat and an even number of orders, even nlat and an odd one (the fold's two halves)
@pytest.mark.parametrize("lmax,mmax,nlat,nphi", CASES[:2])
def test_vulkan_analysis_matches_ducc0(vulkan, kernels, dtype, lmax, mmax, nlat, nphi, rng):
    mod = ireesht.compile(lmax, mmax, nlat, nphi, "equiangular", target="vulkan", dtype=dtype,
                          kernels=kernels)
    _check(mod, rng, TOL[dtype])


# the MLIR family's theta-step kernels (theta_analys "lowrank", float32 plans of the low-rank
# step, kernels/mlir/theta_lowrank.mlir): lmax = nlat - 2, so any field against ducc0; 251
# orders, neither a multiple of the kernels' 16 lanes nor of 128 threads; two fields per call
@pytest.mark.parametrize("params", [{}, {"groups": 3, "rows": 5}])
def test_vulkan_theta_kernels_match_ducc0(vulkan, params, rng):
    # default groups: 8 for one field per thread; 3 groups of 8 slices of 11 rings leave the
    # last slices short or empty, 5 rings per thread of G the last thread short
    mod = ireesht.compile(255, 250, 257, 512, "equiangular", target="vulkan",
                          variants={"theta_analys": {"name": "lowrank", **params}})
    assert mod.plan.theta_rank == 24 and mod.plan.theta_groups == params.get("groups", 8)
    _check(mod, rng, TOL["float32"])


@pytest.mark.parametrize("params", [{"rows": 0}, {"groups": -1}, {"groups": 65}])
def test_theta_kernel_parameters_are_checked(params):
    from ireesht.plan import Plan

    with pytest.raises(ValueError, match="'lowrank' cannot run"):
        Plan.create(255, 255, 257, 512, "equiangular", "cuda",
                    variants={"theta_analys": {"name": "lowrank", **params}})


# CUDA float32 analyses in lanes64 segments, whose bindings follow the variant's tables: the
# theta and qscale tables come after them (a regression: both once shifted F and q)
@pytest.mark.parametrize("target,dtype,norm", [("cuda", "float64", "ortho"),
                                               ("cuda", "float32", "ortho"),
                                               ("cuda", "float32", "schmidt"),
                                               ("metal", "float32", "ortho")])
def test_gpu_modules_with_the_theta_step_compile(target, dtype, norm):
    from ireesht.codegen import module as codegen
    from ireesht.plan import Plan

    lmax = 255 if dtype == "float32" else 31  # CUDA: lanes64 segments there
    plan = Plan.create(lmax, lmax, lmax + 2, 2 * lmax + 2, "equiangular", target, dtype,
                       norm=norm)
    assert plan.theta_step and plan.theta_tables[0] in plan.analys_tables
    # float32 at lmax 255: the low-rank step (tables theta_u, theta_v, theta_d) in the MLIR
    # family's kernels, else folded in linalg ops
    kernels = lmax == 255
    assert plan.theta_tables == (("theta_u", "theta_v", "theta_d") if lmax == 255 else ("theta",))
    assert plan.variant_names["theta_analys"] == ("lowrank" if kernels else "linalg")
    text = codegen.render(plan)
    assert ("@theta_analys_z" in text) == kernels
    assert ("linalg.batch_matmul" in text) != kernels
    assert len(codegen.compile_plan(plan)) > 0


def test_quadrature_plans_take_no_theta_step():
    """Gauss grids, and equiangular grids whose quadrature is exact, keep their module."""
    from ireesht.codegen import module as codegen
    from ireesht.plan import Plan

    for args in [(16, None, None, None, "gauss"), (16, None, None, None, "equiangular"),
                 (20, None, 21, 42, "equiangular")]:
        plan = Plan.create(*args, target="cpu")
        assert not plan.theta_step and not plan.theta_tables
        assert not {"theta", "theta_u"} & set(plan.analys_tables)
        assert "linalg.batch_matmul" not in codegen.render(plan)


@pytest.mark.slow
def test_era5_rows_exact_at_lmax_719(rng):
    mod = ireesht.compile(719, 719, 721, 1440, "equiangular", target="cpu", dtype="float64")
    _check(mod, rng, TOL["float64"])


def test_approximate_plans_warn_and_say_so():
    with pytest.warns(ireesht.ApproximationWarning, match=r"nlat=17 is analysed exactly only "
                                                          r"up to lmax=15") as caught:
        mod = ireesht.compile(16, 16, 17, 34, "equiangular", target="cpu", dtype="float64")
    assert caught[0].filename == __file__  # names the caller's line, not ireesht's
    assert not mod.plan.exact and not mod.plan.theta_step
    assert "approximate" in mod.info["note"]


def test_least_squares_analysis_converges_to_the_least_norm_solution(rng):
    """Past nlat - 2 synthesis has a null space; CGLS from 0 gives pinv(S_m) f_m per order."""
    lmax, nlat, nphi = 20, 17, 42
    with pytest.warns(ireesht.ApproximationWarning):
        mod = ireesht.compile(lmax, lmax, nlat, nphi, "equiangular", target="cpu",
                              dtype="float64")
    g = mod.plan.make_grid()
    q = random_coefficients(rng, lmax, lmax, (2,))
    f = reference.synth(q, lmax, lmax, g)
    plain = mod.analys(f)
    x = ireesht.analys_lsq(mod, f, iterations=200)
    assert rel_l2(reference.synth(x, lmax, lmax, g), f) < 1e-9
    assert rel_l2(reference.synth(plain, lmax, lmax, g), f) > 1e-2   # quadrature is not
    spec = np.fft.rfft(f, axis=-1) / nphi                           # F_m of each ring
    off = layout.m_offsets(lmax, lmax)
    for m in range(lmax + 1):
        p = reference.legendre_values(lmax, m, g.cost, g.sint)
        least = np.einsum("lk,bk->bl", np.linalg.pinv(p.T), spec[..., m])
        assert np.abs(x[:, off[m]:off[m] + lmax + 1 - m] - least).max() < 1e-7


def test_least_squares_on_an_exact_plan_is_the_analysis(rng):
    mod = ireesht.compile(31, 31, 33, 64, "equiangular", target="cpu", dtype="float64")
    f = rng.standard_normal((33, 64))
    np.testing.assert_array_equal(ireesht.analys_lsq(mod, f), mod.analys(f))


def test_least_squares_refuses_bad_arguments():
    mod = ireesht.compile(31, 31, 33, 64, "equiangular", target="cpu", dtype="float64")
    with pytest.raises(ValueError, match=r"f: shape \(33, 63\), expected \(\.\.\., 33, 64\)"):
        ireesht.analys_lsq(mod, np.zeros((33, 63)))
    with pytest.raises(ValueError, match="tol=-1"):
        ireesht.analys_lsq(mod, np.zeros((33, 64)), tol=-1.0)
