        // Legendre recurrence shared by leg_synth.mlir and leg_analys.mlir (pasted into
        // both as the placeholder legendre_core by ireesht/kernels_mlir.py; the WGSL twin is
        // kernels/wgsl/legendre_core.wgsli). Tables and the scheme: ireesht/legendre.py.
        // A thread runs ${kp} latitude pairs: the recurrence state is vector<${kp}x${ft}>.
        // IREE inlines these functions into @main.

        // 2^n for n in the normal exponent range of ${ft}, exact, from the exponent bits (no
        // device exp2)
        func.func private @exp2i(%n: ${it}) -> ${ft} {
          %bias = arith.constant ${exp_bias} : ${it}
          %shift = arith.constant ${mant_bits} : ${it}
          %e = arith.addi %n, %bias : ${it}
          %bits = arith.shli %e, %shift : ${it}
          %r = arith.bitcast %bits : ${it} to ${ft}
          return %r : ${ft}
        }

        // (ph + pl) (th + tl) in double-float arithmetic: sin^m to full accuracy for any m
        // (a plain power loses about m ulps)
        func.func private @df_mul(%ph: ${ft}, %pl: ${ft}, %th: ${ft}, %tl: ${ft}) -> (${ft}, ${ft}) {
          %hi = arith.mulf %ph, %th : ${ft}
          %nhi = arith.negf %hi : ${ft}
          %lo0 = math.fma %ph, %th, %nhi : ${ft}
          %a = arith.mulf %ph, %tl : ${ft}
          %b = arith.mulf %pl, %th : ${ft}
          %ab = arith.addf %a, %b : ${ft}
          %lo = arith.addf %lo0, %ab : ${ft}
          %sh = arith.addf %hi, %lo : ${ft}
          %d = arith.subf %sh, %hi : ${ft}
          %sl = arith.subf %lo, %d : ${ft}
          return %sh, %sl : ${ft}, ${ft}
        }

        // The seed c_m sin^m theta of latitude pair %p as a scaled value y and exponent
        // counter k: (y, k) with the true value y 2^(S k) and |y| < 2^T (S = ${scale_bits},
        // T = ${threshold_bits}: values below 2^(T - S) are dropped, negligible in ${ft}).
        func.func private @seed(%powtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>,
                                %mseed: memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                                %m: index, %p: index, %nbits: index) -> (${ft}, ${it}) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %ci0 = arith.constant 0 : ${it}
          %ci1 = arith.constant 1 : ${it}
          %zero = arith.constant 0.0 : ${ft}
          %c_hi = memref.load %mseed[%m, %c0] : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %c_lo = memref.load %mseed[%m, %c1] : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %mi = arith.index_cast %m : index to ${it}
          %row = arith.muli %p, %nbits : index
          // multiply in sin^(2^j) = (hi + lo) 2^e for the set bits j of m
          %ph, %pl, %pe = scf.for %j = %c0 to %nbits step %c1
              iter_args(%h = %c_hi, %l = %c_lo, %e = %ci0) -> (${ft}, ${ft}, ${it}) {
            %ji = arith.index_cast %j : index to ${it}
            %sh = arith.shrui %mi, %ji : ${it}
            %bit = arith.andi %sh, %ci1 : ${it}
            %set = arith.cmpi ne, %bit, %ci0 : ${it}
            %r:3 = scf.if %set -> (${ft}, ${ft}, ${it}) {
              %i = arith.addi %row, %j : index
              %th = memref.load %powtab[%i, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
              %tl = memref.load %powtab[%i, %c1] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
              %te = memref.load %powtab[%i, %c2] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
              %h2, %l2 = func.call @df_mul(%h, %l, %th, %tl) : (${ft}, ${ft}, ${ft}, ${ft}) -> (${ft}, ${ft})
              %tei = arith.fptosi %te : ${ft} to ${it}
              %e2 = arith.addi %e, %tei : ${it}
              scf.yield %h2, %l2, %e2 : ${ft}, ${ft}, ${it}
            } else {
              scf.yield %h, %l, %e : ${ft}, ${ft}, ${it}
            }
            scf.yield %r#0, %r#1, %r#2 : ${ft}, ${ft}, ${it}
          }
          // frexp by bit manipulation: ph = fr 2^e with fr in [0.5, 1)
          %bits = arith.bitcast %ph : ${ft} to ${it}
          %shift = arith.constant ${mant_bits} : ${it}
          %emask = arith.constant ${exp_mask} : ${it}
          %keep = arith.constant ${frexp_keep} : ${it}
          %half = arith.constant ${half_bits} : ${it}
          %off = arith.constant ${frexp_off} : ${it}
          %eb = arith.shrui %bits, %shift : ${it}
          %ebm = arith.andi %eb, %emask : ${it}
          %e = arith.subi %ebm, %off : ${it}
          %frk = arith.andi %bits, %keep : ${it}
          %frb = arith.ori %frk, %half : ${it}
          %fr = arith.bitcast %frb : ${it} to ${ft}
          // k = floor((E + T) / S): an arithmetic shift is the floor division
          %total = arith.addi %pe, %e : ${it}
          %tb = arith.constant ${threshold_bits} : ${it}
          %slog = arith.constant ${scale_log2} : ${it}
          %sb = arith.constant ${scale_bits} : ${it}
          %tt = arith.addi %total, %tb : ${it}
          %k = arith.shrsi %tt, %slog : ${it}
          %ne = arith.subi %ci0, %e : ${it}
          %s1 = func.call @exp2i(%ne) : (${it}) -> ${ft}
          %ks = arith.muli %k, %sb : ${it}
          %rest = arith.subi %total, %ks : ${it}
          %s2 = func.call @exp2i(%rest) : (${it}) -> ${ft}
          %pls = arith.mulf %pl, %s1 : ${ft}
          %sum = arith.addf %fr, %pls : ${ft}
          %y0 = arith.mulf %sum, %s2 : ${ft}
          %zp = arith.cmpf oeq, %ph, %zero : ${ft}
          %y = arith.select %zp, %zero, %y0 : ${ft}
          return %y, %k : ${ft}, ${it}
        }

        // The node of pair %p as the recurrence uses it: (u_hi, u_lo, dif) with u = t = 1 - x
        // for the difference form (x > X0 = cos 55 deg: rows next to the pole), else u = x.
        // Nodes as hi + lo pairs: cos(theta) alone is off by ~1e-8 absolute, a large
        // relative error in theta next to the poles.
        func.func private @node(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index)
            -> (${ft}, ${ft}, i1) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %x0 = arith.constant 0.573576436 : ${ft}
          %xh = memref.load %xtab[%p, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %xl = memref.load %xtab[%p, %c1] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %th = memref.load %xtab[%p, %c2] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %tl = memref.load %xtab[%p, %c3] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %dif = arith.cmpf ogt, %xh, %x0 : ${ft}
          %uh = arith.select %dif, %th, %xh : ${ft}
          %ul = arith.select %dif, %tl, %xl : ${ft}
          return %uh, %ul, %dif : ${ft}, ${ft}, i1
        }

        // One step l-1 -> l of one pair with the coefficients (A, B, C, E) of degree l, node
        // (u_hi, u_lo, dif) from @node. State: y1 = y_{l-1} (scaled by 2^(S k)), z = y_{l-2}
        // (standard form) or d_{l-1} (difference form), k the exponent counter:
        //   standard   y_l = A (x y_{l-1}) + B y_{l-2}
        //   difference d_l = -A (t y_{l-1}) + E d_{l-1};  y_l = C y_{l-1} + d_l
        // When |y| passes 2^T while k < 0, both state values are scaled by 2^-S (exact).
        // Written so that a driver cannot change which product is rounded: on Vulkan an Fma
        // has the precision of a multiply and an add, and drivers re-fuse, e.g.
        // fma(u_hi, y, u_lo * y) as fma(u_lo, y, u_hi * y), rounding the large product (2.5x
        // the error at lmax 1023 on an H200; 1.25x at lmax 255 on lavapipe). The rounded
        // addends pass through a select on "y is not NaN", always true but unknown to the
        // driver, and each form has its own branch. (LLVM for CUDA keeps fma as written.)
        func.func private @step_pair(%uh: ${ft}, %ul: ${ft}, %dif: i1,
                                     %a: ${ft}, %b: ${ft}, %c: ${ft}, %e: ${ft},
                                     %y1: ${ft}, %z: ${ft}, %k: ${it})
            -> (${ft}, ${ft}, ${it}) {
          %zero = arith.constant 0.0 : ${ft}
          %keep = arith.cmpf ord, %y1, %y1 : ${ft}  // true: y1 is never NaN
          %yn, %zn = scf.if %dif -> (${ft}, ${ft}) {
            %lo0 = arith.mulf %ul, %y1 : ${ft}
            %lo = arith.select %keep, %lo0, %zero : ${ft}
            %pt = math.fma %uh, %y1, %lo : ${ft}
            %na = arith.negf %a : ${ft}
            %ez0 = arith.mulf %e, %z : ${ft}
            %ez = arith.select %keep, %ez0, %zero : ${ft}
            %d = math.fma %na, %pt, %ez : ${ft}
            %y = math.fma %c, %y1, %d : ${ft}
            scf.yield %y, %d : ${ft}, ${ft}
          } else {
            %lo0 = arith.mulf %ul, %y1 : ${ft}
            %lo = arith.select %keep, %lo0, %zero : ${ft}
            %v = math.fma %uh, %y1, %lo : ${ft}
            %bz0 = arith.mulf %b, %z : ${ft}
            %bz = arith.select %keep, %bz0, %zero : ${ft}
            %y = math.fma %a, %v, %bz : ${ft}
            scf.yield %y, %y1 : ${ft}, ${ft}
          }
          %big = arith.constant ${threshold} : ${ft}
          %shrink = arith.constant ${shrink} : ${ft}
          %one = arith.constant 1.0 : ${ft}
          %i0 = arith.constant 0 : ${it}
          %i1 = arith.constant 1 : ${it}
          %neg = arith.cmpi slt, %k, %i0 : ${it}
          %ay = math.absf %yn : ${ft}
          %over = arith.cmpf ogt, %ay, %big : ${ft}
          %rs = arith.andi %neg, %over : i1
          %f = arith.select %rs, %shrink, %one : ${ft}
          %y1o = arith.mulf %yn, %f : ${ft}
          %zo = arith.mulf %zn, %f : ${ft}
          %dk = arith.select %rs, %i1, %i0 : ${it}
          %ko = arith.addi %k, %dk : ${it}
          return %y1o, %zo, %ko : ${ft}, ${ft}, ${it}
        }

        // @step_pair for each of the ${kp} pairs of a thread.
        func.func private @step(%uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>, %dif: vector<${kp}xi1>,
                                %a: ${ft}, %b: ${ft}, %c: ${ft}, %e: ${ft},
                                %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %k: vector<${kp}x${it}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ckp = arith.constant ${kp} : index
          %r:3 = scf.for %i = %c0 to %ckp step %c1 iter_args(%yv = %y1, %zv = %z, %kv = %k)
              -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
            %uhi = vector.extract %uh[%i] : ${ft} from vector<${kp}x${ft}>
            %uli = vector.extract %ul[%i] : ${ft} from vector<${kp}x${ft}>
            %difi = vector.extract %dif[%i] : i1 from vector<${kp}xi1>
            %yi = vector.extract %y1[%i] : ${ft} from vector<${kp}x${ft}>
            %zi = vector.extract %z[%i] : ${ft} from vector<${kp}x${ft}>
            %ki = vector.extract %k[%i] : ${it} from vector<${kp}x${it}>
            %o:3 = func.call @step_pair(%uhi, %uli, %difi, %a, %b, %c, %e, %yi, %zi, %ki)
                : (${ft}, ${ft}, i1, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${ft}, ${it}) -> (${ft}, ${ft}, ${it})
            %yv2 = vector.insert %o#0, %yv[%i] : ${ft} into vector<${kp}x${ft}>
            %zv2 = vector.insert %o#1, %zv[%i] : ${ft} into vector<${kp}x${ft}>
            %kv2 = vector.insert %o#2, %kv[%i] : ${it} into vector<${kp}x${it}>
            scf.yield %yv2, %zv2, %kv2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
          }
          return %r#0, %r#1, %r#2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
        }

        // The true values P_lm / S_lm, or 0 while they are below the accumulation threshold.
        func.func private @value(%y1: vector<${kp}x${ft}>, %k: vector<${kp}x${it}>) -> vector<${kp}x${ft}> {
          %i0 = arith.constant dense<0> : vector<${kp}x${it}>
          %zero = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %live = arith.cmpi eq, %k, %i0 : vector<${kp}x${it}>
          %v = arith.select %live, %y1, %zero : vector<${kp}xi1>, vector<${kp}x${ft}>
          return %v : vector<${kp}x${ft}>
        }
