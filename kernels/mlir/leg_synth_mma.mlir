// Legendre synthesis of float32 batches on NVIDIA tensor cores: the Ishioka recurrence in
// float64 (ireesht/numerics/ishioka.py, as leg_synth_ishioka.mlir) makes each pair's values, and the
// sums over the steps are matrix products per order: E = P_e Q_e and O = Y Q_o, P_e (pairs x
// steps) the even degrees' values P_{m+2k} = e1_k y_k + e2_{k-1} y_{k-1} (in float64, so
// that no cancellation next to the equator is left to the float32 sums), Y the chain values
// y_k, Q_e the coefficients Q_{m+2k} and Q_o = g_k Q_{m+2k+1} of ${nf} fields (re, im). CUDA
// only (nvgpu.mma.sync, m16n8k8 on tf32): every float32 value v enters as hi + lo, each a
// tf32 (10 bits), and each product as lo hi + hi lo + hi hi in float32 (3xTF32), about
// float32's accuracy. For plans whose seeds all start live (no careful loop;
// registry variant tensor_cores). Stage contract and grid: docs/design.md, as
// leg_synth.mlir, over the whole groups of ${nf} fields only: leg_synth_ishioka.mlir takes
// the B mod ${nf} fields past them (with no whole group, one row of workgroups runs no step).
// A string.Template rendered by ireesht/codegen/mlir.
//
// A workgroup holds ${wpairs} pairs of one order and ${nf} fields: warp w (of ${warps}) the 16
// pairs from skip + ${wpairs} wx + 16 w, one tile of the products' rows. Lane (g, t) = (l / 4,
// l % 4) holds the fragments of rows (pairs) g and g + 8, and of k slots t and t + 4, which
// stand for steps 2t and 2t + 1 of each group of 8 (the slots' order is free as long as both
// factors agree): so the lane runs the chains of its two pairs itself (each chain four times
// over in the warp, which float64's half rate affords), in windows of 8 steps shifted by 2t
// (a warm-up of 2t steps first), and keeps the first two values of each window; no value of
// Y crosses lanes. Columns 2 f and 2 f + 1 hold field f's re and im, in tiles of 8 (four fields): a
// lane's accumulators hold E and O of the same values. The products of two k (16 steps) chain
// in a tile of zeros and are then added to the sums: a tensor core rounds its float32 sums
// toward zero, and chained over an order's steps that cost 12x the error (H200, lmax 1023:
// 2.6e-6 against 2.2e-7).
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_synth_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${synth_gx} : index
        // no whole group (B < ${nf}): one row of workgroups, which run nothing
        %gz = affine.max affine_map<()[s0] -> (s0 floordiv ${nf}, 1)>()[%b]
        %cnfg = arith.constant ${nf} : index
        %one = arith.constant 1 : index
        %mcg = arith.constant ${mc} : index
        %some = arith.cmpi uge, %b, %cnfg : index
        %gy = arith.select %some, %mcg, %one : index
        hal.return %gx, %gy, %gz : index, index, index
      } <workgroup_size = [${wg} : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // Row %r (< ${span}) of the span's staged coefficients, fields %b0 + %f0 .. + ${part} - 1
        // of the workgroup's: column 2 f + c of field f (c: re, im) holds Q_{m+2k}, column
        // 2 ${nf} + 2 f + c g_k Q_{m+2k+1}, each Q past lmax zero, as tf32 hi and lo (in
        // float32: the split keeps about 22 bits); zeros past the last step. Steps 2u and 2u +
        // 1 take floats 4u .. 4u + 3 of the column's row as (hi 2u, hi 2u + 1, lo 2u, lo 2u +
        // 1): a lane's B fragments hi and lo, one 16-byte load, come as the register pairs
        // the products take (with (hi, lo) per step, 90 of the 356 instructions of the loop
        // of 16 steps were register moves). The loads come first, unrolled.
        func.func private @stage_coef(%chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %q: memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %c_s: memref<${c_size}xf32, #gpu.address_space<workgroup>>,
            %r: index, %f0: index, %base: index, %nsteps: index, %row0: index, %m: index,
            %lmax: index, %mstart: index, %nfields: index, %b0: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %ccs = arith.constant ${col_stride} : index
          %k = arith.addi %base, %r : index
          %in = arith.cmpi ult, %k, %nsteps : index
          %row1 = arith.addi %row0, %k : index
          %row = arith.select %in, %row1, %row0 : index
          %g0 = memref.load %chain[%row, %c4] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          // degrees l = m + 2k, l + 1 and their indices from the order's first
          %k2 = arith.muli %k, %c2 : index
          %l = arith.addi %m, %k2 : index
          %l1 = arith.addi %l, %c1 : index
          %ha = arith.cmpi ule, %l, %lmax : index
          %hc = arith.cmpi ule, %l1, %lmax : index
          %va = arith.andi %in, %ha : i1
          %vc = arith.andi %in, %hc : i1
          %ia0 = arith.addi %mstart, %k2 : index
          %ia = arith.select %va, %ia0, %mstart : index
          %ic0 = arith.addi %ia0, %c1 : index
          %ic = arith.select %vc, %ic0, %mstart : index
          %ge0 = arith.truncf %g0 : f64 to f32
          %fz = arith.constant 0.0 : f32
          %fone = arith.constant 1.0 : f32
          %fe = arith.select %va, %fone, %fz : f32
          %fo = arith.select %vc, %ge0, %fz : f32
          %blast = arith.subi %nfields, %c1 : index
          // hi at 2r - r % 2, lo two floats on
          %r2 = arith.muli %r, %c2 : index
          %rodd = arith.remui %r, %c2 : index
          %rh = arith.subi %r2, %rodd : index
          %bf = arith.addi %b0, %f0 : index
          %fc = arith.muli %f0, %c2 : index
          %fco = arith.muli %fc, %ccs : index
          %ro = arith.addi %fco, %rh : index
${stage_fields}
          return
        }

        // Q's tf32 hi at %o of c_s, its lo at %o + 2.
        func.func private @put_coef(%c_s: memref<${c_size}xf32, #gpu.address_space<workgroup>>,
            %o: index, %v: f32) {
          %c2 = arith.constant 2 : index
          %hi = func.call @tf32(%v) : (f32) -> f32
          %lo0 = arith.subf %v, %hi : f32
          %lo = func.call @tf32(%lo0) : (f32) -> f32
          %o2 = arith.addi %o, %c2 : index
          memref.store %hi, %c_s[%o] : memref<${c_size}xf32, #gpu.address_space<workgroup>>
          memref.store %lo, %c_s[%o2] : memref<${c_size}xf32, #gpu.address_space<workgroup>>
          return
        }

        // %n steps of the lane's two chains from row %j: y_{k+1} = (alpha_k u + beta_k) y_k +
        // y_{k-1}. Returns (y_{k+n}, y_{k+n-1}).
        func.func private @advance(%ab_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %j: index, %n: index, %u: vector<2xf64>, %y1: vector<2xf64>, %y0: vector<2xf64>)
            -> (vector<2xf64>, vector<2xf64>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %end = arith.addi %j, %n : index
          %r:2 = scf.for %i = %j to %end step %c1 iter_args(%a1 = %y1, %a0 = %y0)
              -> (vector<2xf64>, vector<2xf64>) {
            %ab = vector.load %ab_s[%i, %c0] : memref<${rows}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
            %al = vector.extract %ab[0] : f64 from vector<2xf64>
            %be = vector.extract %ab[1] : f64 from vector<2xf64>
            %alv = vector.broadcast %al : f64 to vector<2xf64>
            %bev = vector.broadcast %be : f64 to vector<2xf64>
            %t = math.fma %alv, %u, %bev : vector<2xf64>
            %y = math.fma %t, %a1, %a0 : vector<2xf64>
            scf.yield %y, %a1 : vector<2xf64>, vector<2xf64>
          }
          return %r#0, %r#1 : vector<2xf64>, vector<2xf64>
        }

        // One step of the lane's two chains at row %j that keeps its values: the even value
        // e1_k y_k + e2_{k-1} y_{k-1} and y_k. Returns (y_{k+1}, y_k, even).
        func.func private @keep(%ab_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %ee_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %j: index, %u: vector<2xf64>, %y1: vector<2xf64>, %y0: vector<2xf64>)
            -> (vector<2xf64>, vector<2xf64>, vector<2xf64>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ee = vector.load %ee_s[%j, %c0] : memref<${rows}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
          %e1 = vector.extract %ee[0] : f64 from vector<2xf64>
          %e2 = vector.extract %ee[1] : f64 from vector<2xf64>
          %e1v = vector.broadcast %e1 : f64 to vector<2xf64>
          %e2v = vector.broadcast %e2 : f64 to vector<2xf64>
          %pa = arith.mulf %e2v, %y0 : vector<2xf64>
          %pe = math.fma %e1v, %y1, %pa : vector<2xf64>
          %y, %yk = func.call @advance(%ab_s, %j, %c1, %u, %y1, %y0)
              : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, vector<2xf64>, vector<2xf64>, vector<2xf64>)
                -> (vector<2xf64>, vector<2xf64>)
          return %y, %yk, %pe : vector<2xf64>, vector<2xf64>, vector<2xf64>
        }

        // The A fragments (hi, lo) of values v0 (slot t: pairs g, g + 8) and v1 (slot t + 4):
        // each rounded to float32, then @split4.
        func.func private @fragments(%v0: vector<2xf64>, %v1: vector<2xf64>) -> (vector<4x1xf32>, vector<4x1xf32>) {
          %f0 = arith.truncf %v0 : vector<2xf64> to vector<2xf32>
          %f1 = arith.truncf %v1 : vector<2xf64> to vector<2xf32>
          %a = vector.extract %f0[0] : f32 from vector<2xf32>
          %b = vector.extract %f0[1] : f32 from vector<2xf32>
          %c = vector.extract %f1[0] : f32 from vector<2xf32>
          %d = vector.extract %f1[1] : f32 from vector<2xf32>
          %hi, %lo = func.call @split4(%a, %b, %c, %d) : (f32, f32, f32, f32) -> (vector<4x1xf32>, vector<4x1xf32>)
          return %hi, %lo : vector<4x1xf32>, vector<4x1xf32>
        }

        // A window of 8 steps from row %j: its first two steps keep their values (slots t and
        // t + 4 of this k), the rest only advance. Returns (y, y_prev, A fragments hi, lo of
        // the even values, then of y).
        func.func private @window(%ab_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %ee_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %j: index, %u: vector<2xf64>, %y1: vector<2xf64>, %y0: vector<2xf64>)
            -> (vector<2xf64>, vector<2xf64>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c6 = arith.constant 6 : index
          %s0:3 = func.call @keep(%ab_s, %ee_s, %j, %u, %y1, %y0)
              : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index,
                 vector<2xf64>, vector<2xf64>, vector<2xf64>) -> (vector<2xf64>, vector<2xf64>, vector<2xf64>)
          %j1 = arith.addi %j, %c1 : index
          %s1:3 = func.call @keep(%ab_s, %ee_s, %j1, %u, %s0#0, %s0#1)
              : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index,
                 vector<2xf64>, vector<2xf64>, vector<2xf64>) -> (vector<2xf64>, vector<2xf64>, vector<2xf64>)
          %j2 = arith.addi %j, %c2 : index
          %y, %yp = func.call @advance(%ab_s, %j2, %c6, %u, %s1#0, %s1#1)
              : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, vector<2xf64>, vector<2xf64>, vector<2xf64>)
                -> (vector<2xf64>, vector<2xf64>)
          %eh, %el = func.call @fragments(%s0#2, %s1#2) : (vector<2xf64>, vector<2xf64>) -> (vector<4x1xf32>, vector<4x1xf32>)
          %oh, %ol = func.call @fragments(%s0#1, %s1#1) : (vector<2xf64>, vector<2xf64>) -> (vector<4x1xf32>, vector<4x1xf32>)
          return %y, %yp, %eh, %el, %oh, %ol
              : vector<2xf64>, vector<2xf64>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>
        }

        // The sums into F, rounded once to the plan's type: lane (g, t) holds, for tile (par,
        // j) and rows g, g + 8, the even and odd sums of field 4 j + t (re, im).
        func.func private @store(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %p0: index, %x: vector<2xf64>, %t: index, %nlat: index, %npairs: index, %nfields: index,
            %b0: index, %m: index, %acc: vector<${nacc}xf32>) {
${store}
          return
        }

        // F of one (pair row, field) from its sums e, o (re, im; float32) and x: north row
        // p = E + x O, its mirror NL - 1 - p = E - x O.
        func.func private @put(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %p: index, %x: f64, %b: index, %nlat: index, %npairs: index, %nfields: index,
            %m: index, %er: f32, %ei: f32, %or: f32, %oi: f32) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %row = arith.cmpi ult, %p, %npairs : index
          %field = arith.cmpi ult, %b, %nfields : index
          %in = arith.andi %row, %field : i1
          scf.if %in {
            %er64 = arith.extf %er : f32 to f64
            %ei64 = arith.extf %ei : f32 to f64
            %or64 = arith.extf %or : f32 to f64
            %oi64 = arith.extf %oi : f32 to f64
            %nr = math.fma %x, %or64, %er64 : f64
            %ni = math.fma %x, %oi64, %ei64 : f64
            %nr1 = func.call @narrow(%nr) : (f64) -> ${ft}
            %ni1 = func.call @narrow(%ni) : (f64) -> ${ft}
            memref.store %nr1, %F[%b, %p, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            memref.store %ni1, %F[%b, %p, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %last = arith.subi %nlat, %c1 : index
            %ps = arith.subi %last, %p : index
            %two = arith.cmpi ne, %ps, %p : index
            scf.if %two {
              %nx = arith.negf %x : f64
              %sr = math.fma %nx, %or64, %er64 : f64
              %si = math.fma %nx, %oi64, %ei64 : f64
              %sr1 = func.call @narrow(%sr) : (f64) -> ${ft}
              %si1 = func.call @narrow(%si) : (f64) -> ${ft}
              memref.store %sr1, %F[%b, %ps, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              memref.store %si1, %F[%b, %ps, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
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
          %c8 = arith.constant 8 : index
          %c16 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          %cspan = arith.constant ${span} : index
          %crows = arith.constant ${rows} : index
          %cnf = arith.constant ${nf} : index
          %cpart = arith.constant ${part} : index
          %c15 = arith.constant 15 : index
          %sixteen = arith.constant -16 : index  // ~15: n & sixteen rounds n down to a multiple of 16
          %zacc = arith.constant dense<0.0> : vector<${nacc}xf32>
          %zero2 = arith.constant dense<0.0> : vector<2xf64>
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
          %nall = arith.index_castui %pc5 : i32 to index
          // the whole groups of ${nf} fields (leg_synth_ishioka.mlir takes the rest)
          %cnfw = arith.constant ${nf} : index
          %ngroups = arith.divui %nall, %cnfw : index
          %nfields = arith.muli %ngroups, %cnfw : index
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
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nall, %nlm}
          %F = hal.interface.binding.subspan layout(#leg_synth_layout) binding(5) alignment(64) offset(%c0)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nall, %nlat, %mc}

          // one span of ${span} steps staged (the chain ${rows} rows: the last window of a
          // lane ends up to 6 rows past the span), read by every lane
          %ab_s = memref.alloc() : memref<${rows}x2xf64, #gpu.address_space<workgroup>>
          %ee_s = memref.alloc() : memref<${rows}x2xf64, #gpu.address_space<workgroup>>
          %c_s = memref.alloc() : memref<${c_size}xf32, #gpu.address_space<workgroup>>

          %lid = gpu.thread_id x
          %hx = hal.interface.workgroup.id[0] : index
          %hy = hal.interface.workgroup.id[1] : index
          %wx, %m = func.call @workgroup_of(%hx, %hy, %mc) : (index, index, index) -> (index, index)
          %wz = hal.interface.workgroup.id[2] : index
          %b0 = arith.muli %wz, %cnf : index
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %wx0 = arith.cmpi eq, %wx, %c0 : index
          scf.if %wx0 {
            func.call @zero_rows(%F, %skip, %lid, %nlat, %nfields, %b0, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index) -> ()
          }
          %cwp = arith.constant ${wpairs} : index
          %wpairs = arith.muli %wx, %cwp : index
          %wfirst = arith.addi %skip, %wpairs : index
          %warp = arith.divui %lid, %c32 : index
          %lane = arith.remui %lid, %c32 : index
          %g = arith.divui %lane, %c4 : index
          %t = arith.remui %lane, %c4 : index
          %w16 = arith.muli %warp, %c16 : index
          %pw = arith.addi %wfirst, %w16 : index
          %p0 = arith.addi %pw, %g : index  // the lane's pairs: p0 and p0 + 8
          %p1 = arith.addi %p0, %c8 : index
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
          %hl = arith.divui %lmm, %c2 : index
          %ns0 = arith.addi %hl, %c1 : index
          %nsteps = arith.select %busy, %ns0, %c0 : index
          %row0 = func.call @chain_row0(%lmax, %m) : (index, index) -> index

          // past the last pair, a lane runs the last one's chain (its rows are not stored):
          // every lane takes part in the warp's products
          %plast = arith.subi %npairs, %c1 : index
          %pc0c = arith.minui %p0, %plast : index
          %pc1c = arith.minui %p1, %plast : index
          %mi = arith.index_castui %m : index to i64
          %mf = arith.uitofp %mi : i64 to f64
          %two = arith.constant 2.0 : f64
          %three = arith.constant 3.0 : f64
          %m2 = math.fma %two, %mf, %three : f64
          %am = math.sqrt %m2 : f64
          %x0, %u0, %s0 = func.call @init(%xtab, %seed64, %m, %pc0c, %npairs, %am)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
                 index, index, index, f64) -> (f64, f64, f64)
          %x1, %u1, %s1 = func.call @init(%xtab, %seed64, %m, %pc1c, %npairs, %am)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
                 index, index, index, f64) -> (f64, f64, f64)
          %x = vector.from_elements %x0, %x1 : vector<2xf64>
          %u = vector.from_elements %u0, %u1 : vector<2xf64>
          %yseed = vector.from_elements %s0, %s1 : vector<2xf64>

          // the staging: thread r < ${rows} a row of the chain; thread (h, r) = (lid / 64,
          // lid % 64) fields h ${part} .. of row r of the coefficients. The lane's window
          // starts 2t rows into each group of 8; its B fragments at column g of each tile.
          %srow = arith.remui %lid, %c64 : index
          %shalf = arith.divui %lid, %c64 : index
          %sf0 = arith.muli %shalf, %cpart : index
          %chain_row = arith.cmpi ult, %lid, %crows : index
          %t2 = arith.muli %t, %c2 : index
          %ccs = arith.constant ${col_stride} : index
          %gcol = arith.muli %g, %ccs : index
          %t4 = arith.muli %t, %c4 : index
          %gb = arith.addi %gcol, %t4 : index

          %st:3 = scf.for %base = %c0 to %nsteps step %cspan
              iter_args(%y1 = %yseed, %y0 = %zero2, %acc = %zacc) -> (vector<2xf64>, vector<2xf64>, vector<${nacc}xf32>) {
            gpu.barrier  // the previous span is consumed
            scf.if %chain_row {
              func.call @stage_chain(%chain, %ab_s, %ee_s, %lid, %base, %nsteps, %row0)
                  : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
                     memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, index, index) -> ()
            }
            func.call @stage_coef(%chain, %q, %c_s, %srow, %sf0, %base, %nsteps, %row0, %m, %lmax, %mstart, %nfields, %b0)
                : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                   memref<${c_size}xf32, #gpu.address_space<workgroup>>,
                   index, index, index, index, index, index, index, index, index, index) -> ()
            gpu.barrier
            // the warm-up: lane t starts its windows 2t steps on
            %first = arith.cmpi eq, %base, %c0 : index
            %w:2 = scf.if %first -> (vector<2xf64>, vector<2xf64>) {
              %a:2 = func.call @advance(%ab_s, %c0, %t2, %u, %y1, %y0)
                  : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, vector<2xf64>, vector<2xf64>, vector<2xf64>)
                    -> (vector<2xf64>, vector<2xf64>)
              scf.yield %a#0, %a#1 : vector<2xf64>, vector<2xf64>
            } else {
              scf.yield %y1, %y0 : vector<2xf64>, vector<2xf64>
            }
            %left = arith.subi %nsteps, %base : index
            %cnt = arith.minui %left, %cspan : index
            %cnt15 = arith.addi %cnt, %c15 : index
            %cnt16 = arith.andi %cnt15, %sixteen : index
            %sp:3 = scf.for %j0 = %c0 to %cnt16 step %c16 iter_args(%a1 = %w#0, %a0 = %w#1, %ac = %acc)
                -> (vector<2xf64>, vector<2xf64>, vector<${nacc}xf32>) {
              %ja = arith.addi %j0, %t2 : index
              %r0:6 = func.call @window(%ab_s, %ee_s, %ja, %u, %a1, %a0)
                  : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index,
                     vector<2xf64>, vector<2xf64>, vector<2xf64>)
                    -> (vector<2xf64>, vector<2xf64>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>)
              %jb = arith.addi %ja, %c8 : index
              %r1:6 = func.call @window(%ab_s, %ee_s, %jb, %u, %r0#0, %r0#1)
                  : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index,
                     vector<2xf64>, vector<2xf64>, vector<2xf64>)
                    -> (vector<2xf64>, vector<2xf64>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>)
              // B at steps j0 + 2t (k slot t) and + 1 (slot t + 4), then 8 further
              %j02 = arith.muli %j0, %c2 : index
              %bo0 = arith.addi %gb, %j02 : index
              %bo1 = arith.addi %bo0, %c16 : index
${kstep0}
${kstep1}
              %ac2 = arith.addf %ac, %k1 : vector<${nacc}xf32>
              scf.yield %r1#0, %r1#1, %ac2 : vector<2xf64>, vector<2xf64>, vector<${nacc}xf32>
            }
            scf.yield %sp#0, %sp#1, %sp#2 : vector<2xf64>, vector<2xf64>, vector<${nacc}xf32>
          }

          func.call @store(%F, %p0, %x, %t, %nlat, %npairs, %nfields, %b0, %m, %st#2)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, index, vector<2xf64>, index, index, index, index,
                 index, index, vector<${nacc}xf32>) -> ()
          return
        }
      }
    }
  }
