"""The Fourier stages of the MLIR family (``fft_synth.mlir``, ``fft_analys.mlir`` with the parts
of ``fft_core.mlir``): a Stockham FFT in workgroup memory whose passes are unrolled here, or a
direct DFT for row lengths off the FFT path."""

from __future__ import annotations

import itertools
import math
import string

from ireesht.codegen.mlir.common import FLOAT_BYTES, _pair_store, kernels_dir
from ireesht.codegen.pipeline import split_sections
from ireesht.numerics import fourier
from ireesht.tables import table_shapes

# The direction s of fft_core.mlir's FFT, exp(s 2 pi i k t / n): its sign, s as a float, and
# the arith ops that add and subtract s times a term.
FFT_DIRECTIONS = {"fft_synth": dict(sign="+", one_s="1.0", plus_s="addf", minus_s="subf"),
                  "fft_analys": dict(sign="-", one_s="-1.0", plus_s="subf", minus_s="addf")}


def fft_pass_calls(ft: str, io: str, mixed: bool, nphi: int = 0) -> dict[str, str]:
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
    code of every other length's passes had made 1.5x as long, is back (0: every pass).
    ``ft``: the arithmetic type; ``io``: that of the stage's input and output buffers."""
    sm = f"memref<4096x{ft}, #gpu.address_space<workgroup>>"
    tw = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    buf = f"memref<?x{io}, #hal.descriptor_type<storage_buffer>>"
    src, src_types = "%fp, %srcm, %sbase, %n, %lim", f"i1, {buf}, index, index, index"
    out_args, out_types = "%glob, %dst, %dbase", f"i1, {buf}, index"
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


def fft_radix16(ft: str, io: str, direction: dict) -> str:
    """fft_core.mlir's ``@radix16`` and ``@put16`` (placeholder ``radix16_funcs``) in float
    type ``ft`` on buffers of type ``io`` (``fft_pass_calls``) and the stage's direction
    (``FFT_DIRECTIONS``), generated: the 16-point DFT
    as two layers of 4-point ones, y_(r1 + 4 r2) = sum_t2 w16^(s r1 t2) w4^(s r2 t2)
    sum_t1 a_(4 t1 + t2) w4^(s r1 t1), with the inner rotations w16^(s j) (j = r1 t2) as
    constants: one pass of it takes the place of two radix-4 passes through workgroup memory."""
    sm = f"memref<4096x{ft}, #gpu.address_space<workgroup>>"
    tw = f"memref<?x{ft}, #hal.descriptor_type<storage_buffer>>"
    buf = f"memref<?x{io}, #hal.descriptor_type<storage_buffer>>"
    get_t = (f"(i1, i1, {sm}, {tw}, index, index, index, {buf}, index, index, index) "
             f"-> ({ft}, {ft})")
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
        "        // block of ireesht/numerics/fourier.py): y_r = sum_t x[i + t n/16] w^(t k) exp(s 2 pi i r t",
        "        // / 16). Generated by ireesht/codegen/mlir/fft.py fft_radix16.",
        f"        func.func private @radix16(%in: i1, %sm: {sm}, %tw: {tw},",
        f"            %i: index, %nb16: index, %half: index, %pm1: index, %p2: index, %tb: index, "
        f"%first: i1, %srcm: {buf}, %sbase: index, %n: index, %lim: index) -> ({outs}) {{",
        "          %c0 = arith.constant 0 : index", "          %c2 = arith.constant 2 : index",
        "          %true = arith.constant true", "          %false = arith.constant false",
        f"          %zero = arith.constant 0.0 : {ft}", *consts,
        f"          %y:32 = scf.if %in -> ({outs}) {{", *loads, *lines,
        f"            scf.yield {ys} : {outs}",
        "          } else {", f"            scf.yield {zeros} : {outs}", "          }",
        "          return " + ", ".join(f"%y#{j}" for j in range(32)) + f" : {outs}",
        "        }"])
    out_t = f"(i1, {sm}, {buf}, index, index, index, {ft}, {ft}) -> ()"

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
        f"%half: index, %glob: i1, %dst: {buf}, %dbase: index,",
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


def _pair_access(target: str, ft: str, io: str) -> dict[str, str]:
    """Bodies of fft_core.mlir's ``@pair_load`` (the floats at %o and %o + 1 of %a, %o even,
    of the arithmetic type ``ft``) and ``@pair_store`` (to the stage's output, of type
    ``io``: rounded where ``ft`` is wider), and ``load_io``, the function that reads the
    stage's input: ``@pair_load``, or where the types differ ``@pair_load_io`` (widened to
    ``ft``; its definition ``pair_load_io``). One vector access aligned to the pair on CUDA,
    two scalar ones elsewhere (``_pair_store``)."""
    head = [] if target == "cuda" else ["%c1 = arith.constant 1 : index",
                                        "%o1 = arith.addi %o, %c1 : index"]

    def load(t: str) -> list[str]:
        buf = f"memref<?x{t}, #hal.descriptor_type<storage_buffer>>"
        if target == "cuda":
            return [f"%v = vector.load %a[%o] alignment = {2 * FLOAT_BYTES[t]} : {buf}, "
                    f"vector<2x{t}>",
                    f"%x = vector.extract %v[0] : {t} from vector<2x{t}>",
                    f"%y = vector.extract %v[1] : {t} from vector<2x{t}>"]
        return head + [f"%x = memref.load %a[%o] : {buf}", f"%y = memref.load %a[%o1] : {buf}"]

    def body(lines: list[str]) -> str:
        return "\n".join(" " * 10 + line for line in lines)

    buf = f"memref<?x{io}, #hal.descriptor_type<storage_buffer>>"
    same = io == ft
    narrow = [] if same else [f"%xn = arith.truncf %x : {ft} to {io}",
                              f"%yn = arith.truncf %y : {ft} to {io}"]
    store = head + narrow + _pair_store(target, io, buf, "%a[%o]", "%a[%o1]",
                                        *(("%x", "%y") if same else ("%xn", "%yn")))
    out = {"pair_load": body(load(ft) + [f"return %x, %y : {ft}, {ft}"]),
           "pair_store": body(store + ["return"]), "load_io": "pair_load", "pair_load_io": ""}
    if not same:
        out["load_io"] = "pair_load_io"
        out["pair_load_io"] = "\n".join([
            "        // @pair_load of the stage's input, widened (codegen/mlir/fft.py).",
            f"        func.func private @pair_load_io(%a: {buf}, %o: index) -> ({ft}, {ft}) {{",
            body(load(io) + [f"%xw = arith.extf %x : {io} to {ft}",
                             f"%yw = arith.extf %y : {io} to {ft}",
                             f"return %xw, %yw : {ft}, {ft}"]),
            "        }"])
    return out


def _io_scalars(ft: str, io: str) -> dict[str, str]:
    """The single floats the stages read from their input or write to their output (type
    ``io``), converted from or to the arithmetic type ``ft`` where they differ: the
    synthesis's row from workgroup memory (``store_v``) and its direct DFT's points
    (``store_acc``), the analysis's direct DFT's points (``load_v``) and coefficients
    (``store_sum``)."""
    buf = f"memref<?x{io}, #hal.descriptor_type<storage_buffer>>"

    def load(pad: str, name: str, at: str) -> list[str]:
        if io == ft:
            return [f"{pad}{name} = memref.load {at} : {buf}"]
        return [f"{pad}{name}_io = memref.load {at} : {buf}",
                f"{pad}{name} = arith.extf {name}_io : {io} to {ft}"]

    def store(pad: str, value: str, at: str) -> list[str]:
        if io == ft:
            return [f"{pad}memref.store {value}, {at} : {buf}"]
        name = value.replace("#", "_") + "_io"
        return [f"{pad}{name} = arith.truncf {value} : {ft} to {io}",
                f"{pad}memref.store {name}, {at} : {buf}"]

    pad = " " * 14
    return {key: "\n".join(lines) for key, lines in (
        ("store_v", store(pad, "%v", "%f[%o]")), ("store_acc", store(pad, "%acc", "%f[%o]")),
        ("load_v", load(" " * 20, "%v", "%f[%o]")),
        ("store_sum", store(pad, "%sum#0", "%F[%o]") + store(pad, "%sum#1", "%F[%o1]")))}


def stage_values(plan, v: dict, core: dict[str, str], every_fft_pass: bool = False) -> dict:
    """The substitutions of fft_synth.mlir or fft_analys.mlir (``v["exe"]``): the parts of
    fft_core.mlir in the stage's direction, with the passes of the plan's row length only or
    of every length (``every_fft_pass``; ``fft_pass_calls``). The stage computes in the type
    of its variant's twiddle table (``ft``: the plan's, or float64 for ``twiddle64``) on
    buffers of the plan's type (``io``)."""
    (twiddle,) = plan.stage_tables(v["exe"])
    ft, io, direction = table_shapes(plan)[twiddle][1], v["ft"], FFT_DIRECTIONS[v["exe"]]
    parts = split_sections((kernels_dir() / "fft_core.mlir").read_text(), "part")
    calls = fft_pass_calls(ft, io, fourier.fft_mixed(plan.nphi),
                           0 if every_fft_pass or not fourier.fft_path(plan.nphi) else plan.nphi)
    access = _pair_access(plan.target, ft, io)
    fv = {**v, "ft": ft, "io": io, **direction, **calls, **access,
          "radix16_funcs": fft_radix16(ft, io, direction)}
    funcs = string.Template(parts["funcs"]).substitute(fv)
    return {**v, "ft": ft, "io": io, "load_io": access["load_io"], **_io_scalars(ft, io),
            "fft_funcs": "\n".join(filter(None, (funcs, access["pair_load_io"]))),
            "fft_core": string.Template(parts["passes"]).substitute(fv)}
