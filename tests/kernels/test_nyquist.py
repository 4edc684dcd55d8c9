"""The Nyquist order (``nphi = 2 mmax``: ``Plan.nyquist``, ireesht/codegen/nyquist.py) on every
kernel family: float64 against ducc0 (synthesis as ducc0's; analysis half ducc0's quadrature
there, its inverse), float32 against the float64 reference, roundtrips of band-limited fields
whose Nyquist coefficients have an imaginary part (ignored), the device-array path, and the
CUDA and Metal modules compiled."""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht.numerics import layout, normalization, reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.plan import Plan

import checks

ducc0 = pytest.importorskip("ducc0")

GEOMETRY = {"gauss": "GL", "equiangular": "CC"}
# float64: the kernels' 1e-14 (tests/checks.py) and the Nyquist step's short sums; float32:
# the kernels' bounds (tests/checks.py BOUNDS; measured 1.3-2.3e-7 with the Nyquist order)
TOL = {"float64": 1e-12, "float32": checks.BOUNDS["float32"][1]}

# (lmax, mmax, nlat, nphi, grid, norm, csphase), nphi = 2 mmax: mmax = lmax with FFT rows; mmax <
# lmax, odd N = 15 (radix 3 and 5 rows), with the qscale step; the theta step with even and odd N
CASES = [(16, 16, 17, 32, "gauss", "ortho", True),
         (20, 15, 22, 30, "gauss", "schmidt", False),
         (16, 16, 19, 32, "equiangular", "ortho", True),
         (15, 15, 18, 30, "equiangular", "four_pi", True)]


def _nyquist(p) -> slice:
    return slice(int(layout.m_offsets(p.lmax, p.mmax)[p.mmax]), p.nlm)


def _ducc0(p, q=None, f=None):
    """ducc0's synthesis of ``q`` or analysis of ``f`` ``(B, ...)`` in the plan's convention
    (``d``: the plan's coefficients times d are orthonormal); ducc0's analysis (the
    quadrature, ``2 Re q_lN`` at the Nyquist order for its synthesis of q) halved there."""
    d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
    kw = dict(spin=0, lmax=p.lmax, mmax=p.mmax, geometry=GEOMETRY[p.grid])
    if q is not None:
        return np.stack([ducc0.sht.synthesis_2d(alm=(x * d)[None], ntheta=p.nlat, nphi=p.nphi,
                                                **kw)[0] for x in q])
    a = np.stack([ducc0.sht.experimental.analysis_2d(map=x[None], **kw)[0] for x in f])
    a[:, _nyquist(p)] = 0.5 * a[:, _nyquist(p)].real
    return a / d


def _check(mod, rng, tol):
    p = mod.plan
    assert p.nyquist and p.kernel_plan.mmax == p.mmax - 1
    q = random_coefficients(rng, p.lmax, p.mmax, (2,))   # Im q_lN != 0: synthesis ignores it
    f = mod.synth(q)
    f64 = _ducc0(p, q=q)
    assert rel_l2(f, f64) <= tol, rel_l2(f, f64)
    back = mod.analys(f64)
    assert np.all(back[:, _nyquist(p)].imag == 0) and np.all(back[:, : p.lmax + 1].imag == 0)
    assert rel_l2(back, _ducc0(p, f=f64)) <= tol, rel_l2(back, _ducc0(p, f=f64))
    q_real = q.copy()
    q_real[:, _nyquist(p)] = q_real[:, _nyquist(p)].real
    assert rel_l2(mod.analys(f), q_real) <= tol                  # the roundtrip


# float64 on every case, float32 on two (the default suite's time: each is a compile)
@pytest.mark.parametrize("case,dtype", [(0, "float64"), (1, "float64"), (2, "float64"),
                                        (3, "float64"), (1, "float32"), (3, "float32")])
def test_cpu_matches_ducc0(case, dtype, rng):
    lmax, mmax, nlat, nphi, grid, norm, csphase = CASES[case]
    mod = ireesht.compile(lmax, mmax, nlat, nphi, grid, target="cpu", dtype=dtype, norm=norm,
                          csphase=csphase)
    assert mod.plan.theta_step == (grid == "equiangular")
    _check(mod, rng, TOL[dtype])


@pytest.mark.parametrize("kernels,dtype,case", [("mlir", "float64", 2), ("mlir", "float32", 1),
                                                ("wgsl", "float32", 0)])
def test_vulkan_matches_ducc0(vulkan, kernels, dtype, case, rng):
    lmax, mmax, nlat, nphi, grid, norm, csphase = CASES[case]
    mod = ireesht.compile(lmax, mmax, nlat, nphi, grid, target="vulkan", kernels=kernels,
                          dtype=dtype, norm=norm, csphase=csphase)
    _check(mod, rng, TOL[dtype])
    if norm == "ortho":  # (it compares with the reference's orthonormal coefficients)
        checks.check_enqueued_calls(mod, rng)  # device arrays: F as the kernels make it


def test_device_arrays_and_a_saved_module_on_the_cpu(tmp_path, rng):
    mod = ireesht.compile(16, 16, 17, 32, target="cpu", dtype="float64")
    checks.check_enqueued_calls(mod, rng)
    mod.save(tmp_path / "nyq")
    loaded = ireesht.load(tmp_path / "nyq", target="cpu")
    assert loaded.plan == mod.plan and loaded.plan.nyquist
    _check(loaded, rng, TOL["float64"])


@pytest.mark.parametrize("target,dtype,lmax", [("cuda", "float32", 255), ("metal", "float32", 31)])
def test_gpu_modules_compile(target, dtype, lmax):
    """CUDA at lmax 255 float32 takes the lanes64 segments analysis, whose bindings follow its
    tables: the Nyquist tables come after them."""
    from ireesht.codegen import module as codegen

    plan = Plan.create(lmax, lmax, lmax + 1, 2 * lmax, target=target, dtype=dtype)
    assert plan.nyquist and plan.analys_tables[-1] == "nyq_analys"
    text = codegen.render(plan)
    assert "%nyq_synth" in text and "%nyq_analys" in text
    assert len(codegen.compile_plan(plan)) > 0


def test_other_plans_have_no_nyquist_step():
    """nphi > 2 mmax: no Nyquist tables nor ops (their module text is what it was before)."""
    from ireesht.codegen import module as codegen

    for args in [(16, None, None, None, "gauss"), (16, 15, 17, 32, "gauss")]:
        plan = Plan.create(*args, target="cpu")
        assert not plan.nyquist and plan.kernel_plan is plan
        assert "nyq" not in codegen.render(plan)


def test_nphi_below_2_mmax_and_vector_nyquist_plans_are_refused():
    with pytest.raises(ValueError, match=r"nphi=31: expected nphi >= 2\*mmax = 32"):
        Plan.create(16, 16, 17, 31, target="cpu")
    with pytest.raises(ValueError, match=r"nphi=32, mmax=16: vector plans cannot keep the "
                                         r"Nyquist order .* expected nphi > 2\*mmax = 32 or "
                                         r"mmax <= 15"):
        Plan.create(16, 16, 18, 32, target="cpu", transform="vector")
