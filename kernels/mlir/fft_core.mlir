// part: funcs
        // The path test and the butterflies of fft_core's passes (below), pasted into both
        // Fourier stages at module level; IREE inlines them. A thread's butterflies of a pass
        // are unrolled (ireesht/codegen/mlir/fft.py fft_pass_calls): their outputs wait in named
        // registers until every thread has read its inputs (a loop over them kept the outputs
        // in vectors shifted at every step: more moves than arithmetic).

        // Whether rows of %np points take the FAST path (NP even, 4 <= NP <= 4096, NP / 2 a
        // power of two, or with ${fft_mixed} a product of 2, 3 and 5), and the floats of the
        // twiddle table: NP rows, NP / 2 more on that path (ireesht/numerics/fourier.py fft_path;
        // fft_mixed: whether this kernel has radix-3 and radix-5 passes).
        func.func private @fft_path(%np: index) -> (i1, index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c4 = arith.constant 4 : index
          %c4096 = arith.constant 4096 : index
          %true = arith.constant true
          %npodd = arith.andi %np, %c1 : index
          %even = arith.cmpi eq, %npodd, %c0 : index
          %ge4 = arith.cmpi uge, %np, %c4 : index
          %le = arith.cmpi ule, %np, %c4096 : index
          %nhalf = arith.shrui %np, %c1 : index
          %nm1 = arith.subi %nhalf, %c1 : index
          %nand = arith.andi %nhalf, %nm1 : index
          %ispow = arith.cmpi eq, %nand, %c0 : index
          // a power of two; a product of 2, 3 and 5 only in a kernel with those passes
          %mixed_ok = arith.constant ${fft_mixed}
          %pow_only = arith.xori %mixed_ok, %true : i1
          %easy = arith.ori %ispow, %pow_only : i1
          %smooth = scf.if %easy -> (i1) {
            scf.yield %ispow : i1
          } else {
            // NP <= 4096 is checked apart: 32-bit divisions (index ones take far longer)
            %cap = arith.minui %nhalf, %c4096 : index
            %negn = arith.subi %c0, %cap : index
            %pow2 = arith.andi %cap, %negn : index
            %odd = func.call @div32(%cap, %pow2) : (index, index) -> index
            %c3 = arith.constant 3 : index
            %r3 = func.call @strip(%odd, %c3) : (index, index) -> index
            %c5 = arith.constant 5 : index
            %r5 = func.call @strip(%r3, %c5) : (index, index) -> index
            %one = arith.cmpi eq, %r5, %c1 : index
            scf.yield %one : i1
          }
          %fast0 = arith.andi %even, %ge4 : i1
          %fast1 = arith.andi %fast0, %le : i1
          %fast2 = arith.andi %fast1, %smooth : i1
          // a kernel rendered with the passes of one row length only (${fft_np} = NP; 0: every
          // length) takes the DIRECT path for any other
          %only = arith.constant ${fft_np} : index
          %any = arith.cmpi eq, %only, %c0 : index
          %this = arith.cmpi eq, %np, %only : index
          %ours = arith.ori %any, %this : i1
          %fast = arith.andi %fast2, %ours : i1
          %tail = arith.select %fast, %nhalf, %c0 : index
          %rows = arith.addi %np, %tail : index
          %ntw = arith.muli %rows, %c2 : index
          return %fast, %ntw : i1, index
        }

        // %v divided by %f as often as it divides (0 < %v < 2^32; 0 stays 0).
        func.func private @strip(%v: index, %f: index) -> index {
          %c0 = arith.constant 0 : index
          %r = scf.while (%x = %v) : (index) -> index {
            %rem = func.call @mod32(%x, %f) : (index, index) -> index
            %divides = arith.cmpi eq, %rem, %c0 : index
            %pos = arith.cmpi ugt, %x, %c0 : index
            %go = arith.andi %divides, %pos : i1
            scf.condition(%go) %x : index
          } do {
          ^bb0(%x: index):
            %d = func.call @div32(%x, %f) : (index, index) -> index
            scf.yield %d : index
          }
          return %r : index
        }

        // %a / %b and %a mod %b for operands below 2^32, in 32-bit arithmetic: a 64-bit
        // index division is a long software routine on NVIDIA GPUs.
        func.func private @div32(%a: index, %b: index) -> index {
          %a32 = arith.index_castui %a : index to i32
          %b32 = arith.index_castui %b : index to i32
          %q = arith.divui %a32, %b32 : i32
          %r = arith.index_castui %q : i32 to index
          return %r : index
        }
        func.func private @mod32(%a: index, %b: index) -> index {
          %a32 = arith.index_castui %a : index to i32
          %b32 = arith.index_castui %b : index to i32
          %m = arith.remui %a32, %b32 : i32
          %r = arith.index_castui %m : i32 to index
          return %r : index
        }

        // The floats at %o and %o + 1 of a buffer (%o even: a rotation, a complex value of a
        // row or of F), read and written as one access on CUDA (ireesht/codegen/mlir/fft.py
        // _pair_access); @pair_store writes the stage's output, of type io.
        func.func private @pair_load(%a: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %o: index) -> (${ft}, ${ft}) {
${pair_load}
        }
        func.func private @pair_store(%a: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %o: index, %x: ${ft}, %y: ${ft}) {
${pair_store}
        }

        // x[%i] (re at %i, im at %i + %half) times the rotation (cos, sin) at %tw[%t] in the
        // direction s: (br wr - bi s wi, bi wr + br s wi) as mul + fma (s wi is wi or -wi).
        func.func private @rotate(%sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %half: index, %t: index) -> (${ft}, ${ft}) {
          %one_s = arith.constant ${one_s} : ${ft}
          %ih = arith.addi %i, %half : index
          %br = memref.load %sm[%i] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          %bi = memref.load %sm[%ih] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          %wr, %wi = func.call @pair_load(%tw, %t) : (memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (${ft}, ${ft})
          %si = arith.mulf %wi, %one_s : ${ft}
          %mb = arith.mulf %bi, %si : ${ft}
          %mc = arith.mulf %br, %si : ${ft}
          %nb = arith.negf %mb : ${ft}
          %ar = math.fma %br, %wr, %nb : ${ft}
          %ai = math.fma %bi, %wr, %mc : ${ft}
          return %ar, %ai : ${ft}, ${ft}
        }

        // Input %i of a butterfly: in the first pass (%first: p = 1, no rotation) the stage's
        // own input z_i (its @src: the row read from memory, or the synthesis's folded
        // spectrum), so that no pass of its own stages it in workgroup memory; else x[%i],
        // rotated by %tw[%t] when %rot.
        func.func private @get(%first: i1, %rot: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %half: index, %t: index, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}) {
          %v:2 = scf.if %first -> (${ft}, ${ft}) {
            %a:2 = func.call @src(%srcm, %sbase, %tw, %n, %lim, %i)
                : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            scf.yield %a#0, %a#1 : ${ft}, ${ft}
          } else {
            %b:2 = scf.if %rot -> (${ft}, ${ft}) {
              %r:2 = func.call @rotate(%sm, %tw, %i, %half, %t)
                  : (memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
              scf.yield %r#0, %r#1 : ${ft}, ${ft}
            } else {
              %ih = arith.addi %i, %half : index
              %xr = memref.load %sm[%i] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              %xi = memref.load %sm[%ih] : memref<4096x${ft}, #gpu.address_space<workgroup>>
              scf.yield %xr, %xi : ${ft}, ${ft}
            }
            scf.yield %b#0, %b#1 : ${ft}, ${ft}
          }
          return %v#0, %v#1 : ${ft}, ${ft}
        }

        // Output y_j of a pass: to workgroup memory (re at j, im at %half + j), or, from the
        // synthesis's last pass on rows of a power of two (%glob), straight to the row as its
        // points f_2j, f_2j+1 at %dst[%dbase + 2 j] (the lanes' j are consecutive there: p =
        // n / R, k = i). A put takes one branch per butterfly between the two (one per
        // output: lmax 1023, 16 fields, 164 against 154 us on an H200).
        func.func private @out(%glob: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %j: index, %half: index, %re: ${ft}, %im: ${ft}) {
          scf.if %glob {
            %c2 = arith.constant 2 : index
            %j2 = arith.muli %j, %c2 : index
            %o = arith.addi %dbase, %j2 : index
            func.call @pair_store(%dst, %o, %re, %im) : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, ${ft}, ${ft}) -> ()
          } else {
            %jh = arith.addi %j, %half : index
            memref.store %re, %sm[%j] : memref<4096x${ft}, #gpu.address_space<workgroup>>
            memref.store %im, %sm[%jh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
          }
          return
        }

        // Radix-4 butterfly %i (when %in) of a pass with sub-transform length p (%pm1 = p - 1,
        // %p2 = 2 p) whose rotations exp(2 pi i r k / (4 p)) start at %tw[%tb] (the pass's block
        // of ireesht/numerics/fourier.py): y_r = sum_s x[i + s n/4] exp(${sign}2 pi i r s / 4) rotated.
        func.func private @radix4(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nb4: index, %half: index, %pm1: index, %p2: index, %tb: index, %first: i1, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %true = arith.constant true
          %false = arith.constant false
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %zero = arith.constant 0.0 : ${ft}
          %nb4x2 = arith.muli %nb4, %c2 : index
          %c3 = arith.constant 3 : index
          %nb4x3 = arith.muli %nb4, %c3 : index
          %y:8 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
            %k = arith.andi %i, %pm1 : index
            %i1 = arith.addi %i, %nb4 : index
            %i2 = arith.addi %i, %nb4x2 : index
            %i3 = arith.addi %i, %nb4x3 : index
            %a0r, %a0i = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %k2 = arith.muli %k, %c2 : index
            // a_r = b_r exp(s i theta_r): b_r = x[i + r n/4], exp(i theta_r) the block's entry
            // (r - 1) p + k
            %t1 = arith.addi %tb, %k2 : index
            %a1r, %a1i = func.call @get(%first, %true, %sm, %tw, %i1, %half, %t1, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t2 = arith.addi %t1, %p2 : index
            %a2r, %a2i = func.call @get(%first, %true, %sm, %tw, %i2, %half, %t2, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t3 = arith.addi %t2, %p2 : index
            %a3r, %a3i = func.call @get(%first, %true, %sm, %tw, %i3, %half, %t3, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
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
        func.func private @put4(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %pm1: index, %p: index, %half: index, %glob: i1, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %y0r: ${ft}, %y0i: ${ft}, %y1r: ${ft}, %y1i: ${ft}, %y2r: ${ft}, %y2i: ${ft}, %y3r: ${ft}, %y3i: ${ft}) {
          %c4 = arith.constant 4 : index
          %gt = arith.constant true
          %gf = arith.constant false
          scf.if %in {
            scf.if %glob {
              %k = arith.andi %i, %pm1 : index
              %ik = arith.subi %i, %k : index
              %ik4 = arith.muli %ik, %c4 : index
              %j0 = arith.addi %ik4, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              %j3 = arith.addi %j2, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            } else {
              %k = arith.andi %i, %pm1 : index
              %ik = arith.subi %i, %k : index
              %ik4 = arith.muli %ik, %c4 : index
              %j0 = arith.addi %ik4, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              %j3 = arith.addi %j2, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            }
          }
          return
        }

        // Radix-8 butterfly %i (when %in) of a pass with sub-transform length p (%pm1 = p - 1,
        // %p2 = 2 p), rotations exp(2 pi i r k / (8 p)) from %tw[%tb] (the pass's block of
        // ireesht/numerics/fourier.py): y_r = sum_t x[i + t n/8] w^(t k) exp(${sign}2 pi i r t / 8), as two
        // radix-4 DFTs: of b_t = a_t + a_(t+4) (the even y) and of c_t = (a_t - a_(t+4))
        // exp(${sign}i pi t / 4) (the odd y), a_t the rotated inputs.
        func.func private @radix8(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nb8: index, %half: index, %pm1: index, %p2: index, %tb: index, %first: i1, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %true = arith.constant true
          %false = arith.constant false
          %c2 = arith.constant 2 : index
          %zero = arith.constant 0.0 : ${ft}
          %r2 = arith.constant 0.70710678118654752440 : ${ft}  // 1 / sqrt(2)
          %nr2 = arith.constant -0.70710678118654752440 : ${ft}
          %y:16 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
            %k = arith.andi %i, %pm1 : index
            %a0r, %a0i = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %k2 = arith.muli %k, %c2 : index
            // a_t = x[i + t n/8] exp(s i theta_t), exp(i theta_t) the block's entry (t - 1) p + k
            %i1 = arith.addi %i, %nb8 : index
            %t1 = arith.addi %tb, %k2 : index
            %a1r, %a1i = func.call @get(%first, %true, %sm, %tw, %i1, %half, %t1, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i2 = arith.addi %i1, %nb8 : index
            %t2 = arith.addi %t1, %p2 : index
            %a2r, %a2i = func.call @get(%first, %true, %sm, %tw, %i2, %half, %t2, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i3 = arith.addi %i2, %nb8 : index
            %t3 = arith.addi %t2, %p2 : index
            %a3r, %a3i = func.call @get(%first, %true, %sm, %tw, %i3, %half, %t3, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i4 = arith.addi %i3, %nb8 : index
            %t4 = arith.addi %t3, %p2 : index
            %a4r, %a4i = func.call @get(%first, %true, %sm, %tw, %i4, %half, %t4, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i5 = arith.addi %i4, %nb8 : index
            %t5 = arith.addi %t4, %p2 : index
            %a5r, %a5i = func.call @get(%first, %true, %sm, %tw, %i5, %half, %t5, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i6 = arith.addi %i5, %nb8 : index
            %t6 = arith.addi %t5, %p2 : index
            %a6r, %a6i = func.call @get(%first, %true, %sm, %tw, %i6, %half, %t6, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %i7 = arith.addi %i6, %nb8 : index
            %t7 = arith.addi %t6, %p2 : index
            %a7r, %a7i = func.call @get(%first, %true, %sm, %tw, %i7, %half, %t7, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %b0r = arith.addf %a0r, %a4r : ${ft}
            %d0r = arith.subf %a0r, %a4r : ${ft}
            %b0i = arith.addf %a0i, %a4i : ${ft}
            %d0i = arith.subf %a0i, %a4i : ${ft}
            %b1r = arith.addf %a1r, %a5r : ${ft}
            %d1r = arith.subf %a1r, %a5r : ${ft}
            %b1i = arith.addf %a1i, %a5i : ${ft}
            %d1i = arith.subf %a1i, %a5i : ${ft}
            %b2r = arith.addf %a2r, %a6r : ${ft}
            %d2r = arith.subf %a2r, %a6r : ${ft}
            %b2i = arith.addf %a2i, %a6i : ${ft}
            %d2i = arith.subf %a2i, %a6i : ${ft}
            %b3r = arith.addf %a3r, %a7r : ${ft}
            %d3r = arith.subf %a3r, %a7r : ${ft}
            %b3i = arith.addf %a3i, %a7i : ${ft}
            %d3i = arith.subf %a3i, %a7i : ${ft}
            // the even outputs: radix 4 of b
            %s02r = arith.addf %b0r, %b2r : ${ft}
            %s02i = arith.addf %b0i, %b2i : ${ft}
            %d02r = arith.subf %b0r, %b2r : ${ft}
            %d02i = arith.subf %b0i, %b2i : ${ft}
            %s13r = arith.addf %b1r, %b3r : ${ft}
            %s13i = arith.addf %b1i, %b3i : ${ft}
            %d13r = arith.subf %b1r, %b3r : ${ft}
            %d13i = arith.subf %b1i, %b3i : ${ft}
            %y0r = arith.addf %s02r, %s13r : ${ft}
            %y0i = arith.addf %s02i, %s13i : ${ft}
            %y4r = arith.subf %s02r, %s13r : ${ft}
            %y4i = arith.subf %s02i, %s13i : ${ft}
            %y2r = arith.${minus_s} %d02r, %d13i : ${ft}
            %y2i = arith.${plus_s} %d02i, %d13r : ${ft}
            %y6r = arith.${plus_s} %d02r, %d13i : ${ft}
            %y6i = arith.${minus_s} %d02i, %d13r : ${ft}
            // c_1 = d_1 (1 + s i) / sqrt 2, c_3 = d_3 (-1 + s i) / sqrt 2; c_2 = s i d_2 enters
            // c_0 +- c_2 directly
            %m1r = arith.${minus_s} %d1r, %d1i : ${ft}
            %m1i = arith.${plus_s} %d1i, %d1r : ${ft}
            %c1r = arith.mulf %m1r, %r2 : ${ft}
            %c1i = arith.mulf %m1i, %r2 : ${ft}
            %m3r = arith.${plus_s} %d3r, %d3i : ${ft}
            %m3i = arith.${minus_s} %d3i, %d3r : ${ft}
            %c3r = arith.mulf %m3r, %nr2 : ${ft}
            %c3i = arith.mulf %m3i, %nr2 : ${ft}
            // the odd outputs: radix 4 of c
            %e02r = arith.${minus_s} %d0r, %d2i : ${ft}
            %e02i = arith.${plus_s} %d0i, %d2r : ${ft}
            %f02r = arith.${plus_s} %d0r, %d2i : ${ft}
            %f02i = arith.${minus_s} %d0i, %d2r : ${ft}
            %e13r = arith.addf %c1r, %c3r : ${ft}
            %e13i = arith.addf %c1i, %c3i : ${ft}
            %f13r = arith.subf %c1r, %c3r : ${ft}
            %f13i = arith.subf %c1i, %c3i : ${ft}
            %y1r = arith.addf %e02r, %e13r : ${ft}
            %y1i = arith.addf %e02i, %e13i : ${ft}
            %y5r = arith.subf %e02r, %e13r : ${ft}
            %y5i = arith.subf %e02i, %e13i : ${ft}
            %y3r = arith.${minus_s} %f02r, %f13i : ${ft}
            %y3i = arith.${plus_s} %f02i, %f13r : ${ft}
            %y7r = arith.${plus_s} %f02r, %f13i : ${ft}
            %y7i = arith.${minus_s} %f02i, %f13r : ${ft}
            scf.yield %y0r, %y0i, %y1r, %y1i, %y2r, %y2i, %y3r, %y3i, %y4r, %y4i, %y5r, %y5i, %y6r, %y6i, %y7r, %y7i : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          }
          return %y#0, %y#1, %y#2, %y#3, %y#4, %y#5, %y#6, %y#7, %y#8, %y#9, %y#10, %y#11, %y#12, %y#13, %y#14, %y#15 : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
        }

        // The outputs of @radix8's butterfly %i to y[(i - k) 8 + k + r p], k = i mod p.
        func.func private @put8(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %pm1: index, %p: index, %half: index, %glob: i1, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %y0r: ${ft}, %y0i: ${ft}, %y1r: ${ft}, %y1i: ${ft}, %y2r: ${ft}, %y2i: ${ft}, %y3r: ${ft}, %y3i: ${ft}, %y4r: ${ft}, %y4i: ${ft}, %y5r: ${ft}, %y5i: ${ft}, %y6r: ${ft}, %y6i: ${ft}, %y7r: ${ft}, %y7i: ${ft}) {
          %c8 = arith.constant 8 : index
          %gt = arith.constant true
          %gf = arith.constant false
          scf.if %in {
            scf.if %glob {
              %k = arith.andi %i, %pm1 : index
              %ik = arith.subi %i, %k : index
              %ik8 = arith.muli %ik, %c8 : index
              %j0 = arith.addi %ik8, %k : index
              func.call @out(%gt, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j1 = arith.addi %j0, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j2 = arith.addi %j1, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j3 = arith.addi %j2, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j4 = arith.addi %j3, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j4, %half, %y4r, %y4i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j5 = arith.addi %j4, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j5, %half, %y5r, %y5i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j6 = arith.addi %j5, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j6, %half, %y6r, %y6i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j7 = arith.addi %j6, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j7, %half, %y7r, %y7i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            } else {
              %k = arith.andi %i, %pm1 : index
              %ik = arith.subi %i, %k : index
              %ik8 = arith.muli %ik, %c8 : index
              %j0 = arith.addi %ik8, %k : index
              func.call @out(%gf, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j1 = arith.addi %j0, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j2 = arith.addi %j1, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j3 = arith.addi %j2, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j4 = arith.addi %j3, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j4, %half, %y4r, %y4i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j5 = arith.addi %j4, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j5, %half, %y5r, %y5i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j6 = arith.addi %j5, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j6, %half, %y6r, %y6i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              %j7 = arith.addi %j6, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j7, %half, %y7r, %y7i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            }
          }
          return
        }

        // Radix-2 butterfly %i (when %in) of the first pass (p = 1, all twiddles 1): x[i] +-
        // x[i + n/2].
        func.func private @radix2(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nb2: index, %half: index, %first: i1, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}, ${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %true = arith.constant true
          %false = arith.constant false
          %zero = arith.constant 0.0 : ${ft}
          %y:4 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}) {
            %i2 = arith.addi %i, %nb2 : index
            %ar, %ai = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %br, %bi = func.call @get(%first, %false, %sm, %tw, %i2, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
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
        func.func private @put2(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %half: index, %glob: i1, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %sr: ${ft}, %si: ${ft}, %dr: ${ft}, %di: ${ft}) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %gt = arith.constant true
          %gf = arith.constant false
          scf.if %in {
            scf.if %glob {
              %j = arith.muli %i, %c2 : index
              %j1 = arith.addi %j, %c1 : index
              func.call @out(%gt, %sm, %dst, %dbase, %j, %half, %sr, %si)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j1, %half, %dr, %di)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            } else {
              %j = arith.muli %i, %c2 : index
              %j1 = arith.addi %j, %c1 : index
              func.call @out(%gf, %sm, %dst, %dbase, %j, %half, %sr, %si)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j1, %half, %dr, %di)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            }
          }
          return
        }

        // Radix-3 butterfly %i (when %in) of a pass with sub-transform length p (%p2 = 2 p),
        // rotations exp(2 pi i r k / (3 p)) from %tw[%tb] (the pass's block of
        // ireesht/numerics/fourier.py), %nbr = n / 3: y_r = sum_t x[i + t n/3] w^(t k) exp(${sign}2 pi i r t / 3).
        func.func private @radix3(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nbr: index, %half: index, %p: index, %p2: index, %tb: index, %first: i1, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %true = arith.constant true
          %false = arith.constant false
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %mhalf = arith.constant -0.5 : ${ft}
          %d3 = arith.constant 0.86602540378443864676 : ${ft}  // sin(2 pi / 3)
          %zero = arith.constant 0.0 : ${ft}
          %y:6 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
            %k = func.call @mod32(%i, %p) : (index, index) -> index
            %k2 = arith.muli %k, %c2 : index
            %i1 = arith.addi %i, %nbr : index
            %o2 = arith.muli %nbr, %c2 : index
            %i2 = arith.addi %i, %o2 : index
            %a0r, %a0i = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t1 = arith.addi %tb, %k2 : index
            %a1r, %a1i = func.call @get(%first, %true, %sm, %tw, %i1, %half, %t1, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t2 = arith.addi %t1, %p2 : index
            %a2r, %a2i = func.call @get(%first, %true, %sm, %tw, %i2, %half, %t2, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %ur = arith.subf %a1r, %a2r : ${ft}
            %ui = arith.subf %a1i, %a2i : ${ft}
            %sr = arith.addf %a1r, %a2r : ${ft}
            %si = arith.addf %a1i, %a2i : ${ft}
            %y0r = arith.addf %a0r, %sr : ${ft}
            %y0i = arith.addf %a0i, %si : ${ft}
            // m = a0 - (a1 + a2) / 2; y1 = m + s i d (a1 - a2), y2 = m - s i d (a1 - a2)
            %mr = math.fma %sr, %mhalf, %a0r : ${ft}
            %mi = math.fma %si, %mhalf, %a0i : ${ft}
            %dur = arith.mulf %ur, %d3 : ${ft}
            %dui = arith.mulf %ui, %d3 : ${ft}
            %y1r = arith.${minus_s} %mr, %dui : ${ft}
            %y1i = arith.${plus_s} %mi, %dur : ${ft}
            %y2r = arith.${plus_s} %mr, %dui : ${ft}
            %y2i = arith.${minus_s} %mi, %dur : ${ft}
            scf.yield %y0r, %y0i, %y1r, %y1i, %y2r, %y2i : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          }
          return %y#0, %y#1, %y#2, %y#3, %y#4, %y#5 : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
        }

        // The outputs of @radix3's butterfly %i to y[(i - k) 3 + k + r p], k = i mod p.
        func.func private @put3(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %p: index, %half: index, %glob: i1, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %y0r: ${ft}, %y0i: ${ft}, %y1r: ${ft}, %y1i: ${ft}, %y2r: ${ft}, %y2i: ${ft}) {
          %cr = arith.constant 3 : index
          %gt = arith.constant true
          %gf = arith.constant false
          scf.if %in {
            scf.if %glob {
              %k = func.call @mod32(%i, %p) : (index, index) -> index
              %ik = arith.subi %i, %k : index
              %ikr = arith.muli %ik, %cr : index
              %j0 = arith.addi %ikr, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            } else {
              %k = func.call @mod32(%i, %p) : (index, index) -> index
              %ik = arith.subi %i, %k : index
              %ikr = arith.muli %ik, %cr : index
              %j0 = arith.addi %ikr, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            }
          }
          return
        }

        // Radix-5 butterfly %i (when %in) of a pass with sub-transform length p (%p2 = 2 p),
        // rotations exp(2 pi i r k / (5 p)) from %tw[%tb] (the pass's block of
        // ireesht/numerics/fourier.py), %nbr = n / 5: y_r = sum_t x[i + t n/5] w^(t k) exp(${sign}2 pi i r t / 5).
        func.func private @radix5(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %tw: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>,
            %i: index, %nbr: index, %half: index, %p: index, %p2: index, %tb: index, %first: i1, %srcm: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %sbase: index, %n: index, %lim: index) -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %true = arith.constant true
          %false = arith.constant false
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c4 = arith.constant 4 : index
          %c1f = arith.constant 0.30901699437494742410 : ${ft}  // cos(2 pi / 5)
          %c2f = arith.constant -0.80901699437494742410 : ${ft}  // cos(4 pi / 5)
          %d1f = arith.constant 0.95105651629515357212 : ${ft}  // sin(2 pi / 5)
          %d2f = arith.constant 0.58778525229247312917 : ${ft}  // sin(4 pi / 5)
          %nd1f = arith.constant -0.95105651629515357212 : ${ft}
          %zero = arith.constant 0.0 : ${ft}
          %y:10 = scf.if %in -> (${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}) {
            %k = func.call @mod32(%i, %p) : (index, index) -> index
            %k2 = arith.muli %k, %c2 : index
            %i1 = arith.addi %i, %nbr : index
            %o2 = arith.muli %nbr, %c2 : index
            %i2 = arith.addi %i, %o2 : index
            %o3 = arith.muli %nbr, %c3 : index
            %i3 = arith.addi %i, %o3 : index
            %o4 = arith.muli %nbr, %c4 : index
            %i4 = arith.addi %i, %o4 : index
            %a0r, %a0i = func.call @get(%first, %false, %sm, %tw, %i, %half, %c0, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t1 = arith.addi %tb, %k2 : index
            %a1r, %a1i = func.call @get(%first, %true, %sm, %tw, %i1, %half, %t1, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t2 = arith.addi %t1, %p2 : index
            %a2r, %a2i = func.call @get(%first, %true, %sm, %tw, %i2, %half, %t2, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t3 = arith.addi %t2, %p2 : index
            %a3r, %a3i = func.call @get(%first, %true, %sm, %tw, %i3, %half, %t3, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %t4 = arith.addi %t3, %p2 : index
            %a4r, %a4i = func.call @get(%first, %true, %sm, %tw, %i4, %half, %t4, %srcm, %sbase, %n, %lim)
                : (i1, i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
            %u1r = arith.addf %a1r, %a4r : ${ft}
            %u1i = arith.addf %a1i, %a4i : ${ft}
            %v1r = arith.subf %a1r, %a4r : ${ft}
            %v1i = arith.subf %a1i, %a4i : ${ft}
            %u2r = arith.addf %a2r, %a3r : ${ft}
            %u2i = arith.addf %a2i, %a3i : ${ft}
            %v2r = arith.subf %a2r, %a3r : ${ft}
            %v2i = arith.subf %a2i, %a3i : ${ft}
            %u12r = arith.addf %u1r, %u2r : ${ft}
            %u12i = arith.addf %u1i, %u2i : ${ft}
            %y0r = arith.addf %a0r, %u12r : ${ft}
            %y0i = arith.addf %a0i, %u12i : ${ft}
            // m1 = a0 + c1 u1 + c2 u2, n1 = d1 v1 + d2 v2: y1 = m1 + s i n1, y4 = m1 - s i n1;
            // m2 = a0 + c2 u1 + c1 u2, n2 = d2 v1 - d1 v2: y2 = m2 + s i n2, y3 = m2 - s i n2
            %m1r0 = math.fma %u1r, %c1f, %a0r : ${ft}
            %m1r = math.fma %u2r, %c2f, %m1r0 : ${ft}
            %m1i0 = math.fma %u1i, %c1f, %a0i : ${ft}
            %m1i = math.fma %u2i, %c2f, %m1i0 : ${ft}
            %m2r0 = math.fma %u1r, %c2f, %a0r : ${ft}
            %m2r = math.fma %u2r, %c1f, %m2r0 : ${ft}
            %m2i0 = math.fma %u1i, %c2f, %a0i : ${ft}
            %m2i = math.fma %u2i, %c1f, %m2i0 : ${ft}
            %n1r0 = arith.mulf %v1r, %d1f : ${ft}
            %n1r = math.fma %v2r, %d2f, %n1r0 : ${ft}
            %n1i0 = arith.mulf %v1i, %d1f : ${ft}
            %n1i = math.fma %v2i, %d2f, %n1i0 : ${ft}
            %n2r0 = arith.mulf %v1r, %d2f : ${ft}
            %n2r = math.fma %v2r, %nd1f, %n2r0 : ${ft}
            %n2i0 = arith.mulf %v1i, %d2f : ${ft}
            %n2i = math.fma %v2i, %nd1f, %n2i0 : ${ft}
            %y1r = arith.${minus_s} %m1r, %n1i : ${ft}
            %y1i = arith.${plus_s} %m1i, %n1r : ${ft}
            %y4r = arith.${plus_s} %m1r, %n1i : ${ft}
            %y4i = arith.${minus_s} %m1i, %n1r : ${ft}
            %y2r = arith.${minus_s} %m2r, %n2i : ${ft}
            %y2i = arith.${plus_s} %m2i, %n2r : ${ft}
            %y3r = arith.${plus_s} %m2r, %n2i : ${ft}
            %y3i = arith.${minus_s} %m2i, %n2r : ${ft}
            scf.yield %y0r, %y0i, %y1r, %y1i, %y2r, %y2i, %y3r, %y3i, %y4r, %y4i : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          } else {
            scf.yield %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero, %zero : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
          }
          return %y#0, %y#1, %y#2, %y#3, %y#4, %y#5, %y#6, %y#7, %y#8, %y#9 : ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}
        }

        // The outputs of @radix5's butterfly %i to y[(i - k) 5 + k + r p], k = i mod p.
        func.func private @put5(%in: i1, %sm: memref<4096x${ft}, #gpu.address_space<workgroup>>, %i: index, %p: index, %half: index, %glob: i1, %dst: memref<?x${io}, #hal.descriptor_type<storage_buffer>>, %dbase: index,
            %y0r: ${ft}, %y0i: ${ft}, %y1r: ${ft}, %y1i: ${ft}, %y2r: ${ft}, %y2i: ${ft}, %y3r: ${ft}, %y3i: ${ft}, %y4r: ${ft}, %y4i: ${ft}) {
          %cr = arith.constant 5 : index
          %gt = arith.constant true
          %gf = arith.constant false
          scf.if %in {
            scf.if %glob {
              %k = func.call @mod32(%i, %p) : (index, index) -> index
              %ik = arith.subi %i, %k : index
              %ikr = arith.muli %ik, %cr : index
              %j0 = arith.addi %ikr, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              %j3 = arith.addi %j2, %p : index
              %j4 = arith.addi %j3, %p : index
              func.call @out(%gt, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gt, %sm, %dst, %dbase, %j4, %half, %y4r, %y4i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            } else {
              %k = func.call @mod32(%i, %p) : (index, index) -> index
              %ik = arith.subi %i, %k : index
              %ikr = arith.muli %ik, %cr : index
              %j0 = arith.addi %ikr, %k : index
              %j1 = arith.addi %j0, %p : index
              %j2 = arith.addi %j1, %p : index
              %j3 = arith.addi %j2, %p : index
              %j4 = arith.addi %j3, %p : index
              func.call @out(%gf, %sm, %dst, %dbase, %j0, %half, %y0r, %y0i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j1, %half, %y1r, %y1i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j2, %half, %y2r, %y2i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j3, %half, %y3r, %y3i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
              func.call @out(%gf, %sm, %dst, %dbase, %j4, %half, %y4r, %y4i)
                  : (i1, memref<4096x${ft}, #gpu.address_space<workgroup>>, memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, index, index, ${ft}, ${ft}) -> ()
            }
          }
          return
        }
${radix16_funcs}
// part: passes
          // The NP/2-point FFT of the stage's input z_k (its @src), in the direction s: +1 in
          // fft_synth.mlir, -1 in fft_analys.mlir, its result y_k in sm[k] + i sm[HALF + k] or,
          // with %out_global (the synthesis) on rows of a power of two, written to the row by
          // the last pass (@out). Pasted into
          // both as the placeholder fft_core by ireesht/codegen/mlir, with sign (that of
          // s), one_s (s as a float) and plus_s / minus_s (the arith ops that add / subtract s
          // times a term). Takes from the stage: %n = NP / 2 (2^a 3^b 5^c, 2 <= n <= 2048,
          // @fft_path), %sm, %tw, %np, %tid, %half, %c0 to %c4, @src's operands %srcm, %sbase,
          // %lim, and @out's %out_global, %dst, %dbase.
          // DFT with exp(${sign}2 pi i k t / n): Stockham passes with sub-transform length p; a
          // radix-R pass reads x[i + r n/R] and writes y[(i - k) R + k + r p], k = i mod p, so
          // the result comes out in natural order. The first pass (p = 1, no rotation) reads
          // its inputs from @src; every later one waits with its outputs in registers until
          // all threads have read their inputs, then overwrites the buffer they were read
          // from: one buffer keeps the 2048-point FFT in 16 KB. The passes (ireesht/numerics/fourier.py
          // fft_passes): one of radix 2, 4, 8 or 16 first, then radix 16 or 8 up to 2^a (fewer
          // passes through workgroup memory than radix 4), then radix 3, then radix 5. A
          // thread has the butterflies tid + 128 q of a pass: q < 8 for radix 2 (n / 2 <= 1024
          // of them), 4 for radix 4 (512), 2 for radix 8 (256), 1 for radix 16 (128), 6 for
          // radix 3 (682), 4 for radix 5 (409).
          // The power-of-two passes take radix 16 where that saves a pass over radix 8, else
          // radix 8, after a first pass of the remainder's radix (n odd: of radix 3 or 5):
          // ireesht/numerics/fourier.py fft_passes, whose choice for each 2^a comes as the masks of the
          // powers of two 2^a whose first pass is of radix 2, 4, 8, 16, and that take radix 16
          // (codegen/mlir/fft.py fft_pass_calls).
          %bits1 = arith.constant ${first_bits_2} : index
          %bits2 = arith.constant ${first_bits_4} : index
          %bits3 = arith.constant ${first_bits_8} : index
          %bits4 = arith.constant ${first_bits_16} : index
          %bits16 = arith.constant ${radix16_bits} : index
          %c8r = arith.constant 8 : index
          %c14r = arith.constant 14 : index
          %c16r = arith.constant 16 : index
          %c30r = arith.constant 30 : index
          %c3s = arith.constant 3 : index
          %c4s = arith.constant 4 : index
          %negn = arith.subi %c0, %n : index
          %pow2 = arith.andi %n, %negn : index
          %n1 = arith.andi %pow2, %bits1 : index
          %first2 = arith.cmpi ne, %n1, %c0 : index
          %n2 = arith.andi %pow2, %bits2 : index
          %first4 = arith.cmpi ne, %n2, %c0 : index
          %n3 = arith.andi %pow2, %bits3 : index
          %first8 = arith.cmpi ne, %n3, %c0 : index
          %n4 = arith.andi %pow2, %bits4 : index
          %first16 = arith.cmpi ne, %n4, %c0 : index
          %n16 = arith.andi %pow2, %bits16 : index
          %use16 = arith.cmpi ne, %n16, %c0 : index
          %nb8 = arith.shrui %n, %c3s : index
          %nb16 = arith.shrui %n, %c4s : index
          // the rotations of a pass: its block of ireesht/numerics/fourier.py (from float %tb); the next
          // pass's block follows its (R - 1) p rows (none for a first pass of radix 2)
          %tb0 = arith.muli %np, %c2 : index
          %p1, %tb1 = scf.if %first2 -> (index, index) {
            %nb2 = arith.shrui %n, %c1 : index
            %last = arith.cmpi eq, %n, %c2 : index
            %glob = arith.andi %out_global, %last : i1
${radix2_first}
            gpu.barrier
            scf.yield %c2, %tb0 : index, index
          } else {
            %p4, %tb4 = scf.if %first4 -> (index, index) {
              %nb4 = arith.shrui %n, %c2 : index
              %last = arith.cmpi eq, %n, %c4 : index
              %glob = arith.andi %out_global, %last : i1
${radix4_first}
              gpu.barrier
              %c6 = arith.constant 6 : index
              %tbn = arith.addi %tb0, %c6 : index
              scf.yield %c4, %tbn : index, index
            } else {
              %p8, %tb8 = scf.if %first8 -> (index, index) {
                %last = arith.cmpi eq, %n, %c8r : index
                %glob = arith.andi %out_global, %last : i1
${radix8_first}
                gpu.barrier
                %tbn = arith.addi %tb0, %c14r : index
                scf.yield %c8r, %tbn : index, index
              } else {
                %p16, %tb16 = scf.if %first16 -> (index, index) {
                  %last = arith.cmpi eq, %n, %c16r : index
                  %glob = arith.andi %out_global, %last : i1
                  scf.if %stage_first16 {
                    // %srcm's inputs staged in workgroup memory first (the synthesis: a radix-16
                    // first pass of 16 folds per thread took 94 registers for the whole kernel)
                    %c128z = arith.constant 128 : index
                    scf.for %kz = %tid to %n step %c128z {
                      %zr, %zi = func.call @src(%srcm, %sbase, %tw, %n, %lim, %kz)
                          : (memref<?x${io}, #hal.descriptor_type<storage_buffer>>, index, memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, index, index, index) -> (${ft}, ${ft})
                      %kzh = arith.addi %kz, %half : index
                      memref.store %zr, %sm[%kz] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                      memref.store %zi, %sm[%kzh] : memref<4096x${ft}, #gpu.address_space<workgroup>>
                    }
                    gpu.barrier
${radix16_staged}
                  } else {
${radix16_first}
                  }
                  gpu.barrier
                  %tbn = arith.addi %tb0, %c30r : index
                  scf.yield %c16r, %tbn : index, index
                } else {
${odd_first}
                }
                scf.yield %p16, %tb16 : index, index
              }
              scf.yield %p8, %tb8 : index, index
            }
            scf.yield %p4, %tb4 : index, index
          }
          %p4, %tb4 = scf.if %use16 -> (index, index) {
            %pe, %tbe = scf.while (%p = %p1, %tb = %tb1) : (index, index) -> (index, index) {
              %go = arith.cmpi ult, %p, %pow2 : index
              scf.condition(%go) %p, %tb : index, index
            } do {
            ^bb0(%p: index, %tb: index):
              %pm1 = arith.subi %p, %c1 : index
              %p2 = arith.muli %p, %c2 : index
              %pn = arith.muli %p, %c16r : index
              %last = arith.cmpi eq, %pn, %n : index
              %glob = arith.andi %out_global, %last : i1
${radix16_calls}
              gpu.barrier
              %p30 = arith.muli %p, %c30r : index
              %tbn = arith.addi %tb, %p30 : index
              scf.yield %pn, %tbn : index, index
            }
            scf.yield %pe, %tbe : index, index
          } else {
            %pe, %tbe = scf.while (%p = %p1, %tb = %tb1) : (index, index) -> (index, index) {
              %go = arith.cmpi ult, %p, %pow2 : index
              scf.condition(%go) %p, %tb : index, index
            } do {
            ^bb0(%p: index, %tb: index):
              %pm1 = arith.subi %p, %c1 : index
              %p2 = arith.muli %p, %c2 : index
              %pn = arith.muli %p, %c8r : index
              %last = arith.cmpi eq, %pn, %n : index
              %glob = arith.andi %out_global, %last : i1
${radix8_calls}
              gpu.barrier
              %p14 = arith.muli %p, %c14r : index
              %tbn = arith.addi %tb, %p14 : index
              scf.yield %pn, %tbn : index, index
            }
            scf.yield %pe, %tbe : index, index
          }
          // radix 3 and 5, for an n that is no power of two (2^a < n); their last pass leaves y
          // in workgroup memory (%mixed: the synthesis writes the row from there)
          %mixed = arith.cmpi ult, %pow2, %n : index
          scf.if %mixed {
            %c3r = arith.constant 3 : index
            %nb3 = func.call @div32(%n, %c3r) : (index, index) -> index
            %p3, %tb3 = scf.while (%p = %p4, %tb = %tb4) : (index, index) -> (index, index) {
              %left = func.call @div32(%n, %p) : (index, index) -> index
              %rem = func.call @mod32(%left, %c3r) : (index, index) -> index
              %go = arith.cmpi eq, %rem, %c0 : index
              scf.condition(%go) %p, %tb : index, index
            } do {
            ^bb0(%p: index, %tb: index):
              %p2 = arith.muli %p, %c2 : index
              %pn = arith.muli %p, %c3r : index
              %glob = arith.constant false
${radix3_calls}
              gpu.barrier
              %p4f = arith.muli %p, %c4 : index
              %tbn = arith.addi %tb, %p4f : index
              scf.yield %pn, %tbn : index, index
            }
            %c5r = arith.constant 5 : index
            %c8 = arith.constant 8 : index
            %nb5 = func.call @div32(%n, %c5r) : (index, index) -> index
            scf.while (%p = %p3, %tb = %tb3) : (index, index) -> (index, index) {
              %go = arith.cmpi ult, %p, %n : index
              scf.condition(%go) %p, %tb : index, index
            } do {
            ^bb0(%p: index, %tb: index):
              %p2 = arith.muli %p, %c2 : index
              %pn = arith.muli %p, %c5r : index
              %glob = arith.constant false
${radix5_calls}
              gpu.barrier
              %p8 = arith.muli %p, %c8 : index
              %tbn = arith.addi %tb, %p8 : index
              scf.yield %pn, %tbn : index, index
            }
          }
