        // Pieces of the Legendre stages shared by leg_synth.mlir, leg_analys.mlir,
        // leg_synth_ishioka.mlir and leg_analys_ishioka.mlir (part ishioka: the float64
        // kernels' conversions and chain rows; part mma: the tf32 split, the seeds and the
        // staged chain rows of leg_synth_mma.mlir and leg_analys_mma.mlir), cut at the
        // `// part:` lines by ireesht/codegen/mlir and pasted into each as the
        // placeholder legendre_core (the WGSL twin is kernels/wgsl/legendre_core.wgsli).
        // Tables and the schemes: ireesht/numerics/legendre.py, ireesht/numerics/ishioka.py. A thread runs
        // ${kp} latitude pairs: the recurrence state is vector<${kp}x${ft}> (parts scaling
        // and recurrence; the others take ${ft} for the plan's data type). IREE inlines these
        // functions into @main.
// part: polar
        // The number of latitude pairs next to the pole that order %m skips (polar[m]:
        // their P_lm stay far below the counting threshold for every l, ireesht/numerics/legendre.py
        // polar_rows).
        func.func private @polar_rows(%polar: memref<?x${ft}, #hal.descriptor_type<storage_buffer>>, %m: index) -> index {
          %v = memref.load %polar[%m] : memref<?x${ft}, #hal.descriptor_type<storage_buffer>>
          %i = arith.fptoui %v : ${ft} to i32
          %n = arith.index_castui %i : i32 to index
          return %n : index
        }
// part: scaling
        // Whether every pair of the thread has reached its true values (k = 0; k never goes
        // above 0): from then on the lean steps below run, without rescaling checks.
        func.func private @live(%k: vector<${kp}x${it}>) -> i1 {
          %i0 = arith.constant 0 : ${it}
          %kmin = vector.reduction <minsi>, %k : vector<${kp}x${it}> into ${it}
          %live = arith.cmpi eq, %kmin, %i0 : ${it}
          return %live : i1
        }

        // A vote per group of ${vote_group} threads (a warp on NVIDIA) on "every pair of every thread
        // of the group is live", so that a warp takes one loop instead of running the lean
        // and the careful loop one after the other, while warps whose pairs are all live
        // already run lean (a vote of the whole workgroup kept 62% of the steps at lmax 1023
        // careful, one per warp 38%). Two flags per group, used by alternate spans (%n: the
        // span's running count): during span n's staging, threads not live set their group's
        // flag n % 2, the group's first thread clears the other one (read last in span n - 1,
        // written next in span n + 1); after the staging barrier each thread reads its
        // group's flag n % 2. A device whose subgroups are not groups of ${vote_group} threads gets the
        // same sums.
        func.func private @vote_slot(%n: index, %lid: index) -> (index, index) {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %cg = arith.constant ${vote_group} : index
          %g = arith.divui %lid, %cg : index
          %g2 = arith.muli %g, %c2 : index
          %par = arith.remui %n, %c2 : index
          %slot = arith.addi %g2, %par : index
          %opar = arith.subi %c1, %par : index
          %other = arith.addi %g2, %opar : index
          return %slot, %other : index, index
        }
        func.func private @vote(%flags: memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, %n: index,
                                %lid: index, %live: i1) {
          %c0 = arith.constant 0 : index
          %cg = arith.constant ${vote_group} : index
          %i0 = arith.constant 0 : i32
          %i1 = arith.constant 1 : i32
          %slot, %other = func.call @vote_slot(%n, %lid) : (index, index) -> (index, index)
          %r = arith.remui %lid, %cg : index
          %first = arith.cmpi eq, %r, %c0 : index
          scf.if %first {
            memref.store %i0, %flags[%other] : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          }
          %true = arith.constant true
          %notlive = arith.xori %live, %true : i1
          scf.if %notlive {
            memref.store %i1, %flags[%slot] : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          }
          return
        }
        func.func private @all_live(%flags: memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, %n: index,
                                    %lid: index) -> i1 {
          %i0 = arith.constant 0 : i32
          %slot, %other = func.call @vote_slot(%n, %lid) : (index, index) -> (index, index)
          %v = memref.load %flags[%slot] : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          %all = arith.cmpi eq, %v, %i0 : i32
          return %all : i1
        }
        func.func private @vote_init(%flags: memref<${vote_flags}xi32, #gpu.address_space<workgroup>>, %lid: index) {
          %i0 = arith.constant 0 : i32
          %n = arith.constant ${vote_flags} : index
          %first = arith.cmpi ult, %lid, %n : index
          scf.if %first {
            memref.store %i0, %flags[%lid] : memref<${vote_flags}xi32, #gpu.address_space<workgroup>>
          }
          return
        }

        // Where |y| has passed 2^T while k < 0, both state values scaled by 2^-S (exact) and
        // k + 1. Checked every 8 degrees: a step grows |y| by at most sqrt(2 m + 3) < 2^7
        // (lmax < 16384), so 8 steps stay far inside the 2^(max exponent - T) of headroom.
        func.func private @rescale(%y: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>, %k: vector<${kp}x${it}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
          %big = arith.constant dense<${threshold}> : vector<${kp}x${ft}>
          %shrink = arith.constant dense<${shrink}> : vector<${kp}x${ft}>
          %one = arith.constant dense<1.0> : vector<${kp}x${ft}>
          %i0 = arith.constant dense<0> : vector<${kp}x${it}>
          %i1 = arith.constant dense<1> : vector<${kp}x${it}>
          %neg = arith.cmpi slt, %k, %i0 : vector<${kp}x${it}>
          %ay = math.absf %y : vector<${kp}x${ft}>
          %over = arith.cmpf ogt, %ay, %big : vector<${kp}x${ft}>
          %rs = arith.andi %neg, %over : vector<${kp}xi1>
          %f = arith.select %rs, %shrink, %one : vector<${kp}xi1>, vector<${kp}x${ft}>
          %yo = arith.mulf %y, %f : vector<${kp}x${ft}>
          %zo = arith.mulf %z, %f : vector<${kp}x${ft}>
          %dk = arith.select %rs, %i1, %i0 : vector<${kp}xi1>, vector<${kp}x${it}>
          %ko = arith.addi %k, %dk : vector<${kp}x${it}>
          return %yo, %zo, %ko : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
        }

        // The factor 2^(S k) that turns y into the true value P_lm / S_lm: 1 at k = 0, 2^-S at
        // k = -1 (values below 2^(T - S), added with their true size), 0 below (2^(T - 2 S)
        // and less: nothing in ${ft}). k changes only in @rescale, so the factor is made
        // there, and a careful degree costs one multiply more than a lean one.
        func.func private @live_factor(%k: vector<${kp}x${it}>) -> vector<${kp}x${ft}> {
          %i0 = arith.constant dense<0> : vector<${kp}x${it}>
          %im1 = arith.constant dense<-1> : vector<${kp}x${it}>
          %one = arith.constant dense<1.0> : vector<${kp}x${ft}>
          %shrink = arith.constant dense<${shrink}> : vector<${kp}x${ft}>
          %zero = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %live = arith.cmpi eq, %k, %i0 : vector<${kp}x${it}>
          %near = arith.cmpi eq, %k, %im1 : vector<${kp}x${it}>
          %f1 = arith.select %near, %shrink, %zero : vector<${kp}xi1>, vector<${kp}x${ft}>
          %f = arith.select %live, %one, %f1 : vector<${kp}xi1>, vector<${kp}x${ft}>
          return %f : vector<${kp}x${ft}>
        }

        // The check of a careful loop after the four steps from l - m = %base + %j: every 8
        // degrees (l - m = 4 mod 8 at the start of those steps) @rescale, with the new live
        // factors; else (and in a lean loop, %careful false) the state as it is.
        func.func private @checkpoint(%careful: i1, %base: index, %j: index, %y: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>,
            %k: vector<${kp}x${it}>, %sk: vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>) {
          %c4 = arith.constant 4 : index
          %dl = arith.addi %base, %j : index
          %ph = arith.andi %dl, %c4 : index
          %at = arith.cmpi eq, %ph, %c4 : index
          %chk = arith.andi %careful, %at : i1
          %rs:4 = scf.if %chk -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>) {
            %r:3 = func.call @rescale(%y, %z, %k) : (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>)
            %f = func.call @live_factor(%r#2) : (vector<${kp}x${it}>) -> vector<${kp}x${ft}>
            scf.yield %r#0, %r#1, %r#2, %f : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>
          } else {
            scf.yield %y, %z, %k, %sk : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>
          }
          return %rs#0, %rs#1, %rs#2, %rs#3 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>, vector<${kp}x${ft}>
        }
// part: recurrence
        // The node of pair %p as the recurrence uses it: (u_hi, u_lo) with u = t = 1 - x for
        // the difference form (%dif: rows next to the pole), else u = x. Nodes as hi + lo
        // pairs: cos(theta) alone is off by ~1e-8 absolute, a large relative error in theta
        // next to the poles.
        func.func private @node(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index, %dif: i1)
            -> (${ft}, ${ft}) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %xh = memref.load %xtab[%p, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %xl = memref.load %xtab[%p, %c1] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %th = memref.load %xtab[%p, %c2] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %tl = memref.load %xtab[%p, %c3] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %uh = arith.select %dif, %th, %xh : ${ft}
          %ul = arith.select %dif, %tl, %xl : ${ft}
          return %uh, %ul : ${ft}, ${ft}
        }

        // The form of a thread's pairs: the difference form when the pair that decides lies
        // within 55 degrees of the pole (x > X0 = cos 55 deg). On grids of 4 ${vote_group} ${kp}
        // pairs and more, the middle pair of the thread's vote group (below) decides for the
        // group, so that no warp runs both loops (per thread, the warp on the boundary ran
        // both): the boundary moves by an eighth of the rows at most (11 degrees; 5.6 at lmax
        // 1023), where any boundary from 45 to 60 degrees is within 3% of the best accuracy
        // (tools/recurrence_accuracy.md). On smaller grids a group spans too many degrees, and
        // each thread's first pair decides. %first: the first pair of thread 0 of the
        // workgroup (thread t starts at %first + t ${kp}).
        func.func private @group_form(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %first: index,
                                      %lid: index, %plast: index) -> i1 {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %cg = arith.constant ${vote_group} : index
          %ckp = arith.constant ${kp} : index
          %x0 = arith.constant 0.573576436 : ${ft}
          %r = arith.remui %lid, %cg : index
          %g0 = arith.subi %lid, %r : index
          %c2 = arith.constant 2 : index
          %h = arith.divui %cg, %c2 : index
          %t = arith.addi %g0, %h : index
          %o = arith.muli %t, %ckp : index
          %p0 = arith.addi %first, %o : index
          %pg = arith.minui %p0, %plast : index
          %lo = arith.muli %lid, %ckp : index
          %pt0 = arith.addi %first, %lo : index
          %pt = arith.minui %pt0, %plast : index
          %c4 = arith.constant 4 : index
          %g4 = arith.muli %cg, %c4 : index
          %rows = arith.muli %g4, %ckp : index
          %npairs = arith.addi %plast, %c1 : index
          %big = arith.cmpi ule, %rows, %npairs : index
          %p = arith.select %big, %pg, %pt : index
          %xh = memref.load %xtab[%p, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %dif = arith.cmpf ogt, %xh, %x0 : ${ft}
          return %dif : i1
        }

        // The recurrence state of the thread's ${kp} pairs p0 .. p0 + ${kp} - 1 (each clamped to
        // %plast) at l = m - 1: (u_hi, u_lo, y1 = 0, z = seed, k), the seed of order m and pair
        // p (c_m sin^m theta as the scaled value y and exponent counter k: the true value is
        // y 2^(S k), S = ${scale_bits}) from row m npairs + p of the seed table
        // (ireesht/numerics/legendre.py seed_table). The first step, with the table's seed row
        // (A, B, C, E) = (0, 1, 0, 1), turns it into y1 = seed: the loops treat l = m like any
        // other degree.
        func.func private @init(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>,
                                %seedtab: memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
                                %m: index, %p0: index, %plast: index, %dif: i1)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %ckp = arith.constant ${kp} : index
          %zf = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %zi = arith.constant dense<0> : vector<${kp}x${it}>
          %np = arith.addi %plast, %c1 : index
          %mrow = arith.muli %m, %np : index
          %r:4 = scf.for %i = %c0 to %ckp step %c1 iter_args(%uh = %zf, %ul = %zf, %y = %zf, %k = %zi)
              -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>) {
            %pi = arith.addi %p0, %i : index
            %p = arith.minui %pi, %plast : index
            %h, %l = func.call @node(%xtab, %p, %dif) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index, i1) -> (${ft}, ${ft})
            %srow = arith.addi %mrow, %p : index
            %ys = memref.load %seedtab[%srow, %c0] : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %kf = memref.load %seedtab[%srow, %c1] : memref<?x2x${ft}, #hal.descriptor_type<storage_buffer>>
            %ks = arith.fptosi %kf : ${ft} to ${it}
            %uh2 = vector.insert %h, %uh[%i] : ${ft} into vector<${kp}x${ft}>
            %ul2 = vector.insert %l, %ul[%i] : ${ft} into vector<${kp}x${ft}>
            %y2 = vector.insert %ys, %y[%i] : ${ft} into vector<${kp}x${ft}>
            %k2 = vector.insert %ks, %k[%i] : ${it} into vector<${kp}x${it}>
            scf.yield %uh2, %ul2, %y2, %k2 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
          }
          return %r#0, %r#1, %r#2, %r#3 : vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${it}>
        }

        // u y, the node times the state: fma(u_hi, y, u_lo y) with the node as hi + lo in
        // float32; in float64 a plain product, since the tables' lo parts are 0 there
        // (ireesht/tables.py), so it rounds the same and saves a multiply and a register per
        // pair.
        func.func private @node_times(%uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>, %y1: vector<${kp}x${ft}>,
                                      %keep: vector<${kp}xi1>) -> vector<${kp}x${ft}> {
${node_times}
        }

        // One step l-1 -> l of the thread's ${kp} pairs with the coefficients (A, B, C, E) of
        // degree l and the nodes (u_hi, u_lo) of @node. State: y1 = y_{l-1} (scaled by
        // 2^(S k)), z = y_{l-2} (standard form) or d_{l-1} (difference form):
        //   standard   y_l = A (x y_{l-1}) + B y_{l-2}
        //   difference d_l = -A (t y_{l-1}) + E d_{l-1};  y_l = C y_{l-1} + d_l
        // Written so that a driver cannot change which product is rounded: on Vulkan an Fma
        // has the precision of a multiply and an add, and drivers re-fuse, e.g.
        // fma(u_hi, y, u_lo * y) as fma(u_lo, y, u_hi * y), rounding the large product (2.5x
        // the error at lmax 1023 on an H200; 1.25x at lmax 255 on lavapipe). The rounded
        // addends pass through a select on "y is not NaN", always true but unknown to the
        // driver. (LLVM for CUDA keeps fma as written: there ${pin} is the predicate true,
        // and the selects fold away.)
        func.func private @lean_std(%uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>, %a: ${ft}, %b: ${ft},
                                    %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>) {
          %zero = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %keep = arith.cmpf ${pin}, %y1, %y1 : vector<${kp}x${ft}>
          %av = vector.broadcast %a : ${ft} to vector<${kp}x${ft}>
          %bv = vector.broadcast %b : ${ft} to vector<${kp}x${ft}>
          %v = func.call @node_times(%uh, %ul, %y1, %keep)
              : (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}xi1>) -> vector<${kp}x${ft}>
          %bz0 = arith.mulf %bv, %z : vector<${kp}x${ft}>
          %bz = arith.select %keep, %bz0, %zero : vector<${kp}xi1>, vector<${kp}x${ft}>
          %y = math.fma %av, %v, %bz : vector<${kp}x${ft}>
          return %y, %y1 : vector<${kp}x${ft}>, vector<${kp}x${ft}>
        }
        func.func private @lean_dif(%uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>, %a: ${ft}, %c: ${ft}, %e: ${ft},
                                    %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>)
            -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>) {
          %zero = arith.constant dense<0.0> : vector<${kp}x${ft}>
          %keep = arith.cmpf ${pin}, %y1, %y1 : vector<${kp}x${ft}>
          %na = arith.negf %a : ${ft}
          %nav = vector.broadcast %na : ${ft} to vector<${kp}x${ft}>
          %cv = vector.broadcast %c : ${ft} to vector<${kp}x${ft}>
          %ev = vector.broadcast %e : ${ft} to vector<${kp}x${ft}>
          %pt = func.call @node_times(%uh, %ul, %y1, %keep)
              : (vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}x${ft}>, vector<${kp}xi1>) -> vector<${kp}x${ft}>
          %ez0 = arith.mulf %ev, %z : vector<${kp}x${ft}>
          %ez = arith.select %keep, %ez0, %zero : vector<${kp}xi1>, vector<${kp}x${ft}>
          %d = math.fma %nav, %pt, %ez : vector<${kp}x${ft}>
          %y = math.fma %cv, %y1, %d : vector<${kp}x${ft}>
          return %y, %d : vector<${kp}x${ft}>, vector<${kp}x${ft}>
        }

        // @lean_dif (%dif) or @lean_std with the degree's coefficient row %cf. %dif is a
        // constant at every call site, so each inlined copy keeps one form.
        func.func private @step(%dif: i1, %uh: vector<${kp}x${ft}>, %ul: vector<${kp}x${ft}>, %cf: vector<4x${ft}>,
                                %y1: vector<${kp}x${ft}>, %z: vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>) {
          %a = vector.extract %cf[0] : ${ft} from vector<4x${ft}>
          %b = vector.extract %cf[1] : ${ft} from vector<4x${ft}>
          %c = vector.extract %cf[2] : ${ft} from vector<4x${ft}>
          %e = vector.extract %cf[3] : ${ft} from vector<4x${ft}>
          %y, %zn = scf.if %dif -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>) {
            %r:2 = func.call @lean_dif(%uh, %ul, %a, %c, %e, %y1, %z)
                : (vector<${kp}x${ft}>, vector<${kp}x${ft}>, ${ft}, ${ft}, ${ft}, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            scf.yield %r#0, %r#1 : vector<${kp}x${ft}>, vector<${kp}x${ft}>
          } else {
            %r:2 = func.call @lean_std(%uh, %ul, %a, %b, %y1, %z)
                : (vector<${kp}x${ft}>, vector<${kp}x${ft}>, ${ft}, ${ft}, vector<${kp}x${ft}>, vector<${kp}x${ft}>) -> (vector<${kp}x${ft}>, vector<${kp}x${ft}>)
            scf.yield %r#0, %r#1 : vector<${kp}x${ft}>, vector<${kp}x${ft}>
          }
          return %y, %zn : vector<${kp}x${ft}>, vector<${kp}x${ft}>
        }
// part: ishioka
        // The plan's type to float64 and back (identities for float64 plans).
        func.func private @widen(%v: ${ft}) -> f64 {
${widen}
        }
        func.func private @narrow(%v: f64) -> ${ft} {
${narrow}
        }

        // A seed (y, k) of the float64 seed table (seed64, whatever the plan's type) as the
        // float64 state (y', k'), the same value (exact: times a power of two) on the state's
        // scale (ireesht/geometry.py ISHIOKA_SCALING).
        func.func private @seed64(%ys: f64, %kf: f64) -> (f64, i64) {
${seed64}
        }

        // G(n) = floor(n/2) floor((n+1)/2) + n + 1: order m's rows of the chain table start
        // at G(L) - G(L - m) (ireesht/numerics/ishioka.py offset).
        func.func private @chain_g(%n: index) -> index {
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %h = arith.divui %n, %c2 : index
          %n1 = arith.addi %n, %c1 : index
          %h1 = arith.divui %n1, %c2 : index
          %p = arith.muli %h, %h1 : index
          %g = arith.addi %p, %n1 : index
          return %g : index
        }

        // The chain table's rows, orders 0 .. %mmax (G(L) - G(L - M - 1), with G(-1) = 0 when
        // M = L), and the first row of order %m.
        func.func private @chain_rows(%lmax: index, %mmax: index) -> index {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %gl = func.call @chain_g(%lmax) : (index) -> index
          %lm = arith.subi %lmax, %mmax : index
          %lm1 = arith.subi %lm, %c1 : index
          %lm1g = func.call @chain_g(%lm1) : (index) -> index
          %full = arith.cmpi eq, %lm, %c0 : index
          %glow = arith.select %full, %c0, %lm1g : index
          %n = arith.subi %gl, %glow : index
          return %n : index
        }
        func.func private @chain_row0(%lmax: index, %m: index) -> index {
          %gl = func.call @chain_g(%lmax) : (index) -> index
          %lmm = arith.subi %lmax, %m : index
          %glm = func.call @chain_g(%lmm) : (index) -> index
          %r = arith.subi %gl, %glm : index
          return %r : index
        }
        // The weighted even and odd parts of pair %p (node x) for order %m and field %b, in
        // float64: w (F_n + F_s) re, im, w x (F_n - F_s) re, im (zeros past the last pair; a
        // row is its own mirror at the equator of an odd grid).
        func.func private @parts64(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %wtab64: memref<?xf64, #hal.descriptor_type<storage_buffer>>, %x: f64, %p: index,
            %npairs: index, %nlat: index, %b: index, %m: index) -> (f64, f64, f64, f64) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %zero = arith.constant 0.0 : f64
          %plast = arith.subi %npairs, %c1 : index
          %valid = arith.cmpi ult, %p, %npairs : index
          %pc = arith.minui %p, %plast : index
          %w1 = memref.load %wtab64[%pc] : memref<?xf64, #hal.descriptor_type<storage_buffer>>
          %w = arith.select %valid, %w1, %zero : f64
          %last = arith.subi %nlat, %c1 : index
          %s = arith.subi %last, %pc : index
          %same = arith.cmpi eq, %s, %pc : index
          %nr0 = memref.load %F[%b, %pc, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %ni0 = memref.load %F[%b, %pc, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %sr0 = memref.load %F[%b, %s, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %si0 = memref.load %F[%b, %s, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
          %nr = func.call @widen(%nr0) : (${ft}) -> f64
          %ni = func.call @widen(%ni0) : (${ft}) -> f64
          %sr1 = func.call @widen(%sr0) : (${ft}) -> f64
          %si1 = func.call @widen(%si0) : (${ft}) -> f64
          %sr = arith.select %same, %zero, %sr1 : f64
          %si = arith.select %same, %zero, %si1 : f64
          %wx = arith.mulf %w, %x : f64
          %pr = arith.addf %nr, %sr : f64
          %pi = arith.addf %ni, %si : f64
          %mr = arith.subf %nr, %sr : f64
          %mi = arith.subf %ni, %si : f64
          %g0 = arith.mulf %w, %pr : f64
          %g1 = arith.mulf %w, %pi : f64
          %g2 = arith.mulf %wx, %mr : f64
          %g3 = arith.mulf %wx, %mi : f64
          return %g0, %g1, %g2, %g3 : f64, f64, f64, f64
        }

        // The pair's x (hi + lo of xtab, exact in float64) and u = x^2.
        func.func private @node64(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, %p: index) -> (f64, f64) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %xh = memref.load %xtab[%p, %c0] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %xl = memref.load %xtab[%p, %c1] : memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>
          %xh64 = func.call @widen(%xh) : (${ft}) -> f64
          %xl64 = func.call @widen(%xl) : (${ft}) -> f64
          %x = arith.addf %xh64, %xl64 : f64
          %u = arith.mulf %x, %x : f64
          return %x, %u : f64, f64
        }
// part: mma
        // v rounded to the nearest tf32 (ties away from zero: the 13 bits below tf32's 10
        // are rounded on the bit pattern, a carry moves into the exponent as it should).
        func.func private @tf32(%v: f32) -> f32 {
          %half = arith.constant 4096 : i32
          %mask = arith.constant -8192 : i32
          %b = arith.bitcast %v : f32 to i32
          %r = arith.addi %b, %half : i32
          %h = arith.andi %r, %mask : i32
          %t = arith.bitcast %h : i32 to f32
          return %t : f32
        }

        // The pair's x, u and seed y_0 = a_{m+1} P_mm = sqrt(2m + 3) P_mm (every seed of these
        // plans is live: its level is 0).
        func.func private @init(%xtab: memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>,
            %seed64: memref<?x2xf64, #hal.descriptor_type<storage_buffer>>, %m: index, %p: index,
            %npairs: index, %am: f64) -> (f64, f64, f64) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %x, %u = func.call @node64(%xtab, %p) : (memref<?x4x${ft}, #hal.descriptor_type<storage_buffer>>, index) -> (f64, f64)
          %mrow = arith.muli %m, %npairs : index
          %srow = arith.addi %mrow, %p : index
          %ys = memref.load %seed64[%srow, %c0] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
          %kf = memref.load %seed64[%srow, %c1] : memref<?x2xf64, #hal.descriptor_type<storage_buffer>>
          %y, %k = func.call @seed64(%ys, %kf) : (f64, f64) -> (f64, i64)
          %ya = arith.mulf %y, %am : f64
          return %x, %u, %ya : f64, f64, f64
        }

        // Row %r (< ${rows}) of the span's staged chain: step k = %base + %r of order m, (alpha_k,
        // beta_k) in ab_s and (e1_k, e2_{k-1}) in ee_s; zeros past the last step.
        func.func private @stage_chain(%chain: memref<?x5xf64, #hal.descriptor_type<storage_buffer>>,
            %ab_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %ee_s: memref<${rows}x2xf64, #gpu.address_space<workgroup>>,
            %r: index, %base: index, %nsteps: index, %row0: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %zero = arith.constant 0.0 : f64
          %k = arith.addi %base, %r : index
          %in = arith.cmpi ult, %k, %nsteps : index
          %row1 = arith.addi %row0, %k : index
          %row = arith.select %in, %row1, %row0 : index
          %kp = arith.cmpi ugt, %k, %c0 : index
          %inp = arith.andi %in, %kp : i1
          %rowp0 = arith.subi %row, %c1 : index
          %rowp = arith.select %inp, %rowp0, %row : index
          %al0 = memref.load %chain[%row, %c0] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %be0 = memref.load %chain[%row, %c1] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %e10 = memref.load %chain[%row, %c2] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %e2p0 = memref.load %chain[%rowp, %c3] : memref<?x5xf64, #hal.descriptor_type<storage_buffer>>
          %al = arith.select %in, %al0, %zero : f64
          %be = arith.select %in, %be0, %zero : f64
          %e1 = arith.select %in, %e10, %zero : f64
          %e2p = arith.select %inp, %e2p0, %zero : f64
          %ab = vector.from_elements %al, %be : vector<2xf64>
          %ee = vector.from_elements %e1, %e2p : vector<2xf64>
          vector.store %ab, %ab_s[%r, %c0] : memref<${rows}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
          vector.store %ee, %ee_s[%r, %c0] : memref<${rows}x2xf64, #gpu.address_space<workgroup>>, vector<2xf64>
          return
        }

        // Four floats as tf32 hi and the rest (as float32: the tensor core drops its last bits).
        func.func private @split4(%a: f32, %b: f32, %c: f32, %d: f32) -> (vector<4x1xf32>, vector<4x1xf32>) {
          %ah = func.call @tf32(%a) : (f32) -> f32
          %bh = func.call @tf32(%b) : (f32) -> f32
          %ch = func.call @tf32(%c) : (f32) -> f32
          %dh = func.call @tf32(%d) : (f32) -> f32
          %al = arith.subf %a, %ah : f32
          %bl = arith.subf %b, %bh : f32
          %cl = arith.subf %c, %ch : f32
          %dl = arith.subf %d, %dh : f32
          %hi = vector.from_elements %ah, %bh, %ch, %dh : vector<4x1xf32>
          %lo = vector.from_elements %al, %bl, %cl, %dl : vector<4x1xf32>
          return %hi, %lo : vector<4x1xf32>, vector<4x1xf32>
        }
// part: synth_grid
        // The (pair block, order) of workgroup (%hx, %hy). The grid lists the orders heaviest
        // first (order m runs lmax + 1 - m degrees), but every other full round of
        // ${synth_round} workgroups is reversed (a snake), so that the SMs' first workgroups
        // mix heavy and light orders: the long recurrences of the small orders bound the
        // kernel at lmax 511-1023 with one field (H200, rounds of 264 = twice its SMs: 4-9%
        // faster there, BENCHMARKS.md ninth run).
        func.func private @workgroup_of(%hx: index, %hy: index, %mc: index) -> (index, index) {
          %c1 = arith.constant 1 : index
          %gx = arith.constant ${synth_gx} : index
          %rnd = arith.constant ${synth_round} : index
          %rnd1 = arith.subi %rnd, %c1 : index
          %w0 = arith.muli %hy, %gx : index
          %w = arith.addi %w0, %hx : index
          %n = arith.muli %gx, %mc : index
          %r = arith.divui %w, %rnd : index
          %pos = arith.remui %w, %rnd : index
          %r1 = arith.addi %r, %c1 : index
          %end = arith.muli %r1, %rnd : index
          %full = arith.cmpi ule, %end, %n : index
          %par = arith.andi %r, %c1 : index
          %odd = arith.cmpi eq, %par, %c1 : index
          %rev = arith.andi %full, %odd : i1
          %back = arith.subi %rnd1, %pos : index
          %pos2 = arith.select %rev, %back, %pos : index
          %start = arith.subi %w, %pos : index
          %w2 = arith.addi %start, %pos2 : index
          %wx = arith.remui %w2, %gx : index
          %m = arith.divui %w2, %gx : index
          return %wx, %m : index, index
        }

        // F = 0 in the rows of pairs 0 .. %n - 1 (north and south), strided over the 64
        // threads.
        func.func private @zero_rows(%F: memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>,
            %n: index, %lid: index, %nlat: index, %nfields: index, %b0: index, %m: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %cnf = arith.constant ${nf} : index
          %zero = arith.constant 0.0 : ${ft}
          %last = arith.subi %nlat, %c1 : index
          scf.for %r = %lid to %n step %c64 {
            %rs = arith.subi %last, %r : index
            scf.for %f = %c0 to %cnf step %c1 {
              %b = arith.addi %b0, %f : index
              %in = arith.cmpi ult, %b, %nfields : index
              scf.if %in {
                memref.store %zero, %F[%b, %r, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                memref.store %zero, %F[%b, %r, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                memref.store %zero, %F[%b, %rs, %m, %c0] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
                memref.store %zero, %F[%b, %rs, %m, %c1] : memref<?x?x?x2x${ft}, #hal.descriptor_type<storage_buffer>>
              }
            }
          }
          return
        }
