// Prototype: one workgroup per order; each warp holds 32*KP4 latitude pairs; per span of SP4 steps
// the warp's lanes store y (YT) to workgroup memory, each lane then sums the four parts of one
// step over a quarter... of the warp's latitudes against weighted F in registers (VT), the
// partial sums are scattered over the lanes, combined across warps through workgroup memory,
// and one warp per span turns them into q (Ishioka space -> degrees).
#ifndef KP4
#define KP4 2
#endif
#ifndef SP4
#define SP4 8
#endif
#ifndef NWARP
#define NWARP 8
#endif
#ifndef YT
#define YT float
#endif
#ifndef MINB
#define MINB 1
#endif
#ifndef PFE
#define PFE 0
#endif
typedef YT yt;
extern "C" __global__ void __launch_bounds__(32 * NWARP, MINB) analys4(
    const double2* __restrict__ ab, const double4* __restrict__ ec, const float2* __restrict__ F,
    const double* __restrict__ xt, const double* __restrict__ wt, const double* __restrict__ seed,
    const int* __restrict__ skip, const int* __restrict__ moff, float* __restrict__ q,
    int L, int mc, int npairs, int nlat)
{
  constexpr int NL = 32 * KP4, TP = 32 / SP4, VEC = 16 / sizeof(yt), NI = NL / (VEC * TP);
  constexpr int PADY = 64 / sizeof(yt), RS = NL + PADY;
  static_assert(TP >= 4, "four parts per lane group");
  const int m = blockIdx.x, tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  const int K = (L - m) / 2, s0 = skip[m];
  __shared__ __align__(16) yt ys[NWARP][SP4][RS];
  yt* sgw = &ys[w][0][0];  // F parts, before the first span
  static_assert(4 * NL <= SP4 * RS, "sg fits in a warp's ys");
  __shared__ yt part[2][NWARP][4 * SP4];
  __shared__ double carry[2][2];
  double u[KP4], y0[KP4], y1[KP4];
  bool live = false;
#pragma unroll
  for (int i = 0; i < KP4; i++) {
    const int p = s0 + w * NL + lane * KP4 + i, j = lane * KP4 + i;
    if (p < npairs) {
      double x = xt[p], wq = wt[p];
      float2 fn = F[(size_t)p * mc + m], fs = F[(size_t)(nlat - 1 - p) * mc + m];
      if (nlat - 1 - p == p) fs = make_float2(0.f, 0.f);
      sgw[0 * NL + j] = (yt)(wq * ((double)fn.x + fs.x)); sgw[1 * NL + j] = (yt)(wq * ((double)fn.y + fs.y));
      sgw[2 * NL + j] = (yt)(wq * x * ((double)fn.x - fs.x)); sgw[3 * NL + j] = (yt)(wq * x * ((double)fn.y - fs.y));
      u[i] = x * x; y1[i] = seed[(size_t)m * npairs + p]; live = true;
    } else {
      sgw[j] = sgw[NL + j] = sgw[2 * NL + j] = sgw[3 * NL + j] = (yt)0; u[i] = 0.0; y1[i] = 0.0;
    }
    y0[i] = 0.0;
  }
  const bool wlive = __any_sync(0xffffffff, live);
  __syncwarp();
  const int r = lane / TP, h = lane % TP;
  yt my[4][NI * VEC];
#pragma unroll
  for (int c = 0; c < 4; c++)
#pragma unroll
    for (int i = 0; i < NI; i++)
#pragma unroll
      for (int v = 0; v < VEC; v++) my[c][i * VEC + v] = sgw[c * NL + (h + TP * i) * VEC + v];
  __syncwarp();
  const int mo = moff[m], qo = m * (2 * L + 3 - m) / 2;
  constexpr int G = TP / 4;                 // lanes per part after the scatter
  const int part_of = h / G;                // which of the four parts this lane ends with
  if (tid < 2) carry[1][tid] = 0.0;
  __shared__ double2 sab[2][SP4];
  if (tid < SP4) sab[0][tid] = ab[mo + tid];
  __syncthreads();
  int b = 0, span = 0;
  for (int k0 = 0; k0 <= K; k0 += SP4, b ^= 1, span++) {
    if (tid < SP4) sab[b ^ 1][tid] = ab[mo + k0 + SP4 + tid];
    const bool fin = (w == span % NWARP) && lane < 4 * SP4;
    double4 e = make_double4(0.0, 0.0, 0.0, 0.0);
    double e2p = 0.0;
    if (PFE && fin) {  // the finishing warp's coefficients, loaded while the span runs
      const int k = k0 + (lane >> 2);
      if (k <= K) e = ec[mo + k];
      if (k > 0 && k <= K) e2p = ec[mo + k - 1].y;
    }
    if (wlive) {
      const double2* c = sab[b];
#pragma unroll
      for (int j = 0; j < SP4; j++) {
        yt yv[KP4];
#pragma unroll
        for (int i = 0; i < KP4; i++) {
          yv[i] = (yt)y1[i];
          const double t = fma(c[j].x, u[i], c[j].y);
          const double yn = fma(t, y1[i], y0[i]);
          y0[i] = y1[i]; y1[i] = yn;
        }
#pragma unroll
        for (int i = 0; i < KP4; i++) ys[w][j][lane * KP4 + i] = yv[i];
      }
      __syncwarp();
      yt s[4];
#pragma unroll
      for (int cc = 0; cc < 4; cc++) s[cc] = (yt)0;
#pragma unroll
      for (int i = 0; i < NI; i++) {
#pragma unroll
        for (int v = 0; v < VEC; v++) {
          const yt yy = ys[w][r][(h + TP * i) * VEC + v];
#pragma unroll
          for (int cc = 0; cc < 4; cc++) s[cc] = fma(my[cc][i * VEC + v], yy, s[cc]);
        }
      }
      // scatter the four parts over the lane group, then plain sums
      {
        const bool hi = (h & (TP / 2)) != 0;
        yt send0 = hi ? s[0] : s[2], send1 = hi ? s[1] : s[3];
        yt k0v = hi ? s[2] : s[0], k1v = hi ? s[3] : s[1];
        s[0] = k0v + __shfl_xor_sync(0xffffffff, send0, TP / 2);
        s[1] = k1v + __shfl_xor_sync(0xffffffff, send1, TP / 2);
        const bool hi2 = (h & (TP / 4)) != 0;
        yt send = hi2 ? s[0] : s[1], keep = hi2 ? s[1] : s[0];
        s[0] = keep + __shfl_xor_sync(0xffffffff, send, TP / 4);
#pragma unroll
        for (int d = TP / 8; d > 0; d >>= 1) s[0] += __shfl_xor_sync(0xffffffff, s[0], d);
      }
      if ((h % G) == 0) part[b][w][r * 4 + part_of] = s[0];
    } else if (tid - w * 32 < 4 * SP4) {
      part[b][w][tid - w * 32] = (yt)0;
    }
    __syncthreads();
    if (fin) {
      const int rr = lane >> 2, pc = lane & 3, k = k0 + rr;
      // lane = rr * 4 + part: (h / G) with h = lane % TP ... parts were written at r * 4 + part
      double S = 0.0;
#pragma unroll
      for (int ww = 0; ww < NWARP; ww++) S += (double)part[b][ww][lane];
      double Sp = __shfl_up_sync(4 * SP4 == 32 ? 0xffffffffu : (1u << (4 * SP4)) - 1u, S, 4);
      if (rr == 0 && pc < 2) Sp = carry[b ^ 1][pc];
      if (rr == SP4 - 1 && pc < 2) carry[b][pc] = S;
      if (k <= K) {
        const int l = m + 2 * k;
        if (!PFE) { e = ec[mo + k]; e2p = (k > 0) ? ec[mo + k - 1].y : 0.0; }
        if (pc < 2) {
          q[2 * (qo + 2 * k) + pc] = (float)(e.x * S + e2p * Sp);
        } else if (l + 1 <= L) {
          q[2 * (qo + 2 * k + 1) + pc - 2] = (float)(e.z * S);
        }
      }
    }
  }
}
