// The FFT core shared by fft_synth.c and fft_analys.c. No sin/cos: every rotation is an
// entry of the `twiddle` table, (cos, sin)(2 pi k / NP) computed on the host in float64.
#ifndef SHT_FFT_H
#define SHT_FFT_H

#include "sht_common.h"

// Largest half-length FFT. Scratch on the worker's stack: two split complex buffers of
// HALF (ping-pong) and one pass's twiddles, 3 HALF / 4 complex: 44 KB for float.
#define HALF 2048
// Terms per partial sum of the direct DFT: rounding grows like sqrt(32) + sqrt(n / 32)
// rather than sqrt(n).
#define BLOCK 32

typedef struct {
  real ar[HALF], ai[HALF], br[HALF], bi[HALF];
  real w[3][2][HALF / 4];  // [r - 1][re, im][k]: exp(sgn 2 pi i r k / (4 p)) of one pass
} fft_ws;

// Whether NP takes the FFT path (else the band-limited direct DFT).
INLINE int use_fft(int np) { return (np & (np - 1)) == 0 && np >= 4 && np <= 2 * HALF; }

// Stockham autosort (as kernels/wgsl/fft_core.wgsli): the pass with sub-transform length p
// reads x[i + r n/R] and writes y[(i - k) R + k + r p], k = i mod p, so the result comes out
// in natural order with no bit reversal. For a block of p consecutive i both the reads and
// the writes are unit-stride in k: the inner loops vectorise.

// First radix-2 pass (p = 1: all twiddles 1).
INLINE void pass2(const real* restrict xr, const real* restrict xi, real* restrict yr,
                  real* restrict yi, int n) {
  const int nb = n >> 1;
  for (int i = 0; i < nb; i++) {
    real ar = xr[i], ai = xi[i], br = xr[i + nb], bi = xi[i + nb];
    yr[2 * i] = ar + br;
    yi[2 * i] = ai + bi;
    yr[2 * i + 1] = ar - br;
    yi[2 * i + 1] = ai - bi;
  }
}

INLINE void pass4(const real* restrict xr, const real* restrict xi, real* restrict yr,
                  real* restrict yi, int n, int p, int np, const real* restrict tw,
                  real sgn, real (*restrict w)[2][HALF / 4]) {
  const int nb = n >> 2;
  const int ts = np / (4 * p);  // rotation r k / (4 p) of a turn = table entry r k ts
  for (int r = 1; r < 4; r++)
    for (int k = 0; k < p; k++) {
      w[r - 1][0][k] = tw[2 * (size_t)(r * k * ts)];
      w[r - 1][1][k] = sgn * tw[2 * (size_t)(r * k * ts) + 1];
    }
  for (int b = 0; b < nb; b += p) {
    const real* restrict x0r = xr + b;
    const real* restrict x0i = xi + b;
    real* restrict y0r = yr + 4 * b;
    real* restrict y0i = yi + 4 * b;
    // x, y and w are distinct buffers (clang cannot see it through the block pointers)
#pragma clang loop vectorize(assume_safety)
    for (int k = 0; k < p; k++) {
      real a0r = x0r[k], a0i = x0i[k];
      real c1r = x0r[k + nb], c1i = x0i[k + nb];
      real c2r = x0r[k + 2 * nb], c2i = x0i[k + 2 * nb];
      real c3r = x0r[k + 3 * nb], c3i = x0i[k + 3 * nb];
      real a1r = c1r * w[0][0][k] - c1i * w[0][1][k], a1i = c1r * w[0][1][k] + c1i * w[0][0][k];
      real a2r = c2r * w[1][0][k] - c2i * w[1][1][k], a2i = c2r * w[1][1][k] + c2i * w[1][0][k];
      real a3r = c3r * w[2][0][k] - c3i * w[2][1][k], a3i = c3r * w[2][1][k] + c3i * w[2][0][k];
      real s02r = a0r + a2r, s02i = a0i + a2i, d02r = a0r - a2r, d02i = a0i - a2i;
      real s13r = a1r + a3r, s13i = a1i + a3i, d13r = a1r - a3r, d13i = a1i - a3i;
      real jdr = -sgn * d13i, jdi = sgn * d13r;  // (sgn i) d13
      y0r[k] = s02r + s13r;
      y0i[k] = s02i + s13i;
      y0r[k + p] = d02r + jdr;
      y0i[k + p] = d02i + jdi;
      y0r[k + 2 * p] = s02r - s13r;
      y0i[k + 2 * p] = s02i - s13i;
      y0r[k + 3 * p] = d02r - jdr;
      y0i[k + 3 * p] = d02i - jdi;
    }
  }
}

// Unnormalised DFT of (ws->ar, ws->ai)[0..n), n = np / 2 a power of two >= 2:
// X_k = sum_t x_t exp(sgn 2 pi i k t / n). Returns the buffer holding the result: 0 for
// (ar, ai), 1 for (br, bi).
INLINE int fft(fft_ws* ws, int n, int np, const real* tw, real sgn) {
  real* bufr[2] = {ws->ar, ws->br};
  real* bufi[2] = {ws->ai, ws->bi};
  int cur = 0, p = 1;
  if (__builtin_ctz((unsigned)n) & 1) {  // log2 n odd: one radix-2 pass, then radix 4
    pass2(bufr[0], bufi[0], bufr[1], bufi[1], n);
    cur = 1;
    p = 2;
  }
  for (; p < n; p *= 4) {
    pass4(bufr[cur], bufi[cur], bufr[1 - cur], bufi[1 - cur], n, p, np, tw, sgn, ws->w);
    cur = 1 - cur;
  }
  return cur;
}

#endif
