// Legendre synthesis: F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i).
// The MLIR twin of kernels/wgsl/leg_synth.wgsl (same algorithm, same float arithmetic);
// stage contract: kernels/CONTRACT.md. A string.Template rendered by ireesht/kernels_mlir.py.
//
// Grid (ceil(npairs / (64 * 2)), mc, ceil(B / ${nf})). A thread owns 2 latitude pairs
// (i, NL-1-i): one recurrence serves both rows of a pair, since P_lm(-x) = (-1)^(l-m) P_lm(x),
// so the even (l-m) and odd parts are summed apart and combined at the end. ${nf} fields per
// thread share the recurrence; their accumulators are vector<${nf}x${ft}> (re and im apart).
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

        // One degree l of the span (offset %j in the staged span, l - m = %dl) for both
        // pairs: the recurrence step (none at l = m, the seed), then acc += P q for the
        // accumulators of this degree's parity.
        func.func private @degree(%uh: vector<2x${ft}>, %ul: vector<2x${ft}>, %dif: vector<2xi1>,
            %coef_s: memref<64x4x${ft}, #gpu.address_space<workgroup>>,
            %qre_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>,
            %qim_s: memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>,
            %j: index, %dl: index,
            %y1: vector<2x${ft}>, %z: vector<2x${ft}>, %k: vector<2x${it}>,
            %re0: vector<${nf}x${ft}>, %im0: vector<${nf}x${ft}>,
            %re1: vector<${nf}x${ft}>, %im1: vector<${nf}x${ft}>)
            -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %ca = memref.load %coef_s[%j, %c0] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
          %cb = memref.load %coef_s[%j, %c1] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
          %cc = memref.load %coef_s[%j, %c2] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
          %ce = memref.load %coef_s[%j, %c3] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
          %ys, %zs, %ks = func.call @step(%uh, %ul, %dif, %ca, %cb, %cc, %ce, %y1, %z, %k)
              : (vector<2x${ft}>, vector<2x${ft}>, vector<2xi1>, ${ft}, ${ft}, ${ft}, ${ft},
                 vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>)
                -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>)
          // (SPIR-V before 1.4 selects vectors by a vector of conditions)
          %later1 = arith.cmpi ugt, %dl, %c0 : index
          %later = vector.broadcast %later1 : i1 to vector<2xi1>
          %yn = arith.select %later, %ys, %y1 : vector<2xi1>, vector<2x${ft}>
          %zn = arith.select %later, %zs, %z : vector<2xi1>, vector<2x${ft}>
          %kn = arith.select %later, %ks, %k : vector<2xi1>, vector<2x${it}>
          %v = func.call @value(%yn, %kn) : (vector<2x${ft}>, vector<2x${it}>) -> vector<2x${ft}>
          %qre = vector.load %qre_s[%j, %c0] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, vector<${nf}x${ft}>
          %qim = vector.load %qim_s[%j, %c0] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, vector<${nf}x${ft}>
          %v0 = vector.extract %v[0] : ${ft} from vector<2x${ft}>
          %v1 = vector.extract %v[1] : ${ft} from vector<2x${ft}>
          %w0 = vector.broadcast %v0 : ${ft} to vector<${nf}x${ft}>
          %w1 = vector.broadcast %v1 : ${ft} to vector<${nf}x${ft}>
          %re0n = math.fma %w0, %qre, %re0 : vector<${nf}x${ft}>
          %im0n = math.fma %w0, %qim, %im0 : vector<${nf}x${ft}>
          %re1n = math.fma %w1, %qre, %re1 : vector<${nf}x${ft}>
          %im1n = math.fma %w1, %qim, %im1 : vector<${nf}x${ft}>
          return %yn, %zn, %kn, %re0n, %im0n, %re1n, %im1n
              : vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
        }

        // F of the fields of pair row %i_n (north) and its mirror NL-1-i_n (south) from the
        // even and odd parts.
        func.func private @store_pair(
            %F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i_n: index, %nlat: index, %npairs: index, %nfields: index, %b0: index, %m: index,
            %ere: vector<${nf}x${ft}>, %eim: vector<${nf}x${ft}>,
            %ore: vector<${nf}x${ft}>, %oim: vector<${nf}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %cnf = arith.constant ${nf} : index
          %row = arith.cmpi ult, %i_n, %npairs : index
          scf.if %row {
            %last = arith.subi %nlat, %c1 : index
            %i_s = arith.subi %last, %i_n : index
            %two = arith.cmpi ne, %i_s, %i_n : index
            scf.for %f = %c0 to %cnf step %c1 {
              %b = arith.addi %b0, %f : index
              %in = arith.cmpi ult, %b, %nfields : index
              scf.if %in {
                %er = vector.extract %ere[%f] : ${ft} from vector<${nf}x${ft}>
                %ei = vector.extract %eim[%f] : ${ft} from vector<${nf}x${ft}>
                %or = vector.extract %ore[%f] : ${ft} from vector<${nf}x${ft}>
                %oi = vector.extract %oim[%f] : ${ft} from vector<${nf}x${ft}>
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
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [64, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %c128 = arith.constant 128 : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : ${ft}
          %zv = arith.constant dense<0.0> : vector<${nf}x${ft}>
          %zk = arith.constant dense<0.0> : vector<2x${ft}>
          %pc0 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(0) : i32
          %pc1 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(1) : i32
          %pc2 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(2) : i32
          %pc3 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(3) : i32
          %pc4 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(4) : i32
          %pc5 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(5) : i32
          %pc6 = hal.interface.constant.load layout(#leg_synth_layout) ordinal(6) : i32
          %lmax = arith.index_castui %pc0 : i32 to index
          %mmax = arith.index_castui %pc1 : i32 to index
          %nlat = arith.index_castui %pc2 : i32 to index
          %npairs = arith.index_castui %pc3 : i32 to index
          %nlm = arith.index_castui %pc4 : i32 to index
          %nfields = arith.index_castui %pc5 : i32 to index
          %nbits = arith.index_castui %pc6 : i32 to index
          %mc = arith.addi %mmax, %c1 : index
          %npow = arith.muli %npairs, %nbits : index
          %xtab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %powtab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npow}
          %mseed = hal.interface.binding.subspan layout(#leg_synth_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
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
          %wx = hal.interface.workgroup.id[0] : index
          %m = hal.interface.workgroup.id[1] : index
          %wz = hal.interface.workgroup.id[2] : index
          %p0base = arith.muli %wx, %c128 : index
          %p0 = arith.addi %p0base, %lid : index  // this thread's pairs: p0 and p0 + 64
          %p1 = arith.addi %p0, %c64 : index
          %b0 = arith.muli %wz, %cnf : index
          // first index of order m in the m-major layout: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          %l1 = arith.addi %lmax, %c1 : index
          %nl = arith.subi %l1, %m : index

          // recurrence state of the two pairs; past the last pair, a thread repeats it
          %plast = arith.subi %npairs, %c1 : index
          %pa = arith.minui %p0, %plast : index
          %pb = arith.minui %p1, %plast : index
          %uha, %ula, %difa = func.call @node(%xtab, %pa) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
          %uhb, %ulb, %difb = func.call @node(%xtab, %pb) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
          %ya, %ka = func.call @seed(%powtab, %mseed, %m, %pa, %nbits)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
          %yb, %kb = func.call @seed(%powtab, %mseed, %m, %pb, %nbits)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
          %uh = vector.from_elements %uha, %uhb : vector<2x${ft}>
          %ul = vector.from_elements %ula, %ulb : vector<2x${ft}>
          %dif = vector.from_elements %difa, %difb : vector<2xi1>
          %y0 = vector.from_elements %ya, %yb : vector<2x${ft}>
          %k0 = vector.from_elements %ka, %kb : vector<2x${it}>

          // totals of the even (e) and odd (o) parts of l - m for pair 0 and pair 1. Each
          // span is summed apart and then flushed into them: float32 sums of 64 terms lose
          // nothing measurable, sums of thousands do.
          %st:11 = scf.for %base = %c0 to %nl step %c64
              iter_args(%y1 = %y0, %z = %zk, %k = %k0,
                        %ere0 = %zv, %eim0 = %zv, %ere1 = %zv, %eim1 = %zv,
                        %ore0 = %zv, %oim0 = %zv, %ore1 = %zv, %oim1 = %zv)
              -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                  vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>,
                  vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
            gpu.barrier  // the previous span is consumed
            %li = arith.addi %base, %lid : index
            %inl = arith.cmpi ult, %li, %nl : index
            scf.if %inl {
              %idx = arith.addi %mstart, %li : index
              scf.for %t = %c0 to %c4 step %c1 {
                %cv = memref.load %coef[%idx, %t] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
                memref.store %cv, %coef_s[%lid, %t] : memref<64x4x${ft}, #gpu.address_space<workgroup>>
              }
              // S_lm applied to q here, once, instead of in the recurrence
              %sc = memref.load %stab[%idx] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
              %blast = arith.subi %nfields, %c1 : index
              scf.for %f = %c0 to %cnf step %c1 {
                %b = arith.addi %b0, %f : index
                %bin = arith.cmpi ult, %b, %nfields : index
                %bc = arith.minui %b, %blast : index
                %qr = memref.load %q[%bc, %idx, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                %qi = memref.load %q[%bc, %idx, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                %sr = arith.mulf %sc, %qr : ${ft}
                %si = arith.mulf %sc, %qi : ${ft}
                %vr = arith.select %bin, %sr, %zero : ${ft}
                %vi = arith.select %bin, %si, %zero : ${ft}
                memref.store %vr, %qre_s[%lid, %f] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>
                memref.store %vi, %qim_s[%lid, %f] : memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>
              }
            }
            gpu.barrier
            %left = arith.subi %nl, %base : index
            %cnt = arith.minui %left, %c64 : index
            // two degrees per iteration, even then odd l - m (base is even): the parity of
            // each step is known where it is written
            %it:11 = scf.for %j = %c0 to %cnt step %c2
                iter_args(%y1j = %y1, %zj = %z, %kj = %k,
                          %are0 = %zv, %aim0 = %zv, %are1 = %zv, %aim1 = %zv,
                          %bre0 = %zv, %bim0 = %zv, %bre1 = %zv, %bim1 = %zv)
                -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                    vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>,
                    vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
              %dl = arith.addi %base, %j : index
              %ev:7 = func.call @degree(%uh, %ul, %dif, %coef_s, %qre_s, %qim_s, %j, %dl, %y1j, %zj, %kj,
                                        %are0, %aim0, %are1, %aim1)
                  : (vector<2x${ft}>, vector<2x${ft}>, vector<2xi1>,
                     memref<64x4x${ft}, #gpu.address_space<workgroup>>,
                     memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>,
                     memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index,
                     vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                     vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
                    -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                        vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
              %j1 = arith.addi %j, %c1 : index
              %has = arith.cmpi ult, %j1, %cnt : index
              %od:7 = scf.if %has
                  -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                      vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
                %dl1 = arith.addi %dl, %c1 : index
                %r:7 = func.call @degree(%uh, %ul, %dif, %coef_s, %qre_s, %qim_s, %j1, %dl1, %ev#0, %ev#1, %ev#2,
                                         %bre0, %bim0, %bre1, %bim1)
                    : (vector<2x${ft}>, vector<2x${ft}>, vector<2xi1>,
                       memref<64x4x${ft}, #gpu.address_space<workgroup>>,
                       memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>,
                       memref<64x${nf}x${ft}, #gpu.address_space<workgroup>>, index, index,
                       vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                       vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
                      -> (vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                          vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
                scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6
                    : vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                      vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
              } else {
                scf.yield %ev#0, %ev#1, %ev#2, %bre0, %bim0, %bre1, %bim1
                    : vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                      vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
              }
              scf.yield %od#0, %od#1, %od#2, %ev#3, %ev#4, %ev#5, %ev#6, %od#3, %od#4, %od#5, %od#6
                  : vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                    vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>,
                    vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
            }
            %t0 = arith.addf %ere0, %it#3 : vector<${nf}x${ft}>
            %t1 = arith.addf %eim0, %it#4 : vector<${nf}x${ft}>
            %t2 = arith.addf %ere1, %it#5 : vector<${nf}x${ft}>
            %t3 = arith.addf %eim1, %it#6 : vector<${nf}x${ft}>
            %t4 = arith.addf %ore0, %it#7 : vector<${nf}x${ft}>
            %t5 = arith.addf %oim0, %it#8 : vector<${nf}x${ft}>
            %t6 = arith.addf %ore1, %it#9 : vector<${nf}x${ft}>
            %t7 = arith.addf %oim1, %it#10 : vector<${nf}x${ft}>
            scf.yield %it#0, %it#1, %it#2, %t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7
                : vector<2x${ft}>, vector<2x${ft}>, vector<2x${it}>,
                  vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>,
                  vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
          }

          func.call @store_pair(%F, %p0, %nlat, %npairs, %nfields, %b0, %m, %st#3, %st#4, %st#7, %st#8)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index,
                 vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) -> ()
          func.call @store_pair(%F, %p1, %nlat, %npairs, %nfields, %b0, %m, %st#5, %st#6, %st#9, %st#10)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index,
                 vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) -> ()
          return
        }
      }
    }
  }
