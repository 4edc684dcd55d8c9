"""On the GPU machine (twenty-third run): a CUDA C prototype (CuPy) of a Legendre synthesis of
many fields per thread on CUDA cores. The Ishioka chain (ireesht/ishioka.py) runs once per
latitude pair in float64 and is shared by the thread's NF fields; each step makes the pair's
even value e1_k y_k + e2_{k-1} y_{k-1} and its odd value y_k in float64, rounds each once to
float32, and adds both times the staged coefficients of the NF fields with float32 fused
multiply-adds (4 NF per step; the coefficients are broadcast from workgroup memory, one
16-byte load per field: qe re, im, g_k qo re, im). Gauss grid, seeds in float64 (all live at
lmax 1023). Checks fields 0 and B-1 against the float64 reference (ireesht.reference, through
numpy's FFT), times the kernel (CUDA events at the boost clock; Nsight Compute: kernel name
"synth_fields").
Usage: synth_fields.py LMAX B [-noref: no check] [nvrtc options: -DNF=16 fields per thread, -DKP=1 pairs per
thread, -DNT=128 threads per workgroup, -DSPAN=32 steps per span, -DMINB=1]"""
import sys
import numpy as np
try:
    import cupy as cp
except ImportError:
    cp = None

from proto_common import check_synthesis, coefficients, options, tables, time_kernel

SRC = r'''
#ifndef NF
#define NF 16
#endif
#ifndef KP
#define KP 1
#endif
#ifndef NT
#define NT 128
#endif
#ifndef SPAN
#define SPAN 32
#endif
#ifndef MINB
#define MINB 1
#endif
extern "C" __global__ void __launch_bounds__(NT, MINB) synth_fields(
    const double* __restrict__ xs, const double* __restrict__ seed, const int* __restrict__ polar,
    const double* __restrict__ chain, const long long* __restrict__ chain_off,
    const float2* __restrict__ q, float2* __restrict__ F,
    int lmax, int mc, int nlat, int npairs, int nlm, int B)
{
  __shared__ float4 qs[SPAN][NF];
  __shared__ double2 cab[SPAN], cee[SPAN];   // (alpha_k, beta_k), (e1_k, e2_{k-1})
  const int m = blockIdx.y, lid = threadIdx.x, b0 = blockIdx.z * NF;
  const int nsteps = (lmax - m) / 2 + 1, nl = lmax + 1 - m;
  const long long row0 = chain_off[m];
  const long long mstart = (long long)m * (2 * lmax + 3 - m) / 2;
  const int skip = polar[m];
  for (int p = blockIdx.x * NT + lid; p < skip; p += gridDim.x * NT)
    for (int f = 0; f < NF; f++) {
      if (b0 + f >= B) break;
      F[((long long)(b0 + f) * nlat + p) * mc + m] = make_float2(0.f, 0.f);
      F[((long long)(b0 + f) * nlat + nlat - 1 - p) * mc + m] = make_float2(0.f, 0.f);
    }
  const int pbase = skip + blockIdx.x * NT * KP;
  if (pbase >= npairs) return;
  double u[KP], y[KP], yp[KP];
  float acc[KP][NF][4];
#pragma unroll
  for (int i = 0; i < KP; i++) {
    int p = pbase + lid + i * NT;
    int pc = min(p, npairs - 1);
    double x = xs[pc];
    u[i] = x * x;
    y[i] = p < npairs ? seed[(long long)m * npairs + pc] : 0.0;
    yp[i] = 0.0;
#pragma unroll
    for (int f = 0; f < NF; f++)
#pragma unroll
      for (int c = 0; c < 4; c++) acc[i][f][c] = 0.f;
  }
  for (int k0 = 0; k0 < nsteps; k0 += SPAN) {
    const int cnt = min(SPAN, nsteps - k0);
    __syncthreads();
    for (int t = lid; t < SPAN * NF; t += NT) {
      const int f = t / SPAN, j = t % SPAN, k = k0 + j;
      const int b = min(b0 + f, B - 1);
      const float2* qb = q + (long long)b * nlm + mstart;
      float2 qe = make_float2(0.f, 0.f), qo = make_float2(0.f, 0.f);
      if (k < nsteps && 2 * k < nl) qe = qb[2 * k];
      if (k < nsteps && 2 * k + 1 < nl) {
        float g = (float)chain[(row0 + k) * 5 + 4];
        qo = qb[2 * k + 1];
        qo.x *= g; qo.y *= g;
      }
      qs[j][f] = make_float4(qe.x, qe.y, qo.x, qo.y);
    }
    for (int t = lid; t < SPAN; t += NT) {
      const long long r = row0 + min(k0 + t, nsteps - 1);
      const double e2p = k0 + t > 0 ? chain[(r - 1) * 5 + 3] : 0.0;
      cab[t] = make_double2(chain[r * 5], chain[r * 5 + 1]);
      cee[t] = make_double2(chain[r * 5 + 2], e2p);
    }
    __syncthreads();
#pragma unroll 2
    for (int j = 0; j < cnt; j++) {
      const double2 ab = cab[j], ee = cee[j];
      float ev[KP], ov[KP];
#pragma unroll
      for (int i = 0; i < KP; i++) {
        ev[i] = (float)fma(ee.x, y[i], ee.y * yp[i]);
        ov[i] = (float)y[i];
        const double t = fma(ab.x, u[i], ab.y);
        const double yn = fma(t, y[i], yp[i]);
        yp[i] = y[i]; y[i] = yn;
      }
#pragma unroll
      for (int f = 0; f < NF; f++) {
        const float4 qq = qs[j][f];
#pragma unroll
        for (int i = 0; i < KP; i++) {
          acc[i][f][0] = fmaf(ev[i], qq.x, acc[i][f][0]);
          acc[i][f][1] = fmaf(ev[i], qq.y, acc[i][f][1]);
          acc[i][f][2] = fmaf(ov[i], qq.z, acc[i][f][2]);
          acc[i][f][3] = fmaf(ov[i], qq.w, acc[i][f][3]);
        }
      }
    }
  }
#pragma unroll
  for (int i = 0; i < KP; i++) {
    const int p = pbase + lid + i * NT;
    if (p >= npairs) continue;
    const float x = (float)xs[p];
    const int s = nlat - 1 - p;
#pragma unroll
    for (int f = 0; f < NF; f++) {
      if (b0 + f >= B) break;
      const float er = acc[i][f][0], ei = acc[i][f][1];
      const float orr = x * acc[i][f][2], oi = x * acc[i][f][3];
      F[((long long)(b0 + f) * nlat + p) * mc + m] = make_float2(er + orr, ei + oi);
      if (s != p) F[((long long)(b0 + f) * nlat + s) * mc + m] = make_float2(er - orr, ei - oi);
    }
  }
}
'''


def main():
    lmax, batch = int(sys.argv[1]), int(sys.argv[2])
    opts, val = options(sys.argv[3:])
    nf, kp, nt = val.get("NF", 16), val.get("KP", 1), val.get("NT", 128)
    plan, x, w, seed, polar, chain, off = tables(lmax)
    q = coefficients(plan, batch)
    kern = cp.RawKernel(SRC, "synth_fields", options=opts)
    dev = [cp.asarray(a) for a in (x, seed, polar, chain, off, q)]
    F = cp.zeros((batch, plan.nlat, plan.mc, 2), cp.float32)
    grid = (-(-plan.npairs // (nt * kp)), plan.mc, -(-batch // nf))
    args = (*dev, F, np.int32(lmax), np.int32(plan.mc), np.int32(plan.nlat),
            np.int32(plan.npairs), np.int32(plan.nlm), np.int32(batch))
    kern(grid, (nt,), args)
    cp.cuda.Device().synchronize()
    print(f"lmax {lmax} B {batch} {' '.join(opts)}: registers {kern.attributes['num_regs']}, "
          f"shared {kern.attributes['shared_size_bytes']} B, grid {grid}", flush=True)
    if "-noref" not in sys.argv:
        check_synthesis(plan, q, F.get())
    time_kernel(cp, lambda: kern(grid, (nt,), args))

if __name__ == "__main__":
    main()
