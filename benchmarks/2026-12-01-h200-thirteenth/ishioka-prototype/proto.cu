// Prototype (timing + accuracy): Ishioka single-chain Legendre stages, float64 recurrence and
// sums, float32 data. Not product code.
#ifndef SKP
#define SKP 2
#endif
#define SWG 64
#define SSPAN 32
#ifndef AT
#define AT 128
#endif
#ifndef AKP
#define AKP 4
#endif
#ifndef ASPAN
#define ASPAN 8
#endif

extern "C" __global__ void __launch_bounds__(SWG) synth(
    const double2* __restrict__ ab, const double4* __restrict__ ec, const float2* __restrict__ q,
    const double* __restrict__ xt, const double* __restrict__ seed, const int* __restrict__ skip,
    const int* __restrict__ moff, float2* __restrict__ F, int L, int mc, int npairs, int nlat)
{
  const int m = blockIdx.y, K = (L - m) / 2, tid = threadIdx.x;
  const int s0 = skip[m];
  if (s0 + (int)blockIdx.x * SWG * SKP >= npairs) return;
  __shared__ double2 s_ab[SSPAN];
  __shared__ double4 s_q[SSPAN];
  const int p0 = s0 + (blockIdx.x * SWG + tid) * SKP;
  double u[SKP], x[SKP], y0[SKP], y1[SKP], er[SKP], ei[SKP], o_r[SKP], oi[SKP];
#pragma unroll
  for (int i = 0; i < SKP; i++) {
    int p = min(p0 + i, npairs - 1);
    x[i] = xt[p]; u[i] = x[i] * x[i]; y1[i] = seed[(size_t)m * npairs + p]; y0[i] = 0.0;
    er[i] = ei[i] = o_r[i] = oi[i] = 0.0;
  }
  const int qo = m * (2 * L + 3 - m) / 2;
  const int mo = moff[m];
  for (int k0 = 0; k0 <= K; k0 += SSPAN) {
    __syncthreads();
    if (tid < SSPAN) {
      int k = k0 + tid;
      double2 c = ab[mo + k];
      double4 e = ec[mo + k];
      int l = m + 2 * k;
      float2 qa = (l <= L) ? q[qo + 2 * k] : make_float2(0.f, 0.f);
      float2 qc = (l + 1 <= L) ? q[qo + 2 * k + 1] : make_float2(0.f, 0.f);
      float2 qb = (l + 2 <= L) ? q[qo + 2 * k + 2] : make_float2(0.f, 0.f);
      s_ab[tid] = c;
      s_q[tid] = make_double4(e.x * qa.x + e.y * qb.x, e.x * qa.y + e.y * qb.y, e.z * qc.x, e.z * qc.y);
    }
    __syncthreads();
    const int n = min(SSPAN, K + 1 - k0);
    for (int j = 0; j < n; j += 4) {
#pragma unroll
      for (int jj = 0; jj < 4; jj++) {
        double2 c = s_ab[j + jj];
        double4 qq = s_q[j + jj];
#pragma unroll
        for (int i = 0; i < SKP; i++) {
          er[i] = fma(y1[i], qq.x, er[i]); ei[i] = fma(y1[i], qq.y, ei[i]);
          o_r[i] = fma(y1[i], qq.z, o_r[i]); oi[i] = fma(y1[i], qq.w, oi[i]);
          double t = fma(c.x, u[i], c.y);
          double yn = fma(t, y1[i], y0[i]);
          y0[i] = y1[i]; y1[i] = yn;
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < SKP; i++) {
    int p = p0 + i;
    if (p < npairs) {
      F[(size_t)p * mc + m] = make_float2((float)(er[i] + x[i] * o_r[i]), (float)(ei[i] + x[i] * oi[i]));
      int ps = nlat - 1 - p;
      if (ps != p) F[(size_t)ps * mc + m] = make_float2((float)(er[i] - x[i] * o_r[i]), (float)(ei[i] - x[i] * oi[i]));
    }
  }
}

extern "C" __global__ void __launch_bounds__(SWG) synth32(
    const double2* __restrict__ ab, const double4* __restrict__ ec, const float2* __restrict__ q,
    const double* __restrict__ xt, const double* __restrict__ seed, const int* __restrict__ skip,
    const int* __restrict__ moff, float2* __restrict__ F, int L, int mc, int npairs, int nlat)
{
  const int m = blockIdx.y, K = (L - m) / 2, tid = threadIdx.x;
  const int s0 = skip[m];
  if (s0 + (int)blockIdx.x * SWG * SKP >= npairs) return;
  __shared__ double2 s_ab[SSPAN];
  __shared__ float4 s_q[SSPAN];
  const int p0 = s0 + (blockIdx.x * SWG + tid) * SKP;
  double u[SKP], x[SKP], y0[SKP], y1[SKP]; float er[SKP], ei[SKP], o_r[SKP], oi[SKP];
#pragma unroll
  for (int i = 0; i < SKP; i++) {
    int p = min(p0 + i, npairs - 1);
    x[i] = xt[p]; u[i] = x[i] * x[i]; y1[i] = seed[(size_t)m * npairs + p]; y0[i] = 0.0;
    er[i] = ei[i] = o_r[i] = oi[i] = 0.0f;
  }
  const int qo = m * (2 * L + 3 - m) / 2;
  const int mo = moff[m];
  for (int k0 = 0; k0 <= K; k0 += SSPAN) {
    __syncthreads();
    if (tid < SSPAN) {
      int k = k0 + tid;
      double2 c = ab[mo + k];
      double4 e = ec[mo + k];
      int l = m + 2 * k;
      float2 qa = (l <= L) ? q[qo + 2 * k] : make_float2(0.f, 0.f);
      float2 qc = (l + 1 <= L) ? q[qo + 2 * k + 1] : make_float2(0.f, 0.f);
      float2 qb = (l + 2 <= L) ? q[qo + 2 * k + 2] : make_float2(0.f, 0.f);
      s_ab[tid] = c;
      s_q[tid] = make_float4((float)(e.x * qa.x + e.y * qb.x), (float)(e.x * qa.y + e.y * qb.y), (float)(e.z * qc.x), (float)(e.z * qc.y));
    }
    __syncthreads();
    const int n = min(SSPAN, K + 1 - k0);
    for (int j = 0; j < n; j += 4) {
#pragma unroll
      for (int jj = 0; jj < 4; jj++) {
        double2 c = s_ab[j + jj];
        float4 qq = s_q[j + jj];
#pragma unroll
        for (int i = 0; i < SKP; i++) {
          float yf = __double2float_rn(y1[i]);
          er[i] = fmaf(yf, qq.x, er[i]); ei[i] = fmaf(yf, qq.y, ei[i]);
          o_r[i] = fmaf(yf, qq.z, o_r[i]); oi[i] = fmaf(yf, qq.w, oi[i]);
          double t = fma(c.x, u[i], c.y);
          double yn = fma(t, y1[i], y0[i]);
          y0[i] = y1[i]; y1[i] = yn;
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < SKP; i++) {
    int p = p0 + i;
    if (p < npairs) {
      F[(size_t)p * mc + m] = make_float2((float)(er[i] + x[i] * o_r[i]), (float)(ei[i] + x[i] * oi[i]));
      int ps = nlat - 1 - p;
      if (ps != p) F[(size_t)ps * mc + m] = make_float2((float)(er[i] - x[i] * o_r[i]), (float)(ei[i] - x[i] * oi[i]));
    }
  }
}

extern "C" __global__ void __launch_bounds__(AT) analys(
    const double2* __restrict__ ab, const double4* __restrict__ ec, const float2* __restrict__ F,
    const double* __restrict__ xt, const double* __restrict__ wt, const double* __restrict__ seed,
    const int* __restrict__ skip, const int* __restrict__ moff, float2* __restrict__ q,
    int L, int mc, int npairs, int nlat)
{
  const int m = blockIdx.x, K = (L - m) / 2, tid = threadIdx.x;
  __shared__ double part[ASPAN][4][AT];
  __shared__ double2 s_ab[ASPAN];
  __shared__ double sres[ASPAN][4];
  const int s0 = skip[m];
  double u[AKP], y0[AKP], y1[AKP], ger[AKP], gei[AKP], gor[AKP], goi[AKP];
#pragma unroll
  for (int i = 0; i < AKP; i++) {
    int p = s0 + tid + i * AT;
    if (p < npairs) {
      double x = xt[p], w = wt[p];
      float2 fn = F[(size_t)p * mc + m], fs = F[(size_t)(nlat - 1 - p) * mc + m];
      if (nlat - 1 - p == p) fs = make_float2(0.f, 0.f);
      ger[i] = w * ((double)fn.x + fs.x); gei[i] = w * ((double)fn.y + fs.y);
      gor[i] = w * x * ((double)fn.x - fs.x); goi[i] = w * x * ((double)fn.y - fs.y);
      u[i] = x * x; y1[i] = seed[(size_t)m * npairs + p];
    } else {
      ger[i] = gei[i] = gor[i] = goi[i] = 0.0; u[i] = 0.0; y1[i] = 0.0;
    }
    y0[i] = 0.0;
  }
  const int qo = m * (2 * L + 3 - m) / 2;
  const int mo = moff[m];
  double pr = 0.0, pi = 0.0;  // S_e[k0 - 1]
  for (int k0 = 0; k0 <= K; k0 += ASPAN) {
    if (tid < ASPAN) s_ab[tid] = ab[mo + k0 + tid];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ASPAN; j++) {
      double2 c = s_ab[j];
      double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
#pragma unroll
      for (int i = 0; i < AKP; i++) {
        a0 = fma(y1[i], ger[i], a0); a1 = fma(y1[i], gei[i], a1);
        a2 = fma(y1[i], gor[i], a2); a3 = fma(y1[i], goi[i], a3);
        double t = fma(c.x, u[i], c.y);
        double yn = fma(t, y1[i], y0[i]);
        y0[i] = y1[i]; y1[i] = yn;
      }
      part[j][0][tid] = a0; part[j][1][tid] = a1; part[j][2][tid] = a2; part[j][3][tid] = a3;
    }
    __syncthreads();
    {
      // 4 ASPAN sums of AT values: AT / (4 ASPAN) threads per sum
      const int per = AT / (4 * ASPAN);
      int o = tid / per, r = tid % per, j = o / 4, cc = o % 4;
      double s = 0.0;
      for (int t = r; t < AT; t += per) s += part[j][cc][t];
      for (int d = 1; d < per; d <<= 1) s += __shfl_xor_sync(0xffffffff, s, d);
      if (r == 0) sres[j][cc] = s;
    }
    __syncthreads();
    if (tid < ASPAN) {
      int k = k0 + tid;
      if (k <= K) {
        double4 e = ec[mo + k];
        double4 ep = (k > 0) ? ec[mo + k - 1] : make_double4(0, 0, 0, 0);
        double sr = sres[tid][0], si = sres[tid][1];
        double qr = (tid > 0) ? sres[tid - 1][0] : pr, qi = (tid > 0) ? sres[tid - 1][1] : pi;
        int l = m + 2 * k;
        q[qo + 2 * k] = make_float2((float)(e.x * sr + ep.y * qr), (float)(e.x * si + ep.y * qi));
        if (l + 1 <= L) q[qo + 2 * k + 1] = make_float2((float)(e.z * sres[tid][2]), (float)(e.z * sres[tid][3]));
      }
    }
    pr = sres[ASPAN - 1][0]; pi = sres[ASPAN - 1][1];
    __syncthreads();
  }
}

// Analysis, second form: per 4 steps each lane holds 16 partial sums (4 steps x 4 parts);
// a butterfly over the warp's lanes (xor 16, 8, 4, 2, then 1) leaves lane 2i with sum i of
// the warp; one barrier per 4 steps, double-buffered.
extern "C" __global__ void __launch_bounds__(AT) analys2(
    const double2* __restrict__ ab, const double4* __restrict__ ec, const float2* __restrict__ F,
    const double* __restrict__ xt, const double* __restrict__ wt, const double* __restrict__ seed,
    const int* __restrict__ skip, const int* __restrict__ moff, float2* __restrict__ q,
    int L, int mc, int npairs, int nlat)
{
  const int m = blockIdx.x, K = (L - m) / 2, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  constexpr int NW = AT / 32;
  __shared__ double sres[2][NW][16];
  __shared__ double prevE[2][2];
  const int s0 = skip[m];
  double u[AKP], y0[AKP], y1[AKP], ger[AKP], gei[AKP], gor[AKP], goi[AKP];
#pragma unroll
  for (int i = 0; i < AKP; i++) {
    int p = s0 + tid + i * AT;
    if (p < npairs) {
      double x = xt[p], w = wt[p];
      float2 fn = F[(size_t)p * mc + m], fs = F[(size_t)(nlat - 1 - p) * mc + m];
      if (nlat - 1 - p == p) fs = make_float2(0.f, 0.f);
      ger[i] = w * ((double)fn.x + fs.x); gei[i] = w * ((double)fn.y + fs.y);
      gor[i] = w * x * ((double)fn.x - fs.x); goi[i] = w * x * ((double)fn.y - fs.y);
      u[i] = x * x; y1[i] = seed[(size_t)m * npairs + p];
    } else {
      ger[i] = gei[i] = gor[i] = goi[i] = 0.0; u[i] = 0.0; y1[i] = 0.0;
    }
    y0[i] = 0.0;
  }
  const int qo = m * (2 * L + 3 - m) / 2;
  const int mo = moff[m];
  if (tid < 2) prevE[1][tid] = 0.0;
  int g = 0;
  for (int k0 = 0; k0 <= K; k0 += 4, g ^= 1) {
    double v[16];
#pragma unroll
    for (int j = 0; j < 4; j++) {
      double2 c = __ldg(&ab[mo + k0 + j]);
      double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
#pragma unroll
      for (int i = 0; i < AKP; i++) {
        a0 = fma(y1[i], ger[i], a0); a1 = fma(y1[i], gei[i], a1);
        a2 = fma(y1[i], gor[i], a2); a3 = fma(y1[i], goi[i], a3);
        double t = fma(c.x, u[i], c.y);
        double yn = fma(t, y1[i], y0[i]);
        y0[i] = y1[i]; y1[i] = yn;
      }
      v[4 * j] = a0; v[4 * j + 1] = a1; v[4 * j + 2] = a2; v[4 * j + 3] = a3;
    }
#define LEVEL(D, N) { const bool hi = (lane & D) != 0; _Pragma("unroll") for (int i = 0; i < N / 2; i++) { \
        double send = hi ? v[i] : v[i + N / 2]; double keep = hi ? v[i + N / 2] : v[i]; \
        v[i] = keep + __shfl_xor_sync(0xffffffff, send, D); } }
    LEVEL(16, 16) LEVEL(8, 8) LEVEL(4, 4) LEVEL(2, 2)
    v[0] += __shfl_xor_sync(0xffffffff, v[0], 1);
    if ((lane & 1) == 0) sres[g][warp][lane >> 1] = v[0];
    __syncthreads();
    if (tid < 4) {
      const int j = tid, k = k0 + j;
      double s[4], sp[2];
#pragma unroll
      for (int c = 0; c < 4; c++) { s[c] = 0.0; for (int w = 0; w < NW; w++) s[c] += sres[g][w][4 * j + c]; }
      if (j > 0) {
        for (int c = 0; c < 2; c++) { sp[c] = 0.0; for (int w = 0; w < NW; w++) sp[c] += sres[g][w][4 * (j - 1) + c]; }
      } else { sp[0] = prevE[g ^ 1][0]; sp[1] = prevE[g ^ 1][1]; }
      if (j == 3) { prevE[g][0] = s[0]; prevE[g][1] = s[1]; }
      if (k <= K) {
        double4 e = ec[mo + k];
        double e2p = (k > 0) ? ec[mo + k - 1].y : 0.0;
        int l = m + 2 * k;
        q[qo + 2 * k] = make_float2((float)(e.x * s[0] + e2p * sp[0]), (float)(e.x * s[1] + e2p * sp[1]));
        if (l + 1 <= L) q[qo + 2 * k + 1] = make_float2((float)(e.z * s[2]), (float)(e.z * s[3]));
      }
    }
  }
}
