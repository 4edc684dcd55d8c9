"""Exact adjoints: ``Module.synth_adjoint`` (S^T) and ``Module.analys_adjoint`` (A^T) against the
float64 reference's transposes, and the dot-product identities <S a, f> = <a, S^T f>,
<A f, q> = <f, A^T q> for the real inner products of ``ireesht.adjoint``."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht.adjoint import order_factors, ring_weights
from ireesht.numerics import reference, resample
from ireesht.numerics.reference import random_coefficients, rel_l2

# (lmax, mmax, nlat, nphi, grid): mmax < lmax on the Gauss and equiangular grids, a Gauss grid with more rings and an
# odd nphi (direct DFT), an equiangular grid past its quadrature's band limit (analysis with
# the theta step, A = A_quad T) and one past nlat - 2 (approximate: A is the quadrature
# formula, so the adjoints hold there too)
SHAPES = [(12, 7, None, None, "gauss"), (9, 9, 13, 21, "gauss"),
          (10, 6, None, None, "equiangular"), (12, 12, 17, 32, "equiangular"),
          (12, 12, 13, 32, "equiangular"),
          # the Nyquist order (nphi = 2 mmax, c_N = 4): Gauss, and with the theta step
          (12, 9, 13, 18, "gauss"), (12, 12, 17, 24, "equiangular"),
          # Fejer (no poles): the theta step at lmax = nlat - 1, even nlat and odd nlat with
          # the Nyquist order, and one past nlat - 1 (approximate)
          (11, 9, 12, 24, "fejer"), (12, 12, 13, 24, "fejer"), (13, 13, 12, 28, "fejer")]
# float64: the kernels are good to ~1e-14 (tests/checks.py); float32: one stage's error, 2e-6
# (tests/checks.py BOUNDS), with room for the scaling's rounding
TOL = {"float64": 1e-12, "float32": 1e-5}


@pytest.fixture(scope="module", params=SHAPES, ids=lambda s: f"{s[4]}-{s[0]}-{s[1]}-{s[2]}")
def mod64(request):
    return ireesht.compile(*request.param, target="cpu", dtype="float64")


def _reference_adjoints(mod, f, q):
    """S^T f and A^T q from the float64 reference's S and A (the formulas of ireesht.adjoint,
    applied to an independent implementation); with the theta step A^T = T^T A_quad^T, T^T
    applied here per order through numpy's FFT."""
    p = mod.plan
    g = p.make_grid()
    w = g.weights[:, None] * 2 * np.pi / p.nphi
    c = order_factors(p.lmax, p.mmax, p.nyquist)
    st = reference.analys(f / w, p.lmax, p.mmax, g, exact=False) * c
    at = w * reference.synth(q / c, p.lmax, p.mmax, g)
    if p.theta_step:
        k = resample.theta_table(g, p.lmax)
        spec = np.fft.rfft(at, axis=-1)
        for m in range(spec.shape[-1]):
            spec[..., m] = np.einsum("ki,...k->...i", k[m % 2], spec[..., m])
        at = np.fft.irfft(spec, n=p.nphi, axis=-1)
    return st, at


def _dot_errors(mod, a, f):
    """Relative defects of the two dot-product identities, each scaled by the norms of its
    two sides' factors (a bound that does not depend on cancellation in the sums)."""
    p = mod.plan
    sa, st = mod.synth(a), mod.synth_adjoint(f)
    af, at = mod.analys(f), mod.analys_adjoint(a)
    real_dot = lambda x, y: float(np.sum(x.real * y.real + x.imag * y.imag))  # noqa: E731
    e_s = abs(real_dot(sa, f) - real_dot(a, st)) / (np.linalg.norm(sa) * np.linalg.norm(f))
    e_a = abs(real_dot(af, a) - real_dot(f, at)) / (np.linalg.norm(af) * np.linalg.norm(a))
    assert st.shape == a.shape and at.shape == f.shape and p.nlm == a.shape[-1]
    return e_s, e_a


def test_adjoints_match_the_reference_transposes(mod64, rng):
    p = mod64.plan
    f = rng.standard_normal((2, p.nlat, p.nphi))
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    st_ref, at_ref = _reference_adjoints(mod64, f, q)
    st, at = mod64.synth_adjoint(f), mod64.analys_adjoint(q)
    assert st.dtype == np.complex128 and at.dtype == np.float64
    assert rel_l2(st, st_ref) <= TOL["float64"], rel_l2(st, st_ref)
    assert rel_l2(at, at_ref) <= TOL["float64"], rel_l2(at, at_ref)
    # S ignores Im q_l0 (and Im of a Nyquist order), so its transpose has none
    assert np.all(st[..., : p.lmax + 1].imag == 0)
    if p.nyquist:
        assert np.all(st[..., p.nlm - (p.lmax - p.mmax + 1):].imag == 0)


def test_dot_product_identities_float64(mod64, rng):
    p = mod64.plan
    a = random_coefficients(rng, p.lmax, p.mmax, (3,))
    e_s, e_a = _dot_errors(mod64, a, rng.standard_normal((3, p.nlat, p.nphi)))
    assert e_s <= TOL["float64"] and e_a <= TOL["float64"], (e_s, e_a)


def test_a_wrong_constant_breaks_the_identity(mod64, rng):
    """The identity test can fail: without the factor 2 of m > 0 it is off by O(1). One
    random pair can make the gap of two scalars small by chance (seen: 4e-4); the worst of
    eight cannot in practice (smallest in 300 draws of eight: 7e-3)."""
    p = mod64.plan
    a = random_coefficients(rng, p.lmax, p.mmax, (8,))
    f = rng.standard_normal((8, p.nlat, p.nphi))
    wrong = mod64.analys(f / ring_weights(p.grid, p.nlat, p.nphi))  # c_m left out
    sa = mod64.synth(a)
    err = np.abs(np.sum(sa * f, axis=(1, 2)) - np.sum((a.conj() * wrong).real, axis=1))
    scale = np.linalg.norm(sa, axis=(1, 2)) * np.linalg.norm(f, axis=(1, 2))
    assert np.max(err / scale) > 1e-3


@pytest.mark.parametrize("target", ["cpu", "vulkan"])
def test_dot_product_identities_float32(target, rng, request):
    if target == "vulkan":
        request.getfixturevalue("vulkan")
    mod = ireesht.compile(11, 8, grid="equiangular", target=target)
    p = mod.plan
    a = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = rng.standard_normal((2, p.nlat, p.nphi)).astype(np.float32)
    e_s, e_a = _dot_errors(mod, a.astype(np.complex64), f)
    assert e_s <= TOL["float32"] and e_a <= TOL["float32"], (e_s, e_a)
    st_ref, at_ref = _reference_adjoints(mod, f.astype(np.float64), a)
    assert mod.synth_adjoint(f).dtype == np.complex64
    assert rel_l2(mod.synth_adjoint(f), st_ref) <= TOL["float32"]
    assert rel_l2(mod.analys_adjoint(a), at_ref) <= TOL["float32"]


def test_lowrank_theta_step_transpose_float32(rng):
    """Float32 plans at the theta step's limit apply T_p^T as diag + rank 24 (adjoint.py,
    the low-rank step's tables), against the dense float64 reference."""
    mod = ireesht.compile(255, 255, 257, 512, "equiangular", target="cpu")
    p = mod.plan
    assert p.theta_rank == 24
    a = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = rng.standard_normal((2, p.nlat, p.nphi))
    _, at_ref = _reference_adjoints(mod, f, a)
    assert rel_l2(mod.analys_adjoint(a.astype(np.complex64)), at_ref) <= TOL["float32"]
    e_s, e_a = _dot_errors(mod, a.astype(np.complex64), f.astype(np.float32))
    assert e_a <= TOL["float32"], e_a


def test_adjoints_keep_leading_batch_dimensions(mod64, rng):
    p = mod64.plan
    f = rng.standard_normal((2, 3, p.nlat, p.nphi))
    st = mod64.synth_adjoint(f)
    assert st.shape == (2, 3, p.nlm)
    np.testing.assert_allclose(st[1, 2], mod64.synth_adjoint(f[1, 2]), rtol=0, atol=1e-13)


def test_adjoints_refuse_device_arrays_and_wrong_dtypes(mod64, rng):
    p = mod64.plan
    dev = mod64.upload(np.zeros((1, p.nlat, p.nphi)))
    with pytest.raises(ValueError, match=r"f: iree.runtime.DeviceArray, expected a host or "
                       r"DLPack array"):
        mod64.synth_adjoint(dev)
    with pytest.raises(ValueError, match=r"q: dtype float64, expected complex64 or complex128"):
        mod64.analys_adjoint(np.zeros(p.nlm))
    with pytest.raises(ValueError, match=r"f: dtype int64, expected float32 or float64"):
        mod64.synth_adjoint(np.zeros((p.nlat, p.nphi), np.int64))


def test_module_exposes_its_grid(mod64):
    p = mod64.plan
    g = p.make_grid()
    np.testing.assert_array_equal(mod64.lat, np.pi / 2 - g.theta)
    np.testing.assert_array_equal(mod64.lon, 2 * np.pi * np.arange(p.nphi) / p.nphi)
    assert mod64.lat[0] > mod64.lat[-1]  # north first
    np.testing.assert_allclose(mod64.grid.lat_deg, np.degrees(mod64.lat))
    assert mod64.grid.lon_deg[1] == 360 / p.nphi and mod64.grid.weights.sum() == pytest.approx(2)
