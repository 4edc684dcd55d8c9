// The vector (spin-1) functions of a plan with transform="vector", pasted into
// mlir/pipeline.mlir (${vector_functions}) by ireesht/codegen/vector.py: every kernel
// family gets them, since they call the scalar @synth_impl / @analys_impl at the kernels'
// lmax = L + 1 on 2B fields (component c of field b at 2b + c) and wrap them in linalg ops
// that IREE compiles for the target (docs/design.md, "Vector transforms"; the maths in
// ireesht/numerics/vector.py). Sections are cut at the `// stage:` lines; `pole`
// sections are used only on grids with both pole rows (0 and ${plast} = NL - 1) and
// mmax >= 1; in vanalys_pole_sum and vanalys_pole_term `${p}` is the pole (0 north, 1
// south), `${row}` its row, `${s}` its sign (1, -1), `${next}` = p + 1.

// stage: functions
  // st [B][2][VNLM] (S, T) -> sin(theta) u_theta, sin(theta) u_phi as scalar coefficients
  // at L + 1 -> the scalar synthesis -> times 1/sin(theta) per row (poles: below).
  func.func private @vsynth_impl(${vsynth_table_params}, %st: tensor<?x2x${vnlm}x2x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${nlat}x${nphi}x${ft}> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %vlast = arith.constant ${vlast} : index
    %b = tensor.dim %st, %c0 : tensor<?x2x${vnlm}x2x${ft}>
    %q_e = tensor.empty(%b) : tensor<?x2x${nlm}x2x${ft}>
    // row k' = (l', m) of the packing at L + 1 gathers S, T at k' - m - 1, k' - m, k' - m + 1
    // (numerics.vector.synth_mix: a, b, mm, m); the i mm term swaps re and im.
    %q2 = linalg.generic {indexing_maps = [affine_map<(b, c, k, r) -> (b, c, k, r)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        outs(%q_e : tensor<?x2x${nlm}x2x${ft}>) {
      ^bb0(%sq_out: ${ft}):
        %sq_b = linalg.index 0 : index
        %sq_c = linalg.index 1 : index
        %sq_k = linalg.index 2 : index
        %sq_r = linalg.index 3 : index
        %sq_a = tensor.extract %vsynth_mix[%sq_k, %c0] : tensor<${nlm}x4x${ft}>
        %sq_bb = tensor.extract %vsynth_mix[%sq_k, %c1] : tensor<${nlm}x4x${ft}>
        %sq_mm = tensor.extract %vsynth_mix[%sq_k, %c2] : tensor<${nlm}x4x${ft}>
        %sq_mf = tensor.extract %vsynth_mix[%sq_k, %c3] : tensor<${nlm}x4x${ft}>
        %sq_mi = arith.fptosi %sq_mf : ${ft} to i32
        %sq_m = arith.index_cast %sq_mi : i32 to index
        %sq_j = arith.subi %sq_k, %sq_m : index
        %sq_j0 = arith.subi %sq_j, %c1 : index
        %sq_jm = arith.maxsi %sq_j0, %c0 : index
        %sq_j1 = arith.addi %sq_j, %c1 : index
        %sq_jp = arith.minsi %sq_j1, %vlast : index
        %sq_jc = arith.minsi %sq_j, %vlast : index
        %sq_oc = arith.subi %c1, %sq_c : index
        %sq_or = arith.subi %c1, %sq_r : index
        %sq_x0 = tensor.extract %st[%sq_b, %sq_c, %sq_jm, %sq_r] : tensor<?x2x${vnlm}x2x${ft}>
        %sq_x1 = tensor.extract %st[%sq_b, %sq_c, %sq_jp, %sq_r] : tensor<?x2x${vnlm}x2x${ft}>
        %sq_y = tensor.extract %st[%sq_b, %sq_oc, %sq_jc, %sq_or] : tensor<?x2x${vnlm}x2x${ft}>
        %sq_same = arith.cmpi eq, %sq_c, %sq_r : index
        %sq_ny = arith.negf %sq_y : ${ft}
        %sq_sy = arith.select %sq_same, %sq_y, %sq_ny : ${ft}
        %sq_t0 = arith.mulf %sq_a, %sq_x0 : ${ft}
        %sq_t1 = arith.mulf %sq_bb, %sq_x1 : ${ft}
        %sq_t2 = arith.mulf %sq_mm, %sq_sy : ${ft}
        %sq_t3 = arith.addf %sq_t0, %sq_t1 : ${ft}
        %sq_v = arith.addf %sq_t3, %sq_t2 : ${ft}
        linalg.yield %sq_v : ${ft}
    } -> tensor<?x2x${nlm}x2x${ft}>
    %q = tensor.collapse_shape %q2 [[0, 1], [2], [3]]
        : tensor<?x2x${nlm}x2x${ft}> into tensor<?x${nlm}x2x${ft}>
    %f = func.call @synth_impl(${synth_table_args}, %q, %F_ws)
        : (${synth_table_types}, tensor<?x${nlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}>
    %f2 = tensor.expand_shape %f [[0, 1], [2], [3]] output_shape [%b, 2, ${nlat}, ${nphi}]
        : tensor<?x${nlat}x${nphi}x${ft}> into tensor<?x2x${nlat}x${nphi}x${ft}>
${vsynth_poles}
    %u_e = tensor.empty(%b) : tensor<?x2x${nlat}x${nphi}x${ft}>
    %u = linalg.generic {indexing_maps = [affine_map<(b, c, i, j) -> (b, c, i, j)>,
                                          affine_map<(b, c, i, j) -> (i)>,
                                          affine_map<(b, c, i, j) -> (b, c, i, j)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%f2, %vrows : tensor<?x2x${nlat}x${nphi}x${ft}>, tensor<${nlat}x${ft}>)
        outs(%u_e : tensor<?x2x${nlat}x${nphi}x${ft}>) {
      ^bb0(%su_f: ${ft}, %su_w: ${ft}, %su_out: ${ft}):
        %su_v0 = arith.mulf %su_f, %su_w : ${ft}
${vsynth_pole_values}
        linalg.yield %${su_result} : ${ft}
    } -> tensor<?x2x${nlat}x${nphi}x${ft}>
    return %u : tensor<?x2x${nlat}x${nphi}x${ft}>
  }

  // u [B][2][NL][NP] -> u / sin(theta) per row (pole rows 0) -> the scalar analysis at
  // L + 1 -> mixed along l and divided by l(l+1) (numerics.vector.analys_mix), plus, on
  // grids with poles, the pole rows' order-1 terms.
  func.func private @vanalys_impl(${vanalys_table_params}, %u: tensor<?x2x${nlat}x${nphi}x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${vnlm}x2x${ft}> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %b = tensor.dim %u, %c0 : tensor<?x2x${nlat}x${nphi}x${ft}>
    %g_e = tensor.empty(%b) : tensor<?x2x${nlat}x${nphi}x${ft}>
    %g2 = linalg.generic {indexing_maps = [affine_map<(b, c, i, j) -> (b, c, i, j)>,
                                           affine_map<(b, c, i, j) -> (i)>,
                                           affine_map<(b, c, i, j) -> (b, c, i, j)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%u, %vrows : tensor<?x2x${nlat}x${nphi}x${ft}>, tensor<${nlat}x${ft}>)
        outs(%g_e : tensor<?x2x${nlat}x${nphi}x${ft}>) {
      ^bb0(%ag_u: ${ft}, %ag_w: ${ft}, %ag_out: ${ft}):
        %ag_v = arith.mulf %ag_u, %ag_w : ${ft}
        linalg.yield %ag_v : ${ft}
    } -> tensor<?x2x${nlat}x${nphi}x${ft}>
    %g = tensor.collapse_shape %g2 [[0, 1], [2], [3]]
        : tensor<?x2x${nlat}x${nphi}x${ft}> into tensor<?x${nlat}x${nphi}x${ft}>
    %a = func.call @analys_impl(${analys_table_args}, %g, %F_ws)
        : (${analys_table_types}, tensor<?x${nlat}x${nphi}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlm}x2x${ft}>
    %a2 = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [%b, 2, ${nlm}, 2]
        : tensor<?x${nlm}x2x${ft}> into tensor<?x2x${nlm}x2x${ft}>
${vanalys_poles}
    %st_e = tensor.empty(%b) : tensor<?x2x${vnlm}x2x${ft}>
    // row k = (l, m) of the packing at L gathers A at k + m - 1, k + m, k + m + 1
    %st = linalg.generic {indexing_maps = [affine_map<(b, c, k, r) -> (b, c, k, r)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        outs(%st_e : tensor<?x2x${vnlm}x2x${ft}>) {
      ^bb0(%ms_out: ${ft}):
        %ms_b = linalg.index 0 : index
        %ms_c = linalg.index 1 : index
        %ms_k = linalg.index 2 : index
        %ms_r = linalg.index 3 : index
        %ms_cp = tensor.extract %vanalys_mix[%ms_k, %c0] : tensor<${vnlm}x6x${ft}>
        %ms_cm = tensor.extract %vanalys_mix[%ms_k, %c1] : tensor<${vnlm}x6x${ft}>
        %ms_cmm = tensor.extract %vanalys_mix[%ms_k, %c2] : tensor<${vnlm}x6x${ft}>
        %ms_mf = tensor.extract %vanalys_mix[%ms_k, %c3] : tensor<${vnlm}x6x${ft}>
        %ms_mi = arith.fptosi %ms_mf : ${ft} to i32
        %ms_m = arith.index_cast %ms_mi : i32 to index
        %ms_j = arith.addi %ms_k, %ms_m : index
        %ms_jp = arith.addi %ms_j, %c1 : index
        %ms_j0 = arith.subi %ms_j, %c1 : index
        %ms_jm = arith.maxsi %ms_j0, %c0 : index
        %ms_oc = arith.subi %c1, %ms_c : index
        %ms_or = arith.subi %c1, %ms_r : index
        %ms_x0 = tensor.extract %a2[%ms_b, %ms_c, %ms_jp, %ms_r] : tensor<?x2x${nlm}x2x${ft}>
        %ms_x1 = tensor.extract %a2[%ms_b, %ms_c, %ms_jm, %ms_r] : tensor<?x2x${nlm}x2x${ft}>
        %ms_y = tensor.extract %a2[%ms_b, %ms_oc, %ms_j, %ms_or] : tensor<?x2x${nlm}x2x${ft}>
        %ms_same = arith.cmpi eq, %ms_c, %ms_r : index
        %ms_ny = arith.negf %ms_y : ${ft}
        %ms_sy = arith.select %ms_same, %ms_y, %ms_ny : ${ft}
        %ms_t0 = arith.mulf %ms_cp, %ms_x0 : ${ft}
        %ms_t1 = arith.mulf %ms_cm, %ms_x1 : ${ft}
        %ms_t2 = arith.mulf %ms_cmm, %ms_sy : ${ft}
        %ms_t3 = arith.addf %ms_t0, %ms_t1 : ${ft}
        %ms_v0 = arith.addf %ms_t3, %ms_t2 : ${ft}
${vanalys_pole_terms}
        linalg.yield %${ms_result} : ${ft}
    } -> tensor<?x2x${vnlm}x2x${ft}>
    return %st : tensor<?x2x${vnlm}x2x${ft}>
  }

  // Exported as the scalar functions are (mlir/pipeline.mlir, %transients too): F holds 2B
  // fields.
  func.func @vsynth(${vsynth_table_params}, %st: tensor<?x2x${vnlm}x2x${ft}>) -> tensor<?x2x${nlat}x${nphi}x${ft}> {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %st, %c0 : tensor<?x2x${vnlm}x2x${ft}>
    %c2 = arith.constant 2 : index
    %b2 = arith.muli %b, %c2 : index
    %F_ws = tensor.empty(%b2) : tensor<?x${nlat}x${mc}x2x${ft}>
    %u = call @vsynth_impl(${vsynth_table_args}, %st, %F_ws)
        : (${vsynth_table_types}, tensor<?x2x${vnlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${nlat}x${nphi}x${ft}>
    return %u : tensor<?x2x${nlat}x${nphi}x${ft}>
  }

  util.func public @vsynth_async(${vsynth_table_params}, %st: tensor<?x2x${vnlm}x2x${ft}>,
      %u_out: tensor<?x2x${nlat}x${nphi}x${ft}> {iree.abi.output = 0 : index}, %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>,
      %transients: !hal.buffer {iree.abi.transients}) -> tensor<?x2x${nlat}x${nphi}x${ft}>
      attributes {iree.abi.model = "coarse-fences"} {
    %u = func.call @vsynth_impl(${vsynth_table_args}, %st, %F_ws)
        : (${vsynth_table_types}, tensor<?x2x${vnlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${nlat}x${nphi}x${ft}>
    util.return %u : tensor<?x2x${nlat}x${nphi}x${ft}>
  }

  func.func @vanalys(${vanalys_table_params}, %u: tensor<?x2x${nlat}x${nphi}x${ft}>) -> tensor<?x2x${vnlm}x2x${ft}> {
    %c0 = arith.constant 0 : index
    %b = tensor.dim %u, %c0 : tensor<?x2x${nlat}x${nphi}x${ft}>
    %c2 = arith.constant 2 : index
    %b2 = arith.muli %b, %c2 : index
    %F_ws = tensor.empty(%b2) : tensor<?x${nlat}x${mc}x2x${ft}>
    %st = call @vanalys_impl(${vanalys_table_args}, %u, %F_ws)
        : (${vanalys_table_types}, tensor<?x2x${nlat}x${nphi}x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${vnlm}x2x${ft}>
    return %st : tensor<?x2x${vnlm}x2x${ft}>
  }

  util.func public @vanalys_async(${vanalys_table_params}, %u: tensor<?x2x${nlat}x${nphi}x${ft}>,
      %st_out: tensor<?x2x${vnlm}x2x${ft}> {iree.abi.output = 0 : index}, %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>,
      %transients: !hal.buffer {iree.abi.transients}) -> tensor<?x2x${vnlm}x2x${ft}>
      attributes {iree.abi.model = "coarse-fences"} {
    %st = func.call @vanalys_impl(${vanalys_table_args}, %u, %F_ws)
        : (${vanalys_table_types}, tensor<?x2x${nlat}x${nphi}x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${vnlm}x2x${ft}>
    util.return %st : tensor<?x2x${vnlm}x2x${ft}>
  }
// stage: vsynth_poles
    // Only order 1 reaches a pole: Z[b][c][p][r] = sum_l vpole[l][p] (S, T)_l1 (c = S, T),
    // then u_theta = 2 Re[(Z_S - i s Z_T) e^{i phi}], u_phi = 2 Re[(Z_T + i s Z_S) e^{i phi}]
    // (s = 1 north, -1 south): the row scaling below writes these on the pole rows.
    %st1 = tensor.extract_slice %st[0, 0, ${off1}, 0] [%b, 2, ${vl}, 2] [1, 1, 1, 1]
        : tensor<?x2x${vnlm}x2x${ft}> to tensor<?x2x${vl}x2x${ft}>
    %z_e = tensor.empty(%b) : tensor<?x2x2x2x${ft}>
    %zero = arith.constant 0.0 : ${ft}
    %z_0 = linalg.fill ins(%zero : ${ft}) outs(%z_e : tensor<?x2x2x2x${ft}>) -> tensor<?x2x2x2x${ft}>
    %z = linalg.generic {indexing_maps = [affine_map<(b, c, p, r, l) -> (b, c, l, r)>,
                                          affine_map<(b, c, p, r, l) -> (l, p)>,
                                          affine_map<(b, c, p, r, l) -> (b, c, p, r)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%st1, %vpole : tensor<?x2x${vl}x2x${ft}>, tensor<${vl}x2x${ft}>)
        outs(%z_0 : tensor<?x2x2x2x${ft}>) {
      ^bb0(%sz_s: ${ft}, %sz_d: ${ft}, %sz_acc: ${ft}):
        %sz_t = arith.mulf %sz_s, %sz_d : ${ft}
        %sz_v = arith.addf %sz_acc, %sz_t : ${ft}
        linalg.yield %sz_v : ${ft}
    } -> tensor<?x2x2x2x${ft}>
// stage: vsynth_pole_values
        // element (b, c, i, j) of a pole row (i = 0: p = 0, s = 1; i = NL - 1: p = 1,
        // s = -1) takes Z's value; s sgn_c: u_theta (c = 0) takes -i s Z_T, u_phi +i s Z_S
        %sp_b = linalg.index 0 : index
        %sp_c = linalg.index 1 : index
        %sp_i = linalg.index 2 : index
        %sp_j = linalg.index 3 : index
        %sp_last = arith.constant ${plast} : index
        %sp_north = arith.cmpi eq, %sp_i, %c0 : index
        %sp_south = arith.cmpi eq, %sp_i, %sp_last : index
        %sp_pole = arith.ori %sp_north, %sp_south : i1
        %sp_p = arith.select %sp_north, %c0, %c1 : index
        %sp_oc = arith.subi %c1, %sp_c : index
        %sp_zr = tensor.extract %z[%sp_b, %sp_c, %sp_p, %c0] : tensor<?x2x2x2x${ft}>
        %sp_zi = tensor.extract %z[%sp_b, %sp_c, %sp_p, %c1] : tensor<?x2x2x2x${ft}>
        %sp_wr = tensor.extract %z[%sp_b, %sp_oc, %sp_p, %c0] : tensor<?x2x2x2x${ft}>
        %sp_wi = tensor.extract %z[%sp_b, %sp_oc, %sp_p, %c1] : tensor<?x2x2x2x${ft}>
        %sp_one = arith.constant 1.0 : ${ft}
        %sp_mone = arith.constant -1.0 : ${ft}
        %sp_s = arith.select %sp_north, %sp_one, %sp_mone : ${ft}
        %sp_first = arith.cmpi eq, %sp_c, %c0 : index
        %sp_ns = arith.negf %sp_s : ${ft}
        %sp_sg = arith.select %sp_first, %sp_ns, %sp_s : ${ft}
        %sp_t0 = arith.mulf %sp_sg, %sp_wi : ${ft}
        %sp_cr = arith.subf %sp_zr, %sp_t0 : ${ft}
        %sp_t1 = arith.mulf %sp_sg, %sp_wr : ${ft}
        %sp_ci = arith.addf %sp_zi, %sp_t1 : ${ft}
        %sp_cos = tensor.extract %twiddle[%sp_j, %c0] : tensor<${ntw}x2x${ft}>
        %sp_sin = tensor.extract %twiddle[%sp_j, %c1] : tensor<${ntw}x2x${ft}>
        %sp_t2 = arith.mulf %sp_cr, %sp_cos : ${ft}
        %sp_t3 = arith.mulf %sp_ci, %sp_sin : ${ft}
        %sp_t4 = arith.subf %sp_t2, %sp_t3 : ${ft}
        %sp_two = arith.constant 2.0 : ${ft}
        %sp_v = arith.mulf %sp_two, %sp_t4 : ${ft}
        %su_v1 = arith.select %sp_pole, %sp_v, %su_v0 : ${ft}
// stage: vanalys_poles
    %U_e = tensor.empty(%b) : tensor<?x2x2x${ft}>
    %zero = arith.constant 0.0 : ${ft}
    %U_0 = linalg.fill ins(%zero : ${ft}) outs(%U_e : tensor<?x2x2x${ft}>) -> tensor<?x2x2x${ft}>
// stage: vanalys_pole_sum
    // U[b][c][p][r]: the order-1 DFT of pole row p (sum_j u e^{-i phi_j}), for the terms
    // the rows' 1/sin(theta) cannot carry.
    %urow${p} = tensor.extract_slice %u[0, 0, ${row}, 0] [%b, 2, 1, ${nphi}] [1, 1, 1, 1]
        : tensor<?x2x${nlat}x${nphi}x${ft}> to tensor<?x2x1x${nphi}x${ft}>
    %U${p} = linalg.generic {indexing_maps = [affine_map<(b, c, r, j) -> (b, c, 0, j)>,
                                              affine_map<(b, c, r, j) -> (b, c, r)>],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%urow${p} : tensor<?x2x1x${nphi}x${ft}>)
        outs(%U_0 : tensor<?x2x2x${ft}>) {
      ^bb0(%au${p}_u: ${ft}, %au${p}_acc: ${ft}):
        %au${p}_r = linalg.index 2 : index
        %au${p}_j = linalg.index 3 : index
        %au${p}_cos = tensor.extract %twiddle[%au${p}_j, %c0] : tensor<${ntw}x2x${ft}>
        %au${p}_sin = tensor.extract %twiddle[%au${p}_j, %c1] : tensor<${ntw}x2x${ft}>
        %au${p}_msin = arith.negf %au${p}_sin : ${ft}
        %au${p}_re = arith.cmpi eq, %au${p}_r, %c0 : index
        %au${p}_e = arith.select %au${p}_re, %au${p}_cos, %au${p}_msin : ${ft}
        %au${p}_t = arith.mulf %au${p}_u, %au${p}_e : ${ft}
        %au${p}_v = arith.addf %au${p}_acc, %au${p}_t : ${ft}
        linalg.yield %au${p}_v : ${ft}
    } -> tensor<?x2x2x${ft}>
// stage: vanalys_pole_term
        // order 1, pole p: += w_p (U[c][r] + s sgn U[1-c][1-r]), w_p = vanalys_mix[k][4 + p]
        %mp${p}_w = tensor.extract %vanalys_mix[%ms_k, %c${col}] : tensor<${vnlm}x6x${ft}>
        %mp${p}_x = tensor.extract %U${p}[%ms_b, %ms_c, %ms_r] : tensor<?x2x2x${ft}>
        %mp${p}_y = tensor.extract %U${p}[%ms_b, %ms_oc, %ms_or] : tensor<?x2x2x${ft}>
        %mp${p}_ny = arith.negf %mp${p}_y : ${ft}
        %mp${p}_sy = arith.select %ms_same, %mp${p}_y, %mp${p}_ny : ${ft}
        %mp${p}_s = arith.constant ${s} : ${ft}
        %mp${p}_t0 = arith.mulf %mp${p}_s, %mp${p}_sy : ${ft}
        %mp${p}_t1 = arith.addf %mp${p}_x, %mp${p}_t0 : ${ft}
        %mp${p}_t2 = arith.mulf %mp${p}_w, %mp${p}_t1 : ${ft}
        %ms_v${next} = arith.addf %ms_v${p}, %mp${p}_t2 : ${ft}
