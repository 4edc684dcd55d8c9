// Fourier synthesis, stage `fft_synth` of the CPU family (kernels/c/README.md): F -> f,
//   f[b][i][j] = Re F_0 + 2 Re sum_{m=1..M} F_m exp(i m 2 pi j / NP)   (Im F_0 ignored).
// One work item per row (i, b). The table's header (fourier.row_fft) picks the path:
//  * NP even: the Hermitian spectrum is folded into the n = NP/2-point spectrum Z_k of
//    z_t = f_2t + i f_2t+1, inverted by the row DFT (sht_fft.h: mixed-radix Stockham FFT,
//    or Bluestein's convolution for n with a prime factor > 5).
//  * NP odd: the n = NP-point Hermitian spectrum, inverted by the row DFT; f = Re z.
//  * no FFT (n = 0: NP > 4096, or Bluestein's m > 2048): band-limited direct sum over the mc
//    coefficients, O(NP mc).
#include "sht_fft.h"

static void synth_fft(const real* tw, const row_plan* pl, const io_t* Frow, io_t* frow,
                      int np, int mc) {
  fft_ws ws;
  real* re = ws.ar;
  real* im = ws.ai;
  const int n = pl->n, mmax = mc - 1;
  if (np & 1) {
    // Z_0 = Re F_0, Z_k = F_k and Z_(n-k) = conj F_k for 1 <= k <= M < n / 2
    for (int k = 0; k < n; k++) re[k] = im[k] = 0;
    re[0] = Frow[0];
    for (int k = 1; k <= mmax; k++) {
      re[k] = re[n - k] = Frow[2 * k];
      im[k] = Frow[2 * k + 1];
      im[n - k] = -Frow[2 * k + 1];
    }
    int out = row_dft(&ws, pl, 1);
    const real* zr = out ? ws.br : ws.ar;
    for (int t = 0; t < n; t++) frow[t] = zr[t];
    return;
  }
  // With X the Hermitian spectrum (X_0 = Re F_0, X_m = F_m for 1 <= m <= M, else 0), the
  // even/odd samples have spectra X_k + conj X_{n-k} and exp(2 pi i k / np) (X_k -
  // conj X_{n-k}); Z_k = even + i odd. n > M, so k = 0 has no conjugate partner. X is
  // staged zero-padded in (br, bi), free until the FFT, so that the loop over k has no
  // branches and vectorises.
  real* Xr = ws.br;
  real* Xi = ws.bi;
  for (int k = 0; k <= mmax; k++) {
    Xr[k] = Frow[2 * k];
    Xi[k] = Frow[2 * k + 1];
  }
  for (int k = mmax + 1; k < n; k++) Xr[k] = Xi[k] = 0;
  re[0] = im[0] = Xr[0];  // k = 0: X_0 = Re F_0 (Im F_0 ignored), no partner: Z_0 = (1 + i) X_0
  for (int k = 1; k < n; k++) {
    real xr = Xr[k], xi = Xi[k], cr = Xr[n - k], ci = -Xi[n - k];
    real dr = xr - cr, di = xi - ci;
    real wc = tw[2 * k], ws = tw[2 * k + 1];
    real rr = wc * dr - ws * di, ri = wc * di + ws * dr;  // exp(2 pi i k / np) (x - xc)
    re[k] = xr + cr - ri;
    im[k] = xi + ci + rr;
  }
  int out = row_dft(&ws, pl, 1);
  const real* zr = out ? ws.br : ws.ar;
  const real* zi = out ? ws.bi : ws.ai;
  for (int t = 0; t < n; t++) {  // f_2t = Re z_t, f_2t+1 = Im z_t
    frow[2 * t] = zr[t];
    frow[2 * t + 1] = zi[t];
  }
}

static void synth_direct(const real* tw, const io_t* Frow, io_t* frow, int np, int mc) {
  for (int j = 0; j < np; j++) {
    real acc = Frow[0];  // Im F_0 dropped
    int idx = j;         // (m j) mod np, advanced by j per m
    for (int m0 = 1; m0 < mc; m0 += BLOCK) {
      int m1 = m0 + BLOCK < mc ? m0 + BLOCK : mc;
      real part = 0;
      for (int m = m0; m < m1; m++) {
        part += Frow[2 * m] * tw[2 * idx] - Frow[2 * m + 1] * tw[2 * idx + 1];
        idx += j;
        if (idx >= np) idx -= np;
      }
      acc += 2 * part;
    }
    frow[j] = acc;
  }
}

// Entry point: buffers as (base, element offset) pairs, push constants, work item (i, b).
void sht_fft_synth(const real* twiddle, size_t twiddle_o, const io_t* F, size_t F_o,
                   io_t* f, size_t f_o, int32_t NL, int32_t NP, int32_t mc, int32_t B,
                   size_t i, size_t b) {
  if ((int)i >= NL || (int)b >= B) return;
  size_t row = b * (size_t)NL + i;
  const io_t* Frow = F + F_o + 2 * row * (size_t)mc;
  io_t* frow = f + f_o + row * (size_t)NP;
  twiddle += twiddle_o;
  row_plan pl = read_plan(twiddle, NP);
  if (pl.n) synth_fft(twiddle, &pl, Frow, frow, NP, mc);
  else synth_direct(twiddle, Frow, frow, NP, mc);
}
