"""The MLIR kernel family: the four stages hand-written in MLIR (``kernels/mlir``), compiled by
IREE itself for CUDA, Metal and Vulkan from one source per stage.

Each stage file is a ``string.Template`` holding one ``hal.executable`` (variant ``@v``,
export ``@main``) whose function carries the ``BaseLowering`` pipeline, so IREE lowers the
kernel as written. The plan's variant of each stage names its template and the function that
computes its substitutions (``registry.Variant.values``); docs/design.md describes the
placeholders every template shares.
"""

from __future__ import annotations

import hashlib
import importlib
import string
from pathlib import Path

from ireesht.codegen.mlir import fft, ishioka, mma, theta
from ireesht.codegen.mlir.common import FLOAT_FORMATS, executable_target, kernels_dir
from ireesht.codegen.pipeline import split_sections, stage_ops
from ireesht import registry
from ireesht.registry import KERNEL_STAGES, STAGES


def _kernels(plan) -> tuple[str, ...]:
    """The stages whose variants are kernels of this family (a template): the four, and the
    theta step where it takes kernels."""
    return tuple(s for s in STAGES if plan.variant(s).template)


def stage_template(plan, stage: str) -> Path:
    """The template file of one stage: its variant's (``registry.Variant.template``); the
    fields past the tensor cores' whole groups (``mma.REST_STAGE``) take the Ishioka
    synthesis's."""
    if stage == mma.REST_STAGE:
        return kernels_dir() / registry.variant("mlir", "leg_synth", "ishioka").template
    return kernels_dir() / plan.variant(stage).template


def render_stage(plan, stage: str, values: dict) -> str:
    """The ``hal.executable`` text of one stage."""
    # a template's "// part:" sections after the kernel are pieces its values render
    text = stage_template(plan, stage).read_text().split("\n// part: ", 1)[0]
    return string.Template(text).substitute(stage_values(plan, values)[stage])


def _values_function(spec: str):
    """The function a registry row names, "module:function" under ireesht.codegen."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(f"ireesht.codegen.{module}"), name)


def stage_values(plan, values: dict, every_fft_pass: bool = False) -> dict[str, dict]:
    """The substitutions of each stage template: the plan's sizes (``values``), the target's
    (``executable_target``, ``FLOAT_FORMATS``) and those its variant's function computes; the
    Fourier stages with the FFT passes of the plan's row length only, or of every length
    (``fft.fft_pass_calls``)."""
    _, _, pipeline = executable_target(plan)
    common = {**values, **FLOAT_FORMATS[values["ft"]], "target": "#target", "pipeline": pipeline}
    core = split_sections((kernels_dir() / "legendre_core.mlir").read_text(), "part")
    out = {}
    for stage in _kernels(plan):
        fn = _values_function(plan.variant(stage).values)
        extra = {"every_fft_pass": every_fft_pass} if stage in fft.FFT_DIRECTIONS else {}
        out[stage] = fn(plan, {**common, "exe": stage}, core, **extra)
    if plan.variant_names["leg_synth"] == "tensor_cores":  # the fields past whole groups
        out[mma.REST_STAGE] = ishioka.synth_values(plan, {**common, "exe": mma.REST_STAGE},
                                                   core, past_groups=mma.MMA_FIELDS)
    return out


def parts(plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (``ireesht.codegen.pipeline.render``)."""
    device, target, _ = executable_target(plan)
    groups = plan.variant_names["leg_synth"] == "tensor_cores"
    stages = (*_kernels(plan), mma.REST_STAGE) if groups else _kernels(plan)
    executables = "\n".join(render_stage(plan, s, values) for s in stages)
    dispatch = {s: f"flow.dispatch @{s}::@v::@main[%b]" for s in KERNEL_STAGES}
    ops = stage_ops(values, dispatch, {})
    if plan.variant("theta_analys").template:  # the theta step's kernels, not linalg ops
        ops["op_theta_analys"] = theta.dispatch(plan)
    if groups:
        # the whole groups of 16 fields on tensor cores into F_ws, then the rest into it
        whole = stage_ops({**values, "leg_synth_out": "F_groups"}, dispatch, {})
        rest = stage_ops({**values, "leg_synth_ws": "F_groups"},
                         {**dispatch,
                          "leg_synth": f"flow.dispatch @{mma.REST_STAGE}::@v::@main[%b]"}, {})
        ops["op_leg_synth"] = whole["op_leg_synth"] + "\n" + rest["op_leg_synth"]
    return {
        "aliases": f"#target = {target}",
        "module_attrs": f'attributes {{hal.device.targets = [#hal.device.target<"{device}", '
                        f"[#target]> : !hal.device]}}",
        "executables": executables,
        **ops,
    }


def compile_flags(plan) -> list[str]:
    """iree-compile flags; the target itself is in the module (``hal.device.targets``)."""
    flags = [f"--iree-hal-target-device={plan.target}"]
    if plan.target == "cuda":
        # linking would merge the stages into one CUDA module, where their exports, all
        # named @main, collide
        flags.append("--iree-hal-link-executables=false")
    if plan.target == "metal":
        # embed MSL source (compiled by the Metal runtime at load), also when compiling on macOS
        flags.append("--iree-metal-compile-to-metallib=false")
    return flags


def digest(plan) -> str:
    """Hash of the kernel templates, so an edited kernel misses the cache."""
    h = hashlib.sha256()
    for path in sorted(kernels_dir().glob("*.mlir")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
