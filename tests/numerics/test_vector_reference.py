"""The float64 vector reference (``numerics.vector_reference``) against ducc0's spin-1
transforms, and the coefficient helpers of ``ireesht.numerics.vector`` against derivatives
of the reference fields.

ducc0 mapping (worked out and checked here): for spin 1 its ``alm`` are ``(grad, curl)`` =
``sqrt(l(l+1)) (S, T)`` in our packing (the spin-0 packing, tests/numerics/test_reference.py),
and its two maps are ``(u_theta, u_phi)`` on the same rings: the field ``grad S + r x grad T``
of ``ireesht.numerics.vector``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from ireesht.numerics import reference, vector, vector_reference
from ireesht.numerics.grid import make_grid
from ireesht.numerics.layout import lm_indices
from ireesht.numerics.reference import random_coefficients, rel_l2

ducc0 = pytest.importorskip("ducc0")

GEOMETRY = {"gauss": "GL", "equiangular": "CC"}
# (kind, lmax, mmax, nlat, nphi): the fewest exact rings (Gauss lmax + 1, equiangular
# 2 lmax + 1 with both poles), mmax < lmax, odd and non-power-of-two nphi.
CASES = [
    ("gauss", 40, 40, 41, 82),
    ("gauss", 33, 20, 36, 41),
    ("equiangular", 24, 24, 49, 50),
    ("equiangular", 20, 9, 41, 19),
]
RTOL = 1e-12  # the brief's bound; both codes sit near 1e-15 at these sizes


def _st(rng, lmax, mmax, batch=()):
    st = np.stack([random_coefficients(rng, lmax, mmax, batch) for _ in range(2)], axis=-2)
    st[..., 0] = 0.0  # l = 0 carries no vector field
    return st


def _ducc_factor(lmax, mmax):
    l, _ = lm_indices(lmax, mmax)
    return np.sqrt(l * (l + 1.0))


@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", CASES)
def test_vsynth_matches_ducc0_spin1(rng, kind, lmax, mmax, nlat, nphi):
    g = make_grid(kind, nlat, nphi)
    st = _st(rng, lmax, mmax)
    u = vector_reference.vsynth(st, lmax, mmax, g)
    ud = ducc0.sht.synthesis_2d(alm=st * _ducc_factor(lmax, mmax), spin=1, lmax=lmax,
                                mmax=mmax, geometry=GEOMETRY[kind], ntheta=nlat, nphi=nphi)
    assert u.shape == (2, nlat, nphi) and u.dtype == np.float64
    assert rel_l2(u, ud) <= RTOL


@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", CASES)
def test_vanalys_matches_ducc0_spin1(rng, kind, lmax, mmax, nlat, nphi):
    g = make_grid(kind, nlat, nphi)
    st = _st(rng, lmax, mmax, (2,))
    u = vector_reference.vsynth(st, lmax, mmax, g)
    back = vector_reference.vanalys(u, lmax, mmax, g)
    d = ducc0.sht.analysis_2d(map=u[0], spin=1, lmax=lmax, mmax=mmax,
                              geometry=GEOMETRY[kind])
    fac = _ducc_factor(lmax, mmax)
    ours = np.divide(d, fac, out=np.zeros_like(d), where=fac > 0)
    assert rel_l2(back[0], ours) <= RTOL
    assert rel_l2(back, st) <= RTOL
    assert np.all(back[..., 0] == 0) and np.all(back[..., : lmax + 1].imag == 0)


def _ring_grid(theta, nphi):
    """A ``Grid`` on arbitrary colatitudes (finite differences; weights unused)."""
    g = make_grid("gauss", 1, nphi)
    return dataclasses.replace(g, nlat=theta.size, theta=theta, cost=np.cos(theta),
                               sint=np.sin(theta), weights=np.zeros(theta.size))


def _dphi(f):
    """d/dphi along the last axis, spectrally."""
    n = f.shape[-1]
    k = np.fft.rfftfreq(n, 1.0 / n)
    return np.fft.irfft(1j * k * np.fft.rfft(f, axis=-1), n=n, axis=-1)


# Central differences of step h = 1e-5 in theta: truncation ~h^2 |f'''| ~ 1e-10 l^3 and
# rounding ~1e-16 / h ~ 1e-11 for these lmax, relative to fields of order l: 1e-6 is far
# from both and far below any sign or factor error (order 1).
FD_TOL = 1e-6


def test_divergence_and_vorticity_are_those_of_the_field(rng):
    lmax, mmax, nphi, h = 12, 9, 32, 1e-5
    st = _st(rng, lmax, mmax)
    theta = np.linspace(0.3, 2.8, 9)
    g, gp, gm = (_ring_grid(theta + d, nphi) for d in (0.0, h, -h))
    u, up, um = (vector_reference.vsynth(st, lmax, mmax, x) for x in (g, gp, gm))
    s, sp, sm = np.sin(theta)[:, None], np.sin(theta + h)[:, None], np.sin(theta - h)[:, None]
    # div u = (1/sin) d(sin u_theta)/dtheta + (1/sin) du_phi/dphi, r . curl u likewise
    div = ((sp * up[0] - sm * um[0]) / (2 * h) + _dphi(u[1])) / s
    vort = ((sp * up[1] - sm * um[1]) / (2 * h) - _dphi(u[0])) / s
    assert rel_l2(reference.synth(vector.divergence(st, lmax, mmax), lmax, mmax, g), div) <= FD_TOL
    assert rel_l2(reference.synth(vector.vorticity(st, lmax, mmax), lmax, mmax, g), vort) <= FD_TOL


def test_gradient_is_the_spheroidal_field(rng):
    lmax, mmax, nphi, h = 12, 12, 32, 1e-5
    q = random_coefficients(rng, lmax, mmax)
    theta = np.linspace(0.2, 2.9, 7)
    g, gp, gm = (_ring_grid(theta + d, nphi) for d in (0.0, h, -h))
    f, fp, fm = (reference.synth(q, lmax, mmax, x) for x in (g, gp, gm))
    grad = np.stack([(fp - fm) / (2 * h), _dphi(f) / np.sin(theta)[:, None]])
    u = vector_reference.vsynth(vector.gradient(q), lmax, mmax, g)
    assert rel_l2(u, grad) <= FD_TOL


def test_from_divergence_vorticity_inverts_the_helpers(rng):
    lmax, mmax = 15, 11
    st = _st(rng, lmax, mmax, (3,))
    back = vector.from_divergence_vorticity(vector.divergence(st, lmax, mmax),
                                            vector.vorticity(st, lmax, mmax), lmax, mmax)
    assert back.shape == st.shape and rel_l2(back, st) <= 1e-15


def test_helpers_refuse_wrong_shapes():
    with pytest.raises(ValueError, match=r"st: shape \(3, 10\), expected \(\.\.\., 2, nlm\)"):
        vector.divergence(np.zeros((3, 10), complex), 3)
    with pytest.raises(ValueError, match=r"expected \(\.\.\., 10\) for lmax=3, mmax=3"):
        vector.vorticity(np.zeros((2, 9), complex), 3)
    with pytest.raises(ValueError, match="div, vort: shapes"):
        vector.from_divergence_vorticity(np.zeros(10), np.zeros(9), 3)


def test_gradient_helper_is_the_spheroidal_pair(rng):
    q = random_coefficients(rng, 6, 4, (3,))
    st = vector.gradient(q)
    assert st.shape == (3, 2, q.shape[-1])
    assert np.array_equal(st[:, 0], q) and not st[:, 1].any()
