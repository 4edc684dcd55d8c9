"""The MLIR family's theta step (variant ``theta_analys`` ``"lowrank"``,
``kernels/mlir/theta_lowrank.mlir``): ``G = d F + U_p (V_p F)`` as two hand-written
dispatches, whose per-order sums over the rank are unrolled here (one accumulator per real
and imaginary part of each of the R terms). Plans of other variants take the step in linalg
ops (``ireesht.codegen.theta``)."""

from __future__ import annotations

# workgroup shape of @theta_analys_z: orders per workgroup x slices of the rings (128 threads)
LANES, SLICES = 16, 8
# accumulators added in workgroup memory per round (SLICES x ROUND x LANES floats: 16 KB)
ROUND = 32
_BUF = "memref<?xf32, #hal.descriptor_type<storage_buffer>>"
_SM = "memref<4096xf32, #gpu.address_space<workgroup>>"


def _layout(inputs: int) -> str:
    ro = "#hal.pipeline.binding<storage_buffer, ReadOnly>, " * inputs
    return (f"#hal.pipeline.layout<constants = 1, bindings = [{ro}"
            "#hal.pipeline.binding<storage_buffer>]>")


def sizes(plan) -> dict[str, int]:
    """The kernel's sizes: rank R, groups KG and rings per slice, rings per thread of G."""
    groups, rows = plan.theta_groups, plan.params("theta_analys")["rows"]
    return {"rank": plan.theta_rank, "groups": groups, "rows": rows,
            "slice": -(-plan.nlat // (groups * SLICES))}


def values(plan, values: dict, core) -> dict:
    """The substitutions of theta_lowrank.mlir (``core``, the Legendre parts, is unused)."""
    s = sizes(plan)
    r, nl, mc = s["rank"], plan.nlat, plan.mc
    nacc = 2 * r
    acc = [f"%a{a}" for a in range(nacc)]
    return {
        **values, **s, "r2": 2 * r, "nacc": nacc, "mcl": mc - 1,
        "nv": 2 * r * nl, "field": nl * mc * 2, "zfield": s["groups"] * r * mc * 2,
        "zgroup": r * mc * 2, "row": mc * 2,
        "zgrid": -(-mc // LANES), "ggrid": -(-mc // 128), "rgrid": -(-nl // s["rows"]),
        "zlayout": _layout(2), "glayout": _layout(4),
        "zacc": ", ".join(f"{a} = %zero" for a in acc),
        "acctypes": ", ".join(["f32"] * nacc),
        "zbody": _zbody(r, nl), "zreduce": _zreduce(nacc), "gsum": _gsum(r, mc),
        "gbody": _gbody(r),
    }


def _load(pad: str, name: str, mem: str, base: str, offset: int) -> list[str]:
    """``%name = mem[base + offset]`` (offset a constant)."""
    return [f"{pad}%{name}c = arith.constant {offset} : index",
            f"{pad}%{name}i = arith.addi {base}, %{name}c : index",
            f"{pad}%{name} = memref.load %{mem}[%{name}i] : {_BUF}"]


def _yield(pad: str, prefix: str, n: int) -> str:
    names = ", ".join(f"%{prefix}{a}" for a in range(n))
    return f"{pad}scf.yield {names} : {', '.join(['f32'] * n)}"


def _zbody(r: int, nl: int) -> str:
    pad = " " * 10
    out = []
    for j in range(r):
        out += [*_load(pad, f"v{j}", "V", "%vo", j * nl),
                f"{pad}%n{2 * j} = math.fma %v{j}, %fr, %a{2 * j} : f32",
                f"{pad}%n{2 * j + 1} = math.fma %v{j}, %fi, %a{2 * j + 1} : f32"]
    return "\n".join(out + [_yield(pad, "n", 2 * r)])


def _zreduce(nacc: int) -> str:
    """Rounds of up to ROUND accumulators: each thread stores its own at sm[(slice ROUND +
    a) LANES + lane]; thread (sl, lane) then adds the SLICES values of accumulators sl + 8 t
    (t < ROUND / 8) of order mb + lane and stores them into Z (accumulator a = 2 j + c: term j,
    re or im)."""
    pad = " " * 8
    out = [f"{pad}%sw0 = arith.muli %sl32, %c16 : index",
           f"{pad}%sw = arith.addi %sw0, %lane : index",
           f"{pad}%mo = arith.addi %mb, %lane : index",
           f"{pad}%mlive = arith.cmpi ult, %mo, %mc : index",
           f"{pad}%mo2 = arith.muli %mo, %c2 : index"]
    for rd, start in enumerate(range(0, nacc, ROUND)):
        count = min(ROUND, nacc - start)
        out.append(f"{pad}gpu.barrier")
        for al in range(count):
            out += [f"{pad}%w{rd}_{al}c = arith.constant {al * LANES} : index",
                    f"{pad}%w{rd}_{al} = arith.addi %sw, %w{rd}_{al}c : index",
                    f"{pad}memref.store %acc#{start + al}, %sm[%w{rd}_{al}] : {_SM}"]
        out.append(f"{pad}gpu.barrier")
        for t in range(ROUND // SLICES):
            if SLICES * t >= count:
                break
            tag = f"{rd}_{t}"
            sums = []
            for s in range(SLICES):
                off = (s * ROUND + SLICES * t) * LANES
                sums += [f"{pad}  %r{tag}_{s}c = arith.constant {off} : index",
                         f"{pad}  %r{tag}_{s}i = arith.addi %tid, %r{tag}_{s}c : index",
                         f"{pad}  %r{tag}_{s} = memref.load %sm[%r{tag}_{s}i] : {_SM}"]
                if s:
                    prev = f"%r{tag}_0" if s == 1 else f"%q{tag}_{s - 1}"
                    sums.append(f"{pad}  %q{tag}_{s} = arith.addf {prev}, %r{tag}_{s} : f32")
            # accumulator a = start + 8 t + sl; the slices past count hold nothing
            cond = f"%mlive{tag}"
            out += [f"{pad}%al{tag}c = arith.constant {start + SLICES * t} : index",
                    f"{pad}%ag{tag} = arith.addi %sl, %al{tag}c : index",
                    f"{pad}%cnt{tag} = arith.constant {start + count} : index",
                    f"{pad}%in{tag} = arith.cmpi ult, %ag{tag}, %cnt{tag} : index",
                    f"{pad}{cond} = arith.andi %mlive, %in{tag} : i1",
                    f"{pad}scf.if {cond} {{", *sums,
                    f"{pad}  %j{tag} = arith.divui %ag{tag}, %c2 : index",
                    f"{pad}  %c{tag} = arith.remui %ag{tag}, %c2 : index",
                    f"{pad}  %zj{tag} = arith.addi %zb2, %j{tag} : index",
                    f"{pad}  %zm{tag} = arith.muli %zj{tag}, %mc : index",
                    f"{pad}  %zr{tag} = arith.muli %zm{tag}, %c2 : index",
                    f"{pad}  %zs{tag} = arith.addi %zr{tag}, %mo2 : index",
                    f"{pad}  %zo{tag} = arith.addi %zs{tag}, %c{tag} : index",
                    f"{pad}  memref.store %q{tag}_{SLICES - 1}, %Z[%zo{tag}] : {_BUF}",
                    f"{pad}}}"]
    return "\n".join(out)


def _gsum(r: int, mc: int) -> str:
    pad = " " * 12
    out = []
    for a in range(2 * r):
        j, c = divmod(a, 2)
        out += [*_load(pad, f"z{a}", "Z", "%zo", j * mc * 2 + c),
                f"{pad}%s{a} = arith.addf %a{a}, %z{a} : f32"]
    return "\n".join(out + [_yield(pad, "s", 2 * r)])


def _gbody(r: int) -> str:
    pad = " " * 12
    out = []
    for j in range(r):
        last = j == r - 1
        gr, gi = ("%gr", "%gi") if last else (f"%gr{j + 1}", f"%gi{j + 1}")
        out += [*_load(pad, f"u{j}", "U", "%uo", j),
                f"{pad}{gr} = math.fma %u{j}, %t#{2 * j}, %gr{j} : f32",
                f"{pad}{gi} = math.fma %u{j}, %t#{2 * j + 1}, %gi{j} : f32"]
    return "\n".join(out)


def dispatch(plan) -> str:
    """``op_theta_analys``: the two dispatches between the Fourier and Legendre analyses
    (``mlir/pipeline.mlir``); Z and G are intermediates of ``analys_async``, in the caller's
    transient storage."""
    nl, mc = plan.nlat, plan.mc
    s = sizes(plan)
    r = s["rank"]
    ftype = f"tensor<?x{nl}x{mc}x2xf32>"
    ztype = f"tensor<?x{s['groups']}x{r}x{mc}x2xf32>"
    return f"""    // theta step, low rank (kernels/mlir/theta_lowrank.mlir): G = d F + U_p (V_p F)
    %th_Z = flow.dispatch @theta_analys_z::@v::@main[%b](%nb, %theta_v, %F)
        : (i32, tensor<{2 * r}x{nl}xf32>, {ftype}{{%b}}) -> {ztype}{{%b}}
    %G = flow.dispatch @theta_analys_g::@v::@main[%b](%nb, %theta_u, %theta_d, %th_Z, %F)
        : (i32, tensor<{nl}x{2 * r}xf32>, tensor<{nl}xf32>, {ztype}{{%b}}, {ftype}{{%b}})
          -> {ftype}{{%b}}"""
