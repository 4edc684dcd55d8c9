// How the threads of a group sum a value in leg_analys.mlir: one section per variant, pasted
// in as the placeholder group_ops by ireesht/kernels_mlir.py (group_variant). Each defines
// @group_size() (threads per group) and @group_sum(v) (the sum over the group, in every lane).

// variant: subgroup
        // SPIR-V (Vulkan, Metal): subgroup arithmetic. The subgroup size is counted at run
        // time (a sum of ones; the workgroup is a whole number of subgroups): IREE folds
        // gpu.subgroup_size to the target's nominal size, and a generic Vulkan target runs on
        // devices with 8 (lavapipe), 32 or 64 lanes.
        func.func private @group_size() -> index {
          %one = arith.constant 1 : i32
          %n = gpu.subgroup_reduce add %one : (i32) -> i32
          %s = arith.index_castui %n : i32 to index
          return %s : index
        }
        func.func private @group_sum(%v: ${ft}) -> ${ft} {
          %s = gpu.subgroup_reduce add %v : (${ft}) -> ${ft}
          return %s : ${ft}
        }
// variant: warp
        // CUDA: IREE's BaseLowering leaves gpu.subgroup_reduce unlowered for NVPTX, so the
        // 32 lanes of a warp sum by xor shuffles
        func.func private @group_size() -> index {
          %c32 = arith.constant 32 : index
          return %c32 : index
        }
        func.func private @group_sum(%v: ${ft}) -> ${ft} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c5 = arith.constant 5 : index
          %width = arith.constant 32 : i32
          %c16 = arith.constant 16 : i32
          %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%a = %v) -> (${ft}) {
            %ii = arith.index_cast %i : index to i32
            %off = arith.shrui %c16, %ii : i32
            %o, %ok = gpu.shuffle xor %a, %off, %width : ${ft}
            %a2 = arith.addf %a, %o : ${ft}
            scf.yield %a2 : ${ft}
          }
          return %s : ${ft}
        }
// variant: thread
        // no subgroup operations: every thread is a group of one, summed in workgroup memory
        func.func private @group_size() -> index {
          %c1 = arith.constant 1 : index
          return %c1 : index
        }
        func.func private @group_sum(%v: ${ft}) -> ${ft} {
          return %v : ${ft}
        }
