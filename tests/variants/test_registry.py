"""The variant registry and plans: every variant declared once, chosen once, validated."""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

import pytest
from checks import check_plan

import ireesht
from ireesht import registry
from ireesht.codegen.c import kernels_dir as c_dir
from ireesht.codegen.mlir.common import kernels_dir as mlir_dir
from ireesht.codegen.wgsl import kernels_dir as wgsl_dir
from ireesht.plan import Plan

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("v", registry.VARIANTS, ids=lambda v: f"{v.family}-{v.stage}-{v.name}")
def test_every_variant_has_its_template_and_values_function(v):
    if not v.template:  # the theta step in linalg ops (ireesht.codegen.theta)
        assert v.stage == "theta_analys" and not v.values
    elif v.family == "mlir":
        assert (mlir_dir() / v.template).exists()
        module, _, name = v.values.partition(":")
        assert callable(getattr(importlib.import_module(f"ireesht.codegen.{module}"), name))
    elif v.family == "wgsl":
        names = {v.template.format(nf=nf) for nf in registry.FIELDS_PER_THREAD}
        assert all((wgsl_dir() / n).exists() for n in names)
    else:
        for f64 in ("", "_f64"):
            assert (c_dir() / v.template.format(f64=f64, baseline="x86-64-v3")).exists()
    assert set(v.targets) <= set(registry.TARGETS) and set(v.dtypes) <= set(registry.DTYPES)
    assert v.reason and v.evidence and v.label


def test_docs_variants_md_is_the_registry():
    # regenerate with: python -m ireesht variants > docs/variants.md
    assert (REPO / "docs" / "variants.md").read_text() == registry.docs_table()


def test_each_family_stage_has_a_variant_that_runs_every_plan():
    for target in registry.TARGETS.values():
        for family in target.families:
            for dtype in target.dtypes:
                if family == "wgsl" and dtype == "float64":
                    continue
                plan = Plan.create(31, target=target.name, kernels=family, dtype=dtype)
                assert [s for s, _, _ in plan.variants] == list(registry.STAGES)


@pytest.mark.parametrize("kw, variants", [
    (dict(target="cuda"), {"leg_synth": "ishioka", "fft_synth": "float64",
                           "fft_analys": "float64", "leg_analys": "lanes64"}),
    (dict(target="cuda", lmax=719, mmax=719, nlat=721, nphi=1440, grid="equiangular"),
     {"leg_synth": "ishioka", "fft_synth": "float64", "fft_analys": "float64",
      "theta_analys": "lowrank"}),
    # the theta step's kernels: float32 low rank only (float64 plans keep the folded step)
    (dict(target="vulkan", lmax=255, nlat=257, nphi=512, grid="equiangular"),
     {"theta_analys": "lowrank"}),
    (dict(target="cuda", lmax=255, nlat=257, nphi=512, grid="equiangular", dtype="float64"),
     {"theta_analys": "linalg"}),
    (dict(target="cuda", lmax=640, nlat=721, nphi=1440, grid="equiangular"),
     {"theta_analys": "linalg"}),  # rank 92 > nlat / 8: the folded step
    (dict(target="cuda", lmax=511), {"leg_synth": "ishioka", "leg_analys": "lanes64_segments"}),
    (dict(target="cuda", lmax=63), {"leg_synth": "ishioka", "leg_analys": "ishioka"}),
    (dict(target="cuda", fields_per_thread=4), {"leg_synth": "standard", "fft_synth": "fft",
                                                "leg_analys": "tensor_cores"}),
    (dict(target="cuda", fields_per_thread=4, recurrence="ishioka"),
     {"leg_synth": "tensor_cores", "fft_synth": "float64", "leg_analys": "tensor_cores"}),
    (dict(target="cuda", fields_per_thread=2), {"leg_synth": "standard",
                                                "leg_analys": "lane_sums"}),
    (dict(target="cuda", dtype="float64"), {"leg_synth": "ishioka", "fft_synth": "fft",
                                            "leg_analys": "rows"}),
    (dict(target="cuda", recurrence="standard"), {"leg_synth": "standard", "fft_synth": "fft"}),
    # vector plans' own MLIR reads the plan's twiddle table
    (dict(target="cuda", transform="vector", lmax=255), {"leg_synth": "ishioka",
                                                         "fft_synth": "fft"}),
    # Vulkan: the float64 recurrence on every grid, lane sums of four pairs per thread
    (dict(target="vulkan"), {"leg_synth": "ishioka", "fft_synth": "float64",
                             "fft_analys": "float64", "leg_analys": "lanes64"}),
    (dict(target="vulkan", lmax=127), {"leg_synth": "ishioka", "leg_analys": "lanes64"}),
    (dict(target="vulkan", lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular"),
     {"leg_synth": "ishioka", "fft_synth": "float64", "leg_analys": "lanes64"}),
    (dict(target="vulkan", fields_per_thread=4), {"leg_synth": "standard", "leg_analys": "rows"}),
    (dict(target="vulkan", recurrence="standard"), {"leg_synth": "standard", "fft_synth": "fft",
                                                    "leg_analys": "rows"}),
    (dict(target="vulkan", lmax=255, nlat=300, grid="fejer"),
     {"leg_synth": "ishioka", "fft_synth": "float64", "leg_analys": "lanes64"}),
    (dict(target="vulkan", kernels="wgsl"), {"leg_synth": "standard", "leg_analys": "subgroup"}),
    (dict(target="metal"), {"leg_synth": "standard", "leg_analys": "rows"}),
    (dict(target="cpu"), {"leg_synth": "ishioka", "fft_synth": "float64",
                          "fft_analys": "float64", "leg_analys": "ishioka"}),
    (dict(target="cpu", lmax=1024), {"leg_synth": "ishioka", "leg_analys": "c"}),
    (dict(target="cpu", recurrence="standard"), {"leg_synth": "c", "fft_synth": "c",
                                                 "fft_analys": "c", "leg_analys": "c"}),
    (dict(target="cpu", dtype="float64"), {"leg_synth": "c", "fft_synth": "c",
                                           "fft_analys": "c", "leg_analys": "c"}),
    (dict(target="cpu", transform="vector", lmax=255), {"leg_synth": "ishioka",
                                                        "fft_synth": "c",
                                                        "leg_analys": "ishioka"}),
])
def test_auto_picks_the_measured_variant(kw, variants):
    plan = Plan.create(**{"lmax": 1023, **kw})
    assert {s: plan.variant_names[s] for s in variants} == variants


def test_forced_variants_and_their_parameters():
    plan = Plan.create(63, target="vulkan", recurrence="ishioka",
                       variants={"leg_analys": {"name": "lanes64", "wg": 32, "pairs": 4}})
    assert plan.variant_names["leg_analys"] == "lanes64"
    assert plan.params("leg_analys") == {"wg": 32, "pairs": 4, "live_bits": 800}
    assert "subgroup_shuffle" in plan.needs()
    # the synthesis keeps its own choice
    assert plan.variant_names["leg_synth"] == "ishioka"


@pytest.mark.parametrize("variants, match", [
    ({"leg_synthesis": "ishioka"}, r"variants: stages \['leg_synthesis'\]: expected some of"),
    ({"leg_analys": "fast"}, r"variants\['leg_analys'\]='fast': expected one of \['tensor_cores'"),
    ({"leg_analys": {"name": "lanes64", "threads": 3}},
     r"parameters \['threads'\] of 'lanes64': expected some of \['live_bits', 'pairs', 'wg'\]"),
    ({"leg_analys": {"name": "lanes64", "wg": 32.0}}, r"\['wg'\]=32.0: expected an integer"),
    ({"leg_analys": "tensor_cores"}, r"variants\['leg_analys'\]='tensor_cores' cannot run "
                                     r"target='vulkan'.*expected one of \['lanes64_segments'"),
    # eight float64 pairs per thread (CUDA's) are no SPIR-V vector: four at most
    ({"leg_analys": {"name": "lanes64", "pairs": 8}},
     r"variants\['leg_analys'\]='lanes64' cannot run target='vulkan'"),
    ({"leg_analys": 3}, r"expected a variant name or a dict"),
])
def test_bad_variants_are_refused_by_name(variants, match):
    with pytest.raises(ValueError, match=match):
        Plan.create(255, target="vulkan", variants=variants)


def test_a_plan_is_frozen_and_its_dict_roundtrips():
    plan = Plan.create(40, mmax=17, nlat=45, nphi=80, target="cuda", fields_per_thread=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.lmax = 3
    assert Plan.from_dict(plan.as_dict()) == plan


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(lmax=-3), "lmax=-3"),
    (lambda d: d.update(nphi=10), r"nphi=10: expected nphi >= 2\*mmax"),
    (lambda d: d.update(dtype="float16"), "dtype='float16'"),
    (lambda d: d.update(target="metal"), r"variants\['leg_synth'\]='ishioka' cannot run "
                                         r"target='metal'"),
    (lambda d: d["variants"].update(leg_analys={"name": "tensor_cores"}),
     r"variants\['leg_analys'\]='tensor_cores' cannot run"),
    (lambda d: d.pop("variants"), r"fields \['variants'\] missing"),
    (lambda d: d.update(colour="red"), r"\['colour'\] unknown"),
    (lambda d: d.update(fields_per_thread=True), "fields_per_thread=True"),
    (lambda d: d.update(variants=[]), "plan.variants=.*expected"),
])
def test_a_plan_from_a_dict_is_checked_as_one_from_compile(edit, match):
    d = Plan.create(127, target="cuda").as_dict()
    edit(d)
    with pytest.raises(ValueError, match=match):
        Plan.from_dict(d)


def test_recurrence_ishioka_needs_a_kernel_that_runs_it():
    with pytest.raises(ValueError, match="recurrence='ishioka' runs in float64 in the mlir "
                       "kernels on cuda or vulkan, and in float32 plans of the cpu target; "
                       "expected recurrence='standard' with target='metal'"):
        Plan.create(31, target="metal", recurrence="ishioka")


def test_build_takes_forced_variants_into_the_artifact(vulkan, tmp_path, rng):
    out = ireesht.build(15, tmp_path / "a", targets=("vulkan:mlir",),
                        variants={"leg_analys": "lane_sums"})
    mod = ireesht.load(out, target="vulkan")
    assert mod.info["variants"]["leg_analys"] == "lane_sums"
    check_plan(mod, rng)
    with pytest.raises(ValueError, match="variants\\['leg_analys'\\]='lanes64'"):
        ireesht.build(15, tmp_path / "b", targets=("vulkan:wgsl",),
                      variants={"leg_analys": "lanes64"})
