"""The float32 scheme's Legendre stages of the MLIR family (``leg_synth.mlir``,
``leg_analys.mlir``): exact-coefficient recurrence with rescaling (ireesht/numerics/legendre.py),
sums in workgroup rows or over lanes."""

from __future__ import annotations

import math

from ireesht.codegen.mlir.common import (FLOAT_BYTES, SYNTH_ROUND, SYNTH_WG, VOTE_GROUP, _core,
                                         _expand, _pairs_per_thread, legendre_values)

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


ANALYS_WG = 128  # threads of a leg_analys.mlir workgroup


# leg_analys.mlir sums the partial sums of each value of a span in two pieces where it has
# the threads, by two threads (one thread per value: 1-6% slower on the H200 with float32;
# four pieces: 3% slower with float64)
ROW_PIECES = 2


# the parts of legendre_core.mlir each Legendre stage of the float32 scheme takes
CORE_PARTS = {"leg_synth": ("polar", "scaling", "recurrence", "synth_grid"),
              "leg_analys": ("polar", "scaling", "recurrence")}


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


def _analys_part(span: int, nf: int, lanes: int) -> tuple[int, int]:
    """(rows, columns) of leg_analys.mlir's workgroup array part, which holds the partial sums
    of a span's 2 nf span values, 128 / lanes per value. With lane sums, rows of the values
    (lanes more, so that the stores too are free of bank conflicts); else rows of each value's
    128 partial sums (one more: each thread of @row_sum reads its own bank)."""
    values = span * 2 * nf
    return (ANALYS_WG // lanes, values + lanes) if lanes > 1 else (values, ANALYS_WG + 1)


def synth_values(plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_synth.mlir: (pair, field) slots, four, so nf = 4 takes one
    pair per thread, but on CUDA grids of CUDA_SLOTS_PAIRS pairs and more two."""
    ft = v["ft"]
    nf = plan.fields_per_thread
    big = plan.target == "cuda" and plan.npairs >= CUDA_SLOTS_PAIRS
    cap = CUDA_SLOTS if big else SLOTS
    kp = _pairs_per_thread(plan.npairs, SYNTH_WG, min(SYNTH_PAIRS, cap // nf))
    v = {**v, **legendre_values(plan, nf, kp, ft),
         "vote_flags": 2 * SYNTH_WG // VOTE_GROUP, "synth_gx": -(-plan.npairs // (SYNTH_WG * kp)),
         "synth_round": SYNTH_ROUND, "expand_v": _expand(kp, kp * nf, ft, True),
         "expand_f": _expand(nf, kp * nf, ft, False)}
    v["legendre_core"] = _core(core, CORE_PARTS["leg_synth"], v)
    return v


def analysis_fields(plan) -> tuple[int, int]:
    """(fields per thread, lanes that sum each degree's values) of leg_analys.mlir: with lane
    sums (``lane_sums``) the plan's fields per thread, two at most in float64 (four took 244
    registers and ran 15-21% slower at lmax 1023 and 2047 with 16 fields on an H200), over
    2 nf lanes, or lane pairs with one field; in workgroup rows (``rows``) one field, no
    shuffles."""
    if plan.variant_names["leg_analys"] != "lane_sums":
        return 1, 1
    nf = min(plan.fields_per_thread, 2) if plan.dtype == "float64" else plan.fields_per_thread
    return nf, (2 * nf if nf > 1 else 2)


def analys_values(plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys.mlir: up to four pairs per thread whatever nf (a
    thread's sum over its pairs comes before any traffic through workgroup memory), and the
    spans, workgroup array and unrolled sums of ``analysis_fields``."""
    ft = v["ft"]
    nf, lanes = analysis_fields(plan)
    kp = _pairs_per_thread(plan.npairs, ANALYS_WG, ANALYS_PAIRS)
    v = {**v, **legendre_values(plan, nf, kp, ft), "vote_flags": 2 * ANALYS_WG // VOTE_GROUP}
    # degrees per span: 32 at most (H200, lmax 1023: one field 0.26 against 0.29 ms with 16;
    # lane sums with four fields 4% faster than 16 and 25% than 8), 64 for one field over
    # lane pairs (its partial sums take half the room); part takes at most 16.5 KB of
    # workgroup memory on SPIR-V (room on 32 KB devices: lavapipe, Apple), 48 KB on CUDA
    limit = 48 * 1024 if plan.target == "cuda" else 16896
    size = FLOAT_BYTES[ft]
    span = 64 if nf == 1 and lanes == 2 else 32
    while span > 4 and math.prod(_analys_part(span, nf, lanes)) * size > limit:
        span //= 2
    values_ = span * 2 * nf  # summed values per span
    rows, cols = _analys_part(span, nf, lanes)
    if rows * cols * size > limit:
        raise ValueError(f"fields_per_thread={nf} with dtype={plan.dtype!r}: its analysis "
                         f"rows do not fit {limit} bytes of workgroup memory")
    row_stride, value_stride = (cols, 1) if lanes > 1 else (1, cols)
    count = max(1, min(ROW_PIECES, ANALYS_WG // values_))
    v.update(span=span, part=rows * cols, row_stride=row_stride,
             value_stride=value_stride, degree_stride=2 * nf * value_stride,
             span_values=values_, lane_group=lanes,
             lane_mask=lanes - 1, idle_group=VOTE_GROUP if lanes > 1 else 1,
             independent_lanes="true" if lanes == 1 else "false",
             piece_count=count, piece_rows=ANALYS_WG // lanes // count,
             value_block=min(values_, ANALYS_WG), one_piece="true" if count == 1 else "false",
             contribute=_contribute(v["kp"], nf, ft, rows * cols, lanes, value_stride))
    v["legendre_core"] = _core(core, CORE_PARTS["leg_analys"], v)
    return v
