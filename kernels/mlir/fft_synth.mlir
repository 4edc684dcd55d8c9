// Fourier synthesis stage `fft_synth` (docs/design.md) hand-written in MLIR, one source
// for CUDA, Metal and Vulkan: F -> f, one workgroup of 128 threads per row.
//
//   f[b][i][j] = Re F_0 + 2 Re sum_{m=1..M} F_m exp(i m 2 pi j / NP)   (Im F_0 ignored)
//
// bindings 0 twiddle [NT][2] (NP rows, NP/2 more on the FAST path: ireesht/numerics/fourier.py),
// 1 F [B][NL][mc][2], 2 f [B][NL][NP]; push constants NL, NP, mc, B; grid (NL, B, 1).
// Same algorithm as kernels/wgsl/fft_synth.wgsl, which explains the math:
//  * FAST, NP even with 4 <= NP <= 4096 and NP/2 = 2^a 3^b 5^c (ireesht/numerics/fourier.py fft_path):
//    Hermitian spectrum folded into the NP/2-point complex spectrum of z_n = f_2n + i f_2n+1,
//    inverted by a Stockham FFT in workgroup memory (passes of radix 16 or 8 after one of
//    the remainder's radix, then radix 3 and radix 5: ireesht/numerics/fourier.py fft_passes), written out
//    interleaved. The fold is the first pass's input (@src: nothing staged before it), and
//    on rows of a power of two the last pass writes the row. The WGSL kernel takes this
//    path for powers of two only.
//  * DIRECT, any other NP (NP > 2M): band-limited sum over the mc coefficients, threads own
//    points j, the F row staged in workgroup memory, twiddle[(m j) mod NP] advanced by j.
// The path is chosen at run time from the NP push constant (a uniform branch).
// No sin/cos on the device: every rotation is a `twiddle` entry (host float64, rounded once).
//
// string.Template placeholders: ${exe} ${target} ${pipeline} ${ft} ${nlat}, and fft_funcs /
// fft_core: the butterflies and the FFT passes of kernels/mlir/fft_core.mlir, in this stage's
// direction. ft is the arithmetic type (of twiddle and workgroup memory), io that of F and f
// (f32 where a float32 plan's variant "float64" computes in f64); load_io names the function
// that reads F's pairs, store_v and store_acc are f's stores of single points (converted
// where the types differ: ireesht/codegen/mlir/fft.py). The buffers are typed
// from the push constants, so one compiled kernel serves every NP, mc and B.
hal.executable private @${exe} {
  hal.executable.variant public @v target(${target}) {
    hal.executable.export public @main ordinal(0) layout(#fft_layout)
        count(%device: !hal.device, %b: index) -> (index, index, index) {
      %nl = arith.constant ${nlat} : index
      %c1 = arith.constant 1 : index
      hal.return %nl, %b, %c1 : index, index, index
    } <workgroup_size = [128 : index, 1 : index, 1 : index]>
    builtin.module {
        // Input z_k of the FFT, the Hermitian spectrum X of row %base of F [.][mc][2] folded
        // into the n-point complex spectrum of z_j = f_2j + i f_2j+1 (n = NP / 2):
        //   Z_k = (X_k + conj X_(n-k)) + i exp(2 pi i k / NP) (X_k - conj X_(n-k)),
        // X_0 = Re F_0, X_m = F_m for m <= %mmax, else 0. Called by fft_core's first pass.
        func.func private @src(%F: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %Fb: index, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %n: index, %mmax: index, %k: index) -> (${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %c2 = arith.constant 2 : index
          %zero = arith.constant 0.0 : ${ft}
          %kin = arith.cmpi ule, %k, %mmax : index
          %xr, %xi1 = scf.if %kin -> (${ft}, ${ft}) {
            %k2 = arith.muli %k, %c2 : index
            %o = arith.addi %Fb, %k2 : index
            %r, %i = func.call @${load_io}(%F, %o) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
            scf.yield %r, %i : ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero : ${ft}, ${ft}
          }
          %k0 = arith.cmpi eq, %k, %c0 : index
          %xi = arith.select %k0, %zero, %xi1 : ${ft}
          %nk = arith.subi %n, %k : index
          %cin = arith.cmpi ule, %nk, %mmax : index
          %cr, %ci = scf.if %cin -> (${ft}, ${ft}) {
            %nk2 = arith.muli %nk, %c2 : index
            %o = arith.addi %Fb, %nk2 : index
            %r, %i = func.call @${load_io}(%F, %o) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
            %ni = arith.negf %i : ${ft}
            scf.yield %r, %ni : ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero : ${ft}, ${ft}
          }
          %k2 = arith.muli %k, %c2 : index
          %wr, %wi = func.call @pair_load(%tw, %k2) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
          %dr = arith.subf %xr, %cr : ${ft}
          %di = arith.subf %xi, %ci : ${ft}
          %g1 = arith.mulf %wi, %di : ${ft}
          %g3 = arith.mulf %wi, %dr : ${ft}
          %ng1 = arith.negf %g1 : ${ft}
          %er = math.fma %wr, %dr, %ng1 : ${ft}
          %ei = math.fma %wr, %di, %g3 : ${ft}
          %sr = arith.addf %xr, %cr : ${ft}
          %si = arith.addf %xi, %ci : ${ft}
          %zr = arith.subf %sr, %ei : ${ft}
          %zi = arith.addf %si, %er : ${ft}
          return %zr, %zi : ${ft}, ${ft}
        }
${fft_funcs}
      func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c4 = arith.constant 4 : index
        %c31 = arith.constant 31 : index
        %c32 = arith.constant 32 : index
        %c2047 = arith.constant 2047 : index
        %cm32 = arith.constant -32 : index
        // WG threads; HALF = largest FFT length (complex) = DIRECT tile; re at [n], im at [HALF + n]
        // (unit-stride 32-bit accesses, bank-conflict free). 2 x 2048 f32 = 16 KB (f64: 32 KB).
        %wg = arith.constant 128 : index
        %half = arith.constant 2048 : index
        %zero = arith.constant 0.0 : ${ft}
        %two = arith.constant 2.0 : ${ft}
        %nl_i = hal.interface.constant.load layout(#fft_layout) ordinal(0) : i32
        %np_i = hal.interface.constant.load layout(#fft_layout) ordinal(1) : i32
        %mc_i = hal.interface.constant.load layout(#fft_layout) ordinal(2) : i32
        %nb_i = hal.interface.constant.load layout(#fft_layout) ordinal(3) : i32
        %nl = arith.index_castui %nl_i : i32 to index
        %np = arith.index_castui %np_i : i32 to index
        %mc = arith.index_castui %mc_i : i32 to index
        %nb = arith.index_castui %nb_i : i32 to index
        %rows = arith.muli %nb, %nl : index
        %npm1 = arith.subi %np, %c1 : index
        %fast, %ntw = func.call @fft_path(%np) : (index) -> (i1, index)
        %rmc = arith.muli %rows, %mc : index
        %nF = arith.muli %rmc, %c2 : index
        %nf = arith.muli %rows, %np : index
        %tw = hal.interface.binding.subspan layout(#fft_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%ntw}
        %F = hal.interface.binding.subspan layout(#fft_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${io}, #hal.descriptor_type<storage_buffer>>{%nF}
        %f = hal.interface.binding.subspan layout(#fft_layout) binding(2) alignment(64) offset(%c0) : memref<?x${io}, #hal.descriptor_type<storage_buffer>>{%nf}
        %wx = hal.interface.workgroup.id[0] : index
        %wy = hal.interface.workgroup.id[1] : index
        %tid = gpu.thread_id x
        %sm = memref.alloc() : memref<4096x${ft}, #gpu.address_space<workgroup>>
        %rowl = arith.muli %wy, %nl : index
        %row = arith.addi %rowl, %wx : index
        %rowmc = arith.muli %row, %mc : index
        %Fb = arith.muli %rowmc, %c2 : index
        %fb = arith.muli %row, %np : index
        scf.if %fast {
          %n = arith.shrui %np, %c1 : index
          %mmax = arith.subi %mc, %c1 : index
          // the first pass reads @src (the folded spectrum of F), the last writes f (below)
          %srcm = memref.cast %F : memref<?x${io}, #hal.descriptor_type<storage_buffer>> to memref<?x${io}, #hal.descriptor_type<storage_buffer>>
          %sbase = arith.addi %Fb, %c0 : index
          %lim = arith.addi %mmax, %c0 : index
          %out_global = arith.constant true
          %stage_first16 = arith.constant true
          %dst = memref.cast %f : memref<?x${io}, #hal.descriptor_type<storage_buffer>> to memref<?x${io}, #hal.descriptor_type<storage_buffer>>
          %dbase = arith.addi %fb, %c0 : index
${fft_core}
          // Rows of a power of two points were written by the last pass (of radix 16 or 8, or
          // the first); the others' last pass, of radix 3 or 5, left y in workgroup memory (their
          // stores to the row were slower: H200, 721 x 1440, one field, 18.5 against 16 us):
          // f_2n = Re z_n, f_2n+1 = Im z_n, a coalesced row write (scalar accesses: vector<2>
          // loads and stores of the row crash the pipeline creation of NVIDIA's Vulkan driver
          // 580.159, H200, 2026-11-30)
          scf.if %mixed {
            scf.for %t = %tid to %np step %wg {
              %h = arith.shrui %t, %c1 : index
              %odd1 = arith.andi %t, %c1 : index
              %oh = arith.muli %odd1, %half : index
              %s = arith.addi %h, %oh : index
              %v = memref.load %sm[%s] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              %o = arith.addi %fb, %t : index
${store_v}
            }
          }
        } else {
          // DIRECT: tiles of HALF coefficients (weight 2 for m >= 1, Im F_0 dropped, applied
          // once when staged), zero-padded to whole 32-term blocks. A single tile stays put
          // across the blocks of WG points.
          %mcp = arith.addi %mc, %c2047 : index
          %ntiles = arith.divui %mcp, %half : index
          %multi = arith.cmpi ugt, %ntiles, %c1 : index
          scf.for %j0 = %c0 to %np step %wg {
            %j = arith.addi %j0, %tid : index
            // idle lanes redo the last point and store nothing
            %jr = arith.minui %j, %npm1 : index
            %first = arith.cmpi eq, %j0, %c0 : index
            %stage = arith.ori %multi, %first : i1
            // idx = (m j) mod NP, advanced by j per m: no overflow
            %acc, %idxe = scf.for %m0 = %c0 to %mc step %half iter_args(%acc0 = %zero, %idx0 = %c0) -> (${ft}, index) {
              %left = arith.subi %mc, %m0 : index
              %cnt = arith.minui %left, %half : index
              %cnt31 = arith.addi %cnt, %c31 : index
              %cntp = arith.andi %cnt31, %cm32 : index
              scf.if %stage {
                gpu.barrier
                scf.for %t = %tid to %cntp step %wg {
                  %in = arith.cmpi ult, %t, %cnt : index
                  %vr, %vi = scf.if %in -> (${ft}, ${ft}) {
                    %m = arith.addi %m0, %t : index
                    %m2 = arith.muli %m, %c2 : index
                    %o = arith.addi %Fb, %m2 : index
                    %r, %i = func.call @${load_io}(%F, %o) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
                    %isz = arith.cmpi eq, %m, %c0 : index
                    %r2 = arith.mulf %r, %two : ${ft}
                    %i2 = arith.mulf %i, %two : ${ft}
                    %wr = arith.select %isz, %r, %r2 : ${ft}
                    %wi = arith.select %isz, %zero, %i2 : ${ft}
                    scf.yield %wr, %wi : ${ft}, ${ft}
                  } else {
                    scf.yield %zero, %zero : ${ft}, ${ft}
                  }
                  %th = arith.addi %t, %half : index
                  memref.store %vr, %sm[%t] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  memref.store %vi, %sm[%th] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                }
                gpu.barrier
              }
              // Blocks of 32 terms summed apart: rounding grows ~ sqrt(32) + sqrt(n / 32).
              %acc1, %idx1 = scf.for %t0 = %c0 to %cntp step %c32 iter_args(%a = %acc0, %ix = %idx0) -> (${ft}, index) {
                %blk, %ix2 = scf.for %u = %c0 to %c32 step %c1 iter_args(%s = %zero, %iy = %ix) -> (${ft}, index) {
                  %t = arith.addi %t0, %u : index
                  %th = arith.addi %t, %half : index
                  %fr = memref.load %sm[%t] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %fi = memref.load %sm[%th] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %iy2 = arith.muli %iy, %c2 : index
                  %iy21 = arith.addi %iy2, %c1 : index
                  %wr = memref.load %tw[%iy2] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                  %wi = memref.load %tw[%iy21] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                  %pr = arith.mulf %fr, %wr : ${ft}
                  %pi = arith.mulf %fi, %wi : ${ft}
                  %term = arith.subf %pr, %pi : ${ft}
                  %s2 = arith.addf %s, %term : ${ft}
                  %kk = arith.addi %iy, %jr : index
                  %wrap = arith.cmpi uge, %kk, %np : index
                  %kw = arith.subi %kk, %np : index
                  %iyn = arith.select %wrap, %kw, %kk : index
                  scf.yield %s2, %iyn : ${ft}, index
                }
                %a2 = arith.addf %a, %blk : ${ft}
                scf.yield %a2, %ix2 : ${ft}, index
              }
              scf.yield %acc1, %idx1 : ${ft}, index
            }
            %store = arith.cmpi ult, %j, %np : index
            scf.if %store {
              %o = arith.addi %fb, %j : index
${store_acc}
            }
          }
        }
        return
      }
    }
  }
}
