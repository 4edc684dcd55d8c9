// Fourier analysis stage `fft_analys` (kernels/CONTRACT.md) hand-written in MLIR, one source
// for CUDA, Metal and Vulkan: f -> F, one workgroup of 128 threads per row.
//
//   F[b][i][m] = sum_j f[b][i][j] exp(-i m 2 pi j / NP),  m = 0..M   (raw DFT, no 1/NP)
//
// bindings 0 twiddle [NP][2], 1 f [B][NL][NP], 2 F [B][NL][mc][2]; push constants NL, NP, mc, B;
// grid (NL, B, 1). Same algorithm as kernels/wgsl/fft_analys.wgsl, which explains the math:
//  * FAST, NP a power of two with 4 <= NP <= 4096: the row packed as z_n = f_2n + i f_2n+1,
//    transformed by an NP/2-point Stockham FFT in workgroup memory (one radix-2 pass when
//    log2(NP/2) is odd, then radix-4 passes), split into the spectrum of the real row.
//  * DIRECT, any other NP (NP > 2M): band-limited DFT of the mc outputs only, the row staged in
//    workgroup memory, twiddle[(m j) mod NP] advanced incrementally; for small mc, S lanes per
//    m split the sum over j and a tree reduction joins them.
// The path is chosen at run time from the NP push constant (a uniform branch).
// No sin/cos on the device: every rotation is a `twiddle` entry (host float64, rounded once).
// kernels/mlir/fft_synth.mlir holds the same FFT passes with the opposite sign.
//
// string.Template placeholders: ${exe} ${target} ${pipeline} ${ft} ${nlat}. The buffers are
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
      func.func @main() attributes {translation_info = #iree_codegen.translation_info<pipeline = ${pipeline} workgroup_size = [128, 1, 1]>} {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        %c6 = arith.constant 6 : index
        %c7 = arith.constant 7 : index
        %c32 = arith.constant 32 : index
        %c64 = arith.constant 64 : index
        %c127 = arith.constant 127 : index
        %c512 = arith.constant 512 : index
        %c2047 = arith.constant 2047 : index
        // WG threads; HALF = largest FFT length (complex); re at [n], im at [HALF + n]
        // (unit-stride 32-bit accesses, bank-conflict free). 2 x 2048 f32 = 16 KB (f64: 32 KB).
        %wg = arith.constant 128 : index
        %half = arith.constant 2048 : index
        %c4096 = arith.constant 4096 : index
        // bits 1, 3, ..., 11: a power of two n <= 2048 has an odd log2 iff n & 0xAAA != 0
        %oddbits = arith.constant 2730 : index
        %zero = arith.constant 0.0 : ${ft}
        %pt5 = arith.constant 0.5 : ${ft}
        %vz = arith.constant dense<0.0> : vector<4x${ft}>
        %nl_i = hal.interface.constant.load layout(#fft_layout) ordinal(0) : i32
        %np_i = hal.interface.constant.load layout(#fft_layout) ordinal(1) : i32
        %mc_i = hal.interface.constant.load layout(#fft_layout) ordinal(2) : i32
        %nb_i = hal.interface.constant.load layout(#fft_layout) ordinal(3) : i32
        %nl = arith.index_castui %nl_i : i32 to index
        %np = arith.index_castui %np_i : i32 to index
        %mc = arith.index_castui %mc_i : i32 to index
        %nb = arith.index_castui %nb_i : i32 to index
        %rows = arith.muli %nb, %nl : index
        %ntw = arith.muli %np, %c2 : index
        %nf = arith.muli %rows, %np : index
        %rmc = arith.muli %rows, %mc : index
        %nF = arith.muli %rmc, %c2 : index
        %tw = hal.interface.binding.subspan layout(#fft_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%ntw}
        %f = hal.interface.binding.subspan layout(#fft_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%nf}
        %F = hal.interface.binding.subspan layout(#fft_layout) binding(2) alignment(64) offset(%c0) : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>{%nF}
        %wx = hal.interface.workgroup.id[0] : index
        %wy = hal.interface.workgroup.id[1] : index
        %tid = gpu.thread_id x
        %sm = memref.alloc() : memref<4096x${ft}, #gpu.address_space<workgroup>>
        %rowl = arith.muli %wy, %nl : index
        %row = arith.addi %rowl, %wx : index
        %fb = arith.muli %row, %np : index
        %rowmc = arith.muli %row, %mc : index
        %Fb = arith.muli %rowmc, %c2 : index
        %npm1 = arith.subi %np, %c1 : index
        %npand = arith.andi %np, %npm1 : index
        %ispow = arith.cmpi eq, %npand, %c0 : index
        %ge4 = arith.cmpi uge, %np, %c4 : index
        %le = arith.cmpi ule, %np, %c4096 : index
        %fast0 = arith.andi %ispow, %ge4 : i1
        %fast = arith.andi %fast0, %le : i1
        scf.if %fast {
          %n = arith.shrui %np, %c1 : index
          // coalesced row read, de-interleaved into z_n = f_2n + i f_2n+1
          scf.for %t = %tid to %np step %wg {
            %o = arith.addi %fb, %t : index
            %v = memref.load %f[%o] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %h = arith.shrui %t, %c1 : index
            %odd1 = arith.andi %t, %c1 : index
            %oh = arith.muli %odd1, %half : index
            %s = arith.addi %h, %oh : index
            memref.store %v, %sm[%s] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          }
          gpu.barrier
          // In-place DFT of sm[0..n) with exp(-2 pi i k t / n): Stockham passes with sub-transform
          // length p; a pass reads x[i + r n/R] and writes y[(i - k) R + k + r p], k = i mod p, so the
          // result comes out in natural order. A thread's outputs wait in registers until all
          // threads have read their inputs, then overwrite the buffer they were read from: one
          // buffer keeps the 2048-point FFT in 16 KB. A thread has qn <= 4 butterflies per pass,
          // tid + 128 q: their outputs are pushed into lane 0 of vector<4>s, shifting the older ones
          // up (static shuffles: a dynamic lane index puts the vectors in local memory on CUDA), and
          // popped from lane 0 in reverse order.
          %nodd = arith.andi %n, %oddbits : index
          %odd = arith.cmpi ne, %nodd, %c0 : index
          %p0, %lp0 = scf.if %odd -> (index, index) {
            // radix 2, only ever the first pass (p = 1): all twiddles are 1. A thread's butterflies
            // are tid + 128 q and tid + 128 q + 512, q < qn2 (n / 2 <= 1024 of them).
            %nb2 = arith.shrui %n, %c1 : index
            %nb2r = arith.addi %nb2, %c127 : index
            %qn2w = arith.shrui %nb2r, %c7 : index
            %qn2 = arith.minui %qn2w, %c4 : index
            %r2:8 = scf.for %q = %c0 to %qn2 step %c1 iter_args(%v0 = %vz, %v1 = %vz, %v2 = %vz, %v3 = %vz, %v4 = %vz, %v5 = %vz, %v6 = %vz, %v7 = %vz) -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>) {
              %qo = arith.muli %q, %wg : index
              %ia = arith.addi %tid, %qo : index
              %ib = arith.addi %ia, %c512 : index
              %ina = arith.cmpi ult, %ia, %nb2 : index
              %inb = arith.cmpi ult, %ib, %nb2 : index
              %y:8 = scf.if %ina -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
                %ah = arith.addi %ia, %half : index
                %a2 = arith.addi %ia, %nb2 : index
                %a2h = arith.addi %a2, %half : index
                %bh = arith.addi %ib, %half : index
                %b2 = arith.addi %ib, %nb2 : index
                %b2h = arith.addi %b2, %half : index
                %ar = memref.load %sm[%ia] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %ai = memref.load %sm[%ah] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %br = memref.load %sm[%a2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %bi = memref.load %sm[%a2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %sr = arith.addf %ar, %br : ${ft}
                %si = arith.addf %ai, %bi : ${ft}
                %dr = arith.subf %ar, %br : ${ft}
                %di = arith.subf %ai, %bi : ${ft}
                // the second butterfly exists only when n / 2 > 512
                %z:4 = scf.if %inb -> (${ft}, ${ft}, ${ft}, ${ft}) {
                  %cr = memref.load %sm[%ib] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %ci = memref.load %sm[%bh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %er = memref.load %sm[%b2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %ei = memref.load %sm[%b2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                  %tr = arith.addf %cr, %er : ${ft}
                  %ti = arith.addf %ci, %ei : ${ft}
                  %ur = arith.subf %cr, %er : ${ft}
                  %ui = arith.subf %ci, %ei : ${ft}
                  scf.yield %tr, %ti, %ur, %ui : ${ft}, ${ft}, ${ft}, ${ft}
                } else {
                  scf.yield %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}
                }
                scf.yield %sr, %si, %dr, %di, %z#0, %z#1, %z#2, %z#3 : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
              } else {
                scf.yield %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
              }
              %b0 = vector.broadcast %y#0 : ${ft} to vector<4x${ft}>
              %n0 = vector.shuffle %b0, %v0 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b1 = vector.broadcast %y#1 : ${ft} to vector<4x${ft}>
              %n1 = vector.shuffle %b1, %v1 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b2 = vector.broadcast %y#2 : ${ft} to vector<4x${ft}>
              %n2 = vector.shuffle %b2, %v2 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b3 = vector.broadcast %y#3 : ${ft} to vector<4x${ft}>
              %n3 = vector.shuffle %b3, %v3 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b4 = vector.broadcast %y#4 : ${ft} to vector<4x${ft}>
              %n4 = vector.shuffle %b4, %v4 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b5 = vector.broadcast %y#5 : ${ft} to vector<4x${ft}>
              %n5 = vector.shuffle %b5, %v5 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b6 = vector.broadcast %y#6 : ${ft} to vector<4x${ft}>
              %n6 = vector.shuffle %b6, %v6 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b7 = vector.broadcast %y#7 : ${ft} to vector<4x${ft}>
              %n7 = vector.shuffle %b7, %v7 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>
            }
            gpu.barrier
            scf.for %it = %c0 to %qn2 step %c1 iter_args(%v0 = %r2#0, %v1 = %r2#1, %v2 = %r2#2, %v3 = %r2#3, %v4 = %r2#4, %v5 = %r2#5, %v6 = %r2#6, %v7 = %r2#7) -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>) {
              %qr = arith.subi %qn2, %it : index
              %q = arith.subi %qr, %c1 : index
              %qo = arith.muli %q, %wg : index
              %ia = arith.addi %tid, %qo : index
              %ib = arith.addi %ia, %c512 : index
              %ina = arith.cmpi ult, %ia, %nb2 : index
              scf.if %ina {
                %sr = vector.extract %v0[0] : ${ft} from vector<4x${ft}>
                %si = vector.extract %v1[0] : ${ft} from vector<4x${ft}>
                %dr = vector.extract %v2[0] : ${ft} from vector<4x${ft}>
                %di = vector.extract %v3[0] : ${ft} from vector<4x${ft}>
                %j = arith.muli %ia, %c2 : index
                %jh = arith.addi %j, %half : index
                %j1 = arith.addi %j, %c1 : index
                %j1h = arith.addi %j1, %half : index
                memref.store %sr, %sm[%j] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %si, %sm[%jh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %dr, %sm[%j1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %di, %sm[%j1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              }
              %inb = arith.cmpi ult, %ib, %nb2 : index
              scf.if %inb {
                %sr = vector.extract %v4[0] : ${ft} from vector<4x${ft}>
                %si = vector.extract %v5[0] : ${ft} from vector<4x${ft}>
                %dr = vector.extract %v6[0] : ${ft} from vector<4x${ft}>
                %di = vector.extract %v7[0] : ${ft} from vector<4x${ft}>
                %j = arith.muli %ib, %c2 : index
                %jh = arith.addi %j, %half : index
                %j1 = arith.addi %j, %c1 : index
                %j1h = arith.addi %j1, %half : index
                memref.store %sr, %sm[%j] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %si, %sm[%jh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %dr, %sm[%j1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %di, %sm[%j1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              }
              %n0 = vector.shuffle %v0, %v0 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n1 = vector.shuffle %v1, %v1 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n2 = vector.shuffle %v2, %v2 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n3 = vector.shuffle %v3, %v3 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n4 = vector.shuffle %v4, %v4 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n5 = vector.shuffle %v5, %v5 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n6 = vector.shuffle %v6, %v6 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n7 = vector.shuffle %v7, %v7 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>
            }
            gpu.barrier
            scf.yield %c2, %c1 : index, index
          } else {
            scf.yield %c1, %c0 : index, index
          }
          // radix-4 passes; a thread's butterflies are tid + 128 q, q < qn4 (n / 4 <= 512 of them)
          %nb4 = arith.shrui %n, %c2 : index
          %nb4x2 = arith.muli %nb4, %c2 : index
          %nb4x3 = arith.muli %nb4, %c3 : index
          %nb4r = arith.addi %nb4, %c127 : index
          %qn4 = arith.shrui %nb4r, %c7 : index
          scf.while (%p = %p0, %lp = %lp0) : (index, index) -> (index, index) {
            %go = arith.cmpi ult, %p, %n : index
            scf.condition(%go) %p, %lp : index, index
          } do {
          ^bb0(%p: index, %lp: index):
            // rotation r k / (4 p) of a turn = table entry r k ts, ts = NP / (4 p); 4 p divides n
            %lp2 = arith.addi %lp, %c2 : index
            %ts = arith.shrui %np, %lp2 : index
            %pm1 = arith.subi %p, %c1 : index
            %r4:8 = scf.for %q = %c0 to %qn4 step %c1 iter_args(%v0 = %vz, %v1 = %vz, %v2 = %vz, %v3 = %vz, %v4 = %vz, %v5 = %vz, %v6 = %vz, %v7 = %vz) -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>) {
              %qo = arith.muli %q, %wg : index
              %i = arith.addi %tid, %qo : index
              %in = arith.cmpi ult, %i, %nb4 : index
              %y:8 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
                %k = arith.andi %i, %pm1 : index
                %i1 = arith.addi %i, %nb4 : index
                %i2 = arith.addi %i, %nb4x2 : index
                %i3 = arith.addi %i, %nb4x3 : index
                %ih = arith.addi %i, %half : index
                %a0r = memref.load %sm[%i] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %a0i = memref.load %sm[%ih] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %kts = arith.muli %k, %ts : index
                %i1h = arith.addi %i1, %half : index
                %b1r = memref.load %sm[%i1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %b1i = memref.load %sm[%i1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %t1 = arith.muli %kts, %c2 : index
                %t11 = arith.addi %t1, %c1 : index
                %w1r = memref.load %tw[%t1] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %w1i = memref.load %tw[%t11] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %m1a = arith.mulf %b1r, %w1r : ${ft}
                %m1b = arith.mulf %b1i, %w1i : ${ft}
                %m1c = arith.mulf %b1r, %w1i : ${ft}
                %m1d = arith.mulf %b1i, %w1r : ${ft}
                %a1r = arith.addf %m1a, %m1b : ${ft}
                %a1i = arith.subf %m1d, %m1c : ${ft}
                %i2h = arith.addi %i2, %half : index
                %b2r = memref.load %sm[%i2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %b2i = memref.load %sm[%i2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %t2 = arith.muli %kts, %c4 : index
                %t21 = arith.addi %t2, %c1 : index
                %w2r = memref.load %tw[%t2] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %w2i = memref.load %tw[%t21] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %m2a = arith.mulf %b2r, %w2r : ${ft}
                %m2b = arith.mulf %b2i, %w2i : ${ft}
                %m2c = arith.mulf %b2r, %w2i : ${ft}
                %m2d = arith.mulf %b2i, %w2r : ${ft}
                %a2r = arith.addf %m2a, %m2b : ${ft}
                %a2i = arith.subf %m2d, %m2c : ${ft}
                %i3h = arith.addi %i3, %half : index
                %b3r = memref.load %sm[%i3] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %b3i = memref.load %sm[%i3h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %t3 = arith.muli %kts, %c6 : index
                %t31 = arith.addi %t3, %c1 : index
                %w3r = memref.load %tw[%t3] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %w3i = memref.load %tw[%t31] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
                %m3a = arith.mulf %b3r, %w3r : ${ft}
                %m3b = arith.mulf %b3i, %w3i : ${ft}
                %m3c = arith.mulf %b3r, %w3i : ${ft}
                %m3d = arith.mulf %b3i, %w3r : ${ft}
                %a3r = arith.addf %m3a, %m3b : ${ft}
                %a3i = arith.subf %m3d, %m3c : ${ft}
                %s02r = arith.addf %a0r, %a2r : ${ft}
                %s02i = arith.addf %a0i, %a2i : ${ft}
                %d02r = arith.subf %a0r, %a2r : ${ft}
                %d02i = arith.subf %a0i, %a2i : ${ft}
                %s13r = arith.addf %a1r, %a3r : ${ft}
                %s13i = arith.addf %a1i, %a3i : ${ft}
                %d13r = arith.subf %a1r, %a3r : ${ft}
                %d13i = arith.subf %a1i, %a3i : ${ft}
                %y0r = arith.addf %s02r, %s13r : ${ft}
                %y0i = arith.addf %s02i, %s13i : ${ft}
                %y2r = arith.subf %s02r, %s13r : ${ft}
                %y2i = arith.subf %s02i, %s13i : ${ft}
                // y1 = d02 - i d13, y3 = d02 + i d13
                %y1r = arith.addf %d02r, %d13i : ${ft}
                %y1i = arith.subf %d02i, %d13r : ${ft}
                %y3r = arith.subf %d02r, %d13i : ${ft}
                %y3i = arith.addf %d02i, %d13r : ${ft}
                scf.yield %y0r, %y0i, %y1r, %y1i, %y2r, %y2i, %y3r, %y3i : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
              } else {
                scf.yield %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
              }
              %b0 = vector.broadcast %y#0 : ${ft} to vector<4x${ft}>
              %n0 = vector.shuffle %b0, %v0 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b1 = vector.broadcast %y#1 : ${ft} to vector<4x${ft}>
              %n1 = vector.shuffle %b1, %v1 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b2 = vector.broadcast %y#2 : ${ft} to vector<4x${ft}>
              %n2 = vector.shuffle %b2, %v2 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b3 = vector.broadcast %y#3 : ${ft} to vector<4x${ft}>
              %n3 = vector.shuffle %b3, %v3 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b4 = vector.broadcast %y#4 : ${ft} to vector<4x${ft}>
              %n4 = vector.shuffle %b4, %v4 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b5 = vector.broadcast %y#5 : ${ft} to vector<4x${ft}>
              %n5 = vector.shuffle %b5, %v5 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b6 = vector.broadcast %y#6 : ${ft} to vector<4x${ft}>
              %n6 = vector.shuffle %b6, %v6 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              %b7 = vector.broadcast %y#7 : ${ft} to vector<4x${ft}>
              %n7 = vector.shuffle %b7, %v7 [0, 4, 5, 6] : vector<4x${ft}>, vector<4x${ft}>
              scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>
            }
            gpu.barrier
            scf.for %it = %c0 to %qn4 step %c1 iter_args(%v0 = %r4#0, %v1 = %r4#1, %v2 = %r4#2, %v3 = %r4#3, %v4 = %r4#4, %v5 = %r4#5, %v6 = %r4#6, %v7 = %r4#7) -> (vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>) {
              %qr = arith.subi %qn4, %it : index
              %q = arith.subi %qr, %c1 : index
              %qo = arith.muli %q, %wg : index
              %i = arith.addi %tid, %qo : index
              %in = arith.cmpi ult, %i, %nb4 : index
              scf.if %in {
                %k = arith.andi %i, %pm1 : index
                %ik = arith.subi %i, %k : index
                %ik4 = arith.muli %ik, %c4 : index
                %j0 = arith.addi %ik4, %k : index
                %j1 = arith.addi %j0, %p : index
                %j2 = arith.addi %j1, %p : index
                %j3 = arith.addi %j2, %p : index
                %j0h = arith.addi %j0, %half : index
                %e0r = vector.extract %v0[0] : ${ft} from vector<4x${ft}>
                %e0i = vector.extract %v1[0] : ${ft} from vector<4x${ft}>
                memref.store %e0r, %sm[%j0] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %e0i, %sm[%j0h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %j1h = arith.addi %j1, %half : index
                %e1r = vector.extract %v2[0] : ${ft} from vector<4x${ft}>
                %e1i = vector.extract %v3[0] : ${ft} from vector<4x${ft}>
                memref.store %e1r, %sm[%j1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %e1i, %sm[%j1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %j2h = arith.addi %j2, %half : index
                %e2r = vector.extract %v4[0] : ${ft} from vector<4x${ft}>
                %e2i = vector.extract %v5[0] : ${ft} from vector<4x${ft}>
                memref.store %e2r, %sm[%j2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %e2i, %sm[%j2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                %j3h = arith.addi %j3, %half : index
                %e3r = vector.extract %v6[0] : ${ft} from vector<4x${ft}>
                %e3i = vector.extract %v7[0] : ${ft} from vector<4x${ft}>
                memref.store %e3r, %sm[%j3] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                memref.store %e3i, %sm[%j3h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              }
              %n0 = vector.shuffle %v0, %v0 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n1 = vector.shuffle %v1, %v1 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n2 = vector.shuffle %v2, %v2 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n3 = vector.shuffle %v3, %v3 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n4 = vector.shuffle %v4, %v4 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n5 = vector.shuffle %v5, %v5 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n6 = vector.shuffle %v6, %v6 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              %n7 = vector.shuffle %v7, %v7 [1, 2, 3, 0] : vector<4x${ft}>, vector<4x${ft}>
              scf.yield %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>, vector<4x${ft}>
            }
            gpu.barrier
            %p4 = arith.muli %p, %c4 : index
            scf.yield %p4, %lp2 : index, index
          }
          // Split: E_m = (Z_m + conj Z_{n-m}) / 2 (even samples), O_m = (Z_m - conj Z_{n-m}) / 2i
          // (odd samples), F_m = E_m + exp(-2 pi i m / NP) O_m. E, O are n-periodic, so the
          // masked indices give the right (aliased) values for m >= n too.
          %nm1 = arith.subi %n, %c1 : index
          scf.for %m = %tid to %mc step %wg {
            %ka = arith.andi %m, %nm1 : index
            %nmm = arith.subi %n, %m : index
            %kb = arith.andi %nmm, %nm1 : index
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
            %km = arith.andi %m, %npm1 : index
            %k2 = arith.muli %km, %c2 : index
            %k21 = arith.addi %k2, %c1 : index
            %wr = memref.load %tw[%k2] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %wi = memref.load %tw[%k21] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            // F = e + o exp(-i theta)
            %g0 = arith.mulf %wr, %or : ${ft}
            %g1 = arith.mulf %wi, %oi : ${ft}
            %g2 = arith.mulf %wr, %oi : ${ft}
            %g3 = arith.mulf %wi, %or : ${ft}
            %qr = arith.addf %g0, %g1 : ${ft}
            %qi = arith.subf %g2, %g3 : ${ft}
            %Fr = arith.addf %er, %qr : ${ft}
            %Fi = arith.addf %ei, %qi : ${ft}
            %m2 = arith.muli %m, %c2 : index
            %o = arith.addi %Fb, %m2 : index
            %o1 = arith.addi %o, %c1 : index
            memref.store %Fr, %F[%o] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            memref.store %Fi, %F[%o1] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
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
                    %v = memref.load %f[%o] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
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
              memref.store %sum#0, %F[%o] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
              memref.store %sum#1, %F[%o1] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            }
          }
        }
        return
      }
    }
  }
}
