// Legendre synthesis, F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i), by the Ishioka
// recurrence in float64 (ireesht/numerics/ishioka.py: one chain y_k per order and latitude pair, in
// u = x^2, two fused multiply-adds per two degrees; the even degrees from modified
// coefficients, the odd ones times x at the end). The plan's data (q, F, and the tables xtab
// and polar) may be float32: they are widened once, and only F is rounded back; the seeds
// (seed64) and `chain` are float64 whatever the plan's type. Stage
// contract and grid: docs/design.md, as leg_synth.mlir (the other scheme of this
// family), whose workgroup order, polar rows and careful/lean loops this kernel shares
// (legendre_core.mlir). A string.Template rendered by ireesht/codegen/mlir.
//
// A thread owns ${kp} adjacent latitude pairs and ${nf} fields: accumulators
// vector<${slots}x${at}>, slot i ${nf} + f for pair i and field f, of the even and odd parts,
// re and im apart (float32 for float32 plans with several fields per thread, each value
// rounded once: there the sums are most of the work). Steps run in spans of ${span} whose
// coefficients are staged in workgroup memory (rows thread id + 64 r); per span each vote group
// (a warp on NVIDIA) takes the lean loop once all its pairs carry true values, else the careful
// loop (rescaling checked every 8 steps). Plans whose seeds all start live leave the careful
// loop out, and so do float32 plans of one field whose lowest seeds lie one level below:
// their sums carry that level's scale to the store ("level sums"), far inside float64's range.
// Its fields are ${fields}: all B, or (beside leg_synth_mma.mlir, which takes the whole
// groups of 16) the B mod 16 past them.
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_synth_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${synth_gx} : index
${grid_yz}
        hal.return %gx, %gy, %gz : index, index, index
      } <workgroup_size = [64 : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // The values into the sums' type (${at}: float64, or float32 with ${nf} fields per
        // thread, ireesht/codegen/mlir), a staged coefficient into it, and a sum back.
        func.func private @to_sums(%v: vector<${kp}xf64>) -> vector<${kp}x${at}> {
${to_sums}
        }
        func.func private @sums_of(%v: f64) -> ${at} {
${sums_of}
        }
        func.func private @sums64(%v: ${at}) -> f64 {
${sums64}
        }

        // vector<${kp}> of pair values, and vector<${nf}> of field values, spread over the
        // (pair, field) slots: slot i ${nf} + f.
        func.func private @expand_v(%v: vector<${kp}x${at}>) -> vector<${slots}x${at}> {
${expand_v}
        }
        func.func private @expand_f(%v: vector<${nf}x${at}>) -> vector<${slots}x${at}> {
${expand_f}
        }

        // The thread's pairs p0 .. p0 + ${kp} - 1 (each clamped to %plast): x in float64 (the
        // node's hi + lo, exact), u = x^2, and the seed y_0 = a_{m+1} P_mm = sqrt(2m + 3) P_mm
        // with its exponent counter.
        func.func private @init(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>,
                                %seed64: memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
                                %m: index, %p0: index, %plast: index)
            -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ckp = arith.constant ${kp} : index
          %zf = arith.constant dense<0.0> : vector<${kp}xf64>
          %zi = arith.constant dense<0> : vector<${kp}xi64>
          %two = arith.constant 2.0 : f64
          %three = arith.constant 3.0 : f64
          %np = arith.addi %plast, %c1 : index
          %mrow = arith.muli %m, %np : index
          %mi = arith.index_castui %m : index to i64
          %mf = arith.uitofp %mi : i64 to f64
          %m2 = math.fma %two, %mf, %three : f64
          %am = math.sqrt %m2 : f64
          %r:4 = scf.for %i = %c0 to %ckp step %c1 iter_args(%xv = %zf, %uv = %zf, %yv = %zf, %kv = %zi)
              -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>) {
            %pi = arith.addi %p0, %i : index
            %p = arith.minui %pi, %plast : index
            %xh = memref.load %xtab[%p, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
            %xl = memref.load %xtab[%p, %c1] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
            %xh64 = func.call @widen(%xh) : (${ft}) -> f64
            %xl64 = func.call @widen(%xl) : (${ft}) -> f64
            %x = arith.addf %xh64, %xl64 : f64
            %u = arith.mulf %x, %x : f64
            %srow = arith.addi %mrow, %p : index
            %ys = memref.load %seed64[%srow, %c0] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            %kf = memref.load %seed64[%srow, %c1] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            %y, %k = func.call @seed64(%ys, %kf) : (f64, f64) -> (f64, i64)
            %ya = arith.mulf %y, %am : f64
            %xv2 = vector.insert %x, %xv[%i] : f64 into vector<${kp}xf64>
            %uv2 = vector.insert %u, %uv[%i] : f64 into vector<${kp}xf64>
            %yv2 = vector.insert %ya, %yv[%i] : f64 into vector<${kp}xf64>
            %kv2 = vector.insert %k, %kv[%i] : i64 into vector<${kp}xi64>
            scf.yield %xv2, %uv2, %yv2, %kv2 : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>
          }
          return %r#0, %r#1, %r#2, %r#3 : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>
        }

        // One step of the span (row %j of the staged coefficients): the even and odd sums
        // take y_k (times the live factor %sk when careful), then
        // y_{k+1} = (alpha u + beta) y_k + y_{k-1}. Returns (y_{k+1}, y_k, sums).
        func.func private @one(%careful: i1, %u: vector<${kp}xf64>,
            %ab_s: memref<${span}x2xf64, #gpu.address_space<workgroup>>,
            %q_s: memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, %j: index,
            %y1: vector<${kp}xf64>, %y0: vector<${kp}xf64>, %sk: vector<${kp}xf64>,
            %er: vector<${slots}x${at}>, %ei: vector<${slots}x${at}>, %or: vector<${slots}x${at}>, %oi: vector<${slots}x${at}>)
            -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %v = scf.if %careful -> (vector<${kp}xf64>) {
            %r = arith.mulf %y1, %sk : vector<${kp}xf64>
            scf.yield %r : vector<${kp}xf64>
          } else {
            scf.yield %y1 : vector<${kp}xf64>
          }
          %va = func.call @to_sums(%v) : (vector<${kp}xf64>) -> vector<${kp}x${at}>
          %ve = func.call @expand_v(%va) : (vector<${kp}x${at}>) -> vector<${slots}x${at}>
          %qer = vector.load %q_s[%j, %c0, %c0] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, vector<${nf}x${at}>
          %qei = vector.load %q_s[%j, %c1, %c0] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, vector<${nf}x${at}>
          %qor = vector.load %q_s[%j, %c2, %c0] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, vector<${nf}x${at}>
          %qoi = vector.load %q_s[%j, %c3, %c0] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, vector<${nf}x${at}>
          %wer = func.call @expand_f(%qer) : (vector<${nf}x${at}>) -> vector<${slots}x${at}>
          %wei = func.call @expand_f(%qei) : (vector<${nf}x${at}>) -> vector<${slots}x${at}>
          %wor = func.call @expand_f(%qor) : (vector<${nf}x${at}>) -> vector<${slots}x${at}>
          %woi = func.call @expand_f(%qoi) : (vector<${nf}x${at}>) -> vector<${slots}x${at}>
          %er2 = math.fma %ve, %wer, %er : vector<${slots}x${at}>
          %ei2 = math.fma %ve, %wei, %ei : vector<${slots}x${at}>
          %or2 = math.fma %ve, %wor, %or : vector<${slots}x${at}>
          %oi2 = math.fma %ve, %woi, %oi : vector<${slots}x${at}>
          %ab = vector.load %ab_s[%j, %c0] : memref<${span}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
          %al = vector.extract %ab[0] : f64 from vector<2xf64>
          %be = vector.extract %ab[1] : f64 from vector<2xf64>
          %alv = vector.broadcast %al : f64 to vector<${kp}xf64>
          %bev = vector.broadcast %be : f64 to vector<${kp}xf64>
          %t = math.fma %alv, %u, %bev : vector<${kp}xf64>
          %y = math.fma %t, %y1, %y0 : vector<${kp}xf64>
          return %y, %y1, %er2, %ei2, %or2, %oi2
              : vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>
        }

        // Steps 0 .. %cnt4 - 1 of the span (k = %base + j), four per iteration, then the
        // checkpoint (@checkpoint: every 8 steps in a careful loop). %careful is a constant at
        // each call site.
        func.func private @span(%careful: i1, %u: vector<${kp}xf64>,
            %ab_s: memref<${span}x2xf64, #gpu.address_space<workgroup>>,
            %q_s: memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, %base: index, %cnt4: index,
            %y1: vector<${kp}xf64>, %y0: vector<${kp}xf64>, %k: vector<${kp}xi64>,
            %er: vector<${slots}x${at}>, %ei: vector<${slots}x${at}>, %or: vector<${slots}x${at}>, %oi: vector<${slots}x${at}>)
            -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %sk0 = func.call @live_factor(%k) : (vector<${kp}xi64>) -> vector<${kp}xf64>
          %r:8 = scf.for %j = %c0 to %cnt4 step %c4
              iter_args(%a1 = %y1, %a0 = %y0, %ak = %k, %sk = %sk0, %a3 = %er, %a4 = %ei, %a5 = %or, %a6 = %oi)
              -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>) {
            %s0:6 = func.call @one(%careful, %u, %ab_s, %q_s, %j, %a1, %a0, %sk, %a3, %a4, %a5, %a6)
                : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index,
                   vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                  -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
            %j1 = arith.addi %j, %c1 : index
            %s1:6 = func.call @one(%careful, %u, %ab_s, %q_s, %j1, %s0#0, %s0#1, %sk, %s0#2, %s0#3, %s0#4, %s0#5)
                : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index,
                   vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                  -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
            %j2 = arith.addi %j, %c2 : index
            %s2:6 = func.call @one(%careful, %u, %ab_s, %q_s, %j2, %s1#0, %s1#1, %sk, %s1#2, %s1#3, %s1#4, %s1#5)
                : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index,
                   vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                  -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
            %j3 = arith.addi %j, %c3 : index
            %s3:6 = func.call @one(%careful, %u, %ab_s, %q_s, %j3, %s2#0, %s2#1, %sk, %s2#2, %s2#3, %s2#4, %s2#5)
                : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index,
                   vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                  -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
            %rs:4 = func.call @checkpoint(%careful, %base, %j, %s3#0, %s3#1, %ak, %sk)
                : (i1, index, index, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${kp}xf64>) -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${kp}xf64>)
            scf.yield %rs#0, %rs#1, %rs#2, %rs#3, %s3#2, %s3#3, %s3#4, %s3#5
                : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${kp}xf64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>
          }
          return %r#0, %r#1, %r#2, %r#4, %r#5, %r#6, %r#7
              : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>
        }

        // F[%b][%i][%m] = (%re, %im). On CUDA one store of both, aligned to the pair: the
        // lanes' stores hit a sector each (rows mc apart), and as two stores twice as many
        // (IREE's SPIR-V lowering takes no vector store into this buffer: two there).
        func.func private @put(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %b: index, %i: index, %m: index, %re: ${ft}, %im: ${ft}) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
${put}
          return
        }

        // F of the fields of the thread's pairs, rounded once to the plan's type: the even
        // part plus (north row p0 + i) or minus (its mirror NL-1-p0-i) x times the odd sum.
        // With level sums, a pair's sums still carry its level's scale 2^(-S k) and take its
        // live factor here (one level at most: ireesht/codegen/mlir/ishioka.py synth_values).
        func.func private @store(
            %F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %p0: index, %nlat: index, %npairs: index, %nfields: index, %b0: index, %m: index, %x: vector<${kp}xf64>,
            %k: vector<${kp}xi64>,
            %er: vector<${slots}x${at}>, %ei: vector<${slots}x${at}>, %or: vector<${slots}x${at}>, %oi: vector<${slots}x${at}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ckp = arith.constant ${kp} : index
          %cnf = arith.constant ${nf} : index
          %last = arith.subi %nlat, %c1 : index
          %level_sums = arith.constant ${level_sums}
          %one = arith.constant dense<1.0> : vector<${kp}xf64>
          %lf = func.call @live_factor(%k) : (vector<${kp}xi64>) -> vector<${kp}xf64>
          %fac = arith.select %level_sums, %lf, %one : vector<${kp}xf64>
          scf.for %i = %c0 to %ckp step %c1 {
            %i_n = arith.addi %p0, %i : index
            %row = arith.cmpi ult, %i_n, %npairs : index
            scf.if %row {
              %i_s = arith.subi %last, %i_n : index
              %two = arith.cmpi ne, %i_s, %i_n : index
              %xi = vector.extract %x[%i] : f64 from vector<${kp}xf64>
              %fi = vector.extract %fac[%i] : f64 from vector<${kp}xf64>
              %slot0 = arith.muli %i, %cnf : index
              scf.for %f = %c0 to %cnf step %c1 {
                %b = arith.addi %b0, %f : index
                %in = arith.cmpi ult, %b, %nfields : index
                scf.if %in {
                  %s = arith.addi %slot0, %f : index
                  %vr0 = vector.extract %er[%s] : ${at} from vector<${slots}x${at}>
                  %vi0 = vector.extract %ei[%s] : ${at} from vector<${slots}x${at}>
                  %wr0 = vector.extract %or[%s] : ${at} from vector<${slots}x${at}>
                  %wi0 = vector.extract %oi[%s] : ${at} from vector<${slots}x${at}>
                  %vr1 = func.call @sums64(%vr0) : (${at}) -> f64
                  %vi1 = func.call @sums64(%vi0) : (${at}) -> f64
                  %wr1 = func.call @sums64(%wr0) : (${at}) -> f64
                  %wi1 = func.call @sums64(%wi0) : (${at}) -> f64
                  %vr = arith.mulf %vr1, %fi : f64
                  %vi = arith.mulf %vi1, %fi : f64
                  %wr = arith.mulf %wr1, %fi : f64
                  %wi = arith.mulf %wi1, %fi : f64
                  %nr = math.fma %xi, %wr, %vr : f64
                  %ni = math.fma %xi, %wi, %vi : f64
                  %nr1 = func.call @narrow(%nr) : (f64) -> ${ft}
                  %ni1 = func.call @narrow(%ni) : (f64) -> ${ft}
                  func.call @put(%F, %b, %i_n, %m, %nr1, %ni1) : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
                  scf.if %two {
                    %nx = arith.negf %xi : f64
                    %sr = math.fma %nx, %wr, %vr : f64
                    %si = math.fma %nx, %wi, %vi : f64
                    %sr1 = func.call @narrow(%sr) : (f64) -> ${ft}
                    %si1 = func.call @narrow(%si) : (f64) -> ${ft}
                    func.call @put(%F, %b, %i_s, %m, %sr1, %si1) : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
                  }
                }
              }
            }
          }
          return
        }

        // Row %r (< ${span}) of the span's staged coefficients: step k = %base + %r of order m
        // (alpha, beta; the fields' qe = e1 Q_{m+2k} + e2 Q_{m+2k+2} and qo = g Q_{m+2k+1},
        // each Q past lmax zero); zeros past the last step, so that the loops may run to a
        // multiple of 4 (alpha = beta = 0 and zero coefficients change no sum).
        func.func private @stage(%chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %q: memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %ab_s: memref<${span}x2xf64, #gpu.address_space<workgroup>>,
            %q_s: memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>,
            %r: index, %base: index, %nsteps: index, %row0: index, %m: index, %lmax: index,
            %mstart: index, %nfields: index, %b0: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : f64
          %k = arith.addi %base, %r : index
          %in = arith.cmpi ult, %k, %nsteps : index
          %row1 = arith.addi %row0, %k : index
          %row = arith.select %in, %row1, %row0 : index
          %al0 = memref.load %chain[%row, %c0] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %be0 = memref.load %chain[%row, %c1] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %e10 = memref.load %chain[%row, %c2] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %e20 = memref.load %chain[%row, %c3] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %g0 = memref.load %chain[%row, %c4] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %al = arith.select %in, %al0, %zero : f64
          %be = arith.select %in, %be0, %zero : f64
          memref.store %al, %ab_s[%r, %c0] : memref<${span}x2xf64, #gpu.address_space<workgroup>>
          memref.store %be, %ab_s[%r, %c1] : memref<${span}x2xf64, #gpu.address_space<workgroup>>
          // degrees l = m + 2k, l + 1, l + 2 and their indices from the order's first
          %k2 = arith.muli %k, %c2 : index
          %l = arith.addi %m, %k2 : index
          %l1 = arith.addi %l, %c1 : index
          %l2 = arith.addi %l, %c2 : index
          %ha = arith.cmpi ule, %l, %lmax : index
          %hc = arith.cmpi ule, %l1, %lmax : index
          %hb = arith.cmpi ule, %l2, %lmax : index
          %va = arith.andi %in, %ha : i1
          %vc = arith.andi %in, %hc : i1
          %vb = arith.andi %in, %hb : i1
          %ia0 = arith.addi %mstart, %k2 : index
          %ia = arith.select %va, %ia0, %mstart : index
          %ic0 = arith.addi %ia0, %c1 : index
          %ic = arith.select %vc, %ic0, %mstart : index
          %ib0 = arith.addi %ia0, %c2 : index
          %ib = arith.select %vb, %ib0, %mstart : index
          %e1 = arith.select %va, %e10, %zero : f64
          %e2 = arith.select %vb, %e20, %zero : f64
          %g = arith.select %vc, %g0, %zero : f64
          %blast = arith.subi %nfields, %c1 : index
          scf.for %f = %c0 to %cnf step %c1 {
            %b = arith.addi %b0, %f : index
            %bc = arith.minui %b, %blast : index
            %qar = memref.load %q[%bc, %ia, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %qai = memref.load %q[%bc, %ia, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %qbr = memref.load %q[%bc, %ib, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %qbi = memref.load %q[%bc, %ib, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %qcr = memref.load %q[%bc, %ic, %c0] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %qci = memref.load %q[%bc, %ic, %c1] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %ar = func.call @widen(%qar) : (${ft}) -> f64
            %ai = func.call @widen(%qai) : (${ft}) -> f64
            %br = func.call @widen(%qbr) : (${ft}) -> f64
            %bi = func.call @widen(%qbi) : (${ft}) -> f64
            %cr = func.call @widen(%qcr) : (${ft}) -> f64
            %ci = func.call @widen(%qci) : (${ft}) -> f64
            %ber = arith.mulf %e2, %br : f64
            %bei = arith.mulf %e2, %bi : f64
            %er = math.fma %e1, %ar, %ber : f64
            %ei = math.fma %e1, %ai, %bei : f64
            %or = arith.mulf %g, %cr : f64
            %oi = arith.mulf %g, %ci : f64
            %ser = func.call @sums_of(%er) : (f64) -> ${at}
            %sei = func.call @sums_of(%ei) : (f64) -> ${at}
            %sor = func.call @sums_of(%or) : (f64) -> ${at}
            %soi = func.call @sums_of(%oi) : (f64) -> ${at}
            memref.store %ser, %q_s[%r, %c0, %f] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>
            memref.store %sei, %q_s[%r, %c1, %f] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>
            memref.store %sor, %q_s[%r, %c2, %f] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>
            memref.store %soi, %q_s[%r, %c3, %f] : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>
          }
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [64, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %cspan = arith.constant ${span} : index
          %c64 = arith.constant 64 : index
          %four = arith.constant -4 : index  // ~3: n & four rounds n down to a multiple of 4
          %ckp = arith.constant ${kp} : index
          %cnf = arith.constant ${nf} : index
          %true = arith.constant true
          %false = arith.constant false
          %z4 = arith.constant dense<0.0> : vector<${slots}x${at}>
          %zk = arith.constant dense<0.0> : vector<${kp}xf64>
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
          %nchain = func.call @chain_rows(%lmax, %mmax) : (index, index) -> index
          %xtab = hal.interface.binding.subspan layout(#leg_synth_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>{%npairs}
          %seed64 = hal.interface.binding.subspan layout(#leg_synth_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>{%nseed}
          %polar = hal.interface.binding.subspan layout(#leg_synth_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%mc}
          %chain = hal.interface.binding.subspan layout(#leg_synth_layout) binding(3) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>{%nchain}
          %q = hal.interface.binding.subspan layout(#leg_synth_layout) binding(4) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlm}
          %F = hal.interface.binding.subspan layout(#leg_synth_layout) binding(5) alignment(64) offset(%c0)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlat, %mc}

          // one span of ${span} steps staged in workgroup memory, read by every thread
          %ab_s = memref.alloc() : memref<${span}x2xf64, #gpu.address_space<workgroup>>
          %q_s = memref.alloc() : memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>

          %lid = gpu.thread_id x
          %hx = hal.interface.workgroup.id[0] : index
          %hy = hal.interface.workgroup.id[1] : index
          %wx, %m = func.call @workgroup_of(%hx, %hy, %mc) : (index, index, index) -> (index, index)
          %wz = hal.interface.workgroup.id[2] : index
          %b0w = arith.muli %wz, %cnf : index
${first_field}
          %b0 = arith.addi %b0w, %bfirst : index
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
          %pairs_left = arith.cmpi ult, %wfirst, %npairs : index
          %fields_left = arith.cmpi ult, %b0, %nfields : index
          %busy = arith.andi %pairs_left, %fields_left : i1
          // first index of order m in the m-major layout of q: m (2 L + 3 - m) / 2
          %l2 = arith.muli %lmax, %c2 : index
          %l23 = arith.addi %l2, %c3 : index
          %l23m = arith.subi %l23, %m : index
          %mm = arith.muli %m, %l23m : index
          %mstart = arith.divui %mm, %c2 : index
          // steps of order m: (L - m) / 2 + 1; a workgroup whose pairs all lie past the last
          // one runs none
          %lmm = arith.subi %lmax, %m : index
          %half = arith.divui %lmm, %c2 : index
          %ns0 = arith.addi %half, %c1 : index
          %nsteps = arith.select %busy, %ns0, %c0 : index
          %row0 = func.call @chain_row0(%lmax, %m) : (index, index) -> index

          // past the last pair, a thread repeats it (and stores nothing)
          %plast = arith.subi %npairs, %c1 : index
          %idle = arith.cmpi uge, %p0, %npairs : index
          %x, %u, %yseed, %k0 = func.call @init(%xtab, %seed64, %m, %p0, %plast)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
                 index, index, index) -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>)
          // true when the plan needs no careful loop (every seed starts live, or the sums
          // carry the one level below: ireesht/codegen/mlir): it then folds away
          %lean_only = arith.constant ${lean_only}

          %st:8 = scf.for %base = %c0 to %nsteps step %cspan
              iter_args(%y1 = %yseed, %y0 = %zk, %k = %k0, %er = %z4, %ei = %z4, %or = %z4, %oi = %z4, %n = %n0)
              -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>,
                  vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, index) {
            gpu.barrier  // the previous span is consumed
            // a thread past the last pair runs no step, and votes live
            %mine0 = func.call @live(%k) : (vector<${kp}xi64>) -> i1
            %mine = arith.ori %mine0, %idle : i1
            func.call @vote(%flags, %n, %lid, %mine) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index, i1) -> ()
            scf.for %srow = %lid to %cspan step %c64 {
              func.call @stage(%chain, %q, %ab_s, %q_s, %srow, %base, %nsteps, %row0, %m, %lmax, %mstart, %nfields, %b0)
                  : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                     memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>,
                     index, index, index, index, index, index, index, index, index) -> ()
            }
            gpu.barrier
            %left = arith.subi %nsteps, %base : index
            %cnt = arith.minui %left, %cspan : index
            %cnt3 = arith.addi %cnt, %c3 : index
            %cnt40 = arith.andi %cnt3, %four : index
            %cnt4 = arith.select %idle, %c0, %cnt40 : index
            %voted = func.call @all_live(%flags, %n, %lid) : (memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, index, index) -> i1
            %live = arith.ori %voted, %lean_only : i1
            %sp:7 = scf.if %live -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>) {
              %w:7 = func.call @span(%false, %u, %ab_s, %q_s, %base, %cnt4, %y1, %y0, %k, %er, %ei, %or, %oi)
                  : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index, index,
                     vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                    -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
              scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>
            } else {
              %w:7 = func.call @span(%true, %u, %ab_s, %q_s, %base, %cnt4, %y1, %y0, %k, %er, %ei, %or, %oi)
                  : (i1, vector<${kp}xf64>, memref<${span}x2xf64, #gpu.address_space<workgroup>>, memref<${span}x4x${nf}x${at}, #gpu.address_space<workgroup>>, index, index,
                     vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
                    -> (vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>)
              scf.yield %w#0, %w#1, %w#2, %w#3, %w#4, %w#5, %w#6 : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>
            }
            %n1 = arith.addi %n, %c1 : index
            scf.yield %sp#0, %sp#1, %sp#2, %sp#3, %sp#4, %sp#5, %sp#6, %n1
                : vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xi64>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, index
          }

          func.call @store(%F, %p0, %nlat, %npairs, %nfields, %b0, %m, %x, %st#2, %st#3, %st#4, %st#5, %st#6)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, vector<${kp}xf64>, vector<${kp}xi64>,
                 vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>, vector<${slots}x${at}>) -> ()
          return
        }
      }
    }
  }
