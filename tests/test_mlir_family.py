"""The MLIR kernel family (kernels/mlir): through IREE's Vulkan driver (lavapipe in CI)
against the float64 reference, and compiled for CUDA and Metal (no such device here).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import ireesht
from ireesht import pipeline, reference
from ireesht.cli import random_coefficients, rel_l2
from ireesht.plan import Plan

# the bounds of the WGSL family (tests/test_vulkan_pipeline.py says why): the MLIR kernels do
# the same float32 arithmetic
TOL = 2e-6
TOL_ROUNDTRIP = 2.5e-6
# float64 kernels: measured 1.1e-14 synthesis, 2.3e-14 analysis at lmax 255 (lavapipe and an
# H200), 9.4e-14 roundtrip at lmax 1023 (H200)
TOL64 = 1e-13


def check_plan(mod, rng, batch=(2,)):
    p = mod.plan
    assert p.kernels == "mlir"
    f64 = p.dtype == "float64"
    tol, tol_roundtrip = (TOL64, TOL64) if f64 else (TOL, TOL_ROUNDTRIP)
    g = p.make_grid()
    q = random_coefficients(rng, p.lmax, p.mmax, batch)
    f = mod.synth(q)
    assert f.shape == batch + (p.nlat, p.nphi) and f.dtype == (np.float64 if f64 else np.float32)
    f_ref = reference.synth(q, p.lmax, p.mmax, g)
    assert rel_l2(f, f_ref) <= tol, f"synth error {rel_l2(f, f_ref):.2e}"
    if p.exact:
        q2 = mod.analys(f_ref)
        assert q2.shape == batch + (p.nlm,) and q2.dtype == (np.complex128 if f64 else np.complex64)
        assert rel_l2(q2, q) <= tol, f"analysis error {rel_l2(q2, q):.2e}"
        q3 = mod.analys(f)
        assert rel_l2(q3, q) <= tol_roundtrip, f"roundtrip error {rel_l2(q3, q):.2e}"


def build(lmax, mmax=None, nlat=None, nphi=None, grid="gauss", subgroups=True, **kw):
    plan = Plan.create(lmax, mmax, nlat, nphi, grid, target="vulkan", kernels="mlir", **kw)
    from ireesht.module import _build

    return _build(dataclasses.replace(plan, subgroups=subgroups), use_cache=True)


@pytest.mark.parametrize("lmax", [0, 1, 5, 31, 127])
def test_gauss_roundtrip_matches_reference(vulkan, rng, lmax):
    check_plan(ireesht.compile(lmax, target="vulkan", kernels="mlir"), rng)


@pytest.mark.parametrize(
    "lmax, mmax, nlat, nphi, grid",
    [
        (40, 17, None, None, "gauss"),      # mmax < lmax
        (31, 31, 45, 64, "gauss"),          # nlat > lmax + 1, odd nlat
        (20, 12, 22, 30, "gauss"),          # non-power-of-two nphi, mmax < lmax
        (24, 24, 49, 50, "equiangular"),    # exact equiangular (nlat >= 2 lmax + 1), odd
    ],
)
def test_plan_shapes_match_reference(vulkan, rng, lmax, mmax, nlat, nphi, grid):
    check_plan(build(lmax, mmax, nlat, nphi, grid), rng)


def test_batch_of_fields_any_leading_shape(vulkan, rng):
    mod = build(31)
    q = random_coefficients(rng, 31, 31, (2, 3))
    f = mod.synth(q)
    assert f.shape == (2, 3, 32, 64)
    f_ref = reference.synth(q.reshape(6, -1), 31, 31, mod.plan.make_grid())
    assert rel_l2(f.reshape(6, 32, 64), f_ref) <= TOL


@pytest.mark.parametrize("nf", [2, 4])
def test_fields_per_thread_variants(vulkan, rng, nf):
    mod = build(47, fields_per_thread=nf)
    assert mod.info["variants"]["fields_per_thread"] == nf
    check_plan(mod, rng, batch=(5,))  # 5 fields: one partial group


def test_analysis_walks_several_chunks_of_pairs(vulkan, rng):
    # 550 latitude pairs: two chunks of 512 per workgroup (the second adds to q); the
    # analysis sums in workgroup memory, with no subgroup operation
    mod = build(31, nlat=1100)
    assert mod.info["variants"]["analysis_reduction"] == "workgroup rows"
    check_plan(mod, rng, batch=(3,))


@pytest.mark.parametrize(
    "lmax, kw",
    [
        (63, {}),
        (31, dict(mmax=17, nlat=45, nphi=80, fields_per_thread=4)),  # odd nlat, direct DFT
        (24, dict(nlat=49, nphi=50, grid="equiangular", subgroups=False)),
    ],
)
def test_float64_matches_reference(vulkan, rng, lmax, kw):
    # lavapipe has shaderFloat64 and shaderInt64 (the kernels' exponent counters are i64)
    check_plan(build(lmax, dtype="float64", **kw), rng, batch=(3,))


# plan shapes compiled for the targets without a device here (every kernel variant; the
# sizes reach the kernels as push constants, only the grids are compiled in)
COMPILE_ONLY = [
    dict(lmax=0),
    dict(lmax=127, fields_per_thread=4),
    dict(lmax=40, mmax=17, nlat=45, nphi=80),
    dict(lmax=24, nlat=49, nphi=50, grid="equiangular", fields_per_thread=4),
    dict(lmax=15, fields_per_thread=2, subgroups=False),
]
CUDA_ONLY = [  # Metal GPUs have no float64
    dict(lmax=63, dtype="float64"),
    dict(lmax=31, dtype="float64", fields_per_thread=4, subgroups=False),
]


@pytest.mark.parametrize("kw", COMPILE_ONLY + CUDA_ONLY,
                         ids=lambda kw: "-".join(f"{k}{v}" for k, v in kw.items()))
def test_cuda_module_compiles(kw):
    kw = dict(kw)
    sg = kw.pop("subgroups", True)
    plan = dataclasses.replace(Plan.create(target="cuda", kernels="mlir", **kw), subgroups=sg)
    vmfb = pipeline.compile_plan(plan)
    # the PTX of the four stages (one module each), for sm_80: JIT-compiled on newer GPUs
    assert vmfb.count(b".visible .entry") == 4 and b".target sm_80" in vmfb


@pytest.mark.parametrize("kw", COMPILE_ONLY, ids=lambda kw: "-".join(f"{k}{v}" for k, v in kw.items()))
def test_metal_module_compiles_and_embeds_msl(kw, tmp_path):
    kw = dict(kw)
    sg = kw.pop("subgroups", True)
    plan = dataclasses.replace(Plan.create(target="metal", kernels="mlir", **kw), subgroups=sg)
    vmfb = pipeline.compile_plan(plan, extra_args=[f"--iree-hal-dump-executable-binaries-to={tmp_path}"])
    # one MSL source per stage, embedded (the Metal runtime compiles it at load)
    sources = {p.name: p.read_text() for p in tmp_path.glob("*.metal")}
    for stage in ("leg_synth", "fft_synth", "fft_analys", "leg_analys"):
        text = next((t for name, t in sources.items() if stage in name), None)
        assert text is not None, f"no MSL for {stage}: {sorted(sources)}"
        assert "kernel void" in text and text.encode() in vmfb
    analys = next(t for name, t in sources.items() if "leg_analys" in name)
    assert "simd_sum" not in analys  # rows summed in workgroup memory, no subgroup sum
