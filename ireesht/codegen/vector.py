"""The vector functions of a plan with ``transform="vector"`` (``mlir/vector.mlir``): linalg
ops around the scalar ``@synth_impl`` / ``@analys_impl``, so that every kernel family and
target has them (docs/design.md, "Vector transforms")."""

from __future__ import annotations

import string

from ireesht.codegen.pipeline import FLAT_CONFIG, mlir_dir, split_sections


def functions(plan, values: dict) -> str:
    """The text of ``${vector_functions}`` in mlir/pipeline.mlir: "" for scalar plans."""
    if plan.transform != "vector":
        return ""
    text = split_sections((mlir_dir() / "vector.mlir").read_text())["functions"]
    return string.Template(text).substitute(
        {**values, "vnlm": plan.band_nlm, "vlast": plan.band_nlm - 1, "nlm4": 4 * plan.nlm,
         "vnlm4": 4 * plan.band_nlm, "flat_config": FLAT_CONFIG.get(plan.target, "")})
