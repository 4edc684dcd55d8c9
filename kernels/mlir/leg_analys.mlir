// Legendre analysis: q[b][(l,m)] = sum_i w_i F[b][i][m] P_lm(cos theta_i).
// Stage contract: docs/design.md, shared with kernels/wgsl/leg_analys.wgsl (which has
// not taken this design). A string.Template rendered by ireesht/codegen/mlir.
//
// Grid (mc, ceil(B / ${nf}), 1): one workgroup of 128 threads per m. A thread owns ${kp}
// adjacent latitude pairs (i, NL-1-i), so the workgroup walks the pairs that order m does
// not skip (from the pole side) in chunks of
// 128 ${kp}; ${nf} fields per thread share the recurrence, their folded values held in
// vector<${slots}> slots i ${nf} + f. For each chunk the recurrence runs over the
// degrees in spans of ${span}, with the lean loop of the vote group's form once all its
// pairs carry true values (else the careful one, as in leg_synth.mlir). Per degree each
// thread sums its pairs in registers, one value per field and part (re, im): 2 ${nf} values.
// With lane sums (${lane_group} > 1: CUDA with 2 fields and more, or one float32 field on
// 385-512 pairs, ireesht/codegen/mlir/legendre.py analysis_fields) groups of ${lane_group} lanes add those
// up with subgroup shuffles, each lane keeping 2 ${nf} / ${lane_group} of them; without
// (${lane_group} = 1), no subgroup operation. Each thread writes what it keeps to
// workgroup memory; once per span, after a barrier, threads add up the partial sums of each
// value (@row_sum, in ${piece_count} pieces), combined after one more barrier.
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_analys_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${mc} : index
        %gy = affine.apply affine_map<()[s0] -> (s0 ceildiv ${nf})>()[%b]
        %one = arith.constant 1 : index
        hal.return %gx, %gy, %one : index, index, index
      } <workgroup_size = [128 : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // The weighted even and odd combinations w (F_north +- F_south) of the thread's pairs
        // p0 + i for the fields b0 + f, in slots i ${nf} + f (w = 0 past the last pair; a row
        // is its own mirror at the equator of an odd grid). For the lane sums the values are
        // permuted per lane, value v = 2 f + c (c: re, im) in slot v xor (lid & ${lane_mask}):
        // the fields xor (lid & ${lane_mask}) / 2, re and im swapped where lid is odd (with
        // ${lane_mask} = 0, no permutation).
        func.func private @fold(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %p0: index,
            %npairs: index, %nlat: index, %nfields: index, %b0: index, %m: index, %lid: index)
            -> (vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %cs = arith.constant ${slots} : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : ${ft}
          %z4 = arith.constant dense<0.0> : vector<${slots}x${ft}>
          %plast = arith.subi %npairs, %c1 : index
          %last = arith.subi %nlat, %c1 : index
          %blast = arith.subi %nfields, %c1 : index
          %cw1 = arith.constant ${lane_mask} : index
          %lp = arith.andi %lid, %cw1 : index
          %pf = arith.shrui %lp, %c1 : index
          %odd = arith.andi %lp, %c1 : index
          %sw = arith.cmpi eq, %odd, %c1 : index
          %r:4 = scf.for %s = %c0 to %cs step %c1 iter_args(%er = %z4, %ei = %z4, %or = %z4, %oi = %z4)
              -> (vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
            %i = arith.divui %s, %cnf : index
            %f = arith.remui %s, %cnf : index
            %p1 = arith.addi %p0, %i : index
            %valid = arith.cmpi ult, %p1, %npairs : index
            %p = arith.minui %p1, %plast : index
            %wp = memref.load %wtab[%p] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %w = arith.select %valid, %wp, %zero : ${ft}
            %i_s = arith.subi %last, %p : index
            %same = arith.cmpi eq, %i_s, %p : index
            %fx = arith.xori %f, %pf : index
            %bf = arith.addi %b0, %fx : index
            %b = arith.minui %bf, %blast : index
            %nr = memref.load %F[%b, %p, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %ni = memref.load %F[%b, %p, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %sr0 = memref.load %F[%b, %i_s, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %si0 = memref.load %F[%b, %i_s, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %sr = arith.select %same, %zero, %sr0 : ${ft}
            %si = arith.select %same, %zero, %si0 : ${ft}
            %pr = arith.addf %nr, %sr : ${ft}
            %pi = arith.addf %ni, %si : ${ft}
            %mr = arith.subf %nr, %sr : ${ft}
            %mi = arith.subf %ni, %si : ${ft}
            %epr = arith.mulf %w, %pr : ${ft}
            %epi = arith.mulf %w, %pi : ${ft}
            %omr = arith.mulf %w, %mr : ${ft}
            %omi = arith.mulf %w, %mi : ${ft}
            %xer = arith.select %sw, %epi, %epr : ${ft}
            %xei = arith.select %sw, %epr, %epi : ${ft}
            %xor = arith.select %sw, %omi, %omr : ${ft}
            %xoi = arith.select %sw, %omr, %omi : ${ft}
            %er2 = vector.insert %xer, %er[%s] : ${ft} into vector<${slots}x${ft}>
            %ei2 = vector.insert %xei, %ei[%s] : ${ft} into vector<${slots}x${ft}>
            %or2 = vector.insert %xor, %or[%s] : ${ft} into vector<${slots}x${ft}>
            %oi2 = vector.insert %xoi, %oi[%s] : ${ft} into vector<${slots}x${ft}>
            scf.yield %er2, %ei2, %or2, %oi2 : vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
          }
          return %r#0, %r#1, %r#2, %r#3 : vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
        }

        // The thread's contribution of one degree (span row %j): sum over its pairs of P g, the
        // 2 ${nf} values in the lane's order (@fold); with lane sums, step s = 1, 2, .. of the
        // sums adds slot r + s of lane lid xor s to slot r of this lane (r a multiple of 2 s),
        // which holds the same value in both lanes: no select. The slots r kept (multiples of
        // ${lane_group}, value r + lid % ${lane_group}) go to part as partial sum
        // lid / ${lane_group} of value j 2 ${nf} + r + lid % ${lane_group} of the span. The
        // body, unrolled over pairs, fields and sum steps, comes from ireesht/codegen/mlir.
        func.func private @contribute(%v: vector<${kp}x${ft}>, %gre: vector<${slots}x${ft}>, %gim: vector<${slots}x${ft}>,
            %part: memref<${part}x${ft}, #gpu.address_space<workgroup>>, %j: index, %pos0: index) {
          %cd = arith.constant ${degree_stride} : index
          %o = arith.muli %j, %cd : index
          %base = arith.addi %o, %pos0 : index
${contribute}
          return
        }

        // One degree (span row %j): the step of the thread's pairs, then @contribute;
        // careful (some pair below threshold), with P = y times the live factor %sk.
        func.func private @degree(%dif: i1, %careful: i1, %uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>,
            %coef_s: memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, %part: memref<${part}x${ft}, #gpu.address_space<workgroup>>, %j: index, %lid: index, %gre: vector<${slots}x${ft}>, %gim: vector<${slots}x${ft}>,
            %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %sk: vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>) {
          %c0 = arith.constant 0 : index
          %cf = vector.load %coef_s[%j, %c0] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, vector<4x${ft}>
          %y, %zn = func.call @step(%dif, %uh, %ul, %cf, %y1, %z)
              : (i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<4x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
          %v = scf.if %careful -> (vector<${kp}x${ft}>) {
            %r = arith.mulf %y, %sk : vector<${kp}x${ft}>
            scf.yield %r : vector<${kp}x${ft}>
          } else {
            scf.yield %y : vector<${kp}x${ft}>
          }
          func.call @contribute(%v, %gre, %gim, %part, %j, %lid) : (vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index) -> ()
          return %y, %zn : vector<${kp}x${ft}>, vector<${kp}x${ft}>
        }

        // The degrees 0 .. %cnt4 - 1 of the span (l - m = %base + j), four per iteration,
        // even, odd, even, odd l - m (the span starts at an even l - m): g holds the even
        // folds, then the odd ones. %dif and %careful are constants at each call site.
        func.func private @span(%dif: i1, %careful: i1, %uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>,
            %coef_s: memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, %part: memref<${part}x${ft}, #gpu.address_space<workgroup>>, %base: index, %cnt4: index, %lid: index,
            %ger: vector<${slots}x${ft}>, %gei: vector<${slots}x${ft}>, %gor: vector<${slots}x${ft}>, %goi: vector<${slots}x${ft}>,
            %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %k: vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %sk0 = func.call @live_factor(%k) : (vector<${kp}x${it}>) -> vector<${kp}x${ft}>
          %r:4 = scf.for %j = %c0 to %cnt4 step %c4 iter_args(%a1 = %y1, %a2 = %z, %a0 = %k, %sk = %sk0)
              -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>) {
            %ev:2 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %part, %j, %lid, %ger, %gei, %a1, %a2, %sk)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            %j1 = arith.addi %j, %c1 : index
            %od:2 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %part, %j1, %lid, %gor, %goi, %ev#0, %ev#1, %sk)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            %j2 = arith.addi %j, %c2 : index
            %ev2:2 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %part, %j2, %lid, %ger, %gei, %od#0, %od#1, %sk)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            %j3 = arith.addi %j, %c3 : index
            %od2:2 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %part, %j3, %lid, %gor, %goi, %ev2#0, %ev2#1, %sk)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            %rs:4 = func.call @checkpoint(%careful, %base, %j, %od2#0, %od2#1, %a0, %sk)
                : (i1, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>)
            scf.yield %rs#0, %rs#1, %rs#2, %rs#3 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>
          }
          return %r#0, %r#1, %r#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
        }

        // The sum of ${piece_rows} partial sums of one value, part[%o + i ${row_stride}], every
        // fourth in one of four chains: a single chain of dependent adds kept three of the
        // workgroup's four warps waiting at the barrier.
        func.func private @row_sum(%part: memref<${part}x${ft}, #gpu.address_space<workgroup>>, %o: index) -> ${ft} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %ccols = arith.constant ${piece_rows} : index
          %zero = arith.constant 0.0 : ${ft}
          %s:4 = scf.for %col = %c0 to %ccols step %c4 iter_args(%a0 = %zero, %a1 = %zero, %a2 = %zero, %a3 = %zero)
              -> (${ft}, ${ft}, ${ft}, ${ft}) {
            %cr = arith.constant ${row_stride} : index
            %co = arith.muli %col, %cr : index
            %i0 = arith.addi %o, %co : index
            %i1 = arith.addi %i0, %cr : index
            %i2 = arith.addi %i1, %cr : index
            %i3 = arith.addi %i2, %cr : index
            %x0 = memref.load %part[%i0] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
            %x1 = memref.load %part[%i1] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
            %x2 = memref.load %part[%i2] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
            %x3 = memref.load %part[%i3] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
            %b0 = arith.addf %a0, %x0 : ${ft}
            %b1 = arith.addf %a1, %x1 : ${ft}
            %b2 = arith.addf %a2, %x2 : ${ft}
            %b3 = arith.addf %a3, %x3 : ${ft}
            scf.yield %b0, %b1, %b2, %b3 : ${ft}, ${ft}, ${ft}, ${ft}
          }
          %h0 = arith.addf %s#0, %s#1 : ${ft}
          %h1 = arith.addf %s#2, %s#3 : ${ft}
          %r = arith.addf %h0, %h1 : ${ft}
          return %r : ${ft}
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c128 = arith.constant 128 : index
          %cspan = arith.constant ${span} : index
          %cparts = arith.constant ${span_values} : index
          %csplit = arith.constant ${piece_count} : index
          %ccols = arith.constant ${piece_rows} : index
          %four = arith.constant -4 : index  // ~3: n & four rounds n down to a multiple of 4
          %ckp = arith.constant ${kp} : index
          %cnf = arith.constant ${nf} : index
          %true = arith.constant true
          %false = arith.constant false
          %zero = arith.constant 0.0 : ${ft}
          %zk = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %pc0 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(0) : i32
          %pc1 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(1) : i32
          %pc2 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(2) : i32
          %pc3 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(3) : i32
          %pc4 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(4) : i32
          %pc5 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(5) : i32
          %lmax = arith.index_castui %pc0 : i32 to index
          %mmax = arith.index_castui %pc1 : i32 to index
          %nlat = arith.index_castui %pc2 : i32 to index
          %npairs = arith.index_castui %pc3 : i32 to index
          %nlm = arith.index_castui %pc4 : i32 to index
          %nfields = arith.index_castui %pc5 : i32 to index
          %mc = arith.addi %mmax, %c1 : index
          %nseed = arith.muli %mc, %npairs : index
          %xtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %seedtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nseed}
          %polar = hal.interface.binding.subspan layout(#leg_analys_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
          %coef = hal.interface.binding.subspan layout(#leg_analys_layout) binding(3) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%nlm}
          %stab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(4) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%nlm}
          %wtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(5) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %F = hal.interface.binding.subspan layout(#leg_analys_layout) binding(6) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlat, %mc}
          %q = hal.interface.binding.subspan layout(#leg_analys_layout) binding(7) alignment(64) offset(%c0)
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlm}

          %coef_s = memref.alloc() : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
          // the partial sums of the span's values (@contribute), 128 / ${lane_group} per value:
          // value v, partial k at v ${value_stride} + k ${row_stride} (strides that keep the
          // stores and @row_sum free of bank conflicts, ireesht/codegen/mlir/legendre.py _analys_part)
          %part = memref.alloc() : memref<${part}x${ft}, #gpu.address_space<workgroup>>
          // the row pieces' sums, one per thread
          %pieces = memref.alloc() : memref<128x${ft}, #gpu.address_space<workgroup>>

          %lid = gpu.thread_id x
          %m = hal.interface.workgroup.id[0] : index
          %wy = hal.interface.workgroup.id[1] : index
          %b0 = arith.muli %wy, %cnf : index
          %flags = memref.alloc() : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          func.call @vote_init(%flags, %lid) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index) -> ()
          // first index of order m in the m-major layout: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          %l1 = arith.addi %lmax, %c1 : index
          %nl = arith.subi %l1, %m : index
          %plast = arith.subi %npairs, %c1 : index
          %chunk = arith.muli %c128, %ckp : index
          %tp = arith.muli %lid, %ckp : index
          // the thread's first slot in part: partial lid / ${lane_group} of value
          // lid % ${lane_group}
          %clg = arith.constant ${lane_group} : index
          %clm = arith.constant ${lane_mask} : index
          %crs = arith.constant ${row_stride} : index
          %lk = arith.divui %lid, %clg : index
          %lv = arith.andi %lid, %clm : index
          %cvs = arith.constant ${value_stride} : index
          %lko = arith.muli %lk, %crs : index
          %lvo = arith.muli %lv, %cvs : index
          %pos0 = arith.addi %lko, %lvo : index
          // threads run no degree (and add zeros) in groups of ${idle_group}: with lane sums, a
          // vote group's lanes run the same loops
          %cig = arith.constant ${idle_group} : index
          %lg = arith.remui %lid, %cig : index
          %lid0 = arith.subi %lid, %lg : index
          %tp0 = arith.muli %lid0, %ckp : index
          // whether the form is uniform per vote group (@group_form: on grids of
          // 4 ${vote_group} ${kp} pairs and more), or need not be (no lane sums)
          %cg = arith.constant ${vote_group} : index
          %cg4 = arith.muli %cg, %c4 : index
          %grows = arith.muli %cg4, %ckp : index
          %big = arith.cmpi ule, %grows, %npairs : index
          %indep = arith.constant ${independent_lanes}
          %uni = arith.ori %big, %indep : i1

          // the pairs next to the pole that this m skips add nothing to q; with no pair left,
          // q = 0
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %none = arith.cmpi uge, %skip, %npairs : index
          scf.if %none {
            %cnl = arith.muli %nl, %c2 : index
            scf.for %t = %lid to %cnl step %c128 {
              %j = arith.divui %t, %c2 : index
              %cpart = arith.remui %t, %c2 : index
              %idx = arith.addi %mstart, %j : index
              scf.for %f = %c0 to %cnf step %c1 {
                %b = arith.addi %b0, %f : index
                %bin = arith.cmpi ult, %b, %nfields : index
                scf.if %bin {
                  memref.store %zero, %q[%b, %idx, %cpart] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                }
              }
            }
          }
          // %n0: spans run so far, for @vote
          %nspans = scf.for %c0p = %skip to %npairs step %chunk iter_args(%n0 = %c0) -> (index) {
            // the thread's pairs p0 .. p0 + ${kp} - 1; past the last pair, the last one with w = 0
            %p0 = arith.addi %c0p, %tp : index
            %idle = arith.cmpi uge, %p0, %npairs : index
            %pw0 = arith.addi %c0p, %tp0 : index
            %gidle = arith.cmpi uge, %pw0, %npairs : index
            // an idle group adds zeros: its slots of part, once the previous chunk's last rows
            // are summed
            gpu.barrier
            scf.if %gidle {
              %cspanw = arith.constant ${span_values} : index
              scf.for %r = %c0 to %cspanw step %clg {
                %ro = arith.muli %r, %cvs : index
                %i = arith.addi %ro, %pos0 : index
                memref.store %zero, %part[%i] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
              }
            }
            %dif = func.call @group_form(%xtab, %c0p, %lid, %plast) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> i1
            %uh, %ul, %ys0, %k0 = func.call @init(%xtab, %seedtab, %m, %p0, %plast, %dif)
                : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                   index, index, index, i1)
                  -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
            // an idle thread of a busy group runs the degrees on a zero state (its lane takes
            // part in the lane sums; without them it runs none)
            %summing = arith.xori %indep, %true : i1
            %zs = arith.andi %idle, %summing : i1
            %idv = vector.broadcast %zs : i1 to vector<${kp}xi1>
            %y0 = arith.select %idv, %zk, %ys0 : vector<${kp}xi1>, vector<${kp}x${ft}>
            %g:4 = func.call @fold(%F, %wtab, %p0, %npairs, %nlat, %nfields, %b0, %m, %lid)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, index)
                  -> (vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)

            %st:4 = scf.for %base = %c0 to %nl step %cspan iter_args(%y1 = %zk, %z = %y0, %k = %k0, %n = %n0)
                -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, index) {
              gpu.barrier  // the previous span's rows are consumed
              // a thread past the last pair runs no degree, and votes live
              %mine0 = func.call @live(%k) : (vector<${kp}x${it}>) -> i1
              %mine = arith.ori %mine0, %idle : i1
              func.call @vote(%flags, %n, %lid, %mine) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index, i1) -> ()
              %li = arith.addi %base, %lid : index
              %inl = arith.cmpi ult, %li, %nl : index
              %lo = arith.cmpi ult, %lid, %cspan : index
              scf.if %lo {
                // rows past the last degree are zeros: the loops below run to a multiple of 4
                %idx0 = arith.addi %mstart, %li : index
                %idx = arith.select %inl, %idx0, %mstart : index
                scf.for %t = %c0 to %c4 step %c1 {
                  %cv0 = memref.load %coef[%idx, %t] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
                  %cv = arith.select %inl, %cv0, %zero : ${ft}
                  memref.store %cv, %coef_s[%lid, %t] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
                }
              }
              gpu.barrier
              %left = arith.subi %nl, %base : index
              %cnt = arith.minui %left, %cspan : index
              %cnt3 = arith.addi %cnt, %c3 : index
              %cnt40 = arith.andi %cnt3, %four : index
              %cnt4 = arith.select %gidle, %c0, %cnt40 : index
              %live = func.call @all_live(%flags, %n, %lid) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index) -> i1
              // one loop per form, uniform in a vote group (@group_form); the lean one once
              // all pairs of the group are live
              // a form per thread on small grids (@group_form): the form chosen per step, so
              // that every lane of a vote group runs the same lane sums
              %sp:3 = scf.if %uni -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
                %u:3 = scf.if %dif -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
                  %r:3 = scf.if %live -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
                    %w:3 = func.call @span(%true, %false, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                        : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                    scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                  } else {
                    %w:3 = func.call @span(%true, %true, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                        : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                    scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                  }
                  scf.yield %r#0, %r#1, %r#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                } else {
                  %r:3 = scf.if %live -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
                    %w:3 = func.call @span(%false, %false, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                        : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                    scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                  } else {
                    %w:3 = func.call @span(%false, %true, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                        : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                    scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                  }
                  scf.yield %r#0, %r#1, %r#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                }
                scf.yield %u#0, %u#1, %u#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
              } else {
                %r:3 = scf.if %live -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
                  %w:3 = func.call @span(%dif, %false, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                      : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                  scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                } else {
                  %w:3 = func.call @span(%dif, %true, %uh, %ul, %coef_s, %part, %base, %cnt4, %pos0, %g#0, %g#1, %g#2, %g#3, %y1, %z, %k)
                      : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
                  scf.yield %w#0, %w#1, %w#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
                }
                scf.yield %r#0, %r#1, %r#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
              }
              gpu.barrier
              // values r = (j ${nf} + f) 2 + c of the span's degrees (columns of part), in
              // blocks of ${value_block}, each value summed in ${piece_count} pieces of
              // ${piece_rows} rows: thread t takes piece t / ${value_block} of value
              // t % ${value_block} of the block (one thread per value kept half the workgroup
              // idle and the rest waiting at the barrier); with more than one piece, after a
              // barrier, thread r adds up the pieces of value r. Thread r puts S_lm times the
              // sum into q. The same thread owns the same entry of q in every chunk, so its
              // read-modify-write is ordered. (A subgroup sum per value measured slower on an
              // H200: 0.45 against 0.34 ms at lmax 1023.)
              %cntnf = arith.muli %cnt, %cnf : index
              %nrows = arith.muli %cntnf, %c2 : index
              %cblock = arith.constant ${value_block} : index
              %pr0 = arith.remui %lid, %cblock : index
              %ph = arith.divui %lid, %cblock : index
              %pin1 = arith.cmpi ult, %ph, %csplit : index
              scf.for %vb = %c0 to %cparts step %cblock {
                %pr = arith.addi %vb, %pr0 : index
                %pin0 = arith.cmpi ult, %pr, %nrows : index
                %pin = arith.andi %pin0, %pin1 : i1
                %piece = scf.if %pin -> (${ft}) {
                  %co = arith.muli %ph, %ccols : index
                  %cor = arith.muli %co, %crs : index
                  %pro = arith.muli %pr, %cvs : index
                  %o = arith.addi %pro, %cor : index
                  %s = func.call @row_sum(%part, %o) : (memref<${part}x${ft}, #gpu.address_space<workgroup>>, index) -> ${ft}
                  scf.yield %s : ${ft}
                } else {
                  scf.yield %zero : ${ft}
                }
                // with one piece per value the thread holds its value's sum already
                %one = arith.constant ${one_piece}
                %many = arith.xori %one, %true : i1
                scf.if %many {
                  memref.store %piece, %pieces[%lid] : memref<128x${ft}, #gpu.address_space<workgroup>>
                  gpu.barrier
                }
                // (vo < nrows implies lid < value_block: one block holds every value, or the
                // blocks are the workgroup's width)
                %vo = arith.addi %vb, %lid : index
                %owner = arith.cmpi ult, %vo, %nrows : index
                scf.if %owner {
                  %sum = scf.if %one -> (${ft}) {
                    scf.yield %piece : ${ft}
                  } else {
                    %t = scf.for %h = %c0 to %csplit step %c1 iter_args(%acc = %zero) -> (${ft}) {
                      %hi = arith.muli %h, %cparts : index
                      %i = arith.addi %hi, %lid : index
                      %v = memref.load %pieces[%i] : memref<128x${ft}, #gpu.address_space<workgroup>>
                      %a = arith.addf %acc, %v : ${ft}
                      scf.yield %a : ${ft}
                    }
                    scf.yield %t : ${ft}
                  }
                  %cpart = arith.remui %vo, %c2 : index
                  %jf = arith.divui %vo, %c2 : index
                  %j = arith.divui %jf, %cnf : index
                  %f = arith.remui %jf, %cnf : index
                  %b = arith.addi %b0, %f : index
                  %bin = arith.cmpi ult, %b, %nfields : index
                  scf.if %bin {
                    %bj = arith.addi %base, %j : index
                    %idx = arith.addi %mstart, %bj : index
                    %sc = memref.load %stab[%idx] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                    %val = arith.mulf %sum, %sc : ${ft}
                    %first = arith.cmpi eq, %c0p, %skip : index
                    scf.if %first {
                      memref.store %val, %q[%b, %idx, %cpart] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    } else {
                      %old = memref.load %q[%b, %idx, %cpart] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                      %new = arith.addf %old, %val : ${ft}
                      memref.store %new, %q[%b, %idx, %cpart] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    }
                  }
                }
              }
              %n1 = arith.addi %n, %c1 : index
              scf.yield %sp#0, %sp#1, %sp#2, %n1 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, index
            }
            scf.yield %st#3 : index
          }
          return
        }
      }
    }
  }
