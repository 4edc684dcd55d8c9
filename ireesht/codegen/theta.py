"""The theta step of exact equiangular analysis (``ireesht.numerics.resample``) as MLIR:
``G[b, i, m] = sum_k theta[m mod 2, i, k] F[b, k, m]``, between the Fourier and the Legendre
analysis of ``mlir/pipeline.mlir`` (``${op_theta_analys}``), which then reads G.

Plain tensor and linalg ops, not a kernel of a family: IREE compiles them for whatever
target the module has (CUDA, SPIR-V, Metal, llvm-cpu), so every kernel family gets the same
step. The orders of each parity are a strided slice of F (stride 2 along m), transposed to
rings first and collapsed to a ``nlat x (B n 2)`` matrix, so that the product with its ``nlat x
nlat`` matrix is one ``linalg.matmul`` (which IREE compiles well; a ``linalg.generic``
contraction over the rings in F's own layout ran 3-4x slower on the CPU), then put back.
"""

from __future__ import annotations

from ireesht.tables import FLOAT_TYPES


def values(plan) -> dict[str, str]:
    """``op_theta_analys`` (empty without the step) and ``leg_analys_in``, the SSA name of
    the Legendre analysis's input (``F``, or ``G`` after the step)."""
    if not plan.theta_step:
        return {"op_theta_analys": "", "leg_analys_in": "F"}
    ft = FLOAT_TYPES[plan.dtype]
    nl, mc = plan.nlat, plan.mc
    ftype = f"tensor<?x{nl}x{mc}x2x{ft}>"
    lines = [
        "    // theta step (ireesht/codegen/theta.py): G = K_p F for the orders of parity p",
        f"    %th_zero = arith.constant 0.0 : {ft}",
        f"    %th_G0 = tensor.empty(%b) : {ftype}",
        "    %th_one = arith.constant 1 : index",
    ]
    last = "%th_G0"
    for p in (0, 1):
        n = (mc - p + 1) // 2           # orders m = p, p + 2, ... < mc
        if n == 0:
            continue
        part = f"tensor<?x{nl}x{n}x2x{ft}>"
        tpart = f"tensor<{nl}x?x{n}x2x{ft}>"
        mat = f"tensor<{nl}x?x{ft}>"
        lines += [
            f"    %th_F{p} = tensor.extract_slice %F[0, 0, {p}, 0] [%b, {nl}, {n}, 2] [1, 1, 2, 1]"
            f"\n        : {ftype} to {part}",
            f"    %th_K{p} = tensor.extract_slice %theta[{p}, 0, 0] [1, {nl}, {nl}] [1, 1, 1]"
            f"\n        : tensor<2x{nl}x{nl}x{ft}> to tensor<{nl}x{nl}x{ft}>",
            # rings first, so that the step is one plain matmul (IREE's fast path for it)
            f"    %th_te{p} = tensor.empty(%b) : {tpart}",
            f"    %th_T{p} = linalg.transpose ins(%th_F{p} : {part}) outs(%th_te{p} : {tpart})"
            " permutation = [1, 0, 2, 3]",
            f"    %th_X{p} = tensor.collapse_shape %th_T{p} [[0], [1, 2, 3]] : {tpart} into {mat}",
            f"    %th_c{p} = tensor.dim %th_X{p}, %th_one : {mat}",
            f"    %th_e{p} = tensor.empty(%th_c{p}) : {mat}",
            f"    %th_z{p} = linalg.fill ins(%th_zero : {ft}) outs(%th_e{p} : {mat}) -> {mat}",
            f"    %th_Y{p} = linalg.matmul ins(%th_K{p}, %th_X{p} : tensor<{nl}x{nl}x{ft}>, {mat})"
            f" outs(%th_z{p} : {mat}) -> {mat}",
            f"    %th_U{p} = tensor.expand_shape %th_Y{p} [[0], [1, 2, 3]] output_shape "
            f"[{nl}, %b, {n}, 2] : {mat} into {tpart}",
            f"    %th_ue{p} = tensor.empty(%b) : {part}",
            f"    %th_G{p}p = linalg.transpose ins(%th_U{p} : {tpart}) outs(%th_ue{p} : {part})"
            " permutation = [1, 0, 2, 3]",
            f"    %th_G{p}i = tensor.insert_slice %th_G{p}p into {last}[0, 0, {p}, 0] "
            f"[%b, {nl}, {n}, 2] [1, 1, 2, 1]\n        : {part} into {ftype}",
        ]
        last = f"%th_G{p}i"
    lines.append(f"    %G = tensor.cast {last} : {ftype} to {ftype}")
    return {"op_theta_analys": "\n".join(lines), "leg_analys_in": "G"}
