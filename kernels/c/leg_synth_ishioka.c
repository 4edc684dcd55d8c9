// Legendre synthesis of float32 plans by the Ishioka recurrence in float64, sums in float64
// (stage `leg_synth`, variant "ishioka" of the CPU family):
//   F[b][i][m] = sum_{l=m..L} q[b][(l,m)] P_lm(cos theta_i),
// with F_north = fe + x fo, F_south = fe - x fo, fe = sum_k y_k qe_k, fo = sum_k y_k qo_k,
// qe_k = e1_k Q_{m+2k} + e2_k Q_{m+2k+2}, qo_k = g_k Q_{m+2k+1} (ireesht/numerics/ishioka.py).
#include "sht_ishioka.h"

#define NFMAX 4

typedef struct {
  ish_state s;
  vd te[SBD][NFMAX][2], to[SBD][NFMAX][2];  // [vector][field][re, im]: even, odd totals
  double qe[SPD][NFMAX][2], qo[SPD][NFMAX][2];
  vd ys[SPD][KD];
} isynth_ws;

// Add the span's values of vectors v .. v+KD-1 times qe, qo into their totals: field by
// field, two vectors at a time (eight accumulators: no spills at four fields).
INLINE void isynth_sums(isynth_ws* ws, int v, int cnt, const int NF) {
  for (int u = 0; u < KD; u += 2)
    for (int f = 0; f < NF; f++) {
      vd ae[2][2], ao[2][2];
      for (int a = 0; a < 2; a++) ae[a][0] = ae[a][1] = ao[a][0] = ao[a][1] = vdsplat(0);
      for (int j = 0; j < cnt; j++) {
        vd er = vdsplat(ws->qe[j][f][0]), ei = vdsplat(ws->qe[j][f][1]);
        vd or_ = vdsplat(ws->qo[j][f][0]), oi = vdsplat(ws->qo[j][f][1]);
        for (int a = 0; a < 2; a++) {
          vd y = ws->ys[j][u + a];
          ae[a][0] += y * er;
          ae[a][1] += y * ei;
          ao[a][0] += y * or_;
          ao[a][1] += y * oi;
        }
      }
      for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++) {
          ws->te[v + u + a][f][c] += ae[a][c];
          ws->to[v + u + a][f][c] += ao[a][c];
        }
    }
}

INLINE void isynth_item(const double* node, const double* seedtab, const double* chain,
                        const float* q, float* F, int L, int M, int NL, int npairs, int nlm,
                        int B, int m, int b0, int skip, const int NF) {
  isynth_ws ws;
  const size_t mc = (size_t)M + 1;
  const size_t mstart = (size_t)m * (2 * (size_t)L + 3 - m) / 2;
  const int nl = L + 1 - m, nk = (L - m) / 2 + 1;
  const double* ch0 = chain + ICOLS * ish_offset(L, m);
  const double a1 = ish_seed_factor(m);
  for (size_t in = 0; in < (size_t)skip; in++) {
    size_t is = (size_t)NL - 1 - in;
    for (int f = 0; f < NF && b0 + f < B; f++) {
      float* Fb = F + 2 * ((size_t)(b0 + f) * NL * mc + m);
      Fb[2 * in * mc] = Fb[2 * in * mc + 1] = Fb[2 * is * mc] = Fb[2 * is * mc + 1] = 0;
    }
  }
  for (size_t p0 = (size_t)skip; p0 < (size_t)npairs; p0 += SBD * WD) {
    int nv = (int)min_sz(SBD, ((size_t)npairs - p0 + WD - 1) / WD);
    nv = (nv + KD - 1) / KD * KD;
    ish_init(&ws.s, node, seedtab, m, p0, nv, npairs, a1);
    for (int v = 0; v < nv; v++)
      for (int f = 0; f < NF; f++)
        ws.te[v][f][0] = ws.te[v][f][1] = ws.to[v][f][0] = ws.to[v][f][1] = vdsplat(0);
    for (int base = 0; base < nk; base += SPD) {
      int cnt = nk - base < SPD ? nk - base : SPD;
      const double* ch = ch0 + ICOLS * base;
      for (int j = 0; j < cnt; j++) {
        int l = 2 * (base + j);  // l - m of the even degree
        for (int f = 0; f < NF; f++) {
          int b = b0 + f < B ? b0 + f : B - 1;
          const float* qq = q + 2 * ((size_t)b * nlm + mstart);
          for (int c = 0; c < 2; c++) {
            double q0 = qq[2 * l + c];
            double q1 = l + 1 < nl ? qq[2 * (l + 1) + c] : 0.0;
            double q2 = l + 2 < nl ? qq[2 * (l + 2) + c] : 0.0;
            ws.qe[j][f][c] = ch[ICOLS * j + 2] * q0 + ch[ICOLS * j + 3] * q2;
            ws.qo[j][f][c] = ch[ICOLS * j + 4] * q1;
          }
        }
      }
      for (int v = 0; v < nv; v += KD)
        if (ish_span(&ws.s, v, ch, cnt, ws.ys)) isynth_sums(&ws, v, cnt, NF);
    }
    for (int v = 0; v < nv; v++)
      for (int i = 0; i < WD; i++) {
        size_t in = p0 + (size_t)v * WD + i;
        if (in >= (size_t)npairs) break;
        size_t is = (size_t)NL - 1 - in;
        double x = ws.s.x[v][i];
        for (int f = 0; f < NF && b0 + f < B; f++) {
          float* Fb = F + 2 * ((size_t)(b0 + f) * NL * mc + m);
          for (int c = 0; c < 2; c++) {
            double e = ws.te[v][f][c][i], o = x * ws.to[v][f][c][i];
            Fb[2 * in * mc + c] = (float)(e + o);
            if (is != in) Fb[2 * is * mc + c] = (float)(e - o);
          }
        }
      }
  }
}

#define ITEM(NF_)                                                                          \
  __attribute__((noinline)) static void isynth_nf##NF_(                                    \
      const double* node, const double* seedtab, const double* chain, const float* q,       \
      float* F, int L, int M, int NL, int npairs, int nlm, int B, int m, int b0, int skip) { \
    isynth_item(node, seedtab, chain, q, F, L, M, NL, npairs, nlm, B, m, b0, skip, NF_);   \
  }
ITEM(1)
ITEM(2)
ITEM(4)

void sht_leg_synth(const double* node, size_t node_o, const double* seedtab,
                           size_t seedtab_o, const float* polar, size_t polar_o,
                           const double* chain, size_t chain_o, const float* q, size_t q_o,
                           float* F, size_t F_o, int32_t L, int32_t M, int32_t NL,
                           int32_t npairs, int32_t nlm, int32_t B, size_t m, size_t chunk) {
  int b0 = (int)chunk * NFMAX;
  int nf = B - b0 < NFMAX ? B - b0 : NFMAX;
  if (nf <= 0 || (int)m > M) return;
  node += node_o; seedtab += seedtab_o; chain += chain_o; q += q_o; F += F_o;
  int skip = (int)polar[polar_o + m];
  if (skip > npairs) skip = npairs;
  if (nf == 1)
    isynth_nf1(node, seedtab, chain, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else if (nf == 2)
    isynth_nf2(node, seedtab, chain, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
  else
    isynth_nf4(node, seedtab, chain, q, F, L, M, NL, npairs, nlm, B, (int)m, b0, skip);
}
