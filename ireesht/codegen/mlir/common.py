"""What every MLIR kernel template shares: the executable target of each GPU target, the
float formats and rescaling, the Legendre stages' slots and node products, pair stores, and
the float64 state's conversions of the Ishioka kernels."""

from __future__ import annotations

import string
from pathlib import Path

from ireesht.codegen.resources import data_dir
from ireesht.geometry import ISHIOKA_SCALING
from ireesht.numerics.legendre import RESCALE_BITS

SYNTH_WG = 64  # workgroup size of leg_synth (WGSL and MLIR)

VOTE_GROUP = 32  # threads that choose the lean or careful loop together (legendre_core.mlir)


# leg_synth.mlir reverses every other full round of this many workgroups (@workgroup_of)
SYNTH_ROUND = 264


FLOAT_BYTES = {"f32": 4, "f64": 8}  # a float of each type (workgroup arrays; _pair_store)


# The integer type of each float type the templates take (the Legendre stages' exponent
# counters), and the rescaling of the recurrence (ireesht/numerics/legendre.py): values carried as
# y 2^(S k), |y| < 2^T, with S and T such that the dropped values (below 2^(T - S)) are far
# below the type's rounding.
FLOAT_FORMATS = {
    ft: dict(it=it, scale_bits=RESCALE_BITS[dtype][1],
             threshold=repr(2.0 ** RESCALE_BITS[dtype][0]),  # exact: powers of two
             shrink=repr(2.0 ** -RESCALE_BITS[dtype][1]))
    for ft, it, dtype in (("f32", "i32", "float32"), ("f64", "i64", "float64"))
}


_WGP = ("wgp = <compute = {compute}, storage = {storage}, subgroup = {subgroup}, "
        "dot = none, mma = [], subgroup_size_choices = [{sg}], "
        "max_workgroup_sizes = [{maxwg}, {maxwg}, 64], max_thread_count_per_workgroup = {maxwg}, "
        "max_workgroup_memory_bytes = {smem}, max_workgroup_counts = [65535, 65535, 65535]>")


def kernels_dir() -> Path:
    """Directory of the stage templates (package ``ireesht.kernels.mlir``)."""
    return data_dir("ireesht.kernels.mlir", "kernels/mlir", "*.mlir")


def executable_target(plan) -> tuple[str, str, str]:
    """``(device, #hal.executable.target<...>, pipeline)`` for the plan's target.

    Vulkan gets a generic SPIR-V 1.3 target that any Vulkan 1.1 device runs (lavapipe, NVIDIA,
    ...), with subgroup shuffles and 64-bit types only where the plan's variants need them
    (``Plan.needs``); CUDA gets sm_80 (JIT-compiled on newer GPUs; ``--iree-cuda-target=sm_90``
    breaks IREE 3.13 codegen); Metal an Apple GPU with 32-wide SIMD groups.
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
        needs = plan.needs()
        f64 = plan.dtype == "float64" or "float64" in needs
        wgp = _WGP.format(compute="fp64|fp32|int64|int32" if f64 else "fp32|int32",
                          storage="b64|b32" if f64 else "b32",
                          subgroup="shuffle" if "subgroup_shuffle" in needs else "none",
                          sg=32, maxwg=128, smem=32768)
        info = f'arch = "", features = "spirv:v1.3,cap:Shader", {wgp}'
        return ("vulkan", f'#hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", '
                f"{{iree_codegen.target_info = #iree_gpu.target<{info}>}}>", spirv)
    raise ValueError(f"target={plan.target!r}: the mlir kernels build for cuda, metal, vulkan")


def _expand(n: int, slots: int, ft: str, of_pair: bool) -> str:
    """Body of ``@expand_v`` (``of_pair``: slot s takes value s // (slots/n)) or
    ``@expand_f`` (slot s takes value s % n) of leg_synth.mlir: vector<n> to vector<slots>."""
    lines = [f"          %e{i} = vector.extract %v[{i}] : {ft} from vector<{n}x{ft}>"
             for i in range(n)]
    pick = [s // (slots // n) if of_pair else s % n for s in range(slots)]
    lines.append(f"          %r = vector.from_elements {', '.join(f'%e{i}' for i in pick)} "
                 f": vector<{slots}x{ft}>")
    lines.append(f"          return %r : vector<{slots}x{ft}>")
    return "\n".join(lines)


def _pairs_per_thread(npairs: int, threads: int, most: int) -> int:
    """Latitude pairs per thread, 1, 2 or 4 and at most ``most``: the fewest with which
    ``threads`` threads cover the grid, so that a small grid still keeps every thread busy."""
    return next(k for k in (1, 2, 4) if threads * k >= npairs or k == most)


def _node_times(kp: int, ft: str) -> str:
    """Body of legendre_core.mlir's ``@node_times`` (u y): the hi + lo product in float32,
    one multiply in float64 (whose tables carry lo parts of 0)."""
    v = f"vector<{kp}x{ft}>"
    if ft == "f64":
        return f"          %r = arith.mulf %uh, %y1 : {v}\n          return %r : {v}"
    return "\n".join([
        f"          %zero = arith.constant dense<0.0> : {v}",
        f"          %lo0 = arith.mulf %ul, %y1 : {v}",
        f"          %lo = arith.select %keep, %lo0, %zero : vector<{kp}xi1>, {v}",
        f"          %r = math.fma %uh, %y1, %lo : {v}",
        f"          return %r : {v}"])


def legendre_values(plan, nf: int, kp: int, ft: str) -> dict:
    """The Legendre stages' substitutions for nf fields and kp pairs per thread of float
    type ft: the (pair, field) slots, ``@node_times``, and ``pin``, the predicate of the "y
    is not NaN" guard of legendre_core.mlir (``ord`` on SPIR-V drivers, which re-fuse fma;
    ``true``, folded away, on CUDA, whose LLVM keeps fma as written)."""
    return dict(nf=nf, kp=kp, slots=kp * nf, vote_group=VOTE_GROUP,
                node_times=_node_times(kp, ft),
                pin="true" if plan.target == "cuda" else "ord")


def _core(parts: dict[str, str], names: tuple[str, ...], values: dict) -> str:
    """The parts ``names`` of legendre_core.mlir, substituted with ``values``."""
    return "\n".join(string.Template(parts[n]).substitute(values) for n in names)


def _pair_store(target: str, ft: str, buf: str, at: str, at1: str, x: str, y: str) -> list[str]:
    """Lines that store ``x`` at ``at`` and ``y`` at ``at1`` (``%mem[indices]`` of memref type
    ``buf``; ``at`` 2-float aligned, ``at1`` the next float): on CUDA one vector store aligned
    to the pair (LLVM kept two stores apart: H200, one field, Legendre synthesis, lmax 255
    11.7-12.7 -> 11.1-12.0 us, 511 26.0-26.4 -> 24.5-25.4, unchanged from lmax 720 on;
    BENCHMARKS.md twenty-fourth run), two scalar stores elsewhere (vector<2> loads and
    stores of the row crashed the pipeline creation of NVIDIA's Vulkan driver 580.159, H200,
    2026-11-30)."""
    if target == "cuda":
        return [f"%v = vector.from_elements {x}, {y} : vector<2x{ft}>",
                f"vector.store %v, {at} alignment = {2 * FLOAT_BYTES[ft]} : {buf}, vector<2x{ft}>"]
    return [f"memref.store {x}, {at} : {buf}", f"memref.store {y}, {at1} : {buf}"]


def _ishioka_conversions(ft: str, scaling: dict = ISHIOKA_SCALING) -> dict[str, str]:
    """Bodies of leg_synth_ishioka.mlir's ``@widen``, ``@narrow`` and ``@seed64`` for data
    type ``ft``. A seed y 2^(E) of the float64 seed table ``seed64`` (E = S k, S of float64,
    whatever ``ft``) becomes y 2^(E - S' k') 2^(S' k') with k' = floor((E + LIVE) / S')
    (``ISHIOKA_SCALING``): so ``E - S' k'`` lies in [-LIVE, S' - LIVE), and the power of two
    is built from its bits."""
    b = scaling
    if ft == "f64":
        conv = {"widen": "          return %v : f64", "narrow": "          return %v : f64"}
    else:
        conv = {"widen": "          %w = arith.extf %v : f32 to f64\n          return %w : f64",
                "narrow": "          %w = arith.truncf %v : f64 to f32\n          return %w : f32"}
    conv["seed64"] = "\n".join([
        "          %k = arith.fptosi %kf : f64 to i64",
        f"          %sb = arith.constant {FLOAT_FORMATS['f64']['scale_bits']} : i64",
        f"          %live = arith.constant {b['live_bits']} : i64",
        f"          %s2 = arith.constant {b['scale_bits']} : i64",
        "          %bias = arith.constant 1023 : i64",
        "          %c52 = arith.constant 52 : i64",
        "          %e = arith.muli %k, %sb : i64",
        "          %el = arith.addi %e, %live : i64",
        "          %k2 = arith.floordivsi %el, %s2 : i64",
        "          %lev = arith.muli %k2, %s2 : i64",
        "          %sh = arith.subi %e, %lev : i64",
        "          %be = arith.addi %sh, %bias : i64",
        "          %bits = arith.shli %be, %c52 : i64",
        "          %p = arith.bitcast %bits : i64 to f64",
        "          %y2 = arith.mulf %ys, %p : f64",
        "          return %y2, %k2 : f64, i64"])
    return conv
