"""The MLIR kernel family (kernels/mlir): through IREE's Vulkan driver (lavapipe in CI)
against the float64 reference, and compiled for CUDA and Metal (no such device here).
"""

from __future__ import annotations

import numpy as np
import pytest

import ireesht
from ireesht import geometry
from ireesht.codegen import module as codegen
from ireesht.codegen.mlir import family as kernels_mlir
from ireesht.codegen.mlir import legendre as mlir_legendre
from ireesht.codegen.mlir.common import SYNTH_ROUND
from ireesht.codegen.mlir.ishioka import ISHIOKA_SYNTH_SPAN
from ireesht.codegen.mlir.mma import REST_STAGE
from ireesht.codegen.pipeline import template_values
from ireesht.numerics import fourier, ishioka, reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.tables import device_tables, segment_steps
from ireesht.plan import Plan
from ireesht.runtime import device as runtime

import checks
from checks import BOUNDS, PLAN_SHAPES, check_enqueued_calls

# the bounds of the WGSL family (tests/kernels/test_vulkan_pipeline.py says why): the MLIR kernels do
# the same float32 arithmetic. float64 kernels: measured 1.1e-14 synthesis, 2.3e-14 analysis
# at lmax 255 (lavapipe and an H200), 9.4e-14 roundtrip at lmax 1023 (H200)
TOL = BOUNDS["float32"][0]
TOL64 = 1e-13


def check_plan(mod, rng, batch=(2,)):
    assert mod.plan.kernels == "mlir"
    checks.check_plan(mod, rng, batch, (TOL64, TOL64) if mod.plan.dtype == "float64" else None)


def mma_synthesis(plan) -> bool:
    return plan.variant_names["leg_synth"] == "tensor_cores"


def mma_analysis(plan) -> bool:
    return plan.variant_names["leg_analys"] == "tensor_cores"


def kernels(plan) -> tuple[bool, bool]:
    """Whether the synthesis and the analysis run on tensor cores."""
    return mma_synthesis(plan), mma_analysis(plan)


def build(lmax, mmax=None, nlat=None, nphi=None, grid="gauss", **kw):
    # the float32 scheme unless asked otherwise: Vulkan's default on Gauss grids is the float64
    # recurrence (below and the ishioka / lanes64 tests), these tests cover the rest
    kw.setdefault("recurrence", "standard")
    return ireesht.compile(lmax, mmax, nlat, nphi, grid, target="vulkan", kernels="mlir", **kw)


@pytest.mark.parametrize("recurrence", ["auto", "standard"])
@pytest.mark.parametrize("lmax", [0, 1, 5, 31, 127])
def test_gauss_roundtrip_matches_reference(vulkan, rng, lmax, recurrence):
    # auto: the float64 recurrence, float64 lane sums and Fourier stages (Vulkan Gauss grids)
    mod = ireesht.compile(lmax, target="vulkan", kernels="mlir", recurrence=recurrence)
    if recurrence == "auto" and lmax > 0:
        assert mod.info["variants"]["leg_analys"] == "lanes64"
    check_plan(mod, rng)


@pytest.mark.parametrize("lmax, mmax, nlat, nphi, grid", PLAN_SHAPES)
def test_plan_shapes_match_reference(vulkan, rng, lmax, mmax, nlat, nphi, grid):
    check_plan(build(lmax, mmax, nlat, nphi, grid), rng)


def test_batch_of_fields_any_leading_shape(vulkan, rng):
    mod = build(31)
    q = random_coefficients(rng, 31, 31, (2, 3))
    f = mod.synth(q)
    assert f.shape == (2, 3, 32, 64)
    f_ref = reference.synth(q.reshape(6, -1), 31, 31, mod.plan.make_grid())
    assert rel_l2(f.reshape(6, 32, 64), f_ref) <= TOL


def test_info_counts_the_resident_tables(vulkan):
    mod = build(40, mmax=17, nlat=45, nphi=80)
    p, item = mod.plan, 4  # float32
    # xtab, seedtab, polar, coef, stab, wtab, twiddle (docs/design.md)
    n = (p.npairs * 4 + p.mc * p.npairs * 2 + p.mc + p.nlm * 5 + p.npairs
         + fourier.twiddle_rows(p.nphi) * 2)
    assert mod.info["tables_bytes"] == n * item


@pytest.mark.parametrize("nf", [2, 4])
def test_fields_per_thread_variants(vulkan, rng, nf):
    mod = build(47, fields_per_thread=nf)
    assert mod.plan.fields_per_thread == nf
    check_plan(mod, rng, batch=(5,))  # 5 fields: one partial group


def test_analysis_walks_several_chunks_of_pairs(vulkan, rng):
    # 550 latitude pairs: two chunks of 512 per workgroup (the second adds to q); the
    # analysis sums in workgroup memory, with no subgroup operation
    mod = build(31, nlat=1100)
    assert mod.info["variants"]["leg_analys"] == "rows"
    check_plan(mod, rng, batch=(3,))


@pytest.mark.parametrize(
    "nf, lmax, kw",
    [
        (2, 31, {}),  # a form per thread (small grid); idle lanes in warp 0, idle warps 1-3
        (4, 31, dict(mmax=17, nlat=45, nphi=80)),  # odd nlat, mmax < lmax
        (4, 127, dict(nlat=255)),  # the form per vote group: 128 pairs, one per thread
    ],
)
def test_analysis_lane_sums_on_lavapipe(vulkan, rng, nf, lmax, kw):
    # The CUDA analysis with 2 fields per thread or more sums each degree's values over lanes
    # with subgroup shuffles (variant lane_sums). Asked for on Vulkan, the module declares
    # subgroup shuffles and CI runs the same kernel on lavapipe. Lanes xor 1, 2, 4 must share
    # a subgroup.
    import iree.runtime as rt

    device = rt.get_driver("vulkan").query_available_devices()[0]
    size = runtime.describe_device("vulkan", device)["subgroup arithmetic"]
    if not size.startswith("yes (size ") or int(size[10:-1]) < 2 * nf:
        pytest.skip(f"the Vulkan device's subgroups ({size}) are smaller than {2 * nf} lanes")
    mod = build(lmax, fields_per_thread=nf, variants={"leg_analys": "lane_sums"}, **kw)
    assert mlir_legendre.analysis_fields(mod.plan) == (nf, 2 * nf)
    assert mod.info["variants"]["leg_analys"] == "lane_sums"
    assert "gpu.shuffle xor" in codegen.render(mod.plan)
    check_plan(mod, rng, batch=(5,))  # 5 fields: one partial group


def test_synthesis_workgroups_in_snake_order(vulkan, rng):
    # 1100 latitude pairs: 9 synthesis workgroups per order, 576 in all, so the second
    # round of SYNTH_ROUND runs reversed (leg_synth.mlir @workgroup_of)
    mod = build(63, nlat=2200)
    assert -(-mod.plan.npairs // 128) * mod.plan.mc >= 2 * SYNTH_ROUND
    check_plan(mod, rng, batch=(2,))


@pytest.mark.parametrize(
    "lmax, kw",
    [
        (63, {}),
        (31, dict(mmax=17, nlat=45, nphi=80, fields_per_thread=4)),  # odd nlat, radix-5 FFT
        (24, dict(nlat=49, nphi=50, grid="equiangular")),
    ],
)
def test_float64_matches_reference(vulkan, rng, lmax, kw):
    # lavapipe has shaderFloat64 and shaderInt64 (the kernels' exponent counters are i64)
    check_plan(build(lmax, dtype="float64", **kw), rng, batch=(3,))


def test_float64_plans_read_each_table_once(vulkan, rng):
    # the Ishioka synthesis names seed64, the rows analysis seedtab: the same float64 values,
    # one table (Plan.stage_tables)
    from ireesht import tables

    mod = build(40, dtype="float64", recurrence="ishioka")
    assert (mod.plan.variant_names["leg_synth"], mod.plan.variant_names["leg_analys"]) == (
        "ishioka", "rows")
    names = tables.names(mod.plan)
    assert "seedtab" in names and "seed64" not in names and len(set(names)) == len(names)
    check_plan(mod, rng, batch=(2,))


def test_enqueued_calls_run_in_order(vulkan, rng):
    check_enqueued_calls(build(15), rng)


# The "ishioka" recurrence runs the synthesis in float64 whatever the dtype (lavapipe has
# shaderFloat64): its float32 error is that of the Fourier stage and of rounding q and F
# (1.1e-7 at lmax 127-2047 on lavapipe and an H200, against 3.5e-7-1.6e-6 for the float32
# recurrence); the analysis is the standard one.
ISHIOKA_TOL = 3e-7
# With recurrence="ishioka" a float32 plan's Fourier stages run in float64 too (variant
# "float64"): the synthesis's error is the rounding of F and of f (lavapipe: 4.9-5.4e-8 on
# PLAN_SHAPES and lmax 127; 1.0-1.6e-7 with the float32 FFT)
ISHIOKA_FFT64_TOL = 8e-8


@pytest.mark.parametrize("lmax, mmax, nlat, nphi, grid", [(127, None, None, None, "gauss"),
                                                          *PLAN_SHAPES])
def test_ishioka_recurrence_matches_reference(vulkan, rng, lmax, mmax, nlat, nphi, grid):
    # the transposed sums (on Vulkan Gauss grids the float64 lane sums go first)
    mod = build(lmax, mmax, nlat, nphi, grid, recurrence="ishioka",
                variants={"leg_analys": "ishioka"})
    # every stage: the analysis too (leg_analys_ishioka.mlir, one pair per thread), and the
    # Fourier stages in float64 (PLAN_SHAPES has rows of 2^a 3^b 5^c points, and rows off
    # the FFT path: 62, 97)
    assert mod.info["variants"] == {"leg_synth": "ishioka", "fft_synth": "float64",
                                    "fft_analys": "float64", "theta_analys": "linalg",
                                    "leg_analys": "ishioka"}
    check_plan(mod, rng)
    q = random_coefficients(rng, lmax, mod.plan.mmax, (2,))
    f_ref = reference.synth(q, lmax, mod.plan.mmax, mod.plan.make_grid())
    assert rel_l2(mod.synth(q), f_ref) <= ISHIOKA_FFT64_TOL


def test_ishioka_recurrence_rescales_seeds_below_the_live_range(vulkan, rng):
    # With the kernel's float64 scaling every seed that lmax 255 runs starts live (its true
    # value); on a scale of 64 bits, live down to 2^-48 and rescaled past 2^32 (the variant's
    # parameters), the seeds of lmax 255 (exponent counters k = 0, -1 of 256 bits in the
    # float64 table, seed64) start on levels 0 and -4, those on -4 far above 2^32: the careful
    # loops drop the levels below -1, rescale one level per check, and count level -1
    scaling = {"live_bits": 48, "scale_bits": 64, "threshold_bits": 32}
    mod = build(255, variants={"leg_synth": {"name": "ishioka", **scaling}})
    t, p = device_tables(mod.plan), mod.plan
    k = t["seed64"][:, 1].reshape(p.mc, p.npairs)
    run = [k[m, int(t["polar"][m]):] for m in range(p.mc)]
    assert set(np.concatenate(run).astype(int)) == {0, -1}
    assert geometry.lowest_level(p, 48, 64) == -4
    q = random_coefficients(rng, 255, 255, (2,))
    assert rel_l2(mod.synth(q), reference.synth(q, 255, 255, p.make_grid())) <= ISHIOKA_TOL


def test_ishioka_recurrence_sums_the_level_below_without_careful_loop(vulkan, rng):
    # On a scale of 256 bits, live down to 2^-48, the seeds of lmax 255 start on levels 0 and
    # -1 (exponents down to -201); a float32 plan of one field then leaves the careful loop
    # out, adds level -1's values unscaled and scales their sums at the store, as lmax 2047
    # does with the kernel's own scaling. Float64 data (the same seeds) keeps the careful loop.
    synth = {"leg_synth": {"name": "ishioka", "live_bits": 48, "scale_bits": 256,
                           "threshold_bits": 128}}
    mod = build(255, variants=synth)
    assert geometry.lowest_level(mod.plan, 48, 256) == -1
    text = kernels_mlir.render_stage(mod.plan, "leg_synth", template_values(mod.plan))
    assert "%lean_only = arith.constant true" in text
    assert "%level_sums = arith.constant true" in text
    q = random_coefficients(rng, 255, 255, (2,))
    assert rel_l2(mod.synth(q), reference.synth(q, 255, 255, mod.plan.make_grid())) <= ISHIOKA_TOL
    p64 = Plan.create(255, target="vulkan", kernels="mlir", dtype="float64", variants=synth)
    assert geometry.lowest_level(p64, 48, 256) == -1
    text = kernels_mlir.render_stage(p64, "leg_synth", template_values(p64))
    assert "%lean_only = arith.constant false" in text
    assert "%level_sums = arith.constant false" in text


def test_ishioka_analysis_with_two_pairs_per_thread(vulkan, rng):
    # 151 pairs: more than the 128 threads of a Vulkan workgroup, so two per thread, in
    # three groups of 32 threads; odd nlat (lmax 150: the grid, not lmax, sets the shape)
    mod = build(150, nlat=301, nphi=302, recurrence="ishioka",
                variants={"leg_analys": "ishioka"})
    assert mod.info["variants"]["leg_analys"] == "ishioka"
    assert geometry.ishioka_analys_shape(mod.plan)["kp"] == 2
    # the pairs' y are stored one by one: a vector<2> store crashed the pipeline creation
    # of NVIDIA's Vulkan driver (H200, BENCHMARKS.md fourteenth run)
    lines = kernels_mlir.render_stage(mod.plan, "leg_analys",
                                      template_values(mod.plan)).splitlines()
    assert any("@steps" in line for line in lines)
    assert not [line for line in lines if "vector.store" in line and "vector<2x" in line]
    check_plan(mod, rng)


@pytest.mark.parametrize("lmax, kw, live_bits, segments", [
    (63, dict(nlat=601, nphi=128), 800, 0),  # odd grid: the equator row; 301 pairs, 3 chunks
    # mmax < lmax; the seeds below 2^-128 (seed64's k = -1: 2^-256 < 2^-60) on level -1
    (150, dict(mmax=100, nlat=480, nphi=256), 60, 0),
    (63, dict(mmax=50, nlat=97, nphi=128), 800, 7),  # 49 pairs: segments of 7 steps
])
def test_lanes64_analysis_on_lavapipe(vulkan, rng, lmax, kw, live_bits, segments):
    # The CUDA analysis of one float32 field (leg_analys_lanes64.mlir: float64 sums over
    # groups of four lanes, float64 shuffles), asked for on Vulkan so that CI runs it: with
    # at most four pairs per thread (SPIR-V vectors hold four; CUDA's kernel takes eight) in
    # chunks of 128 pairs (32 threads), by whole orders (variant lanes64) with the seeds whose
    # scale 2^(256 k) in seed64 lies below 2^-live_bits on level -1 (lmax 2047 has such seeds
    # from 2^-896 down), which run scaled;
    # or in segments (lanes64_segments, segment_min lowered) from the restart tables.
    import iree.runtime as rt

    device = rt.get_driver("vulkan").query_available_devices()[0]
    size = runtime.describe_device("vulkan", device)["subgroup arithmetic"]
    if not size.startswith("yes (size ") or int(size[10:-1]) < 4:
        pytest.skip(f"the Vulkan device's subgroups ({size}) are smaller than 4 lanes")
    spec = {"name": "lanes64_segments", "segment_min": segments} if segments else {
        "name": "lanes64", "live_bits": live_bits}
    mod = build(lmax, recurrence="ishioka", **kw,
                variants={"leg_analys": {**spec, "wg": 32, "pairs": 4}})
    assert mod.plan.describe() == "ishioka / float64 lane sums" + (
        f", segments of {segments} steps" if segments else "")
    assert segment_steps(mod.plan) == segments
    assert geometry.lowest_level(mod.plan, live_bits) == (0 if live_bits == 800 else -1)
    # float64 sums: the analysis of the reference field is exact to float32's rounding
    # of F and q (H200, lmax 1023: 3.2e-8 against the float32 scheme's 9.4e-7)
    q = random_coefficients(rng, lmax, mod.plan.mmax, (3,))
    f = reference.synth(q, lmax, mod.plan.mmax, mod.plan.make_grid())
    assert rel_l2(mod.analys(f), q) <= 1.5e-7  # lavapipe: 5.7-5.9e-8; the float32 scheme 3-4e-7
    check_plan(mod, rng, batch=(3,))


def test_ishioka_analysis_serves_the_plans_one_workgroup_holds():
    # float32, one field per thread, every seed live, at most 384 pairs, and every pair of
    # an order in one workgroup (Vulkan: 128 threads, 32 KB; CUDA: 48 KB): else the float32
    # scheme; by auto only where the float64 lane sums (below) do not serve
    def runs(lmax, target="vulkan", **kw):
        plan = Plan.create(lmax, target=target, kernels="mlir",
                           recurrence=kw.pop("recurrence", "ishioka"), **kw)
        return plan.variant_names["leg_analys"] == "ishioka"

    fejer, forced = dict(grid="fejer"), dict(variants={"leg_analys": "ishioka"})
    assert runs(511, **fejer, **forced) and runs(255, nlat=511, **fejer, **forced)
    with pytest.raises(ValueError, match="cannot run"):
        runs(600, **fejer, **forced)  # 601 pairs
    assert not runs(511) and not runs(511, **fejer)  # Vulkan: the lane sums on every grid
    assert not runs(255, dtype="float64", **fejer) and not runs(255, recurrence="standard")
    assert runs(63, "cuda") and runs(100, "cuda", nlat=300)
    assert not runs(511, "cuda") and not runs(255, "cuda", nlat=513) and not runs(767, "cuda")
    assert not runs(720, "cuda", mmax=719, nlat=721, nphi=1440, grid="equiangular")
    assert not runs(1023, "cuda") and not runs(63, "cuda", fields_per_thread=4)
    shape = geometry.ishioka_analys_shape(Plan.create(767, target="cuda", kernels="mlir"))
    assert (shape["kp"], shape["nw"]) == (2, 6)


def test_lanes64_analysis_serves_cuda_grids_of_more_than_384_pairs_or_in_segments():
    # float32, one field per thread, the "ishioka" analysis, CUDA, no seed below level -1
    # (lmax 2047: level -1), more than 384 pairs or in segments; 8 pairs per thread in
    # workgroups of whole warps, 128 threads at most (chunks of 1024 pairs past that); spans
    # of 64 steps where the sums fit 48 KB (64 threads), else 32
    def plan(lmax, target="cuda", **kw):
        return Plan.create(lmax, target=target, kernels="mlir", **kw)

    def shape(p):
        v = kernels_mlir.stage_values(p, template_values(p))["leg_analys"]
        return v["wg"], v["chunk"], v["span"]

    def runs(p):
        return p.variant_names["leg_analys"] in ("lanes64", "lanes64_segments")

    assert runs(plan(1023)) and runs(plan(767)) and runs(plan(2047))
    assert runs(plan(720, mmax=719, nlat=721, nphi=1440, grid="equiangular"))
    assert geometry.lowest_level(plan(2047)) == -1
    assert not runs(plan(1023, fields_per_thread=4))
    assert not runs(plan(1023, dtype="float64")) and not runs(plan(1023, recurrence="standard"))
    assert runs(plan(1023, "vulkan")) and runs(plan(127, "vulkan"))  # Gauss: auto's too
    assert runs(plan(1023, "vulkan", grid="fejer"))  # every Vulkan grid
    assert runs(plan(720, "vulkan", mmax=719, nlat=721, nphi=1440, grid="equiangular"))
    assert shape(plan(1023)) == (64, 512, 64) and shape(plan(2047)) == (128, 1024, 32)
    assert shape(plan(600, nlat=2200)) == (128, 1024, 32)  # 1100 pairs: two chunks
    assert segment_steps(plan(1023)) == 0
    assert plan(1023).analys_tables == plan(63).analys_tables  # the Ishioka analyses' tables
    # a copy of @step and of the chunk's loop for counts of pairs per thread: kp / 2 .. kp in
    # workgroups of 128 threads, else 3 kp / 4 and kp with 8 pairs per thread, else kp; the
    # order's pairs past the polar ones it skips take the fewest that hold them
    for lmax, counts in ((2047, [4, 5, 6, 7, 8]), (1023, [6, 8]), (511, [6, 8]), (255, [4]),
                         (127, [2])):
        p = plan(lmax)
        text = kernels_mlir.render_stage(p, "leg_analys", template_values(p))
        assert [n for n in range(1, 9) if f"func.func private @step{n}(" in text] == counts
    # at most 384 pairs: segments of steps(lmax, 0) / 4 - 1 steps, at least 15, from restart
    # tables; fewer pairs per thread where one warp holds the grid
    assert [segment_steps(plan(lmax)) for lmax in (127, 255, 511, 767)] == [15, 31, 63, 95]
    assert segment_steps(plan(720, mmax=719, nlat=721, nphi=1440, grid="equiangular")) == 89
    assert runs(plan(127)) and runs(plan(511)) and not runs(plan(63))
    assert segment_steps(plan(63)) == 0
    assert segment_steps(plan(511, "vulkan", recurrence="ishioka")) == 0
    assert segment_steps(plan(511, fields_per_thread=4)) == 0
    assert segment_steps(plan(511, dtype="float64")) == 0
    assert segment_steps(plan(255, nlat=769)) == 0 and runs(plan(255, nlat=769))  # 385 pairs
    assert shape(plan(511)) == (32, 256, 32) and shape(plan(255)) == (32, 128, 32)
    assert shape(plan(127)) == (32, 64, 32)
    assert plan(511).analys_tables == (*plan(63).analys_tables[:-1], "restart_rows", "restart",
                                       "twiddle64")
    rows, nrows = ishioka.segment_rows(511, 511, 63)
    assert rows.shape == (512,) and nrows == sum(-(-(256 - m // 2) // 63) - 1 for m in range(512))
    assert device_tables(plan(511))["restart"].shape == (nrows * 256, 2)


def test_tensor_cores_serve_float32_batches_of_the_ishioka_recurrence_on_cuda():
    # synthesis from 256 latitude pairs (lmax 511), analysis from 256 to 512 (one warp of 32
    # pairs each, 16 at most: lmax 1023); four fields per thread, float32, CUDA
    def plan(lmax, target="cuda", **kw):
        kw = {"fields_per_thread": 4, "recurrence": "ishioka", **kw}
        return Plan.create(lmax, target=target, kernels="mlir", **kw)

    assert kernels(plan(511)) == kernels(plan(1023)) == (True, True)
    assert kernels(plan(1100)) == (True, False)  # 551 pairs
    assert kernels(plan(509)) == (False, False)  # 255 pairs
    assert kernels(plan(1023, fields_per_thread=2)) == (False, False)
    assert kernels(plan(1023, dtype="float64")) == (False, False)
    assert kernels(plan(1023, "vulkan")) == (False, False)
    assert kernels(plan(1023, recurrence="standard")) == (False, False)
    # "auto": the synthesis keeps the float32 scheme, the analysis runs on tensor cores where
    # it can (reading the chain table); elsewhere both the float32 scheme
    auto = plan(1023, recurrence="auto")
    assert (auto.recurrence, auto.analys_recurrence, kernels(auto)) == ("standard", "ishioka",
                                                                        (False, True))
    assert "chain" in auto.analys_tables and "chain" not in auto.synth_tables
    assert "chain" in device_tables(auto) and "coef" in auto.synth_tables
    for other in (plan(1100, recurrence="auto"), plan(127, recurrence="auto"),
                  plan(1023, recurrence="auto", fields_per_thread=2),
                  plan(1023, recurrence="auto", dtype="float64"),
                  plan(1023, "vulkan", recurrence="auto")):
        assert other.analys_recurrence == "standard"
    # 301 pairs of an odd grid: ten warps; its analysis reads the chain table
    odd = plan(600, nlat=601, nphi=1200, mmax=500)
    assert kernels(odd) == (True, True) and "chain" in odd.analys_tables
    values = kernels_mlir.stage_values(odd, template_values(odd))["leg_analys"]
    assert (values["nw"], values["wg"]) == (10, 320)


@pytest.mark.parametrize("kw", [dict(fields_per_thread=2), dict(fields_per_thread=4),
                                dict(dtype="float64"),
                                dict(dtype="float64", nlat=49, nphi=50, grid="equiangular")])
def test_ishioka_recurrence_variants(vulkan, rng, kw):
    mod = build(24 if "grid" in kw else 47, recurrence="ishioka", **kw)
    check_plan(mod, rng, batch=(5,))  # 5 fields: one partial group


@pytest.mark.parametrize("batch", [5, 21])
def test_ishioka_synthesis_of_the_fields_past_whole_groups(vulkan, rng, batch):
    # Where the synthesis runs on tensor cores (CUDA), leg_synth_ishioka.mlir synthesises the
    # fields past the whole groups of 16 (REST_STAGE, dispatched after the tensor cores'
    # kernel). The Ishioka variant's parameter past_groups=16 builds that kernel as the
    # module's only synthesis: it writes fields 16 floor(B / 16) .. B - 1 (the others' F it
    # leaves as it found it). On device arrays: the fields before those hold whatever the
    # buffer held, which a numpy result would refuse where it is not finite.
    mod = build(47, fields_per_thread=4,
                variants={"leg_synth": {"name": "ishioka", "past_groups": 16}})
    p, first = mod.plan, batch // 16 * 16
    q = random_coefficients(rng, 47, 47, (batch,))
    q_dev = mod.upload(q.astype(np.complex64).view(np.float32).reshape(batch, p.nlm, 2))
    f = mod.to_numpy(mod.synth(q_dev, out=mod.empty((batch, p.nlat, p.nphi))))[first:]
    assert rel_l2(f, reference.synth(q[first:], 47, 47, p.make_grid())) <= TOL


def test_cuda_batch_synthesis_takes_whole_groups_on_tensor_cores_and_the_rest_after():
    # one synthesis call, two dispatches in place into F: leg_synth_mma.mlir over
    # floor(B / 16) groups of 16 fields, then leg_synth_ishioka.mlir over the B mod 16 past
    # them, four per thread (where there are none, one row of workgroups that run nothing)
    plan = Plan.create(1023, target="cuda", kernels="mlir", fields_per_thread=4,
                       recurrence="ishioka")
    text = codegen.render(plan)
    synth = text[text.index("@synth_impl"):text.index("@analys_impl")]
    assert synth.count("flow.dispatch") == 3
    assert synth.index("@leg_synth::") < synth.index(f"@{REST_STAGE}::")
    assert "affine_map<()[s0] -> (s0 floordiv 16, 1)>" in text
    assert "affine_map<()[s0] -> ((s0 mod 16) ceildiv 4, 1)>" in text
    assert text.count("%gy = arith.select %some, %mcg, %one : index") == 2
    assert plan.describe().startswith("tensor cores, whole groups of 16")


# plan shapes compiled for the targets without a device here (every kernel variant; the
# sizes reach the kernels as push constants, only the grids are compiled in)
COMPILE_ONLY = [
    dict(lmax=0),
    dict(lmax=127, fields_per_thread=4),
    dict(lmax=40, mmax=17, nlat=45, nphi=80),
    dict(lmax=24, nlat=49, nphi=50, grid="equiangular", fields_per_thread=4),
    dict(lmax=15, fields_per_thread=2),
]
CUDA_ONLY = [  # Metal GPUs have no float64
    dict(lmax=63, dtype="float64"),
    dict(lmax=31, dtype="float64", fields_per_thread=4),
    # two pairs x four fields per synthesis thread; the analysis's lane sums, and ("auto") on
    # tensor cores
    dict(lmax=1023, fields_per_thread=4, recurrence="standard"),
    dict(lmax=1023, fields_per_thread=4),
    # the float64 recurrence and FFT, CUDA's default for one field per thread; its analysis
    # with float64 lane sums (more than 384 pairs; lmax 255: in segments)
    dict(lmax=1023),
    dict(lmax=255),
    dict(lmax=40, mmax=17, nlat=45, nphi=80, recurrence="standard"),
    dict(lmax=31, fields_per_thread=2, recurrence="ishioka"),
    # the synthesis on tensor cores: an odd grid (the equator row), mmax < lmax
    dict(lmax=600, mmax=500, nlat=601, nphi=1002, fields_per_thread=4, recurrence="ishioka"),
    # the Ishioka analysis with transposed sums (lmax 63: no segments); float64 lane sums in
    # segments from restart tables (256 pairs; 361 on an odd grid)
    dict(lmax=63),
    dict(lmax=511),
    dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular"),
]


def test_cuda_float64_analysis_shares_a_recurrence_among_two_fields_at_most():
    # four float64 fields per thread took 244 registers in the analysis (BENCHMARKS.md)
    def nf(dtype, fields):
        return mlir_legendre.analysis_fields(Plan.create(
            31, target="cuda", kernels="mlir", dtype=dtype, fields_per_thread=fields))[0]
    assert (nf("float64", 4), nf("float64", 2), nf("float64", 1)) == (2, 2, 1)
    assert nf("float32", 4) == 4


@pytest.mark.parametrize("kw", COMPILE_ONLY + CUDA_ONLY,
                         ids=lambda kw: "-".join(f"{k}{v}" for k, v in kw.items()))
def test_cuda_module_compiles(kw):
    plan = Plan.create(target="cuda", kernels="mlir", **kw)
    vmfb = codegen.compile_plan(plan)
    # the PTX of the four stages (one module each; the synthesis on tensor cores two), for
    # sm_80: JIT-compiled on newer GPUs
    assert vmfb.count(b".visible .entry") == 4 + mma_synthesis(plan)
    assert b".target sm_80" in vmfb
    # lane sums (warp shuffles) in the float32 scheme's analysis with two fields per thread
    # or more, and over lane pairs with one field on float32 grids of 385-512 pairs; float64
    # lane sums in the Ishioka analysis of one float32 field on more than 384 pairs (lmax
    # 1023 here) or in segments (lmax 511, 721 x 1440: at least 15 steps each, a quarter of
    # order 0's less one); none in the analysis on tensor cores (below)
    scheme = kernels_mlir.stage_template(plan, "leg_analys").name == "leg_analys.mlir"
    lanes = mlir_legendre.analysis_fields(plan)[1] if scheme else 1
    pairs = plan.dtype == "float32" and 385 <= plan.npairs <= 512
    assert lanes == ((2 * min(plan.fields_per_thread, 2 if plan.dtype == "float64" else 4)
                      if plan.fields_per_thread > 1 else 2 if pairs else 1) if scheme else 1)
    segments = plan.npairs <= 384 and (plan.lmax // 2 + 1) // 4 - 1 >= 15
    lanes64 = (plan.dtype == "float32" and plan.fields_per_thread == 1
               and (plan.npairs > 384 or segments) and plan.analys_recurrence == "ishioka")
    assert (plan.variant_names["leg_analys"] in ("lanes64", "lanes64_segments")) == lanes64
    assert (b"shfl.sync.bfly" in vmfb) == (lanes > 1 and scheme or lanes64)
    # float64 arithmetic: float64 plans, and the synthesis of the "ishioka" recurrence (CUDA's
    # default with one field per thread)
    default = "ishioka" if plan.fields_per_thread == 1 else "standard"
    assert plan.recurrence == kw.get("recurrence", default)
    # the Fourier stages in float64 on float32 buffers wherever a float32 plan's synthesis
    # runs the float64 recurrence
    fft = "float64" if plan.dtype == "float32" and plan.recurrence == "ishioka" else "fft"
    assert plan.variant_names["fft_synth"] == plan.variant_names["fft_analys"] == fft
    assert (b"fma.rn.f64" in vmfb) == (plan.dtype == "float64"
                                       or "ishioka" in (plan.recurrence, plan.analys_recurrence))
    # tensor cores (3xTF32) in the synthesis of float32 batches of the "ishioka" recurrence
    # on grids of 256 pairs and more (whose seeds all start live: every grid here), and in
    # their analysis up to 512 pairs (with "auto", the analysis alone): 48 products in each
    # kernel's loop
    batch = plan.dtype == "float32" and plan.fields_per_thread == 4 and plan.npairs >= 256
    tensor = plan.recurrence == "ishioka" and batch
    assert mma_synthesis(plan) == tensor
    auto = "recurrence" not in kw and batch and plan.npairs <= 512
    assert mma_analysis(plan) == ((tensor or auto) and plan.npairs <= 512)
    assert (plan.recurrence == "standard" and plan.analys_recurrence == "ishioka") == auto
    assert (vmfb.count(b"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
            == 48 * tensor + 48 * mma_analysis(plan))


@pytest.mark.parametrize("kw", COMPILE_ONLY, ids=lambda kw: "-".join(f"{k}{v}" for k, v in kw.items()))
def test_metal_module_compiles_and_embeds_msl(kw, tmp_path):
    plan = Plan.create(target="metal", kernels="mlir", **kw)
    vmfb = codegen.compile_plan(plan, extra_args=[f"--iree-hal-dump-executable-binaries-to={tmp_path}"])
    # one MSL source per stage, embedded (the Metal runtime compiles it at load)
    sources = {p.name: p.read_text() for p in tmp_path.glob("*.metal")}
    for stage in ("leg_synth", "fft_synth", "fft_analys", "leg_analys"):
        text = next((t for name, t in sources.items() if stage in name), None)
        assert text is not None, f"no MSL for {stage}: {sorted(sources)}"
        assert "kernel void" in text and text.encode() in vmfb
    analys = next(t for name, t in sources.items() if "leg_analys" in name)
    assert "simd_sum" not in analys  # rows summed in workgroup memory, no subgroup sum
