// Legendre synthesis: F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i).
// Stage contract: docs/design.md, shared with kernels/wgsl/leg_synth.wgsl (which has
// not taken this design: its loops check and select at every step). A string.Template
// rendered by ireesht/codegen/mlir.
//
// Grid (ceil(npairs / (64 ${kp})), mc, ceil(B / ${nf})), its (x, y) taken in the snake
// order of @workgroup_of. A thread owns ${kp} adjacent latitude pairs (i, NL-1-i), counted
// from the first pair that order m does not skip (polar[m]):
// one recurrence serves both rows of a pair, since P_lm(-x) = (-1)^(l-m) P_lm(x), so the
// even (l-m) and odd parts are summed apart and combined at the end. ${nf} fields per thread
// share the recurrence. The accumulators are vector<${slots}>, slot i ${nf} + f for pair i
// and field f, re and im apart. Degrees run in spans of 64 staged in workgroup memory; per
// span each vote group of ${vote_group} threads (a warp on NVIDIA) takes the lean loop of its
// form once all its pairs carry true values, else the careful loop (rescaling checked every
// 8 degrees, values times the live factor).
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_synth_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${synth_gx} : index
        %gy = arith.constant ${mc} : index
        %gz = affine.apply affine_map<()[s0] -> (s0 ceildiv ${nf})>()[%b]
        hal.return %gx, %gy, %gz : index, index, index
      } <workgroup_size = [64 : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // The ${kp} values of a thread spread over the ${kp} x ${nf} (pair, field) slots of
        // vector<${slots}>, slot i ${nf} + f, and the ${nf} field values spread the same way.
        func.func private @expand_v(%v: vector<${kp}x${ft}>) -> vector<${slots}x${ft}> {
${expand_v}
        }
        func.func private @expand_f(%v: vector<${nf}x${ft}>) -> vector<${slots}x${ft}> {
${expand_f}
        }

        // acc += P q for one degree: %v the pairs' values, q of the span's row %j.
        func.func private @accumulate(%v: vector<${kp}x${ft}>,
            %qre_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>,
            %qim_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, %j: index,
            %re: vector<${slots}x${ft}>, %im: vector<${slots}x${ft}>) -> (vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
          %c0 = arith.constant 0 : index
          %qr = vector.load %qre_s[%j, %c0] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, vector<${nf}x${ft}>
          %qi = vector.load %qim_s[%j, %c0] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, vector<${nf}x${ft}>
          %ve = func.call @expand_v(%v) : (vector<${kp}x${ft}>) -> vector<${slots}x${ft}>
          %qre = func.call @expand_f(%qr) : (vector<${nf}x${ft}>) -> vector<${slots}x${ft}>
          %qim = func.call @expand_f(%qi) : (vector<${nf}x${ft}>) -> vector<${slots}x${ft}>
          %re2 = math.fma %ve, %qre, %re : vector<${slots}x${ft}>
          %im2 = math.fma %ve, %qim, %im : vector<${slots}x${ft}>
          return %re2, %im2 : vector<${slots}x${ft}>, vector<${slots}x${ft}>
        }

        // One degree (row %j of the span): the step of all pairs, then acc += P q; careful
        // (some pair below threshold), with P = y times the live factor %sk.
        func.func private @degree(%dif: i1, %careful: i1, %uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>,
            %coef_s: memref<64x4x${ft}, #gpu.address_space<workgroup>>, %qre_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, %qim_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, %j: index,
            %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %sk: vector<${kp}x${ft}>, %re: vector<${slots}x${ft}>, %im: vector<${slots}x${ft}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
          %c0 = arith.constant 0 : index
          %cf = vector.load %coef_s[%j, %c0] : memref<64x4x${ft}, #gpu.address_space<workgroup>>, vector<4x${ft}>
          %y, %zn = func.call @step(%dif, %uh, %ul, %cf, %y1, %z)
              : (i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<4x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
          %v = scf.if %careful -> (vector<${kp}x${ft}>) {
            %r = arith.mulf %y, %sk : vector<${kp}x${ft}>
            scf.yield %r : vector<${kp}x${ft}>
          } else {
            scf.yield %y : vector<${kp}x${ft}>
          }
          %re2, %im2 = func.call @accumulate(%v, %qre_s, %qim_s, %j, %re, %im)
              : (vector<${kp}x${ft}>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> (vector<${slots}x${ft}>, vector<${slots}x${ft}>)
          return %y, %zn, %re2, %im2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
        }

        // The degrees 0 .. %cnt4 - 1 of the span (l - m = %base + j), four per iteration,
        // even, odd, even, odd l - m (the span starts at an even l - m), into fresh sums (e,
        // o) of the span. %dif and %careful are constants at each call site.
        func.func private @span(%dif: i1, %careful: i1, %uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>,
            %coef_s: memref<64x4x${ft}, #gpu.address_space<workgroup>>, %qre_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, %qim_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, %base: index, %cnt4: index,
            %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %k: vector<${kp}x${it}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %z4 = arith.constant dense<0.0> : vector<${slots}x${ft}>
          %sk0 = func.call @live_factor(%k) : (vector<${kp}x${it}>) -> vector<${kp}x${ft}>
          %r:8 = scf.for %j = %c0 to %cnt4 step %c4
              iter_args(%a1 = %y1, %a2 = %z, %a0 = %k, %sk = %sk0, %a3 = %z4, %a4 = %z4, %a5 = %z4, %a6 = %z4)
              -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
            %ev:4 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %qre_s, %qim_s, %j, %a1, %a2, %sk, %a3, %a4)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
            %j1 = arith.addi %j, %c1 : index
            %od:4 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %qre_s, %qim_s, %j1, %ev#0, %ev#1, %sk, %a5, %a6)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
            %j2 = arith.addi %j, %c2 : index
            %ev2:4 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %qre_s, %qim_s, %j2, %od#0, %od#1, %sk, %ev#2, %ev#3)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
            %j3 = arith.addi %j, %c3 : index
            %od2:4 = func.call @degree(%dif, %careful, %uh, %ul, %coef_s, %qre_s, %qim_s, %j3, %ev2#0, %ev2#1, %sk, %od#2, %od#3)
                : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
            %rs:4 = func.call @checkpoint(%careful, %base, %j, %od2#0, %od2#1, %a0, %sk)
                : (i1, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>)
            scf.yield %rs#0, %rs#1, %rs#2, %rs#3, %ev2#2, %ev2#3, %od2#2, %od2#3
                : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
          }
          return %r#0, %r#1, %r#2, %r#4, %r#5, %r#6, %r#7 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
        }

        // F of the fields of the thread's pairs from the even and odd parts: pair row
        // i_n = p0 + i (north) and its mirror NL-1-i_n (south).
        func.func private @store(
            %F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %p0: index, %nlat: index, %npairs: index, %nfields: index, %b0: index, %m: index,
            %ere: vector<${slots}x${ft}>, %eim: vector<${slots}x${ft}>, %ore: vector<${slots}x${ft}>, %oim: vector<${slots}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ckp = arith.constant ${kp} : index
          %cnf = arith.constant ${nf} : index
          %last = arith.subi %nlat, %c1 : index
          scf.for %i = %c0 to %ckp step %c1 {
            %i_n = arith.addi %p0, %i : index
            %row = arith.cmpi ult, %i_n, %npairs : index
            scf.if %row {
              %i_s = arith.subi %last, %i_n : index
              %two = arith.cmpi ne, %i_s, %i_n : index
              %slot0 = arith.muli %i, %cnf : index
              scf.for %f = %c0 to %cnf step %c1 {
                %b = arith.addi %b0, %f : index
                %in = arith.cmpi ult, %b, %nfields : index
                scf.if %in {
                  %s = arith.addi %slot0, %f : index
                  %er = vector.extract %ere[%s] : ${ft} from vector<${slots}x${ft}>
                  %ei = vector.extract %eim[%s] : ${ft} from vector<${slots}x${ft}>
                  %or = vector.extract %ore[%s] : ${ft} from vector<${slots}x${ft}>
                  %oi = vector.extract %oim[%s] : ${ft} from vector<${slots}x${ft}>
                  %nr = arith.addf %er, %or : ${ft}
                  %ni = arith.addf %ei, %oi : ${ft}
                  memref.store %nr, %F[%b, %i_n, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                  memref.store %ni, %F[%b, %i_n, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                  scf.if %two {
                    %sr = arith.subf %er, %or : ${ft}
                    %si = arith.subf %ei, %oi : ${ft}
                    memref.store %sr, %F[%b, %i_s, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    memref.store %si, %F[%b, %i_s, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                  }
                }
              }
            }
          }
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [64, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %four = arith.constant -4 : index  // ~3: n & four rounds n down to a multiple of 4
          %ckp = arith.constant ${kp} : index
          %cnf = arith.constant ${nf} : index
          %true = arith.constant true
          %false = arith.constant false
          %zero = arith.constant 0.0 : ${ft}
          %z4 = arith.constant dense<0.0> : vector<${slots}x${ft}>
          %zk = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %pc0 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(0) : i32
          %pc1 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(1) : i32
          %pc2 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(2) : i32
          %pc3 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(3) : i32
          %pc4 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(4) : i32
          %pc5 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(5) : i32
          %lmax = arith.index_castui %pc0 : i32 to index
          %mmax = arith.index_castui %pc1 : i32 to index
          %nlat = arith.index_castui %pc2 : i32 to index
          %npairs = arith.index_castui %pc3 : i32 to index
          %nlm = arith.index_castui %pc4 : i32 to index
          %nfields = arith.index_castui %pc5 : i32 to index
          %mc = arith.addi %mmax, %c1 : index
          %nseed = arith.muli %mc, %npairs : index
          %xtab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %seedtab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nseed}
          %polar = hal.interface.binding.subspan layout(#leg_synth_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
          %coef = hal.interface.binding.subspan layout(#leg_synth_layout) binding(3) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%nlm}
          %stab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(4) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%nlm}
          %q = hal.interface.binding.subspan layout(#leg_synth_layout) binding(5) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlm}
          %F = hal.interface.binding.subspan layout(#leg_synth_layout) binding(6) alignment(64) offset(%c0)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlat, %mc}

          // One span of 64 degrees staged in workgroup memory: every thread reads the same
          // coefficients, so they are loaded once per workgroup instead of once per thread.
          %coef_s = memref.alloc() : memref<64x4x${ft}, #gpu.address_space<workgroup>>
          %qre_s = memref.alloc() : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>
          %qim_s = memref.alloc() : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>

          %lid = gpu.thread_id x
          %hx = hal.interface.workgroup.id[0] : index
          %hy = hal.interface.workgroup.id[1] : index
          %wx, %m = func.call @workgroup_of(%hx, %hy, %mc) : (index, index, index) -> (index, index)
          %wz = hal.interface.workgroup.id[2] : index
          %b0 = arith.muli %wz, %cnf : index
          %flags = memref.alloc() : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          func.call @vote_init(%flags, %lid) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index) -> ()
          %n0 = arith.constant 0 : index
          // the pairs next to the pole that this m skips hold F = 0, written by workgroup 0;
          // the threads take the pairs after them
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %wx0 = arith.cmpi eq, %wx, %c0 : index
          scf.if %wx0 {
            func.call @zero_rows(%F, %skip, %lid, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index) -> ()
          }
          %wpairs = arith.muli %wx, %c64 : index
          %tpairs = arith.addi %wpairs, %lid : index
          %tp = arith.muli %tpairs, %ckp : index
          %p0 = arith.addi %skip, %tp : index  // this thread's pairs: p0 .. p0 + ${kp} - 1
          %wp = arith.muli %wpairs, %ckp : index
          %wfirst = arith.addi %skip, %wp : index
          %busy = arith.cmpi ult, %wfirst, %npairs : index
          // first index of order m in the m-major layout: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          %l1 = arith.addi %lmax, %c1 : index
          %nl0 = arith.subi %l1, %m : index
          // a workgroup whose pairs all lie past the last one runs no degree
          %nl = arith.select %busy, %nl0, %c0 : index

          // past the last pair, a thread repeats it (and stores nothing)
          %plast = arith.subi %npairs, %c1 : index
          %idle = arith.cmpi uge, %p0, %npairs : index
          %dif = func.call @group_form(%xtab, %wfirst, %lid, %plast) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> i1
          %uh, %ul, %y0, %k0 = func.call @init(%xtab, %seedtab, %m, %p0, %plast, %dif)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                 index, index, index, i1)
                -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)

          // totals of the even (e) and odd (o) parts of l - m. Each span is summed apart and
          // then flushed into them: float32 sums of 64 terms lose nothing measurable, sums of
          // thousands do.
          %st:8 = scf.for %base = %c0 to %nl step %c64
              iter_args(%y1 = %zk, %z = %y0, %k = %k0, %ere = %z4, %eim = %z4, %ore = %z4, %oim = %z4, %n = %n0)
              -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>,
                  vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, index) {
            gpu.barrier  // the previous span is consumed
            // a thread past the last pair runs no degree, and votes live
            %mine0 = func.call @live(%k) : (vector<${kp}x${it}>) -> i1
            %mine = arith.ori %mine0, %idle : i1
            func.call @vote(%flags, %n, %lid, %mine) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index, i1) -> ()
            %li = arith.addi %base, %lid : index
            %inl = arith.cmpi ult, %li, %nl : index
            %idx0 = arith.addi %mstart, %li : index
            %idx = arith.select %inl, %idx0, %mstart : index
            %blast = arith.subi %nfields, %c1 : index
            // rows past the last degree are zeros: the loops below run to a multiple of 4
            scf.for %t = %c0 to %c4 step %c1 {
              %cv0 = memref.load %coef[%idx, %t] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
              %cv = arith.select %inl, %cv0, %zero : ${ft}
              memref.store %cv, %coef_s[%lid, %t] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
            }
            // S_lm applied to q here, once, instead of in the recurrence
            %sc = memref.load %stab[%idx] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            scf.for %f = %c0 to %cnf step %c1 {
              %b = arith.addi %b0, %f : index
              %bin = arith.cmpi ult, %b, %nfields : index
              %use = arith.andi %bin, %inl : i1
              %bc = arith.minui %b, %blast : index
              %qr = memref.load %q[%bc, %idx, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              %qi = memref.load %q[%bc, %idx, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              %sr = arith.mulf %sc, %qr : ${ft}
              %si = arith.mulf %sc, %qi : ${ft}
              %vr = arith.select %use, %sr, %zero : ${ft}
              %vi = arith.select %use, %si, %zero : ${ft}
              memref.store %vr, %qre_s[%lid, %f] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>
              memref.store %vi, %qim_s[%lid, %f] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>
            }
            gpu.barrier
            %left = arith.subi %nl, %base : index
            %cnt = arith.minui %left, %c64 : index
            %cnt3 = arith.addi %cnt, %c3 : index
            %cnt40 = arith.andi %cnt3, %four : index
            %cnt4 = arith.select %idle, %c0, %cnt40 : index
            %live = func.call @all_live(%flags, %n, %lid) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index) -> i1
            // one loop per form, uniform in a vote group (@group_form); the lean one once
            // all pairs of the group are live
            %sp:7 = scf.if %dif -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
              %r:7 = scf.if %live -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
                %w:7 = func.call @span(%true, %false, %uh, %ul, %coef_s, %qre_s, %qim_s, %base, %cnt4, %y1, %z, %k)
                    : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
                scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
              } else {
                %w:7 = func.call @span(%true, %true, %uh, %ul, %coef_s, %qre_s, %qim_s, %base, %cnt4, %y1, %z, %k)
                    : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
                scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
              }
              scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
            } else {
              %r:7 = scf.if %live -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) {
                %w:7 = func.call @span(%false, %false, %uh, %ul, %coef_s, %qre_s, %qim_s, %base, %cnt4, %y1, %z, %k)
                    : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
                scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
              } else {
                %w:7 = func.call @span(%false, %true, %uh, %ul, %coef_s, %qre_s, %qim_s, %base, %cnt4, %y1, %z, %k)
                    : (i1, i1, vector<${kp}x${ft}>, vector<${kp}x${ft}>, memref<64x4x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>)
                scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
              }
              scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>
            }
            %t0 = arith.addf %ere, %sp#3 : vector<${slots}x${ft}>
            %t1 = arith.addf %eim, %sp#4 : vector<${slots}x${ft}>
            %t2 = arith.addf %ore, %sp#5 : vector<${slots}x${ft}>
            %t3 = arith.addf %oim, %sp#6 : vector<${slots}x${ft}>
            %n1 = arith.addi %n, %c1 : index
            scf.yield %sp#0, %sp#1, %sp#2, %t0, %t1, %t2, %t3, %n1
                : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, index
          }

          func.call @store(%F, %p0, %nlat, %npairs, %nfields, %b0, %m, %st#3, %st#4, %st#5, %st#6)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index,
                 vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>, vector<${slots}x${ft}>) -> ()
          return
        }
      }
    }
  }
