"""The theta step of exact equiangular and Fejer analysis (``ireesht.numerics.resample``) as
MLIR: ``G[b, :, m] = T_(m mod 2) F[b, :, m]`` between the Fourier and the Legendre analysis of
``mlir/pipeline.mlir`` (``${op_theta_analys}``), which then reads G.

The ``theta_analys`` variant ``"linalg"``: plain tensor and linalg ops, not a kernel of a
family: IREE compiles them for whatever target the module has (CUDA, SPIR-V, Metal,
llvm-cpu), so every kernel family gets the same step. (The MLIR family's ``"lowrank"``
variant takes the low-rank step in kernels instead: ``ireesht.codegen.mlir.theta``.)
Float32 plans whose rank is small enough (``Plan.theta_rank``) take ``T_p = diag(d) + U_p V_p``
(``_lowrank``): two batch matmuls in F's own layout with the thin matrices broadcast over the
batch and elementwise passes; the others the dense step folded by the equatorial symmetry
(``_folded``). On CUDA both run far slower than the hand-written Legendre kernels at the
same size (BENCHMARKS.md, "Exact equiangular analysis"): IREE's code for these matmuls.
"""

from __future__ import annotations

from ireesht.tables import FLOAT_TYPES


def values(plan) -> dict[str, str]:
    """``op_theta_analys`` (empty without the step) and ``leg_analys_in``, the SSA name of
    the Legendre analysis's input (``F``, or ``G`` after the step)."""
    if not plan.theta_step:
        return {"op_theta_analys": "", "leg_analys_in": "F"}
    if plan.variant("theta_analys").template:  # kernels of the family (codegen/mlir/theta.py)
        return {"op_theta_analys": "", "leg_analys_in": "G"}
    return {"op_theta_analys": _lowrank(plan) if plan.theta_rank else _folded(plan),
            "leg_analys_in": "G"}


def _folded(plan) -> str:
    """``G = T_p F`` on ring sums and differences (``resample.theta_blocks``): for the orders
    of each parity, a *fold* gathers ``X[s][k] = F_k +- F_{N-k}`` (k < nh = (nlat + 1) // 2)
    rings first, as a ``2 x nh x (B n 2)`` batch of matrices, one ``linalg.batch_matmul`` with
    the two ``nh x nh`` blocks (half the multiply-adds of one ``nlat x nlat`` product), and an
    *unfold* writes ``G_i = Y_s,i + Y_a,i`` (top half, a transpose) and ``G_{N-i} = Y_s,i -
    Y_a,i`` (bottom half) back into the orders' slots of G. The bottom half is gathered from a
    difference that the top half's generic writes as a second result (a gather straight from
    the matmul's result read IREE's packed layout and ran 2.7x slower on the CPU). The mirror
    ring ``N - k`` is read by ``tensor.extract`` in generics without inputs: an affine map
    ``N - k`` crashes IREE 3.13 (``inferConvolutionDims``). On CUDA this form runs far slower
    than the Gauss analysis (BENCHMARKS.md); unfolded (one batch matmul with ``[T_0; T_1]``)
    it ran 3.2x slower still in float64 at lmax 719."""
    ft = FLOAT_TYPES[plan.dtype]
    nl, mc = plan.nlat, plan.mc
    nh, h = (nl + 1) // 2, nl // 2      # rows of the blocks (pairs, and the equator), pairs
    ftype = f"tensor<?x{nl}x{mc}x2x{ft}>"
    out = [f"""    // theta step (ireesht/codegen/theta.py): G = T_p F for the orders of parity p,
    // on ring sums and differences (two nh x nh blocks per parity, resample.theta_blocks)
    %th_c1 = arith.constant 1 : index
    %th_c2 = arith.constant 2 : index
    %th_cn = arith.constant {nl - 1} : index
    %th_chm = arith.constant {h - 1} : index
    %th_zero = arith.constant 0.0 : {ft}
    %th_G0 = tensor.empty(%b) : {ftype}"""]
    last = "%th_G0"
    for p in (0, 1):
        n = (mc - p + 1) // 2           # orders m = p, p + 2, ... < mc
        if n == 0:
            continue
        out.append(_parity(p, n, nl, nh, h, ft, ftype, last))
        last = f"%th_G{p}i"
    out.append(f"    %G = tensor.cast {last} : {ftype} to {ftype}")
    return "\n".join(out)


def _lowrank(plan) -> str:
    """``G = d F + U_p (V_p F)`` (``resample.theta_lowrank``) for the float32 plans that take
    it (``Plan.theta_rank``), in F's own layout ``(B, nlat, mc 2)``: one batch_matmul with
    ``theta_v`` (broadcast over the batch, ``2 r x nlat``: small) gives both parities'
    ``V_p F`` for every order; the rows of the other parity are zeroed; one batch_matmul
    with ``theta_u`` (``[U_0, U_1]``) and an elementwise ``d F +`` make G. (Transposing F to
    rings first for plain matmuls made the step's passes 2x slower than its matmuls on the
    CPU.)"""
    ft = FLOAT_TYPES[plan.dtype]
    nl, mc, r = plan.nlat, plan.mc, plan.theta_rank
    r2, c2 = 2 * r, 2 * mc
    ftype = f"tensor<?x{nl}x{mc}x2x{ft}>"
    f3, z3, z4 = (f"tensor<?x{nl}x{c2}x{ft}>", f"tensor<?x{r2}x{c2}x{ft}>",
                  f"tensor<?x{r2}x{mc}x2x{ft}>")
    vb, ub = f"tensor<?x{r2}x{nl}x{ft}>", f"tensor<?x{nl}x{r2}x{ft}>"
    return f"""    // theta step, low rank (ireesht/codegen/theta.py): G = d F + U_p (V_p F)
    %th_c1 = arith.constant 1 : index
    %th_c2 = arith.constant 2 : index
    %th_cr = arith.constant {r} : index
    %th_zero = arith.constant 0.0 : {ft}
    %th_F3 = tensor.collapse_shape %F [[0], [1], [2, 3]] : {ftype} into {f3}
{_batch_matmul("Z", "v", f"tensor<{r2}x{nl}x{ft}>", vb, "%th_F3", f3, z3, ft)}
    %th_Z4 = tensor.expand_shape %th_Z [[0], [1], [2, 3]] output_shape [%b, {r2}, {mc}, 2]
        : {z3} into {z4}
    // row j < r serves the even orders, j >= r the odd ones: zero the other parity's
    %th_me = tensor.empty(%b) : {z4}
    %th_Zm4 = linalg.generic {{indexing_maps = [affine_map<(b, j, m, c) -> (b, j, m, c)>,
        affine_map<(b, j, m, c) -> (b, j, m, c)>], iterator_types = [{_par(4)}]}}
        ins(%th_Z4 : {z4}) outs(%th_me : {z4}) {{
      ^bb0(%th_z: {ft}, %th_o: {ft}):
        %th_j = linalg.index 1 : index
        %th_m = linalg.index 2 : index
        %th_jo = arith.cmpi uge, %th_j, %th_cr : index
        %th_mp = arith.remui %th_m, %th_c2 : index
        %th_mo = arith.cmpi eq, %th_mp, %th_c1 : index
        %th_same = arith.cmpi eq, %th_jo, %th_mo : i1
        %th_v = arith.select %th_same, %th_z, %th_zero : {ft}
        linalg.yield %th_v : {ft}
    }} -> {z4}
    %th_Zm = tensor.collapse_shape %th_Zm4 [[0], [1], [2, 3]] : {z4} into {z3}
{_batch_matmul("Y", "u", f"tensor<{nl}x{r2}x{ft}>", ub, "%th_Zm", z3, f3, ft)}
    %th_Y4 = tensor.expand_shape %th_Y [[0], [1], [2, 3]] output_shape [%b, {nl}, {mc}, 2]
        : {f3} into {ftype}
    %th_ge = tensor.empty(%b) : {ftype}
    %G = linalg.generic {{indexing_maps = [affine_map<(b, i, m, c) -> (b, i, m, c)>,
        affine_map<(b, i, m, c) -> (b, i, m, c)>, affine_map<(b, i, m, c) -> (i)>,
        affine_map<(b, i, m, c) -> (b, i, m, c)>], iterator_types = [{_par(4)}]}}
        ins(%F, %th_Y4, %theta_d : {ftype}, {ftype}, tensor<{nl}x{ft}>) outs(%th_ge : {ftype}) {{
      ^bb0(%th_f: {ft}, %th_y: {ft}, %th_d: {ft}, %th_o: {ft}):
        %th_g = math.fma %th_d, %th_f, %th_y : {ft}
        linalg.yield %th_g : {ft}
    }} -> {ftype}"""


def _batch_matmul(res: str, table: str, ttype: str, btype: str, rhs: str, rtype: str,
                  otype: str, ft: str) -> str:
    """``%th_<res> = theta_<table> @ rhs`` per batch entry: the table broadcast over the batch
    (``Z``: ``Vb``, ``ze``, ``zf``; ``Y``: ``Ub``, ``ye``, ``yf``), a zero-filled result and one
    ``linalg.batch_matmul``."""
    t, o = table.upper(), res.lower()
    operands = f"ins(%th_{t}b, {rhs} : {btype}, {rtype}) outs(%th_{o}f : {otype})"
    return f"""    %th_{table}be = tensor.empty(%b) : {btype}
    %th_{t}b = linalg.broadcast ins(%theta_{table} : {ttype}) outs(%th_{table}be : {btype})
        dimensions = [0]
    %th_{o}e = tensor.empty(%b) : {otype}
    %th_{o}f = linalg.fill ins(%th_zero : {ft}) outs(%th_{o}e : {otype}) -> {otype}
    %th_{res} = linalg.batch_matmul {operands} -> {otype}"""


def _par(k: int) -> str:
    return ", ".join(['"parallel"'] * k)


def _parity(p, n, nl, nh, h, ft, ftype, last) -> str:
    """The step for the ``n`` orders of parity ``p``: fold, batch_matmul, unfold into
    ``last`` (the G built so far), as ``%th_G{p}i``."""
    fold = f"tensor<2x{nh}x?x{n}x2x{ft}>"        # [s][k][b][order][re, im]
    half = f"tensor<{nh}x?x{n}x2x{ft}>"
    mat = f"tensor<2x{nh}x?x{ft}>"
    top, bot = f"tensor<?x{nh}x{n}x2x{ft}>", f"tensor<?x{h}x{n}x2x{ft}>"
    bot3, d3 = f"tensor<?x{h}x{2 * n}x{ft}>", f"tensor<{nh}x?x{2 * n}x{ft}>"
    return f"""    %th_p{p} = arith.constant {p} : index
    %th_K{p} = tensor.extract_slice %theta[{2 * p}, 0, 0] [2, {nh}, {nh}] [1, 1, 1]
        : tensor<4x{nh}x{nh}x{ft}> to tensor<2x{nh}x{nh}x{ft}>
    // fold: X[0][k] = F_k + F_(N-k), X[1][k] = F_k - F_(N-k), orders m = 2 n + p, rings first
    %th_xe{p} = tensor.empty(%b) : {fold}
    %th_X{p} = linalg.generic {{indexing_maps = [affine_map<(s, k, b, n, r) -> (s, k, b, n, r)>],
        iterator_types = [{_par(5)}]}} outs(%th_xe{p} : {fold}) {{
      ^bb0(%th_o: {ft}):
        %th_s = linalg.index 0 : index
        %th_k = linalg.index 1 : index
        %th_b = linalg.index 2 : index
        %th_n = linalg.index 3 : index
        %th_r = linalg.index 4 : index
        %th_km = arith.subi %th_cn, %th_k : index
        %th_n2 = arith.muli %th_n, %th_c2 : index
        %th_m = arith.addi %th_n2, %th_p{p} : index
        %th_a = tensor.extract %F[%th_b, %th_k, %th_m, %th_r] : {ftype}
        %th_c = tensor.extract %F[%th_b, %th_km, %th_m, %th_r] : {ftype}
        %th_sym = arith.cmpi eq, %th_s, %c0 : index
        %th_sum = arith.addf %th_a, %th_c : {ft}
        %th_dif = arith.subf %th_a, %th_c : {ft}
        %th_v = arith.select %th_sym, %th_sum, %th_dif : {ft}
        linalg.yield %th_v : {ft}
    }} -> {fold}
    %th_M{p} = tensor.collapse_shape %th_X{p} [[0], [1], [2, 3, 4]] : {fold} into {mat}
    %th_d{p} = tensor.dim %th_M{p}, %th_c2 : {mat}
    %th_e{p} = tensor.empty(%th_d{p}) : {mat}
    %th_z{p} = linalg.fill ins(%th_zero : {ft}) outs(%th_e{p} : {mat}) -> {mat}
    %th_Y{p} = linalg.batch_matmul ins(%th_K{p}, %th_M{p} : tensor<2x{nh}x{nh}x{ft}>, {mat})
        outs(%th_z{p} : {mat}) -> {mat}
    // unfold: G_i = Y_s,i + Y_a,i (i < nh, a transpose), G_(N-i) = D_i = Y_s,i - Y_a,i (i < h)
    %th_U{p} = tensor.expand_shape %th_Y{p} [[0], [1], [2, 3, 4]] output_shape [2, {nh}, %b, {n}, 2]
        : {mat} into {fold}
    %th_Ys{p} = tensor.extract_slice %th_U{p}[0, 0, 0, 0, 0] [1, {nh}, %b, {n}, 2] [1, 1, 1, 1, 1]
        : {fold} to {half}
    %th_Ya{p} = tensor.extract_slice %th_U{p}[1, 0, 0, 0, 0] [1, {nh}, %b, {n}, 2] [1, 1, 1, 1, 1]
        : {fold} to {half}
    %th_te{p} = tensor.empty(%b) : {top}
    %th_de{p} = tensor.empty(%b) : {half}
    %th_T{p}, %th_D{p} = linalg.generic {{indexing_maps = [affine_map<(b, i, n, r) -> (i, b, n, r)>,
        affine_map<(b, i, n, r) -> (i, b, n, r)>, affine_map<(b, i, n, r) -> (b, i, n, r)>,
        affine_map<(b, i, n, r) -> (i, b, n, r)>],
        iterator_types = [{_par(4)}]}} ins(%th_Ys{p}, %th_Ya{p} : {half}, {half})
        outs(%th_te{p}, %th_de{p} : {top}, {half}) {{
      ^bb0(%th_a: {ft}, %th_c: {ft}, %th_o: {ft}, %th_o2: {ft}):
        %th_v = arith.addf %th_a, %th_c : {ft}
        %th_w = arith.subf %th_a, %th_c : {ft}
        linalg.yield %th_v, %th_w : {ft}, {ft}
    }} -> ({top}, {half})
    %th_D3{p} = tensor.collapse_shape %th_D{p} [[0], [1], [2, 3]] : {half} into {d3}
    %th_be{p} = tensor.empty(%b) : {bot3}
    %th_B3{p} = linalg.generic {{indexing_maps = [affine_map<(b, j, c) -> (b, j, c)>],
        iterator_types = [{_par(3)}]}} outs(%th_be{p} : {bot3}) {{
      ^bb0(%th_o: {ft}):
        %th_b = linalg.index 0 : index
        %th_j = linalg.index 1 : index
        %th_c = linalg.index 2 : index
        %th_i = arith.subi %th_chm, %th_j : index
        %th_v = tensor.extract %th_D3{p}[%th_i, %th_b, %th_c] : {d3}
        linalg.yield %th_v : {ft}
    }} -> {bot3}
    %th_B{p} = tensor.expand_shape %th_B3{p} [[0], [1], [2, 3]] output_shape [%b, {h}, {n}, 2]
        : {bot3} into {bot}
    %th_G{p}t = tensor.insert_slice %th_T{p} into {last}[0, 0, {p}, 0] [%b, {nh}, {n}, 2]
        [1, 1, 2, 1] : {top} into {ftype}
    %th_G{p}i = tensor.insert_slice %th_B{p} into %th_G{p}t[0, {nh}, {p}, 0] [%b, {h}, {n}, 2]
        [1, 1, 2, 1] : {bot} into {ftype}"""
