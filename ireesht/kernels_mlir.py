"""The MLIR kernel family: the four stages hand-written in MLIR (memref/scf/gpu/arith/math/
vector, ``kernels/mlir``), compiled by IREE itself for CUDA, Metal and Vulkan from one source
per stage.

Each stage file is a ``string.Template`` holding one ``hal.executable`` (variant ``@v``,
export ``@main``) whose function carries the ``BaseLowering`` pipeline, so IREE lowers the
kernel as written and does not tile it. The dispatches are ``flow.dispatch`` ops
(``mlir/ops.mlir``) with the operands of kernels/CONTRACT.md.

Placeholders of the stage files, besides ``ireesht.pipeline.template_values``:
``exe`` (the executable's symbol), ``target`` (the executable target alias), ``pipeline``
(the translation pipeline), ``it`` (the integer of the width of ``ft``) and the
bit layout of ``ft`` (``exp_bias``, ``mant_bits``, ``exp_mask``, ``frexp_keep``,
``half_bits``, ``frexp_off``); the Legendre stages also take ``nf`` (fields per thread),
``kp`` (latitude pairs per thread), ``legendre_core`` (``legendre_core.mlir``) and, for
analysis, ``span`` (degrees per span), ``part`` (its partial sums) and ``group_ops`` (a
section of ``group_ops.mlir``: how a group of threads sums); the Fourier stages take
``fft_core`` (``fft_core.mlir``, the FFT passes, in the stage's direction).
"""

from __future__ import annotations

import hashlib
import string
from pathlib import Path

from ireesht.pipeline import split_sections
from ireesht.plan import STAGES, SYNTH_PAIRS_PER_THREAD, Plan, analys_fields_per_thread
from ireesht.resources import data_dir

ANALYS_PAIRS_PER_THREAD = 4  # KP of leg_analys.mlir
# The direction s of fft_core.mlir's FFT, exp(s 2 pi i k t / n): its sign, and the arith ops
# that add and subtract s times a term.
FFT_DIRECTIONS = {"fft_synth": dict(sign="+", plus_s="addf", minus_s="subf"),
                  "fft_analys": dict(sign="-", plus_s="subf", minus_s="addf")}
# The bit layout of each float type the templates take (IEEE 754), and the rescaling of the
# recurrence (ireesht/legendre.py): values carried as y 2^(S k), |y| < 2^T, with S and T
# such that the dropped values (below 2^(T - S)) are far below the type's rounding.
FLOAT_FORMATS = {
    "f32": dict(it="i32", exp_bias=127, mant_bits=23, exp_mask=0xFF,
                frexp_keep=-0x7F800001,  # 0x807fffff: sign and mantissa
                half_bits=0x3F000000,  # the exponent of 0.5
                frexp_off=126, scale_log2=6, threshold_bits=32),
    "f64": dict(it="i64", exp_bias=1023, mant_bits=52, exp_mask=0x7FF,
                frexp_keep=-0x7FF0000000000001,  # 0x800fffffffffffff
                half_bits=0x3FE0000000000000,
                frexp_off=1022, scale_log2=8, threshold_bits=128),
}
for _f in FLOAT_FORMATS.values():
    _f.update(scale_bits=1 << _f["scale_log2"],
              threshold=repr(2.0 ** _f["threshold_bits"]),  # exact: powers of two
              shrink=repr(2.0 ** -(1 << _f["scale_log2"])))

_WGP = ("wgp = <compute = {compute}, storage = {storage}, subgroup = {subgroup}, "
        "dot = none, mma = [], subgroup_size_choices = [{sg}], "
        "max_workgroup_sizes = [{maxwg}, {maxwg}, 64], max_thread_count_per_workgroup = {maxwg}, "
        "max_workgroup_memory_bytes = {smem}, max_workgroup_counts = [65535, 65535, 65535]>")


def kernels_dir() -> Path:
    """Directory of the stage templates (package ``ireesht.kernels.mlir``)."""
    return data_dir("ireesht.kernels.mlir", "kernels/mlir", "*.mlir")


def executable_target(plan: Plan) -> tuple[str, str, str]:
    """``(device, #hal.executable.target<...>, pipeline)`` for the plan's target.

    Vulkan gets a generic SPIR-V 1.3 target that any Vulkan 1.1 device runs (lavapipe, NVIDIA,
    ...), with subgroup arithmetic only when the plan uses subgroups and 64-bit types only
    for float64 plans; CUDA gets sm_80 (JIT-
    compiled on newer GPUs; ``--iree-cuda-target=sm_90`` breaks IREE 3.13 codegen); Metal an
    Apple GPU with 32-wide SIMD groups.
    """
    spirv = "#iree_gpu.spirv_pipeline<BaseLowering>"
    if plan.target == "cuda":
        wgp = _WGP.format(compute="fp64|fp32|int64|int32", storage="b64|b32",
                          subgroup="shuffle|arithmetic", sg=32, maxwg=1024, smem=166912)
        info = f'arch = "sm_80", features = "+ptx76", {wgp}'
        return ("cuda", f'#hal.executable.target<"cuda", "cuda-nvptx-fb", '
                f"{{iree_codegen.target_info = #iree_gpu.target<{info}>}}>",
                "#iree_gpu.pipeline<BaseLowering>")
    if plan.target == "metal":
        wgp = _WGP.format(compute="fp32|int32", storage="b32", subgroup="shuffle|arithmetic",
                          sg=32, maxwg=1024, smem=32768)
        info = f'arch = "apple", features = "spirv:v1.3,cap:Shader", {wgp}'
        return ("metal", f'#hal.executable.target<"metal-spirv", "metal-msl-fb", '
                f"{{iree_codegen.target_info = #iree_gpu.target<{info}>}}>", spirv)
    if plan.target == "vulkan":
        f64 = plan.dtype == "float64"
        wgp = _WGP.format(compute="fp64|fp32|int64|int32" if f64 else "fp32|int32",
                          storage="b64|b32" if f64 else "b32",
                          subgroup="shuffle|arithmetic" if plan.subgroups else "none",
                          sg=32, maxwg=128, smem=32768)
        info = f'arch = "", features = "spirv:v1.3,cap:Shader", {wgp}'
        return ("vulkan", f'#hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", '
                f"{{iree_codegen.target_info = #iree_gpu.target<{info}>}}>", spirv)
    raise ValueError(f"target={plan.target!r}: the mlir kernels build for cuda, metal, vulkan")


def group_variant(plan: Plan) -> str:
    """The section of group_ops.mlir the analysis kernel sums with: ``subgroup`` (SPIR-V
    subgroup arithmetic), ``warp`` (CUDA: xor shuffles over the 32 lanes) or ``thread``
    (no subgroups: every thread is its own group, summed in the workgroup tree)."""
    if not plan.subgroups:
        return "thread"
    return "warp" if plan.target == "cuda" else "subgroup"


def stage_values(plan: Plan, values: dict) -> dict[str, dict]:
    """The substitutions of each stage template (see the module doc)."""
    _, _, pipeline = executable_target(plan)
    if values["ft"] not in FLOAT_FORMATS:
        raise ValueError(f"dtype={plan.dtype!r}: the mlir kernels have no {values['ft']} layout yet")
    common = {**values, **FLOAT_FORMATS[values["ft"]], "target": "#target", "pipeline": pipeline}
    core = (kernels_dir() / "legendre_core.mlir").read_text()
    fft_core = (kernels_dir() / "fft_core.mlir").read_text()
    out = {}
    for stage in STAGES:
        v = {**common, "exe": stage}
        if stage == "leg_synth":
            v.update(nf=plan.fields_per_thread, kp=SYNTH_PAIRS_PER_THREAD)
        elif stage == "leg_analys":
            group_ops = split_sections((kernels_dir() / "group_ops.mlir").read_text(),
                                       "variant")[group_variant(plan)]
            # degrees per span: the partial sums (128 span complex values) take 16 KB of
            # workgroup memory, which leaves room on 32 KB devices (lavapipe, Apple)
            span = 16 if values["ft"] == "f32" else 8
            v.update(nf=analys_fields_per_thread(plan), kp=ANALYS_PAIRS_PER_THREAD,
                     span=span, part=128 * span,
                     group_ops=string.Template(group_ops).substitute(v))
        if "kp" in v:
            v["legendre_core"] = string.Template(core).substitute(v)
        if stage in FFT_DIRECTIONS:
            v["fft_core"] = string.Template(fft_core).substitute(v, **FFT_DIRECTIONS[stage])
        out[stage] = v
    return out


def render_stage(plan: Plan, stage: str, values: dict) -> str:
    """The ``hal.executable`` text of one stage."""
    text = (kernels_dir() / f"{stage}.mlir").read_text()
    return string.Template(text).substitute(stage_values(plan, values)[stage])


def parts(plan: Plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (see ``ireesht.pipeline.render``).

    A stage whose template is missing is left out of ``executables`` (its dispatch then
    fails to compile), so that a stage can be tried before the others exist.
    """
    from ireesht.pipeline import stage_ops

    device, target, _ = executable_target(plan)
    executables = "\n".join(render_stage(plan, s, values) for s in STAGES
                            if (kernels_dir() / f"{s}.mlir").exists())
    return {
        "aliases": f"#target = {target}",
        "module_attrs": f'attributes {{hal.device.targets = [#hal.device.target<"{device}", '
                        f"[#target]> : !hal.device]}}",
        "executables": executables,
        **stage_ops(values, {s: f"flow.dispatch @{s}::@v::@main[%b]" for s in STAGES}, {}),
    }


def compile_flags(plan: Plan) -> list[str]:
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


def digest(plan: Plan) -> str:
    """Hash of the kernel templates, so an edited kernel misses the cache."""
    h = hashlib.sha256()
    for path in sorted(kernels_dir().glob("*.mlir")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
