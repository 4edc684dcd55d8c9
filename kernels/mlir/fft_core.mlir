// part: funcs
        // The path test and the butterflies of fft_core's passes (below), pasted into both
        // Fourier stages at module level; IREE inlines them. A thread's butterflies of a pass
        // are unrolled (ireesht/kernels_mlir.py fft_pass_calls): their outputs wait in named
        // registers until every thread has read its inputs (a loop over them kept the outputs
        // in vectors shifted at every step: more moves than arithmetic).

        // Whether rows of %np points take the FAST path (NP a power of two, 4 <= NP <= 4096),
        // and the floats of the twiddle table: NP rows, NP / 2 more on that path
        // (ireesht/fourier.py).
        func.func private @fft_path(%np: index) -> (i1, index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %c4096 = arith.constant 4096 : index
          %npm1 = arith.subi %np, %c1 : index
          %npand = arith.andi %np, %npm1 : index
          %ispow = arith.cmpi eq, %npand, %c0 : index
          %ge4 = arith.cmpi uge, %np, %c4 : index
          %le = arith.cmpi ule, %np, %c4096 : index
          %fast0 = arith.andi %ispow, %ge4 : i1
          %fast = arith.andi %fast0, %le : i1
          %nhalf = arith.shrui %np, %c1 : index
          %tail = arith.select %fast, %nhalf, %c0 : index
          %rows = arith.addi %np, %tail : index
          %ntw = arith.muli %rows, %c2 : index
          return %fast, %ntw : i1, index
        }

        // Radix-4 butterfly %i (when %in) of a pass with sub-transform length p (%pm1 = p - 1,
        // %p2 = 2 p) whose rotations exp(2 pi i r k / (4 p)) start at %tw[%tb] (the pass's block
        // of ireesht/fourier.py): y_r = sum_s x[i + s n/4] exp(${sign}2 pi i r s / 4) rotated.
        func.func private @radix4(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nb4: index, %half: index, %pm1: index, %p2: index, %tb: index) -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %zero = arith.constant 0.0 : ${ft}
          %one_s = arith.constant ${one_s} : ${ft}
          %nb4x2 = arith.muli %nb4, %c2 : index
          %c3 = arith.constant 3 : index
          %nb4x3 = arith.muli %nb4, %c3 : index
          %y:8 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
            %k = arith.andi %i, %pm1 : index
            %i1 = arith.addi %i, %nb4 : index
            %i2 = arith.addi %i, %nb4x2 : index
            %i3 = arith.addi %i, %nb4x3 : index
            %ih = arith.addi %i, %half : index
            %a0r = memref.load %sm[%i] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %a0i = memref.load %sm[%ih] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %k2 = arith.muli %k, %c2 : index
            // a_r = b_r exp(s i theta_r): b_r = x[i + r n/4], exp(i theta_r) the block's entry
            // (r - 1) p + k; (br wr - bi s wi, bi wr + br s wi) as mul + fma (s wi is wi or -wi)
            %i1h = arith.addi %i1, %half : index
            %b1r = memref.load %sm[%i1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %b1i = memref.load %sm[%i1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %t1 = arith.addi %tb, %k2 : index
            %t11 = arith.addi %t1, %c1 : index
            %w1r = memref.load %tw[%t1] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %w1i = memref.load %tw[%t11] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %s1i = arith.mulf %w1i, %one_s : ${ft}
            %m1b = arith.mulf %b1i, %s1i : ${ft}
            %m1c = arith.mulf %b1r, %s1i : ${ft}
            %n1b = arith.negf %m1b : ${ft}
            %a1r = math.fma %b1r, %w1r, %n1b : ${ft}
            %a1i = math.fma %b1i, %w1r, %m1c : ${ft}
            %i2h = arith.addi %i2, %half : index
            %b2r = memref.load %sm[%i2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %b2i = memref.load %sm[%i2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %t2 = arith.addi %t1, %p2 : index
            %t21 = arith.addi %t2, %c1 : index
            %w2r = memref.load %tw[%t2] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %w2i = memref.load %tw[%t21] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %s2i = arith.mulf %w2i, %one_s : ${ft}
            %m2b = arith.mulf %b2i, %s2i : ${ft}
            %m2c = arith.mulf %b2r, %s2i : ${ft}
            %n2b = arith.negf %m2b : ${ft}
            %a2r = math.fma %b2r, %w2r, %n2b : ${ft}
            %a2i = math.fma %b2i, %w2r, %m2c : ${ft}
            %i3h = arith.addi %i3, %half : index
            %b3r = memref.load %sm[%i3] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %b3i = memref.load %sm[%i3h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %t3 = arith.addi %t2, %p2 : index
            %t31 = arith.addi %t3, %c1 : index
            %w3r = memref.load %tw[%t3] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %w3i = memref.load %tw[%t31] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
            %s3i = arith.mulf %w3i, %one_s : ${ft}
            %m3b = arith.mulf %b3i, %s3i : ${ft}
            %m3c = arith.mulf %b3r, %s3i : ${ft}
            %n3b = arith.negf %m3b : ${ft}
            %a3r = math.fma %b3r, %w3r, %n3b : ${ft}
            %a3i = math.fma %b3i, %w3r, %m3c : ${ft}
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
            // y1 = d02 + s i d13, y3 = d02 - s i d13
            %y1r = arith.${minus_s} %d02r, %d13i : ${ft}
            %y1i = arith.${plus_s} %d02i, %d13r : ${ft}
            %y3r = arith.${plus_s} %d02r, %d13i : ${ft}
            %y3i = arith.${minus_s} %d02i, %d13r : ${ft}
            scf.yield %y0r, %y0i, %y1r, %y1i, %y2r, %y2i, %y3r, %y3i : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          }
          return %y#0, %y#1, %y#2, %y#3, %y#4, %y#5, %y#6, %y#7 : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
        }

        // The outputs of @radix4's butterfly %i to y[(i - k) 4 + k + r p], k = i mod p.
        func.func private @put4(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %pm1: index, %p: index, %half: index,
            %y0r: ${ft}, %y0i: ${ft}, %y1r: ${ft}, %y1i: ${ft}, %y2r: ${ft}, %y2i: ${ft}, %y3r: ${ft}, %y3i: ${ft}) {
          %c4 = arith.constant 4 : index
          scf.if %in {
            %k = arith.andi %i, %pm1 : index
            %ik = arith.subi %i, %k : index
            %ik4 = arith.muli %ik, %c4 : index
            %j0 = arith.addi %ik4, %k : index
            %j1 = arith.addi %j0, %p : index
            %j2 = arith.addi %j1, %p : index
            %j3 = arith.addi %j2, %p : index
            %j0h = arith.addi %j0, %half : index
            %j1h = arith.addi %j1, %half : index
            %j2h = arith.addi %j2, %half : index
            %j3h = arith.addi %j3, %half : index
            memref.store %y0r, %sm[%j0] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y0i, %sm[%j0h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y1r, %sm[%j1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y1i, %sm[%j1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y2r, %sm[%j2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y2i, %sm[%j2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y3r, %sm[%j3] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %y3i, %sm[%j3h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          }
          return
        }

        // Radix-2 butterfly %i (when %in) of the first pass (p = 1, all twiddles 1): x[i] +-
        // x[i + n/2].
        func.func private @radix2(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %nb2: index, %half: index) -> (${ft}, ${ft}, ${ft}, ${ft}) {
          %zero = arith.constant 0.0 : ${ft}
          %y:4 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}) {
            %ih = arith.addi %i, %half : index
            %i2 = arith.addi %i, %nb2 : index
            %i2h = arith.addi %i2, %half : index
            %ar = memref.load %sm[%i] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %ai = memref.load %sm[%ih] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %br = memref.load %sm[%i2] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %bi = memref.load %sm[%i2h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            %sr = arith.addf %ar, %br : ${ft}
            %si = arith.addf %ai, %bi : ${ft}
            %dr = arith.subf %ar, %br : ${ft}
            %di = arith.subf %ai, %bi : ${ft}
            scf.yield %sr, %si, %dr, %di : ${ft}, ${ft}, ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}
          }
          return %y#0, %y#1, %y#2, %y#3 : ${ft}, ${ft}, ${ft}, ${ft}
        }

        // The outputs of @radix2's butterfly %i to y[2 i] and y[2 i + 1].
        func.func private @put2(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %half: index,
            %sr: ${ft}, %si: ${ft}, %dr: ${ft}, %di: ${ft}) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          scf.if %in {
            %j = arith.muli %i, %c2 : index
            %jh = arith.addi %j, %half : index
            %j1 = arith.addi %j, %c1 : index
            %j1h = arith.addi %j1, %half : index
            memref.store %sr, %sm[%j] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %si, %sm[%jh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %dr, %sm[%j1] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %di, %sm[%j1h] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          }
          return
        }
// part: passes
          // NP/2-point FFT of z_k = sm[k] + i sm[HALF + k], in place, in the direction s: +1 in
          // fft_synth.mlir, -1 in fft_analys.mlir. Pasted into both as the placeholder fft_core
          // by ireesht/kernels_mlir.py, with sign (that of s), one_s (s as a float) and plus_s /
          // minus_s (the arith ops that add / subtract s times a term). Takes from the stage:
          // %n = NP / 2 (a power of two, 2 <= n <= 2048), %sm, %tw, %np, %tid, %half and %c0 to
          // %c4.
          // bits 1, 3, ..., 11: a power of two n <= 2048 has an odd log2 iff n & 0xAAA != 0
          %oddbits = arith.constant 2730 : index
          // In-place DFT of sm[0..n) with exp(${sign}2 pi i k t / n): Stockham passes with sub-transform
          // length p; a pass reads x[i + r n/R] and writes y[(i - k) R + k + r p], k = i mod p, so the
          // result comes out in natural order. A thread's outputs wait in registers until all
          // threads have read their inputs, then overwrite the buffer they were read from: one
          // buffer keeps the 2048-point FFT in 16 KB. A thread has the butterflies tid + 128 q of a
          // pass: q < 4 for radix 4 (n / 4 <= 512 of them), q < 8 for radix 2 (n / 2 <= 1024).
          %nodd = arith.andi %n, %oddbits : index
          %odd = arith.cmpi ne, %nodd, %c0 : index
          %p0 = scf.if %odd -> (index) {
            // radix 2, only ever the first pass (p = 1)
            %nb2 = arith.shrui %n, %c1 : index
${radix2_calls}
            gpu.barrier
            scf.yield %c2 : index
          } else {
            scf.yield %c1 : index
          }
          %nb4 = arith.shrui %n, %c2 : index
          // the rotations of a pass: the block of ireesht/fourier.py at twiddle row NP + p - p0
          // (its floats from %tb); the next pass's block follows its 3 p rows
          %tb0 = arith.muli %np, %c2 : index
          %c6 = arith.constant 6 : index
          scf.while (%p = %p0, %tb = %tb0) : (index, index) -> (index, index) {
            %go = arith.cmpi ult, %p, %n : index
            scf.condition(%go) %p, %tb : index, index
          } do {
          ^bb0(%p: index, %tb: index):
            %pm1 = arith.subi %p, %c1 : index
            %p2 = arith.muli %p, %c2 : index
${radix4_calls}
            gpu.barrier
            %p4 = arith.muli %p, %c4 : index
            %p6 = arith.muli %p, %c6 : index
            %tb4 = arith.addi %tb, %p6 : index
            scf.yield %p4, %tb4 : index, index
          }
