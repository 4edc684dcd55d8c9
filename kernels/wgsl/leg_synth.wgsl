// Legendre synthesis: F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i).
// Stage contract: kernels/CONTRACT.md. Tables, the exact-coefficient recurrence, its
// difference form near the poles and the rescaling scheme: ireesht/legendre.py.
//
// Grid (ceil(npairs / (WG KP)), mc, ceil(B / NF)). A thread owns KP latitude pairs
// (i, NL-1-i): one recurrence serves both rows of a pair, since P_lm(-x) = (-1)^(l-m) P_lm(x),
// so the even (l-m) and odd parts are summed apart and combined at the end.
// NF fields per thread share the recurrence (the NF accumulators are the register arrays
// that make this a compile-time variant).

struct Params {
  lmax: u32, mmax: u32, nlat: u32, npairs: u32, nlm: u32, nfields: u32, nbits: u32,
}
var<immediate> pc: Params;

@group(0) @binding(0) var<storage, read> xtab: array<vec4<f32>>;    // [npairs] (x_hi, x_lo, t_hi, t_lo), t = 1 - x
@group(0) @binding(1) var<storage, read> powtab: array<vec4<f32>>;  // [npairs][nbits] sin^(2^j) = (hi + lo) 2^e: (hi, lo, e, 0)
@group(0) @binding(2) var<storage, read> mseed: array<vec2<f32>>;   // [mc] c_m as (hi, lo)
@group(0) @binding(3) var<storage, read> coef: array<vec4<f32>>;    // [nlm] (A, B, C, E), exact
@group(0) @binding(4) var<storage, read> stab: array<f32>;          // [nlm] S_lm: P_lm = S_lm y_l
@group(0) @binding(5) var<storage, read> q: array<vec2<f32>>;       // [B][nlm]
@group(0) @binding(6) var<storage, read_write> F: array<vec2<f32>>; // [B][NL][mc]

const WG: u32 = 64u;
const NF: u32 = {{NF}}u;
// latitude pairs per thread: two independent recurrences share each staged coefficient
// and hide each other's latency
const KP: u32 = 2u;
const ACCS: u32 = {{ACCS}}u;  // 2 KP NF accumulators, as a literal for the unroller
const SCALE_BITS: i32 = 64;
const THRESHOLD: f32 = 4294967296.0;     // 2^32
const SHRINK: f32 = 5.421010862427522e-20; // 2^-64
const X0: f32 = 0.573576436;  // cos(55 deg): rows closer to the pole run the difference form

// One span of WG degrees l, staged in workgroup memory: every thread reads the same
// coefficients, so they are loaded once per workgroup instead of once per thread.
var<workgroup> coef_s: array<vec4<f32>, WG>;
var<workgroup> q_s: array<vec2<f32>, 256>;  // WG * NF, NF <= 4

fn exp2i(n: i32) -> f32 {
  // 2^n for n in [-126, 127], exact, without device exp2
  return bitcast<f32>(u32(n + 127) << 23u);
}

fn floor_div(a: i32, b: i32) -> i32 {
  return select(a / b, -((-a + b - 1) / b), a < 0);
}

// The seed c_m sin^m theta as a scaled value y (returned in .x) and exponent counter k
// (in .y, as f32: exact for the small integers it holds).
fn seed(m: u32, p: u32) -> vec2<f32> {
  var ph = mseed[m].x;
  var pl = mseed[m].y;
  var pe = 0;
  for (var j = 0u; j < pc.nbits; j++) {
    if (((m >> j) & 1u) != 0u) {
      let t = powtab[p * pc.nbits + j];
      // double-float product: sin^m to full float32 accuracy for any m (a plain float32
      // power loses about m ulps)
      let hi = ph * t.x;
      var lo = fma(ph, t.x, -hi);
      lo = lo + (ph * t.y + pl * t.x);
      ph = hi + lo;
      pl = lo - (ph - hi);
      pe = pe + i32(t.z);
    }
  }
  // frexp by bit manipulation: ph = fr 2^e with fr in [0.5, 1)
  let bits = bitcast<u32>(ph);
  let e = i32((bits >> 23u) & 0xffu) - 126;
  let fr = bitcast<f32>((bits & 0x807fffffu) | 0x3f000000u);
  let total = pe + e;
  let k = floor_div(total + 32, SCALE_BITS);
  let y = (fr + pl * exp2i(-e)) * exp2i(total - SCALE_BITS * k);
  return vec2<f32>(select(y, 0.0, ph == 0.0), f32(k));
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
  let lid = lid3.x;
  let m = wid.y;
  let p0 = wid.x * WG * KP + lid;  // this thread's pairs: p0 + i WG, i < KP
  let b0 = wid.z * NF;
  let mc = pc.mmax + 1u;
  let mstart = m * (2u * pc.lmax + 3u - m) / 2u;
  let nl = pc.lmax + 1u - m;

  var xt: array<vec4<f32>, KP>;
  var y1: array<f32, KP>;
  var z: array<f32, KP>;  // y_{l-2} (standard form) or d_{l-1} (difference form)
  var k: array<i32, KP>;
  /*unroll*/ for (var i = 0u; i < KP; i++) {
    let pp = min(p0 + i * WG, pc.npairs - 1u);
    xt[i] = xtab[pp];
    let s = seed(m, pp);
    y1[i] = s.x;
    k[i] = i32(s.y);
  }

  // partial sums of one span, flushed into the totals: float32 sums of 32 terms lose
  // nothing measurable, sums of thousands do. Index (h KP + i) NF + f: parity h of l - m
  // (0 even, 1 odd), pair i, field f.
  var acc: array<vec2<f32>, 2u * KP * NF>;
  var tot: array<vec2<f32>, 2u * KP * NF>;

  for (var base = 0u; base < nl; base += WG) {
    workgroupBarrier();  // the previous span is consumed
    let li = base + lid;
    if (li < nl) {
      coef_s[lid] = coef[mstart + li];
      let sc = stab[mstart + li];  // applied to q here, once, instead of in the recurrence
      /*unroll*/ for (var f = 0u; f < NF; f++) {
        let b = b0 + f;
        q_s[f * WG + lid] = select(vec2<f32>(0.0), sc * q[min(b, pc.nfields - 1u) * pc.nlm + mstart + li], b < pc.nfields);
      }
    }
    workgroupBarrier();
    let cnt = min(WG, nl - base);
    // two degrees per iteration, even then odd l - m (base is even): the parity of each
    // step is known where it is written
    for (var j = 0u; j < cnt; j += 2u) {
      /*unroll*/ for (var h = 0u; h < 2u; h++) {
        let jh = j + h;
        if (jh < cnt) {
          let dl = base + jh;  // l - m
          let c = coef_s[jh];
          /*unroll*/ for (var i = 0u; i < KP; i++) {
            if (dl > 0u) {
              // nodes as hi + lo pairs: float32 cos(theta) alone is off by ~1e-8
              // absolute, a large relative error in theta next to the poles
              if (xt[i].x > X0) {
                // d_l = E d_{l-1} - A t y_{l-1}; y_l = C y_{l-1} + d_l: no cancellation at x ~ 1
                let pt = fma(xt[i].z, y1[i], xt[i].w * y1[i]);
                z[i] = fma(-c.x, pt, c.w * z[i]);
                y1[i] = fma(c.z, y1[i], z[i]);
              } else {
                let v = fma(xt[i].x, y1[i], xt[i].y * y1[i]);
                let y = fma(c.x, v, c.y * z[i]);
                z[i] = y1[i];
                y1[i] = y;
              }
              if (k[i] < 0 && abs(y1[i]) > THRESHOLD) {
                z[i] = z[i] * SHRINK;
                y1[i] = y1[i] * SHRINK;
                k[i] = k[i] + 1;
              }
            }
            let v = vec2<f32>(select(0.0, y1[i], k[i] == 0));
            /*unroll*/ for (var f = 0u; f < NF; f++) {
              let n = (h * KP + i) * NF + f;
              acc[n] = fma(v, q_s[f * WG + jh], acc[n]);
            }
          }
        }
      }
    }
    /*unroll*/ for (var n = 0u; n < ACCS; n++) {
      tot[n] = tot[n] + acc[n];
      acc[n] = vec2<f32>(0.0);
    }
  }

  /*unroll*/ for (var i = 0u; i < KP; i++) {
    let i_n = p0 + i * WG;
    let i_s = pc.nlat - 1u - i_n;
    /*unroll*/ for (var f = 0u; f < NF; f++) {
      let b = b0 + f;
      if (i_n < pc.npairs && b < pc.nfields) {
        let even = tot[i * NF + f];
        let odd = tot[(KP + i) * NF + f];
        F[(b * pc.nlat + i_n) * mc + m] = even + odd;
        if (i_s != i_n) {
          F[(b * pc.nlat + i_s) * mc + m] = even - odd;
        }
      }
    }
  }
}
