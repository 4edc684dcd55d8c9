"""The Ishioka analysis of one float32 field with float64 sums reduced over groups of four lanes
(``leg_analys_lanes64.mlir``), by whole orders or in segments from restart tables."""

from __future__ import annotations

import string

from ireesht.codegen.mlir.common import _core, _ishioka_conversions, kernels_dir
from ireesht.codegen.pipeline import split_sections
from ireesht.geometry import ISHIOKA_ANALYS_LIMITS, ISHIOKA_SCALING, LANES64_PAIRS
from ireesht.numerics import ishioka
from ireesht.tables import segment_steps

# Steps per span at most. The variant's parameters (registry: ``wg``, the most threads per
# workgroup, chunks of pairs past that; ``pairs``, the most pairs per thread) were measured on
# an H200 (Legendre analysis, Nsight Compute): against the float32 scheme at lmax 1023 / 2047
# 175 -> 158 us / 1100 -> 884; one step per loop 174 / 993, 4 pairs per thread 184 / 1154,
# spans of 16 steps 168 / 1000; spans of 64 steps where the sums fit (workgroups of 64
# threads) against 32: lmax 1023 162 -> 158 us, 767 111 -> 109, 720 102 -> 100. An order's
# pairs past the polar ones it skips take as few pairs per thread as they need, from the
# kernel's copies of its loop (``_lanes64_counts``): lmax 2047 896 -> 801 us with copies for
# 4 .. 8 pairs; lmax 1023 157 -> 154 with 6 and 8 but 188-194 with three copies or more.
LANES64_SPAN = 64


def analys_values(plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys_lanes64.mlir: its workgroup (threads for the grid's
    pairs, ``pairs`` each, in warps, at most ``wg``: the variant's parameters), its steps per
    span (``LANES64_SPAN`` at most), its arrays' sizes and the unrolled bodies."""
    params = plan.params("leg_analys")
    most_pairs = params["pairs"] or LANES64_PAIRS[plan.target]
    most_wg = params["wg"]
    scaling = {**ISHIOKA_SCALING, "live_bits": params["live_bits"]}
    # pairs per thread: a power of two from 2 to ``pairs``, as few as one warp needs
    kp = min(most_pairs, max(2, 1 << (-(-plan.npairs // 32) - 1).bit_length()))
    wg = min(most_wg, 32 * -(-plan.npairs // (32 * kp)))
    ng = wg // 4
    col = ng + 1  # odd: a span row's neighbours in other banks
    # steps per span: at most one per thread (each stages one), sums within the target's
    # workgroup memory (CUDA: the static 48 KB)
    span, memory = min(LANES64_SPAN, wg), ISHIOKA_ANALYS_LIMITS[plan.target][1]
    while 4 * span * col * 8 > memory:
        span //= 2
    steps = segment_steps(plan)
    nseg = -(-ishioka.steps(plan.lmax, 0) // steps) if steps else 1  # order 0's, the most
    # the variant's tables (the restart tables last), then F and q
    nb = len(plan.stage_tables("leg_analys"))
    out = {**v, **_ishioka_conversions(v["ft"], scaling), "kp": kp, "span": span, "wg": wg, "ng": ng,
           "col": col, "nv": 4 * span, "chunk": wg * kp, "part_size": 4 * span * col,
           "sums_size": 4 + 4 * span, "scale_bits": scaling["scale_bits"],
           "shrink": repr(2.0 ** -scaling["scale_bits"]),
           "segment": steps or ishioka.steps(plan.lmax, 0), "nseg": nseg,
           "grid_x": plan.mc * nseg, "binding_F": nb, "binding_q": nb + 1,
           "restart_bindings": _lanes64_restart_bindings(plan, nb) if steps else "",
           "state0": "%yav" if steps else "%zk", "state1": "%ybv" if steps else "%yv",
           "wg_minus_1": wg - 1}
    # a copy of @step and of the chunk's loop for each count of pairs per thread
    parts = split_sections((kernels_dir() / plan.variant("leg_analys").template).read_text(),
                           "part")
    counts = _lanes64_counts(kp, wg, most_wg, most_pairs)
    out["counts"] = ", ".join(map(str, counts))
    out["steps"] = "\n".join(string.Template(parts["step"]).substitute(
        out, tp=tp, step=_lanes64_step(tp, out["part_size"])) for tp in counts)
    chunks = [string.Template(parts["chunk"]).substitute(
        out, tp=tp, init=_lanes64_init(tp, wg, v["ft"], steps > 0)) for tp in counts]
    out["chunks"] = _fewest_cases("%need", counts, chunks)
    out["legendre_core"] = _core(core, ("polar", "ishioka"), out)
    return out


def _lanes64_counts(kp: int, wg: int, most_wg: int, most_pairs: int) -> list[int]:
    """The counts of pairs per thread that leg_analys_lanes64.mlir has a copy of its chunk's
    loop for, ascending, the last ``kp``: kp / 2 .. kp in workgroups of ``most_wg`` threads,
    else 3 kp / 4 and kp with ``most_pairs`` pairs per thread, else kp alone (measured: the
    comment at ``LANES64_SPAN``)."""
    if wg >= most_wg:
        return list(range(-(-kp // 2), kp + 1))
    if kp >= most_pairs:
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


def _lanes64_restart_bindings(plan, nb: int) -> str:
    """leg_analys_lanes64.mlir's subspans of the restart tables, bindings nb - 2 and nb - 1
    (%rrows, %restart)."""
    buf = "#hal.descriptor_type<storage_buffer>"
    rows = ishioka.segment_rows(plan.lmax, plan.mmax, segment_steps(plan))[1] * plan.npairs
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
    types = (f"(memref<?x4x{ft}, {buf}>, memref<?x2xf64, {buf}>, memref<?x?x?x2x{ft}, {buf}>, "
             f"memref<?xf64, {buf}>, index, index, index, index, index, f64) -> "
             "(f64, f64, f64, f64, f64, f64)")
    lines = []
    for i in range(kp):
        lines += [f"%pi{i} = arith.constant {wg * i} : index",
                  f"%p{i} = arith.addi %cp, %pi{i} : index",
                  f"%r{i}:6 = func.call @pair(%xtab, %seed64, %F, %wtab64, %p{i}, %npairs, %nlat, "
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
