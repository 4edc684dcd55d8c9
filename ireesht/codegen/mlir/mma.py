"""The Legendre stages on CUDA's tensor cores (``leg_synth_mma.mlir``, ``leg_analys_mma.mlir``):
the Ishioka recurrence in float64, its sums as 3xTF32 products of 16 x 8 x 8 tiles."""

from __future__ import annotations

from ireesht.codegen.mlir import ishioka
from ireesht.codegen.mlir.common import SYNTH_ROUND, _core, _ishioka_conversions
from ireesht.geometry import MMA_FIELDS

# leg_synth_mma.mlir (variant tensor_cores): fields per workgroup (a
# multiple of four: a tile's 8 columns hold four fields' re and im), warps per workgroup (16
# pairs each), the floats after each staged column's span of (hi, lo), which keep the B
# fragments' loads free of bank conflicts, and the fewest latitude pairs it serves. H200,
# Legendre synthesis, 16 fields, against the float32 scheme with four fields per thread
# (BENCHMARKS.md seventeenth run): lmax 1023 1028-1037 -> 891-896 us, 767 520-525 -> 432-435,
# 600 (301 pairs) 253-255 -> 210-220, 511 (256 pairs) 173-176 -> 171-182, but 255 35-37 ->
# 50.5-54.8; error 1.1e-6 -> 2.2e-7. 8 fields per workgroup (the recurrence twice per order)
# ran 1012-1028 us at lmax 1023, 8 warps 948-955.
MMA_WARPS = 4  # MMA_FIELDS: ireesht.geometry (selection reads it too)


# It takes the whole groups of MMA_FIELDS fields only; the fields past them run
# leg_synth_ishioka.mlir (four per thread, float32 sums) as this executable, dispatched after
# it into the same F (parts). H200, lmax 1023, synthesis enqueued (BENCHMARKS.md
# twenty-fourth run), against a last group filled up to 16: 4 fields 0.533 -> 0.261 ms, 20
# fields 1.294 -> 1.070 ms, 16 fields 0.828 -> 0.830 ms (the other kernel's launch, one row
# of workgroups that run nothing: 3 us).
REST_STAGE = "leg_synth_rest"


MMA_COLUMN_PAD = 16


# leg_analys_mma.mlir (variant tensor_cores): fields per workgroup (the 16
# rows of the products' tile: re and im of 8 fields); geometry.MMA_ANALYS_PAIRS the most
# latitude pairs it serves (a warp of 32 pairs each, 16 warps at most: 512 threads).
MMA_ANALYS_FIELDS = 8


# steps per window of leg_analys_mma.mlir (its sums' padding, par_stride, keeps @reduce's
# loads free of bank conflicts for 16)
MMA_ANALYS_WINDOW = 16


def synth_values(plan, v: dict, core: dict[str, str]) -> dict:
    """The substitutions of leg_synth_mma.mlir: its fields per workgroup (``MMA_FIELDS``,
    four per tile of 8 columns), its workgroup arrays' sizes and the unrolled bodies of the
    staging, the products and ``@store``."""
    nf, warps = MMA_FIELDS, MMA_WARPS
    col_stride = 2 * ishioka.ISHIOKA_SYNTH_SPAN + MMA_COLUMN_PAD
    z = dict(nf=nf, part=nf * 64 // (32 * warps), nt=nf // 4, nacc=2 * nf,
             rows=ishioka.ISHIOKA_SYNTH_SPAN + 8, col_stride=col_stride, c_size=4 * nf * col_stride,
             wg=32 * warps, warps=warps, wpairs=16 * warps)
    out = {**v, **z, "span": ishioka.ISHIOKA_SYNTH_SPAN, "synth_gx": -(-plan.npairs // z["wpairs"]),
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


def analys_values(plan, v: dict, core: dict[str, str]) -> dict:
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
    w = "memref<?xf64, #hal.descriptor_type<storage_buffer>>"
    x = f"memref<?x4x{ft}, #hal.descriptor_type<storage_buffer>>"
    frag = ", ".join(["vector<4x1xf32>"] * 4)
    lines = []
    for j in range(4):
        lines += [f"%gp{j}c = arith.constant {8 * j} : index",
                  f"%gp{j} = arith.addi %pt, %gp{j}c : index",
                  f"%gf{j}:4 = func.call @gfrag(%F, %wtab64, %xtab, %gp{j}, %bg, %cg, %npairs, "
                  f"%nlat, %nfields, %m) : ({buf}, {w}, {x}, index, index, index, index, index, "
                  f"index, index) -> ({frag})"]
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
