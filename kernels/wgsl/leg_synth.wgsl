// Legendre synthesis: F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i).
// Stage contract: docs/design.md. Tables, the exact-coefficient recurrence, its
// difference form near the poles and the rescaling scheme: ireesht/numerics/legendre.py.
//
// Grid (ceil(npairs / (WG KP)), mc, ceil(B / NF)). A thread owns KP latitude pairs
// (i, NL-1-i): one recurrence serves both rows of a pair, since P_lm(-x) = (-1)^(l-m) P_lm(x),
// so the even (l-m) and odd parts are summed apart and combined at the end.
// NF fields per thread share the recurrence (the NF accumulators are the register arrays
// that make this a compile-time variant).

struct Params {
  lmax: u32, mmax: u32, nlat: u32, npairs: u32, nlm: u32, nfields: u32,
}
var<immediate> pc: Params;

@group(0) @binding(0) var<storage, read> xtab: array<vec4<f32>>;    // [npairs] (x_hi, x_lo, t_hi, t_lo), t = 1 - x
@group(0) @binding(1) var<storage, read> seedtab: array<vec2<f32>>;  // [mc][npairs] seeds (y, k)
// binding 2 (polar) is not read: this family skips no polar rows
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

// One span of WG degrees l, staged in workgroup memory: every thread reads the same
// coefficients, so they are loaded once per workgroup instead of once per thread.
var<workgroup> coef_s: array<vec4<f32>, WG>;
var<workgroup> q_s: array<vec2<f32>, 256>;  // WG * NF, NF <= 4

//! include legendre_core.wgsli

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
  var r: array<Rec, KP>;  // recurrence state of each pair
  /*unroll*/ for (var i = 0u; i < KP; i++) {
    let pp = min(p0 + i * WG, pc.npairs - 1u);
    xt[i] = xtab[pp];
    r[i] = start(m, pp);
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
              r[i] = step(xt[i], c, r[i]);
            }
            let v = vec2<f32>(value(r[i]));
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
