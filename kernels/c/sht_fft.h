// The FFT core shared by fft_synth.c and fft_analys.c. No sin/cos: every rotation is an
// entry of the `twiddle` table, computed on the host in float64, and the table also holds
// the row FFT's plan (ireesht/numerics/fourier.py row_fft): the kernels follow it.
#ifndef SHT_FFT_H
#define SHT_FFT_H

#include "sht_common.h"

// Longest Stockham FFT (fourier.ROW_FFT_MAX). Scratch on the worker's stack: two split
// complex buffers of HALF (ping-pong) and one pass's rotations, split: 48 KB for float,
// 96 KB for double.
#define HALF 2048
// Terms per partial sum of the direct DFT: rounding grows like sqrt(32) + sqrt(n / 32)
// rather than sqrt(n).
#define BLOCK 32

typedef struct {
  real ar[HALF], ai[HALF], br[HALF], bi[HALF];
  real wr[HALF], wi[HALF];  // one pass's rotations exp(sgn 2 pi i r k / (R p)) at (r - 1) p + k
} fft_ws;

// The row FFT's plan, read from the table after its NP rows (fourier.py's module doc):
// n complex points (0: the direct DFT), an m-point Stockham FFT (Bluestein when m != n) of
// npass passes (R, p) at `pass`, their rotation blocks, Bluestein's chirp and filter.
typedef struct {
  int n, m, npass;
  const real *pass, *blocks, *chirp, *filter;
} row_plan;

INLINE row_plan read_plan(const real* tw, int np) {
  const real* head = tw + 2 * (size_t)np;
  row_plan pl;
  pl.n = (int)head[0];
  pl.m = (int)head[1];
  pl.pass = head + 2;
  pl.npass = 0;
  if (pl.n)
    while ((int)pl.pass[2 * pl.npass] != 0) pl.npass++;
  pl.blocks = pl.pass + 2 * (pl.npass + 1);
  pl.chirp = pl.blocks + 2 * (size_t)(pl.m > 0 ? pl.m - 1 : 0);
  pl.filter = pl.chirp + 2 * (size_t)pl.n;
  return pl;
}

// Stockham autosort (as kernels/wgsl/fft_core.wgsli): the radix-R pass with sub-transform
// length p reads x[i + r n/R] and writes y[(i - k) R + k + r p], k = i mod p, so the result
// comes out in natural order with no bit reversal. For p > 1 a block of p consecutive i has
// unit-stride reads and writes in k: the inner loop vectorises. The first pass (p = 1)
// rotates nothing; its loop over i reads unit-stride and writes R interleaved streams.
// sgn = +1 or -1: the direction exp(sgn 2 pi i ...).

// In place: a_r <- sum_t a_t exp(sgn 2 pi i r t / R) for R = 2, 3, 4, 5 (R a constant after
// inlining, so the arrays live in registers).
INLINE void butterfly(const int R, real* ar, real* ai, real sgn) {
  if (R == 2) {
    real r0 = ar[0] + ar[1], i0 = ai[0] + ai[1];
    ar[1] = ar[0] - ar[1];
    ai[1] = ai[0] - ai[1];
    ar[0] = r0;
    ai[0] = i0;
  } else if (R == 3) {
    const real h = (real)0.86602540378443864676;  // sin(2 pi / 3)
    real tr = ar[1] + ar[2], ti = ai[1] + ai[2];
    real dr = h * sgn * (ar[1] - ar[2]), di = h * sgn * (ai[1] - ai[2]);
    real mr = ar[0] - (real)0.5 * tr, mi = ai[0] - (real)0.5 * ti;
    ar[0] += tr;
    ai[0] += ti;
    ar[1] = mr - di;  // + (sgn i) sin(2 pi / 3) (a1 - a2)
    ai[1] = mi + dr;
    ar[2] = mr + di;
    ai[2] = mi - dr;
  } else if (R == 4) {
    real s02r = ar[0] + ar[2], s02i = ai[0] + ai[2], d02r = ar[0] - ar[2], d02i = ai[0] - ai[2];
    real s13r = ar[1] + ar[3], s13i = ai[1] + ai[3], d13r = ar[1] - ar[3], d13i = ai[1] - ai[3];
    real jdr = -sgn * d13i, jdi = sgn * d13r;  // (sgn i) d13
    ar[0] = s02r + s13r;
    ai[0] = s02i + s13i;
    ar[1] = d02r + jdr;
    ai[1] = d02i + jdi;
    ar[2] = s02r - s13r;
    ai[2] = s02i - s13i;
    ar[3] = d02r - jdr;
    ai[3] = d02i - jdi;
  } else {
    // the pairs (1, 4) and (2, 3) share cosines and differ in the sign of the sines
    const real c1 = (real)0.30901699437494742410, c2 = (real)-0.80901699437494742410;
    const real s1 = (real)0.95105651629515357212, s2 = (real)0.58778525229247312917;
    real t1r = ar[1] + ar[4], t1i = ai[1] + ai[4], t2r = ar[2] + ar[3], t2i = ai[2] + ai[3];
    real d1r = ar[1] - ar[4], d1i = ai[1] - ai[4], d2r = ar[2] - ar[3], d2i = ai[2] - ai[3];
    real b1r = ar[0] + c1 * t1r + c2 * t2r, b1i = ai[0] + c1 * t1i + c2 * t2i;
    real b2r = ar[0] + c2 * t1r + c1 * t2r, b2i = ai[0] + c2 * t1i + c1 * t2i;
    real e1r = sgn * (s1 * d1r + s2 * d2r), e1i = sgn * (s1 * d1i + s2 * d2i);
    real e2r = sgn * (s2 * d1r - s1 * d2r), e2i = sgn * (s2 * d1i - s1 * d2i);
    ar[0] += t1r + t2r;
    ai[0] += t1i + t2i;
    ar[1] = b1r - e1i;  // b1 + i e1
    ai[1] = b1i + e1r;
    ar[4] = b1r + e1i;
    ai[4] = b1i - e1r;
    ar[2] = b2r - e2i;
    ai[2] = b2i + e2r;
    ar[3] = b2r + e2i;
    ai[3] = b2i - e2r;
  }
}

// Butterfly k of the block whose inputs start at x0 (x[b + k + r nb]) and outputs at y0
// (y[R b + k + r p]), its inputs rotated by (wr, wi)[(r - 1) p + k].
INLINE void block_butterfly(const int R, const real* restrict x0r, const real* restrict x0i,
                            real* restrict y0r, real* restrict y0i, int k, int nb, int p,
                            const real* restrict wr, const real* restrict wi, real sgn) {
  real ar[5], ai[5];
  ar[0] = x0r[k];
  ai[0] = x0i[k];
  for (int r = 1; r < R; r++) {
    real cr = x0r[k + r * nb], ci = x0i[k + r * nb];
    real w_r = wr[(r - 1) * p + k], w_i = wi[(r - 1) * p + k];
    ar[r] = cr * w_r - ci * w_i;
    ai[r] = cr * w_i + ci * w_r;
  }
  butterfly(R, ar, ai, sgn);
  for (int r = 0; r < R; r++) {
    y0r[k + r * p] = ar[r];
    y0i[k + r * p] = ai[r];
  }
}

// One pass of radix R (a constant after inlining) over n points with sub-transform length
// p, its rotations exp(sgn 2 pi i r k / (R p)) in (wr, wi)[(r - 1) p + k].
INLINE void pass(const int R, const real* restrict xr, const real* restrict xi,
                 real* restrict yr, real* restrict yi, int n, int p, const real* restrict wr,
                 const real* restrict wi, real sgn) {
  const int nb = n / R;
  if (p == 1) {
    // x and y are distinct buffers (clang cannot see it through the strided writes)
#pragma clang loop vectorize(assume_safety)
    for (size_t i = 0; i < (size_t)nb; i++) {
      real ar[5], ai[5];
      for (int r = 0; r < R; r++) {
        ar[r] = xr[i + r * (size_t)nb];
        ai[r] = xi[i + r * (size_t)nb];
      }
      butterfly(R, ar, ai, sgn);
      for (int r = 0; r < R; r++) {
        yr[R * i + r] = ar[r];
        yi[R * i + r] = ai[r];
      }
    }
    return;
  }
  // The butterflies of a block, k < p, vectorised: at the full width from p = W on; below
  // it (the second pass, p = the first's radix) at 4 or 2 lanes, which the loop fills.
  if (p >= W) {
    for (int b = 0; b < nb; b += p) {
#pragma clang loop vectorize(assume_safety)
      for (int k = 0; k < p; k++) block_butterfly(R, xr + b, xi + b, yr + R * b, yi + R * b, k,
                                                  nb, p, wr, wi, sgn);
    }
  } else if (p >= 4) {
    for (int b = 0; b < nb; b += p) {
#pragma clang loop vectorize(assume_safety) vectorize_width(4)
      for (int k = 0; k < p; k++) block_butterfly(R, xr + b, xi + b, yr + R * b, yi + R * b, k,
                                                  nb, p, wr, wi, sgn);
    }
  } else {
    for (int b = 0; b < nb; b += p) {
#pragma clang loop vectorize(assume_safety) vectorize_width(2)
      for (int k = 0; k < p; k++) block_butterfly(R, xr + b, xi + b, yr + R * b, yi + R * b, k,
                                                  nb, p, wr, wi, sgn);
    }
  }
}

// Unnormalised m-point DFT of the buffer `cur` (0: (ar, ai), 1: (br, bi)) by the plan's
// passes: X_k = sum_t x_t exp(sgn 2 pi i k t / m). Returns the buffer holding the result.
INLINE int stockham(fft_ws* ws, const row_plan* pl, real sgn, int cur) {
  real* bufr[2] = {ws->ar, ws->br};
  real* bufi[2] = {ws->ai, ws->bi};
  const real* blk = pl->blocks;
  for (int q = 0; q < pl->npass; q++) {
    const int R = (int)pl->pass[2 * q], p = (int)pl->pass[2 * q + 1], rows = (R - 1) * p;
    if (p > 1)
      for (int j = 0; j < rows; j++) {
        ws->wr[j] = blk[2 * j];
        ws->wi[j] = sgn * blk[2 * j + 1];
      }
    blk += 2 * (size_t)rows;
    const real *xr = bufr[cur], *xi = bufi[cur];
    real *yr = bufr[1 - cur], *yi = bufi[1 - cur];
    switch (R) {
      case 2: pass(2, xr, xi, yr, yi, pl->m, p, ws->wr, ws->wi, sgn); break;
      case 3: pass(3, xr, xi, yr, yi, pl->m, p, ws->wr, ws->wi, sgn); break;
      case 4: pass(4, xr, xi, yr, yi, pl->m, p, ws->wr, ws->wi, sgn); break;
      default: pass(5, xr, xi, yr, yi, pl->m, p, ws->wr, ws->wi, sgn); break;
    }
    cur = 1 - cur;
  }
  return cur;
}

// Unnormalised n-point DFT of (ws->ar, ws->ai)[0..n), X_k = sum_t x_t exp(sgn 2 pi i k t
// / n), by the plan: its Stockham FFT when m = n, else Bluestein's: with c_t = exp(sgn i pi
// t^2 / n), X_k = c_k sum_t (x_t c_t) conj(c_(k-t)), a cyclic convolution of length m >=
// 2n - 1 by two m-point FFTs and the filter's spectrum B / m from the table (for sgn = -1
// the filter is conj b, whose spectrum is conj B_(-k)). Returns the buffer holding X.
INLINE int row_dft(fft_ws* ws, const row_plan* pl, real sgn) {
  if (pl->m == pl->n) return stockham(ws, pl, sgn, 0);
  const int n = pl->n, m = pl->m;
  const real* ch = pl->chirp;
  for (int t = 0; t < n; t++) {
    real cr = ch[2 * t], ci = sgn * ch[2 * t + 1], xr = ws->ar[t], xi = ws->ai[t];
    ws->ar[t] = xr * cr - xi * ci;
    ws->ai[t] = xr * ci + xi * cr;
  }
  for (int t = n; t < m; t++) ws->ar[t] = ws->ai[t] = 0;
  int cur = stockham(ws, pl, -1, 0);
  real* zr = cur ? ws->br : ws->ar;
  real* zi = cur ? ws->bi : ws->ai;
  const real* fb = pl->filter;
  for (int k = 0; k < m; k++) {
    int j = sgn > 0 ? k : (m - k) % m;
    real br = fb[2 * j], bi = sgn * fb[2 * j + 1], ar = zr[k], ai = zi[k];
    zr[k] = ar * br - ai * bi;
    zi[k] = ar * bi + ai * br;
  }
  cur = stockham(ws, pl, 1, cur);
  zr = cur ? ws->br : ws->ar;
  zi = cur ? ws->bi : ws->ai;
  for (int k = 0; k < n; k++) {
    real cr = ch[2 * k], ci = sgn * ch[2 * k + 1], yr = zr[k], yi = zi[k];
    zr[k] = yr * cr - yi * ci;
    zi[k] = yr * ci + yi * cr;
  }
  return cur;
}

#endif
