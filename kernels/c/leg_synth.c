// Legendre synthesis, stage `leg_synth` of the CPU family (kernels/c/README.md):
//   F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i).
// One work item per (m, chunk of up to NFMAX fields); the fields of a chunk share one
// recurrence. Lanes are latitude pairs (i, NL-1-i): P_lm(-x) = (-1)^(l-m) P_lm(x), so the
// even and odd (l - m) parts are summed apart and combined at the end.
#include "sht_legendre.h"

#define NFMAX 4

typedef struct {
  sb_state s;
  vr tot[SBV][2][NFMAX][2];  // [vector][parity][field][re, im]
  real qs[SPAN][NFMAX][2];   // stab * q of one span
  vr ys[SPAN][KV];           // values of one group over one span
} synth_ws;

// Add the span's values of vectors v .. v+KV-1 times q into their totals: partial sums
// of one span (float sums of thousands of terms lose accuracy, sums of 32 do not), two
// vectors at a time for eight independent accumulator chains.
INLINE void synth_sums(synth_ws* ws, int v, vr ys[SPAN][KV], int cnt, const int NF) {
  for (int u = 0; u < KV; u += 2) {
    vr acc[2][2][NF][2];  // [vector][parity][field][re, im]
    for (int a = 0; a < 2; a++)
      for (int h = 0; h < 2; h++)
        for (int f = 0; f < NF; f++) acc[a][h][f][0] = acc[a][h][f][1] = vsplat(0);
    // even then odd l - m (base is even): the parity of each term is a constant
    for (int j = 0; j < cnt; j += 2)
      for (int h = 0; h < 2 && j + h < cnt; h++)
        for (int f = 0; f < NF; f++) {
          vr qr = vsplat(ws->qs[j + h][f][0]), qi = vsplat(ws->qs[j + h][f][1]);
          for (int a = 0; a < 2; a++) {
            acc[a][h][f][0] += ys[j + h][u + a] * qr;
            acc[a][h][f][1] += ys[j + h][u + a] * qi;
          }
        }
    for (int a = 0; a < 2; a++)
      for (int h = 0; h < 2; h++)
        for (int f = 0; f < NF; f++) {
          ws->tot[v + u + a][h][f][0] += acc[a][h][f][0];
          ws->tot[v + u + a][h][f][1] += acc[a][h][f][1];
        }
  }
}

INLINE void synth_item(const real* xtab, const real* seedtab,
                       const real* coef, const real* stab, const real* q, real* F, int L,
                       int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip,
                       const int NF) {
  synth_ws ws;
  const size_t mc = (size_t)M + 1;
  const size_t mstart = (size_t)m * (2 * (size_t)L + 3 - m) / 2;
  const int nl = L + 1 - m;
  // the pairs next to the pole that order m skips (polar[m]) hold F = 0: their values lie
  // far below what the recurrence counts (ireesht/numerics/legendre.py polar_rows)
  for (size_t in = 0; in < (size_t)skip; in++) {
    size_t is = (size_t)NL - 1 - in;
    for (int f = 0; f < NF && b0 + f < B; f++) {
      real* Fb = F + 2 * ((size_t)(b0 + f) * NL * mc + m);
      Fb[2 * in * mc] = Fb[2 * in * mc + 1] = Fb[2 * is * mc] = Fb[2 * is * mc + 1] = 0;
    }
  }
  for (size_t p0 = (size_t)skip; p0 < (size_t)npairs; p0 += SBV * W) {
    int nv = (int)min_sz(SBV, ((size_t)npairs - p0 + W - 1) / W);
    nv = (nv + KV - 1) / KV * KV;  // whole groups; the extra lanes are clamped pairs
    sb_init(&ws.s, xtab, seedtab, m, p0, nv, npairs);
    for (int v = 0; v < nv; v++)
      for (int h = 0; h < 2; h++)
        for (int f = 0; f < NF; f++) ws.tot[v][h][f][0] = ws.tot[v][h][f][1] = vsplat(0);
    for (int base = 0; base < nl; base += SPAN) {
      int cnt = nl - base < SPAN ? nl - base : SPAN;
      for (int j = 0; j < cnt; j++) {
        size_t lm = mstart + base + j;
        for (int f = 0; f < NF; f++) {
          int b = b0 + f < B ? b0 + f : B - 1;  // a partial chunk repeats its last field
          const real* qq = q + 2 * ((size_t)b * nlm + lm);
          ws.qs[j][f][0] = stab[lm] * qq[0];  // S_lm applied to q once, not per latitude
          ws.qs[j][f][1] = stab[lm] * qq[1];
        }
      }
      const real* cf = coef + 4 * (mstart + base);
      for (int v = 0; v < nv; v += KV) {
        if (rec_span(&ws.s, v, cf, base, cnt, ws.ys))
          synth_sums(&ws, v, ws.ys, cnt, NF);
      }
    }
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < W; i++) {
        size_t in = p0 + (size_t)v * W + i;
        if (in >= (size_t)npairs) break;
        size_t is = (size_t)NL - 1 - in;
        for (int f = 0; f < NF && b0 + f < B; f++) {
          real* Fb = F + 2 * ((size_t)(b0 + f) * NL * mc + m);
          for (int c = 0; c < 2; c++) {
            real even = ws.tot[v][0][f][c][i], odd = ws.tot[v][1][f][c][i];
            Fb[2 * in * mc + c] = even + odd;
            if (is != in) Fb[2 * is * mc + c] = even - odd;
          }
        }
      }
  }
}

__attribute__((noinline)) static void synth_nf1(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* q, real* F, int L,
    int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  synth_item(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, m, b0, skip, 1);
}

__attribute__((noinline)) static void synth_nf2(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* q, real* F, int L,
    int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  synth_item(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, m, b0, skip, 2);
}

__attribute__((noinline)) static void synth_nf4(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* q, real* F, int L,
    int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  synth_item(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, m, b0, skip, 4);
}

// Entry point: buffers as (base, element offset) pairs, then the push constants of the
// stage, then the work item (m, chunk).
void sht_leg_synth(const real* xtab, size_t xtab_o, const real* seedtab, size_t seedtab_o,
                   const real* polar, size_t polar_o, const real* coef, size_t coef_o,
                   const real* stab, size_t stab_o, const real* q, size_t q_o, real* F,
                   size_t F_o, int32_t L, int32_t M, int32_t NL, int32_t npairs, int32_t nlm,
                   int32_t B, size_t m, size_t chunk) {
  int b0 = (int)chunk * NFMAX;
  int nf = B - b0 < NFMAX ? B - b0 : NFMAX;
  if (nf <= 0 || (int)m > M) return;
  xtab += xtab_o; seedtab += seedtab_o; coef += coef_o; stab += stab_o;
  q += q_o; F += F_o;
  int skip = (int)polar[polar_o + m];  // an exact small integer in the table's float
  if (skip > npairs) skip = npairs;
  if (nf == 1)
    synth_nf1(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else if (nf == 2)
    synth_nf2(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else
    synth_nf4(xtab, seedtab, coef, stab, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
}
