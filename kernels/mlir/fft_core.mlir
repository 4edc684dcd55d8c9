          // NP/2-point FFT of z_k = sm[k] + i sm[HALF + k], in place, in the direction s: +1 in
          // fft_synth.mlir, -1 in fft_analys.mlir. Pasted into both as the placeholder fft_core
          // by ireesht/kernels_mlir.py, with sign (that of s) and plus_s / minus_s (the arith ops
          // that add / subtract s times a term). Takes from the stage: %n = NP / 2 (a power of
          // two, 2 <= n <= 2048), %sm, %tw, %np, %tid, %wg, %half, %zero and %c0 to %c4.
          %c3 = arith.constant 3 : index
          %c6 = arith.constant 6 : index
          %c7 = arith.constant 7 : index
          %c127 = arith.constant 127 : index
          %c512 = arith.constant 512 : index
          // bits 1, 3, ..., 11: a power of two n <= 2048 has an odd log2 iff n & 0xAAA != 0
          %oddbits = arith.constant 2730 : index
          %vz = arith.constant dense<0.0> : vector<4x${ft}>
          // In-place DFT of sm[0..n) with exp(${sign}2 pi i k t / n): Stockham passes with sub-transform
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
                // a_r = b_r exp(s i theta_r): b_r = x[i + r n/4], exp(i theta_r) the entry r k ts
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
                %a1r = arith.${minus_s} %m1a, %m1b : ${ft}
                %a1i = arith.${plus_s} %m1d, %m1c : ${ft}
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
                %a2r = arith.${minus_s} %m2a, %m2b : ${ft}
                %a2i = arith.${plus_s} %m2d, %m2c : ${ft}
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
                %a3r = arith.${minus_s} %m3a, %m3b : ${ft}
                %a3i = arith.${plus_s} %m3d, %m3c : ${ft}
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
