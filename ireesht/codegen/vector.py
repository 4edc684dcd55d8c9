"""The vector functions of a plan with ``transform="vector"`` (``mlir/vector.mlir``): linalg
ops around the scalar ``@synth_impl`` / ``@analys_impl``, so that every kernel family and
target has them (docs/design.md, "Vector transforms")."""

from __future__ import annotations

import string

from ireesht.codegen.pipeline import mlir_dir, split_sections

# IREE's own choice for the mixing along l, whose gathers it cannot vectorise, is 32
# elements per workgroup of 32 threads (CUDA: 23 us at 721 x 1440 on the H100, launch-bound).
# These give 1024 per 256 threads on CUDA (721 x 1440: 0.89 / 0.93 the vector transforms'
# time) and 512 per 128 on Vulkan, which every Vulkan device allows (lmax 1023: 0.94 / 0.94).
MIX_CONFIG = {"cuda": (
    "attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = "
    "#iree_gpu.lowering_config<{thread = [1, 4], workgroup = [1, 1024]}>, translation_info = "
    "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> "
    "workgroup_size = [256, 1, 1] subgroup_size = 32>>} "),
    "vulkan": (
    "attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = "
    "#iree_codegen.lowering_config<tile_sizes = [[1, 512], [1, 4]]>, translation_info = "
    "#iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseDistribute> "
    "workgroup_size = [128, 1, 1]>>} ")}


def functions(plan, values: dict) -> str:
    """The text of ``${vector_functions}`` in mlir/pipeline.mlir: "" for scalar plans."""
    if plan.transform != "vector":
        return ""
    text = split_sections((mlir_dir() / "vector.mlir").read_text())["functions"]
    return string.Template(text).substitute(
        {**values, "vnlm": plan.band_nlm, "vlast": plan.band_nlm - 1, "nlm4": 4 * plan.nlm,
         "vnlm4": 4 * plan.band_nlm, "mix_config": MIX_CONFIG.get(plan.target, "")})
