"""The theta step of exact equiangular analysis (``ireesht.numerics.resample``) as MLIR:
``G[b, i, m] = sum_k theta[m mod 2, i, k] F[b, k, m]``, between the Fourier and the Legendre
analysis of ``mlir/pipeline.mlir`` (``${op_theta_analys}``), which then reads G.

Plain tensor and linalg ops, not a kernel of a family: IREE compiles them for whatever
target the module has (CUDA, SPIR-V, Metal, llvm-cpu), so every kernel family gets the same
step. The orders of each parity are a strided slice of F (stride 2 along m), each multiplied
by its ``nlat x nlat`` matrix (a contraction over the rings k) and put back in place.
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
    ]
    last = "%th_G0"
    for p in (0, 1):
        n = (mc - p + 1) // 2           # orders m = p, p + 2, ... < mc
        if n == 0:
            continue
        part = f"tensor<?x{nl}x{n}x2x{ft}>"
        lines += [
            f"    %th_F{p} = tensor.extract_slice %F[0, 0, {p}, 0] [%b, {nl}, {n}, 2] [1, 1, 2, 1]"
            f"\n        : {ftype} to {part}",
            f"    %th_K{p} = tensor.extract_slice %theta[{p}, 0, 0] [1, {nl}, {nl}] [1, 1, 1]"
            f"\n        : tensor<2x{nl}x{nl}x{ft}> to tensor<{nl}x{nl}x{ft}>",
            f"    %th_e{p} = tensor.empty(%b) : {part}",
            f"    %th_z{p} = linalg.fill ins(%th_zero : {ft}) outs(%th_e{p} : {part}) -> {part}",
            f"    %th_G{p}p = linalg.generic {{indexing_maps = ["
            "affine_map<(b, i, m, c, k) -> (i, k)>, "
            "affine_map<(b, i, m, c, k) -> (b, k, m, c)>, "
            "affine_map<(b, i, m, c, k) -> (b, i, m, c)>],"
            '\n        iterator_types = ["parallel", "parallel", "parallel", "parallel", '
            '"reduction"]}'
            f"\n        ins(%th_K{p}, %th_F{p} : tensor<{nl}x{nl}x{ft}>, {part})"
            f" outs(%th_z{p} : {part}) {{"
            f"\n    ^bb0(%th_a: {ft}, %th_x: {ft}, %th_acc: {ft}):"
            f"\n      %th_ax = arith.mulf %th_a, %th_x : {ft}"
            f"\n      %th_s = arith.addf %th_acc, %th_ax : {ft}"
            f"\n      linalg.yield %th_s : {ft}"
            f"\n    }} -> {part}",
            f"    %th_G{p}i = tensor.insert_slice %th_G{p}p into {last}[0, 0, {p}, 0] "
            f"[%b, {nl}, {n}, 2] [1, 1, 2, 1]\n        : {part} into {ftype}",
        ]
        last = f"%th_G{p}i"
    lines.append(f"    %G = tensor.cast {last} : {ftype} to {ftype}")
    return {"op_theta_analys": "\n".join(lines), "leg_analys_in": "G"}
