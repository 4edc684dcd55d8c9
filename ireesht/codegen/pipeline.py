"""The module template and its pieces: ``mlir/pipeline.mlir`` (the exported functions that
chain the four stage dispatches), ``mlir/ops.mlir`` (the dispatches) and the substitutions
every kernel family shares (the plan's sizes and its tables' parameters).

A kernel family (``ireesht.codegen.module.FAMILIES``) is a module with ``parts(plan, values)
-> dict`` (the MLIR text for the placeholders ``aliases``, ``module_attrs``, ``executables``,
``op_leg_synth``, ``op_fft_synth``, ``op_fft_analys``, ``op_leg_analys``),
``compile_flags(plan) -> list[str]`` and ``digest(plan) -> str`` (a hash of the kernel sources
or binaries, part of the cache key).
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from ireesht.codegen import nyquist, theta
from ireesht.codegen.resources import data_dir
from ireesht.numerics import fourier
from ireesht.tables import FLOAT_TYPES, table_shapes
from ireesht.registry import KERNEL_STAGES


def mlir_dir() -> Path:
    """Directory of the pipeline templates (package ``ireesht.mlir``)."""
    return data_dir("ireesht.mlir", "mlir", "pipeline.mlir")


def _tables(plan, fn: str, names: tuple[str, ...]) -> dict[str, str]:
    """The table parameters, arguments and types of function ``fn`` ("synth", "analys",
    "vsynth", "vanalys") in pipeline.mlir, and for synth / analys those of its Legendre and
    Fourier dispatches in ops.mlir (their variants' tables), for the tables ``names`` in
    order."""
    types = {k: f"tensor<{shape}x{et}>" for k, (shape, et) in table_shapes(plan).items()}
    values = {
        f"{fn}_table_params": ", ".join(f"%{n}: {types[n]}" for n in names),
        f"{fn}_table_args": ", ".join(f"%{n}" for n in names),
        f"{fn}_table_types": ", ".join(types[n] for n in names),
    }
    if fn not in ("synth", "analys"):  # the vector functions call synth / analys
        return values
    leg, fft = plan.stage_tables(f"leg_{fn}"), plan.stage_tables(f"fft_{fn}")
    return {
        **values,
        f"leg_{fn}_table_args": ", ".join(f"%{n}" for n in leg),
        f"leg_{fn}_table_types": ", ".join(types[n] for n in leg),
        f"fft_{fn}_table_args": ", ".join(f"%{n}" for n in fft),
        f"fft_{fn}_table_types": ", ".join(types[n] for n in fft),
        f"leg_{fn}_bindings": "\n".join(
            f"  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // {n}" for n in leg),
    }


def template_values(plan) -> dict:
    """The sizes every template may use (``${lmax}``, ``${npairs}``, ...), the tables of both
    functions (``_tables``), the plan's fingerprint (``Plan.fingerprint``), the scaling
    of its coefficients (``_scaling``) and the Nyquist order (``codegen.nyquist``). The sizes
    are the kernels' (``Plan.kernel_plan``: ``${mmax}``, ``${mc}``, ``${nlm}``); ``${qnlm}`` is
    the plan's own number of coefficients."""
    kernels = plan.kernel_plan
    values = dict(
        **_tables(plan, "synth", plan.synth_tables),
        **_tables(plan, "analys", plan.analys_tables),
        **_tables(plan, "vsynth", plan.vsynth_tables),  # vector plans (codegen.vector)
        **_tables(plan, "vanalys", plan.vanalys_tables),
        ft=FLOAT_TYPES[plan.dtype],
        plan_fingerprint=plan.fingerprint,  # the module's reflection: checked on loading
        lmax=plan.lmax,
        mmax=kernels.mmax,
        nlat=plan.nlat,
        nphi=plan.nphi,
        ntw=fourier.twiddle_rows(plan.nphi, plan.kernels),
        npairs=plan.npairs,
        mc=kernels.mc,
        nlm=kernels.nlm,
        leg_synth_out="F",  # mlir/ops.mlir
        leg_synth_ws="F_ws",
        **theta.values(kernels),  # op_theta_analys and leg_analys_in
    )
    scaling = _scaling(plan, values)
    return {**values, **scaling,
            **nyquist.values(plan, scaling["synth_q"], scaling["analys_q"])}


# the placeholders of mlir/pipeline.mlir that may be empty, each on a line of its own that
# goes with it (codegen.module.render): plans that need no scaling get the same text as
# before the option existed
OPTIONAL_SECTIONS = ("synth_scale", "analys_scale", "synth_nyquist_split", "synth_nyquist_add",
                     "analys_nyquist")


# IREE's own GPU configuration for the elementwise ops around the kernels whose iteration
# it cannot vectorise (gathers, dimensions of 2, a dynamic batch) is 32 elements per
# workgroup of 32 threads (CUDA, H100: 23 us for 10^6 elements, launch-bound). Ops over one
# flat index per field take this one instead: 1024 per 256 threads on CUDA (the vector
# mixes at 721 x 1440: 0.89 / 0.93 the transforms' time) and 512 per 128 on Vulkan, which
# every Vulkan device allows (lmax 1023: 0.94 / 0.94).
FLAT_CONFIG = {"cuda": (
    "attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = "
    "#iree_gpu.lowering_config<{thread = [1, 4], workgroup = [1, 1024]}>, translation_info = "
    "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> "
    "workgroup_size = [256, 1, 1] subgroup_size = 32>>} "),
    "vulkan": (
    "attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = "
    "#iree_codegen.lowering_config<tile_sizes = [[1, 512], [1, 4]]>, translation_info = "
    "#iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> "
    "workgroup_size = [128, 1, 1]>>} ")}


def _scaling(plan, values: dict) -> dict[str, str]:
    """The coefficients' scaling by the table ``qscale`` (mlir/qscale.mlir) in the plan's
    normalisation and phase (``Plan.scaled``): ``synth_q`` the synthesis's argument,
    ``analys_q`` the analysis's result, ``synth_scale`` / ``analys_scale`` the ops between
    them and the Legendre dispatch; nothing for the kernels' own convention."""
    if not plan.scaled:
        return {"synth_q": "q", "analys_q": "q", "synth_scale": "", "analys_scale": ""}
    sections = read_sections("qscale.mlir", {**values, "nlm2": 2 * int(values["nlm"]),
                                             "flat_config": FLAT_CONFIG.get(plan.target, "")})
    return {"synth_q": "q_in", "analys_q": "q_out", "synth_scale": sections["synth_scale"],
            "analys_scale": sections["analys_scale"]}


def split_sections(text: str, marker: str = "stage") -> dict[str, str]:
    """The sections of a template, each starting at a ``// <marker>: <key>`` line."""
    pieces = re.split(rf"^// {marker}: (\w+)\n", text, flags=re.M)
    return {key: body.rstrip("\n") for key, body in zip(pieces[1::2], pieces[2::2])}


def read_sections(name: str, values: dict) -> dict[str, str]:
    """The sections of template ``mlir/<name>``, cut at ``// stage: <key>`` lines and
    substituted with ``values``: ``{key: text}``."""
    sections = split_sections((mlir_dir() / name).read_text())
    return {key: string.Template(body).substitute(values) for key, body in sections.items()}


def stage_ops(values: dict, dispatch: dict[str, str], clauses: dict[str, str]) -> dict[str, str]:
    """The four dispatches of mlir/ops.mlir (``op_<stage>``) for a family whose op and
    callee for each stage are ``dispatch[stage]`` (``flow.dispatch @exe::@v::@main[%b]``)
    and whose text after the types is ``clauses[stage]`` (empty for ``flow.dispatch``)."""
    subs = {**values, **{f"dispatch_{s}": dispatch[s] for s in KERNEL_STAGES},
            **{f"clauses_{s}": clauses.get(s, "") for s in KERNEL_STAGES}}
    return read_sections("ops.mlir", subs)
