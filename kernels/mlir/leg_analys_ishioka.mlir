// Legendre analysis, q[b][(l,m)] = sum_i w_i F[b][i][m] P_lm(cos theta_i), by the Ishioka
// recurrence in float64 (ireesht/numerics/ishioka.py), for float32 plans of one field per thread
// whose seeds all start live (registry variant ishioka). Stage contract:
// docs/design.md, as leg_analys.mlir (the other scheme of this family); its tables
// are the synthesis's of leg_synth_ishioka.mlir and wtab64. A string.Template rendered by
// ireesht/codegen/mlir.
//
// Grid (mc, B, 1): one workgroup of ${wg} threads per order m and field, ${nw} groups of 32
// threads (a warp on NVIDIA; no subgroup operation is used). Group w holds the ${nl}
// latitude pairs from the pole side skip + ${nl} w on (${kp} adjacent ones per thread). Per
// span of ${sp} steps (2 ${sp} degrees) each thread runs the float64 chain y_k of its
// pairs and stores y_k, rounded to float32, in its group's rows of workgroup memory (two
// buffers, so that one barrier per span orders everything); then the sums run transposed:
// thread (r, c) = (lane / 4, lane % 4) of the group sums y of step r of every pair of the
// group times part c of F (the weighted even and odd parts, re and im), which it holds in
// registers since the start: the four threads of a step read the same y (one access), and
// no reduction tree is needed. After the next barrier one group (span s: group s mod ${nw})
// adds up the groups' sums of the span's ${sp} steps and turns them into q (the transpose
// of the synthesis's modified coefficients: q_{m+2k} = e1_k S_k + e2_{k-1} S_{k-1},
// q_{m+2k+1} = g_k O_k).
  hal.executable private @${exe} {
    hal.executable.variant public @v target(${target}) {
      hal.executable.export public @main ordinal(0) layout(#leg_analys_layout)
          count(%device: !hal.device, %b: index) -> (index, index, index) {
        %gx = arith.constant ${mc} : index
        %one = arith.constant 1 : index
        hal.return %gx, %b, %one : index, index, index
      } <workgroup_size = [${wg} : index, 1 : index, 1 : index]>
      builtin.module {
${legendre_core}

        // Row %j of buffer %buf of the staged chain coefficients: (alpha, beta) of step %k of
        // order m (rows from %row0), zeros past its last step %kmax.
        func.func private @stage_ab(%chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %sab: memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>, %buf: index, %j: index,
            %row0: index, %k: index, %kmax: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %zero = arith.constant 0.0 : f64
          %in = arith.cmpi ule, %k, %kmax : index
          %al, %be = scf.if %in -> (f64, f64) {
            %row = arith.addi %row0, %k : index
            %a = memref.load %chain[%row, %c0] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
            %b = memref.load %chain[%row, %c1] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
            scf.yield %a, %b : f64, f64
          } else {
            scf.yield %zero, %zero : f64, f64
          }
          memref.store %al, %sab[%buf, %j, %c0] : memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>
          memref.store %be, %sab[%buf, %j, %c1] : memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>
          return
        }

        // The span's ${sp} steps of the thread's pairs from (y0, y1): y_k rounded to float32
        // at row j of the group's rows (%yb), y_{k+1} = (alpha u + beta) y_k + y_{k-1}.
        func.func private @steps(%ys: memref<${ys_size}xf32, #gpu.address_space<workgroup>>,
            %sab: memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>, %buf: index, %yb: index,
            %u: vector<${kp}xf64>, %y0: vector<${kp}xf64>, %y1: vector<${kp}xf64>)
            -> (vector<${kp}xf64>, vector<${kp}xf64>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %csp = arith.constant ${sp} : index
          %crs = arith.constant ${rs} : index
          %ckp = arith.constant ${kp} : index
          %r:2 = scf.for %j = %c0 to %csp step %c1 iter_args(%a0 = %y0, %a1 = %y1)
              -> (vector<${kp}xf64>, vector<${kp}xf64>) {
            %jo = arith.muli %j, %crs : index
            %o = arith.addi %yb, %jo : index
            // scalar stores: a vector<2> store crashed the pipeline creation of NVIDIA's Vulkan
            // driver 580.159 (H200, lmax 511, 2026-12-01)
            %yf = arith.truncf %a1 : vector<${kp}xf64> to vector<${kp}xf32>
            scf.for %i = %c0 to %ckp step %c1 {
              %e = vector.extract %yf[%i] : f32 from vector<${kp}xf32>
              %oi = arith.addi %o, %i : index
              memref.store %e, %ys[%oi] : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
            }
            %ab = vector.load %sab[%buf, %j, %c0] : memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
            %al = vector.extract %ab[0] : f64 from vector<2xf64>
            %be = vector.extract %ab[1] : f64 from vector<2xf64>
            %alv = vector.broadcast %al : f64 to vector<${kp}xf64>
            %bev = vector.broadcast %be : f64 to vector<${kp}xf64>
            %t = math.fma %alv, %u, %bev : vector<${kp}xf64>
            %yn = math.fma %t, %a1, %a0 : vector<${kp}xf64>
            scf.yield %a1, %yn : vector<${kp}xf64>, vector<${kp}xf64>
          }
          return %r#0, %r#1 : vector<${kp}xf64>, vector<${kp}xf64>
        }

        // The thread's sum of step r of the span (its group's row from %yr) against its part
        // %my<i> (chunk i of four pairs), to part[%pb]. The body, unrolled over the ${ni}
        // chunks, comes from ireesht/codegen/mlir.
        func.func private @sums(%ys: memref<${ys_size}xf32, #gpu.address_space<workgroup>>,
            %part: memref<${part_size}xf32, #gpu.address_space<workgroup>>, %yr: index, %pb: index,
            ${my_params}) {
${sums}
          return
        }

        // The sum over the groups of value %v (4 step + part) of the sums in buffer %buf, in
        // float64.
        func.func private @row_total(%part: memref<${part_size}xf32, #gpu.address_space<workgroup>>,
            %buf: index, %v: index) -> f64 {
          %c1 = arith.constant 1 : index
          %c32 = arith.constant 32 : index
          %cnw = arith.constant ${nw} : index
          %zero = arith.constant 0.0 : f64
          %bw = arith.muli %buf, %cnw : index
          %b32 = arith.muli %bw, %c32 : index
          %o0 = arith.addi %b32, %v : index
          %c0 = arith.constant 0 : index
          %s = scf.for %ww = %c0 to %cnw step %c1 iter_args(%a = %zero) -> (f64) {
            %w32 = arith.muli %ww, %c32 : index
            %o = arith.addi %o0, %w32 : index
            %x = memref.load %part[%o] : memref<${part_size}xf32, #gpu.address_space<workgroup>>
            %x64 = arith.extf %x : f32 to f64
            %a2 = arith.addf %a, %x64 : f64
            scf.yield %a2 : f64
          }
          return %s : f64
        }

        // Span %t's q, by the group that finishes it (lane = 4 r + c: step k = %t ${sp} + r,
        // part c: even re, im, odd re, im): q_{m+2k} = e1_k S_k + e2_{k-1} S_{k-1} (S_{-1} = 0;
        // the previous span's last row from carry), q_{m+2k+1} = g_k O_k for m + 2k + 1 <= L.
        func.func private @finish(%part: memref<${part_size}xf32, #gpu.address_space<workgroup>>,
            %carry: memref<2x2xf64, #gpu.address_space<workgroup>>,
            %chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %q: memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %t: index, %lane: index, %row0: index, %kmax: index, %lmm: index, %mstart: index, %b: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %csp = arith.constant ${sp} : index
          %zero = arith.constant 0.0 : f64
          %buf = arith.remui %t, %c2 : index
          %prev = arith.subi %c1, %buf : index
          %rr = arith.divui %lane, %c4 : index
          %c = arith.remui %lane, %c4 : index
          %k0 = arith.muli %t, %csp : index
          %k = arith.addi %k0, %rr : index
          %S = func.call @row_total(%part, %buf, %lane) : (memref<${part_size}xf32, #gpu.address_space<workgroup>>, index, index) -> f64
          %even = arith.cmpi ult, %c, %c2 : index
          %first = arith.cmpi eq, %rr, %c0 : index
          // carry[t % 2] is written here for span t + 1, after carry[(t + 1) % 2] is read
          %cpart = arith.remui %c, %c2 : index
          %carried = memref.load %carry[%prev, %cpart] : memref<2x2xf64, #gpu.address_space<workgroup>>
          %lm4 = arith.subi %lane, %c4 : index
          %lp = arith.select %first, %lane, %lm4 : index
          %above = func.call @row_total(%part, %buf, %lp) : (memref<${part_size}xf32, #gpu.address_space<workgroup>>, index, index) -> f64
          %Sp = arith.select %first, %carried, %above : f64
          %in = arith.cmpi ule, %k, %kmax : index
          scf.if %in {
            %row = arith.addi %row0, %k : index
            %k2 = arith.muli %k, %c2 : index
            %idx = arith.addi %mstart, %k2 : index
            scf.if %even {
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
              %v = math.fma %e1, %S, %a : f64
              %vn = func.call @narrow(%v) : (f64) -> ${ft}
              memref.store %vn, %q[%b, %idx, %c] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            } else {
              %k21 = arith.addi %k2, %c1 : index
              %odd_in = arith.cmpi ule, %k21, %lmm : index
              scf.if %odd_in {
                %g = memref.load %chain[%row, %c4] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
                %v = arith.mulf %g, %S : f64
                %vn = func.call @narrow(%v) : (f64) -> ${ft}
                %idx1 = arith.addi %idx, %c1 : index
                %cc = arith.subi %c, %c2 : index
                memref.store %vn, %q[%b, %idx1, %cc] : memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              }
            }
          }
          %spm1 = arith.subi %csp, %c1 : index
          %lastrow = arith.cmpi eq, %rr, %spm1 : index
          %keep = arith.andi %lastrow, %even : i1
          scf.if %keep {
            memref.store %S, %carry[%buf, %c] : memref<2x2xf64, #gpu.address_space<workgroup>>
          }
          return
        }

        func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [${wg}, 1, 1]>} {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c32 = arith.constant 32 : index
          %ckp = arith.constant ${kp} : index
          %cnl = arith.constant ${nl} : index
          %cnw = arith.constant ${nw} : index
          %csp = arith.constant ${sp} : index
          %crs = arith.constant ${rs} : index
          %cgrp = arith.constant ${group_floats} : index  // one group's rows of one buffer
          %two = arith.constant 2.0 : f64
          %three = arith.constant 3.0 : f64
          %zero = arith.constant 0.0 : f64
          %zk = arith.constant dense<0.0> : vector<${kp}xf64>
          %zf = arith.constant 0.0 : f32
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

          // two buffers of ${sp} rows of ${rs} floats per group (${nl} pairs, and padding that
          // keeps two rows' 16-byte loads apart in the banks); the sums, two buffers of one
          // per thread; the staged (alpha, beta); the last row's even sums
          %ys = memref.alloc() : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
          %part = memref.alloc() : memref<${part_size}xf32, #gpu.address_space<workgroup>>
          %sab = memref.alloc() : memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>
          %carry = memref.alloc() : memref<2x2xf64, #gpu.address_space<workgroup>>

          %tid = gpu.thread_id x
          %m = hal.interface.workgroup.id[0] : index
          %b = hal.interface.workgroup.id[1] : index
          %w = arith.divui %tid, %c32 : index
          %lane = arith.remui %tid, %c32 : index
          %r = arith.divui %lane, %c4 : index
          %cpart = arith.remui %lane, %c4 : index
          %skip = func.call @polar_rows(%polar, %m) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> index
          %wn = arith.muli %w, %cnl : index
          %wbase = arith.addi %skip, %wn : index
          %wlive = arith.cmpi ult, %wbase, %npairs : index
          %lmm = arith.subi %lmax, %m : index
          %kmax = arith.divui %lmm, %c2 : index
          %nspans0 = arith.divui %kmax, %csp : index
          %nspans = arith.addi %nspans0, %c1 : index
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

          // the thread's pairs: u = x^2, the seed y_0 = a_{m+1} P_mm (zero past the last
          // pair), and the weighted parts of F, at rows c ${nl} + pair of buffer 0 (sg)
          %sgbase = arith.muli %w, %cgrp : index
          %lk = arith.muli %lane, %ckp : index
          %plast = arith.subi %npairs, %c1 : index
          %srow0 = arith.muli %m, %npairs : index
          %init:2 = scf.for %i = %c0 to %ckp step %c1 iter_args(%uv = %zk, %yv = %zk)
              -> (vector<${kp}xf64>, vector<${kp}xf64>) {
            %j = arith.addi %lk, %i : index
            %p = arith.addi %wbase, %j : index
            %valid = arith.cmpi ult, %p, %npairs : index
            %pc = arith.minui %p, %plast : index
            %x, %u = func.call @node64(%xtab, %pc) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (f64, f64)
            %g64:4 = func.call @parts64(%F, %wtab64, %x, %p, %npairs, %nlat, %b, %m)
                : (memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>, memref<?xf64, #hal.descriptor_type<storage_buffer>>,
                   f64, index, index, index, index, index) -> (f64, f64, f64, f64)
            %g0 = arith.truncf %g64#0 : f64 to f32
            %g1 = arith.truncf %g64#1 : f64 to f32
            %g2 = arith.truncf %g64#2 : f64 to f32
            %g3 = arith.truncf %g64#3 : f64 to f32
            %o0 = arith.addi %sgbase, %j : index
            %o1 = arith.addi %o0, %cnl : index
            %o2 = arith.addi %o1, %cnl : index
            %o3 = arith.addi %o2, %cnl : index
            memref.store %g0, %ys[%o0] : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
            memref.store %g1, %ys[%o1] : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
            memref.store %g2, %ys[%o2] : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
            memref.store %g3, %ys[%o3] : memref<${ys_size}xf32, #gpu.address_space<workgroup>>
            %srow = arith.addi %srow0, %pc : index
            %ysd = memref.load %seed64[%srow, %c0] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            %kf = memref.load %seed64[%srow, %c1] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
            %y, %kk = func.call @seed64(%ysd, %kf) : (f64, f64) -> (f64, i64)
            %ya = arith.mulf %y, %am : f64
            %y0 = arith.select %valid, %ya, %zero : f64
            %uv2 = vector.insert %u, %uv[%i] : f64 into vector<${kp}xf64>
            %yv2 = vector.insert %y0, %yv[%i] : f64 into vector<${kp}xf64>
            scf.yield %uv2, %yv2 : vector<${kp}xf64>, vector<${kp}xf64>
          }
          gpu.barrier
          // the lane's part c of the group's pairs, in chunks of four (i < ${ni}), from sg
          %cn = arith.muli %cpart, %cnl : index
          %sgc = arith.addi %sgbase, %cn : index
${load_parts}
          %lt = arith.cmpi ult, %tid, %csp : index
          scf.if %lt {
            func.call @stage_ab(%chain, %sab, %c0, %tid, %row0, %tid, %kmax)
                : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>,
                   index, index, index, index, index) -> ()
          }
          %lt2 = arith.cmpi ult, %tid, %c2 : index
          scf.if %lt2 {
            memref.store %zero, %carry[%c1, %tid] : memref<2x2xf64, #gpu.address_space<workgroup>>
          }
          gpu.barrier  // the parts are in registers (buffer 0 is free), span 0 staged

          %yrow = arith.muli %r, %crs : index
          %fin:2 = scf.for %s = %c0 to %nspans step %c1 iter_args(%y0 = %zk, %y1 = %init#1)
              -> (vector<${kp}xf64>, vector<${kp}xf64>) {
            %buf = arith.remui %s, %c2 : index
            %next = arith.subi %c1, %buf : index
            %k0 = arith.muli %s, %csp : index
            scf.if %lt {
              %kn0 = arith.addi %k0, %csp : index
              %kn = arith.addi %kn0, %tid : index
              func.call @stage_ab(%chain, %sab, %next, %tid, %row0, %kn, %kmax)
                  : (memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>,
                     index, index, index, index, index) -> ()
            }
            %bg = arith.muli %buf, %cnw : index
            %bgw = arith.addi %bg, %w : index
            %yb0 = arith.muli %bgw, %cgrp : index
            %yb = arith.addi %yb0, %lk : index
            %st:2 = scf.if %wlive -> (vector<${kp}xf64>, vector<${kp}xf64>) {
              %n:2 = func.call @steps(%ys, %sab, %buf, %yb, %init#0, %y0, %y1)
                  : (memref<${ys_size}xf32, #gpu.address_space<workgroup>>, memref<2x${sp}x2xf64, #gpu.address_space<workgroup>>,
                     index, index, vector<${kp}xf64>, vector<${kp}xf64>, vector<${kp}xf64>) -> (vector<${kp}xf64>, vector<${kp}xf64>)
              scf.yield %n#0, %n#1 : vector<${kp}xf64>, vector<${kp}xf64>
            } else {
              scf.yield %y0, %y1 : vector<${kp}xf64>, vector<${kp}xf64>
            }
            gpu.barrier  // the span's y are stored; the previous span's partial sums too
            %s1 = arith.subi %s, %c1 : index
            %sp1 = arith.remui %s1, %cnw : index
            %spos = arith.cmpi ugt, %s, %c0 : index
            %mine = arith.cmpi eq, %w, %sp1 : index
            %fin_prev = arith.andi %spos, %mine : i1
            scf.if %fin_prev {
              func.call @finish(%part, %carry, %chain, %q, %s1, %lane, %row0, %kmax, %lmm, %mstart, %b)
                  : (memref<${part_size}xf32, #gpu.address_space<workgroup>>, memref<2x2xf64, #gpu.address_space<workgroup>>,
                     memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                     index, index, index, index, index, index, index) -> ()
            }
            %pg = arith.muli %bgw, %c32 : index
            %pb = arith.addi %pg, %lane : index
            scf.if %wlive {
              %yr0 = arith.muli %bgw, %cgrp : index
              %yr = arith.addi %yr0, %yrow : index
              func.call @sums(%ys, %part, %yr, %pb, ${my_args})
                  : (memref<${ys_size}xf32, #gpu.address_space<workgroup>>, memref<${part_size}xf32, #gpu.address_space<workgroup>>,
                     index, index, ${my_types}) -> ()
            } else {
              memref.store %zf, %part[%pb] : memref<${part_size}xf32, #gpu.address_space<workgroup>>
            }
            scf.yield %st#0, %st#1 : vector<${kp}xf64>, vector<${kp}xf64>
          }
          gpu.barrier
          %slast = arith.subi %nspans, %c1 : index
          %wlast = arith.remui %slast, %cnw : index
          %mine_last = arith.cmpi eq, %w, %wlast : index
          scf.if %mine_last {
            func.call @finish(%part, %carry, %chain, %q, %slast, %lane, %row0, %kmax, %lmm, %mstart, %b)
                : (memref<${part_size}xf32, #gpu.address_space<workgroup>>, memref<2x2xf64, #gpu.address_space<workgroup>>,
                   memref<?x5xf64, #hal.descriptor_type<storage_buffer>>, memref<?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                   index, index, index, index, index, index, index) -> ()
          }
          return
        }
      }
    }
  }
