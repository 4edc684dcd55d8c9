// Legendre analysis, q[b][(l,m)] = sum_i w_i F[b][i][m] P_lm(cos theta_i), by the Ishioka
// recurrence in float64 (ireesht/numerics/ishioka.py) with float64 sums, for float32 plans of one
// field per thread on CUDA grids of more than 384 latitude pairs (or in segments) (ireesht/codegen/mlir
// lanes64_analysis). Stage contract: docs/design.md, as leg_analys.mlir;
// its tables are leg_analys_ishioka.mlir's. A string.Template rendered by
// ireesht/codegen/mlir.
//
// Grid (${nseg} mc, B, 1): one workgroup of ${wg} threads per segment s of order m
// (workgroup s mc + m) and field b. With segments of ${segment} steps (grids whose low orders'
// long chains would leave the GPU idle, geometry.lanes64_segment_steps), segment s
// writes q of steps s ${segment} .. (s + 1) ${segment} - 1 (none past order m's last: an idle
// workgroup) and starts from the chain's state at step s ${segment} - 1 (the restart table;
// that step's sums give the first q it writes). In each chunk c0 of ${chunk} pairs from
// the pole side past the polar pairs the order skips, thread t holds the tp pairs
// skip + c0 + t + ${wg} i, i < tp, with tp the fewest of ${counts} that hold the chunk's
// pairs: the pairs an order skips cost little arithmetic (a copy of @step and of the chunk's
// loop for each tp: the parts "step" and "chunk" below, rendered by ireesht/codegen/mlir
// _lanes64_analys_values). Per step k (degrees m + 2k and m + 2k + 1) each thread sums
// y_k times the four weighted parts of F (even re, im; odd re, im) over its pairs with
// float64 fused multiply-adds; each group of four lanes then adds up its four sums with two
// float64 shuffles, lane c of the group keeping sum c (a reduce-scatter), and stores it in
// its group's column of workgroup memory. Once per span of ${span} steps, after a barrier,
// threads add up each sum over the ${ng} groups, and q follows as in leg_analys_ishioka.mlir:
// q_{m+2k} = e1_k S_k + e2_{k-1} S_{k-1}, q_{m+2k+1} = g_k O_k. Everything from the
// float32 data to q runs in float64 and q is rounded once: no float64 to float32
// conversion in the loop (a quarter of the float64 rate on an H200). Two steps per loop
// iteration (LLVM moved the state's registers every step with one). A pair
// whose seed lies on level -1 (lmax 2047: seeds down to 2^-1206; ISHIOKA_SCALING) runs its
// chain 2^${scale_bits} above the true values (@seed64), and its parts are 2^-${scale_bits}
// times theirs, so that its products are the true ones.
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_analys_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${grid_x} : index
        %one = arith.constant 1 : index
        hal.return %gx, %b, %one : index, index, index
      } <workgroup_size = [${wg} : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // Pair %p of order %m, field %b: u = x^2, the seed y_0 = a_{m+1} P_mm on its level's
        // scale, and the weighted parts of F (@parts64) on the inverse scale (zeros past the
        // last pair).
        func.func private @pair(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>,
            %seed64: memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
            %F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab64: memref<?xf64, #hal.descriptor_type<storage_buffer>>, %p: index,
            %npairs: index, %nlat: index, %b: index, %m: index, %am: f64)
            -> (f64, f64, f64, f64, f64, f64) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %zero = arith.constant 0.0 : f64
          %one = arith.constant 1.0 : f64
          %down = arith.constant ${shrink} : f64
          %plast = arith.subi %npairs, %c1 : index
          %valid = arith.cmpi ult, %p, %npairs : index
          %pc = arith.minui %p, %plast : index
          %x, %u = func.call @node64(%xtab, %pc) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (f64, f64)
          %mrow = arith.muli %m, %npairs : index
          %srow = arith.addi %mrow, %pc : index
          %ys = memref.load %seed64[%srow, %c0] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
          %kf = memref.load %seed64[%srow, %c1] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
          %y, %lev = func.call @seed64(%ys, %kf) : (f64, f64) -> (f64, i64)
          %ya = arith.mulf %y, %am : f64
          %y0 = arith.select %valid, %ya, %zero : f64
          %c0l = arith.constant 0 : i64
          %live = arith.cmpi eq, %lev, %c0l : i64
          %scale = arith.select %live, %one, %down : f64
          %g:4 = func.call @parts64(%F, %wtab64, %x, %p, %npairs, %nlat, %b, %m)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                 f64, index, index, index, index, index) -> (f64, f64, f64, f64)
          %g0 = arith.mulf %g#0, %scale : f64
          %g1 = arith.mulf %g#1, %scale : f64
          %g2 = arith.mulf %g#2, %scale : f64
          %g3 = arith.mulf %g#3, %scale : f64
          return %u, %y0, %g0, %g1, %g2, %g3 : f64, f64, f64, f64, f64, f64
        }

        // Pair %p's chain state (y_{kb-1}, y_kb) at the first step kb = s ${segment} - 1 of segment
        // %seg > 0 of order %m: row rows[m] + s - 1 of the restart table; (0, %y0) in the
        // first segment.
        func.func private @restart(%rows: memref<?xf64, #hal.descriptor_type<storage_buffer>>, %tab: memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
            %m: index, %seg: index, %p: index, %npairs: index, %y0: f64) -> (f64, f64) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %zero = arith.constant 0.0 : f64
          %first = arith.cmpi eq, %seg, %c0 : index
          %r:2 = scf.if %first -> (f64, f64) {
            scf.yield %zero, %y0 : f64, f64
          } else {
            %rf = memref.load %rows[%m] : memref<?xf64, #hal.descriptor_type<storage_buffer>>
            %ri = arith.fptoui %rf : f64 to i32
            %r0 = arith.index_castui %ri : i32 to index
            %r1 = arith.addi %r0, %seg : index
            %row = arith.subi %r1, %c1 : index
            %plast = arith.subi %npairs, %c1 : index
            %pc = arith.minui %p, %plast : index
            %rn = arith.muli %row, %npairs : index
            %i = arith.addi %rn, %pc : index
            %a = memref.load %tab[%i, %c0] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            %b = memref.load %tab[%i, %c1] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            scf.yield %a, %b : f64, f64
          }
          return %r#0, %r#1 : f64, f64
        }

${steps}
        // Sum %v (4 step + part) of the span, over the ${ng} groups' columns.
        func.func private @row_total(%part: memref<${part_size}xf64, #gpu.address_space<workgroup>>,
            %v: index) -> f64 {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %cng = arith.constant ${ng} : index
          %ccol = arith.constant ${col} : index
          %zero = arith.constant 0.0 : f64
          %o0 = arith.muli %v, %ccol : index
          %s:2 = scf.for %g = %c0 to %cng step %c2 iter_args(%a = %zero, %a2 = %zero) -> (f64, f64) {
            %o = arith.addi %o0, %g : index
            %o1 = arith.addi %o, %c1 : index
            %x = memref.load %part[%o] : memref<${part_size}xf64, #gpu.address_space<workgroup>>
            %x1 = memref.load %part[%o1] : memref<${part_size}xf64, #gpu.address_space<workgroup>>
            %n = arith.addf %a, %x : f64
            %n2 = arith.addf %a2, %x1 : f64
            scf.yield %n, %n2 : f64, f64
          }
          %r = arith.addf %s#0, %s#1 : f64
          return %r : f64
        }

        // Sum %t of the span (step k = %k0 + t / 4, part c = t % 4: even re, im, odd re, im)
        // into q: q_{m+2k} = e1_k S_k + e2_{k-1} S_{k-1} (S_{-1} = 0; S_{k-1} of the span's
        // first step is the previous span's last, sums[c]), q_{m+2k+1} = g_k O_k for
        // m + 2k + 1 <= L and k >= %kw (the segment's); added to q past the first chunk.
        func.func private @finish(%sums: memref<${sums_size}xf64, #gpu.address_space<workgroup>>,
            %chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %q: memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %t: index, %k0: index, %kw: index, %row0: index, %lmm: index, %mstart: index, %b: index,
            %first: i1) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %zero = arith.constant 0.0 : f64
          %j = arith.divui %t, %c4 : index
          %c = arith.remui %t, %c4 : index
          %k = arith.addi %k0, %j : index
          %t4 = arith.addi %t, %c4 : index
          %S = memref.load %sums[%t4] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
          %row = arith.addi %row0, %k : index
          %k2 = arith.muli %k, %c2 : index
          %idx = arith.addi %mstart, %k2 : index
          %even = arith.cmpi ult, %c, %c2 : index
          %k21 = arith.addi %k2, %c1 : index
          %lk = arith.select %even, %k2, %k21 : index
          %inl = arith.cmpi ule, %lk, %lmm : index
          %ours = arith.cmpi uge, %k, %kw : index
          %in = arith.andi %inl, %ours : i1
          scf.if %in {
            %v = scf.if %even -> (f64) {
              %Sp = memref.load %sums[%t] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
              %e1 = memref.load %chain[%row, %c2] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
              %kpos = arith.cmpi ugt, %k, %c0 : index
              %e2p = scf.if %kpos -> (f64) {
                %rowp = arith.subi %row, %c1 : index
                %e = memref.load %chain[%rowp, %c3] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
                scf.yield %e : f64
              } else {
                scf.yield %zero : f64
              }
              %a = arith.mulf %e2p, %Sp : f64
              %r = math.fma %e1, %S, %a : f64
              scf.yield %r : f64
            } else {
              %g = memref.load %chain[%row, %c4] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
              %r = arith.mulf %g, %S : f64
              scf.yield %r : f64
            }
            %idx1 = arith.addi %idx, %c1 : index
            %at = arith.select %even, %idx, %idx1 : index
            %cm2 = arith.subi %c, %c2 : index
            %comp = arith.select %even, %c, %cm2 : index
            %vn = func.call @narrow(%v) : (f64) -> ${ft}
            scf.if %first {
              memref.store %vn, %q[%b, %at, %comp] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            } else {
              %old = memref.load %q[%b, %at, %comp] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              %sum = arith.addf %old, %vn : ${ft}
              memref.store %sum, %q[%b, %at, %comp] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            }
          }
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [${wg}, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %cwg = arith.constant ${wg} : index
          %cspan = arith.constant ${span} : index
          %cchunk = arith.constant ${chunk} : index
          %ccol = arith.constant ${col} : index
          %two = arith.constant 2.0 : f64
          %three = arith.constant 3.0 : f64
          %zero = arith.constant 0.0 : f64
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
          %nchain = func.call @chain_rows(%lmax, %mmax) : (index, index) -> index
          %xtab = hal.interface.binding.subspan layout(#leg_analys_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %seed64 = hal.interface.binding.subspan layout(#leg_analys_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>{%nseed}
          %polar = hal.interface.binding.subspan layout(#leg_analys_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
          %chain = hal.interface.binding.subspan layout(#leg_analys_layout) binding(3) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>{%nchain}
          %wtab64 = hal.interface.binding.subspan layout(#leg_analys_layout) binding(4) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?xf64, #hal.descriptor_type<storage_buffer>>{%npairs}
          %F = hal.interface.binding.subspan layout(#leg_analys_layout) binding(${binding_F}) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlat, %mc}
          %q = hal.interface.binding.subspan layout(#leg_analys_layout) binding(${binding_q}) alignment(64) offset(%c0)
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlm}
${restart_bindings}

          // the groups' sums of a span: ${nv} rows (4 step + part) of ${col} (${ng} groups and
          // a pad that keeps a row's neighbours in other banks); the span's totals after
          // four of the previous span's last step; the staged (alpha, beta)
          %part = memref.alloc() : memref<${part_size}xf64, #gpu.address_space<workgroup>>
          %sums = memref.alloc() : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
          %ab_s = memref.alloc() : memref<${span}x2xf64, #gpu.address_space<workgroup>>

          %tid = gpu.thread_id x
          %wid = hal.interface.workgroup.id[0] : index
          %cmc = arith.constant ${mc} : index
          %m = arith.remui %wid, %cmc : index
          %seg = arith.divui %wid, %cmc : index
          %csegment = arith.constant ${segment} : index
          %b = hal.interface.workgroup.id[1] : index
          %c = arith.remui %tid, %c4 : index
          %grp = arith.divui %tid, %c4 : index
          %ccc = arith.muli %c, %ccol : index
          %colc = arith.addi %ccc, %grp : index
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %lmm = arith.subi %lmax, %m : index
          %kmax = arith.divui %lmm, %c2 : index
          %nsteps = arith.addi %kmax, %c1 : index
          // the segment: q of steps kw .. ke - 1, sums from kb (kw - 1 past the first)
          %kw = arith.muli %seg, %csegment : index
          %kw1 = arith.maxui %kw, %c1 : index
          %kb = arith.subi %kw1, %c1 : index
          %kwe = arith.addi %kw, %csegment : index
          %ke = arith.minui %kwe, %nsteps : index
          %busy = arith.cmpi ult, %kw, %nsteps : index
          %nrun = arith.subi %ke, %kb : index
          %nspans0 = arith.subi %nrun, %c1 : index
          %nspans1 = arith.divui %nspans0, %cspan : index
          %nspans = arith.addi %nspans1, %c1 : index
          %row0 = func.call @chain_row0(%lmax, %m) : (index, index) -> index
          // first index of order m in the m-major layout of q: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          %mi = arith.index_castui %m : index to i64
          %mf = arith.uitofp %mi : i64 to f64
          %m2 = math.fma %two, %mf, %three : f64
          %am = math.sqrt %m2 : f64
          // chunks of ${chunk} pairs from skip (at least one: an order that skips every pair
          // writes zeros)
          %live = arith.cmpi ult, %skip, %npairs : index
          %rest = arith.subi %npairs, %skip : index
          %pairs = arith.select %live, %rest, %c0 : index
          %ch0 = arith.addi %pairs, %cchunk : index
          %ch1 = arith.subi %ch0, %c1 : index
          %nch0 = arith.divui %ch1, %cchunk : index
          %nch = arith.maxui %nch0, %c1 : index
          %cwg1 = arith.constant ${wg_minus_1} : index
          scf.if %busy {
            scf.for %ch = %c0 to %nch step %c1 {
              %first = arith.cmpi eq, %ch, %c0 : index
              %chp = arith.muli %ch, %cchunk : index
              %cp0 = arith.addi %skip, %chp : index
              %cp = arith.addi %cp0, %tid : index
              // the pairs per thread the chunk's pairs need
              %pleft = arith.subi %pairs, %chp : index
              %pleft1 = arith.addi %pleft, %cwg1 : index
              %need = arith.divui %pleft1, %cwg : index
              %lt4 = arith.cmpi ult, %tid, %c4 : index
              scf.if %lt4 {
                memref.store %zero, %sums[%tid] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
              }
              // the part "chunk" below for the fewest pairs per thread it has a copy for that
              // are at least %need (nested scf.if)
${chunks}
              gpu.barrier  // the chunk's last totals are read
            }
          }
          return
        }
      }
    }
  }

// part: step
        // Step %j of the span, k -> k + 1 of the thread's pairs, (y0, y1) = (y_{k-1}, y_k):
        // the sums of y_k times each part over the pairs, the group's four lanes' sums added
        // up (lane %c of the group keeps sum c) and stored at row 4 %j + c of the span, in
        // the group's column (%colc: c ${col} + group), and y_{k+1} = (alpha_k u + beta_k) y_k
        // + y_{k-1} with the staged (alpha_k, beta_k). The sums, unrolled over the ${tp}
        // pairs, come from ireesht/codegen/mlir.
        func.func private @step${tp}(%part: memref<${part_size}xf64, #gpu.address_space<workgroup>>,
            %ab_s: memref<${span}x2xf64, #gpu.address_space<workgroup>>, %j: index, %colc: index,
            %c: index, %u: vector<${tp}xf64>, %g0: vector<${tp}xf64>, %g1: vector<${tp}xf64>,
            %g2: vector<${tp}xf64>, %g3: vector<${tp}xf64>, %y0: vector<${tp}xf64>, %y1: vector<${tp}xf64>)
            -> (vector<${tp}xf64>, vector<${tp}xf64>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %ccol = arith.constant ${col} : index
          %ab = vector.load %ab_s[%j, %c0] : memref<${span}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
          %al = vector.extract %ab[0] : f64 from vector<2xf64>
          %be = vector.extract %ab[1] : f64 from vector<2xf64>
          %j4 = arith.muli %j, %c4 : index
          %jr = arith.muli %j4, %ccol : index
          %o = arith.addi %jr, %colc : index
${step}
          %alv = vector.broadcast %al : f64 to vector<${tp}xf64>
          %bev = vector.broadcast %be : f64 to vector<${tp}xf64>
          %t = math.fma %alv, %u, %bev : vector<${tp}xf64>
          %yn = math.fma %t, %y1, %y0 : vector<${tp}xf64>
          return %y1, %yn : vector<${tp}xf64>, vector<${tp}xf64>
        }

// part: chunk
              // The chunk's loop with ${tp} pairs per thread.
              // the thread's pairs: u, the chain's state at kb (y_{kb-1}, y_kb) and the four
              // parts, one vector<${tp}> each
${init}
              %fin:2 = scf.for %s = %c0 to %nspans step %c1 iter_args(%ya = ${state0}, %yb = ${state1})
                  -> (vector<${tp}xf64>, vector<${tp}xf64>) {
                %ks = arith.muli %s, %cspan : index
                %k0 = arith.addi %kb, %ks : index
                %left = arith.subi %ke, %k0 : index
                %cnt = arith.minui %left, %cspan : index
                gpu.barrier  // the previous span's rows and totals are read
                %lts = arith.cmpi ult, %tid, %cspan : index
                scf.if %lts {
                  %k = arith.addi %k0, %tid : index
                  %in = arith.cmpi ult, %k, %nsteps : index
                  %rowk = arith.addi %row0, %k : index
                  %row = arith.select %in, %rowk, %row0 : index
                  %al0 = memref.load %chain[%row, %c0] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
                  %be0 = memref.load %chain[%row, %c1] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
                  memref.store %al0, %ab_s[%tid, %c0] : memref<${span}x2xf64, #gpu.address_space<workgroup>>
                  memref.store %be0, %ab_s[%tid, %c1] : memref<${span}x2xf64, #gpu.address_space<workgroup>>
                }
                gpu.barrier  // the span's (alpha, beta) are staged
                // two steps per iteration (no register moves for the state): with an odd count
                // the last runs one step past it, into a row of the span that nothing reads
                %st:2 = scf.for %j = %c0 to %cnt step %c2 iter_args(%y0 = %ya, %y1 = %yb)
                    -> (vector<${tp}xf64>, vector<${tp}xf64>) {
                  %n:2 = func.call @step${tp}(%part, %ab_s, %j, %colc, %c, %uv, %h0, %h1, %h2, %h3, %y0, %y1)
                      : (memref<${part_size}xf64, #gpu.address_space<workgroup>>, memref<${span}x2xf64, #gpu.address_space<workgroup>>,
                         index, index, index, vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>,
                         vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>) -> (vector<${tp}xf64>, vector<${tp}xf64>)
                  %j1 = arith.addi %j, %c1 : index
                  %n2:2 = func.call @step${tp}(%part, %ab_s, %j1, %colc, %c, %uv, %h0, %h1, %h2, %h3, %n#0, %n#1)
                      : (memref<${part_size}xf64, #gpu.address_space<workgroup>>, memref<${span}x2xf64, #gpu.address_space<workgroup>>,
                         index, index, index, vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>,
                         vector<${tp}xf64>, vector<${tp}xf64>, vector<${tp}xf64>) -> (vector<${tp}xf64>, vector<${tp}xf64>)
                  scf.yield %n2#0, %n2#1 : vector<${tp}xf64>, vector<${tp}xf64>
                }
                gpu.barrier  // the span's sums are stored
                %cnt4 = arith.muli %cnt, %c4 : index
                scf.for %v = %tid to %cnt4 step %cwg {
                  %tot = func.call @row_total(%part, %v) : (memref<${part_size}xf64, #gpu.address_space<workgroup>>, index) -> f64
                  %v4 = arith.addi %v, %c4 : index
                  memref.store %tot, %sums[%v4] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
                }
                gpu.barrier  // the span's totals are stored
                scf.for %t = %tid to %cnt4 step %cwg {
                  func.call @finish(%sums, %chain, %q, %t, %k0, %kw, %row0, %lmm, %mstart, %b, %first)
                      : (memref<${sums_size}xf64, #gpu.address_space<workgroup>>, memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
                         memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index,
                         index, i1) -> ()
                }
                gpu.barrier  // q is written from the totals
                scf.if %lt4 {
                  %lastv = arith.subi %cnt4, %c4 : index
                  %src = arith.addi %lastv, %c4 : index
                  %srct = arith.addi %src, %tid : index
                  %keep = memref.load %sums[%srct] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
                  memref.store %keep, %sums[%tid] : memref<${sums_size}xf64, #gpu.address_space<workgroup>>
                }
                scf.yield %st#0, %st#1 : vector<${tp}xf64>, vector<${tp}xf64>
              }
