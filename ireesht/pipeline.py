"""Render and compile the MLIR module of a plan: mlir/pipeline.mlir filled with the
dispatches of the plan's kernel family.

A kernel family is a module ``ireesht.kernels_<name>`` with
``parts(plan, values) -> dict`` (the MLIR text for the placeholders ``aliases``,
``module_attrs``, ``executables``, ``op_leg_synth``, ``op_fft_synth``, ``op_fft_analys``,
``op_leg_analys``), ``compile_flags(plan) -> list[str]`` and ``digest(plan) -> str`` (a hash
of the kernel sources or binaries, part of the cache key).
"""

from __future__ import annotations

import importlib
import re
import string
from collections.abc import Sequence
from pathlib import Path


from ireesht import fourier, ishioka
from ireesht.plan import STAGES, Plan, analys_fields_per_thread
from ireesht.resources import data_dir
from types import ModuleType


def mlir_dir() -> Path:
    """Directory of the pipeline templates (package ``ireesht.mlir``)."""
    return data_dir("ireesht.mlir", "mlir", "pipeline.mlir")


def family(plan: Plan) -> ModuleType:
    """The module implementing the plan's kernel family."""
    return importlib.import_module(f"ireesht.kernels_{plan.kernels}")


def table_shapes(plan: Plan) -> dict[str, tuple[str, str]]:
    """The shape (``"AxB"``) and MLIR element type of each table of ``plan.tables()``
    (kernels/CONTRACT.md)."""
    ft = {"float32": "f32", "float64": "f64"}[plan.dtype]
    p, nlm = plan.npairs, plan.nlm
    extra = {}
    if "restart" in plan.analys_tables:
        from ireesht.kernels_mlir import lanes64_segment

        rows = ishioka.segment_rows(plan.lmax, plan.mmax, lanes64_segment(plan))[1]
        extra = {"restart_rows": (f"{plan.mc}", "f64"), "restart": (f"{rows * p}x2", "f64")}
    return {**extra, "xtab": (f"{p}x4", ft), "seedtab": (f"{plan.mc * p}x2", ft),
            "polar": (f"{plan.mc}", ft), "coef": (f"{nlm}x4", ft), "stab": (f"{nlm}", ft),
            "wtab": (f"{p}", ft), "twiddle": (f"{fourier.twiddle_rows(plan.nphi)}x2", ft),
            "chain": (f"{ishioka.offset(plan.lmax, plan.mmax + 1)}x{ishioka.COLUMNS}", "f64")}


def _tables(plan: Plan, fn: str, names: tuple[str, ...]) -> dict[str, str]:
    """The table parameters, arguments and types of function ``fn`` ("synth" or "analys") in
    pipeline.mlir, and of its Legendre dispatch in ops.mlir (all tables but the twiddles),
    for the tables ``names`` in order."""
    types = {k: f"tensor<{shape}x{et}>" for k, (shape, et) in table_shapes(plan).items()}
    leg = [n for n in names if n != "twiddle"]
    return {
        f"{fn}_table_params": ", ".join(f"%{n}: {types[n]}" for n in names),
        f"{fn}_table_args": ", ".join(f"%{n}" for n in names),
        f"{fn}_table_types": ", ".join(types[n] for n in names),
        f"leg_{fn}_table_args": ", ".join(f"%{n}" for n in leg),
        f"leg_{fn}_table_types": ", ".join(types[n] for n in leg),
        f"leg_{fn}_bindings": "\n".join(
            f"  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // {n}" for n in leg),
    }


def template_values(plan: Plan) -> dict:
    """The sizes every template may use (``${lmax}``, ``${npairs}``, ...), and the tables
    of both functions (``_tables``)."""
    return dict(
        **_tables(plan, "synth", plan.synth_tables),
        **_tables(plan, "analys", plan.analys_tables),
        ft={"float32": "f32", "float64": "f64"}[plan.dtype],
        lmax=plan.lmax,
        mmax=plan.mmax,
        nlat=plan.nlat,
        nphi=plan.nphi,
        ntw=fourier.twiddle_rows(plan.nphi),
        npairs=plan.npairs,
        mc=plan.mc,
        nlm=plan.nlm,
        synth_nf=plan.fields_per_thread,
        leg_synth_out="F",  # mlir/ops.mlir
        leg_synth_ws="F_ws",
        analys_nf=analys_fields_per_thread(plan),
    )


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
    subs = {**values, **{f"dispatch_{s}": dispatch[s] for s in STAGES},
            **{f"clauses_{s}": clauses.get(s, "") for s in STAGES}}
    return read_sections("ops.mlir", subs)


def render(plan: Plan) -> str:
    """The MLIR text of the plan's module (exports ``synth``, ``analys`` and their
    ``*_async`` forms)."""
    values = template_values(plan)
    parts = family(plan).parts(plan, values)
    template = string.Template((mlir_dir() / "pipeline.mlir").read_text())
    return template.substitute({**values, **parts})


def digest(plan: Plan) -> str:
    return family(plan).digest(plan)


def compiler_version() -> str:
    from iree.compiler import version

    return getattr(version, "VERSION", "unknown")


def compile_mlir(text: str, flags: Sequence[str], extra_args: Sequence[str] = ()) -> bytes:
    """Compile MLIR text to a ``.vmfb`` with iree-compile ``flags``.

    f64 demotion is off: it crashes on ``hal.dispatch.extern`` in 3.13.
    Raises ``iree.compiler.CompilerToolError`` with the diagnostics when compilation fails.
    """
    from iree.compiler import compile_str

    args = [*flags, "--iree-input-demote-f64-to-f32=false", *extra_args]
    return compile_str(text, extra_args=args)


def compile_plan(plan: Plan, text: str | None = None, extra_args: Sequence[str] = ()) -> bytes:
    """Compile the plan's module to a .vmfb for its target."""
    return compile_mlir(text if text is not None else render(plan),
                        family(plan).compile_flags(plan), extra_args)
