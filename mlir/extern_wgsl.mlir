// The WGSL family's dispatch clauses (mlir/ops.mlir): hal.dispatch.extern on the shipped
// .spv objects, with the workgroup grid of docs/design.md.

// stage: aliases
#spirv = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb">
// stage: clauses_leg_synth
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${synth_gx} : index
        %gy = arith.constant ${mc} : index
        %gz = affine.apply affine_map<()[s0] -> (s0 ceildiv ${synth_nf})>()[%w]
        hal.return %gx, %gy, %gz : index, index, index
      }
      layout(#leg_synth_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${leg_synth}"}>] })
// stage: clauses_fft_synth
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${nlat} : index
        %one = arith.constant 1 : index
        hal.return %gx, %w, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${fft_synth}"}>] })
// stage: clauses_fft_analys
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${nlat} : index
        %one = arith.constant 1 : index
        hal.return %gx, %w, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${fft_analys}"}>] })
// stage: clauses_leg_analys
      count(%device: !hal.device, %w: index) -> (index, index, index) {
        %gx = arith.constant ${mc} : index
        %gy = affine.apply affine_map<()[s0] -> (s0 ceildiv ${analys_nf})>()[%w]
        %one = arith.constant 1 : index
        hal.return %gx, %gy, %one : index, index, index
      }
      layout(#leg_analys_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "${leg_analys}"}>] })
