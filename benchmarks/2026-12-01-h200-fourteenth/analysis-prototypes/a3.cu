// Prototype: transposed-sum Ishioka analysis (float64 chain and sums, float32 data).
// One warp per block holds NL = 32*KP3 latitude pairs of one order; each span of SP3 steps the
// lanes write their y_k to workgroup memory, then each lane sums one (step, part) over the
// chunk's latitudes against weighted F kept in registers; chunks add into acc atomically.
#ifndef KP3
#define KP3 1
#endif
#ifndef SP3
#define SP3 8
#endif
#ifndef NACC
#define NACC 2
#endif
#ifndef PREF
#define PREF 0
#endif
#ifndef ATOM
#define ATOM 1
#endif
extern "C" __global__ void __launch_bounds__(32) analys3(
    const double2* __restrict__ ab, const float2* __restrict__ F,
    const double* __restrict__ xt, const double* __restrict__ wt, const double* __restrict__ seed,
    const int* __restrict__ skip, const int* __restrict__ moff, double* __restrict__ acc,
    int L, int mc, int npairs, int nlat)
{
  constexpr int NL = 32 * KP3, NO = 4 * SP3, T = 32 / NO, NR = NL / T, PAD = 2;
  const int m = blockIdx.y, lane = threadIdx.x, p0 = blockIdx.x * NL, s0 = skip[m];
  if (p0 + NL <= s0 || p0 >= npairs) return;
  const int K = (L - m) / 2;
  __shared__ double sg[4][NL];
  __shared__ __align__(16) double ys[2][SP3][NL + PAD];
  double u[KP3], y0[KP3], y1[KP3];
#pragma unroll
  for (int i = 0; i < KP3; i++) {
    const int p = p0 + lane + 32 * i, j = lane + 32 * i;
    if (p < npairs) {
      double x = xt[p], w = wt[p];
      float2 fn = F[(size_t)p * mc + m], fs = F[(size_t)(nlat - 1 - p) * mc + m];
      if (nlat - 1 - p == p) fs = make_float2(0.f, 0.f);
      sg[0][j] = w * ((double)fn.x + fs.x); sg[1][j] = w * ((double)fn.y + fs.y);
      sg[2][j] = w * x * ((double)fn.x - fs.x); sg[3][j] = w * x * ((double)fn.y - fs.y);
      u[i] = x * x; y1[i] = (p >= s0) ? seed[(size_t)m * npairs + p] : 0.0;
    } else {
      sg[0][j] = sg[1][j] = sg[2][j] = sg[3][j] = 0.0; u[i] = 0.0; y1[i] = 0.0;
    }
    y0[i] = 0.0;
  }
  __syncwarp();
  const int o = lane / T, h = lane % T, r = o >> 2, cc = o & 3;
  double my[NR];
#pragma unroll
  for (int t = 0; t < NR; t++) my[t] = sg[cc][h + T * t];
  const int mo = moff[m];
  double* accm = acc + (size_t)mo * 4;
  int b = 0;
#if PREF
  double2 cn[SP3];
#pragma unroll
  for (int j = 0; j < SP3; j++) cn[j] = __ldg(&ab[mo + j]);
#endif
  for (int k0 = 0; k0 <= K; k0 += SP3, b ^= 1) {
#if PREF
    double2 cc_[SP3];
#pragma unroll
    for (int j = 0; j < SP3; j++) { cc_[j] = cn[j]; cn[j] = __ldg(&ab[mo + k0 + SP3 + j]); }
#endif
#pragma unroll
    for (int j = 0; j < SP3; j++) {
#if PREF
      const double2 c = cc_[j];
#else
      const double2 c = __ldg(&ab[mo + k0 + j]);
#endif
#pragma unroll
      for (int i = 0; i < KP3; i++) {
        ys[b][j][lane + 32 * i] = y1[i];
        const double t = fma(c.x, u[i], c.y);
        const double yn = fma(t, y1[i], y0[i]);
        y0[i] = y1[i]; y1[i] = yn;
      }
    }
    __syncwarp();
    double s[NACC];
#pragma unroll
    for (int a = 0; a < NACC; a++) s[a] = 0.0;
    const double* row = &ys[b][r][h];
#pragma unroll
    for (int t = 0; t < NR; t++) s[t % NACC] = fma(my[t], row[T * t], s[t % NACC]);
#pragma unroll
    for (int a = 1; a < NACC; a++) s[0] += s[a];
#pragma unroll
    for (int d = T / 2; d > 0; d >>= 1) s[0] += __shfl_xor_sync(0xffffffff, s[0], d);
#if ATOM
    if (h == 0 && k0 + r <= K) atomicAdd(&accm[(k0 + r) * 4 + cc], s[0]);
#else
    if (h == 0 && k0 + r <= K) accm[(k0 + r) * 4 + cc] = s[0];  // timing only: chunks overwrite
#endif
  }
}

// Ishioka space -> q (transpose of the synthesis's modified coefficients).
extern "C" __global__ void conv(const double4* __restrict__ ec, const double* __restrict__ acc,
                                const int* __restrict__ moff, float2* __restrict__ q, int L)
{
  const int m = blockIdx.x, K = (L - m) / 2, mo = moff[m], qo = m * (2 * L + 3 - m) / 2;
  for (int k = threadIdx.x; k <= K; k += blockDim.x) {
    const double4 e = ec[mo + k];
    const double* a = acc + (size_t)(mo + k) * 4;
    double e2p = 0.0, pr = 0.0, pi = 0.0;
    if (k > 0) { e2p = ec[mo + k - 1].y; pr = a[-4]; pi = a[-3]; }
    q[qo + 2 * k] = make_float2((float)(e.x * a[0] + e2p * pr), (float)(e.x * a[1] + e2p * pi));
    if (m + 2 * k + 1 <= L) q[qo + 2 * k + 1] = make_float2((float)(e.z * a[2]), (float)(e.z * a[3]));
  }
}
