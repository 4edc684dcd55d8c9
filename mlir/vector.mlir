// The vector (spin-1) functions of a plan with transform="vector", pasted into
// mlir/pipeline.mlir (${vector_functions}) by ireesht/codegen/vector.py: every kernel
// family gets them, since they call the scalar @synth_impl / @analys_impl at the kernels'
// lmax = L + 1 on 2B fields (component c of field b at 2b + c) and wrap them in linalg ops
// that IREE compiles for the target (docs/design.md, "Vector transforms"; the maths in
// ireesht/numerics/vector.py). ${flat_config} is the mixes' GPU configuration on targets
// that set one (codegen.pipeline.FLAT_CONFIG), else empty.

// stage: functions
  // st [B][2][VNLM] (S, T) -> sin(theta) u_theta, sin(theta) u_phi as scalar coefficients
  // at L + 1 -> the scalar synthesis, whose seeds carry 1/sin(theta) (ireesht/tables.py),
  // so that it makes u, pole rows included (their limits: numerics/vector.py).
  func.func private @vsynth_impl(${vsynth_table_params}, %st: tensor<?x2x${vnlm}x2x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${nlat}x${nphi}x${ft}> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %vlast = arith.constant ${vlast} : index
    %b = tensor.dim %st, %c0 : tensor<?x2x${vnlm}x2x${ft}>
    %q_e = tensor.empty(%b) : tensor<?x${nlm4}x${ft}>
    %cnlm = arith.constant ${nlm} : index
    // row k' = (l', m) of the packing at L + 1 gathers S, T at k' - m - 1, k' - m, k' - m + 1
    // (numerics.vector.synth_mix: a, b, mm, m); the i mm term swaps re and im. One flat
    // index t = (c, k', r) per field: as (b, c, k', r) IREE gave each workgroup 32 elements
    %q2f = linalg.generic {indexing_maps = [affine_map<(b, t) -> (b, t)>],
        iterator_types = ["parallel", "parallel"]}
        outs(%q_e : tensor<?x${nlm4}x${ft}>) ${flat_config}{
      ^bb0(%sq_out: ${ft}):
        %sq_b = linalg.index 0 : index
        %sq_t = linalg.index 1 : index
        %sq_r = arith.remui %sq_t, %c2 : index
        %sq_h = arith.divui %sq_t, %c2 : index
        %sq_k = arith.remui %sq_h, %cnlm : index
        %sq_c = arith.divui %sq_h, %cnlm : index
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
    } -> tensor<?x${nlm4}x${ft}>
    %q2 = tensor.expand_shape %q2f [[0], [1, 2, 3]] output_shape [%b, 2, ${nlm}, 2]
        : tensor<?x${nlm4}x${ft}> into tensor<?x2x${nlm}x2x${ft}>
    %q = tensor.collapse_shape %q2 [[0, 1], [2], [3]]
        : tensor<?x2x${nlm}x2x${ft}> into tensor<?x${nlm}x2x${ft}>
    %f = func.call @synth_impl(${synth_table_args}, %q, %F_ws)
        : (${synth_table_types}, tensor<?x${nlm}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlat}x${nphi}x${ft}>
    %f2 = tensor.expand_shape %f [[0, 1], [2], [3]] output_shape [%b, 2, ${nlat}, ${nphi}]
        : tensor<?x${nlat}x${nphi}x${ft}> into tensor<?x2x${nlat}x${nphi}x${ft}>
    return %f2 : tensor<?x2x${nlat}x${nphi}x${ft}>
  }

  // u [B][2][NL][NP] -> the scalar analysis at L + 1, whose seeds carry 1/sin(theta) (pole
  // rows: their limits) -> mixed along l and divided by l(l+1) (numerics.vector.analys_mix).
  func.func private @vanalys_impl(${vanalys_table_params}, %u: tensor<?x2x${nlat}x${nphi}x${ft}>,
      %F_ws: tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x2x${vnlm}x2x${ft}> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %b = tensor.dim %u, %c0 : tensor<?x2x${nlat}x${nphi}x${ft}>
    %g = tensor.collapse_shape %u [[0, 1], [2], [3]]
        : tensor<?x2x${nlat}x${nphi}x${ft}> into tensor<?x${nlat}x${nphi}x${ft}>
    %a = func.call @analys_impl(${analys_table_args}, %g, %F_ws)
        : (${analys_table_types}, tensor<?x${nlat}x${nphi}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>) -> tensor<?x${nlm}x2x${ft}>
    %a2 = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [%b, 2, ${nlm}, 2]
        : tensor<?x${nlm}x2x${ft}> into tensor<?x2x${nlm}x2x${ft}>
    %st_e = tensor.empty(%b) : tensor<?x${vnlm4}x${ft}>
    %cvnlm = arith.constant ${vnlm} : index
    // row k = (l, m) of the packing at L gathers A at k + m - 1, k + m, k + m + 1; one flat
    // index t = (c, k, r) per field, as in vsynth
    %stf = linalg.generic {indexing_maps = [affine_map<(b, t) -> (b, t)>],
        iterator_types = ["parallel", "parallel"]}
        outs(%st_e : tensor<?x${vnlm4}x${ft}>) ${flat_config}{
      ^bb0(%ms_out: ${ft}):
        %ms_b = linalg.index 0 : index
        %ms_t = linalg.index 1 : index
        %ms_r = arith.remui %ms_t, %c2 : index
        %ms_h = arith.divui %ms_t, %c2 : index
        %ms_k = arith.remui %ms_h, %cvnlm : index
        %ms_c = arith.divui %ms_h, %cvnlm : index
        %ms_cp = tensor.extract %vanalys_mix[%ms_k, %c0] : tensor<${vnlm}x4x${ft}>
        %ms_cm = tensor.extract %vanalys_mix[%ms_k, %c1] : tensor<${vnlm}x4x${ft}>
        %ms_cmm = tensor.extract %vanalys_mix[%ms_k, %c2] : tensor<${vnlm}x4x${ft}>
        %ms_mf = tensor.extract %vanalys_mix[%ms_k, %c3] : tensor<${vnlm}x4x${ft}>
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
        linalg.yield %ms_v0 : ${ft}
    } -> tensor<?x${vnlm4}x${ft}>
    %st = tensor.expand_shape %stf [[0], [1, 2, 3]] output_shape [%b, 2, ${vnlm}, 2]
        : tensor<?x${vnlm4}x${ft}> into tensor<?x2x${vnlm}x2x${ft}>
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
