// Fourier analysis stage `fft_analys` (docs/design.md): f -> F, one workgroup per row.
//
//   F[b][i][m] = sum_j f[b][i][j] exp(-i m 2 pi j / NP),  m = 0..M   (raw DFT, no 1/NP)
//
// bindings 0 twiddle [NT] vec2 (rows k < NP: (cos, sin)(2 pi k / NP); then the blocks of the
// FFT passes, ireesht/numerics/fourier.py), 1 f [B][NL][NP] f32, 2 F [B][NL][mc] vec2
// push constants NL, NP, mc, B; grid (NL, B, 1); entry point `main`.
//
// One entry point; the path is chosen at run time from the table's header (the row FFT's
// plan, ireesht/numerics/fourier.py row_fft). The branch is uniform (the same table row
// for every thread), so it costs no divergence and keeps the pipeline at one dispatch/stage.
//  * FAST, NP even: the row is packed as n = NP/2 complex values z_t = f_2t + i f_2t+1,
//    transformed by the row DFT in workgroup memory (fft_core.wgsli: mixed-radix Stockham
//    FFT of radices 2, 3, 4, 5, or Bluestein's convolution when n has a prime factor > 5),
//    and split into the spectrum of the real row. About n log n work instead of NP * mc.
//    NP odd: the row as n = NP complex values f_t + 0 i and the row DFT.
//  * DIRECT, no FFT (NP > 4096, or Bluestein's m > 2048): band-limited DFT, only the mc
//    needed outputs, twiddle[(m j) mod NP] with the index advanced incrementally (no
//    32-bit overflow). When mc is small, S lanes per m split the j sum so that all threads
//    work, then a tree reduction joins them.
//
// Long sums are written out 32 terms per loop iteration: lavapipe (Mesa 22 llvmpipe) ends
// all loops of an invocation after 65535 iterations in total, silently. Both paths stay
// far below that for NP <= 16384.
//
// No sin/cos on the device: every rotation comes from `twiddle` (host float64 -> f32),
// so the f32 result is as accurate as the table. The direct sums add blocks of 32 terms,
// which keeps rounding growth ~ sqrt(32) + sqrt(n / 32) rather than sqrt(n).
//
// fft_synth.wgsl shares the FFT core, kernels/wgsl/fft_core.wgsli, with this kernel.

struct Params { NL: u32, NP: u32, mc: u32, B: u32 }
var<immediate> pc: Params;

@group(0) @binding(0) var<storage, read> twiddle: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read> f: array<f32>;
@group(0) @binding(2) var<storage, read_write> F: array<vec2<f32>>;

// 128 threads: a multiple of every subgroup width in use (8 lavapipe, 32 NVIDIA/Apple,
// 64 AMD), small enough that a row of a few hundred points keeps most threads busy, and
// the 2048-point FFT needs only 4 radix-4 butterflies per thread.
const WG: u32 = 128u;
// Largest half-length FFT. 2 x 2048 f32 = 16 KB of workgroup memory: half the 32 KB
// limit of lavapipe and Metal, and room for several resident workgroups per SM / CU.
// DIRECT path: f row tile of TILE points and, past it, 2 WG floats of reduction scratch.
const TILE: u32 = 2048u;
const SMAX: u32 = 64u;  // most lanes per m: 32 SMAX = TILE


//! include fft_core.wgsli

fn analys_fft(pl: RowPlan, fbase: u32, Fbase: u32, np: u32, mc: u32, tid: u32) {
  let n = pl.n;
  if ((np & 1u) == 1u) {
    for (var t = tid; t < np; t += WG) {
      st(t, vec2<f32>(f[fbase + t], 0.0));
    }
    workgroupBarrier();
    row_dft(pl, np, -1.0, tid);
    for (var m = tid; m < mc; m += WG) {  // mc <= (n + 1) / 2
      // a real row's F_0 is real; Bluestein's chirps leave rounding in Im
      F[Fbase + m] = select(ld(m), vec2<f32>(ld(m).x, 0.0), m == 0u);
    }
    return;
  }
  // Coalesced row read, de-interleaved into z_n = f_2n + i f_2n+1.
  for (var t = tid; t < np; t += WG) {
    sm[(t >> 1u) + (t & 1u) * HALF] = f[fbase + t];
  }
  workgroupBarrier();
  row_dft(pl, np, -1.0, tid);
  // Split: E_m = (Z_m + conj Z_{n-m}) / 2 (even samples), O_m = (Z_m - conj Z_{n-m}) / 2i
  // (odd samples), F_m = E_m + exp(-2 pi i m / np) O_m. E, O are n-periodic, hence the mod.
  for (var m = tid; m < mc; m += WG) {
    let a = m % n;
    let z = ld(a);
    let y = ld((n - a) % n);
    let zc = vec2<f32>(y.x, -y.y);
    let e = 0.5 * (z + zc);
    let d = z - zc;
    let o = 0.5 * vec2<f32>(d.y, -d.x);
    F[Fbase + m] = e + cmul(rot(m % np, -1.0), o);
  }
}

// f_jj exp(-i m phi_j) from the staged tile; advances the table index by `step`.
fn aterm(jj: u32, idx: ptr<function, u32>, step: u32, np: u32) -> vec2<f32> {
  let w = twiddle[*idx];
  let k = *idx + step;
  *idx = select(k, k - np, k >= np);
  return sm[jj] * vec2<f32>(w.x, -w.y);
}

// Terms jj, jj + S, ..., written out rather than looped: llvmpipe (lavapipe) ends every
// loop of a shader once the invocation has made 65535 loop iterations in total
// (LP_MAX_TGSI_LOOP_ITERATIONS, Mesa 22), which a term-per-iteration sum would reach.
fn aterm8(jj: u32, S: u32, idx: ptr<function, u32>, step: u32, np: u32) -> vec2<f32> {
  var a = aterm(jj, idx, step, np);
  a += aterm(jj + S, idx, step, np);
  a += aterm(jj + 2u * S, idx, step, np);
  a += aterm(jj + 3u * S, idx, step, np);
  a += aterm(jj + 4u * S, idx, step, np);
  a += aterm(jj + 5u * S, idx, step, np);
  a += aterm(jj + 6u * S, idx, step, np);
  a += aterm(jj + 7u * S, idx, step, np);
  return a;
}

fn aterm32(jj: u32, S: u32, idx: ptr<function, u32>, step: u32, np: u32) -> vec2<f32> {
  var a = aterm8(jj, S, idx, step, np);
  a += aterm8(jj + 8u * S, S, idx, step, np);
  a += aterm8(jj + 16u * S, S, idx, step, np);
  a += aterm8(jj + 24u * S, S, idx, step, np);
  return a;
}

fn analys_direct(fbase: u32, Fbase: u32, np: u32, mc: u32, tid: u32) {
  // S lanes per m (a power of two, S mc <= WG) so that small mc still uses the workgroup;
  // S <= SMAX keeps a lane's 32-term block (32 S points) within one tile.
  var S = 1u;
  while (S < SMAX && 2u * S * mc <= WG) {
    S = 2u * S;
  }
  let s = tid & (S - 1u);
  let blk = 32u * S;
  let ntiles = (np + TILE - 1u) / TILE;
  for (var m0 = 0u; m0 < mc; m0 += WG / S) {
    let m = min(m0 + tid / S, mc - 1u);  // idle lanes redo the last m and store nothing
    // exp(-i m phi_j) at j = s, s + S, ...: table index (m j) mod np, advanced by (m S) mod np.
    let step = ((m % np) * S) % np;
    var idx = ((m % np) * s) % np;
    var acc = vec2<f32>(0.0, 0.0);
    for (var t0 = 0u; t0 < np; t0 += TILE) {
      let cnt = min(TILE, np - t0);
      let cntp = (cnt + blk - 1u) / blk * blk;  // zero-padded to whole blocks
      if (ntiles > 1u || m0 == 0u) {  // a single tile stays put across m passes
        workgroupBarrier();
        for (var t = tid; t < cntp; t += WG) {
          var x = 0.0;
          if (t < cnt) {
            x = f[fbase + t0 + t];
          }
          sm[t] = x;
        }
        workgroupBarrier();
      }
      for (var jj = s; jj < cntp; jj += blk) {
        acc += aterm32(jj, S, &idx, step, np);
      }
    }
    if (S > 1u) {
      sm[TILE + tid] = acc.x;
      sm[TILE + WG + tid] = acc.y;
      workgroupBarrier();
      for (var h = S >> 1u; h > 0u; h = h >> 1u) {
        if (s < h) {
          sm[TILE + tid] += sm[TILE + tid + h];
          sm[TILE + WG + tid] += sm[TILE + WG + tid + h];
        }
        workgroupBarrier();
      }
      acc = vec2<f32>(sm[TILE + tid], sm[TILE + WG + tid]);
    }
    if (s == 0u && m0 + tid / S < mc) {
      F[Fbase + m] = acc;
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
    analys_fft(pl, row * np, row * mc, np, mc, tid);
  } else {
    analys_direct(row * np, row * mc, np, mc, tid);
  }
}
