// Fourier analysis stage `fft_analys` (docs/design.md) hand-written in MLIR, one source
// for CUDA, Metal and Vulkan: f -> F, one workgroup of 128 threads per row.
//
//   F[b][i][m] = sum_j f[b][i][j] exp(-i m 2 pi j / NP),  m = 0..M   (raw DFT, no 1/NP)
//
// bindings 0 twiddle [NT][2] (NP rows, NP/2 more on the FAST path: ireesht/numerics/fourier.py),
// 1 f [B][NL][NP], 2 F [B][NL][mc][2]; push constants NL, NP, mc, B; grid (NL, B, 1).
// Same algorithm as kernels/wgsl/fft_analys.wgsl, which explains the math:
//  * FAST, NP even with 4 <= NP <= 4096 and NP/2 = 2^a 3^b 5^c (ireesht/numerics/fourier.py fft_path):
//    the row packed as z_n = f_2n + i f_2n+1, transformed by an NP/2-point Stockham FFT in
//    workgroup memory (passes of radix 16 or 8 after one of the remainder's radix, then
//    radix 3 and radix 5: ireesht/numerics/fourier.py fft_passes; the first reads the row itself:
//    @src), split into
//    the spectrum of the real row. The WGSL kernel takes this path for powers of two only.
//  * DIRECT, any other NP (NP > 2M): band-limited DFT of the mc outputs only, the row staged in
//    workgroup memory, twiddle[(m j) mod NP] advanced incrementally; for small mc, S lanes per
//    m split the sum over j and a tree reduction joins them.
// The path is chosen at run time from the NP push constant (a uniform branch).
// No sin/cos on the device: every rotation is a `twiddle` entry (host float64, rounded once).
//
// string.Template placeholders: ${exe} ${target} ${pipeline} ${ft} ${nlat}, and fft_funcs /
// fft_core: the butterflies and the FFT passes of kernels/mlir/fft_core.mlir, in this stage's
// direction. ft is the arithmetic type (of twiddle and workgroup memory), io that of f and F
// (f32 where a float32 plan's variant "float64" computes in f64); load_io names the function
// that reads f's pairs, load_v and store_sum are the direct DFT's accesses to single points
// of f and F (converted where the types differ: ireesht/codegen/mlir/fft.py). The buffers are
// typed from the push constants, so one compiled kernel serves every NP, mc and B.
hal.executable private @${exe} {
  hal.executable.variant public @v target(${target}) {
    hal.executable.export public @main ordinal(0) layout(#fft_layout)
        count(%device: !hal.device, %b: index) -> (index, index, index) {
      %nl = arith.constant ${nlat} : index
      %c1 = arith.constant 1 : index
      hal.return %nl, %b, %c1 : index, index, index
    } <workgroup_size = [128 : index, 1 : index, 1 : index]>
    builtin.module {
        // Input z_k = f_2k + i f_2k+1 of the FFT, from row %fb of f [.][NP] (@pair_load: one
        // load on CUDA only). Called by fft_core's first pass.
        func.func private @src(%f: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %fb: index, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %n: index, %lim: index, %k: index) -> (${ft}, ${ft}) {
          %k2 = arith.addi %k, %k : index
          %o = arith.addi %fb, %k2 : index
          %re, %im = func.call @${load_io}(%f, %o) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
          return %re, %im : ${ft}, ${ft}
        }
${fft_funcs}
      func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        %c32 = arith.constant 32 : index
        %c64 = arith.constant 64 : index
        %c2047 = arith.constant 2047 : index
        // WG threads; HALF = largest FFT length (complex); re at [n], im at [HALF + n]
        // (unit-stride 32-bit accesses, bank-conflict free). 2 x 2048 f32 = 16 KB (f64: 32 KB).
        %wg = arith.constant 128 : index
        %half = arith.constant 2048 : index
        %zero = arith.constant 0.0 : ${ft}
        %pt5 = arith.constant 0.5 : ${ft}
        %nl_i = hal.interface.constant.load layout(#fft_layout) ordinal(0) : i32
        %np_i = hal.interface.constant.load layout(#fft_layout) ordinal(1) : i32
        %mc_i = hal.interface.constant.load layout(#fft_layout) ordinal(2) : i32
        %nb_i = hal.interface.constant.load layout(#fft_layout) ordinal(3) : i32
        %nl = arith.index_castui %nl_i : i32 to index
        %np = arith.index_castui %np_i : i32 to index
        %mc = arith.index_castui %mc_i : i32 to index
        %nb = arith.index_castui %nb_i : i32 to index
        %rows = arith.muli %nb, %nl : index
        %fast, %ntw = func.call @fft_path(%np) : (index) -> (i1, index)
        %nf = arith.muli %rows, %np : index
        %rmc = arith.muli %rows, %mc : index
        %nF = arith.muli %rmc, %c2 : index
        %tw = hal.interface.binding.subspan layout(#fft_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%ntw}
        %f = hal.interface.binding.subspan layout(#fft_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${io}, #hal.descriptor_type<storage_buffer>>{%nf}
        %F = hal.interface.binding.subspan layout(#fft_layout) binding(2) alignment(64) offset(%c0) : memref<?x${io}, #hal.descriptor_type<storage_buffer>>{%nF}
        %wx = hal.interface.workgroup.id[0] : index
        %wy = hal.interface.workgroup.id[1] : index
        %tid = gpu.thread_id x
        %sm = memref.alloc() : memref<4096x${ft}, #gpu.address_space<workgroup>>
        %rowl = arith.muli %wy, %nl : index
        %row = arith.addi %rowl, %wx : index
        %fb = arith.muli %row, %np : index
        %rowmc = arith.muli %row, %mc : index
        %Fb = arith.muli %rowmc, %c2 : index
        scf.if %fast {
          %n = arith.shrui %np, %c1 : index
          // the first pass reads @src (the row); the last leaves y in workgroup memory
          %srcm = memref.cast %f : memref<?x${io}, #hal.descriptor_type<storage_buffer>> to memref<?x${io}, #hal.descriptor_type<storage_buffer>>
          %sbase = arith.addi %fb, %c0 : index
          %lim = arith.addi %n, %c0 : index
          %out_global = arith.constant false
          %stage_first16 = arith.constant false
          %dst = memref.cast %F : memref<?x${io}, #hal.descriptor_type<storage_buffer>> to memref<?x${io}, #hal.descriptor_type<storage_buffer>>
          %dbase = arith.addi %c0, %c0 : index
${fft_core}
          // Split: E_m = (Z_m + conj Z_{n-m}) / 2 (even samples), O_m = (Z_m - conj Z_{n-m}) / 2i
          // (odd samples), F_m = E_m + exp(-2 pi i m / NP) O_m, for m < n (the contract's
          // NP > 2M; a larger m reads Z_{n-1}, in bounds).
          %nm1 = arith.subi %n, %c1 : index
          scf.for %m = %tid to %mc step %wg {
            %ka = arith.minui %m, %nm1 : index
            %nka = arith.subi %n, %ka : index
            %k0 = arith.cmpi eq, %ka, %c0 : index
            %kb = arith.select %k0, %c0, %nka : index
            %kah = arith.addi %ka, %half : index
            %kbh = arith.addi %kb, %half : index
            %zr = memref.load %sm[%ka] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %zi = memref.load %sm[%kah] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %yr = memref.load %sm[%kb] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %yi = memref.load %sm[%kbh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            // e = (z + conj y) / 2, d = z - conj y, o = d / 2i = (d.im, -d.re) / 2
            %sr = arith.addf %zr, %yr : ${ft}
            %si = arith.subf %zi, %yi : ${ft}
            %er = arith.mulf %sr, %pt5 : ${ft}
            %ei = arith.mulf %si, %pt5 : ${ft}
            %dr = arith.subf %zr, %yr : ${ft}
            %di = arith.addf %zi, %yi : ${ft}
            %or = arith.mulf %di, %pt5 : ${ft}
            %ndr = arith.negf %dr : ${ft}
            %oi = arith.mulf %ndr, %pt5 : ${ft}
            %k2 = arith.muli %ka, %c2 : index
            %wr, %wi = func.call @pair_load(%tw, %k2) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
            // F = e + o exp(-i theta)
            %g1 = arith.mulf %wi, %oi : ${ft}
            %g3 = arith.mulf %wi, %or : ${ft}
            %ng3 = arith.negf %g3 : ${ft}
            %qr = math.fma %wr, %or, %g1 : ${ft}
            %qi = math.fma %wr, %oi, %ng3 : ${ft}
            %Fr = arith.addf %er, %qr : ${ft}
            %Fi = arith.addf %ei, %qi : ${ft}
            %m2 = arith.muli %m, %c2 : index
            %o = arith.addi %Fb, %m2 : index
            func.call @pair_store(%F, %o, %Fr, %Fi) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, ${ft}, ${ft}) -> ()
          }
        } else {
          // DIRECT. S lanes per m (a power of two, S mc <= WG) so that small mc still uses the
          // workgroup; S <= 64 keeps a lane's 32-term block (32 S points) within one tile.
          %S = scf.while (%s0 = %c1) : (index) -> index {
            %small = arith.cmpi ult, %s0, %c64 : index
            %s2 = arith.muli %s0, %c2 : index
            %s2mc = arith.muli %s2, %mc : index
            %fits = arith.cmpi ule, %s2mc, %wg : index
            %go = arith.andi %small, %fits : i1
            scf.condition(%go) %s0 : index
          } do {
          ^bb0(%s0: index):
            %s2 = arith.muli %s0, %c2 : index
            scf.yield %s2 : index
          }
          %sm1 = arith.subi %S, %c1 : index
          %s = arith.andi %tid, %sm1 : index
          %lane = arith.divui %tid, %S : index
          %mstep = arith.divui %wg, %S : index
          %blk = arith.muli %S, %c32 : index
          %blkm1 = arith.subi %blk, %c1 : index
          // tiles of HALF points; past them, 2 WG floats of reduction scratch
          %npp = arith.addi %np, %c2047 : index
          %ntiles = arith.divui %npp, %half : index
          %multi = arith.cmpi ugt, %ntiles, %c1 : index
          %mcm1 = arith.subi %mc, %c1 : index
          %red = arith.addi %half, %tid : index
          %redi = arith.addi %red, %wg : index
          scf.for %m0 = %c0 to %mc step %mstep {
            %mm = arith.addi %m0, %lane : index
            // idle lanes redo the last m and store nothing
            %m = arith.minui %mm, %mcm1 : index
            %mn = arith.remui %m, %np : index
            // exp(-i m phi_j) at j = s, s + S, ...: index (m j) mod NP, advanced by (m S) mod NP
            %mS = arith.muli %mn, %S : index
            %step = arith.remui %mS, %np : index
            %ms = arith.muli %mn, %s : index
            %idx0 = arith.remui %ms, %np : index
            %first = arith.cmpi eq, %m0, %c0 : index
            %stage = arith.ori %multi, %first : i1
            %acc:3 = scf.for %t0 = %c0 to %np step %half iter_args(%ar = %zero, %ai = %zero, %ix = %idx0) -> (${ft}, ${ft}, index) {
              %left = arith.subi %np, %t0 : index
              %cnt = arith.minui %left, %half : index
              // zero-padded to whole blocks; HALF is a multiple of blk
              %cb = arith.addi %cnt, %blkm1 : index
              %cbd = arith.divui %cb, %blk : index
              %cntp = arith.muli %cbd, %blk : index
              // a single tile stays put across m passes
              scf.if %stage {
                gpu.barrier
                scf.for %t = %tid to %cntp step %wg {
                  %in = arith.cmpi ult, %t, %cnt : index
                  %x = scf.if %in -> (${ft}) {
                    %o1 = arith.addi %fb, %t0 : index
                    %o = arith.addi %o1, %t : index
${load_v}
                    scf.yield %v : ${ft}
                  } else {
                    scf.yield %zero : ${ft}
                  }
                  memref.store %x, %sm[%t] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                }
                gpu.barrier
              }
              // Blocks of 32 terms summed apart: rounding grows ~ sqrt(32) + sqrt(n / 32).
              %r:3 = scf.for %jj = %s to %cntp step %blk iter_args(%br = %ar, %bi = %ai, %iy = %ix) -> (${ft}, ${ft}, index) {
                %q:3 = scf.for %u = %c0 to %c32 step %c1 iter_args(%cr = %zero, %ci = %zero, %iz = %iy) -> (${ft}, ${ft}, index) {
                  %uS = arith.muli %u, %S : index
                  %j = arith.addi %jj, %uS : index
                  %x = memref.load %sm[%j] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %iz2 = arith.muli %iz, %c2 : index
                  %iz21 = arith.addi %iz2, %c1 : index
                  %wr = memref.load %tw[%iz2] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                  %wi = memref.load %tw[%iz21] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                  %xr = arith.mulf %x, %wr : ${ft}
                  %xi = arith.mulf %x, %wi : ${ft}
                  %cr2 = arith.addf %cr, %xr : ${ft}
                  %ci2 = arith.subf %ci, %xi : ${ft}
                  %kk = arith.addi %iz, %step : index
                  %wrap = arith.cmpi uge, %kk, %np : index
                  %kw = arith.subi %kk, %np : index
                  %izn = arith.select %wrap, %kw, %kk : index
                  scf.yield %cr2, %ci2, %izn : ${ft}, ${ft}, index
                }
                %br2 = arith.addf %br, %q#0 : ${ft}
                %bi2 = arith.addf %bi, %q#1 : ${ft}
                scf.yield %br2, %bi2, %q#2 : ${ft}, ${ft}, index
              }
              scf.yield %r#0, %r#1, %r#2 : ${ft}, ${ft}, index
            }
            %many = arith.cmpi ugt, %S, %c1 : index
            %sum:2 = scf.if %many -> (${ft}, ${ft}) {
              memref.store %acc#0, %sm[%red] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              memref.store %acc#1, %sm[%redi] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              gpu.barrier
              scf.while (%h = %S) : (index) -> index {
                %h2 = arith.shrui %h, %c1 : index
                %go = arith.cmpi ugt, %h2, %c0 : index
                scf.condition(%go) %h2 : index
              } do {
              ^bb0(%h: index):
                %lo = arith.cmpi ult, %s, %h : index
                scf.if %lo {
                  %red2 = arith.addi %red, %h : index
                  %redi2 = arith.addi %redi, %h : index
                  %ar = memref.load %sm[%red] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %br = memref.load %sm[%red2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %ai = memref.load %sm[%redi] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %bi = memref.load %sm[%redi2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %cr = arith.addf %ar, %br : ${ft}
                  %ci = arith.addf %ai, %bi : ${ft}
                  memref.store %cr, %sm[%red] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  memref.store %ci, %sm[%redi] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                }
                gpu.barrier
                scf.yield %h : index
              }
              %tr = memref.load %sm[%red] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              %ti = memref.load %sm[%redi] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              scf.yield %tr, %ti : ${ft}, ${ft}
            } else {
              scf.yield %acc#0, %acc#1 : ${ft}, ${ft}
            }
            %s0 = arith.cmpi eq, %s, %c0 : index
            %valid = arith.cmpi ult, %mm, %mc : index
            %store = arith.andi %s0, %valid : i1
            scf.if %store {
              %m2 = arith.muli %m, %c2 : index
              %o = arith.addi %Fb, %m2 : index
              %o1 = arith.addi %o, %c1 : index
${store_sum}
            }
          }
        }
        return
      }
    }
  }
}
