"""Checks shared by the pipeline tests of several targets (imported as ``checks``: pytest puts
tests/ on sys.path, as it has no __init__.py)."""

from __future__ import annotations

import gc

import numpy as np

from ireesht.numerics import reference, vector_reference
from ireesht.numerics.reference import random_coefficients, rel_l2

# Relative L2 bounds against the float64 reference per plan dtype: (each stage, roundtrip).
# float32: tests/kernels/test_vulkan_pipeline.py says where they come from; the CPU family does the
# same float32 arithmetic. float64: the C and MLIR kernels measure 1e-14 to 2.5e-14 at
# lmax 255, so 1e-12 leaves room for larger lmax without hiding a float32 step (1e-7).
BOUNDS = {"float32": (2e-6, 2.5e-6), "float64": (1e-12, 1e-12)}

# Plan shapes (lmax, mmax, nlat, nphi, grid) every family is checked on.
PLAN_SHAPES = [
    (40, 17, None, None, "gauss"),      # mmax < lmax
    (31, 31, 45, 64, "gauss"),          # nlat > lmax + 1, odd nlat
    (30, 30, 31, 62, "gauss"),          # odd nlat, nphi / 2 prime (Bluestein in C and WGSL)
    (20, 12, 22, 30, "gauss"),          # nphi 2 3 5 (radix 3, 5 FFT), mmax < lmax
    (89, 89, 90, 180, "gauss"),         # nphi 2^2 3^2 5: every radix of C and WGSL
    (40, 40, 41, 97, "gauss"),          # odd prime nphi (C and WGSL: odd row, Bluestein)
    (24, 24, 49, 50, "equiangular"),    # exact equiangular (nlat >= 2 lmax + 1), odd, poles
    (32, 32, 66, 128, "equiangular"),   # even equiangular nlat
]


def check_plan(mod, rng: np.random.Generator, batch: tuple[int, ...] = (2,),
               bounds: tuple[float, float] | None = None) -> None:
    """Check module ``mod`` on random coefficients of shape ``batch + (nlm,)``: synthesis
    against the float64 reference, and where the plan's quadrature is exact analysis of the
    reference field and the roundtrip; shapes and dtypes (those of ``plan.dtype``) too.
    ``bounds`` (each stage, roundtrip) defaults to ``BOUNDS[plan.dtype]``."""
    p = mod.plan
    tol, tol_roundtrip = bounds or BOUNDS[p.dtype]
    real = np.dtype(p.dtype)
    q = random_coefficients(rng, p.lmax, p.mmax, batch, nphi=p.nphi)
    f = mod.synth(q)
    assert f.shape == batch + (p.nlat, p.nphi) and f.dtype == real
    f_ref = reference.synth(q, p.lmax, p.mmax, p.make_grid())
    assert rel_l2(f, f_ref) <= tol, f"synth error {rel_l2(f, f_ref):.2e}"
    if p.exact:
        q2 = mod.analys(f_ref)
        assert q2.shape == batch + (p.nlm,) and q2.dtype == np.result_type(real, np.complex64)
        assert rel_l2(q2, q) <= tol, f"analysis error {rel_l2(q2, q):.2e}"
        q3 = mod.analys(f)
        assert rel_l2(q3, q) <= tol_roundtrip, f"roundtrip error {rel_l2(q3, q):.2e}"


def check_enqueued_calls(mod, rng: np.random.Generator) -> None:
    """Calls enqueued with ``sync=False`` run in the order they were made: a synthesis
    overwrites the field an enqueued analysis reads (a reordering would give the second
    field's coefficients), ``to_numpy`` waits for the calls before it, and inputs dropped
    right after their call is enqueued stay valid until it is done."""
    p = mod.plan
    tol, tol_roundtrip = BOUNDS[p.dtype]
    real, cplx = np.dtype(p.dtype), np.result_type(np.dtype(p.dtype), np.complex64)
    s = mod._session
    q1, q2 = (random_coefficients(rng, p.lmax, p.mmax, (3,), nphi=p.nphi) for _ in range(2))
    q1_dev, q2_dev = (s.upload(q.astype(cplx).view(real).reshape(3, p.nlm, 2)) for q in (q1, q2))
    f_dev, g_dev = (s.empty((3, p.nlat, p.nphi), real) for _ in range(2))
    qa_dev, qb_dev = (s.empty((3, p.nlm, 2), real) for _ in range(2))
    assert mod.synth(q1_dev, out=f_dev, sync=False) is f_dev
    assert mod.analys(f_dev, out=qa_dev, sync=False) is qa_dev
    mod.synth(q2_dev, out=f_dev, sync=False)
    mod.analys(f_dev, out=qb_dev, sync=False)
    mod.synth(q1_dev, out=g_dev, sync=False)
    g = mod.to_numpy(g_dev)  # no synchronize() before: to_numpy waits
    grid = p.make_grid()
    assert rel_l2(g, reference.synth(q1, p.lmax, p.mmax, grid)) <= tol
    mod.synchronize()
    assert rel_l2(mod.to_numpy(f_dev), reference.synth(q2, p.lmax, p.mmax, grid)) <= tol
    for q_dev, q in ((qa_dev, q1), (qb_dev, q2)):
        back = mod.to_numpy(q_dev).astype(np.float64)
        assert rel_l2(back[..., 0] + 1j * back[..., 1], q) <= tol_roundtrip
    # inputs the caller drops at once: IREE keeps them until the call is done
    qs = [random_coefficients(rng, p.lmax, p.mmax, (3,), nphi=p.nphi) for _ in range(4)]
    outs = [s.empty((3, p.nlat, p.nphi), real) for _ in qs]
    for q, out in zip(qs, outs):
        mod.synth(s.upload(q.astype(cplx).view(real).reshape(3, p.nlm, 2)), out=out, sync=False)
        gc.collect()
    mod.synchronize()
    for q, out in zip(qs, outs):
        assert rel_l2(mod.to_numpy(out), reference.synth(q, p.lmax, p.mmax, grid)) <= tol


# Vector plans' relative L2 bounds against the float64 reference: (each transform, roundtrip).
# float64: measured 1e-15 to 2e-15 (CPU, Vulkan MLIR) at lmax 16-40; 1e-12 as for scalars.
# float32: the scalar kernels' float32 error (BOUNDS above: 2e-6) times the
# 1/sin(theta) of the rows: the synthesis divides sin(theta) u, whose absolute error is the
# scalar one, by sin(theta), so the relative L2 grows by about sqrt(mean 1/sin^2) ~
# sqrt(nlat / 3) on equiangular grids (poles excluded), ~4 at these sizes. Measured: 2.4e-7
# to 4.2e-7 at lmax 16-64 (scalar transforms there: 1e-7 to 2e-7).
VECTOR_BOUNDS = {"float32": (8e-6, 1e-5), "float64": (1e-12, 1e-12)}


def random_fields(rng, lmax, mmax, batch):
    """Random (S, T) coefficients ``batch + (2, nlm)``, with S_00 = T_00 = 0 (they carry
    nothing)."""
    st = np.stack([random_coefficients(rng, lmax, mmax, batch) for _ in range(2)], axis=-2)
    st[..., 0] = 0.0
    return st


def check_vector_plan(mod, rng, batch=(2,)):
    """vsynth against the reference; vanalys of the reference field; the roundtrip; and
    vanalys of a field that is not band-limited against the reference's quadrature (the
    composed kernels compute the same sums pointwise)."""
    p = mod.plan
    lmax, mmax, g = p.band_lmax, p.mmax, p.make_grid()
    tol, tol_rt = VECTOR_BOUNDS[p.dtype]
    real = np.dtype(p.dtype)
    st = random_fields(rng, lmax, mmax, batch)
    u = mod.vsynth(st)
    assert u.shape == batch + (2, p.nlat, p.nphi) and u.dtype == real
    u_ref = vector_reference.vsynth(st, lmax, mmax, g)
    assert rel_l2(u, u_ref) <= tol, f"vsynth error {rel_l2(u, u_ref):.2e}"
    st2 = mod.vanalys(u_ref)
    assert st2.shape == st.shape and st2.dtype == np.result_type(real, np.complex64)
    assert rel_l2(st2, st) <= tol, f"vanalys error {rel_l2(st2, st):.2e}"
    assert rel_l2(mod.vanalys(u), st) <= tol_rt
    noise = rng.standard_normal(batch + (2, p.nlat, p.nphi))
    want = vector_reference.vanalys(noise, lmax, mmax, g, exact=False)
    assert rel_l2(mod.vanalys(noise), want) <= tol
