"""On the GPU machine (twenty-third run): a CUDA C prototype (CuPy) of the Legendre analysis of
one field whose sums over the latitude pairs run on the float64 tensor cores (DMMA). One
workgroup per order, one warp per 32 pairs, a lane per pair running its float64 Ishioka chain
(ireesht/ishioka.py; no careful loop: every seed live at lmax 1023). Per window of 16 steps
each lane stores its chain values y_k in its warp's rows of workgroup memory; the lanes read
back their A fragments (steps x pairs) and mma.sync m16n8k4 f64 multiplies them by the pairs'
weighted parts of F (B: pairs x 8 columns, 4 of them the parts: even re, im; odd re, im), so
that the tensor cores add up the warp's 32 pairs in float64. After each span's barrier the
warps' sums are added up and q follows as in leg_analys_ishioka.mlir: q_{m+2k} = e1_k S_k +
e2_{k-1} S_{k-1}, q_{m+2k+1} = g_k O_k. Checks against the coefficients q of a field F
synthesized in float64 (data.npz of the sixteenth run's make_data.py) and times the kernel
(CUDA events; Nsight Compute: kernel name "anal_dmma").
Usage: anal_dmma.py LMAX data.npz|- [nvrtc options: -DNW=16 warps per workgroup, -DSPAN=32
steps per span (a multiple of 16), -DMINB=1, -DACC=2 accumulator chains]"""
import sys
import numpy as np
try:
    import cupy as cp
except ImportError:
    cp = None

from proto_common import options, tables, time_kernel

SRC = r'''
#ifndef NW
#define NW 16
#endif
#ifndef SPAN
#define SPAN 32
#endif
#ifndef MINB
#define MINB 2
#endif
#ifndef ACC
#define ACC 2
#endif
#define NT (32 * NW)

__device__ __forceinline__ void dmma(double* d, double a0, double a1, double b0) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
               "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a0), "d"(a1), "d"(b0));
}

// Workgroup memory (dynamic): ys[NW][16][32] the warps' chain values of a window (column
// swizzled: pair c of step j at c ^ (4 j mod 32), so that both the stores and the fragment
// loads meet no bank conflict), part[2][NW][SPAN][4] the warps' sums of a span (two spans
// in turn: one barrier per span), ab[nsteps] (alpha, beta) of the order, staged once.
extern "C" __global__ void __launch_bounds__(NT, MINB) anal_dmma(
    const double* __restrict__ xs, const double* __restrict__ ws, const double* __restrict__ seed,
    const int* __restrict__ polar, const double* __restrict__ chain,
    const long long* __restrict__ chain_off, const float* __restrict__ F, float* __restrict__ q,
    int lmax, int mc, int nlat, int npairs)
{
  extern __shared__ double smem[];
  double (*ys)[16][32] = reinterpret_cast<double (*)[16][32]>(smem);
  double (*part)[NW][SPAN][4] = reinterpret_cast<double (*)[NW][SPAN][4]>(smem + NW * 16 * 32);
  double2* ab_s = reinterpret_cast<double2*>(smem + NW * 16 * 32 + 2 * NW * SPAN * 4);
  __shared__ double carry[2][2];
  const int m = blockIdx.x, tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  const int gid = lane >> 2, tig = lane & 3;
  const int nsteps = (lmax - m) / 2 + 1;
  const long long row0 = chain_off[m];
  const long long mstart = (long long)m * (2 * lmax + 3 - m) / 2;
  const int nl = lmax + 1 - m;
  const int skip = polar[m];
  if (skip >= npairs) {
    for (int t = tid; t < 2 * nl; t += NT) q[mstart * 2 + t] = 0.f;
    return;
  }
  for (int t = tid; t < nsteps; t += NT)
    ab_s[t] = make_double2(chain[(row0 + t) * 5], chain[(row0 + t) * 5 + 1]);
  for (int c0 = skip; c0 < npairs; c0 += NT) {
    const bool first = c0 == skip;
    const int nwa = min(NW, (npairs - c0 + 31) / 32);
    const int p = c0 + tid;
    const bool valid = p < npairs;
    const int pc = valid ? p : npairs - 1;
    const double x = xs[pc];
    const double u = x * x;
    const double wv = valid ? ws[pc] : 0.0;
    const int s = nlat - 1 - pc;
    const float fnr = F[((long long)pc * mc + m) * 2], fni = F[((long long)pc * mc + m) * 2 + 1];
    const float fsr = s == pc ? 0.f : F[((long long)s * mc + m) * 2];
    const float fsi = s == pc ? 0.f : F[((long long)s * mc + m) * 2 + 1];
    double g[4];
    g[0] = wv * ((double)fnr + fsr); g[1] = wv * ((double)fni + fsi);
    g[2] = wv * x * ((double)fnr - fsr); g[3] = wv * x * ((double)fni - fsi);
    double y = valid ? seed[(long long)m * npairs + pc] : 0.0, yp = 0.0;
    double gb[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
      const int src = 4 * i + tig;
      const double v0 = __shfl_sync(0xffffffffu, g[0], src), v1 = __shfl_sync(0xffffffffu, g[1], src);
      const double v2 = __shfl_sync(0xffffffffu, g[2], src), v3 = __shfl_sync(0xffffffffu, g[3], src);
      gb[i] = gid == 0 ? v0 : gid == 1 ? v1 : gid == 2 ? v2 : gid == 3 ? v3 : 0.0;
    }
    if (tid < 2) carry[0][tid] = 0.0;
    __syncthreads();
    for (int k0 = 0, sp = 0; k0 < nsteps; k0 += SPAN, sp ^= 1) {
      const int cnt = min(SPAN, nsteps - k0);
      if (w < nwa) {
        for (int win = 0; win < cnt; win += 16) {
#pragma unroll
          for (int j = 0; j < 16; j++) {
            ys[w][j][lane ^ ((4 * j) & 31)] = y;
            const double2 ab = ab_s[min(k0 + win + j, nsteps - 1)];
            const double t = fma(ab.x, u, ab.y);
            const double yn = fma(t, y, yp);
            yp = y; y = yn;
          }
          __syncwarp();
          double d[ACC][4];
#pragma unroll
          for (int a = 0; a < ACC; a++) d[a][0] = d[a][1] = d[a][2] = d[a][3] = 0.0;
#pragma unroll
          for (int i = 0; i < 8; i++) {
            const int col = (4 * i + tig) ^ ((4 * gid) & 31);
            const int col8 = (4 * i + tig) ^ ((4 * (gid + 8)) & 31);
            dmma(d[i % ACC], ys[w][gid][col], ys[w][gid + 8][col8], gb[i]);
          }
#pragma unroll
          for (int a = 1; a < ACC; a++)
            for (int c = 0; c < 4; c++) d[0][c] += d[a][c];
          __syncwarp();
          if (tig < 2) {
            part[sp][w][win + gid][2 * tig] = d[0][0];
            part[sp][w][win + gid][2 * tig + 1] = d[0][1];
            part[sp][w][win + gid + 8][2 * tig] = d[0][2];
            part[sp][w][win + gid + 8][2 * tig + 1] = d[0][3];
          }
        }
      }
      __syncthreads();
      // sums over the warps and q of this span (while faster warps run the next span)
      for (int t = tid; t < 4 * cnt; t += NT) {
        const int j = t >> 2, cc = t & 3, k = k0 + j;
        double sk = 0.0;
        for (int ww = 0; ww < nwa; ww++) sk += part[sp][ww][j][cc];
        const double* row = chain + (row0 + k) * 5;
        long long idx; double val; bool in;
        if (cc < 2) {
          double sp1 = 0.0;
          if (j > 0) { for (int ww = 0; ww < nwa; ww++) sp1 += part[sp][ww][j - 1][cc]; }
          else sp1 = carry[sp][cc];
          if (j == cnt - 1) carry[sp ^ 1][cc] = sk;
          const double e2p = k > 0 ? row[-5 + 3] : 0.0;
          val = row[2] * sk + e2p * sp1;
          idx = (mstart + 2 * k) * 2 + cc; in = 2 * k < nl;
        } else {
          val = row[4] * sk;
          idx = (mstart + 2 * k + 1) * 2 + cc - 2; in = 2 * k + 1 < nl;
        }
        if (in) q[idx] = first ? (float)val : q[idx] + (float)val;
      }
    }
    __syncthreads();
  }
}
'''


def main():
    lmax = int(sys.argv[1])
    plan, x, w, seed, polar, chain, off = tables(lmax)
    if sys.argv[2] != "-":
        d = np.load(sys.argv[2])
        F, qref = d["F"], d["q"]
    else:
        F = np.random.default_rng(1).standard_normal((plan.nlat, plan.mc, 2)).astype(np.float32)
        qref = None
    opts, val = options(sys.argv[3:])
    nt = 32 * val.get("NW", 16)
    kern = cp.RawKernel(SRC, "anal_dmma", options=opts)
    span = val.get("SPAN", 32)
    dyn = ((nt // 32) * 16 * 32 + 2 * (nt // 32) * span * 4 + 2 * (lmax // 2 + 1)) * 8
    kern.max_dynamic_shared_size_bytes = dyn
    dev = [cp.asarray(a) for a in (x, w, seed, polar, chain, off, F)]
    q = cp.zeros((plan.nlm, 2), cp.float32)
    args = (*dev, q, np.int32(lmax), np.int32(plan.mc), np.int32(plan.nlat), np.int32(plan.npairs))
    kern((plan.mc,), (nt,), args, shared_mem=dyn)
    cp.cuda.Device().synchronize()
    print(f"lmax {lmax} {' '.join(opts)}: registers {kern.attributes['num_regs']}, "
          f"shared {kern.attributes['shared_size_bytes']} B", flush=True)
    if qref is not None:
        qq = q.get()
        err = np.linalg.norm(qq[:, 0] + 1j * qq[:, 1] - qref) / np.linalg.norm(qref)
        print(f"  analysis error against q: {err:.2e}", flush=True)
    time_kernel(cp, lambda: kern((plan.mc,), (nt,), args, shared_mem=dyn))

if __name__ == "__main__":
    main()
