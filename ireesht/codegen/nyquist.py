"""The Nyquist order ``N = nphi / 2 = mmax`` (``Plan.nyquist``) as MLIR around the kernels.

The kernels run the plan's ``kernel_plan`` (``mmax - 1``, whose packed coefficients are the
first ``nlm - nn`` of the plan's, ``nn = lmax - N + 1``), unchanged. On the grid order N is
``(-1)^j`` times a real row (``sin(N phi_j) = 0``), so two small steps in plain tensor /
linalg ops, compiled by IREE for any target like the theta step (``codegen.theta``), add it:

- synthesis: ``f[b, i, j] += (-1)^j r[b, i]``, ``r = Re q_N @ nyq_synth`` (``(B, nn) x (nn,
  nlat)``), after the Fourier synthesis;
- analysis: ``s[b, i] = sum_j (-1)^j f[b, i, j]`` and ``q_N = s @ nyq_analys`` (real; Im 0),
  appended to the kernels' coefficients.

The tables (``tables.nyquist_tables``) hold the normalisation, the factor 2 of the real-field
convention, the quadrature weights and the theta step. Plans without the Nyquist order get
none of this: their module text is what it was before it existed.
"""

from __future__ import annotations

from ireesht.tables import FLOAT_TYPES


def values(plan, synth_q: str, analys_q: str) -> dict[str, str]:
    """The substitutions of mlir/pipeline.mlir for the coefficients' size and names:
    ``qnlm`` (the plan's nlm; ``${nlm}`` is the kernels'), ``synth_arg`` (the synthesis's
    argument), ``synth_f`` (its result), ``analys_result``, and the optional sections
    ``synth_nyquist_split``, ``synth_nyquist_add`` and ``analys_nyquist``. ``synth_q`` is the
    name the kernels' (or the scaling's) input must have, ``analys_q`` the name of the
    kernels' (or the scaling's) result (``codegen.pipeline._scaling``)."""
    if not plan.nyquist:
        return {"qnlm": str(plan.nlm), "synth_arg": synth_q, "synth_f": "f",
                "analys_result": analys_q, "synth_nyquist_split": "",
                "synth_nyquist_add": "", "analys_nyquist": ""}
    ft = FLOAT_TYPES[plan.dtype]
    nl, nphi, qnlm = plan.nlat, plan.nphi, plan.nlm
    nn = plan.lmax - plan.mmax + 1
    nk = qnlm - nn                      # the kernels' coefficients come first (m-major)
    q, qk = f"tensor<?x{qnlm}x2x{ft}>", f"tensor<?x{nk}x2x{ft}>"
    qn, rows = f"tensor<?x{nn}x{ft}>", f"tensor<?x{nl}x{ft}>"
    field = f"tensor<?x{nl}x{nphi}x{ft}>"
    # (-1)^j x inside a linalg.generic over (b, i, j): the sign of column j
    sign = [
        "        %nyq_j = linalg.index 2 : index",
        "        %nyq_one = arith.constant 1 : index",
        "        %nyq_jo = arith.andi %nyq_j, %nyq_one : index",
        "        %nyq_odd = arith.cmpi eq, %nyq_jo, %nyq_one : index",
    ]
    split = "\n".join([
        "    // the Nyquist order (ireesht/codegen/nyquist.py): the kernels take the orders "
        "below it",
        f"    %{synth_q} = tensor.extract_slice %q_all[0, 0, 0] [%b, {nk}, 2] [1, 1, 1]"
        f"\n        : {q} to {qk}",
        f"    %nyq_q = tensor.extract_slice %q_all[0, {nk}, 0] [%b, {nn}, 1] [1, 1, 1]"
        f"\n        : {q} to {qn}",
    ])
    add = "\n".join([
        "    // f += (-1)^j Re q_N @ nyq_synth (ireesht/codegen/nyquist.py)",
        f"    %nyq_zero = arith.constant 0.0 : {ft}",
        f"    %nyq_re = tensor.empty(%b) : {rows}",
        f"    %nyq_r0 = linalg.fill ins(%nyq_zero : {ft}) outs(%nyq_re : {rows}) -> {rows}",
        f"    %nyq_r = linalg.matmul ins(%nyq_q, %nyq_synth : {qn}, tensor<{nn}x{nl}x{ft}>)"
        f"\n        outs(%nyq_r0 : {rows}) -> {rows}",
        f"    %nyq_fe = tensor.empty(%b) : {field}",
        "    %f_nyq = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>,",
        "                                             affine_map<(b, i, j) -> (b, i)>,",
        "                                             affine_map<(b, i, j) -> (b, i, j)>],",
        '                             iterator_types = ["parallel", "parallel", "parallel"]}',
        f"        ins(%f, %nyq_r : {field}, {rows}) outs(%nyq_fe : {field}) {{",
        f"      ^bb0(%x: {ft}, %r: {ft}, %o: {ft}):",
        *sign,
        f"        %nyq_neg = arith.negf %r : {ft}",
        f"        %nyq_s = arith.select %nyq_odd, %nyq_neg, %r : {ft}",
        f"        %y = arith.addf %x, %nyq_s : {ft}",
        f"        linalg.yield %y : {ft}",
        f"    }} -> {field}",
    ])
    analys = "\n".join([
        "    // q_N = (sum_j (-1)^j f[., ., j]) @ nyq_analys, Im 0, after the kernels' orders",
        "    // (ireesht/codegen/nyquist.py)",
        f"    %nyq_zero = arith.constant 0.0 : {ft}",
        f"    %nyq_se = tensor.empty(%b) : {rows}",
        f"    %nyq_s0 = linalg.fill ins(%nyq_zero : {ft}) outs(%nyq_se : {rows}) -> {rows}",
        "    %nyq_s = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>,",
        "                                             affine_map<(b, i, j) -> (b, i)>],",
        '                             iterator_types = ["parallel", "parallel", "reduction"]}',
        f"        ins(%f : {field}) outs(%nyq_s0 : {rows}) {{",
        f"      ^bb0(%x: {ft}, %acc: {ft}):",
        *sign,
        f"        %nyq_neg = arith.negf %x : {ft}",
        f"        %nyq_v = arith.select %nyq_odd, %nyq_neg, %x : {ft}",
        f"        %y = arith.addf %acc, %nyq_v : {ft}",
        f"        linalg.yield %y : {ft}",
        f"    }} -> {rows}",
        f"    %nyq_ae = tensor.empty(%b) : {qn}",
        f"    %nyq_a0 = linalg.fill ins(%nyq_zero : {ft}) outs(%nyq_ae : {qn}) -> {qn}",
        f"    %nyq_a = linalg.matmul ins(%nyq_s, %nyq_analys : {rows}, tensor<{nl}x{nn}x{ft}>)"
        f"\n        outs(%nyq_a0 : {qn}) -> {qn}",
        f"    %nyq_qe = tensor.empty(%b) : {q}",
        f"    %nyq_q0 = linalg.fill ins(%nyq_zero : {ft}) outs(%nyq_qe : {q}) -> {q}",
        f"    %nyq_q1 = tensor.insert_slice %{analys_q} into %nyq_q0[0, 0, 0] [%b, {nk}, 2] "
        f"[1, 1, 1]\n        : {qk} into {q}",
        f"    %q_nyq = tensor.insert_slice %nyq_a into %nyq_q1[0, {nk}, 0] [%b, {nn}, 1] "
        f"[1, 1, 1]\n        : {qn} into {q}",
    ])
    return {"qnlm": str(qnlm), "synth_arg": "q_all", "synth_f": "f_nyq",
            "analys_result": "q_nyq", "synth_nyquist_split": split, "synth_nyquist_add": add,
            "analys_nyquist": analys}
