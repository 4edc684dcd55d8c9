"""The MLIR module of a plan, rendered from the templates of its variants, and its compilation
with IREE's compiler (imported only when compiling)."""

from __future__ import annotations

import importlib.util
import string
from collections.abc import Sequence

from ireesht.codegen import c, vector, wgsl
from ireesht.codegen.mlir import family as mlir
from ireesht.codegen.pipeline import OPTIONAL_SECTIONS, mlir_dir, template_values

# the module of each kernel family (ireesht.codegen.pipeline says what one provides)
FAMILIES = {"mlir": mlir, "wgsl": wgsl, "c": c}


def render(plan) -> str:
    """The MLIR text of the plan's module (exports ``synth``, ``analys`` and their
    ``*_async`` forms; vector plans also ``vsynth``, ``vanalys`` and theirs)."""
    values = template_values(plan)
    # the kernels run the kernels' plan (one order less for a Nyquist plan, codegen.nyquist)
    subs = {**values, **FAMILIES[plan.kernels].parts(plan.kernel_plan, values),
            "vector_functions": vector.functions(plan, values)}
    text = (mlir_dir() / "pipeline.mlir").read_text()
    for key in OPTIONAL_SECTIONS:  # an empty one takes its line with it
        if not subs[key]:
            text = text.replace(f"${{{key}}}\n", "")
    return string.Template(text).substitute(subs)


def compile_flags(plan) -> list[str]:
    """The iree-compile flags of the plan's target and family."""
    return FAMILIES[plan.kernels].compile_flags(plan.kernel_plan)


def digest(plan) -> str:
    """A hash of the kernel sources or objects the plan's module embeds (for cache keys)."""
    return FAMILIES[plan.kernels].digest(plan.kernel_plan)


def require_compiler() -> None:
    """Raise one sentence saying what to install where IREE's compiler is missing (an install
    of the runtime only, which loads saved modules but compiles none)."""
    try:
        found = importlib.util.find_spec("iree.compiler") is not None
    except ModuleNotFoundError:
        found = False
    if not found:
        raise ModuleNotFoundError(
            "compiling a plan needs IREE's compiler, which is not installed: pip install "
            "'ireesht[compile]' (iree-base-compiler 3.13); saved modules load without it "
            "(ireesht.load)", name="iree.compiler")


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


def compile_plan(plan, text: str | None = None, extra_args: Sequence[str] = ()) -> bytes:
    """Compile the plan's module to a .vmfb for its target."""
    return compile_mlir(text if text is not None else render(plan), compile_flags(plan),
                        extra_args)
