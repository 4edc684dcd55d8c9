"""``ireesht.jax``: transforms under ``jax.jit`` and ``jax.vmap`` with exact reverse-mode
gradients (``jax.test_util.check_grads``)."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht.numerics import reference
from ireesht.numerics.reference import random_coefficients, rel_l2

jax = pytest.importorskip("jax")
ij = pytest.importorskip("ireesht.jax")
jax.config.update("jax_enable_x64", True)  # float64 plans; float32 ones are unaffected
jnp = jax.numpy
from jax.test_util import check_grads  # noqa: E402


# the second keeps the Nyquist order (nphi = 2 mmax: its adjoint's c_N = 4, ireesht.adjoint)
@pytest.fixture(scope="module", params=[(7, 5, None, None, "equiangular"), (7, 7, 8, 14, "gauss")],
                ids=["equiangular", "nyquist"])
def mod(request):
    return ireesht.compile(*request.param, target="cpu", dtype="float64")


def test_jit_matches_the_reference(mod, rng):
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (2, 3), nphi=p.nphi)
    f = jax.jit(lambda q: ij.synth(mod, q))(jnp.asarray(q))
    assert f.shape == (2, 3, p.nlat, p.nphi) and f.dtype == np.float64
    assert rel_l2(np.asarray(f), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= 1e-12
    q2 = jax.jit(lambda f: ij.analys(mod, f))(f)
    assert q2.dtype == np.complex128 and rel_l2(np.asarray(q2), q) <= 1e-12


def test_check_grads(mod, rng):
    p = mod.plan
    q = jnp.asarray(random_coefficients(rng, p.lmax, p.mmax, (2,)))
    f = jnp.asarray(rng.standard_normal((2, p.nlat, p.nphi)))
    check_grads(lambda q: ij.synth(mod, q), (q,), order=2, modes=["rev"])
    check_grads(lambda f: ij.analys(mod, f), (f,), order=2, modes=["rev"])
    check_grads(jax.jit(lambda q: ij.synth(mod, q)), (q,), order=1, modes=["rev"])


def test_grad_of_a_loss_is_the_conjugate_adjoint(mod, rng):
    """JAX's gradient of a real loss of complex q is dL/dRe q - i dL/dIm q: conj(S^T g)."""
    p = mod.plan
    g = rng.standard_normal((p.nlat, p.nphi))
    q = jnp.asarray(random_coefficients(rng, p.lmax, p.mmax))
    grad = jax.grad(lambda q: jnp.sum(ij.synth(mod, q) * g))(q)
    assert rel_l2(np.asarray(grad), np.conj(mod.synth_adjoint(g))) <= 1e-12


def test_vmap_and_float32(rng):
    mod = ireesht.compile(9, 9, target="cpu")
    p = mod.plan
    q = random_coefficients(rng, p.lmax, p.mmax, (4,))
    f = jax.jit(jax.vmap(lambda q: ij.synth(mod, q)))(jnp.asarray(q, jnp.complex64))
    assert f.shape == (4, p.nlat, p.nphi) and f.dtype == np.float32
    assert rel_l2(np.asarray(f), reference.synth(q, p.lmax, p.mmax, p.make_grid())) <= 2e-6
    # float32 finite differences resolve only ~1e-2 of a derivative (flaky at any fixed
    # tolerance); compare the float32 gradient with the float64 plan's instead, whose
    # gradients test_check_grads checks by finite differences
    mod64 = ireesht.compile(9, 9, target="cpu", dtype="float64")
    g = random_coefficients(rng, p.lmax, p.mmax, (1,))
    _, vjp32 = jax.vjp(lambda f: ij.analys(mod, f), f[:1])
    _, vjp64 = jax.vjp(lambda f: ij.analys(mod64, f), jnp.asarray(f[:1], jnp.float64))
    (g32,), (g64,) = vjp32(jnp.asarray(g, jnp.complex64)), vjp64(jnp.asarray(g))
    assert g32.dtype == np.float32 and rel_l2(np.asarray(g32, np.float64), np.asarray(g64)) <= 1e-6


def test_errors_name_the_value_and_the_expected_one(mod):
    p = mod.plan
    with pytest.raises(ValueError, match=rf"qlm: shape \(3,\), expected \(\.\.\., {p.nlm}\)"):
        ij.synth(mod, jnp.zeros(3, jnp.complex128))
    with pytest.raises(ValueError, match=r"spatial: dtype complex128, expected float32 or "
                       r"float64"):
        ij.analys(mod, jnp.zeros((p.nlat, p.nphi), jnp.complex128))
