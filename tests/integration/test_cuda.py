"""On a CUDA GPU (skipped elsewhere): torch, CuPy and JAX arrays on the device go in and come
out without a copy through the host, ordered against the caller's pending work, and the
torch layers train there. Checked against the float64 reference.

Where IREE's compiler is missing (the GPU machine carries the runtime only), the modules are
loaded from ``$IREESHT_TEST_ARTIFACTS``, made beforehand by
``python tests/integration/test_cuda.py DIR`` (one ``ireesht.build`` directory per plan).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import ireesht
from ireesht.adjoint import order_factors, transpose_analys
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2

# name -> ireesht.build arguments (target cuda)
PLANS = {"l31_f64": dict(lmax=31, mmax=31, nlat=32, nphi=64, dtype="float64"),
         "l47_f32": dict(lmax=47, mmax=40, nlat=60, nphi=96, grid="equiangular")}
# vector plans (pole rows on the equiangular grid): tests/checks.py's check_vector_plan
VECTOR_PLANS = {"l20_vec_f64": dict(lmax=20, nlat=41, nphi=42, grid="equiangular",
                                    dtype="float64", transform="vector"),
                "l33_vec_f32": dict(lmax=33, mmax=30, nlat=34, nphi=68, transform="vector"),
                "l24_vec_f32_poles": dict(lmax=24, nlat=49, nphi=50, grid="equiangular",
                                          transform="vector")}
# the float32 transforms' error against the float64 reference (test_cuda's measurements:
# about 1e-6 at these sizes); float64 at rounding
TOL = {"float32": 2e-5, "float64": 1e-12}


def _cuda_available() -> bool:
    try:
        import iree.runtime as rt

        return bool(rt.get_driver("cuda").query_available_devices())
    except Exception:
        return False


pytestmark = pytest.mark.skipif(not _cuda_available(), reason="no CUDA device")


def _module(name: str, kw: dict):
    try:
        import iree.compiler  # noqa: F401
    except ImportError:
        root = os.environ.get("IREESHT_TEST_ARTIFACTS")
        if not root:
            pytest.skip("no compiler and no $IREESHT_TEST_ARTIFACTS")
        return ireesht.load(Path(root) / name, target="cuda")
    return ireesht.compile(target="cuda", **kw)


@pytest.fixture(scope="module", params=list(PLANS))
def mod(request):
    return _module(request.param, PLANS[request.param])


@pytest.mark.parametrize("name", list(VECTOR_PLANS))
def test_vector_transforms_match_reference(name, rng):
    """CUDA's own configuration of the mixing along l (codegen.pipeline.FLAT_CONFIG) and the
    pole rows, against the float64 reference, batches of 3 (the flat index's remainders)."""
    from checks import check_vector_plan

    check_vector_plan(_module(name, VECTOR_PLANS[name]), rng, batch=(3,))


def _refuse_host(monkeypatch):
    """Every copy through the host fails: what still works copied nothing."""
    from ireesht import interop

    def refuse(*_):
        raise AssertionError("copied through the host")
    for lib in (interop._Torch, interop._Cupy, interop._Jax):
        monkeypatch.setattr(lib, "host", refuse)
        monkeypatch.setattr(lib, "from_numpy", refuse)


def test_enqueued_calls_keep_their_order(mod, rng):
    """CUDA calls wait for nothing but the stream's order (``device.STREAM_ORDERED``): 40
    syntheses each overwrite the field that the analysis enqueued before them reads, with no
    host work in between; a call run out of order gives an analysis another step's
    coefficients (an error near 1.4, against TOL's 1e-6 level)."""
    s, p = mod._session, mod.plan
    assert not s._wait_for_previous
    real, cplx = np.dtype(p.dtype), np.result_type(np.dtype(p.dtype), np.complex64)
    qs = [random_coefficients(rng, p.lmax, p.mmax, (2,), nphi=p.nphi) for _ in range(40)]
    q_devs = [s.upload(q.astype(cplx).view(real).reshape(2, p.nlm, 2)) for q in qs]
    f_dev = s.empty((2, p.nlat, p.nphi), real)
    outs = [s.empty((2, p.nlm, 2), real) for _ in qs]
    for q_dev, out in zip(q_devs, outs):
        mod.synth(q_dev, out=f_dev, sync=False)
        mod.analys(f_dev, out=out, sync=False)
    mod.synchronize()
    grid = p.make_grid()
    for k, (q, out) in enumerate(zip(qs, outs)):
        back = mod.to_numpy(out).astype(np.float64)
        expected = q if p.exact else reference.analys(
            reference.synth(q, p.lmax, p.mmax, grid), p.lmax, p.mmax, grid, exact=False)
        err = rel_l2(back[..., 0] + 1j * back[..., 1], expected)
        assert err <= TOL[p.dtype], f"step {k}: {err:.2e}"


def test_torch_cuda_tensors_without_copies(mod, rng, monkeypatch):
    torch = pytest.importorskip("torch")
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2, 3))
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    cplx = torch.complex128 if p.dtype == "float64" else torch.complex64
    x = torch.from_numpy(q).to("cuda", cplx)
    _refuse_host(monkeypatch)
    before = torch.cuda.memory_allocated()
    f = mod.synth(x)
    # torch allocated the result, which the module wrote in place, and nothing else (its
    # allocator rounds blocks up to 512 bytes)
    grown = torch.cuda.memory_allocated() - before
    assert f.nbytes <= grown < f.nbytes + 512
    assert f.is_cuda and f.shape == (2, 3, p.nlat, p.nphi) and str(f.dtype) == f"torch.{p.dtype}"
    assert rel_l2(f.cpu().numpy(), f_ref) < TOL[p.dtype]
    q2 = mod.analys(f)
    assert q2.is_cuda and q2.dtype == cplx
    if p.exact:
        assert rel_l2(q2.cpu().numpy(), q) < TOL[p.dtype]
    else:
        q_ref = reference.analys(f_ref, p.lmax, p.mmax, p.make_grid(), exact=False)
        assert rel_l2(q2.cpu().numpy(), q_ref) < TOL[p.dtype]


def test_torch_stream_work_is_ordered(mod, rng):
    """Inputs written by kernels still pending on a side stream are read after them, and
    the result is complete when the caller's next kernel reads it."""
    torch = pytest.importorskip("torch")
    p = mod.plan
    real = getattr(torch, p.dtype)
    f0 = torch.from_numpy(rng.standard_normal((4, p.nlat, p.nphi))).to("cuda", real)
    q_expected = mod.analys(f0).cpu()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        x = torch.zeros_like(f0)
        torch.cuda._sleep(50_000_000)  # tens of ms of pending work before the write
        x.copy_(f0)
        q = mod.analys(x)  # no synchronize by the caller
        total = (q.abs() ** 2).sum()  # the caller's next kernel on the same stream
    side.synchronize()
    assert rel_l2(q.cpu().numpy(), q_expected.numpy()) == 0
    assert abs(float(total) - float((q_expected.abs() ** 2).sum())) <= 1e-5 * float(total)


def test_torch_gradients_on_the_gpu(mod, rng):
    """The gradient of a loss through analysis then synthesis, on CUDA, equals the float64
    reference's (S^T and A^T of ``test_adjoint``, here through autograd)."""
    torch = pytest.importorskip("torch")
    ist = pytest.importorskip("ireesht.torch")
    p = mod.plan
    real = getattr(torch, p.dtype)
    f = torch.from_numpy(rng.standard_normal((2, p.nlat, p.nphi))).to("cuda", real)
    f.requires_grad_(True)
    g = rng.standard_normal((2, p.nlat, p.nphi))
    loss = (ist.synth(mod, ist.analys(mod, f)) * torch.from_numpy(g).to("cuda", real)).sum()
    loss.backward()
    # d/df <S A f, g> = A^T S^T g, by the formulas of ireesht.adjoint on the reference
    grid = p.make_grid()
    w = grid.weights[:, None] * 2 * np.pi / p.nphi
    c = order_factors(p.lmax, p.mmax)
    st = reference.analys(g / w, p.lmax, p.mmax, grid, exact=False) * c  # S^T g
    # A^T = T^T W S (q / c) with the theta step's T where the plan takes it (the l47 plan)
    expected = transpose_analys(st, p, lambda q: reference.synth(q, p.lmax, p.mmax, grid),
                                lambda a, x: np.asarray(a, np.float64))
    assert rel_l2(f.grad.cpu().numpy(), np.asarray(expected)) < 10 * TOL[p.dtype]


def test_cupy_arrays_without_copies(mod, rng, monkeypatch):
    cupy = pytest.importorskip("cupy")
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (3,))
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    x = cupy.asarray(q.astype(np.result_type(p.dtype, np.complex64)))
    _refuse_host(monkeypatch)
    f = mod.synth(x)
    assert isinstance(f, cupy.ndarray) and f.shape == (3, p.nlat, p.nphi)
    assert rel_l2(cupy.asnumpy(f), f_ref) < TOL[p.dtype]


def test_jax_gpu_arrays_without_copies(mod, rng, monkeypatch):
    jax = pytest.importorskip("jax")
    if p_gpu := [d for d in jax.devices() if d.platform == "gpu"]:
        dev = p_gpu[0]
    else:
        pytest.skip("JAX sees no GPU")
    p = mod.plan
    if p.dtype == "float64" and not jax.config.read("jax_enable_x64"):
        pytest.skip("float64 needs jax_enable_x64")
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    x = jax.device_put(q.astype(np.complex64), dev)
    _refuse_host(monkeypatch)
    f = mod.synth(x)
    assert next(iter(f.devices())) == dev and f.shape == (2, p.nlat, p.nphi)
    assert rel_l2(np.asarray(f), f_ref) < TOL[p.dtype]


if __name__ == "__main__":  # make the modules for a GPU machine without the compiler
    out = Path(sys.argv[1])
    for name, kw in {**PLANS, **VECTOR_PLANS}.items():
        ireesht.build(out=out / name, targets=("cuda",), **kw)
        print("built", out / name)
