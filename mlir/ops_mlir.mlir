// The four stage dispatches of the MLIR kernel family (kernels/mlir, ireesht/kernels_mlir.py):
// flow.dispatch on the hal.executables the family pastes into the module. Sections are cut
// at the `// stage:` lines and pasted into mlir/pipeline.mlir; the SSA names they use are
// defined there, the operands are those of mlir/ops_wgsl.mlir (kernels/CONTRACT.md): the i32
// operands are the push constants, the tensors the bindings, the result the last binding.

// stage: op_leg_synth
    %F = flow.dispatch @leg_synth::@v::@main[%b](%lmax, %mmax, %nlat, %npairs, %nlm, %nb, %nbits,
                                                 %xtab, %powtab, %mseed, %coef, %stab, %q)
        : (i32, i32, i32, i32, i32, i32, i32, tensor<${npairs}x4x${ft}>, tensor<${npow}x4x${ft}>,
           tensor<${mc}x2x${ft}>, tensor<${nlm}x4x${ft}>, tensor<${nlm}x${ft}>,
           tensor<?x${nlm}x2x${ft}>{%b})
          -> tensor<?x${nlat}x${mc}x2x${ft}>{%b}
// stage: op_fft_synth
    %f = flow.dispatch @fft_synth::@v::@main[%b](%nlat, %nphi, %mc, %nb, %twiddle, %F)
        : (i32, i32, i32, i32, tensor<${nphi}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlat}x${nphi}x${ft}>{%b}
// stage: op_fft_analys
    %F = flow.dispatch @fft_analys::@v::@main[%b](%nlat, %nphi, %mc, %nb, %twiddle, %f)
        : (i32, i32, i32, i32, tensor<${nphi}x2x${ft}>, tensor<?x${nlat}x${nphi}x${ft}>{%b})
          -> tensor<?x${nlat}x${mc}x2x${ft}>{%b}
// stage: op_leg_analys
    %q = flow.dispatch @leg_analys::@v::@main[%b](%lmax, %mmax, %nlat, %npairs, %nlm, %nb, %nbits,
                                                  %xtab, %powtab, %mseed, %coef, %stab, %wtab, %F)
        : (i32, i32, i32, i32, i32, i32, i32, tensor<${npairs}x4x${ft}>, tensor<${npow}x4x${ft}>,
           tensor<${mc}x2x${ft}>, tensor<${nlm}x4x${ft}>, tensor<${nlm}x${ft}>, tensor<${npairs}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlm}x2x${ft}>{%b}
