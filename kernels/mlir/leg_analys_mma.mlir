// Legendre analysis of float32 batches on NVIDIA tensor cores, q[b][(l,m)] = sum_i w_i
// F[b][i][m] P_lm(cos theta_i): the Ishioka recurrence in float64 (ireesht/numerics/ishioka.py)
// makes each pair's values, and the sums over the pairs are matrix products per order,
// S_e = G_e P_e and S_o = G_o Y: P_e (pairs x steps) the even degrees' values P_{m+2k} =
// e1_k y_k + e2_{k-1} y_{k-1} (in float64, so that the float32 sums meet no cancellation),
// Y the chain values y_k, G_e (columns x pairs) w (F_n + F_s) and G_o w x (F_n - F_s) of
// ${nf} fields (re, im); q_{m+2k} = S_e, q_{m+2k+1} = g_k S_o. CUDA only (nvgpu.mma.sync,
// m16n8k8 on tf32, as leg_synth_mma.mlir: each float32 factor as tf32 hi + lo, each product
// as lo hi + hi lo + hi hi). For plans whose seeds all start live (no careful loop;
// registry variant tensor_cores). Stage contract and tables: docs/design.md,
// as leg_analys_ishioka.mlir. A string.Template rendered by ireesht/codegen/mlir.
//
// Grid (mc, ceil(B / ${nf}), 1): one workgroup of ${nw} warps per order and ${nf} fields; warp
// w holds the 32 pairs from skip + 32 w, a lane one pair, whose chain it runs (warps past the
// last pair idle). The 16 columns (2 f + c: field f, c re or im) are the rows of the products'
// tiles, the pairs their k (four of 8 per warp), the steps their columns (${nh} tiles of 8
// per parity). Lane (g, t) = (l / 4, l % 4) keeps its A fragments of G (columns g and g + 8,
// pairs t and t + 4 of each 8) in registers for the whole order. Per window of ${win} steps
// each lane stores its pair's even and odd values to its warp's rows of workgroup memory and
// reads back its B fragments (pairs t and t + 4, step g of each 8); each warp's products over
// its 32 pairs go to workgroup memory, and after the window's one barrier the threads add up
// the warps' sums, one value at a time, and store q. Two buffers of the sums and of the
// staged chain rows, so that one barrier per window orders everything.
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_analys_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${mc} : index
        %gy = affine.apply affine_map<()[s0] -> (s0 ceildiv ${nf})>()[%b]
        %one = arith.constant 1 : index
        hal.return %gx, %gy, %one : index, index, index
      } <workgroup_size = [${wg} : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // G_e and G_o of pair %p and column c of field %bf: w (F_n + F_s) and w x (F_n - F_s),
        // in float64 and rounded once (zeros past the last pair or field; a row is its own
        // mirror at the equator of an odd grid). leg_analys_ishioka.mlir's @fold makes both
        // parts of one field; built on it (and on a shared one-part form), this kernel spilled
        // at its 128 registers.
        func.func private @fold(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab64: memref<?xf64, #hal.descriptor_type<storage_buffer>>,
            %xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index,
            %bf: index, %c: index, %npairs: index, %nlat: index, %nfields: index, %m: index) -> (f32, f32) {
          %c1 = arith.constant 1 : index
          %zero = arith.constant 0.0 : f64
          %plast = arith.subi %npairs, %c1 : index
          %blast = arith.subi %nfields, %c1 : index
          %inp = arith.cmpi ult, %p, %npairs : index
          %inb = arith.cmpi ult, %bf, %nfields : index
          %valid = arith.andi %inp, %inb : i1
          %pc = arith.minui %p, %plast : index
          %bc = arith.minui %bf, %blast : index
          %x, %u = func.call @node64(%xtab, %pc) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (f64, f64)
          %w1 = memref.load %wtab64[%pc] : memref<?xf64, #hal.descriptor_type<storage_buffer>>
          %w = arith.select %valid, %w1, %zero : f64
          %last = arith.subi %nlat, %c1 : index
          %s = arith.subi %last, %pc : index
          %same = arith.cmpi eq, %s, %pc : index
          %n0 = memref.load %F[%bc, %pc, %m, %c] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %s0 = memref.load %F[%bc, %s, %m, %c] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %n = func.call @widen(%n0) : (${ft}) -> f64
          %s1 = func.call @widen(%s0) : (${ft}) -> f64
          %sv = arith.select %same, %zero, %s1 : f64
          %pl = arith.addf %n, %sv : f64
          %mi = arith.subf %n, %sv : f64
          %wx = arith.mulf %w, %x : f64
          %e = arith.mulf %w, %pl : f64
          %o = arith.mulf %wx, %mi : f64
          %ef = arith.truncf %e : f64 to f32
          %of = arith.truncf %o : f64 to f32
          return %ef, %of : f32, f32
        }

        // The lane's A fragments (hi, lo; even, then odd) of the pairs from %p (slot t) and
        // %p + 4 (slot t + 4), rows g (field %bg) and g + 8 (field %bg + 4), part %c.
        func.func private @gfrag(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab64: memref<?xf64, #hal.descriptor_type<storage_buffer>>,
            %xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index,
            %bg: index, %c: index, %npairs: index, %nlat: index, %nfields: index, %m: index)
            -> (vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>) {
          %c4 = arith.constant 4 : index
          %p4 = arith.addi %p, %c4 : index
          %bg4 = arith.addi %bg, %c4 : index
          %e0, %o0 = func.call @fold(%F, %wtab64, %xtab, %p, %bg, %c, %npairs, %nlat, %nfields, %m)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                 memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, index) -> (f32, f32)
          %e1, %o1 = func.call @fold(%F, %wtab64, %xtab, %p, %bg4, %c, %npairs, %nlat, %nfields, %m)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                 memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, index) -> (f32, f32)
          %e2, %o2 = func.call @fold(%F, %wtab64, %xtab, %p4, %bg, %c, %npairs, %nlat, %nfields, %m)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                 memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, index) -> (f32, f32)
          %e3, %o3 = func.call @fold(%F, %wtab64, %xtab, %p4, %bg4, %c, %npairs, %nlat, %nfields, %m)
              : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                 memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, index, index, index, index) -> (f32, f32)
          %eh, %el = func.call @split4(%e0, %e1, %e2, %e3) : (f32, f32, f32, f32) -> (vector<4x1xf32>, vector<4x1xf32>)
          %oh, %ol = func.call @split4(%o0, %o1, %o2, %o3) : (f32, f32, f32, f32) -> (vector<4x1xf32>, vector<4x1xf32>)
          return %eh, %el, %oh, %ol : vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>, vector<4x1xf32>
        }

        // ${win} steps of the lane's chain from row %j0 of the staged rows: the even value
        // e1_k y_k + e2_{k-1} y_{k-1} at %so + 36 j of the warp's rows, y_k ${par_rows} floats
        // on, each rounded to float32; y_{k+1} = (alpha_k u + beta_k) y_k + y_{k-1}. Returns
        // (y_{k+${win}}, y_{k+${win}-1}). Unrolled by ireesht/codegen/mlir: LLVM kept the
        // loop, each step waiting on the last (H200, lmax 1023, 16 fields: 1096 -> 988 us).
        func.func private @chain(%ab_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %ee_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %p_s: memref<${p_size}xf32, #gpu.address_space<workgroup>>, %j0: index, %so: index,
            %u: f64, %y1: f64, %y0: f64) -> (f64, f64) {
${chain_steps}
        }

        // The B fragment (hi, lo) at %o of the warp's rows: slots t (at %o) and t + 4.
        func.func private @bfrag(%p_s: memref<${p_size}xf32, #gpu.address_space<workgroup>>, %o: index)
            -> (vector<2x1xf32>, vector<2x1xf32>) {
          %c4 = arith.constant 4 : index
          %o4 = arith.addi %o, %c4 : index
          %a = memref.load %p_s[%o] : memref<${p_size}xf32, #gpu.address_space<workgroup>>
          %b = memref.load %p_s[%o4] : memref<${p_size}xf32, #gpu.address_space<workgroup>>
          %ah = func.call @tf32(%a) : (f32) -> f32
          %bh = func.call @tf32(%b) : (f32) -> f32
          %al = arith.subf %a, %ah : f32
          %bl = arith.subf %b, %bh : f32
          %hi = vector.from_elements %ah, %bh : vector<2x1xf32>
          %lo = vector.from_elements %al, %bl : vector<2x1xf32>
          return %hi, %lo : vector<2x1xf32>, vector<2x1xf32>
        }

        // The sum over the first %nact warps of the value at %o of their sums (the loads
        // unrolled over the ${nw} warps, so that they are in flight together).
        func.func private @warp_sum(%r_s: memref<${r_size}xf32, #gpu.address_space<workgroup>>,
            %o: index, %nact: index) -> f32 {
${warp_sum}
        }

        // Value %v (< ${outs}) of the window from step %k0: field f = v / ${fvals}, step s =
        // v / 4 % ${win}, parity (v / 2) % 2, part v % 2 (so that a warp's stores are
        // contiguous), the sum of the warps' sums in buffer %rb: q_{m+2k} = S_e, q_{m+2k+1} =
        // g_k S_o, for degrees up to L and fields up to B.
        func.func private @reduce(%r_s: memref<${r_size}xf32, #gpu.address_space<workgroup>>,
            %chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %q: memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %rb: index, %v: index, %nact: index, %k0: index, %nsteps: index, %lmm: index,
            %mstart: index, %row0: index, %b0: index, %nfields: index) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %cfv = arith.constant ${fvals} : index
          %cwin = arith.constant ${win} : index
          %cpar = arith.constant ${par_stride} : index
          %f = arith.divui %v, %cfv : index
          %rem = arith.remui %v, %cfv : index
          %s4 = arith.divui %rem, %c4 : index
          %s = arith.remui %s4, %cwin : index
          %p2 = arith.divui %rem, %c2 : index
          %par = arith.remui %p2, %c2 : index
          %c = arith.remui %rem, %c2 : index
          %f2 = arith.muli %f, %c2 : index
          %col = arith.addi %f2, %c : index
          %po = arith.muli %par, %cpar : index
          %co = arith.muli %col, %cwin : index
          %o0 = arith.addi %po, %co : index
          %o1 = arith.addi %o0, %s : index
          %o = arith.addi %o1, %rb : index
          %sum = func.call @warp_sum(%r_s, %o, %nact) : (memref<${r_size}xf32, #gpu.address_space<workgroup>>, index, index) -> f32
          %k = arith.addi %k0, %s : index
          %k2 = arith.muli %k, %c2 : index
          %d = arith.addi %k2, %par : index
          %ink = arith.cmpi ult, %k, %nsteps : index
          %ind = arith.cmpi ule, %d, %lmm : index
          %b = arith.addi %b0, %f : index
          %inb = arith.cmpi ult, %b, %nfields : index
          %in0 = arith.andi %ink, %ind : i1
          %in = arith.andi %in0, %inb : i1
          scf.if %in {
            %odd = arith.cmpi eq, %par, %c1 : index
            %row = arith.addi %row0, %k : index
            %g = memref.load %chain[%row, %c4] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
            %sum64 = arith.extf %sum : f32 to f64
            %go = arith.mulf %g, %sum64 : f64
            %val = arith.select %odd, %go, %sum64 : f64
            %vn = func.call @narrow(%val) : (f64) -> ${ft}
            %idx = arith.addi %mstart, %d : index
            memref.store %vn, %q[%b, %idx, %c] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          }
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [${wg}, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c31 = arith.constant 31 : index
          %c32 = arith.constant 32 : index
          %c36 = arith.constant 36 : index
          %cwin = arith.constant ${win} : index
          %cwin1 = arith.constant ${win_less1} : index
          %cwg = arith.constant ${wg} : index
          %couts = arith.constant ${outs} : index
          %cwarp_p = arith.constant ${warp_floats} : index
          %cwarp_r = arith.constant ${warp_sums} : index
          %crhalf = arith.constant ${r_half} : index
          %cnf = arith.constant ${nf} : index
          %two = arith.constant 2.0 : f64
          %three = arith.constant 3.0 : f64
          %zero = arith.constant 0.0 : f64
          %zc = arith.constant dense<0.0> : vector<2x2xf32>
          %all = arith.constant -1 : i32
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
          %F = hal.interface.binding.subspan layout(#leg_analys_layout) binding(5) alignment(64) offset(%c0) flags(ReadOnly)
              : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlat, %mc}
          %q = hal.interface.binding.subspan layout(#leg_analys_layout) binding(6) alignment(64) offset(%c0)
              : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>{%nfields, %nlm}

          // two buffers of ${win} staged chain rows; per warp 2 x ${win} rows of 36 floats (32
          // pairs and padding that keeps the B fragments' loads free of bank conflicts); two
          // buffers of the warps' sums, ${warp_sums} floats per warp (parity x 16 columns x
          // ${win} steps, each parity 8 floats on: @reduce's loads free of bank conflicts)
          %ab_s = memref.alloc() : memref<${rows}x2xf64, #gpu.address_space<workgroup>>
          %ee_s = memref.alloc() : memref<${rows}x2xf64, #gpu.address_space<workgroup>>
          %p_s = memref.alloc() : memref<${p_size}xf32, #gpu.address_space<workgroup>>
          %r_s = memref.alloc() : memref<${r_size}xf32, #gpu.address_space<workgroup>>

          %tid = gpu.thread_id x
          %m = hal.interface.workgroup.id[0] : index
          %bw = hal.interface.workgroup.id[1] : index
          %b0 = arith.muli %bw, %cnf : index
          %warp = arith.divui %tid, %c32 : index
          %lane = arith.remui %tid, %c32 : index
          %g = arith.divui %lane, %c4 : index
          %t = arith.remui %lane, %c4 : index
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %w32 = arith.muli %warp, %c32 : index
          %pw = arith.addi %skip, %w32 : index
          %active = arith.cmpi ult, %pw, %npairs : index
          // the warps with pairs: ceil((npairs - skip) / 32)
          %left = arith.subi %npairs, %skip : index
          %left31 = arith.addi %left, %c31 : index
          %nact = arith.divui %left31, %c32 : index
          %lmm = arith.subi %lmax, %m : index
          %kmax = arith.divui %lmm, %c2 : index
          %nsteps = arith.addi %kmax, %c1 : index
          %nstw = arith.addi %nsteps, %cwin1 : index
          %nwin = arith.divui %nstw, %cwin : index
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

          // the lane's chain: pair pw + lane (past the last pair the last one's, which its
          // zero G leaves out of the sums)
          %plast = arith.subi %npairs, %c1 : index
          %pl = arith.addi %pw, %lane : index
          %plc = arith.minui %pl, %plast : index
          %x, %u, %yseed = func.call @init(%xtab, %seed64, %m, %plc, %npairs, %am)
              : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?x2xf64, #hal.descriptor_type<storage_buffer>>,
                 index, index, index, f64) -> (f64, f64, f64)

          // the lane's A fragments: pairs pw + 8 j + t (+ 4), columns g and g + 8 (fields
          // b0 + g / 2 and + 4, part g % 2)
          %g2 = arith.divui %g, %c2 : index
          %bg = arith.addi %b0, %g2 : index
          %cg = arith.remui %g, %c2 : index
          %pt = arith.addi %pw, %t : index
${gfrags}

          %stager = arith.cmpi ult, %tid, %cwin : index
          scf.if %stager {
            func.call @stage_chain(%chain, %ab_s, %ee_s, %tid, %c0, %nsteps, %row0)
                : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
                   memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, index, index) -> ()
          }
          gpu.barrier

          // the lane's offsets: its pair's values (so), its B fragments (lo), its sums (cso)
          %pwb = arith.muli %warp, %cwarp_p : index
          %so = arith.addi %pwb, %lane : index
          %g36 = arith.muli %g, %c36 : index
          %lo0 = arith.addi %pwb, %g36 : index
          %lo = arith.addi %lo0, %t : index
          %wr = arith.muli %warp, %cwarp_r : index
          %gw = arith.muli %g, %cwin : index
          %t2 = arith.muli %t, %c2 : index
          %cso0 = arith.addi %wr, %gw : index
          %cso = arith.addi %cso0, %t2 : index
          %fin:2 = scf.for %win = %c0 to %nwin step %c1 iter_args(%y1 = %yseed, %y0 = %zero) -> (f64, f64) {
            %buf = arith.remui %win, %c2 : index
            %next = arith.subi %c1, %buf : index
            %k0 = arith.muli %win, %cwin : index
            %j0 = arith.muli %buf, %cwin : index
            %rb = arith.muli %buf, %crhalf : index
            %ny:2 = scf.if %active -> (f64, f64) {
              %n:2 = func.call @chain(%ab_s, %ee_s, %p_s, %j0, %so, %u, %y1, %y0)
                  : (memref<${rows}x2xf64, #gpu.address_space<workgroup>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
                     memref<${p_size}xf32, #gpu.address_space<workgroup>>, index, index, f64, f64, f64) -> (f64, f64)
              nvvm.bar.warp.sync %all : i32
${ksteps}
              %cb = arith.addi %cso, %rb : index
${cstore}
              scf.yield %n#0, %n#1 : f64, f64
            } else {
              scf.yield %y1, %y0 : f64, f64
            }
            // the next window's chain rows to the other buffer (row next ${win} + tid: step
            // k0 + ${win} + tid)
            scf.if %stager {
              %r = arith.muli %next, %cwin : index
              %ri = arith.addi %r, %tid : index
              %kb0 = arith.addi %k0, %cwin : index
              %kb = arith.subi %kb0, %r : index
              func.call @stage_chain(%chain, %ab_s, %ee_s, %ri, %kb, %nsteps, %row0)
                  : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
                     memref<${rows}x2xf64, #gpu.address_space<workgroup>>, index, index, index, index) -> ()
            }
            gpu.barrier
            scf.for %v = %tid to %couts step %cwg {
              func.call @reduce(%r_s, %chain, %q, %rb, %v, %nact, %k0, %nsteps, %lmm, %mstart, %row0, %b0, %nfields)
                  : (memref<${r_size}xf32, #gpu.address_space<workgroup>>, memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
                     memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                     index, index, index, index, index, index, index, index, index, index) -> ()
            }
            scf.yield %ny#0, %ny#1 : f64, f64
          }
          return
        }
      }
    }
  }
