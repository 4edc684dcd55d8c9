// The Ishioka recurrence in float64 for the float32 objects of the CPU family
// (ireesht/numerics/ishioka.py): for order m, y_{k+1} = (alpha_k u + beta_k) y_k + y_{k-1},
// u = x^2, y_{-1} = 0, y_0 = a_{m+1} P_mm, two FMAs per two degrees. Lanes are latitude pairs
// (4 doubles per vector); a work item walks the pairs in superblocks of SBD vectors whose
// state sits in a stack array, and per span of SPD steps advances groups of KD vectors,
// writing their values to a span buffer that the caller's sums read.
#ifndef SHT_ISHIOKA_H
#define SHT_ISHIOKA_H

#include "sht_common.h"

#define WD 4  // doubles per vector
typedef double vd __attribute__((ext_vector_type(WD)));
typedef int64_t vdm __attribute__((ext_vector_type(WD)));

#define SBD 16   // vectors per superblock: 64 pairs
#define KD 4     // vectors advanced together
#define SPD 16   // steps per span (32 degrees)
#define ICOLS 5  // chain columns: alpha, beta, e1, e2, g

// the float64 scheme's rescaling (kernels/c/sht_legendre.h with SHT_F64): values carry
// 2^(256 k), k <= 0, are counted once k = 0 (below 2^-128 otherwise: dropped)
#define D_THRESHOLD (exp2i_d(128))
#define D_SHRINK (exp2i_d(-256))

INLINE vd vdsplat(double a) { return (vd)a; }
INLINE vd vdsel(vdm mask, vd a, vd b) { return (vd)(((vdm)a & mask) | ((vdm)b & ~mask)); }
INLINE vd vdabs(vd a) { return (vd)((vdm)a & (vdm)(~((int64_t)1 << 63))); }
INLINE int vdany(vdm mask) {
  int64_t r = 0;
  for (int i = 0; i < WD; i++) r |= mask[i];
  return r != 0;
}
INLINE int vdall(vdm mask) {
  int64_t r = -1;
  for (int i = 0; i < WD; i++) r &= mask[i];
  return r != 0;
}

// state of one superblock: y = y_k, yp = y_{k-1}, k the exponent counter, x and u = x^2
typedef struct {
  vd y[SBD], yp[SBD], k[SBD], x[SBD], u[SBD];
} ish_state;

// Fill the state of pairs p0 .. p0 + nv WD - 1 (pairs past the last are clamped to it) at
// step 0: x from the node table (x, w per pair), y_0 = sqrt(2m + 3) P_mm from the float64
// seed table.
INLINE void ish_init(ish_state* s, const double* node, const double* seedtab, int m, size_t p0,
                     int nv, size_t npairs, double a1) {
  for (int v = 0; v < nv; v++) {
    for (int i = 0; i < WD; i++) {
      size_t p = min_sz(p0 + (size_t)v * WD + i, npairs - 1);
      double x = node[2 * p];
      s->x[v][i] = x;
      s->u[v][i] = x * x;
      const double* sd = seedtab + 2 * ((size_t)m * npairs + p);
      s->y[v][i] = a1 * sd[0];
      s->k[v][i] = sd[1];
    }
    s->yp[v] = vdsplat(0);
  }
}

INLINE vd ish_value(vd y, vd k, const int scaled) {
  return scaled ? vdsel(k == vdsplat(0), y, vdsplat(0)) : y;
}

// Advance vectors v .. v+KD-1 over steps base .. base+cnt-1, writing the value of each step
// (before its update) to ys[j][u]. Returns 0 when every value was 0 (all lanes scaled).
INLINE int ish_span_body(ish_state* restrict s, int v, const double* restrict ch, int cnt,
                         vd (*restrict ys)[KD], const int scaled) {
  vd y[KD], yp[KD], k[KD];
  for (int u = 0; u < KD; u++) {
    y[u] = s->y[v + u];
    yp[u] = s->yp[v + u];
    k[u] = s->k[v + u];
  }
  for (int j = 0; j < cnt; j++) {
    vd al = vdsplat(ch[ICOLS * j]), be = vdsplat(ch[ICOLS * j + 1]);
    for (int u = 0; u < KD; u++) {
      ys[j][u] = ish_value(y[u], k[u], scaled);
      vd ny = (al * s->u[v + u] + be) * y[u] + yp[u];
      vd np = y[u];
      if (scaled) {
        vdm r = (k[u] < vdsplat(0)) & (vdabs(ny) > vdsplat(D_THRESHOLD));
        ny = vdsel(r, ny * vdsplat(D_SHRINK), ny);
        np = vdsel(r, np * vdsplat(D_SHRINK), np);
        k[u] = vdsel(r, k[u] + vdsplat(1), k[u]);
      }
      yp[u] = np;
      y[u] = ny;
    }
  }
  int live = 1;
  for (int u = 0; u < KD; u++) {
    s->y[v + u] = y[u];
    s->yp[v + u] = yp[u];
    s->k[v + u] = k[u];
    if (scaled) live &= vdall(k[u] < vdsplat(0));
  }
  return !(scaled && live);
}

__attribute__((noinline)) static int ish_span(ish_state* s, int v, const double* ch, int cnt,
                                              vd ys[SPD][KD]) {
  int any = 0;
  for (int u = 0; u < KD; u++) any |= vdany(s->k[v + u] < vdsplat(0));
  if (any) return ish_span_body(s, v, ch, cnt, ys, 1);
  return ish_span_body(s, v, ch, cnt, ys, 0);
}

// first chain row of order m: G(L) - G(L - m), G(n) = floor(n/2) floor((n+1)/2) + n + 1
INLINE size_t ish_offset(int L, int m) {
  size_t a = (size_t)L, b = (size_t)(L - m);
  return ((a / 2) * ((a + 1) / 2) + a + 1) - ((b / 2) * ((b + 1) / 2) + b + 1);
}

// sqrt(2m + 3) without libm: Newton from a float guess (exact to double rounding)
INLINE double ish_seed_factor(int m) {
  double a = 2.0 * m + 3.0, r = 1.0;
  while (r * r < a) r *= 2.0;
  for (int i = 0; i < 40; i++) r = 0.5 * (r + a / r);
  return r;
}

#endif
