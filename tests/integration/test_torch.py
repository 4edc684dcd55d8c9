"""``ireesht.torch``: autograd through the exact adjoints, and layers that match
torch-harmonics' ``RealSHT`` / ``InverseRealSHT`` (the independent reference, where installed)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ireesht
from ireesht.numerics import layout, reference
from ireesht.numerics.reference import random_coefficients, rel_l2

torch = pytest.importorskip("torch")
ist = pytest.importorskip("ireesht.torch")


@pytest.fixture(scope="module")
def mod():
    return ireesht.compile(7, 5, grid="equiangular", target="cpu", dtype="float64")


def test_gradcheck_synth_and_analys(mod):
    p = mod.plan
    q = torch.randn(2, p.nlm, dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(lambda q: ist.synth(mod, q), (q,))
    f = torch.randn(2, p.nlat, p.nphi, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda f: ist.analys(mod, f), (f,))


def test_second_derivatives(mod):
    """The backward passes are themselves differentiable (they call the autograd functions)."""
    p = mod.plan
    q = torch.randn(1, p.nlm, dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda q: ist.synth(mod, q), (q,))


def test_gradient_of_a_loss_is_the_adjoint(mod, rng):
    """d/dq of <S q, g> is S^T g, the float64 reference's transpose."""
    p = mod.plan
    g = rng.standard_normal((p.nlat, p.nphi))
    q = torch.from_numpy(random_coefficients(rng, p.lmax, p.mmax)).requires_grad_()
    (ist.synth(mod, q) * torch.from_numpy(g)).sum().backward()
    w = p.make_grid().weights[:, None] * 2 * np.pi / p.nphi
    c = np.where(layout.lm_indices(p.lmax, p.mmax)[1] == 0, 1.0, 2.0)
    expect = reference.analys(g / w, p.lmax, p.mmax, p.make_grid(), exact=False) * c
    assert rel_l2(q.grad.numpy(), expect) <= 1e-12


def _dense_reference(f, lmax, grid, nlat, nlon):
    """torch-harmonics' dense ortho coefficients from the float64 reference."""
    g = ireesht.Plan.create(lmax, lmax, nlat, nlon, grid, "cpu").make_grid()
    return layout.unpack(reference.analys(f, lmax, lmax, g, exact=False), lmax, lmax)


@pytest.mark.parametrize("grid,nlat,nlon", [("equiangular", 17, 32), ("legendre-gauss", 12, 24),
                                            ("equiangular", 16, 30)])
def test_layers_match_the_float64_reference(grid, nlat, nlon, rng):
    sht = ist.RealSHT(nlat, nlon, grid=grid)
    isht = ist.InverseRealSHT(nlat, nlon, grid=grid)
    L = sht.lmax
    f = rng.standard_normal((2, nlat, nlon))
    dense = sht(torch.from_numpy(f))
    assert dense.shape == (2, L, L) and dense.dtype == torch.complex128
    ours = "gauss" if grid == "legendre-gauss" else grid
    assert rel_l2(dense.numpy(), _dense_reference(f, L - 1, ours, nlat, nlon)) <= 1e-12
    q = random_coefficients(rng, L - 1, L - 1, (2,))
    g = ireesht.Plan.create(L - 1, L - 1, nlat, nlon, ours, "cpu").make_grid()
    back = isht(torch.from_numpy(layout.unpack(q, L - 1, L - 1)))
    assert back.shape == (2, nlat, nlon)
    assert rel_l2(back.numpy(), reference.synth(q, L - 1, L - 1, g)) <= 1e-12


@pytest.mark.parametrize("norm", ["ortho", "four-pi", "schmidt"])
@pytest.mark.parametrize("csphase", [True, False])
# the last two keep torch-harmonics' default mmax = nlon // 2 + 1: the Nyquist order m = nlon / 2
@pytest.mark.parametrize("grid,nlat,nlon,lmax", [("equiangular", 17, 32, None),
                                                 ("legendre-gauss", 12, 24, None),
                                                 ("equiangular", 21, 40, 7),
                                                 ("legendre-gauss", 12, 22, None),
                                                 ("equiangular", 17, 16, None)])
def test_layers_match_torch_harmonics(norm, csphase, grid, nlat, nlon, lmax):
    th = pytest.importorskip("torch_harmonics")
    kw = dict(lmax=lmax, grid=grid, norm=norm, csphase=csphase)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch-harmonics' notice of its 0.9 truncation
        ref, iref = th.RealSHT(nlat, nlon, **kw).double(), th.InverseRealSHT(nlat, nlon, **kw).double()
    sht, isht = ist.RealSHT(nlat, nlon, **kw), ist.InverseRealSHT(nlat, nlon, **kw)
    assert (sht.lmax, sht.mmax) == (ref.lmax, ref.mmax)
    x = torch.randn(3, nlat, nlon, dtype=torch.float64)
    y = ref(x)
    assert sht(x).shape == y.shape
    # float64 both ways; torch-harmonics' own Legendre tables round to ~1e-15
    assert rel_l2(sht(x).numpy(), y.numpy()) <= 1e-12
    assert rel_l2(isht(y).numpy(), iref(y).numpy()) <= 1e-12


def test_layer_gradcheck():
    sht = ist.RealSHT(9, 16, grid="equiangular")
    isht = ist.InverseRealSHT(9, 16, grid="equiangular")
    x = torch.randn(1, 9, 16, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(sht, (x,))
    y = torch.randn(1, sht.lmax, sht.mmax, dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(isht, (y,))


def test_nyquist_layers_gradcheck():
    """RealSHT(5, 8): mmax = nlon // 2 + 1 = 5 counts, so order 4 = nlon / 2 (the Nyquist
    order: the adjoints' c_N = 4, and the layers' factor 2)."""
    sht = ist.RealSHT(5, 8, grid="legendre-gauss")
    isht = ist.InverseRealSHT(5, 8, grid="legendre-gauss")
    assert sht.module(torch.zeros(1, dtype=torch.float64)).plan.nyquist
    x = torch.randn(2, 5, 8, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(sht, (x,))
    y = torch.randn(2, 5, 5, dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(isht, (y,))


def test_float32_layers_share_one_compiled_module(rng):
    a, b = ist.RealSHT(13, 24), ist.RealSHT(13, 24)
    x = torch.from_numpy(rng.standard_normal((4, 13, 24)).astype(np.float32))
    ya = a(x)
    assert ya.dtype == torch.complex64 and a.module(x) is b.module(x)
    ref = _dense_reference(x.numpy().astype(np.float64), a.lmax - 1, "equiangular", 13, 24)
    assert rel_l2(ya.numpy(), ref) <= 2e-6


def test_layers_refuse_what_ireesht_cannot_do():
    with pytest.raises(ValueError, match=r"grid='lobatto': ireesht has no such grid; expected "
                       r"one of \('legendre-gauss', 'equiangular'\)"):
        ist.RealSHT(16, 32, grid="lobatto")
    with pytest.raises(ValueError, match=r"norm='unnorm': expected one of"):
        ist.InverseRealSHT(16, 32, norm="unnorm")
    # the default mmax = nlon // 2 + 1 always fits (its Nyquist order included); a larger one
    with pytest.raises(ValueError, match=r"nlon=16: lmax=12 \(degrees 0..11\) needs nlon >= "
                       r"22; expected lmax <= 9"):
        ist.RealSHT(12, 16, lmax=12, mmax=12, grid="legendre-gauss")
    sht = ist.RealSHT(9, 16)
    with pytest.raises(ValueError, match=r"x: shape \(9, 17\), expected \(\.\.\., 9, 16\)"):
        sht(torch.zeros(9, 17))
    with pytest.raises(ValueError, match=r"dtype torch.float16: expected float32 or float64"):
        sht(torch.zeros(9, 16, dtype=torch.float16))


def test_truncation_follows_torch_harmonics():
    assert ist.truncation(128, 256, None, None, "legendre-gauss") == (128, 128)
    assert ist.truncation(128, 256, None, None, "equiangular") == (64, 64)
    assert ist.truncation(721, 1440, None, None, "equiangular") == (361, 361)
    assert ist.truncation(64, 128, 20, 10, "equiangular") == (10, 10)  # mmax caps lmax
    assert ist.RealSHT(721, 1440).lmax == 361  # made, not compiled: that waits for a call


def test_provided_module_serves_the_layers(tmp_path, rng):
    """``provide`` (a runtime-only install): the layers take a loaded module and give the
    compiled layer's results."""
    nlat, nlon = 12, 24
    ireesht.build(11, tmp_path / "a", ("cpu",), 11, nlat, nlon, "gauss", "float64")
    loaded = ireesht.load(tmp_path / "a", target="cpu")
    ist.provide(loaded)
    try:
        layer = ist.RealSHT(nlat, nlon, grid="legendre-gauss")
        x = torch.from_numpy(rng.standard_normal((2, nlat, nlon)))
        assert layer.module(x) is loaded
        q = ist.InverseRealSHT(nlat, nlon, grid="legendre-gauss")(layer(x))
        f_ref = reference.synth(reference.analys(x.numpy(), 11, 11, loaded.plan.make_grid()),
                                11, 11, loaded.plan.make_grid())
        assert rel_l2(q.numpy(), f_ref) < 1e-12
    finally:
        ist._PROVIDED.clear()
    with pytest.raises(ValueError, match="mmax = lmax"):
        ist.provide(ireesht.compile(7, 5, target="cpu"))
