// Legendre analysis: q[b][(l,m)] = sum_i w_i F[b][i][m] P_lm(cos theta_i).
// The MLIR twin of kernels/wgsl/leg_analys.wgsl (same algorithm, same float arithmetic);
// stage contract: kernels/CONTRACT.md. A string.Template rendered by ireesht/kernels_mlir.py.
//
// Grid (mc, ceil(B / ${nf}), 1): one workgroup per m. Threads own latitude pairs (i, NL-1-i)
// and walk them in chunks of 128 * 4 pairs, 4 per thread; for each chunk the recurrence runs
// over l and every thread's contributions are summed over the workgroup. The sum is amortised
// over spans of ${span} degrees: per degree only a group sum happens (group_ops: a subgroup, or
// each thread alone); the partial sums of all groups are written to workgroup memory and
// added up once per span, between one pair of barriers. ${nf} fields per thread share the
// recurrence; their values are vector<${nf}x${ft}> (re and im apart).
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
${group_ops}

        // The weighted even and odd combinations w (F_north +- F_south) of pair %p for the
        // fields b0 .. b0 + ${nf} - 1 (w = 0 past the last pair; a row is its own mirror at
        // the equator of an odd grid).
        func.func private @fold(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index, %valid: i1,
            %nlat: index, %nfields: index, %b0: index, %m: index)
            -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : ${ft}
          %zv = arith.constant dense<0.0> : vector<${nf}x${ft}>
          %wp = memref.load %wtab[%p] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
          %w = arith.select %valid, %wp, %zero : ${ft}
          %last = arith.subi %nlat, %c1 : index
          %i_s = arith.subi %last, %p : index
          %same = arith.cmpi eq, %i_s, %p : index
          %blast = arith.subi %nfields, %c1 : index
          %r:4 = scf.for %f = %c0 to %cnf step %c1 iter_args(%er = %zv, %ei = %zv, %or = %zv, %oi = %zv)
              -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>) {
            %bf = arith.addi %b0, %f : index
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
            %er2 = vector.insert %epr, %er[%f] : ${ft} into vector<${nf}x${ft}>
            %ei2 = vector.insert %epi, %ei[%f] : ${ft} into vector<${nf}x${ft}>
            %or2 = vector.insert %omr, %or[%f] : ${ft} into vector<${nf}x${ft}>
            %oi2 = vector.insert %omi, %oi[%f] : ${ft} into vector<${nf}x${ft}>
            scf.yield %er2, %ei2, %or2, %oi2 : vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
          }
          return %r#0, %r#1, %r#2, %r#3 : vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>
        }

        // One degree l (offset %j in the staged span, l - m = %dl): the recurrence step of the
        // 4 pairs (none at l = m, the seed), their sum P g in registers (g: this degree's
        // parity of @fold, re and im of pairs 0..3), then one group sum per field, written by
        // lane 0 of each group to part[(group * ${span} + j) * ${nf} + f].
        func.func private @degree(%uh: vector<4x${ft}>, %ul: vector<4x${ft}>, %dif: vector<4xi1>,
            %coef_s: memref<${span}x4x${ft}, #gpu.address_space<workgroup>>,
            %part_re: memref<${part}x${ft}, #gpu.address_space<workgroup>>, %part_im: memref<${part}x${ft}, #gpu.address_space<workgroup>>,
            %j: index, %dl: index, %group: index, %lane: index,
            %y1: vector<4x${ft}>, %z: vector<4x${ft}>, %k: vector<4x${it}>,
            %gr0: vector<${nf}x${ft}>, %gi0: vector<${nf}x${ft}>, %gr1: vector<${nf}x${ft}>, %gi1: vector<${nf}x${ft}>,
            %gr2: vector<${nf}x${ft}>, %gi2: vector<${nf}x${ft}>, %gr3: vector<${nf}x${ft}>, %gi3: vector<${nf}x${ft}>)
            -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %cspan = arith.constant ${span} : index
          %cnf = arith.constant ${nf} : index
          %zv = arith.constant dense<0.0> : vector<${nf}x${ft}>
          %ca = memref.load %coef_s[%j, %c0] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
          %cb = memref.load %coef_s[%j, %c1] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
          %cc = memref.load %coef_s[%j, %c2] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
          %ce = memref.load %coef_s[%j, %c3] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
          %ys, %zs, %ks = func.call @step(%uh, %ul, %dif, %ca, %cb, %cc, %ce, %y1, %z, %k)
              : (vector<4x${ft}>, vector<4x${ft}>, vector<4xi1>, ${ft}, ${ft}, ${ft}, ${ft}, vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>)
                -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>)
          // (SPIR-V before 1.4 selects vectors by a vector of conditions)
          %later1 = arith.cmpi ugt, %dl, %c0 : index
          %later = vector.broadcast %later1 : i1 to vector<4xi1>
          %yn = arith.select %later, %ys, %y1 : vector<4xi1>, vector<4x${ft}>
          %zn = arith.select %later, %zs, %z : vector<4xi1>, vector<4x${ft}>
          %kn = arith.select %later, %ks, %k : vector<4xi1>, vector<4x${it}>
          %v = func.call @value(%yn, %kn) : (vector<4x${ft}>, vector<4x${it}>) -> vector<4x${ft}>
          // the thread's 4 pairs are summed in registers first: one group sum per degree and
          // field serves 4 pairs
          %v0 = vector.extract %v[0] : ${ft} from vector<4x${ft}>
          %v1 = vector.extract %v[1] : ${ft} from vector<4x${ft}>
          %v2 = vector.extract %v[2] : ${ft} from vector<4x${ft}>
          %v3 = vector.extract %v[3] : ${ft} from vector<4x${ft}>
          %w0 = vector.broadcast %v0 : ${ft} to vector<${nf}x${ft}>
          %w1 = vector.broadcast %v1 : ${ft} to vector<${nf}x${ft}>
          %w2 = vector.broadcast %v2 : ${ft} to vector<${nf}x${ft}>
          %w3 = vector.broadcast %v3 : ${ft} to vector<${nf}x${ft}>
          %ar0 = math.fma %w0, %gr0, %zv : vector<${nf}x${ft}>
          %ai0 = math.fma %w0, %gi0, %zv : vector<${nf}x${ft}>
          %ar1 = math.fma %w1, %gr1, %ar0 : vector<${nf}x${ft}>
          %ai1 = math.fma %w1, %gi1, %ai0 : vector<${nf}x${ft}>
          %ar2 = math.fma %w2, %gr2, %ar1 : vector<${nf}x${ft}>
          %ai2 = math.fma %w2, %gi2, %ai1 : vector<${nf}x${ft}>
          %ar = math.fma %w3, %gr3, %ar2 : vector<${nf}x${ft}>
          %ai = math.fma %w3, %gi3, %ai2 : vector<${nf}x${ft}>
          %lead = arith.cmpi eq, %lane, %c0 : index
          %gs = arith.muli %group, %cspan : index
          %row = arith.addi %gs, %j : index
          %base = arith.muli %row, %cnf : index
          scf.for %f = %c0 to %cnf step %c1 {
            %xr = vector.extract %ar[%f] : ${ft} from vector<${nf}x${ft}>
            %xi = vector.extract %ai[%f] : ${ft} from vector<${nf}x${ft}>
            %sr = func.call @group_sum(%xr) : (${ft}) -> ${ft}
            %si = func.call @group_sum(%xi) : (${ft}) -> ${ft}
            scf.if %lead {
              %idx = arith.addi %base, %f : index
              memref.store %sr, %part_re[%idx] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
              memref.store %si, %part_im[%idx] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
            }
          }
          return %yn, %zn, %kn : vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %cspan = arith.constant ${span} : index
          %c128 = arith.constant 128 : index
          %c256 = arith.constant 256 : index
          %c384 = arith.constant 384 : index
          %c512 = arith.constant 512 : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : ${ft}
          %zk = arith.constant dense<0.0> : vector<4x${ft}>
          %pc0 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(0) : i32
          %pc1 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(1) : i32
          %pc2 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(2) : i32
          %pc3 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(3) : i32
          %pc4 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(4) : i32
          %pc5 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(5) : i32
          %pc6 = hal.interface.constant.load layout(#leg_analys_layout) ordinal(6) : i32
          %lmax = arith.index_castui %pc0 : i32 to index
          %mmax = arith.index_castui %pc1 : i32 to index
          %nlat = arith.index_castui %pc2 : i32 to index
          %npairs = arith.index_castui %pc3 : i32 to index
          %nlm = arith.index_castui %pc4 : i32 to index
          %nfields = arith.index_castui %pc5 : i32 to index
          %nbits = arith.index_castui %pc6 : i32 to index
          %mc = arith.addi %mmax, %c1 : index
          %npow = arith.muli %npairs, %nbits : index
          %xtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %powtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npow}
          %mseed = hal.interface.binding.subspan layout(#leg_analys_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
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
          // partial sums [group][span degree][field]: 128 * ${span} entries, which holds ${nf} = 1
          // with one group per thread, or ${nf} <= 4 with groups of 4 or more threads
          %part_re = memref.alloc() : memref<${part}x${ft}, #gpu.address_space<workgroup>>
          %part_im = memref.alloc() : memref<${part}x${ft}, #gpu.address_space<workgroup>>

          %lid = gpu.thread_id x
          %m = hal.interface.workgroup.id[0] : index
          %wy = hal.interface.workgroup.id[1] : index
          %b0 = arith.muli %wy, %cnf : index
          // first index of order m in the m-major layout: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          %l1 = arith.addi %lmax, %c1 : index
          %nl = arith.subi %l1, %m : index
          %gsize = func.call @group_size() : () -> index
          %group = arith.divui %lid, %gsize : index
          %ngroups = arith.divui %c128, %gsize : index
          %lane = arith.remui %lid, %gsize : index

          scf.for %c0p = %c0 to %npairs step %c512 {
            // the thread's pairs c0 + i 128 + lid, i < 4; past the last pair, pair 0 with w = 0
            %o0 = arith.addi %c0p, %c0 : index
            %p0 = arith.addi %o0, %lid : index
            %ok0 = arith.cmpi ult, %p0, %npairs : index
            %pp0 = arith.select %ok0, %p0, %c0 : index
            %uh0, %ul0, %dif0 = func.call @node(%xtab, %pp0) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
            %y0, %k0 = func.call @seed(%powtab, %mseed, %m, %pp0, %nbits)
                : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
            %g0:4 = func.call @fold(%F, %wtab, %pp0, %ok0, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, i1, index, index, index, index) -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
            %o1 = arith.addi %c0p, %c128 : index
            %p1 = arith.addi %o1, %lid : index
            %ok1 = arith.cmpi ult, %p1, %npairs : index
            %pp1 = arith.select %ok1, %p1, %c0 : index
            %uh1, %ul1, %dif1 = func.call @node(%xtab, %pp1) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
            %y1, %k1 = func.call @seed(%powtab, %mseed, %m, %pp1, %nbits)
                : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
            %g1:4 = func.call @fold(%F, %wtab, %pp1, %ok1, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, i1, index, index, index, index) -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
            %o2 = arith.addi %c0p, %c256 : index
            %p2 = arith.addi %o2, %lid : index
            %ok2 = arith.cmpi ult, %p2, %npairs : index
            %pp2 = arith.select %ok2, %p2, %c0 : index
            %uh2, %ul2, %dif2 = func.call @node(%xtab, %pp2) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
            %y2, %k2 = func.call @seed(%powtab, %mseed, %m, %pp2, %nbits)
                : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
            %g2:4 = func.call @fold(%F, %wtab, %pp2, %ok2, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, i1, index, index, index, index) -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
            %o3 = arith.addi %c0p, %c384 : index
            %p3 = arith.addi %o3, %lid : index
            %ok3 = arith.cmpi ult, %p3, %npairs : index
            %pp3 = arith.select %ok3, %p3, %c0 : index
            %uh3, %ul3, %dif3 = func.call @node(%xtab, %pp3) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft}, i1)
            %y3, %k3 = func.call @seed(%powtab, %mseed, %m, %pp3, %nbits)
                : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${it})
            %g3:4 = func.call @fold(%F, %wtab, %pp3, %ok3, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, i1, index, index, index, index) -> (vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
            %uh = vector.from_elements %uh0, %uh1, %uh2, %uh3 : vector<4x${ft}>
            %ul = vector.from_elements %ul0, %ul1, %ul2, %ul3 : vector<4x${ft}>
            %dif = vector.from_elements %dif0, %dif1, %dif2, %dif3 : vector<4xi1>
            %ys = vector.from_elements %y0, %y1, %y2, %y3 : vector<4x${ft}>
            %ks = vector.from_elements %k0, %k1, %k2, %k3 : vector<4x${it}>

            %st:3 = scf.for %base = %c0 to %nl step %cspan iter_args(%y1s = %ys, %zs = %zk, %kss = %ks)
                -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>) {
              gpu.barrier  // the previous span's partial sums are consumed
              %li = arith.addi %base, %lid : index
              %inl = arith.cmpi ult, %li, %nl : index
              %lo = arith.cmpi ult, %lid, %cspan : index
              %load = arith.andi %lo, %inl : i1
              scf.if %load {
                %idx = arith.addi %mstart, %li : index
                scf.for %t = %c0 to %c4 step %c1 {
                  %cv = memref.load %coef[%idx, %t] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
                  memref.store %cv, %coef_s[%lid, %t] : memref<${span}x4x${ft}, #gpu.address_space<workgroup>>
                }
              }
              gpu.barrier
              %left = arith.subi %nl, %base : index
              %cnt = arith.minui %left, %cspan : index
              // two degrees per iteration, even then odd l - m (base is even)
              %dg:3 = scf.for %j = %c0 to %cnt step %c2 iter_args(%yj = %y1s, %zj = %zs, %kj = %kss)
                  -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>) {
                %dl = arith.addi %base, %j : index
                %ev:3 = func.call @degree(%uh, %ul, %dif, %coef_s, %part_re, %part_im, %j, %dl, %group, %lane,
                    %yj, %zj, %kj, %g0#0, %g0#1, %g1#0, %g1#1, %g2#0, %g2#1, %g3#0, %g3#1)
                    : (vector<4x${ft}>, vector<4x${ft}>, vector<4xi1>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>,
                       memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, index, vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
                      -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>)
                %j1 = arith.addi %j, %c1 : index
                %has = arith.cmpi ult, %j1, %cnt : index
                %od:3 = scf.if %has -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>) {
                  %dl1 = arith.addi %dl, %c1 : index
                  %r:3 = func.call @degree(%uh, %ul, %dif, %coef_s, %part_re, %part_im, %j1, %dl1, %group, %lane,
                      %ev#0, %ev#1, %ev#2, %g0#2, %g0#3, %g1#2, %g1#3, %g2#2, %g2#3, %g3#2, %g3#3)
                      : (vector<4x${ft}>, vector<4x${ft}>, vector<4xi1>, memref<${span}x4x${ft}, #gpu.address_space<workgroup>>, memref<${part}x${ft}, #gpu.address_space<workgroup>>,
                         memref<${part}x${ft}, #gpu.address_space<workgroup>>, index, index, index, index, vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>, vector<${nf}x${ft}>)
                        -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>)
                  scf.yield %r#0, %r#1, %r#2 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>
                } else {
                  scf.yield %ev#0, %ev#1, %ev#2 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>
                }
                scf.yield %od#0, %od#1, %od#2 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>
              }
              gpu.barrier
              // one thread per (degree, field) of the span adds the groups' partial sums; the
              // same thread owns the same output entry in every chunk, so its read-modify-write
              // is ordered
              %nslots = arith.muli %cnt, %cnf : index
              %mine = arith.cmpi ult, %lid, %nslots : index
              scf.if %mine {
                %j = arith.divui %lid, %cnf : index
                %f = arith.remui %lid, %cnf : index
                %b = arith.addi %b0, %f : index
                %tot:2 = scf.for %g = %c0 to %ngroups step %c1 iter_args(%tr = %zero, %ti = %zero) -> (${ft}, ${ft}) {
                  %gs = arith.muli %g, %cspan : index
                  %row = arith.addi %gs, %j : index
                  %rn = arith.muli %row, %cnf : index
                  %idx = arith.addi %rn, %f : index
                  %pr = memref.load %part_re[%idx] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
                  %pi = memref.load %part_im[%idx] : memref<${part}x${ft}, #gpu.address_space<workgroup>>
                  %tr2 = arith.addf %tr, %pr : ${ft}
                  %ti2 = arith.addf %ti, %pi : ${ft}
                  scf.yield %tr2, %ti2 : ${ft}, ${ft}
                }
                %bin = arith.cmpi ult, %b, %nfields : index
                scf.if %bin {
                  %bj = arith.addi %base, %j : index
                  %idx = arith.addi %mstart, %bj : index
                  %s = memref.load %stab[%idx] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                  %sr = arith.mulf %tot#0, %s : ${ft}
                  %si = arith.mulf %tot#1, %s : ${ft}
                  %first = arith.cmpi eq, %c0p, %c0 : index
                  scf.if %first {
                    memref.store %sr, %q[%b, %idx, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    memref.store %si, %q[%b, %idx, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                  } else {
                    %qr = memref.load %q[%b, %idx, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    %qi = memref.load %q[%b, %idx, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    %nr = arith.addf %qr, %sr : ${ft}
                    %ni = arith.addf %qi, %si : ${ft}
                    memref.store %nr, %q[%b, %idx, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                    memref.store %ni, %q[%b, %idx, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                  }
                }
              }
              scf.yield %dg#0, %dg#1, %dg#2 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${it}>
            }
          }
          return
        }
      }
    }
  }
