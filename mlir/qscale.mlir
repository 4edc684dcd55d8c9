// The coefficients' scaling of a plan in another normalisation or phase than the kernels'
// (orthonormal, Condon-Shortley): the kernels' q = qscale * the caller's q before the
// Legendre synthesis, the caller's q = the kernels' q / qscale after the analysis
// (qscale (nlm,): ireesht/numerics/normalization.py, a real factor per (l, m), applied to
// both parts). Pasted into mlir/pipeline.mlir only for the plans that need it
// (Plan.scaled); IREE makes each an elementwise dispatch of the plan's target.

// stage: synth_scale
    // over one flat index per field, with the GPU configuration of codegen.pipeline.FLAT_CONFIG
    // (as (b, k, re/im) IREE gave each workgroup 32 elements)
    %q_in_f = tensor.collapse_shape %q_in [[0], [1, 2]] : tensor<?x${nlm}x2x${ft}> into tensor<?x${nlm2}x${ft}>
    %q_init = tensor.empty(%b) : tensor<?x${nlm2}x${ft}>
    %q_f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
        ins(%q_in_f : tensor<?x${nlm2}x${ft}>)
        outs(%q_init : tensor<?x${nlm2}x${ft}>) ${flat_config}{
      ^bb0(%x: ${ft}, %o: ${ft}):
        %qs_t = linalg.index 1 : index
        %qs_two = arith.constant 2 : index
        %qs_k = arith.divui %qs_t, %qs_two : index
        %s = tensor.extract %qscale[%qs_k] : tensor<${nlm}x${ft}>
        %y = arith.mulf %x, %s : ${ft}
        linalg.yield %y : ${ft}
    } -> tensor<?x${nlm2}x${ft}>
    %q = tensor.expand_shape %q_f [[0], [1, 2]] output_shape [%b, ${nlm}, 2] : tensor<?x${nlm2}x${ft}> into tensor<?x${nlm}x2x${ft}>
// stage: analys_scale
    %q_flat = tensor.collapse_shape %q [[0], [1, 2]] : tensor<?x${nlm}x2x${ft}> into tensor<?x${nlm2}x${ft}>
    %q_out_init = tensor.empty(%b) : tensor<?x${nlm2}x${ft}>
    %q_out_f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                                affine_map<(d0, d1) -> (d0, d1)>],
                               iterator_types = ["parallel", "parallel"]}
        ins(%q_flat : tensor<?x${nlm2}x${ft}>)
        outs(%q_out_init : tensor<?x${nlm2}x${ft}>) ${flat_config}{
      ^bb0(%x: ${ft}, %o: ${ft}):
        %qa_t = linalg.index 1 : index
        %qa_two = arith.constant 2 : index
        %qa_k = arith.divui %qa_t, %qa_two : index
        %s = tensor.extract %qscale[%qa_k] : tensor<${nlm}x${ft}>
        // a division, correctly rounded, rather than a product with a rounded 1 / qscale
        %y = arith.divf %x, %s : ${ft}
        linalg.yield %y : ${ft}
    } -> tensor<?x${nlm2}x${ft}>
    %q_out = tensor.expand_shape %q_out_f [[0], [1, 2]] output_shape [%b, ${nlm}, 2] : tensor<?x${nlm2}x${ft}> into tensor<?x${nlm}x2x${ft}>
