// The theta step of exact equiangular and Fejer analysis, low rank (docs/design.md), as two
// hand-written dispatches for CUDA, Metal and Vulkan (float32 plans of rank R <= 64):
//
//   Z[b][g][j][m] = sum_{k in group g} V[p R + j][k] F[b][k][m]     p = m mod 2, j < R
//   G[b][i][m]    = d[i] F[b][i][m] + sum_j U[i][p R + j] sum_g Z[b][g][j][m]
//
// (V = theta_v (2R, NL), U = theta_u (NL, 2R), d = theta_d (NL); F, G [B][NL][mc][2] complex,
// Z [B][KG][R][mc][2].) @theta_analys_z: workgroups of 128 threads = 16 orders (lanes) x 8
// slices of the rings; grid (ceil(mc / 16), KG, B): each thread sums its slice of group g's
// rings for its order into 2R accumulators (re and im of each j), and the 8 slices are added
// in workgroup memory, 32 accumulators per round. @theta_analys_g: one thread per order and
// ${rows} rings, grid (ceil(mc / 128), ceil(NL / ${rows}), B): it adds the KG groups' Z once,
// then writes its rings of G. Only the batch is dynamic (push constant nb).
//
// string.Template placeholders: exe, target, pipeline, the sizes (nlat, mc, rank, groups,
// rows, slice: rings per slice, grids, offsets) and the two layouts, and the unrolled parts
// that ireesht/codegen/mlir/theta.py renders: zacc (the iter_args), zbody (one ring's 2R
// multiply-adds), zreduce (the rounds), gsum (the sum over groups), gbody (one ring of G).
hal.executable private @${exe}_z {
  hal.executable.variant public @v target(${target}) {
    hal.executable.export public @main ordinal(0) layout(${zlayout})
        count(%device: !hal.device, %b: index) -> (index, index, index) {
      %x = arith.constant ${zgrid} : index
      %g = arith.constant ${groups} : index
      hal.return %x, %g, %b : index, index, index
    } <workgroup_size = [128 : index, 1 : index, 1 : index]>
    builtin.module {
      func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c8 = arith.constant 8 : index
        %c16 = arith.constant 16 : index
        %nl = arith.constant ${nlat} : index
        %mc = arith.constant ${mc} : index
        %mcl = arith.constant ${mcl} : index
        %zero = arith.constant 0.0 : f32
        %nb_i = hal.interface.constant.load layout(${zlayout}) ordinal(0) : i32
        %nb = arith.index_castui %nb_i : i32 to index
        %nv = arith.constant ${nv} : index
        %field = arith.constant ${field} : index
        %zfield = arith.constant ${zfield} : index
        %nF = arith.muli %nb, %field : index
        %nZ = arith.muli %nb, %zfield : index
        %V = hal.interface.binding.subspan layout(${zlayout}) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nv}
        %F = hal.interface.binding.subspan layout(${zlayout}) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nF}
        %Z = hal.interface.binding.subspan layout(${zlayout}) binding(2) alignment(64) offset(%c0) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nZ}
        %wx = hal.interface.workgroup.id[0] : index
        %wg = hal.interface.workgroup.id[1] : index
        %wb = hal.interface.workgroup.id[2] : index
        %tid = gpu.thread_id x
        %lane = arith.remui %tid, %c16 : index
        %sl = arith.divui %tid, %c16 : index
        %mb = arith.muli %wx, %c16 : index
        %m0 = arith.addi %mb, %lane : index
        // orders past mc read order mc - 1 (their sums are not stored)
        %m = arith.minui %m0, %mcl : index
        %p = arith.remui %m, %c2 : index
        %rk = arith.constant ${rank} : index
        %pr = arith.muli %p, %rk : index
        %vrow = arith.muli %pr, %nl : index
        // this slice's rings [k0, k1)
        %gs = arith.muli %wg, %c8 : index
        %s = arith.addi %gs, %sl : index
        %ks = arith.constant ${slice} : index
        %k0 = arith.muli %s, %ks : index
        %k0c = arith.minui %k0, %nl : index
        %k1u = arith.addi %k0c, %ks : index
        %k1 = arith.minui %k1u, %nl : index
        %fb0 = arith.muli %wb, %field : index
        %m2 = arith.muli %m, %c2 : index
        %fb = arith.addi %fb0, %m2 : index
        %row = arith.constant ${row} : index
        %acc:${nacc} = scf.for %k = %k0c to %k1 step %c1 iter_args(${zacc}) -> (${acctypes}) {
          %kr = arith.muli %k, %row : index
          %fo = arith.addi %fb, %kr : index
          %fo1 = arith.addi %fo, %c1 : index
          %fr = memref.load %F[%fo] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
          %fi = memref.load %F[%fo1] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
          %vo = arith.addi %vrow, %k : index
${zbody}
        }
        // the 8 slices' sums: sm[(slice 32 + a) 16 + lane], 32 accumulators per round
        %sm = memref.alloc() : memref<4096xf32, #gpu.address_space<workgroup>>
        %c32 = arith.constant 32 : index
        %sl32 = arith.muli %sl, %c32 : index
        %kgc = arith.constant ${groups} : index
        %zb0 = arith.muli %wb, %kgc : index
        %zb1 = arith.addi %zb0, %wg : index
        %zb2 = arith.muli %zb1, %rk : index
${zreduce}
        return
      }
    }
  }
}

hal.executable private @${exe}_g {
  hal.executable.variant public @v target(${target}) {
    hal.executable.export public @main ordinal(0) layout(${glayout})
        count(%device: !hal.device, %b: index) -> (index, index, index) {
      %x = arith.constant ${ggrid} : index
      %y = arith.constant ${rgrid} : index
      hal.return %x, %y, %b : index, index, index
    } <workgroup_size = [128 : index, 1 : index, 1 : index]>
    builtin.module {
      func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c128 = arith.constant 128 : index
        %nl = arith.constant ${nlat} : index
        %mc = arith.constant ${mc} : index
        %zero = arith.constant 0.0 : f32
        %nb_i = hal.interface.constant.load layout(${glayout}) ordinal(0) : i32
        %nb = arith.index_castui %nb_i : i32 to index
        %nu = arith.constant ${nv} : index
        %field = arith.constant ${field} : index
        %zfield = arith.constant ${zfield} : index
        %nF = arith.muli %nb, %field : index
        %nZ = arith.muli %nb, %zfield : index
        %U = hal.interface.binding.subspan layout(${glayout}) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nu}
        %D = hal.interface.binding.subspan layout(${glayout}) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nl}
        %Z = hal.interface.binding.subspan layout(${glayout}) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nZ}
        %F = hal.interface.binding.subspan layout(${glayout}) binding(3) alignment(64) offset(%c0) flags(ReadOnly) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nF}
        %G = hal.interface.binding.subspan layout(${glayout}) binding(4) alignment(64) offset(%c0) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%nF}
        %wx = hal.interface.workgroup.id[0] : index
        %wy = hal.interface.workgroup.id[1] : index
        %wb = hal.interface.workgroup.id[2] : index
        %tid = gpu.thread_id x
        %mb = arith.muli %wx, %c128 : index
        %m = arith.addi %mb, %tid : index
        %live = arith.cmpi ult, %m, %mc : index
        scf.if %live {
          %p = arith.remui %m, %c2 : index
          %rk = arith.constant ${rank} : index
          %pr = arith.muli %p, %rk : index
          %m2 = arith.muli %m, %c2 : index
          // t = sum over the groups of Z[b][g][.][m]: Z[((b KG + g) R + j) mc 2 + 2 m + c]
          %zb = arith.muli %wb, %zfield : index
          %zm = arith.addi %zb, %m2 : index
          %zg = arith.constant ${zgroup} : index
          %mc2 = arith.constant ${row} : index
          %kg = arith.constant ${groups} : index
          %t:${nacc} = scf.for %g = %c0 to %kg step %c1 iter_args(${zacc}) -> (${acctypes}) {
            %go = arith.muli %g, %zg : index
            %zo = arith.addi %zm, %go : index
${gsum}
          }
          %rows = arith.constant ${rows} : index
          %i0 = arith.muli %wy, %rows : index
          %i1u = arith.addi %i0, %rows : index
          %i1 = arith.minui %i1u, %nl : index
          %fb = arith.muli %wb, %field : index
          %fm = arith.addi %fb, %m2 : index
          %r2 = arith.constant ${r2} : index
          scf.for %i = %i0 to %i1 step %c1 {
            %ir = arith.muli %i, %mc2 : index
            %fo = arith.addi %fm, %ir : index
            %fo1 = arith.addi %fo, %c1 : index
            %fr = memref.load %F[%fo] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %fi = memref.load %F[%fo1] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %d = memref.load %D[%i] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
            %iu = arith.muli %i, %r2 : index
            %uo = arith.addi %iu, %pr : index
            %gr0 = arith.mulf %d, %fr : f32
            %gi0 = arith.mulf %d, %fi : f32
${gbody}
            memref.store %gr, %G[%fo] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
            memref.store %gi, %G[%fo1] : memref<?xf32, #hal.descriptor_type<storage_buffer>>
          }
        }
        return
      }
    }
  }
}
