"""The WGSL kernel family: hand-written WGSL compiled to the shipped ``.spv`` objects
(``kernels/wgsl``), dispatched with ``hal.dispatch.extern`` (``mlir/ops.mlir`` with the clauses of
``mlir/extern_wgsl.mlir``)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ireesht.codegen.mlir.common import SYNTH_WG
from ireesht.codegen.pipeline import read_sections, stage_ops
from ireesht.codegen.resources import data_dir
from ireesht.registry import KERNEL_STAGES

SYNTH_PAIRS = 2  # KP of leg_synth.wgsl: latitude pairs per thread


def analysis_fields(plan) -> int:
    """Fields per thread of the analysis: the plan's with subgroup sums; one in the workgroup
    tree, which keeps one group per thread and has workgroup memory for one field only."""
    return plan.fields_per_thread if plan.variant_names["leg_analys"] == "subgroup" else 1


def kernel_objects(plan) -> dict[str, str]:
    """The .spv file of each stage: its variant's template, for the plan's fields per
    thread."""
    return {s: plan.variant(s).template.format(nf=plan.fields_per_thread)
            for s in KERNEL_STAGES}


def kernels_dir() -> Path:
    """Directory holding the shipped ``.spv`` kernels (package ``ireesht.kernels.wgsl``)."""
    return data_dir("ireesht.kernels.wgsl", "kernels/wgsl", "*.spv")


def parts(plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (see ``ireesht.codegen.module.render``):
    ``hal.dispatch.extern`` with the clauses of mlir/extern_wgsl.mlir."""
    synth_gx = -(-plan.npairs // (SYNTH_WG * SYNTH_PAIRS))  # leg_synth's grid x
    sections = read_sections("extern_wgsl.mlir",
                             {**values, **kernel_objects(plan), "synth_gx": synth_gx,
                              "synth_nf": plan.fields_per_thread,
                              "analys_nf": analysis_fields(plan)})
    clauses = {s: sections[f"clauses_{s}"] for s in KERNEL_STAGES}
    ops = stage_ops(values, {s: 'hal.dispatch.extern "main"[%b]' for s in KERNEL_STAGES}, clauses)
    return {"aliases": sections["aliases"], "module_attrs": "", "executables": "", **ops}


def compile_flags(plan) -> list[str]:
    return ["--iree-hal-target-device=vulkan",
            f"--iree-hal-executable-object-search-path={kernels_dir()}"]


def digest(plan) -> str:
    """Hash of the kernel binaries a plan links, so a regenerated kernel misses the cache."""
    h = hashlib.sha256()
    for name in sorted(kernel_objects(plan).values()):
        h.update((kernels_dir() / name).read_bytes())
    return h.hexdigest()
