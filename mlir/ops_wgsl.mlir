// The four stage dispatches of the WGSL family: hal.dispatch.extern on the shipped .spv
// objects. Sections are cut at the `// stage:` lines and pasted into mlir/pipeline.mlir;
// the SSA names they use are defined there (kernels/CONTRACT.md gives the operands).

// stage: aliases
#spirv = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb">
// stage: op_leg_synth
    %F = hal.dispatch.extern "main"[%b](%lmax, %mmax, %nlat, %npairs, %nlm, %nb, %nbits,
                                         %xtab, %powtab, %mseed, %coef, %stab, %q)
        : (i32, i32, i32, i32, i32, i32, i32, tensor<${npairs}x4x${ft}>, tensor<${npow}x4x${ft}>,
           tensor<${mc}x2x${ft}>, tensor<${nlm}x4x${ft}>, tensor<${nlm}x${ft}>,
           tensor<?x${nlm}x2x${ft}>{%b})
          -> tensor<?x${nlat}x${mc}x2x${ft}>{%b}
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${synth_gx} : index
        %gy = arith.constant ${mc} : index
        %gz = affine.apply affine_map<()[s0] -> (s0 ceildiv ${synth_nf})>()[%w]
        hal.return %gx, %gy, %gz : index, index, index
      }
      layout(#leg_synth_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${leg_synth}"}>] })
// stage: op_fft_synth
    %f = hal.dispatch.extern "main"[%b](%nlat, %nphi, %mc, %nb, %twiddle, %F)
        : (i32, i32, i32, i32, tensor<${nphi}x2x${ft}>, tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlat}x${nphi}x${ft}>{%b}
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${nlat} : index
        %one = arith.constant 1 : index
        hal.return %gx, %w, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${fft_synth}"}>] })
// stage: op_fft_analys
    %F = hal.dispatch.extern "main"[%b](%nlat, %nphi, %mc, %nb, %twiddle, %f)
        : (i32, i32, i32, i32, tensor<${nphi}x2x${ft}>, tensor<?x${nlat}x${nphi}x${ft}>{%b})
          -> tensor<?x${nlat}x${mc}x2x${ft}>{%b}
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${nlat} : index
        %one = arith.constant 1 : index
        hal.return %gx, %w, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${fft_analys}"}>] })
// stage: op_leg_analys
    %q = hal.dispatch.extern "main"[%b](%lmax, %mmax, %nlat, %npairs, %nlm, %nb, %nbits,
                                         %xtab, %powtab, %mseed, %coef, %stab, %wtab, %F)
        : (i32, i32, i32, i32, i32, i32, i32, tensor<${npairs}x4x${ft}>, tensor<${npow}x4x${ft}>,
           tensor<${mc}x2x${ft}>, tensor<${nlm}x4x${ft}>, tensor<${nlm}x${ft}>, tensor<${npairs}x${ft}>,
           tensor<?x${nlat}x${mc}x2x${ft}>{%b})
          -> tensor<?x${nlm}x2x${ft}>{%b}
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${mc} : index
        %gy = affine.apply affine_map<()[s0] -> (s0 ceildiv ${analys_nf})>()[%w]
        %one = arith.constant 1 : index
        hal.return %gx, %gy, %one : index, index, index
      }
      layout(#leg_analys_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${leg_analys}"}>] })
