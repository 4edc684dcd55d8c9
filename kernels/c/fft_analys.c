// Fourier analysis, stage `fft_analys` of the CPU family (kernels/c/README.md): f -> F,
//   F[b][i][m] = sum_j f[b][i][j] exp(-i m 2 pi j / NP),  m = 0..M   (raw DFT, no 1/NP).
// One work item per row (i, b). The table's header (fourier.row_fft) picks the path:
//  * NP even: the row as n = NP/2 complex values z_t = f_2t + i f_2t+1, the row DFT
//    (sht_fft.h: mixed-radix Stockham FFT, or Bluestein's convolution for n with a prime
//    factor > 5), then split into the real row's spectrum.
//  * NP odd: the row as n = NP complex values f_t + 0 i and the row DFT.
//  * no FFT (n = 0: NP > 4096, or Bluestein's m > 2048): band-limited direct DFT of the mc
//    needed outputs, O(NP mc).
#include "sht_fft.h"

static void analys_fft(const real* tw, const row_plan* pl, const io_t* frow, io_t* Frow,
                       int np, int mc) {
  fft_ws ws;
  const int n = pl->n;
  if (np & 1) {
    for (int t = 0; t < n; t++) {
      ws.ar[t] = frow[t];
      ws.ai[t] = 0;
    }
    int out = row_dft(&ws, pl, -1);
    const real* re = out ? ws.br : ws.ar;
    const real* im = out ? ws.bi : ws.ai;
    for (int m = 0; m < mc; m++) {  // mc <= (n + 1) / 2
      Frow[2 * m] = re[m];
      Frow[2 * m + 1] = im[m];
    }
    Frow[1] = 0;  // a real row's F_0 is real; Bluestein's chirps leave rounding in Im
    return;
  }
  for (int t = 0; t < n; t++) {  // z_t = f_2t + i f_2t+1
    ws.ar[t] = frow[2 * t];
    ws.ai[t] = frow[2 * t + 1];
  }
  int out = row_dft(&ws, pl, -1);
  const real* re = out ? ws.br : ws.ar;
  const real* im = out ? ws.bi : ws.ai;
  // E_m = (Z_m + conj Z_{n-m}) / 2 (even samples), O_m = (Z_m - conj Z_{n-m}) / 2i (odd),
  // F_m = E_m + exp(-2 pi i m / np) O_m; E and O are n-periodic: m = 0 and m = n (the
  // Nyquist order, when mc = n + 1) take Z_0 and its own conjugate, 0 < m < n the loop
  // without branches, which vectorises.
  const int mid = mc < n ? mc : n;
  for (int m = 0; m < mc; m += n) {  // m = 0, and m = n if mc > n
    real wc = tw[2 * m], ws = -tw[2 * m + 1];
    real er = re[0], or_ = im[0];  // E = Re Z_0, O = Im Z_0
    Frow[2 * m] = er + wc * or_;
    Frow[2 * m + 1] = ws * or_;
  }
  for (int m = 1; m < mid; m++) {
    real zr = re[m], zi = im[m], yr = re[n - m], yi = -im[n - m];
    real er = (real)0.5 * (zr + yr), ei = (real)0.5 * (zi + yi);
    real dr = zr - yr, di = zi - yi;
    real or_ = (real)0.5 * di, oi = (real)-0.5 * dr;
    real wc = tw[2 * m], ws = -tw[2 * m + 1];
    Frow[2 * m] = er + (wc * or_ - ws * oi);
    Frow[2 * m + 1] = ei + (wc * oi + ws * or_);
  }
}

static void analys_direct(const real* tw, const io_t* frow, io_t* Frow, int np, int mc) {
  for (int m = 0; m < mc; m++) {
    int step = m % np;
    int idx = 0;  // (m j) mod np, advanced by m per point
    real ar = 0, ai = 0;
    for (int j0 = 0; j0 < np; j0 += BLOCK) {
      int j1 = j0 + BLOCK < np ? j0 + BLOCK : np;
      real pr = 0, pi = 0;
      for (int j = j0; j < j1; j++) {
        pr += frow[j] * tw[2 * idx];
        pi -= frow[j] * tw[2 * idx + 1];
        idx += step;
        if (idx >= np) idx -= np;
      }
      ar += pr;
      ai += pi;
    }
    Frow[2 * m] = ar;
    Frow[2 * m + 1] = ai;
  }
}

// Entry point: buffers as (base, element offset) pairs, push constants, work item (i, b).
void sht_fft_analys(const real* twiddle, size_t twiddle_o, const io_t* f, size_t f_o,
                    io_t* F, size_t F_o, int32_t NL, int32_t NP, int32_t mc, int32_t B,
                    size_t i, size_t b) {
  if ((int)i >= NL || (int)b >= B) return;
  size_t row = b * (size_t)NL + i;
  const io_t* frow = f + f_o + row * (size_t)NP;
  io_t* Frow = F + F_o + 2 * row * (size_t)mc;
  twiddle += twiddle_o;
  row_plan pl = read_plan(twiddle, NP);
  if (pl.n) analys_fft(twiddle, &pl, frow, Frow, NP, mc);
  else analys_direct(twiddle, frow, Frow, NP, mc);
}
