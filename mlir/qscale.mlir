// The coefficients' scaling of a plan in another normalisation or phase than the kernels'
// (orthonormal, Condon-Shortley): the kernels' q = qscale * the caller's q before the
// Legendre synthesis, the caller's q = the kernels' q / qscale after the analysis
// (qscale (nlm,): ireesht/numerics/normalization.py, a real factor per (l, m), applied to
// both parts). Pasted into mlir/pipeline.mlir only for the plans that need it
// (Plan.scaled); IREE makes each an elementwise dispatch of the plan's target.

// stage: synth_scale
    %q_init = tensor.empty(%b) : tensor<?x${nlm}x2x${ft}>
    %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d1)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%q_in, %qscale : tensor<?x${nlm}x2x${ft}>, tensor<${nlm}x${ft}>)
        outs(%q_init : tensor<?x${nlm}x2x${ft}>) {
      ^bb0(%x: ${ft}, %s: ${ft}, %o: ${ft}):
        %y = arith.mulf %x, %s : ${ft}
        linalg.yield %y : ${ft}
    } -> tensor<?x${nlm}x2x${ft}>
// stage: analys_scale
    %q_out_init = tensor.empty(%b) : tensor<?x${nlm}x2x${ft}>
    %q_out = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                              affine_map<(d0, d1, d2) -> (d1)>,
                                              affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                             iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%q, %qscale : tensor<?x${nlm}x2x${ft}>, tensor<${nlm}x${ft}>)
        outs(%q_out_init : tensor<?x${nlm}x2x${ft}>) {
      ^bb0(%x: ${ft}, %s: ${ft}, %o: ${ft}):
        // a division, correctly rounded, rather than a product with a rounded 1 / qscale
        %y = arith.divf %x, %s : ${ft}
        linalg.yield %y : ${ft}
    } -> tensor<?x${nlm}x2x${ft}>
