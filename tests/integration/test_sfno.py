"""A spherical Fourier neural operator with ireesht's layers in place of torch-harmonics'
(issue 36): the same loss and parameter gradients, forward and backward on the CPU.

float32: torch-harmonics' own example model,
``torch_harmonics.examples.models.SphericalFourierNeuralOperator`` (0.9.3), small; its copy goes
through ``ireesht.torch.replace_sht``. Its spectral convolution casts to float32 (``x.float()``,
complex64 weights), so it cannot run in float64; the float64 check is ``_TinySFNO`` below, the
same architecture written out (encoder 1x1 conv; blocks of RealSHT -> per-degree complex channel
mixing -> InverseRealSHT, a grid change resolved through the transforms, skip, GELU MLP;
decoder 1x1 conv), with complex128 weights.

Tolerances. Both sides of the float32 comparison round: torch-harmonics' tables and einsums,
and ireesht's transforms, each within ~2e-6 of the float64 result (test_torch.py). The loss
and gradients pass through ~10 transforms (2 blocks: analysis, synthesis and the residual's
synthesis forward, their transposes backward), a few smooth layers of O(1) gain between them at
this initialisation: errors that add give <~1e-5 of relative L2; 1e-4 leaves 5-10x for the
unseeded inputs (measured: losses within 2e-7, gradients 7e-7). float64: both sides within
~1e-14 per transform (test_torch.py asserts 1e-12), so 1e-11 for the network (measured:
losses within 3e-16, gradients 1.1e-14). The same after 3 SGD steps (momentum 0.9).
"""

from __future__ import annotations

import copy
import math
import warnings

import pytest

torch = pytest.importorskip("torch")
ist = pytest.importorskip("ireesht.torch")
th = pytest.importorskip("torch_harmonics")
sfno = pytest.importorskip("torch_harmonics.examples.models.sfno")

nn = torch.nn


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().norm() / b.abs().norm())


def sht_layers(model) -> list:
    return [m for m in model.modules() if isinstance(m, (th.RealSHT, th.InverseRealSHT,
                                                          ist.RealSHT, ist.InverseRealSHT))]


def example_sfno(img_size, grid, grid_internal):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch-harmonics' notices (its 0.9 truncation)
        return sfno.SphericalFourierNeuralOperator(
            img_size=img_size, grid=grid, grid_internal=grid_internal, scale_factor=2,
            in_chans=2, out_chans=2, embed_dim=8, num_layers=2)


def loss_and_grads(model, x, y):
    model.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}


def assert_same_training(ref, ours, x, y, tol):
    """The same loss and parameter gradients at the start and after each of 3 SGD steps."""
    names = [n for n, _ in ref.named_parameters()]
    assert names == [n for n, _ in ours.named_parameters()]
    opts = [torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in (ref, ours)]
    for step in range(4):
        (l_ref, g_ref), (l_ours, g_ours) = loss_and_grads(ref, x, y), loss_and_grads(ours, x, y)
        assert abs(float(l_ours - l_ref)) <= tol * float(l_ref), (step, l_ref, l_ours)
        for n in names:  # every gradient nonzero: each one is compared
            assert float(g_ref[n].norm()) > 0, n
            assert rel(g_ours[n], g_ref[n]) <= tol, (step, n, rel(g_ours[n], g_ref[n]))
        for o in opts:
            o.step()


@pytest.mark.parametrize("img_size,grid,grid_internal", [
    ((33, 64), "equiangular", "legendre-gauss"),
    ((32, 64), "legendre-gauss", "equiangular"),
])
def test_example_sfno_float32(img_size, grid, grid_internal):
    ref = example_sfno(img_size, grid, grid_internal)
    ours = ist.replace_sht(copy.deepcopy(ref))  # the same initial weights
    kinds = [type(m) for m in sht_layers(ours)]
    assert kinds == [ist.RealSHT, ist.InverseRealSHT] * 2, kinds
    x, y = torch.randn(2, 2, *img_size), torch.randn(2, 2, *img_size)
    assert_same_training(ref, ours, x, y, tol=1e-4)


def test_replace_sht_keeps_arguments_and_sharing():
    ref = example_sfno((33, 64), "equiangular", "legendre-gauss")
    ours = ist.replace_sht(copy.deepcopy(ref))
    # torch-harmonics' SFNO holds each transform twice (model.trans and a block's reference)
    assert ours.blocks[0].global_conv.forward_transform is ours.trans_down
    assert ours.blocks[1].global_conv.inverse_transform is ours.itrans_up
    assert ours.blocks[0].global_conv.inverse_transform is ours.itrans
    for a, b in zip(sht_layers(ref), sht_layers(ours)):
        assert type(b).__name__ == type(a).__name__
        assert [getattr(b, k) for k in ("nlat", "nlon", "lmax", "mmax", "grid", "norm",
                                         "csphase")] == \
               [getattr(a, k) for k in ("nlat", "nlon", "lmax", "mmax", "grid", "norm",
                                        "csphase")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        single = th.InverseRealSHT(9, 16, norm="schmidt", csphase=False)
    swapped = ist.replace_sht(single)
    assert isinstance(swapped, ist.InverseRealSHT)
    assert (swapped.norm, swapped.csphase, swapped.lmax) == ("schmidt", False, single.lmax)
    other = nn.Sequential(nn.Conv2d(1, 1, 1))
    assert ist.replace_sht(other) is other
    # a grid ireesht lacks: refused, the model left as it was
    lobatto = nn.Sequential(th.RealSHT(9, 16, lmax=5, mmax=5, grid="legendre-gauss"),
                            th.InverseRealSHT(9, 16, lmax=5, mmax=5, grid="lobatto"))
    with pytest.raises(ValueError, match="lobatto"):
        ist.replace_sht(lobatto)
    assert [type(m) for m in lobatto] == [th.RealSHT, th.InverseRealSHT]


class _TinySFNO(nn.Module):
    """torch-harmonics' example SFNO written out without its float32 cast: float64 throughout
    (module doc); torch-harmonics' transforms, on ``img_size`` outside, ``small`` inside."""

    def __init__(self, img_size, grid, small, grid_internal, chans=2, width=8, extra=0):
        super().__init__()
        L = small[1] // 2 + extra  # extra = 1: order small[1] / 2, the Nyquist order inside
        self.encoder = nn.Conv2d(chans, width, 1, bias=False)
        self.trans_down = th.RealSHT(*img_size, L, L, grid=grid)
        self.itrans_up = th.InverseRealSHT(*img_size, L, L, grid=grid)
        self.trans = th.RealSHT(*small, L, L, grid=grid_internal)
        self.itrans = th.InverseRealSHT(*small, L, L, grid=grid_internal)
        self.weights = nn.ParameterList(
            nn.Parameter(math.sqrt(2 / width) * torch.randn(width, width, L,
                                                            dtype=torch.complex128))
            for _ in range(2))
        self.mlps = nn.ModuleList(nn.Sequential(nn.Conv2d(width, 2 * width, 1), nn.GELU(),
                                                nn.Conv2d(2 * width, width, 1, bias=False))
                                  for _ in range(2))
        self.decoder = nn.Conv2d(width, chans, 1, bias=False)

    def forward(self, x):
        x = self.encoder(x)
        pairs = [(self.trans_down, self.itrans), (self.trans, self.itrans_up)]
        for (fwd, inv), w, mlp in zip(pairs, self.weights, self.mlps):
            q = fwd(x)
            residual = inv(q) if (fwd.nlat, fwd.nlon) != (inv.nlat, inv.nlon) else x
            x = mlp(inv(torch.einsum("bilm,oil->bolm", q, w))) + residual
        return self.decoder(x)


@pytest.mark.parametrize("extra", [0, 1])
def test_sfno_float64(extra):
    ref = _TinySFNO((33, 64), "equiangular", (17, 32), "legendre-gauss", extra=extra).double()
    ours = ist.replace_sht(copy.deepcopy(ref))
    assert len(sht_layers(ours)) == 4 and not any(type(m).__module__.startswith("torch_harm")
                                                   for m in ours.modules())
    x = torch.randn(2, 2, 33, 64, dtype=torch.float64)
    y = torch.randn(2, 2, 33, 64, dtype=torch.float64)
    assert_same_training(ref, ours, x, y, tol=1e-11)
