"""The float64 reference transforms, checked against ducc0 and closed forms.

ducc0 mapping (worked out and checked here): ducc0's ``alm`` for spin 0 are our
packed coefficients unchanged. Its default ``mstart[m] = m(2 lmax + 1 - m)/2``
with ``lstride = 1`` puts (l, m) at ``m(2 lmax + 1 - m)/2 + l``, which is our
``m(2 lmax + 3 - m)/2 + (l - m)``, for any ``mmax <= lmax``. Its Y_lm are
orthonormal with the Condon-Shortley phase, its real map is
``sum a_l0 Y_l0 + 2 Re sum_{m>0} a_lm Y_lm`` (Im a_l0 ignored), its "GL" and "CC"
rings run north to south (theta increasing, "CC" at ``pi i/(nlat-1)``), and
``phi0 = 0`` gives ``phi_j = 2 pi j / nphi``. So ``synthesis_2d`` is our
``synth``; ``analysis_2d`` is our ``analys`` where both are exact; and our
quadrature on any grid is ``adjoint_synthesis`` applied to
``f * weights[i] * 2 pi / nphi`` on our theta.
"""

import numpy as np
import pytest

from ireesht.numerics.grid import make_grid
from ireesht.numerics.layout import lm_index, nlm
from ireesht.numerics.reference import analys, legendre_values, synth

ducc0 = pytest.importorskip("ducc0")

GEOMETRY = {"gauss": "GL", "equiangular": "CC"}

# (kind, lmax, mmax, nlat, nphi): odd nlat, mmax < lmax, nphi not a power of two,
# the smallest legal nphi (2 mmax + 1), grids exact and inexact for analysis.
CASES = [
    ("gauss", 0, 0, 1, 1),
    ("gauss", 1, 1, 2, 3),
    ("gauss", 7, 3, 8, 7),
    ("gauss", 32, 32, 33, 66),
    ("gauss", 63, 40, 64, 100),
    ("gauss", 127, 127, 129, 256),
    ("gauss", 255, 255, 256, 512),
    ("gauss", 255, 100, 301, 250),
    ("gauss", 255, 255, 200, 511),
    ("equiangular", 0, 0, 2, 1),
    ("equiangular", 1, 1, 3, 3),
    ("equiangular", 7, 3, 15, 7),
    ("equiangular", 32, 32, 65, 66),
    ("equiangular", 63, 40, 128, 100),
    ("equiangular", 127, 127, 255, 256),
    ("equiangular", 255, 255, 511, 512),
    ("equiangular", 255, 100, 513, 250),
    ("equiangular", 255, 255, 256, 511),
]

# Relative L2 tolerance against ducc0 (the brief's 1e-12). Both codes run
# three-term recurrences whose rounding grows near the poles (~l^2 eps for small
# m); each is ~3e-13 from an mpmath synthesis on the polar ring at lmax 255, so
# the max-norm check gets twice the room.
RTOL = 1e-12
RTOL_MAX = 2e-12


def _rand_q(rng, batch, lmax, mmax):
    n = nlm(lmax, mmax)
    return rng.standard_normal(batch + (n,)) + 1j * rng.standard_normal(batch + (n,))


def _real_l0(q, lmax):
    q = q.copy()
    q[..., : lmax + 1] = q[..., : lmax + 1].real
    return q


def _ducc_synth(q, lmax, mmax, g):
    return ducc0.sht.synthesis_2d(
        alm=q[None], spin=0, lmax=lmax, mmax=mmax,
        geometry=GEOMETRY[g.kind], ntheta=g.nlat, nphi=g.nphi,
    )[0]


def _ducc_quadrature(f, lmax, mmax, g):
    """Our quadrature written with ducc0's adjoint synthesis on our rings."""
    wmap = f * (g.weights[:, None] * 2.0 * np.pi / g.nphi)
    return ducc0.sht.adjoint_synthesis(
        map=wmap.reshape(1, -1), theta=g.theta, lmax=lmax, mmax=mmax, spin=0,
        nphi=np.full(g.nlat, g.nphi, dtype=np.uint64), phi0=np.zeros(g.nlat),
        ringstart=(np.arange(g.nlat) * g.nphi).astype(np.uint64),
    )[0]


def _rel(a, b):
    return np.linalg.norm(a - b) / np.linalg.norm(b)


def _rel_max(a, b):
    return np.max(np.abs(a - b)) / np.max(np.abs(b))


# ------------------------------------------------------------------ vs ducc0

@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", CASES)
def test_synth_matches_ducc0(kind, lmax, mmax, nlat, nphi):
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    q = _rand_q(rng, (), lmax, mmax)
    f = synth(q, lmax, mmax, g)
    fd = _ducc_synth(q, lmax, mmax, g)
    assert f.shape == (nlat, nphi) and f.dtype == np.float64
    assert _rel(f, fd) < RTOL
    assert _rel_max(f, fd) < RTOL_MAX


@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", CASES)
def test_analys_quadrature_matches_ducc0_adjoint(kind, lmax, mmax, nlat, nphi):
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    f = rng.standard_normal((nlat, nphi))     # not band-limited: pure quadrature
    q = analys(f, lmax, mmax, g, exact=False)
    qd = _ducc_quadrature(f, lmax, mmax, g)
    assert q.shape == (nlm(lmax, mmax),) and q.dtype == np.complex128
    assert _rel(q, qd) < RTOL


# ------------------------------------------------------------------ the Nyquist order
# nphi = 2 mmax (module doc of the reference): even and odd N = mmax, mmax < lmax, both grids
NYQUIST = [("gauss", 16, 16, 17, 32), ("gauss", 40, 15, 41, 30),
           ("equiangular", 16, 16, 33, 32), ("equiangular", 255, 255, 511, 510)]


def _nyquist_slice(lmax, mmax):
    return slice(lm_index(mmax, mmax, lmax), nlm(lmax, mmax))


@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", NYQUIST)
def test_nyquist_synth_matches_ducc0_and_ignores_its_imaginary_part(kind, lmax, mmax, nlat,
                                                                     nphi):
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    q = _rand_q(rng, (), lmax, mmax)
    f = synth(q, lmax, mmax, g)
    assert _rel(f, _ducc_synth(q, lmax, mmax, g)) < RTOL       # 2 Re q_lN P_lN (-1)^j
    q_real = q.copy()
    q_real[_nyquist_slice(lmax, mmax)] = q_real[_nyquist_slice(lmax, mmax)].real
    assert _rel(synth(q_real, lmax, mmax, g), f) < 1e-15


@pytest.mark.parametrize("kind,lmax,mmax,nlat,nphi", NYQUIST)
def test_nyquist_analysis_is_half_ducc0s_quadrature_and_inverts_synthesis(kind, lmax, mmax,
                                                                         nlat, nphi):
    """ducc0's analysis is the quadrature, 2 Re q_lN for its own synthesis of q at the
    Nyquist order; ours is half of it, real: the inverse of synthesis (q_lN real)."""
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    nyq = _nyquist_slice(lmax, mmax)
    f = rng.standard_normal((nlat, nphi))
    q = analys(f, lmax, mmax, g, exact=False)
    qd = _ducc_quadrature(f, lmax, mmax, g)
    qd[nyq] = 0.5 * qd[nyq].real
    assert _rel(q, qd) < RTOL and np.all(q[nyq].imag == 0)
    q0 = _real_l0(_rand_q(rng, (), lmax, mmax), lmax)
    q0[nyq] = q0[nyq].real
    assert _rel(analys(_ducc_synth(q0, lmax, mmax, g), lmax, mmax, g), q0) < RTOL


@pytest.mark.parametrize(
    "kind,lmax,mmax,nlat,nphi",
    [c for c in CASES if c[1] <= make_grid(c[0], c[3], c[4]).exact_lmax],
)
def test_analys_matches_ducc0_analysis_on_exact_grids(kind, lmax, mmax, nlat, nphi):
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    f = _ducc_synth(_rand_q(rng, (), lmax, mmax), lmax, mmax, g)
    q = analys(f, lmax, mmax, g)
    qd = ducc0.sht.analysis_2d(map=f[None], spin=0, lmax=lmax, mmax=mmax,
                               geometry=GEOMETRY[g.kind])[0]
    assert _rel(q, qd) < RTOL


@pytest.mark.parametrize("kind,nlat,nphi", [("gauss", 65, 130), ("equiangular", 129, 97)])
def test_synth_batched_matches_ducc0_per_field(kind, nlat, nphi):
    rng = np.random.default_rng()
    lmax, mmax = 64, 48
    g = make_grid(kind, nlat, nphi)
    q = _rand_q(rng, (2, 3), lmax, mmax)
    f = synth(q, lmax, mmax, g)
    assert f.shape == (2, 3, nlat, nphi)
    for i in np.ndindex(2, 3):
        assert _rel(f[i], _ducc_synth(q[i], lmax, mmax, g)) < RTOL


# ------------------------------------------------------------------ roundtrips

@pytest.mark.parametrize(
    "kind,lmax,mmax,nlat,nphi,batch",
    [
        ("gauss", 255, 255, 256, 512, ()),
        ("gauss", 100, 37, 101, 75, (3,)),
        ("gauss", 50, 50, 77, 101, (2, 2)),
        ("equiangular", 127, 127, 255, 256, ()),
        ("equiangular", 100, 37, 202, 75, (3,)),
        ("equiangular", 50, 50, 101, 101, (2, 2)),
    ],
)
def test_analys_inverts_synth_where_exact(kind, lmax, mmax, nlat, nphi, batch):
    rng = np.random.default_rng()
    g = make_grid(kind, nlat, nphi)
    q = _real_l0(_rand_q(rng, batch, lmax, mmax), lmax)
    q2 = analys(synth(q, lmax, mmax, g), lmax, mmax, g)
    assert q2.shape == q.shape
    assert _rel(q2, q) < 1e-12


def test_synth_ignores_imaginary_part_of_m0():
    rng = np.random.default_rng()
    lmax = 20
    g = make_grid("gauss", 21, 42)
    q = _rand_q(rng, (), lmax, lmax)
    q2 = q.copy()
    q2[: lmax + 1] += 1j * rng.standard_normal(lmax + 1)
    np.testing.assert_array_equal(synth(q, lmax, lmax, g), synth(q2, lmax, lmax, g))


def test_analys_returns_real_m0():
    rng = np.random.default_rng()
    g = make_grid("gauss", 17, 33)
    q = analys(rng.standard_normal((17, 33)), 16, 16, g)
    assert np.all(q[:17].imag == 0)


# ------------------------------------------------------------- Legendre values

def test_legendre_values_closed_forms():
    rng = np.random.default_rng()
    x = rng.uniform(-1, 1, 50)
    s = np.sqrt(1 - x * x)
    c = 1 / np.sqrt(4 * np.pi)
    expect = {
        (0, 0): c * np.ones_like(x),
        (1, 0): c * np.sqrt(3) * x,
        (2, 0): c * np.sqrt(5) * (1.5 * x * x - 0.5),
        (1, 1): -c * np.sqrt(1.5) * s,                 # Condon-Shortley phase
        (2, 1): -c * np.sqrt(7.5) * s * x,
        (2, 2): c * np.sqrt(15 / 8) * s * s,
    }
    for (l, m), v in expect.items():
        # absolute 1e-14 on values of size ~0.3: the closed forms cancel near their zeros
        np.testing.assert_allclose(legendre_values(2, m, x)[l - m], v, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("m", [0, 1, 7, 40])
def test_legendre_values_orthonormal_under_gauss_quadrature(m):
    lmax = 60
    g = make_grid("gauss", lmax + 1, 2 * lmax + 2)
    p = legendre_values(lmax, m, g.cost, g.sint)
    gram = 2 * np.pi * (p * g.weights) @ p.T
    np.testing.assert_allclose(gram, np.eye(lmax + 1 - m), atol=1e-13)


def test_legendre_values_at_poles():
    lmax = 300
    v0 = legendre_values(lmax, 0, np.array([1.0, -1.0]))
    l = np.arange(lmax + 1)
    np.testing.assert_allclose(v0[:, 0], np.sqrt((2 * l + 1) / (4 * np.pi)), rtol=1e-12)
    np.testing.assert_allclose(v0[:, 1], (-1.0) ** l * np.sqrt((2 * l + 1) / (4 * np.pi)), rtol=1e-12)
    assert np.all(legendre_values(lmax, 3, np.array([1.0, -1.0])) == 0)


def test_legendre_values_survive_seed_underflow():
    # sin^600(theta) = 0.28^600 ~ 1e-332 underflows double, yet P_{l,600} grows
    # back to order 1e-3 by l = 2047: the explicit exponent must carry it.
    lmax, m, s = 2047, 600, 0.28
    assert s**m == 0.0
    theta = np.arcsin(s)
    v = legendre_values(lmax, m, np.array([np.cos(theta)]), np.array([s]))[:, 0]
    assert np.all(np.isfinite(v)) and abs(v[-1]) > 1e-6
    # ducc0 flushes values below its accuracy threshold to zero, so compare where
    # they are sizeable; the tiny ones are checked against mpmath below.
    for l in (1900, 2000, 2047):
        q = np.zeros(nlm(lmax, m), dtype=complex)
        q[lm_index(l, m, lmax)] = 0.5    # field = 2 Re(0.5 Y_lm) = P_lm at phi = 0
        ref = ducc0.sht.synthesis(
            alm=q[None], theta=np.array([theta]), lmax=lmax, mmax=m, spin=0,
            nphi=np.array([2 * m + 2], dtype=np.uint64), phi0=np.zeros(1),
            ringstart=np.zeros(1, dtype=np.uint64),
        )[0, 0]
        assert abs(v[l - m] - ref) <= 1e-11 * abs(ref), (l, v[l - m], ref)


def test_legendre_values_tiny_values_match_mpmath():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 30
    lmax, m, s = 1500, 600, 0.28
    theta = np.arcsin(s)
    x = np.cos(theta)
    v = legendre_values(lmax, m, np.array([x]), np.array([s]))[:, 0]
    # Normalized recurrence in multiprecision, from the same rounded x and s.
    xm, sm = mpmath.mpf(x), mpmath.mpf(s)
    pmm = 1 / mpmath.sqrt(4 * mpmath.pi)
    for k in range(1, m + 1):
        pmm *= -mpmath.sqrt(mpmath.mpf(2 * k + 1) / (2 * k)) * sm
    ref = {m: pmm}
    p2, p1 = mpmath.mpf(0), pmm
    for l in range(m + 1, lmax + 1):
        a = mpmath.sqrt(mpmath.mpf(4 * l * l - 1) / (l * l - m * m))
        b = mpmath.sqrt(mpmath.mpf((l - 1) ** 2 - m * m) / (4 * (l - 1) ** 2 - 1))
        p2, p1 = p1, a * (xm * p1 - b * p2)
        ref[l] = p1
    for l in (700, 1000, 1500):         # about 1e-258, 1e-147, 1e-51
        assert abs(v[l - m] - float(ref[l])) <= 1e-12 * abs(float(ref[l]))


# ------------------------------------------------------------------- validation

def _g(kind="gauss", nlat=9, nphi=17):
    return make_grid(kind, nlat, nphi)


def _q(lmax=8, mmax=8):
    return _rand_q(np.random.default_rng(), (), lmax, mmax)


def test_synth_rejects_wrong_qlm_length():
    with pytest.raises(ValueError, match="nlm=45"):
        synth(_q()[:-1], 8, 8, _g())


def test_synth_rejects_nan_coefficients():
    q = _q()
    q[3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        synth(q, 8, 8, _g())


def test_analys_rejects_inf_field():
    f = np.random.default_rng().standard_normal((9, 17))
    f[4, 2] = np.inf
    with pytest.raises(ValueError, match="finite"):
        analys(f, 8, 8, _g())


def test_synth_rejects_negative_lmax():
    with pytest.raises(ValueError, match="lmax=-1"):
        synth(_q(), -1, 0, _g())


def test_synth_rejects_non_integer_lmax():
    with pytest.raises(ValueError, match="lmax=8.0"):
        synth(_q(), 8.0, 8, _g())


def test_synth_rejects_mmax_above_lmax():
    with pytest.raises(ValueError, match="mmax=9"):
        synth(_q(), 8, 9, _g())


def test_synth_rejects_nphi_below_2mmax():
    with pytest.raises(ValueError, match=r"nphi=15: need nphi >= 2\*mmax = 16"):
        synth(_q(), 8, 8, _g(nphi=15))


def test_analys_rejects_nphi_below_2mmax():
    with pytest.raises(ValueError, match=r"nphi=15: need nphi >= 2\*mmax = 16"):
        analys(np.ones((9, 15)) + 0.5, 8, 8, _g(nphi=15))


def test_synth_rejects_non_grid():
    with pytest.raises(ValueError, match="Grid"):
        synth(_q(), 8, 8, (9, 17))


def test_analys_rejects_grid_too_coarse_unless_inexact_allowed():
    rng = np.random.default_rng()
    g = _g("equiangular", 9, 17)      # exact only to lmax 4
    f = rng.standard_normal((9, 17))
    with pytest.raises(ValueError, match="exact only up to lmax=4"):
        analys(f, 8, 8, g)
    assert analys(f, 8, 8, g, exact=False).shape == (nlm(8, 8),)


def test_analys_rejects_wrong_field_shape():
    with pytest.raises(ValueError, match="nlat=9, nphi=17"):
        analys(np.ones((9, 16)), 8, 8, _g())


def test_analys_rejects_complex_field():
    with pytest.raises(ValueError, match="dtype complex128"):
        analys(np.ones((9, 17), dtype=complex), 8, 8, _g())


def test_analys_rejects_non_bool_exact():
    with pytest.raises(ValueError, match="exact='no'"):
        analys(np.ones((9, 17)), 8, 8, _g(), exact="no")


def test_legendre_values_rejects_x_outside_unit_interval():
    with pytest.raises(ValueError, match="x"):
        legendre_values(4, 0, np.array([0.5, 1.5]))


def test_legendre_values_rejects_m_above_lmax():
    with pytest.raises(ValueError, match="m=5"):
        legendre_values(4, 5, np.array([0.5]))
