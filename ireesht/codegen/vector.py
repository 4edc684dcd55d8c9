"""The vector functions of a plan with ``transform="vector"`` (``mlir/vector.mlir``): linalg
ops around the scalar ``@synth_impl`` / ``@analys_impl``, so that every kernel family and
target has them (docs/design.md, "Vector transforms")."""

from __future__ import annotations

import string

from ireesht.codegen.pipeline import mlir_dir, split_sections
from ireesht.numerics.layout import m_offsets


def has_pole_terms(plan) -> bool:
    """Whether the plan's grid has pole rows that order 1 reaches (their values need the
    order-1 terms: 1/sin(theta) is infinite there)."""
    return plan.mmax >= 1 and bool((plan.make_grid().sint == 0).any())


def functions(plan, values: dict) -> str:
    """The text of ``${vector_functions}`` in mlir/pipeline.mlir: "" for scalar plans."""
    if plan.transform != "vector":
        return ""
    sections = split_sections((mlir_dir() / "vector.mlir").read_text())
    L = plan.band_lmax
    subs = {**values, "vnlm": plan.band_nlm, "vlast": plan.band_nlm - 1,
            "vl": max(L, 1), "off1": int(m_offsets(L, 1)[1]) if plan.mmax >= 1 else 0}

    def part(name: str, **extra) -> str:
        return string.Template(sections[name]).substitute({**subs, **extra})

    poles = [(0, "1.0"), (1, "-1.0")] if has_pole_terms(plan) else []  # rows 0, NL - 1
    if poles:
        vsynth_poles = part("vsynth_poles")
        values = part("vsynth_pole_values", plast=plan.nlat - 1)
        # one reduction per pole row: the two as one op (map p -> p (NL - 1)) made IREE's
        # GPU code loop over the row per output in private memory, vanalys 1.47x on CUDA
        # (721 x 1440, H100)
        vanalys_poles = "\n".join([part("vanalys_poles")] + [
            part("vanalys_pole_sum", p=p, row=p * (plan.nlat - 1)) for p, _ in poles])
        terms = "\n".join(part("vanalys_pole_term", p=p, next=p + 1, col=4 + p, s=s)
                          for p, s in poles)
    else:
        vsynth_poles = values = vanalys_poles = terms = ""
    return part("functions", vsynth_poles=vsynth_poles, vsynth_pole_values=values,
                su_result=f"su_v{1 if poles else 0}", vanalys_poles=vanalys_poles,
                vanalys_pole_terms=terms, ms_result=f"ms_v{len(poles)}")
