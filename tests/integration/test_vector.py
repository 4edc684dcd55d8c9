"""Vector transforms (``transform="vector"``: ``vsynth``, ``vanalys``) on the CPU target (C
kernels) and on Vulkan (lavapipe: MLIR and WGSL kernels), against the float64 vector
reference (itself checked against ducc0 in tests/numerics/test_vector_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from checks import check_vector_plan, random_fields
from ireesht.numerics import vector_reference
from ireesht.numerics.reference import rel_l2


# (lmax, mmax, nlat, nphi, grid): the fewest Gauss rings (nlat = lmax + 1 is exact for
# vectors too), mmax < lmax with a direct-DFT nphi, equiangular with both poles.
SHAPES = [
    (20, 20, None, None, "gauss"),
    (17, 11, 20, 30, "gauss"),
    (12, 12, 25, 48, "equiangular"),
]


@pytest.fixture(scope="module")
def cpu64():
    return ireesht.compile(12, grid="equiangular", target="cpu", dtype="float64",
                           transform="vector")


@pytest.mark.parametrize("dtype,lmax,mmax,nlat,nphi,grid",
                         [("float64", *s) for s in SHAPES] + [("float32", *s) for s in SHAPES[1:]])
def test_cpu_vector_transforms_match_reference(rng, dtype, lmax, mmax, nlat, nphi, grid):
    mod = ireesht.compile(lmax, mmax, nlat, nphi, grid, target="cpu", dtype=dtype,
                          transform="vector")
    check_vector_plan(mod, rng)


# each family and dtype once, each grid (pole rows on the equiangular one) twice
@pytest.mark.parametrize("kernels,dtype,grid", [("mlir", "float64", "equiangular"),
                                                ("mlir", "float32", "gauss"),
                                                ("wgsl", "float32", "equiangular")])
def test_vulkan_vector_transforms_match_reference(rng, vulkan, kernels, dtype, grid):
    mod = ireesht.compile(10, mmax=8, nlat=11 if grid == "gauss" else 21, nphi=20, grid=grid,
                          target="vulkan", dtype=dtype, kernels=kernels, transform="vector")
    check_vector_plan(mod, rng, batch=(3,))


def test_vector_transforms_take_any_batch_shape(cpu64, rng):
    p = cpu64.plan
    st = random_fields(rng, p.band_lmax, p.mmax, (2, 3))
    u = cpu64.vsynth(st)
    assert u.shape == (2, 3, 2, p.nlat, p.nphi)
    assert rel_l2(u[1, 2], cpu64.vsynth(st[1, 2])) <= 1e-15
    assert cpu64.vsynth(st[0, :0]).shape == (0, 2, p.nlat, p.nphi)
    assert cpu64.vanalys(u).shape == st.shape


def test_vector_device_arrays_out_and_enqueued_calls(cpu64, rng):
    p = cpu64.plan
    lmax, g = p.band_lmax, p.make_grid()
    st1, st2 = (random_fields(rng, lmax, p.mmax, (3,)) for _ in range(2))
    st1_dev, st2_dev = (cpu64.upload(s.view(np.float64).reshape(3, 2, p.band_nlm, 2))
                        for s in (st1, st2))
    u_dev = cpu64.empty((3, 2, p.nlat, p.nphi))
    a_dev, b_dev = (cpu64.empty((3, 2, p.band_nlm, 2)) for _ in range(2))
    assert cpu64.vsynth(st1_dev, out=u_dev, sync=False) is u_dev
    assert cpu64.vanalys(u_dev, out=a_dev, sync=False) is a_dev
    cpu64.vsynth(st2_dev, out=u_dev, sync=False)  # in order: a_dev holds st1's
    cpu64.vanalys(u_dev, out=b_dev, sync=False)
    cpu64.synchronize()
    assert rel_l2(cpu64.to_numpy(u_dev), vector_reference.vsynth(st2, lmax, p.mmax, g)) <= 1e-12
    for dev, want in ((a_dev, st1), (b_dev, st2)):
        got = cpu64.to_numpy(dev)
        assert rel_l2(got[..., 0] + 1j * got[..., 1], want) <= 1e-12
    fresh = cpu64.vsynth(st1_dev)  # allocated result, device array
    assert rel_l2(cpu64.to_numpy(fresh), vector_reference.vsynth(st1, lmax, p.mmax, g)) <= 1e-12
    filled = np.empty((3, 2, p.nlat, p.nphi))
    assert cpu64.vsynth(st1, out=filled) is filled


def test_vector_transforms_take_torch_tensors(cpu64, rng):
    torch = pytest.importorskip("torch")
    p = cpu64.plan
    st = random_fields(rng, p.band_lmax, p.mmax, (2,))
    u = cpu64.vsynth(torch.from_numpy(st))
    assert isinstance(u, torch.Tensor) and tuple(u.shape) == (2, 2, p.nlat, p.nphi)
    want = vector_reference.vsynth(st, p.band_lmax, p.mmax, p.make_grid())
    assert rel_l2(u.numpy(), want) <= 1e-12
    back = cpu64.vanalys(u)
    assert back.dtype == torch.complex128 and rel_l2(back.numpy(), st) <= 1e-12


def test_vector_module_saves_and_loads(cpu64, rng, tmp_path):
    mod = ireesht.load(cpu64.save(tmp_path / "vec"))
    assert mod.plan == cpu64.plan and mod.info["transform"] == "vector"
    st = random_fields(rng, mod.plan.band_lmax, mod.plan.mmax, ())
    assert rel_l2(mod.vsynth(st), cpu64.vsynth(st)) == 0.0


def test_vector_plan_errors_name_the_value(cpu64):
    p = cpu64.plan
    with pytest.raises(ValueError, match=rf"st: shape \(3, {p.band_nlm}\), expected "
                                         rf"\(\.\.\., 2, {p.band_nlm}\) \(S, T\) for lmax=12"):
        cpu64.vsynth(np.zeros((3, p.band_nlm), complex))
    with pytest.raises(ValueError, match=rf"u: shape \(2, {p.nlat}, 7\), expected "
                                         rf"\(\.\.\., 2, {p.nlat}, {p.nphi}\)"):
        cpu64.vanalys(np.zeros((2, p.nlat, 7)))
    with pytest.raises(ValueError, match="synth: a plan with transform='vector' has vsynth"):
        cpu64.synth(np.zeros(p.band_nlm, complex))
    with pytest.raises(ValueError, match="transform='bogus'"):
        ireesht.compile(4, target="cpu", transform="bogus")
    with pytest.raises(ValueError, match="nlat=12: Gauss analysis of lmax=12 needs nlat >= "):
        ireesht.compile(12, nlat=12, target="cpu", transform="vector")


def test_scalar_plan_has_no_vector_functions(rng):
    mod = ireesht.compile(5, target="cpu")
    with pytest.raises(ValueError, match="vsynth: a plan with transform='scalar' has synth"):
        mod.vsynth(np.zeros((2, mod.plan.nlm), complex))


def test_check_covers_vector_paths():
    rows = ireesht.check(9, batch=2, grid="equiangular", dtype="float64", verbose=False,
                         transform="vector", paths=[("cpu", "c", {})])
    (row,) = rows
    assert row["transform"] == "vector" and row["lmax"] == 9 and row["ok"]
    assert row["synth_rel_l2"] <= 1e-12 and row["roundtrip_rel_l2"] <= 1e-12


@pytest.mark.parametrize("target", ["cuda", "metal"])
def test_vector_module_compiles_for_gpu_targets(target):
    # no CUDA or Metal device here: the module compiles, with the vector exports
    from ireesht.codegen import module as codegen
    from ireesht.plan import Plan

    plan = Plan.create(8, grid="equiangular", target=target, transform="vector")
    vmfb = codegen.compile_plan(plan)
    assert b"vsynth_async" in vmfb and b"vanalys_async" in vmfb
