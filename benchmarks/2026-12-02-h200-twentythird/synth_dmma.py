"""On the GPU machine (twenty-third run): a CUDA C prototype (CuPy) of the Legendre synthesis of
16 fields per workgroup on the float64 tensor cores (mma.sync m16n8k4 f64), in the layout of
kernels/mlir/leg_synth_mma.mlir: F = P_e Q_e + x Y Q_o per order, P_e (pairs x steps) the even
values e1_k y_k + e2_{k-1} y_{k-1}, Y the Ishioka chain values y_k (ireesht/ishioka.py), Q
the 16 fields' coefficients (re, im: 32 columns, four tiles of 8), Q_o times g_k. Warp w holds
MT tiles of 16 pairs; lane (gid, tig) runs the chains of its tiles' rows gid and gid + 8
itself (four times over in the warp), shifted by a warm-up of tig steps, so that at the end
of every group of 4 steps it holds its A values of step 4 s + tig (the k slot tig); B comes
from the span's coefficients staged in workgroup memory in float64. Products and sums in
float64, F rounded once. Gauss grid, seeds in float64 (all live at lmax 1023). Checks fields 0
and B-1 against the float64 reference (through numpy's FFT), times the kernel (CUDA events;
Nsight Compute: kernel name "synth_dmma").
Usage: synth_dmma.py LMAX B [-noref] [nvrtc options: -DMT=2 tiles per warp, -DNWARP=4 warps
per workgroup, -DSPAN=32 steps per span (a multiple of 4), -DMINB=1, -DM8=1: m8n8k4]"""
import sys
import numpy as np
try:
    import cupy as cp
except ImportError:
    cp = None

from proto_common import check_synthesis, coefficients, options, tables, time_kernel

SRC = r'''
#ifndef MT
#define MT 2
#endif
#ifndef NWARP
#define NWARP 4
#endif
#ifndef SPAN
#define SPAN 32
#endif
#ifndef MINB
#define MINB 1
#endif
#define NT (32 * NWARP)
#define PW (NWARP * 16 * MT)
#define NF 16
#define QS 68   // row stride (doubles) of the staged coefficients: no bank conflict per half-warp

// a tile of 16 rows: one m16n8k4 product (sm_90), or with -DM8=1 two m8n8k4 ones (rows gid
// and gid + 8: the shape MLIR's NVVM dialect takes for float64 on sm_80)
__device__ __forceinline__ void dmma(double* d, double a0, double a1, double b0) {
#if defined(M8) && M8
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d[0]), "+d"(d[1]) : "d"(a0), "d"(b0));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d[2]), "+d"(d[3]) : "d"(a1), "d"(b0));
#else
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
               "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a0), "d"(a1), "d"(b0));
#endif
}

extern "C" __global__ void __launch_bounds__(NT, MINB) synth_dmma(
    const double* __restrict__ xs, const double* __restrict__ seed, const int* __restrict__ polar,
    const double* __restrict__ chain, const long long* __restrict__ chain_off,
    const float2* __restrict__ q, float2* __restrict__ F,
    int lmax, int mc, int nlat, int npairs, int nlm, int B)
{
  extern __shared__ double smem[];
  double (*qe_s)[QS] = reinterpret_cast<double (*)[QS]>(smem);
  double (*qo_s)[QS] = reinterpret_cast<double (*)[QS]>(smem + SPAN * QS);
  double4* cs = reinterpret_cast<double4*>(smem + 2 * SPAN * QS);   // SPAN + 4 rows
  const int m = blockIdx.y, tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
  const int gid = lane >> 2, tig = lane & 3, b0 = blockIdx.z * NF;
  const int nsteps = (lmax - m) / 2 + 1, nl = lmax + 1 - m;
  const long long row0 = chain_off[m];
  const long long mstart = (long long)m * (2 * lmax + 3 - m) / 2;
  const int skip = polar[m];
  for (int p = blockIdx.x * NT + tid; p < skip; p += gridDim.x * NT)
    for (int f = 0; f < NF && b0 + f < B; f++) {
      F[((long long)(b0 + f) * nlat + p) * mc + m] = make_float2(0.f, 0.f);
      F[((long long)(b0 + f) * nlat + nlat - 1 - p) * mc + m] = make_float2(0.f, 0.f);
    }
  const int pbase = skip + blockIdx.x * PW;
  if (pbase >= npairs) return;
  // the lane's pairs: tile t, rows gid and gid + 8
  double u[2 * MT], y[2 * MT], yp[2 * MT];
  int pp[2 * MT];
#pragma unroll
  for (int i = 0; i < 2 * MT; i++) {
    pp[i] = pbase + w * 16 * MT + 16 * (i >> 1) + gid + 8 * (i & 1);
    const int pc = min(pp[i], npairs - 1);
    const double x = xs[pc];
    u[i] = x * x;
    y[i] = pp[i] < npairs ? seed[(long long)m * npairs + pc] : 0.0;
    yp[i] = 0.0;
  }
  // warm-up: tig steps
  for (int k = 0; k < tig; k++) {
    const long long r = row0 + min(k, nsteps - 1);
    const double a = chain[r * 5], bb = chain[r * 5 + 1];
#pragma unroll
    for (int i = 0; i < 2 * MT; i++) {
      const double yn = fma(fma(a, u[i], bb), y[i], yp[i]);
      yp[i] = y[i]; y[i] = yn;
    }
  }
  double acc_e[MT][4][4], acc_o[MT][4][4];
#pragma unroll
  for (int t = 0; t < MT; t++)
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int c = 0; c < 4; c++) { acc_e[t][j][c] = 0.0; acc_o[t][j][c] = 0.0; }
  for (int k0 = 0; k0 < nsteps; k0 += SPAN) {
    __syncthreads();
    for (int t = tid; t < SPAN * NF; t += NT) {
      const int f = t / SPAN, kk = t % SPAN, k = k0 + kk;
      double er = 0.0, ei = 0.0, orr = 0.0, oi = 0.0;
      if (b0 + f < B && k < nsteps) {
        const float2* qb = q + (long long)(b0 + f) * nlm + mstart;
        if (2 * k < nl) { const float2 v = qb[2 * k]; er = v.x; ei = v.y; }
        if (2 * k + 1 < nl) {
          const double g = chain[(row0 + k) * 5 + 4];
          const float2 v = qb[2 * k + 1]; orr = g * v.x; oi = g * v.y;
        }
      }
      qe_s[kk][2 * f] = er; qe_s[kk][2 * f + 1] = ei;
      qo_s[kk][2 * f] = orr; qo_s[kk][2 * f + 1] = oi;
    }
    for (int t = tid; t < SPAN + 4; t += NT) {
      const int k = k0 + t;
      const long long r = row0 + min(k, nsteps - 1);
      const double e2p = k > 0 ? chain[(row0 + min(k, nsteps) - 1) * 5 + 3] : 0.0;
      cs[t] = make_double4(chain[r * 5], chain[r * 5 + 1], chain[r * 5 + 2], e2p);
    }
    __syncthreads();
    const int ngroups = min(SPAN, nsteps - k0 + 3) / 4;
    for (int s = 0; s < ngroups; s++) {
      const int kk = 4 * s + tig;              // the lane's k slot: step k0 + kk
      const bool live = k0 + kk < nsteps;
      const double4 c = cs[kk];
      double ae[2 * MT], ao[2 * MT];
#pragma unroll
      for (int i = 0; i < 2 * MT; i++) {
        ae[i] = live ? fma(c.z, y[i], c.w * yp[i]) : 0.0;
        ao[i] = live ? y[i] : 0.0;
      }
      // advance 4 steps (rows kk .. kk + 3)
#pragma unroll
      for (int d = 0; d < 4; d++) {
        const double4 cd = cs[kk + d];
#pragma unroll
        for (int i = 0; i < 2 * MT; i++) {
          const double yn = fma(fma(cd.x, u[i], cd.y), y[i], yp[i]);
          yp[i] = y[i]; y[i] = yn;
        }
      }
#pragma unroll
      for (int j = 0; j < 4; j++) {
        const double be = qe_s[kk][8 * j + gid], bo = qo_s[kk][8 * j + gid];
#pragma unroll
        for (int t = 0; t < MT; t++) {
          dmma(acc_e[t][j], ae[2 * t], ae[2 * t + 1], be);
          dmma(acc_o[t][j], ao[2 * t], ao[2 * t + 1], bo);
        }
      }
    }
  }
  // D: c0, c1 at row gid (columns 2 tig, 2 tig + 1: field 4 j + tig, re and im), c2, c3 at row
  // gid + 8
#pragma unroll
  for (int t = 0; t < MT; t++)
#pragma unroll
    for (int h = 0; h < 2; h++) {
      const int p = pp[2 * t + h];
      if (p >= npairs) continue;
      const double x = xs[p];
      const int sr = nlat - 1 - p;
#pragma unroll
      for (int j = 0; j < 4; j++) {
        const int f = 4 * j + tig;
        if (b0 + f >= B) continue;
        const double er = acc_e[t][j][2 * h], ei = acc_e[t][j][2 * h + 1];
        const double orr = x * acc_o[t][j][2 * h], oi = x * acc_o[t][j][2 * h + 1];
        F[((long long)(b0 + f) * nlat + p) * mc + m] = make_float2((float)(er + orr), (float)(ei + oi));
        if (sr != p)
          F[((long long)(b0 + f) * nlat + sr) * mc + m] = make_float2((float)(er - orr), (float)(ei - oi));
      }
    }
}
'''


def main():
    lmax, batch = int(sys.argv[1]), int(sys.argv[2])
    opts, val = options(sys.argv[3:])
    mt, nwarp, span = val.get("MT", 2), val.get("NWARP", 4), val.get("SPAN", 32)
    plan, x, w, seed, polar, chain, off = tables(lmax)
    q = coefficients(plan, batch)
    kern = cp.RawKernel(SRC, "synth_dmma", options=opts)
    dyn = (2 * span * 68 + 4 * (span + 4)) * 8
    kern.max_dynamic_shared_size_bytes = dyn
    dev = [cp.asarray(a) for a in (x, seed, polar, chain, off, q)]
    F = cp.zeros((batch, plan.nlat, plan.mc, 2), cp.float32)
    pw = nwarp * 16 * mt
    grid = (-(-plan.npairs // pw), plan.mc, -(-batch // 16))
    args = (*dev, F, np.int32(lmax), np.int32(plan.mc), np.int32(plan.nlat),
            np.int32(plan.npairs), np.int32(plan.nlm), np.int32(batch))
    kern(grid, (32 * nwarp,), args, shared_mem=dyn)
    cp.cuda.Device().synchronize()
    print(f"lmax {lmax} B {batch} {' '.join(opts)}: registers {kern.attributes['num_regs']}, "
          f"shared {dyn} B, grid {grid}", flush=True)
    if "-noref" not in sys.argv:
        check_synthesis(plan, q, F.get())
    time_kernel(cp, lambda: kern(grid, (32 * nwarp,), args, shared_mem=dyn))

if __name__ == "__main__":
    main()
