// Legendre analysis of float32 plans by the Ishioka recurrence in float64, sums in float64
// (stage `leg_analys`, variant "ishioka" of the CPU family): with ge = w (F_n + F_s) and
// go = w x (F_n - F_s) of each latitude pair, Se_k = sum ge y_k, So_k = sum go y_k, and
//   Q_{m+2k} = e1_k Se_k + e2_{k-1} Se_{k-1},  Q_{m+2k+1} = g_k So_k
// (the transpose of leg_synth_ishioka.c; ireesht/numerics/ishioka.py). The sums of every
// step of the order stay in float64 across superblocks (a stack array of (L-m)/2 + 1 rows).
#include "sht_ishioka.h"

#define NFMAX 4

typedef struct {
  ish_state s;
  vd ge[SBD][NFMAX][2], go[SBD][NFMAX][2];  // [vector][field][re, im]
  vd ae[SPD][NFMAX][2], ao[SPD][NFMAX][2];  // lane sums of one span
  vd ys[SPD][KD];
} ianalys_ws;

INLINE double hsum(vd a) { return (a[0] + a[1]) + (a[2] + a[3]); }

// Add the span's values of vectors v .. v+KD-1 times ge, go into the lane sums of each
// step: two steps at a time (eight accumulators), ge and go read once per two steps.
INLINE void ianalys_sums(ianalys_ws* ws, int v, int cnt, const int NF) {
  for (int f = 0; f < NF; f++) {
    int j = 0;
    for (; j + 1 < cnt; j += 2) {
      vd a[2][4];
      for (int h = 0; h < 2; h++) {
        a[h][0] = ws->ae[j + h][f][0];
        a[h][1] = ws->ae[j + h][f][1];
        a[h][2] = ws->ao[j + h][f][0];
        a[h][3] = ws->ao[j + h][f][1];
      }
      for (int u = 0; u < KD; u++) {
        vd g0 = ws->ge[v + u][f][0], g1 = ws->ge[v + u][f][1];
        vd g2 = ws->go[v + u][f][0], g3 = ws->go[v + u][f][1];
        for (int h = 0; h < 2; h++) {
          vd y = ws->ys[j + h][u];
          a[h][0] += y * g0;
          a[h][1] += y * g1;
          a[h][2] += y * g2;
          a[h][3] += y * g3;
        }
      }
      for (int h = 0; h < 2; h++) {
        ws->ae[j + h][f][0] = a[h][0];
        ws->ae[j + h][f][1] = a[h][1];
        ws->ao[j + h][f][0] = a[h][2];
        ws->ao[j + h][f][1] = a[h][3];
      }
    }
    for (; j < cnt; j++)
      for (int u = 0; u < KD; u++) {
        vd y = ws->ys[j][u];
        ws->ae[j][f][0] += y * ws->ge[v + u][f][0];
        ws->ae[j][f][1] += y * ws->ge[v + u][f][1];
        ws->ao[j][f][0] += y * ws->go[v + u][f][0];
        ws->ao[j][f][1] += y * ws->go[v + u][f][1];
      }
  }
}

INLINE void ianalys_item(const double* node, const double* seedtab, const double* chain,
                          const float* F, float* q, int L, int M, int NL,
                         int npairs, int nlm, int B, int m, int b0, int skip, const int NF) {
  ianalys_ws ws;
  const size_t mc = (size_t)M + 1;
  const size_t mstart = (size_t)m * (2 * (size_t)L + 3 - m) / 2;
  const int nl = L + 1 - m, nk = (L - m) / 2 + 1;
  const double* ch0 = chain + ICOLS * ish_offset(L, m);
  const double a1 = ish_seed_factor(m);
  double S[nk][NF][4];  // Se re, Se im, So re, So im of each step
  for (int k = 0; k < nk; k++)
    for (int f = 0; f < NF; f++) S[k][f][0] = S[k][f][1] = S[k][f][2] = S[k][f][3] = 0;
  for (size_t p0 = (size_t)skip; p0 < (size_t)npairs; p0 += SBD * WD) {
    int nv = (int)min_sz(SBD, ((size_t)npairs - p0 + WD - 1) / WD);
    nv = (nv + KD - 1) / KD * KD;  // whole groups; the extra lanes have weight 0
    ish_init(&ws.s, node, seedtab, m, p0, nv, npairs, a1);
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < WD; i++) {
        size_t in = p0 + (size_t)v * WD + i;
        int valid = in < (size_t)npairs;
        size_t pp = valid ? in : 0;
        size_t is = (size_t)NL - 1 - pp;
        double w = valid ? node[2 * pp + 1] : 0.0, wx = w * ws.s.x[v][i];
        for (int f = 0; f < NF; f++) {
          int b = b0 + f < B ? b0 + f : B - 1;
          const float* Fb = F + 2 * ((size_t)b * NL * mc + m);
          for (int c = 0; c < 2; c++) {
            double gn = Fb[2 * pp * mc + c];
            double gs = is != pp ? (double)Fb[2 * is * mc + c] : 0.0;
            ws.ge[v][f][c][i] = w * (gn + gs);
            ws.go[v][f][c][i] = wx * (gn - gs);
          }
        }
      }
    for (int base = 0; base < nk; base += SPD) {
      int cnt = nk - base < SPD ? nk - base : SPD;
      const double* ch = ch0 + ICOLS * base;
      for (int j = 0; j < cnt; j++)
        for (int f = 0; f < NF; f++)
          ws.ae[j][f][0] = ws.ae[j][f][1] = ws.ao[j][f][0] = ws.ao[j][f][1] = vdsplat(0);
      int any = 0;
      for (int v = 0; v < nv; v += KD)
        if (ish_span(&ws.s, v, ch, cnt, ws.ys)) {
          ianalys_sums(&ws, v, cnt, NF);
          any = 1;
        }
      if (any)
        for (int j = 0; j < cnt; j++)
          for (int f = 0; f < NF; f++) {
            S[base + j][f][0] += hsum(ws.ae[j][f][0]);
            S[base + j][f][1] += hsum(ws.ae[j][f][1]);
            S[base + j][f][2] += hsum(ws.ao[j][f][0]);
            S[base + j][f][3] += hsum(ws.ao[j][f][1]);
          }
    }
  }
  for (int f = 0; f < NF && b0 + f < B; f++) {
    float* qq = q + 2 * ((size_t)(b0 + f) * nlm + mstart);
    for (int k = 0; k < nk; k++) {
      const double* r = ch0 + ICOLS * k;
      for (int c = 0; c < 2; c++) {
        double e = r[2] * S[k][f][c];
        if (k > 0) e += r[ICOLS * -1 + 3] * S[k - 1][f][c];
        qq[2 * (2 * k) + c] = (float)e;
        if (2 * k + 1 < nl) qq[2 * (2 * k + 1) + c] = (float)(r[4] * S[k][f][2 + c]);
      }
    }
  }
}

#define ITEM(NF_)                                                                          \
  __attribute__((noinline)) static void ianalys_nf##NF_(                                   \
      const double* node, const double* seedtab, const double* chain,     \
      const float* F, float* q, int L, int M, int NL, int npairs, int nlm, int B, int m,    \
      int b0, int skip) {                                                                  \
    ianalys_item(node, seedtab, chain, F, q, L, M, NL, npairs, nlm, B, m, b0, skip,  \
                 NF_);                                                                     \
  }
ITEM(1)
ITEM(2)
ITEM(4)

void sht_leg_analys(const double* node, size_t node_o, const double* seedtab,
                            size_t seedtab_o, const float* polar, size_t polar_o,
                            const double* chain, size_t chain_o, const float* F,
                            size_t F_o, float* q, size_t q_o,
                            int32_t L, int32_t M, int32_t NL, int32_t npairs, int32_t nlm,
                            int32_t B, size_t m, size_t chunk) {
  int b0 = (int)chunk * NFMAX;
  int nf = B - b0 < NFMAX ? B - b0 : NFMAX;
  if (nf <= 0 || (int)m > M) return;
  node += node_o; seedtab += seedtab_o; chain += chain_o; F += F_o;
  q += q_o;
  int skip = (int)polar[polar_o + m];
  if (skip > npairs) skip = npairs;
  if (nf == 1)
    ianalys_nf1(node, seedtab, chain, F, q, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else if (nf == 2)
    ianalys_nf2(node, seedtab, chain, F, q, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else
    ianalys_nf4(node, seedtab, chain, F, q, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
}
