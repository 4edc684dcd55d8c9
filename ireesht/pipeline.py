"""Render the MLIR pipeline module of a plan (mlir/pipeline.mlir) with its kernel variants."""

from __future__ import annotations

import hashlib
import importlib.util
import string
from collections.abc import Sequence
from pathlib import Path

from ireesht.plan import SYNTH_PAIRS_PER_THREAD, SYNTH_WG, Plan, analys_fields_per_thread

# iree-compile flags selecting the device of each ireesht target
TARGET_FLAGS: dict[str, list[str]] = {"vulkan": ["--iree-hal-target-device=vulkan"]}


def mlir_dir() -> Path:
    """Directory of the pipeline templates: the installed package data, or the source tree."""
    spec = importlib.util.find_spec("ireesht.mlir")
    for loc in (spec.submodule_search_locations or ()) if spec else ():
        if (Path(loc) / "pipeline.mlir").exists():
            return Path(loc)
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
        synth_gx=-(-plan.npairs // (SYNTH_WG * SYNTH_PAIRS_PER_THREAD)),
        synth_nf=plan.fields_per_thread,
        analys_nf=analys_fields_per_thread(plan),
        **kernel_objects(plan),
    )
    return template.substitute(values)


def kernels_dir() -> Path:
    """Directory holding the shipped ``.spv`` kernels.

    From a wheel it is the package ``ireesht.kernels.wgsl`` (pyproject maps
    ``kernels/wgsl`` there); from a source checkout it is ``<repo>/kernels/wgsl``. The
    spec's search locations are used rather than ``importlib.resources.files``: the package
    has no ``__init__.py``, and for such namespace packages ``files()`` returns a
    ``MultiplexedPath`` whose ``str()`` is not a path.
    """
    try:
        spec = importlib.util.find_spec("ireesht.kernels.wgsl")
    except ModuleNotFoundError:
        spec = None
    for loc in (spec.submodule_search_locations or ()) if spec else ():
        if any(Path(loc).glob("*.spv")):
            return Path(loc)
    source = Path(__file__).resolve().parent.parent / "kernels" / "wgsl"
    if source.is_dir():
        return source
    raise FileNotFoundError(f"ireesht kernels not found: neither package ireesht.kernels.wgsl "
                            f"nor {source} holds .spv files")


def objects_digest(plan: Plan) -> str:
    """Hash of the kernel binaries a plan links, so a regenerated kernel misses the cache."""
    h = hashlib.sha256()
    for name in sorted(kernel_objects(plan).values()):
        h.update((kernels_dir() / name).read_bytes())
    return h.hexdigest()


def compiler_version() -> str:
    from iree.compiler import version

    return getattr(version, "VERSION", "unknown")


def compile_mlir(text: str, target: str = "vulkan", extra_args: Sequence[str] = ()) -> bytes:
    """Compile MLIR text to a ``.vmfb`` for ``target`` (runs iree-compile).

    Relative ``#hal.executable.object<{path = ...}>`` paths resolve against
    :func:`kernels_dir`. f64 demotion is off: it crashes on ``hal.dispatch.extern`` in 3.13.
    Raises ``iree.compiler.CompilerToolError`` with the diagnostics when compilation fails.
    """
    from iree.compiler import compile_str

    args = [
        *TARGET_FLAGS[target],
        "--iree-input-demote-f64-to-f32=false",
        f"--iree-hal-executable-object-search-path={kernels_dir()}",
        *extra_args,
    ]
    return compile_str(text, extra_args=args)


def compile_plan(plan: Plan, text: str | None = None) -> bytes:
    """Compile the plan's module to a .vmfb for its target."""
    return compile_mlir(text if text is not None else render(plan), plan.target)
