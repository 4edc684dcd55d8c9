// Legendre analysis: q[b][(l,m)] = sum_i w_i F[b][i][m] P_lm(cos theta_i).
// Stage contract: docs/design.md. Tables, the exact-coefficient recurrence, its
// difference form near the poles and the rescaling scheme: ireesht/numerics/legendre.py.
//
// Grid (mc, ceil(B / NF), 1): one workgroup per m. Threads own latitude pairs (i, NL-1-i)
// and walk them in chunks of WG KP pairs, KP per thread; for each chunk the recurrence runs over l and every
// thread's contributions are summed over the workgroup. The sum is amortised over spans of
// SPAN degrees: per degree only a subgroup sum (SG=1) or nothing (SG=0, each thread is its
// own group) happens; the partial sums of all groups are written to workgroup memory and
// added up once per span, between one pair of barriers.

struct Params {
  lmax: u32, mmax: u32, nlat: u32, npairs: u32, nlm: u32, nfields: u32,
}
var<immediate> pc: Params;

@group(0) @binding(0) var<storage, read> xtab: array<vec4<f32>>;    // [npairs] (x_hi, x_lo, t_hi, t_lo), t = 1 - x
@group(0) @binding(1) var<storage, read> seedtab: array<vec2<f32>>;  // [mc][npairs] seeds (y, k)
// binding 2 (polar) is not read: this family skips no polar rows
@group(0) @binding(3) var<storage, read> coef: array<vec4<f32>>;    // [nlm] (A, B, C, E), exact
@group(0) @binding(4) var<storage, read> stab: array<f32>;          // [nlm] S_lm: P_lm = S_lm y_l
@group(0) @binding(5) var<storage, read> wtab: array<f32>;          // [npairs] w_i 2 pi / NP
@group(0) @binding(6) var<storage, read> F: array<vec2<f32>>;       // [B][NL][mc]
@group(0) @binding(7) var<storage, read_write> q: array<vec2<f32>>; // [B][nlm]

const WG: u32 = 128u;
const SPAN: u32 = 16u;
const NF: u32 = {{NF}}u;
const KP: u32 = 4u;  // latitude pairs per thread in a chunk

var<workgroup> coef_s: array<vec4<f32>, SPAN>;
// partial sums [group][span][field]: WG * SPAN entries, which holds NF = 1 with one group
// per thread (SG=0), or NF <= 4 with subgroups of 4 or more threads (SG=1)
var<workgroup> part: array<vec2<f32>, 2048>;

//! include legendre_core.wgsli

fn group_sum(v: vec2<f32>) -> vec2<f32> {  // a subgroup sum (SG=1) or the value itself
  return {{GROUP_SUM}};
}

@compute @workgroup_size(128)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(subgroup_size) sg_size: u32) {
  let lid = lid3.x;
  let m = wid.x;
  let b0 = wid.y * NF;
  let mc = pc.mmax + 1u;
  let mstart = m * (2u * pc.lmax + 3u - m) / 2u;
  let nl = pc.lmax + 1u - m;
  let gsize = {{GROUP_SIZE}};
  let group = lid / gsize;
  let ngroups = WG / gsize;
  let lane = lid % gsize;

  for (var c0 = 0u; c0 < pc.npairs; c0 += WG * KP) {
    var xt: array<vec4<f32>, KP>;
    var r: array<Rec, KP>;  // recurrence state of each pair
    // even (h = 0) and odd (h = 1) parity combinations of the weighted north and south
    // rows; index (h KP + i) NF + f
    var g: array<vec2<f32>, 2u * KP * NF>;
    /*unroll*/ for (var i = 0u; i < KP; i++) {
      let p = c0 + i * WG + lid;
      let valid = p < pc.npairs;
      let pp = select(0u, p, valid);
      xt[i] = xtab[pp];
      r[i] = start(m, pp);
      let w = select(0.0, wtab[pp], valid);
      let i_n = pp;
      let i_s = pc.nlat - 1u - pp;
      /*unroll*/ for (var f = 0u; f < NF; f++) {
        let b = min(b0 + f, pc.nfields - 1u);
        let gn = F[(b * pc.nlat + i_n) * mc + m];
        let gs = select(F[(b * pc.nlat + i_s) * mc + m], vec2<f32>(0.0), i_s == i_n);
        g[i * NF + f] = w * (gn + gs);
        g[(KP + i) * NF + f] = w * (gn - gs);
      }
    }

    for (var base = 0u; base < nl; base += SPAN) {
      workgroupBarrier();
      if (lid < SPAN && base + lid < nl) {
        coef_s[lid] = coef[mstart + base + lid];
      }
      workgroupBarrier();
      let cnt = min(SPAN, nl - base);
      // two degrees per iteration, even then odd l - m (base is even)
      for (var j = 0u; j < cnt; j += 2u) {
        /*unroll*/ for (var h = 0u; h < 2u; h++) {
          let jh = j + h;
          if (jh < cnt) {
            let dl = base + jh;
            let c = coef_s[jh];
            // the thread's KP pairs are summed in registers first: one group sum per
            // degree and field serves KP pairs
            var acc: array<vec2<f32>, NF>;
            /*unroll*/ for (var i = 0u; i < KP; i++) {
              if (dl > 0u) {
                r[i] = step(xt[i], c, r[i]);
              }
              let v = vec2<f32>(value(r[i]));
              /*unroll*/ for (var f = 0u; f < NF; f++) {
                acc[f] = fma(v, g[(h * KP + i) * NF + f], acc[f]);
              }
            }
            /*unroll*/ for (var f = 0u; f < NF; f++) {
              let sum = group_sum(acc[f]);
              if (lane == 0u) {
                part[(group * SPAN + jh) * NF + f] = sum;
              }
            }
          }
        }
      }
      workgroupBarrier();
      // one thread per (degree, field) of the span adds the groups' partial sums; the same
      // thread owns the same output entry in every chunk, so its read-modify-write is ordered
      let slot = lid;
      if (slot < cnt * NF) {
        let j = slot / NF;
        let f = slot % NF;
        let b = b0 + f;
        var total = vec2<f32>(0.0);
        for (var g = 0u; g < ngroups; g++) { total = total + part[(g * SPAN + j) * NF + f]; }
        if (b < pc.nfields) {
          let idx = b * pc.nlm + mstart + base + j;
          total = total * stab[mstart + base + j];
          q[idx] = select(q[idx] + total, total, c0 == 0u);
        }
      }
    }
  }
}
