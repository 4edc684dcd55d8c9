// Legendre analysis, stage `leg_analys` of the CPU family (kernels/c/README.md):
//   q[b][(l,m)] = S_lm sum_i w_i F[b][i][m] y_l(cos theta_i).
// One work item per (m, chunk of up to NFMAX fields). Lanes are latitude pairs; the north
// and south rows of a pair enter as their weighted sum (even l - m) and difference (odd).
// Per degree the KV vectors' products are added into one lane vector per span degree;
// the lanes are summed once per span and superblock, not once per degree.
#include "sht_legendre.h"

#define NFMAX 4

typedef struct {
  sb_state s;
  vr g[SBV][2][NFMAX][2];    // [vector][parity][field][re, im]: w (F_n +- F_s)
  vr acc[SPAN][NFMAX][2];    // lane sums of one span
  vr ys[SPAN][KV];           // values of one group over one span
} analys_ws;

// Add the span's values of vectors v .. v+KV-1 times g into the lane sums of each degree.
INLINE void analys_sums(analys_ws* ws, int v, vr ys[SPAN][KV], int cnt, const int NF) {
  for (int j = 0; j < cnt; j += 2)
    for (int h = 0; h < 2 && j + h < cnt; h++)  // parity of l - m: a constant (base is even)
      for (int f = 0; f < NF; f++) {
        vr re = ws->acc[j + h][f][0], im = ws->acc[j + h][f][1];
        for (int u = 0; u < KV; u++) {
          re += ys[j + h][u] * ws->g[v + u][h][f][0];
          im += ys[j + h][u] * ws->g[v + u][h][f][1];
        }
        ws->acc[j + h][f][0] = re;
        ws->acc[j + h][f][1] = im;
      }
}

INLINE void analys_item(const real* xtab, const real* seedtab,
                        const real* coef, const real* stab, const real* wtab, const real* F,
                        real* q, int L, int M, int NL, int npairs, int nlm, int B, int m,
                        int b0, int skip, const int NF) {
  analys_ws ws;
  const size_t mc = (size_t)M + 1;
  const size_t mstart = (size_t)m * (2 * (size_t)L + 3 - m) / 2;
  const int nl = L + 1 - m;
  for (int f = 0; f < NF && b0 + f < B; f++)
    for (int j = 0; j < nl; j++) {
      real* qq = q + 2 * ((size_t)(b0 + f) * nlm + mstart + j);
      qq[0] = qq[1] = 0;
    }
  // the pairs next to the pole that order m skips (polar[m]) add nothing: their values lie
  // far below what the recurrence counts (ireesht/numerics/legendre.py polar_rows)
  for (size_t p0 = (size_t)skip; p0 < (size_t)npairs; p0 += SBV * W) {
    int nv = (int)min_sz(SBV, ((size_t)npairs - p0 + W - 1) / W);
    nv = (nv + KV - 1) / KV * KV;  // whole groups; the extra lanes have weight 0
    sb_init(&ws.s, xtab, seedtab, m, p0, nv, npairs);
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < W; i++) {
        size_t in = p0 + (size_t)v * W + i;
        int valid = in < (size_t)npairs;
        size_t pp = valid ? in : 0;
        size_t is = (size_t)NL - 1 - pp;
        real w = valid ? wtab[pp] : 0;
        for (int f = 0; f < NF; f++) {
          int b = b0 + f < B ? b0 + f : B - 1;
          const real* Fb = F + 2 * ((size_t)b * NL * mc + m);
          for (int c = 0; c < 2; c++) {
            real gn = Fb[2 * pp * mc + c];
            real gs = is != pp ? Fb[2 * is * mc + c] : 0;
            ws.g[v][0][f][c][i] = w * (gn + gs);
            ws.g[v][1][f][c][i] = w * (gn - gs);
          }
        }
      }
    for (int base = 0; base < nl; base += SPAN) {
      int cnt = nl - base < SPAN ? nl - base : SPAN;
      for (int j = 0; j < cnt; j++)
        for (int f = 0; f < NF; f++) ws.acc[j][f][0] = ws.acc[j][f][1] = vsplat(0);
      const real* cf = coef + 4 * (mstart + base);
      for (int v = 0; v < nv; v += KV) {
        if (rec_span(&ws.s, v, cf, base, cnt, ws.ys))
          analys_sums(&ws, v, ws.ys, cnt, NF);
      }
      for (int f = 0; f < NF && b0 + f < B; f++)
        for (int j = 0; j < cnt; j++) {
          size_t lm = mstart + base + j;
          real* qq = q + 2 * ((size_t)(b0 + f) * nlm + lm);
          qq[0] += stab[lm] * vsum(ws.acc[j][f][0]);
          qq[1] += stab[lm] * vsum(ws.acc[j][f][1]);
        }
    }
  }
}

__attribute__((noinline)) static void analys_nf1(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* wtab, const real* F,
    real* q, int L, int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  analys_item(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, m, b0, skip,
              1);
}

__attribute__((noinline)) static void analys_nf2(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* wtab, const real* F,
    real* q, int L, int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  analys_item(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, m, b0, skip,
              2);
}

__attribute__((noinline)) static void analys_nf4(const real* xtab, const real* seedtab,
    const real* coef, const real* stab, const real* wtab, const real* F,
    real* q, int L, int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) {
  analys_item(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, m, b0, skip,
              4);
}

// Entry point: buffers as (base, element offset) pairs, then the push constants of the
// stage, then the work item (m, chunk).
void sht_leg_analys(const real* xtab, size_t xtab_o, const real* seedtab, size_t seedtab_o,
                    const real* polar, size_t polar_o, const real* coef, size_t coef_o,
                    const real* stab, size_t stab_o, const real* wtab, size_t wtab_o,
                    const real* F, size_t F_o, real* q, size_t q_o, int32_t L, int32_t M,
                    int32_t NL, int32_t npairs, int32_t nlm, int32_t B, size_t m,
                    size_t chunk) {
  int b0 = (int)chunk * NFMAX;
  int nf = B - b0 < NFMAX ? B - b0 : NFMAX;
  if (nf <= 0 || (int)m > M) return;
  xtab += xtab_o; seedtab += seedtab_o; coef += coef_o; stab += stab_o;
  wtab += wtab_o; F += F_o; q += q_o;
  int skip = (int)polar[polar_o + m];  // an exact small integer in the table's float
  if (skip > npairs) skip = npairs;
  if (nf == 1)
    analys_nf1(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, (int)m, b0,
               skip);
  else if (nf == 2)
    analys_nf2(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, (int)m, b0,
               skip);
  else
    analys_nf4(xtab, seedtab, coef, stab, wtab, F, q, L, M, NL, npairs, nlm, B, (int)m, b0,
               skip);
}
