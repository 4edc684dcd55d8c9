"""The theta step of exact equiangular and Fejer analysis (``ireesht.numerics.resample``) as
MLIR: ``G[b, :, m] = T_(m mod 2) F[b, :, m]`` between the Fourier and the Legendre analysis of
``mlir/pipeline.mlir`` (``${op_theta_analys}``), which then reads G.

Plain tensor and linalg ops, not a kernel of a family: IREE compiles them for whatever target
the module has (CUDA, SPIR-V, Metal, llvm-cpu), so every kernel family gets the same step. Both
forms are batch matmuls in F's own layout ``(B, nlat, mc 2)`` with the small matrices broadcast
over the batch, and one elementwise pass: float32 plans whose rank is small enough take ``T_p =
diag(d) + U_p V_p`` (``Plan.theta_rank``, ``_lowrank``), the others the dense ``[T_0; T_1]``
(``_dense``). Earlier forms ran far slower: a fold by the equatorial symmetry with gathers
(``tensor.extract`` of mirrored rings) took 85-190x the Gauss analysis's time on CUDA at lmax
719; F transposed to rings first for plain matmuls made the passes 2x slower than the matmuls
on the CPU. A ``tensor.extract`` from a tensor that the same generic also takes as an input
computed wrong values on llvm-cpu (IREE 3.13): the generics here read only their inputs.
"""

from __future__ import annotations

from ireesht.tables import FLOAT_TYPES


def values(plan) -> dict[str, str]:
    """``op_theta_analys`` (empty without the step) and ``leg_analys_in``, the SSA name of
    the Legendre analysis's input (``F``, or ``G`` after the step)."""
    if not plan.theta_step:
        return {"op_theta_analys": "", "leg_analys_in": "F"}
    return {"op_theta_analys": _lowrank(plan) if plan.theta_rank else _dense(plan),
            "leg_analys_in": "G"}


def _dense(plan) -> str:
    """``G = T_p F``: one batch_matmul with ``theta`` (``[T_0; T_1]``, ``2 nlat x nlat``,
    broadcast over the batch) gives both parities' products for every order; an elementwise
    pass picks each order's parity."""
    ft = FLOAT_TYPES[plan.dtype]
    nl, mc = plan.nlat, plan.mc
    c2, n2 = 2 * mc, 2 * nl
    ftype = f"tensor<?x{nl}x{mc}x2x{ft}>"
    f3, y3 = f"tensor<?x{nl}x{c2}x{ft}>", f"tensor<?x{n2}x{c2}x{ft}>"
    tb = f"tensor<?x{n2}x{nl}x{ft}>"
    return f"""    // theta step, dense (ireesht/codegen/theta.py): G = T_p F, p = m mod 2
    %th_c1 = arith.constant 1 : index
    %th_c2 = arith.constant 2 : index
    %th_zero = arith.constant 0.0 : {ft}
    %th_F3 = tensor.collapse_shape %F [[0], [1], [2, 3]] : {ftype} into {f3}
    %th_tbe = tensor.empty(%b) : {tb}
    %th_Tb = linalg.broadcast ins(%theta : tensor<{n2}x{nl}x{ft}>) outs(%th_tbe : {tb})
        dimensions = [0]
    %th_ye = tensor.empty(%b) : {y3}
    %th_yf = linalg.fill ins(%th_zero : {ft}) outs(%th_ye : {y3}) -> {y3}
    %th_Y = linalg.batch_matmul ins(%th_Tb, %th_F3 : {tb}, {f3}) outs(%th_yf : {y3}) -> {y3}
    %th_Y0 = tensor.extract_slice %th_Y[0, 0, 0] [%b, {nl}, {c2}] [1, 1, 1] : {y3} to {f3}
    %th_Y1 = tensor.extract_slice %th_Y[0, {nl}, 0] [%b, {nl}, {c2}] [1, 1, 1] : {y3} to {f3}
    %th_E0 = tensor.expand_shape %th_Y0 [[0], [1], [2, 3]] output_shape [%b, {nl}, {mc}, 2]
        : {f3} into {ftype}
    %th_E1 = tensor.expand_shape %th_Y1 [[0], [1], [2, 3]] output_shape [%b, {nl}, {mc}, 2]
        : {f3} into {ftype}
    %th_ge = tensor.empty(%b) : {ftype}
    %G = linalg.generic {{indexing_maps = [affine_map<(b, i, m, c) -> (b, i, m, c)>,
        affine_map<(b, i, m, c) -> (b, i, m, c)>, affine_map<(b, i, m, c) -> (b, i, m, c)>],
        iterator_types = [{_par(4)}]}} ins(%th_E0, %th_E1 : {ftype}, {ftype}) outs(%th_ge : {ftype}) {{
      ^bb0(%th_a: {ft}, %th_o1: {ft}, %th_o: {ft}):
        %th_m = linalg.index 2 : index
        %th_mp = arith.remui %th_m, %th_c2 : index
        %th_odd = arith.cmpi eq, %th_mp, %th_c1 : index
        %th_g = arith.select %th_odd, %th_o1, %th_a : {ft}
        linalg.yield %th_g : {ft}
    }} -> {ftype}"""


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
    %th_vbe = tensor.empty(%b) : {vb}
    %th_Vb = linalg.broadcast ins(%theta_v : tensor<{r2}x{nl}x{ft}>) outs(%th_vbe : {vb})
        dimensions = [0]
    %th_ze = tensor.empty(%b) : {z3}
    %th_zf = linalg.fill ins(%th_zero : {ft}) outs(%th_ze : {z3}) -> {z3}
    %th_Z = linalg.batch_matmul ins(%th_Vb, %th_F3 : {vb}, {f3}) outs(%th_zf : {z3}) -> {z3}
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
    %th_ube = tensor.empty(%b) : {ub}
    %th_Ub = linalg.broadcast ins(%theta_u : tensor<{nl}x{r2}x{ft}>) outs(%th_ube : {ub})
        dimensions = [0]
    %th_ye = tensor.empty(%b) : {f3}
    %th_yf = linalg.fill ins(%th_zero : {ft}) outs(%th_ye : {f3}) -> {f3}
    %th_Y = linalg.batch_matmul ins(%th_Ub, %th_Zm : {ub}, {z3}) outs(%th_yf : {f3}) -> {f3}
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


def _par(k: int) -> str:
    return ", ".join(['"parallel"'] * k)
