"""Normalisations and phase (``norm``, ``csphase``): the coefficients of every convention against
pyshtools (its Fortran SHTOOLS backend, independent of ducc0 and of ireesht), on the CPU, Vulkan
(MLIR and WGSL kernels), the adjoints, the PyTorch layers and saved artifacts."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import ireesht
from ireesht.codegen import module as codegen
from ireesht.numerics import layout, normalization, reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from checks import BOUNDS

# ireesht's (norm, csphase) -> pyshtools' (norm, csphase)
PYSHTOOLS = {"ortho": 4, "four_pi": 1, "schmidt": 2}
CASES = [(n, c) for n in normalization.NORMS for c in (True, False)]
L = 12


@functools.cache
def cpu64(norm: str, csphase: bool):
    """The float64 CPU module of pyshtools' Gauss grid for lmax L, (L + 1) x (2 L + 1)."""
    return ireesht.compile(L, nlat=L + 1, nphi=2 * L + 1, target="cpu", dtype="float64",
                           norm=norm, csphase=csphase)


@pytest.fixture(scope="module")
def expand():
    psh = pytest.importorskip("pyshtools")
    try:  # the Fortran library: an implementation independent of ducc0's
        psh.backends.select_preferred_backend("shtools")
    except Exception:  # wheels without it: pyshtools' own ducc0 wrapper still has its conventions
        pass
    return psh.expand


def _real_cilm(q: np.ndarray, lmax: int) -> np.ndarray:
    """pyshtools' real coefficients ``(2, lmax+1, lmax+1)`` of the real field of packed ``q``:
    ``C_l0 = Re q_l0``, ``C_lm = sqrt(2) Re q_lm``, ``C_l,-m = -sqrt(2) Im q_lm`` (m > 0)."""
    dense = layout.unpack(q, lmax, lmax)
    two = np.where(np.arange(lmax + 1) > 0, np.sqrt(2), 1.0)
    return np.stack([dense.real * two, -dense.imag * two * (np.arange(lmax + 1) > 0)])


@pytest.mark.parametrize("norm,csphase", CASES)
def test_coefficients_match_pyshtools(expand, norm, csphase, rng):
    """Synthesis equals pyshtools' MakeGridGLQ of the same coefficients (mapped to its real
    ones), and analysis its SHExpandGLQ (real) and SHExpandGLQC (complex, m >= 0), on its
    Gauss grid (lmax + 1) x (2 lmax + 1)."""
    mod = cpu64(norm, csphase)
    kw = dict(norm=PYSHTOOLS[norm], csphase=-1 if csphase else 1)
    zero, w = expand.SHGLQ(L)
    q = random_coefficients(rng, L, L)
    f = mod.synth(q)
    # float64 throughout; both sides' Legendre values round to ~1e-15
    assert rel_l2(f, expand.MakeGridGLQ(_real_cilm(q, L), zero, **kw)) <= 1e-12
    g = rng.standard_normal((L + 1, 2 * L + 1))
    a = mod.analys(g)
    assert rel_l2(_real_cilm(a, L), expand.SHExpandGLQ(g, w, zero, **kw)) <= 1e-12
    c = expand.SHExpandGLQC(g.astype(complex), w, zero, **kw)[0]  # orders m >= 0
    assert rel_l2(layout.unpack(a, L, L), c) <= 1e-12
    # roundtrips: the grid is exact for lmax, both ways
    assert rel_l2(mod.analys(f), q) <= 1e-12
    assert rel_l2(mod.synth(a), mod.synth(mod.analys(mod.synth(a)))) <= 1e-12


def _unit(L: int, l: int, m: int) -> np.ndarray:
    dense = np.zeros((L + 1, L + 1), complex)
    dense[l, m] = 1.0
    return layout.pack(dense)


def test_factors_are_the_conventions_of_their_names(rng):
    """Closed forms, with the float64 reference on an exact grid: a constant field's l = 0
    coefficient is the constant (4 pi and Schmidt); the mean of |Y'_lm|^2 over the sphere is 1
    (4 pi) and 1 / (2l + 1) (Schmidt); without the phase, Y'_11 is positive at phi = 0."""
    g = ireesht.Plan.create(L, L, L + 1, 2 * L + 1, "gauss", "cpu").make_grid()
    mean = g.weights[:, None] * (2 * np.pi / g.nphi) / (4 * np.pi)  # over the sphere
    for norm, mean_square in (("four_pi", lambda l: 1.0), ("schmidt", lambda l: 1 / (2 * l + 1))):
        d = normalization.factors(L, L, norm, True)
        c = rng.standard_normal()
        a = reference.analys(np.full((g.nlat, g.nphi), c), L, L, g) / d
        assert abs(a[0] - c) <= 1e-14 * abs(c) and np.abs(a[1:]).max() <= 1e-14 * abs(c)
        for l, m in ((0, 0), (3, 0), (3, 2), (L, L)):
            # the field of a'_lm = 1 is 2 Re Y'_lm for m > 0: mean square 2 mean |Y'_lm|^2
            f = reference.synth(_unit(L, l, m) * d, L, L, g)
            assert abs((mean * f**2).sum() / (1 if m == 0 else 2) - mean_square(l)) <= 1e-13
    y = reference.synth(_unit(L, 1, 1) * normalization.factors(L, L, "ortho", False), L, L, g)
    assert (y[:, 0] > 0).all()
    assert rel_l2(-y, reference.synth(_unit(L, 1, 1), L, L, g)) <= 1e-15


def test_float32_matches_the_scaled_reference(rng):
    mod = ireesht.compile(20, target="cpu", dtype="float32", norm="schmidt", csphase=False)
    p = mod.plan
    d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
    q = random_coefficients(rng, p.lmax, p.mmax, (3,))
    f_ref = reference.synth(q * d, p.lmax, p.mmax, p.make_grid())
    tol, tol_roundtrip = BOUNDS["float32"]
    f = mod.synth(q)
    assert f.dtype == np.float32 and rel_l2(f, f_ref) <= tol
    assert rel_l2(mod.analys(f_ref), q) <= tol
    assert rel_l2(mod.analys(f), q) <= tol_roundtrip


@pytest.mark.parametrize("kernels", ["mlir", "wgsl"])
def test_vulkan_scales_on_the_device(vulkan, kernels, rng):
    """Both Vulkan families, numpy calls and the device-array path (the scaling runs in the
    module: device arrays in, device arrays out)."""
    mod = ireesht.compile(16, target="vulkan", kernels=kernels, norm="four_pi", csphase=False)
    p = mod.plan
    d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f_ref = reference.synth(q * d, p.lmax, p.mmax, p.make_grid())
    tol, tol_roundtrip = BOUNDS["float32"]
    assert rel_l2(mod.synth(q), f_ref) <= tol
    assert rel_l2(mod.analys(f_ref), q) <= tol
    q_dev = mod.upload(q.astype(np.complex64).view(np.float32).reshape(2, p.nlm, 2))
    f_dev, q_out = mod.empty((2, p.nlat, p.nphi)), mod.empty((2, p.nlm, 2))
    mod.synth(q_dev, out=f_dev, sync=False)
    mod.analys(f_dev, out=q_out, sync=False)
    mod.synchronize()
    assert rel_l2(mod.to_numpy(f_dev), f_ref) <= tol
    back = mod.to_numpy(q_out).astype(np.float64).view(np.complex128)[..., 0]
    assert rel_l2(back, q) <= tol_roundtrip


def test_adjoints_with_a_normalisation(rng):
    """<S a, g> = <a, S^T g> and <A f, q> = <f, A^T q> in the plan's convention (float64)."""
    mod = cpu64("schmidt", False)
    p = mod.plan
    a = random_coefficients(rng, p.lmax, p.mmax, (2,))
    g = rng.standard_normal((2, p.nlat, p.nphi))

    def dot(x, y):
        return float(np.sum(x.real * y.real + x.imag * y.imag))

    sa, st = mod.synth(a), mod.synth_adjoint(g)
    assert abs(dot(sa, g) - dot(a, st)) <= 1e-12 * np.linalg.norm(sa) * np.linalg.norm(g)
    af, at = mod.analys(g), mod.analys_adjoint(a)
    assert abs(dot(af, a) - dot(g, at)) <= 1e-12 * np.linalg.norm(af) * np.linalg.norm(a)


def test_torch_gradient_is_the_scaled_transpose(rng):
    """d/dq <S' q, g> = D S^T g (S' = S D), with S^T g = c_m A(g / W) of the float64
    reference (ireesht.adjoint's formula applied to an independent implementation)."""
    torch = pytest.importorskip("torch")
    ist = pytest.importorskip("ireesht.torch")
    mod = cpu64("schmidt", False)
    p = mod.plan
    g = rng.standard_normal((p.nlat, p.nphi))
    q = torch.from_numpy(random_coefficients(rng, p.lmax, p.mmax)).requires_grad_()
    (ist.synth(mod, q) * torch.from_numpy(g)).sum().backward()
    w = p.make_grid().weights[:, None] * 2 * np.pi / p.nphi
    c = np.where(layout.lm_indices(p.lmax, p.mmax)[1] == 0, 1.0, 2.0)
    d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
    expect = d * c * reference.analys(g / w, p.lmax, p.mmax, p.make_grid(), exact=False)
    assert rel_l2(q.grad.numpy(), expect) <= 1e-12


def test_torch_layers_take_the_phase_from_the_module():
    """torch-harmonics' csphase=False is the module's (the layers then scale only for norm);
    tests/integration/test_torch.py checks the layers against torch-harmonics itself."""
    torch = pytest.importorskip("torch")
    ist = pytest.importorskip("ireesht.torch")
    layer = ist.RealSHT(9, 16, norm="ortho", csphase=False)
    x = torch.randn(1, 9, 16, dtype=torch.float64)
    plan = layer.module(x).plan
    assert (plan.norm, plan.csphase, layer._scale) == ("ortho", False, None)
    with pytest.raises(ValueError, match=r"csphase=1: expected True or False"):
        ist.InverseRealSHT(9, 16, csphase=1)


def test_saved_modules_keep_the_convention(tmp_path, rng):
    mod = cpu64("four_pi", False)
    loaded = ireesht.load(mod.save(tmp_path / "m"))
    assert (loaded.plan.norm, loaded.plan.csphase) == ("four_pi", False)
    assert loaded.info["plan"]["norm"] == "four_pi"
    q = random_coefficients(rng, L, L)
    assert rel_l2(loaded.synth(q), mod.synth(q)) <= 1e-15


def test_only_plans_in_another_convention_scale():
    """The default convention's module is the one without the option (no table, no op)."""
    plain = ireesht.Plan.create(15, target="vulkan")
    assert "qscale" not in plain.synth_tables + plain.analys_tables
    assert "linalg.generic" not in codegen.render(plain)
    for norm, csphase in CASES[1:]:
        p = ireesht.Plan.create(15, target="vulkan", norm=norm, csphase=csphase)
        assert p.synth_tables[-1] == p.analys_tables[-1] == "qscale"
        assert codegen.render(p).count("linalg.generic") == 2


@pytest.mark.parametrize("kw,message", [
    (dict(norm="4pi"), "norm='4pi': expected one of 'ortho', 'four_pi', 'schmidt'"),
    (dict(norm="four-pi"), "norm='four-pi': expected one of 'ortho', 'four_pi', 'schmidt'"),
    (dict(norm=None), "norm=None: expected one of"),
    (dict(csphase=1), "csphase=1: expected True or False"),
    (dict(csphase="no"), "csphase='no': expected True or False"),
])
def test_bad_conventions_are_refused(kw, message):
    with pytest.raises(ValueError) as info:
        ireesht.compile(7, target="cpu", **kw)
    assert message in str(info.value)
    d = ireesht.Plan.create(7, target="cpu").as_dict()
    with pytest.raises(ValueError) as info:
        ireesht.Plan.from_dict({**d, **kw})
    assert message in str(info.value)
