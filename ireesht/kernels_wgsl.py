"""The WGSL kernel family: hand-written WGSL compiled to the shipped ``.spv`` objects
(``kernels/wgsl``), dispatched with ``hal.dispatch.extern`` (``mlir/ops.mlir`` with the clauses of
``mlir/extern_wgsl.mlir``)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ireesht.plan import STAGES, SYNTH_WG, Plan, analys_fields_per_thread
from ireesht.resources import data_dir

SYNTH_PAIRS = 2  # KP of leg_synth.wgsl: latitude pairs per thread


def kernel_objects(plan: Plan) -> dict[str, str]:
    """The .spv file of each stage for this plan's variants."""
    sg = 1 if plan.subgroups else 0
    return {
        "leg_synth": f"leg_synth_nf{plan.fields_per_thread}.spv",
        "leg_analys": f"leg_analys_nf{analys_fields_per_thread(plan)}_sg{sg}.spv",
        "fft_synth": "fft_synth.spv",
        "fft_analys": "fft_analys.spv",
    }


def kernels_dir() -> Path:
    """Directory holding the shipped ``.spv`` kernels (package ``ireesht.kernels.wgsl``)."""
    return data_dir("ireesht.kernels.wgsl", "kernels/wgsl", "*.spv")


def parts(plan: Plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (see ``ireesht.pipeline.render``):
    ``hal.dispatch.extern`` with the clauses of mlir/extern_wgsl.mlir."""
    from ireesht.pipeline import read_sections, stage_ops

    synth_gx = -(-plan.npairs // (SYNTH_WG * SYNTH_PAIRS))  # leg_synth's grid x
    sections = read_sections("extern_wgsl.mlir",
                             {**values, **kernel_objects(plan), "synth_gx": synth_gx})
    clauses = {s: sections[f"clauses_{s}"] for s in STAGES}
    ops = stage_ops(values, {s: 'hal.dispatch.extern "main"[%b]' for s in STAGES}, clauses)
    return {"aliases": sections["aliases"], "module_attrs": "", "executables": "", **ops}


def compile_flags(plan: Plan) -> list[str]:
    return ["--iree-hal-target-device=vulkan",
            f"--iree-hal-executable-object-search-path={kernels_dir()}"]


def digest(plan: Plan) -> str:
    """Hash of the kernel binaries a plan links, so a regenerated kernel misses the cache."""
    h = hashlib.sha256()
    for name in sorted(kernel_objects(plan).values()):
        h.update((kernels_dir() / name).read_bytes())
    return h.hexdigest()
