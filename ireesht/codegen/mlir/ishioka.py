"""The Ishioka recurrence's Legendre stages of the MLIR family, in float64 whatever the data
type (``leg_synth_ishioka.mlir``; ``leg_analys_ishioka.mlir``, transposed sums)."""

from __future__ import annotations

from ireesht import geometry
from ireesht.codegen.mlir.common import (SYNTH_ROUND, SYNTH_WG, VOTE_GROUP, _core, _expand,
                                         _ishioka_conversions, _pair_store, _pairs_per_thread)

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


def synth_values(plan, v: dict, core: dict[str, str], past_groups: int | None = None) -> dict:
    """The substitutions of leg_synth_ishioka.mlir: ``v`` (the plan's, ``ft`` its data type)
    with the float64 state's slots and pieces. Two pairs per thread with one field, one with
    more: at most four (pair, field) slots of float64, as SPIR-V vectors hold four. With
    ``past_groups`` G (the variant's parameter, or the tensor cores' ``MMA_FIELDS`` for their
    second kernel) it takes only the fields G floor(B / G) .. B - 1, those past the whole
    groups of G."""
    nf = plan.fields_per_thread
    ishioka_variant = plan.variant_names["leg_synth"] == "ishioka"
    params = plan.params("leg_synth") if ishioka_variant else {}
    b = {k: params.get(k, x) for k, x in geometry.ISHIOKA_SCALING.items()}
    g = params.get("past_groups", 0) if past_groups is None else past_groups
    rest = g > 0
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
           **_ishioka_conversions(ft, b)}
    at = "f32" if ft == "f32" and nf >= ISHIOKA_FLOAT32_SUMS else "f64"
    out.update(at=at, expand_v=_expand(kp, kp * nf, at, True),
               expand_f=_expand(nf, kp * nf, at, False), **_ishioka_sums(kp, at))
    # every seed the kernel runs is live, or on level -1 with level sums (float32 data: their
    # bound, ISHIOKA_SCALING): the careful loop is left out (its registers cut the lean loop's
    # occupancy: H200, lmax 1023, 74 -> 58 registers, stage 115 -> 105 us)
    level = geometry.lowest_level(plan, b["live_bits"], b["scale_bits"])
    level_sums = level == -1 and ft == "f32" and at == "f64"
    out["lean_only"] = "true" if level >= 0 or level_sums else "false"
    out["level_sums"] = "true" if level_sums else "false"
    state = {**out, "ft": "f64", "it": "i64", "threshold": repr(2.0 ** b["threshold_bits"]),
             "shrink": repr(2.0 ** -b["scale_bits"])}
    out["legendre_core"] = "\n".join([_core(core, ("polar", "ishioka"), out),
                                      _core(core, ("scaling",), state),
                                      _core(core, ("synth_grid",), out)])
    return out


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


def analys_values(plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_analys_ishioka.mlir: its sizes
    (``geometry.ishioka_analys_shape``) and the unrolled bodies."""
    sizes = geometry.ishioka_analys_shape(plan)
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
