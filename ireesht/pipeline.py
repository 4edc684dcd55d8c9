"""Render the MLIR pipeline module of a plan (mlir/pipeline.mlir) with its kernel variants."""

from __future__ import annotations

import hashlib
import string
from importlib import resources
from pathlib import Path

from ireesht.plan import SYNTH_WG, Plan

# Argument order of the exported functions after the field itself is appended.
SYNTH_TABLES = ("xtab", "powtab", "mseed", "coef", "twiddle")
ANALYS_TABLES = ("xtab", "powtab", "mseed", "coef", "wtab", "twiddle")


def mlir_dir() -> Path:
    """Directory of the pipeline templates: the installed package data, or the source tree."""
    try:
        path = Path(str(resources.files("ireesht.mlir")))
        if (path / "pipeline.mlir").exists():
            return path
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parent.parent / "mlir"


def kernel_objects(plan: Plan) -> dict[str, str]:
    """The .spv file of each stage for this plan's variants."""
    sg = 1 if plan.subgroups else 0
    return {
        "leg_synth": f"leg_synth_nf{plan.fields_per_thread}.spv",
        "leg_analys": f"leg_analys_nf{analys_fields_per_thread(plan)}_sg{sg}.spv",
        "fft_synth": "fft_synth.spv",
        "fft_analys": "fft_analys.spv",
    }


def analys_fields_per_thread(plan: Plan) -> int:
    # the tree-reduction variant keeps one group per thread, which leaves room for one field
    return plan.fields_per_thread if plan.subgroups else 1


def render(plan: Plan) -> str:
    """The MLIR text of the plan's module (exports ``synth`` and ``analys``)."""
    template = string.Template((mlir_dir() / "pipeline.mlir").read_text())
    values = dict(
        lmax=plan.lmax,
        mmax=plan.mmax,
        nlat=plan.nlat,
        nphi=plan.nphi,
        npairs=plan.npairs,
        npow=plan.npairs * plan.nbits,
        nbits=plan.nbits,
        mc=plan.mc,
        nlm=plan.nlm,
        synth_gx=-(-plan.npairs // SYNTH_WG),
        synth_nf=plan.fields_per_thread,
        analys_nf=analys_fields_per_thread(plan),
        **kernel_objects(plan),
    )
    return template.substitute(values)


def kernels_dir() -> Path:
    """Directory of the shipped .spv kernels: installed package data or the source tree."""
    try:
        path = Path(str(resources.files("ireesht.kernels.wgsl")))
        if any(path.glob("*.spv")):
            return path
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parent.parent / "kernels" / "wgsl"


def objects_digest(plan: Plan) -> str:
    """Hash of the kernel binaries a plan links, so a regenerated kernel misses the cache."""
    h = hashlib.sha256()
    for name in sorted(kernel_objects(plan).values()):
        h.update((kernels_dir() / name).read_bytes())
    return h.hexdigest()


def compiler_version() -> str:
    from iree.compiler import version

    return getattr(version, "VERSION", "unknown")


def compile_plan(plan: Plan, text: str | None = None) -> bytes:
    """Compile the plan's module to a .vmfb for its target (runs iree-compile)."""
    from iree.compiler import compile_str

    args = [
        "--iree-hal-target-device=vulkan",
        f"--iree-hal-executable-object-search-path={kernels_dir()}",
    ]
    return compile_str(text if text is not None else render(plan), extra_args=args)
