"""DLPack in, same kind out (``ireesht.interop``): torch and JAX arrays through ``Module``'s
transforms and adjoints, without copies on the CPU target, through the host on Vulkan."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def cpu64():
    return ireesht.compile(10, 7, grid="equiangular", target="cpu", dtype="float64")


@pytest.fixture(scope="module")
def cpu32():
    return ireesht.compile(9, 9, target="cpu")


def _no_host_copies(mod, monkeypatch):
    """Make the module's copies between host and device fail: what still works copied nothing."""
    def refuse(*_):
        raise AssertionError("copied through the host")
    monkeypatch.setattr(mod, "upload", refuse)
    monkeypatch.setattr(mod, "to_numpy", refuse)


def test_torch_on_the_cpu_target_without_copies(cpu64, rng, monkeypatch):
    p = cpu64.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2, 3))
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    x = torch.from_numpy(q).clone()  # torch's memory (64-byte aligned), not numpy's
    _no_host_copies(cpu64, monkeypatch)
    f = cpu64.synth(x)
    assert isinstance(f, torch.Tensor) and f.dtype == torch.float64 and f.shape == (2, 3, p.nlat, p.nphi)
    assert rel_l2(f.numpy(), f_ref) <= 1e-12
    q2 = cpu64.analys(f)
    assert q2.dtype == torch.complex128 and q2.shape == (2, 3, p.nlm)
    assert rel_l2(q2.numpy(), q) <= 1e-12


def test_torch_results_equal_the_numpy_path(cpu32, rng):
    p = cpu32.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (4,)).astype(np.complex64)
    np.testing.assert_array_equal(cpu32.synth(torch.from_numpy(q)).numpy(), cpu32.synth(q))
    f = rng.standard_normal((p.nlat, p.nphi)).astype(np.float32)  # no batch dimension
    q2 = cpu32.analys(torch.from_numpy(f))
    assert q2.shape == (p.nlm,) and q2.dtype == torch.complex64
    np.testing.assert_array_equal(q2.numpy(), cpu32.analys(f))


def test_torch_inputs_that_need_a_copy(cpu64, rng):
    """Non-contiguous, conjugated (a lazy bit), misaligned (an offset view), autograd and
    other-dtype tensors are made contiguous and of the plan's dtype first; results stay exact."""
    p = cpu64.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (3,))
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    t = torch.from_numpy(q)
    strided = torch.stack([t, t], -1)[..., 0]
    offset = torch.cat([torch.zeros(1, p.nlm, dtype=t.dtype), t])[1:]  # 16 bytes past 64
    for x in (strided, t.conj().conj(), offset, t.clone().requires_grad_()):
        assert rel_l2(cpu64.synth(x).numpy(), f_ref) <= 1e-12
    assert not strided.is_contiguous()
    f32 = torch.from_numpy(f_ref.astype(np.float32))  # a float32 field, float64 plan
    assert rel_l2(cpu64.analys(f32).numpy(), q) <= 1e-6


def test_torch_adjoints(cpu64, rng):
    p = cpu64.plan
    f = rng.standard_normal((2, p.nlat, p.nphi))
    st = cpu64.synth_adjoint(torch.from_numpy(f))
    assert isinstance(st, torch.Tensor) and st.dtype == torch.complex128
    np.testing.assert_allclose(st.numpy(), cpu64.synth_adjoint(f), rtol=0, atol=1e-13)
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    np.testing.assert_allclose(cpu64.analys_adjoint(torch.from_numpy(q)).numpy(),
                               cpu64.analys_adjoint(q), rtol=0, atol=1e-13)


def test_torch_through_the_host_on_vulkan(vulkan, rng):
    mod = ireesht.compile(9, 9, target="vulkan")
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f = mod.synth(torch.from_numpy(q.astype(np.complex64)))
    assert isinstance(f, torch.Tensor) and f.dtype == torch.float32
    assert rel_l2(f.numpy(), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= 2e-6
    assert rel_l2(mod.analys(f).numpy(), q) <= 2.5e-6


def test_jax_on_the_cpu_target_without_copies(cpu64, rng, monkeypatch):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    p = cpu64.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    x = jax.numpy.asarray(q)  # complex128: read as (B, nlm, 2) float64 without a copy
    _no_host_copies(cpu64, monkeypatch)
    f = cpu64.synth(x)
    assert isinstance(f, jax.Array) and f.dtype == np.float64
    assert rel_l2(np.asarray(f), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= 1e-12
    q2 = cpu64.analys(f)
    assert isinstance(q2, jax.Array) and q2.dtype == np.complex128
    assert rel_l2(np.asarray(q2), q) <= 1e-12


class _OtherLibrary:
    """An array of a DLPack library ireesht does not know: results come back as numpy."""

    def __init__(self, a):
        self.a, self.shape, self.dtype = a, a.shape, a.dtype

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_other_dlpack_libraries_get_numpy(cpu32, rng):
    p = cpu32.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2,)).astype(np.complex64)
    f = cpu32.synth(_OtherLibrary(q))
    assert type(f) is np.ndarray
    np.testing.assert_array_equal(f, cpu32.synth(q))


def test_a_list_of_tensors_is_one_call(cpu64, rng, monkeypatch):
    """A list of torch tensors: stacked, one call (its result's first axis over the list)."""
    p = cpu64.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (3, 2))
    calls, synth = [], type(cpu64).synth

    def counted(x, *args, **kw):  # interop calls the module once per call it makes
        calls.append(x)
        return synth(cpu64, x, *args, **kw)

    monkeypatch.setattr(cpu64, "synth", counted)
    f = synth(cpu64, [torch.from_numpy(x).clone() for x in q])
    assert isinstance(f, torch.Tensor) and f.shape == (3, 2, p.nlat, p.nphi)
    assert len(calls) == 1  # interop's one call on the stacked device array
    assert rel_l2(f.numpy(), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= 1e-12
    q2 = cpu64.analys((f[0], f[1]))
    assert q2.shape == (2, 2, p.nlm) and rel_l2(q2.numpy(), q[:2]) <= 1e-12


def test_a_list_of_arrays_of_several_kinds_is_refused(cpu32):
    p = cpu32.plan
    good = torch.zeros(p.nlm, dtype=torch.complex64)
    with pytest.raises(ValueError, match=r"qlm: a list of \[\('numpy', 'ndarray'\), \('torch', "
                       r"'Tensor'\)\] arrays, expected arrays of one library"):
        cpu32.synth([good, np.zeros(p.nlm, np.complex64)])
    with pytest.raises(ValueError, match=rf"qlm\[1\]: \({p.nlm + 1},\) torch.complex64, "
                       rf"expected the shape and dtype of qlm\[0\], \({p.nlm},\)"):
        cpu32.synth([good, torch.zeros(p.nlm + 1, dtype=torch.complex64)])


def test_empty_batches(cpu32):
    p = cpu32.plan
    f = cpu32.synth(torch.zeros((0, 2, p.nlm), dtype=torch.complex64))
    assert f.shape == (0, 2, p.nlat, p.nphi) and f.dtype == torch.float32


def test_interop_errors_name_the_value_and_the_expected_one(cpu32):
    p = cpu32.plan
    with pytest.raises(ValueError, match=r"qlm: dtype torch.float32, expected complex64 or "
                       r"complex128"):
        cpu32.synth(torch.zeros(p.nlm))
    with pytest.raises(ValueError, match=rf"qlm: shape \(2, {p.nlm + 1}\), expected "
                       rf"\(\.\.\., {p.nlm}\) for lmax=9, mmax=9"):
        cpu32.synth(torch.zeros((2, p.nlm + 1), dtype=torch.complex64))
    with pytest.raises(ValueError, match=rf"spatial: shape \({p.nphi}, {p.nlat}\), expected "
                       rf"\(\.\.\., {p.nlat}, {p.nphi}\)"):
        cpu32.analys(torch.zeros((p.nphi, p.nlat)))
    with pytest.raises(ValueError, match="out= and sync=False take iree.runtime.DeviceArray"):
        cpu32.analys(torch.zeros((1, p.nlat, p.nphi)), out=cpu32.empty((1, p.nlm, 2)))


def test_read_only_constants_are_converted_once(rng):
    """The adjoints' scalings (read-only, cached per plan) reach torch once, not per call."""
    from ireesht.interop import constant_like

    like = torch.from_numpy(rng.standard_normal(3))
    a = rng.standard_normal(5)
    assert constant_like(a, like) is not constant_like(a, like)  # writable: converted anew
    a.flags.writeable = False
    first = constant_like(a, like)
    assert constant_like(a, like) is first
    np.testing.assert_array_equal(first.numpy(), a)
