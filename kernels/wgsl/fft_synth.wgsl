// Fourier synthesis stage `fft_synth` (docs/design.md): F -> f, one workgroup per row.
//
//   f[b][i][j] = Re F_0 + 2 Re sum_{m=1..M} F_m exp(i m 2 pi j / NP)   (Im F_0 ignored)
//
// bindings 0 twiddle [NT] vec2 (rows k < NP: (cos, sin)(2 pi k / NP); then the blocks of the
// FFT passes, ireesht/numerics/fourier.py), 1 F [B][NL][mc] vec2, 2 f [B][NL][NP] f32
// push constants NL, NP, mc, B; grid (NL, B, 1); entry point `main`.
//
// One entry point; the path is chosen at run time from the table's header (the row FFT's
// plan, ireesht/numerics/fourier.py row_fft). The branch is uniform (the same table row
// for every thread), so it costs no divergence and keeps the pipeline at one dispatch/stage.
//  * FAST, NP even: the Hermitian spectrum (F_0..F_M, zero above M) is folded into the
//    n = NP/2-point complex spectrum Z_k of z_t = f_2t + i f_2t+1, inverted by the row DFT
//    in workgroup memory (fft_core.wgsli: mixed-radix Stockham FFT of radices 2, 3, 4, 5,
//    or Bluestein's convolution when n has a prime factor > 5) and written out interleaved.
//    NP odd: the n = NP-point Hermitian spectrum, inverted by the row DFT; f = Re z.
//  * DIRECT, no FFT (NP > 4096, or Bluestein's m > 2048): band-limited sum over the mc
//    coefficients for each of the NP points, twiddle[(m j) mod NP] with the index advanced
//    incrementally (no 32-bit overflow); threads own points j, the F row is staged in
//    workgroup memory.
//
// Long sums are written out 32 terms per loop iteration: lavapipe (Mesa 22 llvmpipe) ends
// all loops of an invocation after 65535 iterations in total, silently. Both paths stay
// far below that for NP <= 16384.
//
// No sin/cos on the device: every rotation comes from `twiddle` (host float64 -> f32),
// so the f32 result is as accurate as the table. The direct sums add blocks of 32 terms,
// which keeps rounding growth ~ sqrt(32) + sqrt(n / 32) rather than sqrt(n).
//
// fft_analys.wgsl shares the FFT core, kernels/wgsl/fft_core.wgsli, with this kernel.

struct Params { NL: u32, NP: u32, mc: u32, B: u32 }
var<immediate> pc: Params;

@group(0) @binding(0) var<storage, read> twiddle: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read> F: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read_write> f: array<f32>;

// 128 threads: a multiple of every subgroup width in use (8 lavapipe, 32 NVIDIA/Apple,
// 64 AMD), small enough that a row of a few hundred points keeps most threads busy, and
// the 2048-point FFT needs only 4 radix-4 butterflies per thread.
const WG: u32 = 128u;
// Largest half-length FFT. 2 x 2048 f32 = 16 KB of workgroup memory: half the 32 KB
// limit of lavapipe and Metal, and room for several resident workgroups per SM / CU.
// DIRECT path: F coefficients per tile (re at [t], im at [HALF + t]).
const TILE: u32 = 2048u;  // HALF


//! include fft_core.wgsli

fn synth_fft(pl: RowPlan, Fbase: u32, fbase: u32, np: u32, mc: u32, tid: u32) {
  let n = pl.n;
  let mmax = mc - 1u;
  if ((np & 1u) == 1u) {
    // Z_0 = Re F_0, Z_k = F_k and Z_(n-k) = conj F_k for 1 <= k <= M < n / 2
    for (var k = tid; k < n; k += WG) {
      var z = vec2<f32>(0.0, 0.0);
      if (k == 0u) {
        z = vec2<f32>(F[Fbase].x, 0.0);
      } else if (k <= mmax) {
        z = F[Fbase + k];
      } else if (n - k <= mmax) {
        let v = F[Fbase + n - k];
        z = vec2<f32>(v.x, -v.y);
      }
      st(k, z);
    }
    workgroupBarrier();
    row_dft(pl, np, 1.0, tid);
    for (var t = tid; t < np; t += WG) {
      f[fbase + t] = sm[t];
    }
    return;
  }
  // With X the Hermitian spectrum (X_0 = Re F_0, X_m = F_m for 1 <= m <= M, else 0) and
  // X_n = 0 (np > 2M), the even/odd samples have spectra X_k + conj X_{n-k} and
  // exp(2 pi i k / np) (X_k - conj X_{n-k}); Z_k = even + i odd, unnormalised.
  for (var k = tid; k < n; k += WG) {
    var x = vec2<f32>(0.0, 0.0);
    if (k <= mmax) {
      x = F[Fbase + k];
    }
    if (k == 0u) {
      x.y = 0.0;
    }
    var xc = vec2<f32>(0.0, 0.0);
    if (n - k <= mmax) {  // n - k >= 1
      let v = F[Fbase + n - k];
      xc = vec2<f32>(v.x, -v.y);
    }
    let c = cmul(rot(k, 1.0), x - xc);
    st(k, x + xc + vec2<f32>(-c.y, c.x));
  }
  workgroupBarrier();
  row_dft(pl, np, 1.0, tid);
  // Re-interleave f_2n = Re z_n, f_2n+1 = Im z_n with a coalesced row write.
  for (var t = tid; t < np; t += WG) {
    f[fbase + t] = sm[(t >> 1u) + (t & 1u) * HALF];
  }
}

// Re(F_t exp(i t phi_j)) from the staged (weighted) row; advances the table index by j.
fn sterm(t: u32, idx: ptr<function, u32>, j: u32, np: u32) -> f32 {
  let w = twiddle[*idx];
  let k = *idx + j;
  *idx = select(k, k - np, k >= np);
  return sm[t] * w.x - sm[HALF + t] * w.y;
}

// Terms t..t+31 written out rather than looped: llvmpipe (lavapipe) ends every loop of a
// shader once the invocation has made 65535 loop iterations in total
// (LP_MAX_TGSI_LOOP_ITERATIONS, Mesa 22), which a term-per-iteration sum would reach.
fn sterm8(t: u32, idx: ptr<function, u32>, j: u32, np: u32) -> f32 {
  var a = sterm(t, idx, j, np);
  a += sterm(t + 1u, idx, j, np);
  a += sterm(t + 2u, idx, j, np);
  a += sterm(t + 3u, idx, j, np);
  a += sterm(t + 4u, idx, j, np);
  a += sterm(t + 5u, idx, j, np);
  a += sterm(t + 6u, idx, j, np);
  a += sterm(t + 7u, idx, j, np);
  return a;
}

fn sterm32(t: u32, idx: ptr<function, u32>, j: u32, np: u32) -> f32 {
  var a = sterm8(t, idx, j, np);
  a += sterm8(t + 8u, idx, j, np);
  a += sterm8(t + 16u, idx, j, np);
  a += sterm8(t + 24u, idx, j, np);
  return a;
}

fn synth_direct(Fbase: u32, fbase: u32, np: u32, mc: u32, tid: u32) {
  let nchunks = (mc + TILE - 1u) / TILE;
  for (var j0 = 0u; j0 < np; j0 += WG) {
    let j = j0 + tid;
    let jr = min(j, np - 1u);  // idle lanes redo the last point and store nothing
    var acc = 0.0;
    var idx = 0u;  // (m j) mod np, advanced by j per m
    for (var c0 = 0u; c0 < mc; c0 += TILE) {
      let cnt = min(TILE, mc - c0);
      let cntp = (cnt + 31u) & ~31u;  // zero-padded to whole 32-term blocks
      if (nchunks > 1u || j0 == 0u) {  // a single chunk stays put across j blocks
        workgroupBarrier();
        for (var t = tid; t < cntp; t += WG) {
          var w = vec2<f32>(0.0, 0.0);
          if (t < cnt) {
            let m = c0 + t;
            let v = F[Fbase + m];
            // Weight 2 for m >= 1, Im F_0 dropped: exact scalings, applied once here.
            w = select(2.0 * v, vec2<f32>(v.x, 0.0), m == 0u);
          }
          st(t, w);
        }
        workgroupBarrier();
      }
      for (var t = 0u; t < cntp; t += 32u) {
        acc += sterm32(t, &idx, jr, np);
      }
    }
    if (j < np) {
      f[fbase + j] = acc;
    }
  }
}

@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wg: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let np = pc.NP;
  let mc = pc.mc;
  let row = wg.y * pc.NL + wg.x;
  let pl = read_plan(np);
  if (pl.n > 0u) {
    synth_fft(pl, row * mc, row * np, np, mc, tid);
  } else {
    synth_direct(row * mc, row * np, np, mc, tid);
  }
}
