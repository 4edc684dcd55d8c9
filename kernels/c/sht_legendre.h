// The Legendre recurrence shared by leg_synth.c and leg_analys.c: the CPU form of
// kernels/wgsl/legendre_core.wgsli (same tables, same arithmetic; the scheme is documented
// in ireesht/legendre.py).
//
// Organisation for a CPU: lanes of a vector are latitude pairs (i, NL-1-i). A work item
// takes one order m and walks the pairs in superblocks of SBV vectors whose recurrence
// state lives in a small stack array. For each span of SPAN degrees, groups of KV vectors
// are advanced together (independent recurrences: one step is a chain of ~4 dependent
// FMAs, so a lone vector would leave the FPU idle) and their values written to a
// span buffer; the caller's sums then read that buffer in a separate loop, so neither
// loop runs out of registers.
#ifndef SHT_LEGENDRE_H
#define SHT_LEGENDRE_H

#include "sht_common.h"

// Rescaling (ireesht/legendre.py): values carry a factor 2^(SCALE_BITS k), k <= 0, and are
// accumulated once k = 0; |y| > 2^THRESHOLD_BITS while k < 0 triggers a rescale. Values
// still below 2^(THRESHOLD_BITS - SCALE_BITS) are dropped: 2^-32 is negligible for float,
// 2^-128 for double. The same constants as the seed table's (RESCALE_BITS).
#ifdef SHT_F64
#define SCALE_BITS 256
#define THRESHOLD_BITS 128
#else
#define SCALE_BITS 64
#define THRESHOLD_BITS 32
#endif
#define THRESHOLD ((real)exp2i_d(THRESHOLD_BITS))
#define SHRINK ((real)exp2i_d(-SCALE_BITS))
#define X0 ((real)0.573576436)                 // cos(55 deg): closer to the pole, difference form

#define SBV 16   // vectors per superblock: 128 pairs at W = 8
#define KV 4     // vectors advanced together
#define SPAN 32  // degrees per span (partial sums of 32 terms, then flushed)

// u y, the node times the state: hi + lo in float; in double the tables' lo parts are 0
// (ireesht/plan.py), so the hi product alone rounds the same, one multiply less per step.
#ifdef SHT_F64
#define NODE_TIMES(h, l, y) ((h) * (y))
#else
#define NODE_TIMES(h, l, y) ((h) * (y) + (l) * (y))
#endif

// Forms of a group of KV vectors: every lane standard, every lane difference, or both.
enum { FORM_STD = 0, FORM_DIF = 1, FORM_MIXED = 2 };

// Recurrence state of one superblock: y1 = y_{l-1} (scaled by 2^(64 k)), z = y_{l-2}
// (standard form) or d_{l-1} (difference form), k the exponent counter (exact small
// integers held as reals), the node as hi + lo pairs of x and t = 1 - x.
typedef struct {
  vr y1[SBV], z[SBV], k[SBV];
  vr xh[SBV], xl[SBV], th[SBV], tl[SBV];
  vm dif[SBV];  // lanes that run the difference form
} sb_state;

// Fill the state of pairs p0 .. p0 + nv W - 1 (pairs past the last are clamped to it:
// they compute and are never stored) at l = m: the nodes, and the seeds c_m sin^m theta
// from the seed table (row m npairs + p: the scaled value y and the exponent counter k,
// ireesht/legendre.py seed_table).
INLINE void sb_init(sb_state* s, const real* xtab, const real* seedtab, int m, size_t p0,
                    int nv, size_t npairs) {
  for (int v = 0; v < nv; v++) {
    for (int i = 0; i < W; i++) {
      size_t p = min_sz(p0 + (size_t)v * W + i, npairs - 1);
      const real* xt = xtab + 4 * p;
      s->xh[v][i] = xt[0];
      s->xl[v][i] = xt[1];
      s->th[v][i] = xt[2];
      s->tl[v][i] = xt[3];
      const real* sd = seedtab + 2 * ((size_t)m * npairs + p);
      s->y1[v][i] = sd[0];
      s->k[v][i] = sd[1];
    }
    s->z[v] = vsplat(0);
    s->dif[v] = s->xh[v] > vsplat(X0);
  }
}

// The form of vectors v .. v + KV - 1.
INLINE int group_form(const sb_state* s, int v) {
  int all = 1, any = 0;
  for (int u = 0; u < KV; u++) {
    all &= vall(s->dif[v + u]);
    any |= vany(s->dif[v + u]);
  }
  return all ? FORM_DIF : (any ? FORM_MIXED : FORM_STD);
}

// Whether any lane of vectors v .. v + KV - 1 is still below the accumulation threshold.
INLINE int group_scaled(const sb_state* s, int v) {
  int any = 0;
  for (int u = 0; u < KV; u++) any |= vany(s->k[v + u] < vsplat(0));
  return any;
}

// One step l-1 -> l with the coefficients c = (A, B, C, E) of degree l. `form` and
// `scaled` are compile-time constants at every call site (the callers are inlined).
INLINE void step(vr* y1, vr* z, vr* k, vr xh, vr xl, vr th, vr tl, vm dif, const real* c,
                 const int form, const int scaled) {
  vr A = vsplat(c[0]), B = vsplat(c[1]), C = vsplat(c[2]), E = vsplat(c[3]);
  vr ny, nz;
  if (form == FORM_STD) {
    vr v = NODE_TIMES(xh, xl, *y1);
    ny = A * v + B * *z;
    nz = *y1;
  } else {
    // d_l = E d_{l-1} - A t y_{l-1}; y_l = C y_{l-1} + d_l: no cancellation at x ~ 1
    vr pt = NODE_TIMES(th, tl, *y1);
    vr d = E * *z - A * pt;
    vr yd = C * *y1 + d;
    if (form == FORM_DIF) {
      ny = yd;
      nz = d;
    } else {
      vr v = NODE_TIMES(xh, xl, *y1);
      vr ys = A * v + B * *z;
      ny = vsel(dif, yd, ys);
      nz = vsel(dif, d, *y1);
    }
  }
  if (scaled) {
    vm r = (*k < vsplat(0)) & (vabs(ny) > vsplat(THRESHOLD));
    ny = vsel(r, ny * vsplat(SHRINK), ny);
    nz = vsel(r, nz * vsplat(SHRINK), nz);
    *k = vsel(r, *k + vsplat(1), *k);
  }
  *y1 = ny;
  *z = nz;
}

// The true value P_lm / S_lm, or 0 while it is below the accumulation threshold.
INLINE vr value(vr y1, vr k, const int scaled) {
  return scaled ? vsel(k == vsplat(0), y1, vsplat(0)) : y1;
}

// Advance vectors v .. v+KV-1 over the degrees base .. base+cnt-1 (l - m), writing their
// values to ys[j][u]. `form` and `scaled` are constants at each (inlined) call site.
INLINE int rec_span_body(sb_state* restrict s, int v, const real* restrict cf, int base,
                         int cnt, vr (*restrict ys)[KV], const int form, const int scaled) {
  vr y1[KV], z[KV], k[KV];
  for (int u = 0; u < KV; u++) {
    y1[u] = s->y1[v + u];
    z[u] = s->z[v + u];
    k[u] = s->k[v + u];
  }
  int j = 0;
  if (base == 0) {  // l = m: the seed itself
    for (int u = 0; u < KV; u++) ys[0][u] = value(y1[u], k[u], scaled);
    j = 1;
  }
  for (; j < cnt; j++)
    for (int u = 0; u < KV; u++) {
      step(&y1[u], &z[u], &k[u], s->xh[v + u], s->xl[v + u], s->th[v + u], s->tl[v + u],
           s->dif[v + u], cf + 4 * j, form, scaled);
      ys[j][u] = value(y1[u], k[u], scaled);
    }
  int live = 1;
  for (int u = 0; u < KV; u++) {
    s->y1[v + u] = y1[u];
    s->z[v + u] = z[u];
    s->k[v + u] = k[u];
    if (scaled) live &= vall(k[u] < vsplat(0));
  }
  return !(scaled && live);
}

// rec_span_body for the group's form and scaling: the checks are made once per span, the
// common case (no lane below threshold, one form) runs without selects. Returns 0 when
// every value of the span was 0 (all lanes still below threshold: the sums can be skipped).
__attribute__((noinline)) static int rec_span(sb_state* s, int v, const real* cf, int base,
                                              int cnt, vr ys[SPAN][KV]) {
  int form = group_form(s, v);
  if (group_scaled(s, v)) {
    if (form == FORM_STD) return rec_span_body(s, v, cf, base, cnt, ys, FORM_STD, 1);
    if (form == FORM_DIF) return rec_span_body(s, v, cf, base, cnt, ys, FORM_DIF, 1);
    return rec_span_body(s, v, cf, base, cnt, ys, FORM_MIXED, 1);
  }
  if (form == FORM_STD) return rec_span_body(s, v, cf, base, cnt, ys, FORM_STD, 0);
  if (form == FORM_DIF) return rec_span_body(s, v, cf, base, cnt, ys, FORM_DIF, 0);
  return rec_span_body(s, v, cf, base, cnt, ys, FORM_MIXED, 0);
}

#endif
