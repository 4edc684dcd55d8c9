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
rescaling of ``ft`` (``scale_bits``, ``threshold``, ``shrink``); the Legendre stages also
take ``nf`` (fields per thread),
``kp`` (latitude pairs per thread), ``slots`` (kp nf), ``pin`` and ``node_times`` (see
``legendre_values``),
``vote_group`` (threads that choose a loop and a form together),
``vote_flags`` (two per vote group of the workgroup),
``legendre_core`` (the parts of ``legendre_core.mlir`` the stage takes, ``CORE_PARTS``),
for synthesis ``synth_gx`` (its grid's x),
``synth_round`` (the round of its snake order of workgroups) and
``expand_v`` / ``expand_f`` (bodies that spread pairs and fields over the slots), and, for
analysis, ``span`` (degrees per span), ``span_values`` (2 nf span: the values it sums),
``lane_group`` / ``lane_mask`` (lanes that sum a degree's values with shuffles, and that
number less one: ``analys_lane_group``), ``independent_lanes`` (true without lane sums),
``idle_group`` (threads that idle together), ``part`` (the size of the workgroup array of
partial sums), ``row_stride`` / ``value_stride`` (its strides between partial sums and
between values: ``_analys_part``), ``degree_stride`` (2 nf value_stride),
``piece_count`` and ``piece_rows`` (the pieces a value's partial sums are summed in, and
their partial sums), ``one_piece`` (piece_count == 1), ``value_block`` (values summed at
once, one per thread and piece) and ``contribute`` (the unrolled body that writes the
partial sums); the
Fourier stages take ``fft_funcs`` and ``fft_core`` (the two parts of ``fft_core.mlir``, its
butterflies and its passes, in the stage's direction, with the unrolled calls of
``fft_pass_calls`` and the target's pair accesses of ``_pair_access``). The synthesis of
the ``"ishioka"`` recurrence has its own template, ``leg_synth_ishioka.mlir``
(``stage_template``), whose state is float64 whatever ``ft``: it takes the parts
``polar``, ``ishioka`` and ``synth_grid`` of ``legendre_core.mlir`` in ``ft`` and
``scaling`` in float64 on ``ISHIOKA_SCALING``, and ``widen`` / ``narrow`` /
``seed64`` (``_ishioka_conversions``); so does its analysis where ``ishioka_analysis``
(``leg_analys_ishioka.mlir``: parts ``polar`` and ``ishioka``, its sizes from
``_ishioka_analys_shape`` and its unrolled bodies from ``_ishioka_analys_bodies``), or where
``lanes64_analysis`` (``leg_analys_lanes64.mlir``, CUDA only: parts ``polar`` and
``ishioka``, its sizes and unrolled bodies from ``_lanes64_analys_values``, its own parts
``step`` and ``chunk`` once per count of pairs per thread, ``_lanes64_counts``, in segments
from restart tables where ``lanes64_segment``, ``lanes64_restart``), and its
synthesis on tensor cores where ``mma_synthesis`` (``leg_synth_mma.mlir``, CUDA only: parts
``polar``, ``ishioka``, ``mma`` and ``synth_grid``, its sizes and unrolled bodies from
``_mma_synth_values``; the fields past its whole groups of 16 in ``leg_synth_ishioka.mlir``
as executable ``REST_STAGE``, whose ``fields``, ``grid_yz`` and ``first_field`` say which
fields it takes), and its analysis on tensor cores where ``mma_analysis``
(``leg_analys_mma.mlir``, CUDA only: parts ``polar``, ``ishioka`` and ``mma``, its sizes and
unrolled bodies from ``_mma_analys_values``).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import string
from pathlib import Path

import numpy as np

from ireesht import fourier, ishioka, legendre
from ireesht.legendre import RESCALE_BITS
from ireesht.pipeline import split_sections
from ireesht.plan import STAGES, SYNTH_WG, Plan, analys_fields_per_thread, analys_lane_group
from ireesht.resources import data_dir

# A leg_synth thread holds its (pair, field) products in vector<kp nf> slots: four at most
# (SPIR-V vectors hold four), on CUDA eight on grids of 512 pairs and more (two pairs with
# four fields: H200, 16 fields, Legendre synthesis at lmax 1023 / 2047 9% / 10% faster in
# float32, 17% / 20% in float64; at 255, one workgroup per order instead of two, 84% slower).
# A leg_analys thread has up to four pairs and nf fields, in vector<kp nf>.
SLOTS = 4
CUDA_SLOTS, CUDA_SLOTS_PAIRS = 8, 512
ANALYS_PAIRS = 4
# two pairs per synthesis thread at most: twice the workgroups of four, fewer registers per
# thread, so more warps per SM and a shorter tail (H200, lmax 1023, one field: 0.20 against
# 0.24 ms)
SYNTH_PAIRS = 2
# leg_synth.mlir reverses every other full round of this many workgroups (@workgroup_of)
SYNTH_ROUND = 264
ANALYS_WG = 128  # threads of a leg_analys.mlir workgroup
# leg_analys.mlir sums the partial sums of each value of a span in two pieces where it has
# the threads, by two threads (one thread per value: 1-6% slower on the H200 with float32;
# four pieces: 3% slower with float64)
ROW_PIECES = 2
VOTE_GROUP = 32  # threads that choose the lean or careful loop together (legendre_core.mlir)
# the parts of legendre_core.mlir each Legendre stage of the float32 scheme takes
CORE_PARTS = {"leg_synth": ("polar", "scaling", "recurrence", "synth_grid"),
              "leg_analys": ("polar", "scaling", "recurrence")}
# (pair, field) slots of a leg_synth_ishioka thread: float64 vectors of four at most
ISHIOKA_SLOTS = 4
# steps per span of leg_synth_ishioka.mlir, whose coefficients are staged in workgroup memory
# (a multiple of 8): H200, one field, Legendre synthesis, 32 -> 64 steps: lmax 511 28.6 ->
# 26.1 us, 1023 105 -> 103, 2047 693 -> 672, 721 x 1440 at 720 55.7 -> 52.4 (BENCHMARKS.md
# fifteenth run; a third of the stall cycles had waited at the staging's barriers)
ISHIOKA_SYNTH_SPAN = 64
# fields per thread from which leg_synth_ishioka sums a float32 plan in float32 (each value
# rounded once per step): with four fields float64 sums took 1937 us at lmax 1023 on an
# H200, float32 ones 1097 us (error 1.2e-6 from the float32 scheme's result, roundtrip
# 1.17e-6 against its 1.55e-6; BENCHMARKS.md thirteenth run); one field keeps float64 sums
# (float32 ones: 2-4% faster, error 2.5e-8 -> 5e-7 in the prototype)
ISHIOKA_FLOAT32_SUMS = 2
# The float64 state of leg_synth_ishioka.mlir carries y 2^(S k) as legendre.py's scheme, with
# other bits: a seed keeps its true value (k = 0, live) down to 2^-LIVE, which every seed
# the kernel runs is at lmax 1023 (down to 2^-640; at 2047 all but 6%), so that nearly
# every warp takes the lean loop from the start (with legendre.py's float64 bits, 37% of the
# seeds at lmax 1023 started below the threshold, and the careful loops cost 12% of the
# stage on an H200); a value whose k < 0 moves up a level once |y| > 2^T. T leaves 2^223 of
# headroom for the growth between two checks (8 steps of 2 degrees: at most 2^160 for lmax
# < 16384); LIVE keeps every live seed a normal float64 (a float64 table's y reaches down
# to 2^-129), and S - LIVE = 40 bits above it keep the largest seeds (2^7) on level 0.
# Level sums (float32 plans of one field whose lowest seeds are on level -1, lmax 2047:
# seeds down to 2^-1206) add the level's values unscaled and scale the sums at the end: S
# keeps them finite for every float32 input: |y| < 2^21 (|g_k| > 0.065, |x| > 2^-11), a
# staged coefficient < 2^129 (two float32 terms, weights below 1), 2^11 steps:
# 2^(S + 21 + 129 + 11) < 2^1023.
ISHIOKA_SCALING = {"live_bits": 800, "scale_bits": 840, "threshold_bits": 800}
# leg_synth_mma.mlir (tensor cores; kernels_mlir.mma_synthesis): fields per workgroup (a
# multiple of four: a tile's 8 columns hold four fields' re and im), warps per workgroup (16
# pairs each), the floats after each staged column's span of (hi, lo), which keep the B
# fragments' loads free of bank conflicts, and the fewest latitude pairs it serves. H200,
# Legendre synthesis, 16 fields, against the float32 scheme with four fields per thread
# (BENCHMARKS.md seventeenth run): lmax 1023 1028-1037 -> 891-896 us, 767 520-525 -> 432-435,
# 600 (301 pairs) 253-255 -> 210-220, 511 (256 pairs) 173-176 -> 171-182, but 255 35-37 ->
# 50.5-54.8; error 1.1e-6 -> 2.2e-7. 8 fields per workgroup (the recurrence twice per order)
# ran 1012-1028 us at lmax 1023, 8 warps 948-955.
MMA_FIELDS, MMA_WARPS = 16, 4
# It takes the whole groups of MMA_FIELDS fields only; the fields past them run
# leg_synth_ishioka.mlir (four per thread, float32 sums) as this executable, dispatched after
# it into the same F (parts). H200, lmax 1023, synthesis enqueued (BENCHMARKS.md
# twenty-fourth run), against a last group filled up to 16: 4 fields 0.533 -> 0.261 ms, 20
# fields 1.294 -> 1.070 ms, 16 fields 0.828 -> 0.830 ms (the other kernel's launch, one row
# of workgroups that run nothing: 3 us).
REST_STAGE = "leg_synth_rest"
MMA_COLUMN_PAD = 16
MMA_PAIRS = 256
# leg_analys_mma.mlir (tensor cores; kernels_mlir.mma_analysis): fields per workgroup (the 16
# rows of the products' tile: re and im of 8 fields) and the most latitude pairs it serves
# (a warp of 32 pairs each, 16 warps at most: 512 threads, 128 registers each).
MMA_ANALYS_FIELDS = 8
MMA_ANALYS_PAIRS = 512
# steps per window of leg_analys_mma.mlir (its sums' padding, par_stride, keeps @reduce's
# loads free of bank conflicts for 16)
MMA_ANALYS_WINDOW = 16
# leg_analys_ishioka.mlir: steps per span; per target the most threads per workgroup and
# bytes of workgroup memory it may take (CUDA: the static limit; Vulkan: the generic
# target's, executable_target), since a workgroup holds every latitude pair of its order,
# one or two per thread; and the most pairs it serves. H200, Legendre analysis, one field,
# against the float32 scheme (BENCHMARKS.md fourteenth run): lmax 255 27 -> 25 us, 511 58 ->
# 49, 360 on 721 x 1440 67 -> 44, 720 there 145 -> 129, but lmax 1023 (512 pairs) 199 -> 235:
# grids of more than 384 pairs (lmax 767) keep the float32 scheme (on CUDA
# leg_analys_lanes64.mlir serves them all, below).
ISHIOKA_ANALYS_SPAN = 8
ISHIOKA_ANALYS_LIMITS = {"cuda": (1024, 48 * 1024), "vulkan": (128, 32768)}
ISHIOKA_ANALYS_PAIRS = 384
# leg_analys_lanes64.mlir (CUDA; kernels_mlir.lanes64_analysis): the Ishioka analysis of one
# float32 field with float64 sums, reduced over groups of four lanes by shuffles: the most
# pairs per thread, steps per span, the most threads per workgroup (chunks of pairs past
# that). H200, Legendre analysis, Nsight Compute
# (BENCHMARKS.md twenty-first run), against the float32 scheme at lmax 1023 / 2047 and
# leg_analys_ishioka.mlir on 361-384 pairs: lmax 1023 175 -> 158 us, 2047 1100 -> 884, 767
# 143 -> 109, 720 on 721 x 1440 129 -> 100; analysis error at lmax 1023 9.4e-7 -> 1.1e-7.
# On 256 pairs (lmax 511: one warp per workgroup) it took 62 us against 48. One step per
# loop (the state's registers moved each step) took 174 / 993 us at lmax 1023 / 2047; 4 pairs
# per thread 184 / 1154 and spans of 16 steps 168 / 1000 (a CUDA C prototype). Spans of 64
# steps where the sums fit (workgroups of 64 threads) against 32: lmax 1023 162 -> 158 us,
# 767 111 -> 109, 720 102 -> 100 (analysis enqueued 1-2% faster). Tried at lmax 1023 and
# not taken (twenty-second run): sums in two or four chains per part, four steps per loop
# iteration, e1 / e2 / g staged in workgroup memory with alpha and beta, spans of 32 with
# four steps, spans of 56, sums added up over the whole warp: 162-192 against 158-160 us.
LANES64_PAIRS = 8
LANES64_SPAN = 64
LANES64_WG = 128
# An order's pairs past the polar ones it skips take as few pairs per thread as they need,
# from the kernel's copies of its loop (_lanes64_counts), and a thread's pairs lie wg apart.
# H200, Legendre analysis, Nsight Compute (BENCHMARKS.md twenty-fifth run), us: lmax 2047
# (128 threads) 896 -> 801 with copies for 4 .. 8 pairs, 830 with 6 and 8; lmax 1023 (64
# threads) 157 -> 154 with 6 and 8 (or 4 and 8, or 8 alone), but 188-194 with any three
# copies or more (achieved occupancy 10.4% against 14.2%; not understood); 721 x 1440 and
# lmax 767 (64 threads, segments) 92 -> 78-80 and 101-102 -> 84-87 with 6 and 8; lmax 511
# (32 threads) 41.0-41.4 -> 40.9-41.2 with 6 and 8, 41.5-42.0 with 8 alone; lmax 255 (4
# pairs) 14.5-14.8 -> 14.5 with 4 alone, 15.3-16.0 with 3 and 4.
# Grids of at most LANES64_SEGMENT_PAIRS pairs, where a workgroup per order leaves the GPU
# waiting on the low orders' long chains, run each order in segments of
# steps(lmax, 0) / LANES64_SEGMENTS - 1 steps (each runs one step more: whole spans), at
# least LANES64_SEGMENT_MIN, from restart tables (lanes64_restart); grids that take no
# segments and have no more pairs keep leg_analys_ishioka.mlir. H200, Legendre analysis
# (BENCHMARKS.md twenty-second run), against leg_analys_ishioka.mlir: lmax 127 14.1 -> 7.0
# us (segments of 15), 255 25 -> 15.4 (31), 511 48 -> 41 (63); analysis error 3-6x smaller;
# against whole orders: 720 on 721 x 1440 100.3-101.5 -> 92.1-93.1 (89), 767 109-110 -> 102
# (95), but lmax 1023 157-158 -> 171-174 (127) and 158-164 (255: two segments): its
# workgroups of 64 threads take 198 registers with segments, 164 without. A workgroup of 32
# threads at lmax 511 takes 187-198; four pairs per thread, 64 threads and 115 registers,
# took 46 us with segments of 31. Without restart tables (each segment running the chain
# from its seed) segments cost more than they saved.
LANES64_SEGMENTS = 4
LANES64_SEGMENT_MIN = 15
LANES64_SEGMENT_PAIRS = 384
LANES64_TARGETS = ("cuda",)  # float64 shuffles (tests/test_mlir_family.py runs it on lavapipe)
FLOAT_BYTES = {"f32": 4, "f64": 8}  # a float of each type (workgroup arrays; _pair_store)
# The direction s of fft_core.mlir's FFT, exp(s 2 pi i k t / n): its sign, s as a float, and
# the arith ops that add and subtract s times a term.
FFT_DIRECTIONS = {"fft_synth": dict(sign="+", one_s="1.0", plus_s="addf", minus_s="subf"),
                  "fft_analys": dict(sign="-", one_s="-1.0", plus_s="subf", minus_s="addf")}
# The integer type of each float type the templates take (the Legendre stages' exponent
# counters), and the rescaling of the recurrence (ireesht/legendre.py): values carried as
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


def executable_target(plan: Plan) -> tuple[str, str, str]:
    """``(device, #hal.executable.target<...>, pipeline)`` for the plan's target.

    Vulkan gets a generic SPIR-V 1.3 target that any Vulkan 1.1 device runs (lavapipe, NVIDIA,
    ...), without subgroup operations (the kernels use none) and with 64-bit types only for
    float64 plans; CUDA gets sm_80 (JIT-
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
        f64 = plan.dtype == "float64" or plan.float64_recurrence
        wgp = _WGP.format(compute="fp64|fp32|int64|int32" if f64 else "fp32|int32",
                          storage="b64|b32" if f64 else "b32",
                          subgroup="none",
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


def _contribute(kp: int, nf: int, ft: str, part: int, lane_group: int, stride: int) -> str:
    """Body of leg_analys.mlir's ``@contribute``, unrolled: for each field f and part c
    (re, im), slot r = 2 f + c is sum_i v[i] g_c[i nf + f] as an fma chain; then the lane sums
    over ``lane_group`` lanes (steps s = 1, 2, ..: slot r += slot r + s of lane xor s), and
    the slots kept (multiples of ``lane_group``) stored at %base + r ``stride``: without lane
    sums each as soon as it is summed."""
    slots = kp * nf
    mem = f"memref<{part}x{ft}, #gpu.address_space<workgroup>>"
    lines = [f"          %v{i} = vector.extract %v[{i}] : {ft} from vector<{kp}x{ft}>" for i in range(kp)]

    def store(r: int, value: str) -> None:
        lines.extend([f"          %o{r} = arith.constant {r * stride} : index",
                      f"          %i{r} = arith.addi %base, %o{r} : index",
                      f"          memref.store {value}, %part[%i{r}] : {mem}"])

    sums = {}
    for c, g in enumerate(("gre", "gim")):
        for f in range(nf):
            for i in range(kp):
                lines.append(f"          %{g}{i}_{f} = vector.extract %{g}[{i * nf + f}] : {ft} "
                             f"from vector<{slots}x{ft}>")
            acc = f"%{g}s0_{f}"
            lines.append(f"          {acc} = arith.mulf %v0, %{g}0_{f} : {ft}")
            for i in range(1, kp):
                lines.append(f"          %{g}s{i}_{f} = math.fma %v{i}, %{g}{i}_{f}, {acc} : {ft}")
                acc = f"%{g}s{i}_{f}"
            sums[2 * f + c] = acc
            if lane_group == 1:
                store(2 * f + c, acc)
    if lane_group == 1:
        return "\n".join(lines)
    lines.append(f"          %width = arith.constant {VOTE_GROUP} : i32")
    step = 1
    while step < lane_group:
        lines.append(f"          %off{step} = arith.constant {step} : i32")
        for r in range(0, 2 * nf, 2 * step):
            lines += [f"          %x{r}_{step}, %ok{r}_{step} = gpu.shuffle xor {sums[r + step]}, "
                      f"%off{step}, %width : {ft}",
                      f"          %a{r}_{step} = arith.addf {sums[r]}, %x{r}_{step} : {ft}"]
            sums[r] = f"%a{r}_{step}"
        step *= 2
    for r in range(0, 2 * nf, lane_group):
        store(r, sums[r])
    return "\n".join(lines)


def fft_pass_calls(ft: str, mixed: bool, nphi: int = 0) -> dict[str, str]:
    """The unrolled passes of fft_core.mlir: ``radix{16,8,3,5}_calls`` (a pass over a
    thread's butterflies tid + 128 q, q < 1 for radix 16, 2 for radix 8, 6 for radix 3, 4
    for radix 5, each butterfly's outputs in named values, all stored after the barrier),
    ``radix{2,4,8,16}_first`` and ``odd_first`` (the first pass, p = 1, of each radix: its
    inputs come from the stage's ``@src``, not from workgroup memory, so its outputs are
    stored at once; q < 8 for radix 2, 4 for radix 4, 2 for radix 8; the synthesis stages a
    radix-16 first pass's inputs in workgroup memory, ``radix16_staged``), and
    ``fft_mixed``. Without ``mixed`` (``fourier.fft_mixed``) the radix-3 and radix-5 passes
    are left out and the kernels take the FFT for powers of two only. With ``nphi`` (on the
    FFT path) only the power-of-two passes of rows of ``nphi`` points are kept, and the
    kernels take the FFT for that length only (``fft_np``): their compile time, which the
    code of every other length's passes had made 1.5x as long, is back (0: every pass)."""
    sm = f"memref<4096x{ft}, #gpu.address_space<workgroup>>"
    tw = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    src, src_types = "%fp, %srcm, %sbase, %n, %lim", f"i1, {tw}, index, index, index"
    out_args, out_types = "%glob, %dst, %dbase", f"i1, {tw}, index"
    counts = {2: 8, 4: 4, 8: 2, 16: 1, 3: 6, 5: 4}  # butterflies per thread
    radix_ops, put_ops = {}, {}
    for radix in counts:
        ps = [] if radix == 2 else ["%pm1", "%p"] if radix in (4, 8, 16) else ["%p"]
        rot = "" if radix == 2 else f"{ps[0]}, %p2, %tb, "
        radix_ops[radix] = (f"%sm, %tw, %i{{q}}, %nb{radix}, %half, {rot}{src}",
                            ", ".join(["i1", sm, tw] + ["index"] * (3 if radix == 2 else 6))
                            + f", {src_types}")
        put_ops[radix] = (", ".join(["%sm", "%i{q}", *ps, "%half", out_args]),
                          ", ".join(["i1", sm] + ["index"] * (len(ps) + 2)) + f", {out_types}")

    def calls(radix: int, pad: str, first: bool) -> str:
        (args, arg_types), (puts, put_types) = radix_ops[radix], put_ops[radix]
        outs = ", ".join([ft] * 2 * radix)
        head, stores = [f"{pad}%fp = arith.constant {'true' if first else 'false'}"], []
        for q in range(counts[radix]):
            ys = ", ".join(f"%y{q}#{t}" for t in range(2 * radix))
            head += [f"{pad}%o{q} = arith.constant {128 * q} : index",
                     f"{pad}%i{q} = arith.addi %tid, %o{q} : index",
                     f"{pad}%in{q} = arith.cmpi ult, %i{q}, %nb{radix} : index",
                     f"{pad}%y{q}:{2 * radix} = func.call @radix{radix}(%in{q}, "
                     f"{args.format(q=q)}) : ({arg_types}) -> ({outs})"]
            put = (f"{pad}func.call @put{radix}(%in{q}, {puts.format(q=q)}, {ys}) "
                   f": ({put_types}, {outs}) -> ()")
            # a first pass reads no workgroup memory: each butterfly stores at once
            (head if first else stores).append(put)
        return "\n".join(head + ([] if first else [f"{pad}gpu.barrier"]) + stores)

    def first_consts(pad: str) -> list[str]:
        return [f"{pad}%pm1 = arith.constant 0 : index", f"{pad}%p = arith.constant 1 : index",
                f"{pad}%p2 = arith.constant 2 : index", f"{pad}%tb = arith.addi %tb0, %c0 : index"]

    out = {f"radix{r}_first": "\n".join(first_consts(" " * pad) + [calls(r, " " * pad, True)])
           for r, pad in ((2, 12), (4, 14), (8, 16), (16, 20))}
    out["radix16_calls"] = calls(16, " " * 14, False)
    out["radix8_calls"] = calls(8, " " * 14, False)
    out["radix16_staged"] = "\n".join(first_consts(" " * 20) + [calls(16, " " * 20, False)])
    pad = " " * 18
    if mixed:
        branch = []
        for r in (3, 5):
            pd = pad + "  "
            # the pass's block of rotations: (r - 1) rows of two floats at p = 1
            branch.append("\n".join(
                [f"{pd}%c{r}f = arith.constant {r} : index",
                 f"{pd}%nb{r} = func.call @div32(%n, %c{r}f) : (index, index) -> index",
                 f"{pd}%glob = arith.constant false", *first_consts(pd),
                 calls(r, pd, True), f"{pd}gpu.barrier",
                 f"{pd}%block = arith.constant {2 * (r - 1)} : index",
                 f"{pd}%tbn = arith.addi %tb0, %block : index",
                 f"{pd}scf.yield %c{r}f, %tbn : index, index"]))
        out["odd_first"] = "\n".join([
            f"{pad}// n odd: radix 3 when 3 divides it, else radix 5",
            f"{pad}%c3o = arith.constant 3 : index",
            f"{pad}%rem3 = func.call @mod32(%n, %c3o) : (index, index) -> index",
            f"{pad}%first3 = arith.cmpi eq, %rem3, %c0 : index",
            f"{pad}%po, %tbo = scf.if %first3 -> (index, index) {{", branch[0],
            f"{pad}}} else {{", branch[1], f"{pad}}}",
            f"{pad}scf.yield %po, %tbo : index, index"])
        out["radix3_calls"] = calls(3, " " * 14, False)
        out["radix5_calls"] = calls(5, " " * 14, False)
    else:
        # n is a power of two here (@fft_path): never taken
        out["odd_first"] = f"{pad}scf.yield %c1, %tb0 : index, index"
        out["radix3_calls"] = out["radix5_calls"] = ""
    out["fft_mixed"] = "true" if mixed else "false"
    out["fft_np"] = str(nphi)
    # fourier.fft_passes's choice for each power of two 2^a <= 2048 the kernels take: the
    # masks of those whose first pass is of radix R, and of those with radix-16 passes
    masks = {f"first_bits_{r}": 0 for r in (2, 4, 8, 16)} | {"radix16_bits": 0}
    for a in range(1, 12):
        radices = [r for r, _ in fourier.fft_passes(1 << a, fourier.RADIX["mlir"])]
        masks[f"first_bits_{radices[0]}"] |= 1 << a
        if 16 in radices:
            masks["radix16_bits"] |= 1 << a
    out.update({k: str(v) for k, v in masks.items()})
    if nphi:
        passes = fourier.fft_passes(nphi // 2, fourier.RADIX["mlir"])
        first, later = passes[0][0], {r for r, _ in passes[1:]}
        for r in (2, 4, 8, 16):
            if r != first:
                out[f"radix{r}_first"] = ""
        if first != 16:
            out["radix16_staged"] = ""
        for r in (8, 16):
            if r not in later:
                out[f"radix{r}_calls"] = ""
    return out


def fft_radix16(ft: str, direction: dict) -> str:
    """fft_core.mlir's ``@radix16`` and ``@put16`` (placeholder ``radix16_funcs``) in float
    type ``ft`` and the stage's direction (``FFT_DIRECTIONS``), generated: the 16-point DFT
    as two layers of 4-point ones, y_(r1 + 4 r2) = sum_t2 w16^(s r1 t2) w4^(s r2 t2)
    sum_t1 a_(4 t1 + t2) w4^(s r1 t1), with the inner rotations w16^(s j) (j = r1 t2) as
    constants: one pass of it takes the place of two radix-4 passes through workgroup memory."""
    sm = f"memref<4096x{ft}, #gpu.address_space<workgroup>>"
    tw = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    get_t = f"(i1, i1, {sm}, {tw}, index, index, index, {tw}, index, index, index) -> ({ft}, {ft})"
    plus, minus = direction["plus_s"], direction["minus_s"]
    pad = " " * 12
    lines: list[str] = []
    count = itertools.count()

    def op(kind: str, *operands: str) -> str:
        name = f"%v{next(count)}"
        lines.append(f"{pad}{name} = arith.{kind} {', '.join(operands)} : {ft}")
        return name

    def cadd(a, b):
        return op("addf", a[0], b[0]), op("addf", a[1], b[1])

    def csub(a, b):
        return op("subf", a[0], b[0]), op("subf", a[1], b[1])

    def dft4(a):
        # y1 = d02 + s i d13, y3 = d02 - s i d13 (as @radix4)
        s02, d02, s13, d13 = cadd(a[0], a[2]), csub(a[0], a[2]), cadd(a[1], a[3]), csub(a[1], a[3])
        return [cadd(s02, s13), (op(minus, d02[0], d13[1]), op(plus, d02[1], d13[0])),
                csub(s02, s13), (op(plus, d02[0], d13[1]), op(minus, d02[1], d13[0]))]

    def rotate(x, j):
        # x w16^(s j) = x (cos(pi j / 8) + s i sin(pi j / 8)); j = r1 t2 < 10
        if j == 0:
            return x
        if j == 4:  # s i
            if direction["sign"] == "+":
                return op("negf", x[1]), x[0]
            return x[1], op("negf", x[0])
        re = op(minus, op("mulf", x[0], f"%cos{j}"), op("mulf", x[1], f"%sin{j}"))
        im = op(plus, op("mulf", x[1], f"%cos{j}"), op("mulf", x[0], f"%sin{j}"))
        return re, im

    consts = [f"          %cos{j} = arith.constant {math.cos(math.pi * j / 8):.20f} : {ft}\n"
              f"          %sin{j} = arith.constant {math.sin(math.pi * j / 8):.20f} : {ft}"
              for j in (1, 2, 3, 6, 9)]
    a = [(f"%a{t}r", f"%a{t}i") for t in range(16)]
    b = [dft4([a[4 * t1 + t2] for t1 in range(4)]) for t2 in range(4)]
    c = [[rotate(b[t2][r1], r1 * t2) for r1 in range(4)] for t2 in range(4)]
    y = [None] * 16
    for r1 in range(4):
        for r2, v in enumerate(dft4([c[t2][r1] for t2 in range(4)])):
            y[r1 + 4 * r2] = v
    outs = ", ".join([ft] * 32)
    ys = ", ".join(f"{v[0]}, {v[1]}" for v in y)
    loads = [f"{pad}%k = arith.andi %i, %pm1 : index", f"{pad}%k2 = arith.muli %k, %c2 : index",
             f"{pad}%a0r, %a0i = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, "
             f"%srcm, %sbase, %n, %lim) : {get_t}"]
    prev_i, prev_t = "%i", None
    for t in range(1, 16):
        # a_t = x[i + t n/16] rotated by the block's entry (t - 1) p + k
        step = "%tb, %k2" if t == 1 else f"{prev_t}, %p2"
        loads += [f"{pad}%i{t} = arith.addi {prev_i}, %nb16 : index",
                  f"{pad}%t{t} = arith.addi {step} : index",
                  f"{pad}%a{t}r, %a{t}i = func.call @get(%first, %true, %sm, %tw, %i{t}, %half, "
                  f"%t{t}, %srcm, %sbase, %n, %lim) : {get_t}"]
        prev_i, prev_t = f"%i{t}", f"%t{t}"
    zeros = ", ".join(["%zero"] * 32)
    radix = "\n".join([
        "        // Radix-16 butterfly %i (when %in) of a pass with sub-transform length p (%pm1 =",
        "        // p - 1, %p2 = 2 p), rotations exp(2 pi i r k / (16 p)) from %tw[%tb] (the pass's",
        "        // block of ireesht/fourier.py): y_r = sum_t x[i + t n/16] w^(t k) exp(s 2 pi i r t",
        "        // / 16). Generated by ireesht/kernels_mlir.py fft_radix16.",
        f"        func.func private @radix16(%in: i1, %sm: {sm}, %tw: {tw},",
        f"            %i: index, %nb16: index, %half: index, %pm1: index, %p2: index, %tb: index, "
        f"%first: i1, %srcm: {tw}, %sbase: index, %n: index, %lim: index) -> ({outs}) {{",
        "          %c0 = arith.constant 0 : index", "          %c2 = arith.constant 2 : index",
        "          %true = arith.constant true", "          %false = arith.constant false",
        f"          %zero = arith.constant 0.0 : {ft}", *consts,
        f"          %y:32 = scf.if %in -> ({outs}) {{", *loads, *lines,
        f"            scf.yield {ys} : {outs}",
        "          } else {", f"            scf.yield {zeros} : {outs}", "          }",
        "          return " + ", ".join(f"%y#{j}" for j in range(32)) + f" : {outs}",
        "        }"])
    out_t = f"(i1, {sm}, {tw}, index, index, index, {ft}, {ft}) -> ()"

    def puts(glob: str) -> list[str]:
        body = [f"              %j0 = arith.addi %ik16, %k : index"]
        for r in range(16):
            if r:
                body.append(f"              %j{r} = arith.addi %j{r - 1}, %p : index")
            body.append(f"              func.call @out({glob}, %sm, %dst, %dbase, %j{r}, %half, "
                        f"%y{r}r, %y{r}i) : {out_t}")
        return body

    args = ", ".join(f"%y{r}r: {ft}, %y{r}i: {ft}" for r in range(16))
    put = "\n".join([
        "        // The outputs of @radix16's butterfly %i to y[(i - k) 16 + k + r p], k = i mod p.",
        f"        func.func private @put16(%in: i1, %sm: {sm}, %i: index, %pm1: index, %p: index, "
        f"%half: index, %glob: i1, %dst: {tw}, %dbase: index,",
        f"            {args}) {{",
        "          %c16 = arith.constant 16 : index",
        "          %gt = arith.constant true", "          %gf = arith.constant false",
        "          scf.if %in {",
        "            %k = arith.andi %i, %pm1 : index",
        "            %ik = arith.subi %i, %k : index",
        "            %ik16 = arith.muli %ik, %c16 : index",
        "            scf.if %glob {", *puts("%gt"), "            } else {", *puts("%gf"),
        "            }", "          }", "          return", "        }"])
    return radix + "\n\n" + put + "\n"


def _analys_part(span: int, nf: int, lanes: int) -> tuple[int, int]:
    """(rows, columns) of leg_analys.mlir's workgroup array part, which holds the partial sums
    of a span's 2 nf span values, 128 / lanes per value. With lane sums, rows of the values
    (lanes more, so that the stores too are free of bank conflicts); else rows of each value's
    128 partial sums (one more: each thread of @row_sum reads its own bank)."""
    values = span * 2 * nf
    return (ANALYS_WG // lanes, values + lanes) if lanes > 1 else (values, ANALYS_WG + 1)


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


def legendre_values(plan: Plan, nf: int, kp: int, ft: str) -> dict:
    """The Legendre stages' substitutions for nf fields and kp pairs per thread of float
    type ft: the (pair, field) slots, ``@node_times``, and ``pin``, the predicate of the "y
    is not NaN" guard of legendre_core.mlir (``ord`` on SPIR-V drivers, which re-fuse fma;
    ``true``, folded away, on CUDA, whose LLVM keeps fma as written)."""
    return dict(nf=nf, kp=kp, slots=kp * nf, vote_group=VOTE_GROUP,
                node_times=_node_times(kp, ft),
                pin="true" if plan.target == "cuda" else "ord")


def stage_values(plan: Plan, values: dict, every_fft_pass: bool = False) -> dict[str, dict]:
    """The substitutions of each stage template (see the module doc); the Fourier stages with
    the FFT passes of the plan's row length only, or of every length (``fft_pass_calls``)."""
    _, _, pipeline = executable_target(plan)
    if values["ft"] not in FLOAT_FORMATS:
        raise ValueError(f"dtype={plan.dtype!r}: the mlir kernels have no {values['ft']} layout yet")
    common = {**values, **FLOAT_FORMATS[values["ft"]], "target": "#target", "pipeline": pipeline}
    core = split_sections((kernels_dir() / "legendre_core.mlir").read_text(), "part")
    fft_parts = split_sections((kernels_dir() / "fft_core.mlir").read_text(), "part")
    fft_calls = fft_pass_calls(values["ft"], fourier.fft_mixed(plan.nphi),
                               0 if every_fft_pass or not fourier.fft_path(plan.nphi)
                               else plan.nphi)
    out = {}
    for stage in STAGES:
        v = {**common, "exe": stage}
        if stage == "leg_synth" and mma_synthesis(plan):
            v = _mma_synth_values(plan, v, core)
        elif stage == "leg_synth" and plan.recurrence == "ishioka":
            v = _ishioka_synth_values(plan, v, core)
        elif stage == "leg_synth":
            # (pair, field) slots: four, so nf = 4 takes one pair per thread, but on CUDA
            # grids of CUDA_SLOTS_PAIRS pairs and more two
            nf = plan.fields_per_thread
            big = plan.target == "cuda" and plan.npairs >= CUDA_SLOTS_PAIRS
            cap = CUDA_SLOTS if big else SLOTS
            kp = _pairs_per_thread(plan.npairs, SYNTH_WG, min(SYNTH_PAIRS, cap // nf))
            v.update(legendre_values(plan, nf, kp, values["ft"]),
                     vote_flags=2 * SYNTH_WG // VOTE_GROUP,
                     synth_gx=-(-plan.npairs // (SYNTH_WG * kp)),
                     synth_round=SYNTH_ROUND,
                     expand_v=_expand(kp, kp * nf, values["ft"], True),
                     expand_f=_expand(nf, kp * nf, values["ft"], False))
        elif stage == "leg_analys" and mma_analysis(plan):
            v = _mma_analys_values(plan, v, core)
        elif stage == "leg_analys" and ishioka_analysis(plan):
            v = _ishioka_analys_values(plan, v, core)
        elif stage == "leg_analys" and lanes64_analysis(plan):
            v = _lanes64_analys_values(plan, v, core)
        elif stage == "leg_analys":
            # up to four pairs per thread whatever nf: a thread's sum over its pairs comes
            # before any traffic through workgroup memory
            kp = _pairs_per_thread(plan.npairs, ANALYS_WG, ANALYS_PAIRS)
            v.update(legendre_values(plan, analys_fields_per_thread(plan), kp, values["ft"]),
                     vote_flags=2 * ANALYS_WG // VOTE_GROUP)
            # degrees per span: 32 at most (H200, lmax 1023: one field 0.26 against 0.29 ms
            # with 16; lane sums with four fields 4% faster than 16 and 25% than 8), 64 for
            # one field over lane pairs (plan.LANE_PAIR_GRIDS: its partial sums take half
            # the room); part takes at most 16.5 KB of workgroup memory on SPIR-V (room on
            # 32 KB devices: lavapipe, Apple), 48 KB on CUDA (the static limit)
            nf, lanes = v["nf"], analys_lane_group(plan, v["nf"])
            limit = 48 * 1024 if plan.target == "cuda" else 16896
            size = FLOAT_BYTES[values["ft"]]
            span = 64 if nf == 1 and lanes == 2 else 32
            while span > 4 and math.prod(_analys_part(span, nf, lanes)) * size > limit:
                span //= 2
            values_ = span * 2 * nf  # summed values per span
            rows, cols = _analys_part(span, nf, lanes)
            if rows * cols * size > limit:
                raise ValueError(f"fields_per_thread={nf} with dtype={plan.dtype!r}: its "
                                 f"analysis rows do not fit {limit} bytes of workgroup memory")
            row_stride, value_stride = (cols, 1) if lanes > 1 else (1, cols)
            count = max(1, min(ROW_PIECES, ANALYS_WG // values_))
            v.update(span=span, part=rows * cols, row_stride=row_stride,
                     value_stride=value_stride, degree_stride=2 * nf * value_stride,
                     span_values=values_, lane_group=lanes,
                     lane_mask=lanes - 1, idle_group=VOTE_GROUP if lanes > 1 else 1,
                     independent_lanes="true" if lanes == 1 else "false",
                     piece_count=count, piece_rows=ANALYS_WG // lanes // count,
                     value_block=min(values_, ANALYS_WG), one_piece="true" if count == 1 else "false",
                     contribute=_contribute(v["kp"], nf, values["ft"], rows * cols, lanes,
                                            value_stride))
        if stage in CORE_PARTS and "legendre_core" not in v:  # the float32 scheme's
            v["legendre_core"] = _core(core, CORE_PARTS[stage], v)
        if stage in FFT_DIRECTIONS:
            fv = {**v, **FFT_DIRECTIONS[stage], **fft_calls,
                  **_pair_access(plan.target, values["ft"]),
                  "radix16_funcs": fft_radix16(values["ft"], FFT_DIRECTIONS[stage])}
            v["fft_funcs"] = string.Template(fft_parts["funcs"]).substitute(fv)
            v["fft_core"] = string.Template(fft_parts["passes"]).substitute(fv)
        out[stage] = v
    if mma_synthesis(plan):  # the fields past the whole groups of 16
        out[REST_STAGE] = _ishioka_synth_values(plan, {**common, "exe": REST_STAGE}, core,
                                                rest=True)
    return out


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


def _pair_access(target: str, ft: str) -> dict[str, str]:
    """Bodies of fft_core.mlir's ``@pair_load`` and ``@pair_store`` (the floats at %o and %o
    + 1 of %a, %o even): one vector access aligned to the pair on CUDA, two scalar ones
    elsewhere (``_pair_store``)."""
    buf = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    if target == "cuda":
        load = [f"%v = vector.load %a[%o] alignment = {2 * FLOAT_BYTES[ft]} : {buf}, "
                f"vector<2x{ft}>",
                f"%x = vector.extract %v[0] : {ft} from vector<2x{ft}>",
                f"%y = vector.extract %v[1] : {ft} from vector<2x{ft}>"]
        head = []
    else:
        head = ["%c1 = arith.constant 1 : index", "%o1 = arith.addi %o, %c1 : index"]
        load = head + [f"%x = memref.load %a[%o] : {buf}", f"%y = memref.load %a[%o1] : {buf}"]
    store = head + _pair_store(target, ft, buf, "%a[%o]", "%a[%o1]", "%x", "%y")
    return {name: "\n".join(" " * 10 + line for line in body)
            for name, body in (("pair_load", load + [f"return %x, %y : {ft}, {ft}"]),
                               ("pair_store", store + ["return"]))}


def _ishioka_synth_values(plan: Plan, v: dict, core: dict[str, str], rest: bool = False) -> dict:
    """The substitutions of leg_synth_ishioka.mlir: ``v`` (the plan's, ``ft`` its data type)
    with the float64 state's slots and pieces. Two pairs per thread with one field, one with
    more: at most four (pair, field) slots of float64, as SPIR-V vectors hold four. With
    ``rest``, its fields are those past the whole groups of ``MMA_FIELDS`` that
    leg_synth_mma.mlir takes (``REST_STAGE``)."""
    nf = plan.fields_per_thread
    g = MMA_FIELDS
    fields = (f"fields {g} floor(B / {g}) .. B - 1" if rest else "fields 0 .. B - 1")
    # the rest: one row of workgroups, which run nothing, where there is none
    grid_yz = ([f"%gz = affine.max affine_map<()[s0] -> ((s0 mod {g}) ceildiv {nf}, 1)>()[%b]",
                f"%rest = affine.apply affine_map<()[s0] -> (s0 mod {g})>()[%b]",
                "%none = arith.constant 0 : index", "%one = arith.constant 1 : index",
                f"%mcg = arith.constant {plan.mc} : index",
                "%some = arith.cmpi ugt, %rest, %none : index",
                "%gy = arith.select %some, %mcg, %one : index"] if rest
               else [f"%gy = arith.constant {plan.mc} : index",
                     f"%gz = affine.apply affine_map<()[s0] -> (s0 ceildiv {nf})>()[%b]"])
    first = ([f"%cgroup = arith.constant {g} : index",
              "%ngroup = arith.divui %nfields, %cgroup : index",
              "%bfirst = arith.muli %ngroup, %cgroup : index"] if rest
             else ["%bfirst = arith.constant 0 : index"])
    v = {**v, "fields": fields, "grid_yz": "\n".join(" " * 8 + line for line in grid_yz),
         "first_field": "\n".join(" " * 10 + line for line in first)}
    kp = _pairs_per_thread(plan.npairs, SYNTH_WG, max(1, ISHIOKA_SLOTS // 2 // nf))
    ft = v["ft"]
    out = {**v, "nf": nf, "kp": kp, "slots": kp * nf, "vote_group": VOTE_GROUP,
           "vote_flags": 2 * SYNTH_WG // VOTE_GROUP,
           "synth_gx": -(-plan.npairs // (SYNTH_WG * kp)), "synth_round": SYNTH_ROUND,
           "span": ISHIOKA_SYNTH_SPAN, "put": "\n".join(" " * 10 + line for line in _pair_store(
               plan.target, ft, f"memref<?x?x?x2x{ft}, #hal.descriptor_type<storage_buffer>>",
               "%F[%b, %i, %m, %c0]", "%F[%b, %i, %m, %c1]", "%re", "%im")),
           **_ishioka_conversions(ft)}
    at = "f32" if ft == "f32" and nf >= ISHIOKA_FLOAT32_SUMS else "f64"
    out.update(at=at, expand_v=_expand(kp, kp * nf, at, True),
               expand_f=_expand(nf, kp * nf, at, False), **_ishioka_sums(kp, at))
    b = ISHIOKA_SCALING
    # every seed the kernel runs is live, or on level -1 with level sums (float32 data: their
    # bound, ISHIOKA_SCALING): the careful loop is left out (its registers cut the lean loop's
    # occupancy: H200, lmax 1023, 74 -> 58 registers, stage 115 -> 105 us)
    level = _lowest_level(plan)
    level_sums = level == -1 and ft == "f32" and at == "f64"
    out["lean_only"] = "true" if level >= 0 or level_sums else "false"
    out["level_sums"] = "true" if level_sums else "false"
    state = {**out, "ft": "f64", "it": "i64", "threshold": repr(2.0 ** b["threshold_bits"]),
             "shrink": repr(2.0 ** -b["scale_bits"])}
    out["legendre_core"] = "\n".join([_core(core, ("polar", "ishioka"), out),
                                      _core(core, ("scaling",), state),
                                      _core(core, ("synth_grid",), out)])
    return out


def _mma_plan(plan: Plan) -> bool:
    """Whether a plan is one the tensor-core kernels serve: CUDA, float32 data,
    ``fields_per_thread=4`` (the batch plans), a grid of ``MMA_PAIRS`` latitude pairs or more,
    and every seed live (the kernels have no careful loop)."""
    return (plan.kernels == "mlir" and plan.target == "cuda" and plan.dtype == "float32"
            and plan.fields_per_thread == 4 and plan.npairs >= MMA_PAIRS
            and _lowest_level(plan) >= 0)


def mma_synthesis(plan: Plan) -> bool:
    """Whether the plan's Legendre synthesis runs leg_synth_mma.mlir (tensor cores,
    ``MMA_FIELDS`` fields per workgroup): the "ishioka" recurrence on a plan of
    ``_mma_plan``."""
    return plan.recurrence == "ishioka" and _mma_plan(plan)


def _mma_synth_values(plan: Plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_synth_mma.mlir: its fields per workgroup (``MMA_FIELDS``,
    four per tile of 8 columns), its workgroup arrays' sizes and the unrolled bodies of the
    staging, the products and ``@store``."""
    nf, warps = MMA_FIELDS, MMA_WARPS
    col_stride = 2 * ISHIOKA_SYNTH_SPAN + MMA_COLUMN_PAD
    z = dict(nf=nf, part=nf * 64 // (32 * warps), nt=nf // 4, nacc=2 * nf,
             rows=ISHIOKA_SYNTH_SPAN + 8, col_stride=col_stride, c_size=4 * nf * col_stride,
             wg=32 * warps, warps=warps, wpairs=16 * warps)
    out = {**v, **z, "span": ISHIOKA_SYNTH_SPAN, "synth_gx": -(-plan.npairs // z["wpairs"]),
           "synth_round": SYNTH_ROUND, **_ishioka_conversions(v["ft"])}
    out.update(kstep0=_mma_kstep("a", "%r0", "%bo0", "%zacc", "%k0", z),
               kstep1=_mma_kstep("b", "%r1", "%bo1", "%k0", "%k1", z),
               store=_mma_store(z, v["ft"]), stage_fields=_mma_stage_fields(z, v["ft"]))
    out["legendre_core"] = _core(core, ("polar", "ishioka", "mma", "synth_grid"), out)
    return out


def _mma_stage_fields(z: dict, ft: str) -> str:
    """leg_synth_mma.mlir's staging of one step's coefficients of ``part`` of the fields (a
    thread's share), unrolled: every load first, then each value's (hi, lo) to its column."""
    pad = " " * 10
    q = f"memref<?x?x2x{ft}, #hal.descriptor_type<storage_buffer>>"
    cs = f"memref<{z['c_size']}xf32, #gpu.address_space<workgroup>>"
    lines, puts = [], []
    for i in range(z["part"]):
        lines += [f"{pad}%sf{i}c = arith.constant {i} : index",
                  f"{pad}%sb{i}0 = arith.addi %bf, %sf{i}c : index",
                  f"{pad}%sb{i} = arith.minui %sb{i}0, %blast : index"]
        for name, idx, c in (("ar", "%ia", "%c0"), ("ai", "%ia", "%c1"),
                             ("cr", "%ic", "%c0"), ("ci", "%ic", "%c1")):
            lines.append(f"{pad}%sq{name}{i} = memref.load %q[%sb{i}, {idx}, {c}] : {q}")
        puts += [(2 * i, f"%sqar{i}", "%fe"), (2 * i + 1, f"%sqai{i}", "%fe"),
                 (2 * z["nf"] + 2 * i, f"%sqcr{i}", "%fo"),
                 (2 * z["nf"] + 2 * i + 1, f"%sqci{i}", "%fo")]
    for col, val, fac in puts:
        lines += [f"{pad}%sv{col} = arith.mulf {val}, {fac} : f32",
                  f"{pad}%so{col}c = arith.constant {col * z['col_stride']} : index",
                  f"{pad}%so{col} = arith.addi %ro, %so{col}c : index",
                  f"{pad}func.call @put_coef(%c_s, %so{col}, %sv{col}) : ({cs}, index, f32) -> ()"]
    return "\n".join(lines)


def _tf32x3(n: str, a: tuple[str, str], b: tuple[str, str], acc: str, out: str) -> list[str]:
    """The three tf32 products of 3xTF32 (``nvgpu.mma.sync`` m16n8k8), A fragments ``a`` and
    B fragments ``b`` as (hi, lo): lo hi, hi lo, then hi hi (the small terms first) added to
    ``acc``, into ``out`` (intermediates prefixed ``n``). Inline in @main: IREE 3.13 fails to
    reconcile the workgroup size of a called function that holds nvgpu.mma.sync."""
    mma = ("nvgpu.mma.sync({}, {}, {}) mmaShape = [16, 8, 8] tf32Enabled "
           ": (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>")
    (ah, al), (bh, bl) = a, b
    return [f"{n}d1 = " + mma.format(al, bh, acc),
            f"{n}d2 = " + mma.format(ah, bl, f"{n}d1"),
            f"{out} = " + mma.format(ah, bh, f"{n}d2")]


def _mma_kstep(x: str, frags: str, bo: str, acc: str, out: str, z: dict) -> str:
    """One k of leg_synth_mma.mlir's products (inline in @main, ``_tf32x3``), its values prefixed
    ``x``: tile (par, j) (the warp's 16 pairs, even or odd, columns 8 j .. 8 j + 7 of that
    parity; at 4 (par nt + j) of ``acc``: c0 .. c3 of its fragment) takes the A fragments
    ``frags``#2 .. #5 (even hi, lo, odd hi, lo) and its B fragment at ``bo`` of its column
    block in c_s, three tf32 products each, into ``out``."""
    pad = " " * 14
    cs = f"memref<{z['c_size']}xf32, #gpu.address_space<workgroup>>"
    nt, nacc, k = z["nt"], z["nacc"], []
    vec = f"vector<{nacc}xf32>"
    cur, tiles = acc, [(par, j) for par in range(2) for j in range(nt)]
    for i, (par, j) in enumerate(tiles):
        v, n = f"%{x}vb{par}{j}", f"%{x}t{par}{j}"
        col, o = par * 2 * z["nf"] + 8 * j, 4 * (par * nt + j)
        ah, al = f"{frags}#{2 + 2 * par}", f"{frags}#{3 + 2 * par}"
        res = out if i == len(tiles) - 1 else f"{n}acc"
        k += [f"{v}c = arith.constant {col * z['col_stride']} : index",
              f"{v}o = arith.addi {bo}, {v}c : index",
              f"{v} = vector.load %c_s[{v}o] : {cs}, vector<4xf32>"]
        k += [f"{v}_{e} = vector.extract {v}[{e}] : f32 from vector<4xf32>" for e in range(4)]
        k += [f"{n}bh = vector.from_elements {v}_0, {v}_1 : vector<2x1xf32>",
              f"{n}bl = vector.from_elements {v}_2, {v}_3 : vector<2x1xf32>",
              f"{n}f = vector.extract_strided_slice {cur} offsets = [{o}], sizes = [4], "
              f"strides = [1] : {vec} to vector<4xf32>",
              f"{n}d0 = vector.shape_cast {n}f : vector<4xf32> to vector<2x2xf32>",
              *_tf32x3(n, (ah, al), (f"{n}bh", f"{n}bl"), f"{n}d0", f"{n}d3"),
              f"{n}e = vector.shape_cast {n}d3 : vector<2x2xf32> to vector<4xf32>",
              f"{res} = vector.insert_strided_slice {n}e, {cur} offsets = [{o}], "
              f"strides = [1] : vector<4xf32> into {vec}"]
        cur = res
    return "\n".join(pad + line for line in k)


def _mma_store(z: dict, ft: str) -> str:
    """Body of leg_synth_mma.mlir's ``@store``: each (tile, row) of the lane's sums, field
    4 j + t of pair p0 (+ 8), to ``@put``."""
    pad = " " * 10
    nt, nacc = z["nt"], z["nacc"]
    fmem = f"memref<?x?x?x2x{ft}, #hal.descriptor_type<storage_buffer>>"
    st = [f"{pad}%c8 = arith.constant 8 : index",
          f"{pad}%bt = arith.addi %b0, %t : index",
          f"{pad}%p1 = arith.addi %p0, %c8 : index",
          f"{pad}%x0 = vector.extract %x[0] : f64 from vector<2xf64>",
          f"{pad}%x1 = vector.extract %x[1] : f64 from vector<2xf64>"]
    for j in range(nt):
        st += [f"{pad}%bj{j}c = arith.constant {4 * j} : index",
               f"{pad}%bj{j} = arith.addi %bt, %bj{j}c : index"]
        for r in range(2):
            e, o = 4 * j + 2 * r, 4 * (nt + j) + 2 * r
            vals = []
            for name, at in (("er", e), ("ei", e + 1), ("or", o), ("oi", o + 1)):
                st.append(f"{pad}%{name}{r}{j} = vector.extract %acc[{at}] : f32 from vector<{nacc}xf32>")
                vals.append(f"%{name}{r}{j}")
            st.append(f"{pad}func.call @put(%F, %p{r}, %x{r}, %bj{j}, %nlat, %npairs, %nfields, %m, "
                      f"{', '.join(vals)}) : ({fmem}, index, f64, index, index, index, index, "
                      f"index, f32, f32, f32, f32) -> ()")
    return "\n".join(st)


def mma_analysis(plan: Plan) -> bool:
    """Whether the plan's Legendre analysis runs leg_analys_mma.mlir (tensor cores,
    ``MMA_ANALYS_FIELDS`` fields per workgroup): the "ishioka" recurrence in the analysis
    (``Plan.analys_recurrence``) on a plan of ``_mma_plan`` whose grid has at most
    ``MMA_ANALYS_PAIRS`` latitude pairs."""
    return (plan.analys_recurrence == "ishioka" and plan.npairs <= MMA_ANALYS_PAIRS
            and _mma_plan(plan))


def _mma_analys_values(plan: Plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys_mma.mlir: its warps (one per 32 pairs), its window of
    steps, its workgroup arrays' sizes (a warp's rows of values: 2 win rows of 36 floats; its
    sums: two parities of 16 win floats and 8 of padding) and the unrolled bodies."""
    nw, win = -(-plan.npairs // 32), MMA_ANALYS_WINDOW
    z = dict(nf=MMA_ANALYS_FIELDS, nw=nw, wg=32 * nw, win=win, win_less1=win - 1, nh=win // 8,
             rows=2 * win, par_rows=36 * win, warp_floats=72 * win, p_size=72 * win * nw,
             par_stride=16 * win + 8, warp_sums=2 * (16 * win + 8), outs=32 * win, fvals=4 * win)
    z.update(r_half=z["warp_sums"] * nw, r_size=2 * z["warp_sums"] * nw)
    ft = v["ft"]
    out = {**v, **z, **_ishioka_conversions(ft), "gfrags": _mma_analys_frags(ft),
           "chain_steps": _mma_analys_chain(z), "warp_sum": _mma_analys_warp_sum(z),
           **_mma_analys_products(z)}
    out["legendre_core"] = _core(core, ("polar", "ishioka", "mma"), out)
    return out


def _mma_analys_frags(ft: str) -> str:
    """leg_analys_mma.mlir's A fragments of the lane, for its warp's four k of 8 pairs:
    %gf<j>#0 .. #3 (even hi, lo, odd hi, lo)."""
    pad = " " * 10
    buf = f"memref<?x?x?x2x{ft}, #hal.descriptor_type<storage_buffer>>"
    w = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    x = f"memref<?x4x{ft}, #hal.descriptor_type<storage_buffer>>"
    frag = ", ".join(["vector<4x1xf32>"] * 4)
    lines = []
    for j in range(4):
        lines += [f"%gp{j}c = arith.constant {8 * j} : index",
                  f"%gp{j} = arith.addi %pt, %gp{j}c : index",
                  f"%gf{j}:4 = func.call @gfrag(%F, %wtab, %xtab, %gp{j}, %bg, %cg, %npairs, %nlat, "
                  f"%nfields, %m) : ({buf}, {w}, {x}, index, index, index, index, index, index, "
                  f"index) -> ({frag})"]
    return "\n".join(pad + line for line in lines)


def _mma_analys_products(z: dict) -> dict[str, str]:
    """leg_analys_mma.mlir's ``ksteps`` (a window's products: per k, parity and tile h of 8
    steps, the B fragment from the warp's rows and ``_tf32x3`` into %c<e|o><h>) and
    ``cstore`` (each tile's rows g and g + 8 to the warp's sums from %cb)."""
    pad = " " * 14
    ps = f"memref<{z['p_size']}xf32, #gpu.address_space<workgroup>>"
    rs = f"memref<{z['r_size']}xf32, #gpu.address_space<workgroup>>"
    frags = "(vector<2x1xf32>, vector<2x1xf32>)"
    tiles = [(par, name, h) for par, name in enumerate("eo") for h in range(z["nh"])]
    k, acc = [], {tile: "%zc" for tile in tiles}
    for j in range(4):
        for tile in tiles:
            par, name, h = tile
            n = f"%k{j}{name}{h}"
            res = f"%c{name}{h}" if j == 3 else f"{n}d3"
            a = (f"%gf{j}#{2 * par}", f"%gf{j}#{2 * par + 1}")
            k += [f"{n}c = arith.constant {z['par_rows'] * par + 36 * 8 * h + 8 * j} : index",
                  f"{n}o = arith.addi %lo, {n}c : index",
                  f"{n}b:2 = func.call @bfrag(%p_s, {n}o) : ({ps}, index) -> {frags}",
                  *_tf32x3(n, a, (f"{n}b#0", f"{n}b#1"), acc[tile], res)]
            acc[tile] = res
    store = []
    for par, name, h in tiles:
        for r in range(2):
            n = f"%s{name}{h}{r}"
            at = z["par_stride"] * par + 8 * h + 8 * z["win"] * r
            store += [f"{n}v = vector.extract %c{name}{h}[{r}] : vector<2xf32> from vector<2x2xf32>",
                      f"{n}c = arith.constant {at} : index",
                      f"{n}o = arith.addi %cb, {n}c : index",
                      f"vector.store {n}v, %r_s[{n}o] : {rs}, vector<2xf32>"]
    return {"ksteps": "\n".join(pad + line for line in k),
            "cstore": "\n".join(pad + line for line in store)}


def _mma_analys_chain(z: dict) -> str:
    """Body of leg_analys_mma.mlir's ``@chain``: its ``win`` steps unrolled."""
    pad = " " * 10
    f64s = f"memref<{z['rows']}x2xf64, #gpu.address_space<workgroup>>"
    ps = f"memref<{z['p_size']}xf32, #gpu.address_space<workgroup>>"
    lines, y1, y0 = ["%c0 = arith.constant 0 : index"], "%y1", "%y0"
    for j in range(z["win"]):
        n = f"%s{j}"
        lines += [f"{n}j = arith.constant {j} : index",
                  f"{n}row = arith.addi %j0, {n}j : index",
                  f"{n}ee = vector.load %ee_s[{n}row, %c0] : {f64s}, vector<2xf64>",
                  f"{n}e1 = vector.extract {n}ee[0] : f64 from vector<2xf64>",
                  f"{n}e2 = vector.extract {n}ee[1] : f64 from vector<2xf64>",
                  f"{n}pa = arith.mulf {n}e2, {y0} : f64",
                  f"{n}pe = math.fma {n}e1, {y1}, {n}pa : f64",
                  f"{n}ab = vector.load %ab_s[{n}row, %c0] : {f64s}, vector<2xf64>",
                  f"{n}al = vector.extract {n}ab[0] : f64 from vector<2xf64>",
                  f"{n}be = vector.extract {n}ab[1] : f64 from vector<2xf64>",
                  f"{n}t = math.fma {n}al, %u, {n}be : f64",
                  f"{n}yn = math.fma {n}t, {y1}, {y0} : f64",
                  f"{n}pef = arith.truncf {n}pe : f64 to f32",
                  f"{n}yf = arith.truncf {y1} : f64 to f32",
                  f"{n}ec = arith.constant {36 * j} : index",
                  f"{n}oe = arith.addi %so, {n}ec : index",
                  f"{n}oc = arith.constant {36 * j + z['par_rows']} : index",
                  f"{n}oo = arith.addi %so, {n}oc : index",
                  f"memref.store {n}pef, %p_s[{n}oe] : {ps}",
                  f"memref.store {n}yf, %p_s[{n}oo] : {ps}"]
        y1, y0 = f"{n}yn", y1
    lines.append(f"return {y1}, {y0} : f64, f64")
    return "\n".join(pad + line for line in lines)


def _mma_analys_warp_sum(z: dict) -> str:
    """Body of leg_analys_mma.mlir's ``@warp_sum``: the ``nw`` warps' values loaded at once
    (those of warps past %nact taken as 0), then added in a tree."""
    rs = f"memref<{z['r_size']}xf32, #gpu.address_space<workgroup>>"
    lines = ["%zero = arith.constant 0.0 : f32"]
    for i in range(z["nw"]):
        lines += [f"%w{i}c = arith.constant {i} : index",
                  f"%w{i}o0 = arith.constant {i * z['warp_sums']} : index",
                  f"%w{i}o = arith.addi %o, %w{i}o0 : index",
                  f"%w{i}x = memref.load %r_s[%w{i}o] : {rs}",
                  f"%w{i}in = arith.cmpi ult, %w{i}c, %nact : index",
                  f"%w{i} = arith.select %w{i}in, %w{i}x, %zero : f32"]
    terms, level = [f"%w{i}" for i in range(z["nw"])], 0
    while len(terms) > 1:
        pairs = [(terms[i], terms[i + 1]) for i in range(0, len(terms) - 1, 2)]
        lines += [f"%a{level}_{i} = arith.addf {a}, {b} : f32" for i, (a, b) in enumerate(pairs)]
        terms = [f"%a{level}_{i}" for i in range(len(pairs))] + terms[2 * len(pairs):]
        level += 1
    lines.append(f"return {terms[0]} : f32")
    return "\n".join(" " * 10 + line for line in lines)


def _ishioka_analys_values(plan: Plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys_ishioka.mlir (``ishioka_analysis`` plans): its
    sizes (``_ishioka_analys_shape``) and the unrolled bodies."""
    sizes = _ishioka_analys_shape(plan)
    out = {**v, **sizes, **_ishioka_conversions(v["ft"])}
    out.update(_ishioka_analys_bodies(sizes))
    out["legendre_core"] = _core(core, ("polar", "ishioka"), out)
    return out


def _ishioka_analys_bodies(z: dict) -> dict[str, str]:
    """``load_parts`` (the lane's part of F, %my<i>: chunk i of four pairs), ``sums``
    (@sums) and @sums's parameters, arguments and their types, for
    leg_analys_ishioka.mlir, unrolled over the group's ``ni`` chunks."""
    ni = z["ni"]
    ys = f"memref<{z['ys_size']}xf32, #gpu.address_space<workgroup>>"
    part = f"memref<{z['part_size']}xf32, #gpu.address_space<workgroup>>"
    pad = " " * 10
    names = [f"%my{i}" for i in range(ni)]
    load = []
    for i in range(ni):
        load += [f"{pad}%lo{i}c = arith.constant {4 * i} : index",
                 f"{pad}%lo{i} = arith.addi %sgc, %lo{i}c : index",
                 f"{pad}%my{i} = vector.load %ys[%lo{i}] : {ys}, vector<4xf32>"]
    sums = []
    for i in range(ni):
        sums += [f"{pad}%so{i} = arith.constant {4 * i} : index",
                 f"{pad}%ya{i} = arith.addi %yr, %so{i} : index",
                 f"{pad}%yv{i} = vector.load %ys[%ya{i}] : {ys}, vector<4xf32>",
                 f"{pad}%a{i} = arith.mulf %yv{i}, %my{i} : vector<4xf32>" if i == 0 else
                 f"{pad}%a{i} = math.fma %yv{i}, %my{i}, %a{i - 1} : vector<4xf32>"]
    sums += [f"{pad}%s = vector.reduction <add>, %a{ni - 1} : vector<4xf32> into f32",
             f"{pad}memref.store %s, %part[%pb] : {part}"]
    return {"load_parts": "\n".join(load), "sums": "\n".join(sums),
            "my_params": ", ".join(f"{n}: vector<4xf32>" for n in names),
            "my_args": ", ".join(names), "my_types": ", ".join(["vector<4xf32>"] * ni)}


def _lowest_level(plan: Plan) -> int:
    """The lowest level k' of the float64 state of the Ishioka kernels (``ISHIOKA_SCALING``)
    over the seeds the Legendre kernels run: 0 when every one starts live."""
    ft = {"float32": "f32", "float64": "f64"}[plan.dtype]
    b = ISHIOKA_SCALING
    return ((FLOAT_FORMATS[ft]["scale_bits"] * _lowest_seed_counter(plan) + b["live_bits"])
            // b["scale_bits"])


def _ishioka_analys_shape(plan: Plan) -> dict | None:
    """leg_analys_ishioka.mlir's sizes for the plan: ``kp`` pairs per thread (one up to 256
    pairs, else two, else the other where the target's limits allow only that), ``nw``
    groups of 32 threads, and its arrays; None past ``ISHIOKA_ANALYS_PAIRS`` or if no shape
    fits ``ISHIOKA_ANALYS_LIMITS``."""
    threads, memory = ISHIOKA_ANALYS_LIMITS.get(plan.target, (0, 0))
    if plan.npairs > ISHIOKA_ANALYS_PAIRS:
        return None
    sp = ISHIOKA_ANALYS_SPAN
    for kp in ((1, 2) if plan.npairs <= 256 else (2, 1)):
        nw, nl = -(-plan.npairs // (32 * kp)), 32 * kp
        rs = nl + 4  # 4 floats more per row: two rows' 16-byte loads in different banks
        z = dict(kp=kp, nw=nw, wg=32 * nw, nl=nl, sp=sp, rs=rs, group_floats=sp * rs,
                 ys_size=2 * nw * sp * rs, part_size=2 * nw * 32, ni=nl // 4)
        if 32 * nw <= threads and 4 * (z["ys_size"] + z["part_size"]) + 32 * sp + 32 <= memory:
            return z
    return None


def _lanes64_serves(plan: Plan) -> bool:
    """``LANES64_TARGETS``, the "ishioka" recurrence in the analysis, float32 data, one field
    per thread, and no seed below level -1 (a level -1 pair runs scaled, its parts
    inversely)."""
    return (plan.kernels == "mlir" and plan.target in LANES64_TARGETS
            and plan.analys_recurrence == "ishioka" and plan.dtype == "float32"
            and analys_fields_per_thread(plan) == 1 and _lowest_level(plan) >= -1)


def lanes64_segment(plan: Plan) -> int:
    """Steps per segment of each order in leg_analys_lanes64.mlir, 0 for none: on grids of
    at most ``LANES64_SEGMENT_PAIRS`` pairs whose seeds all start live, steps(lmax, 0) /
    ``LANES64_SEGMENTS`` - 1 where that is at least ``LANES64_SEGMENT_MIN``."""
    steps = ishioka.steps(plan.lmax, 0) // LANES64_SEGMENTS - 1
    return steps if (_lanes64_serves(plan) and plan.npairs <= LANES64_SEGMENT_PAIRS
                     and steps >= LANES64_SEGMENT_MIN and _lowest_level(plan) == 0) else 0


def lanes64_analysis(plan: Plan) -> bool:
    """Whether the plan's Legendre analysis runs leg_analys_lanes64.mlir: ``_lanes64_serves``,
    on a grid of more than ``LANES64_SEGMENT_PAIRS`` pairs or in segments
    (``lanes64_segment``)."""
    return _lanes64_serves(plan) and (plan.npairs > LANES64_SEGMENT_PAIRS
                                      or lanes64_segment(plan) > 0)


def lanes64_restart(plan: Plan, tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tables of leg_analys_lanes64.mlir's segments (``lanes64_segment``), from the
    plan's ``xtab``, ``seedtab`` and ``chain`` (``Plan.tables``):
    ``restart_rows (mc,)``, order m's first row, and ``restart (rows npairs, 2)``, the chain's
    state where each segment starts (``ishioka.restart_states``), in float64, from the seeds
    as the kernel takes them (``@seed64``: live, so y 2^(S k); times a_{m+1})."""
    xtab, seedtab = tables["xtab"], tables["seedtab"]
    x = xtab[:, 0].astype(np.float64) + xtab[:, 1].astype(np.float64)
    ys = seedtab[:, 0].astype(np.float64).reshape(plan.mc, plan.npairs)
    k = seedtab[:, 1].astype(np.int64).reshape(plan.mc, plan.npairs)
    ft = {"float32": "f32", "float64": "f64"}[plan.dtype]
    y0 = np.ldexp(ys, FLOAT_FORMATS[ft]["scale_bits"] * k) * ishioka.seed_factor(
        np.arange(plan.mc))[:, None]
    rows, states = ishioka.restart_states(plan.lmax, plan.mmax, tables["chain"], x * x, y0,
                                          lanes64_segment(plan))
    return {"restart_rows": rows.astype(np.float64), "restart": states.reshape(-1, 2)}


def _lanes64_analys_values(plan: Plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys_lanes64.mlir: its workgroup (threads for the grid's
    pairs, ``LANES64_PAIRS`` each, in warps, at most ``LANES64_WG``), its steps per span
    (``LANES64_SPAN`` at most), its arrays' sizes and the unrolled bodies."""
    # pairs per thread: a power of two from 2 to LANES64_PAIRS, as few as one warp needs
    kp = min(LANES64_PAIRS, max(2, 1 << (-(-plan.npairs // 32) - 1).bit_length()))
    wg = min(LANES64_WG, 32 * -(-plan.npairs // (32 * kp)))
    ng = wg // 4
    col = ng + 1  # odd: a span row's neighbours in other banks
    # steps per span: at most one per thread (each stages one), sums within the target's
    # workgroup memory (CUDA: the static 48 KB)
    span, memory = min(LANES64_SPAN, wg), ISHIOKA_ANALYS_LIMITS[plan.target][1]
    while 4 * span * col * 8 > memory:
        span //= 2
    steps = lanes64_segment(plan)
    nseg = -(-ishioka.steps(plan.lmax, 0) // steps) if steps else 1  # order 0's, the most
    # the tables, F, q; the restart tables last but the twiddles (Plan.analys_tables)
    nb = len([t for t in plan.analys_tables if t != "twiddle"])
    out = {**v, **_ishioka_conversions(v["ft"]), "kp": kp, "span": span, "wg": wg, "ng": ng,
           "col": col, "nv": 4 * span, "chunk": wg * kp, "part_size": 4 * span * col,
           "sums_size": 4 + 4 * span, "scale_bits": ISHIOKA_SCALING["scale_bits"],
           "shrink": repr(2.0 ** -ISHIOKA_SCALING["scale_bits"]),
           "segment": steps or ishioka.steps(plan.lmax, 0), "nseg": nseg,
           "grid_x": plan.mc * nseg, "binding_F": nb, "binding_q": nb + 1,
           "restart_bindings": _lanes64_restart_bindings(plan, nb) if steps else "",
           "state0": "%yav" if steps else "%zk", "state1": "%ybv" if steps else "%yv",
           "wg_minus_1": wg - 1}
    # a copy of @step and of the chunk's loop for each count of pairs per thread
    parts = split_sections(stage_template(plan, "leg_analys").read_text(), "part")
    counts = _lanes64_counts(kp, wg)
    out["counts"] = ", ".join(map(str, counts))
    out["steps"] = "\n".join(string.Template(parts["step"]).substitute(
        out, tp=tp, step=_lanes64_step(tp, out["part_size"])) for tp in counts)
    chunks = [string.Template(parts["chunk"]).substitute(
        out, tp=tp, init=_lanes64_init(tp, wg, v["ft"], steps > 0)) for tp in counts]
    out["chunks"] = _fewest_cases("%need", counts, chunks)
    out["legendre_core"] = _core(core, ("polar", "ishioka"), out)
    return out


def _lanes64_counts(kp: int, wg: int) -> list[int]:
    """The counts of pairs per thread that leg_analys_lanes64.mlir has a copy of its chunk's
    loop for, ascending, the last ``kp``: kp / 2 .. kp in workgroups of ``LANES64_WG``
    threads, else 3 kp / 4 and kp with ``LANES64_PAIRS`` pairs per thread, else kp alone
    (measured: the comment at ``LANES64_WG``)."""
    if wg >= LANES64_WG:
        return list(range(-(-kp // 2), kp + 1))
    if kp >= LANES64_PAIRS:
        return [-(-3 * kp // 4), kp]
    return [kp]


def _fewest_cases(value: str, cases: list[int], bodies: list[str]) -> str:
    """``bodies[i]`` for the smallest ``cases[i]`` at least index ``value``, the last body past
    them all: nested ``scf.if`` on a workgroup-uniform value (SPIR-V's lowering takes no
    ``scf.index_switch``)."""
    if len(bodies) == 1:
        return bodies[0]
    test = f"%upto{cases[0]}"
    return "\n".join([f"{test}c = arith.constant {cases[0]} : index",
                      f"{test} = arith.cmpi ule, {value}, {test}c : index",
                      f"scf.if {test} {{", bodies[0], "} else {",
                      _fewest_cases(value, cases[1:], bodies[1:]), "}"])


def _lanes64_restart_bindings(plan: Plan, nb: int) -> str:
    """leg_analys_lanes64.mlir's subspans of the restart tables, bindings nb - 2 and nb - 1
    (%rrows, %restart)."""
    buf = "#hal.descriptor_type<storage_buffer>"
    rows = ishioka.segment_rows(plan.lmax, plan.mmax, lanes64_segment(plan))[1] * plan.npairs
    lines = [f"%nrst = arith.constant {rows} : index"]
    for i, (name, shape, size) in enumerate((("rrows", "?", "%mc"), ("restart", "?x2", "%nrst"))):
        lines += [f"%{name} = hal.interface.binding.subspan layout(#leg_analys_layout) "
                  f"binding({nb - 2 + i}) alignment(64) offset(%c0) flags(ReadOnly)",
                  f"    : memref<{shape}xf64, {buf}>{{{size}}}"]
    return "\n".join(" " * 10 + line for line in lines)


def _lanes64_init(kp: int, wg: int, ft: str, segments: bool) -> str:
    """leg_analys_lanes64.mlir's set-up of the thread's ``kp`` pairs, %cp + ``wg`` i: ``@pair``
    of each, gathered into vectors (%uv, %yv, %h0 .. %h3) with constant indices, so that they
    stay in registers; with ``segments`` also the chain's state at the segment's first step
    (%yav, %ybv, ``@restart``), else the state before the first step (%zk)."""
    buf = "#hal.descriptor_type<storage_buffer>"
    types = (f"(memref<?x4x{ft}, {buf}>, memref<?x2x{ft}, {buf}>, memref<?x?x?x2x{ft}, {buf}>, "
             f"memref<?x{ft}, {buf}>, index, index, index, index, index, f64) -> "
             "(f64, f64, f64, f64, f64, f64)")
    lines = []
    for i in range(kp):
        lines += [f"%pi{i} = arith.constant {wg * i} : index",
                  f"%p{i} = arith.addi %cp, %pi{i} : index",
                  f"%r{i}:6 = func.call @pair(%xtab, %seedtab, %F, %wtab, %p{i}, %npairs, %nlat, "
                  f"%b, %m, %am) : {types}"]
    vectors = [(name, [f"%r{i}#{n}" for i in range(kp)])
               for n, name in enumerate(("%uv", "%yv", "%h0", "%h1", "%h2", "%h3"))]
    if segments:
        rtypes = (f"(memref<?xf64, {buf}>, memref<?x2xf64, {buf}>, index, index, index, index, "
                  "f64) -> (f64, f64)")
        lines += [f"%st{i}:2 = func.call @restart(%rrows, %restart, %m, %seg, %p{i}, %npairs, "
                  f"%r{i}#1) : {rtypes}" for i in range(kp)]
        vectors += [(name, [f"%st{i}#{n}" for i in range(kp)])
                    for n, name in enumerate(("%yav", "%ybv"))]
    else:
        lines.append(f"%zk = arith.constant dense<0.0> : vector<{kp}xf64>")
    for name, elems in vectors:
        lines.append(f"{name} = vector.from_elements {', '.join(elems)} : vector<{kp}xf64>")
    return "\n".join(" " * 14 + line for line in lines)


def _lanes64_step(kp: int, part_size: int) -> str:
    """The sums of leg_analys_lanes64.mlir's ``@step``: each part's fused multiply-adds over
    the ``kp`` pairs, then the reduce-scatter over the four lanes of the group (xor 2: lanes
    c < 2 keep the even parts, the others the odd ones; xor 1: one part each) and the store."""
    lines = [f"%e{i} = vector.extract %y1[{i}] : f64 from vector<{kp}xf64>" for i in range(kp)]
    for g in range(4):
        lines += [f"%g{g}_{i} = vector.extract %g{g}[{i}] : f64 from vector<{kp}xf64>"
                  for i in range(kp)]
        lines.append(f"%s{g}_0 = arith.mulf %e0, %g{g}_0 : f64")
        lines += [f"%s{g}_{i} = math.fma %e{i}, %g{g}_{i}, %s{g}_{i - 1} : f64"
                  for i in range(1, kp)]
    s0, s1, s2, s3 = (f"%s{g}_{kp - 1}" for g in range(4))
    lines += ["%bit2 = arith.andi %c, %c2 : index",
              "%hi = arith.cmpi ne, %bit2, %c0 : index",
              f"%kp0 = arith.select %hi, {s2}, {s0} : f64",
              f"%kp1 = arith.select %hi, {s3}, {s1} : f64",
              f"%gv0 = arith.select %hi, {s0}, {s2} : f64",
              f"%gv1 = arith.select %hi, {s1}, {s3} : f64",
              "%off2 = arith.constant 2 : i32", "%off1 = arith.constant 1 : i32",
              "%width = arith.constant 32 : i32",
              "%x0, %ok0 = gpu.shuffle xor %gv0, %off2, %width : f64",
              "%x1, %ok1 = gpu.shuffle xor %gv1, %off2, %width : f64",
              "%h0 = arith.addf %kp0, %x0 : f64", "%h1 = arith.addf %kp1, %x1 : f64",
              "%bit1 = arith.andi %c, %c1 : index",
              "%odd = arith.cmpi ne, %bit1, %c0 : index",
              "%kk = arith.select %odd, %h1, %h0 : f64",
              "%gg = arith.select %odd, %h0, %h1 : f64",
              "%x2, %ok2 = gpu.shuffle xor %gg, %off1, %width : f64",
              "%sum = arith.addf %kk, %x2 : f64",
              f"memref.store %sum, %part[%o] : memref<{part_size}xf64, #gpu.address_space<workgroup>>"]
    return "\n".join(" " * 10 + line for line in lines)


def ishioka_analysis(plan: Plan) -> bool:
    """Whether the plan's Legendre analysis runs leg_analys_ishioka.mlir: the "ishioka"
    recurrence in the analysis, float32 data, one field per thread, a grid whose pairs one
    workgroup holds (``_ishioka_analys_shape``), every seed live (the kernel has no careful
    loop), and not ``lanes64_analysis`` (CUDA's grids of more than 256 pairs)."""
    return (plan.kernels == "mlir" and plan.analys_recurrence == "ishioka"
            and plan.dtype == "float32" and analys_fields_per_thread(plan) == 1
            and _ishioka_analys_shape(plan) is not None and _lowest_level(plan) >= 0
            and not lanes64_analysis(plan))


@functools.lru_cache(maxsize=16)
def _lowest_seed_counter(plan: Plan) -> int:
    """The lowest exponent counter k of the seed table over the (order, pair) the Legendre
    kernels run (those that order m does not skip, ``polar``)."""
    g, p = plan.make_grid(), plan.npairs
    dt = np.dtype(plan.dtype).type
    k = legendre.seed_table(plan.mmax, g.sint[:p], dt)[:, :, 1]
    skip = legendre.polar_rows(plan.lmax, plan.mmax, g.cost[:p], g.sint[:p], dt)
    run = np.arange(p)[None, :] >= skip[:, None]
    return int(k[run].min()) if run.any() else 0


def _ishioka_conversions(ft: str) -> dict[str, str]:
    """Bodies of leg_synth_ishioka.mlir's ``@widen``, ``@narrow`` and ``@seed64`` for data
    type ``ft``. A seed y 2^(E) of the seed table (E = S k, S of ``ft``) becomes
    y 2^(E - S' k') 2^(S' k') with k' = floor((E + LIVE) / S') (``ISHIOKA_SCALING``): so
    ``E - S' k'`` lies in [-LIVE, S' - LIVE), and the power of two is built from its bits."""
    b = ISHIOKA_SCALING
    if ft == "f64":
        conv = {"widen": "          return %v : f64", "narrow": "          return %v : f64"}
    else:
        conv = {"widen": "          %w = arith.extf %v : f32 to f64\n          return %w : f64",
                "narrow": "          %w = arith.truncf %v : f64 to f32\n          return %w : f32"}
    conv["seed64"] = "\n".join([
        f"          %y = func.call @widen(%ys) : ({ft}) -> f64",
        f"          %k = arith.fptosi %kf : {ft} to i64",
        f"          %sb = arith.constant {FLOAT_FORMATS[ft]['scale_bits']} : i64",
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
        "          %y2 = arith.mulf %y, %p : f64",
        "          return %y2, %k2 : f64, i64"])
    return conv


def _ishioka_sums(kp: int, at: str) -> dict[str, str]:
    """Bodies of leg_synth_ishioka.mlir's ``@to_sums``, ``@sums_of`` and ``@sums64`` for sums
    of type ``at``."""
    if at == "f64":
        return {"to_sums": f"          return %v : vector<{kp}xf64>",
                "sums_of": "          return %v : f64", "sums64": "          return %v : f64"}
    return {"to_sums": f"          %w = arith.truncf %v : vector<{kp}xf64> to vector<{kp}xf32>\n"
                       f"          return %w : vector<{kp}xf32>",
            "sums_of": "          %w = arith.truncf %v : f64 to f32\n          return %w : f32",
            "sums64": "          %w = arith.extf %v : f32 to f64\n          return %w : f64"}


def stage_template(plan: Plan, stage: str) -> Path:
    """The template file of one stage: ``leg_synth_mma.mlir`` for the synthesis where
    ``mma_synthesis``, else ``leg_synth_ishioka.mlir`` for the synthesis of the
    ``"ishioka"`` recurrence, ``leg_analys_mma.mlir`` for the analysis where
    ``mma_analysis``, else ``leg_analys_ishioka.mlir`` for its analysis where
    ``ishioka_analysis``, else ``<stage>.mlir``."""
    if stage == "leg_synth" and mma_synthesis(plan):
        return kernels_dir() / "leg_synth_mma.mlir"
    if stage == REST_STAGE or (stage == "leg_synth" and plan.recurrence == "ishioka"):
        return kernels_dir() / "leg_synth_ishioka.mlir"
    if stage == "leg_analys" and mma_analysis(plan):
        return kernels_dir() / "leg_analys_mma.mlir"
    if stage == "leg_analys" and ishioka_analysis(plan):
        return kernels_dir() / "leg_analys_ishioka.mlir"
    if stage == "leg_analys" and lanes64_analysis(plan):
        return kernels_dir() / "leg_analys_lanes64.mlir"
    return kernels_dir() / f"{stage}.mlir"


def render_stage(plan: Plan, stage: str, values: dict) -> str:
    """The ``hal.executable`` text of one stage."""
    # a template's "// part:" sections after the kernel are pieces its values render
    text = stage_template(plan, stage).read_text().split("\n// part: ", 1)[0]
    return string.Template(text).substitute(stage_values(plan, values)[stage])


def parts(plan: Plan, values: dict) -> dict[str, str]:
    """The family's pieces of mlir/pipeline.mlir (see ``ireesht.pipeline.render``).

    A stage whose template is missing is left out of ``executables`` (its dispatch then
    fails to compile), so that a stage can be tried before the others exist.
    """
    from ireesht.pipeline import stage_ops

    device, target, _ = executable_target(plan)
    stages = (*STAGES, REST_STAGE) if mma_synthesis(plan) else STAGES
    executables = "\n".join(render_stage(plan, s, values) for s in stages
                            if stage_template(plan, s).exists())
    dispatch = {s: f"flow.dispatch @{s}::@v::@main[%b]" for s in STAGES}
    ops = stage_ops(values, dispatch, {})
    if mma_synthesis(plan):
        # the whole groups of 16 fields on tensor cores into F_ws, then the rest into it
        groups = stage_ops({**values, "leg_synth_out": "F_groups"}, dispatch, {})
        rest = stage_ops({**values, "leg_synth_ws": "F_groups"},
                         {**dispatch, "leg_synth": f"flow.dispatch @{REST_STAGE}::@v::@main[%b]"},
                         {})
        ops["op_leg_synth"] = groups["op_leg_synth"] + "\n" + rest["op_leg_synth"]
    return {
        "aliases": f"#target = {target}",
        "module_attrs": f'attributes {{hal.device.targets = [#hal.device.target<"{device}", '
                        f"[#target]> : !hal.device]}}",
        "executables": executables,
        **ops,
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
