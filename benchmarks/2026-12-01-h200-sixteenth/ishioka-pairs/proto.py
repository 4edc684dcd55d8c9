"""On the GPU machine: a CUDA C prototype (CuPy) of a Legendre analysis that keeps four
latitude pairs per thread, as kernels/mlir/leg_analys.mlir does, but runs the Ishioka
recurrence in float64 (ireesht/ishioka.py) and sums in float64 per thread (three fused
multiply-adds per degree and pair), then reduces the workgroup's partial sums in float32 as
leg_analys.mlir does. One field, Gauss grid; no careful loop (seeds below float64's range
start at 0: exact at lmax 1023, where none is, timing only at 2047). Checks against the
coefficients q of a field F synthesized in float64 (lmax 1023, data.npz from make_data.py),
and times the kernel (CUDA events; Nsight Compute: kernel name "proto").
Usage: proto.py LMAX [data.npz]"""
import sys
import time
import numpy as np
try:
    import cupy as cp
except ImportError:  # tables() only (make_data.py, emulation)
    cp = None
from ireesht import ishioka, legendre
from ireesht.grid import make_grid
from ireesht.plan import Plan

SRC = r'''
#define KP 4
#define NT 128
#define SPAN 16
extern "C" __global__ void __launch_bounds__(NT) proto(
    const double* __restrict__ xs, const double* __restrict__ ws, const double* __restrict__ seed,
    const int* __restrict__ polar, const double* __restrict__ chain,
    const long long* __restrict__ chain_off, const float* __restrict__ F, float* __restrict__ q,
    int lmax, int mc, int nlat, int npairs)
{
  __shared__ double ab_s[SPAN][2];
  __shared__ float part[SPAN * 4][NT + 1];
  __shared__ float pieces[NT];
  __shared__ float S[SPAN * 4 + 4];
  const int m = blockIdx.x, lid = threadIdx.x;
  const int nsteps = (lmax - m) / 2 + 1;
  const long long row0 = chain_off[m];
  const long long mstart = (long long)m * (2 * lmax + 3 - m) / 2;
  const int nl = lmax + 1 - m;
  const int skip = polar[m];
  if (skip >= npairs) {
    for (int t = lid; t < 2 * nl; t += NT) q[mstart * 2 + t] = 0.f;
    return;
  }
  for (int c0 = skip; c0 < npairs; c0 += NT * KP) {
    const bool first = c0 == skip;
    double u[KP], ger[KP], gei[KP], gor[KP], goi[KP], y[KP], yp[KP];
#pragma unroll
    for (int i = 0; i < KP; i++) {
      int p = c0 + lid * KP + i;
      bool valid = p < npairs;
      int pc = valid ? p : npairs - 1;
      double x = xs[pc];
      u[i] = x * x;
      double w = valid ? ws[pc] : 0.0;
      int s = nlat - 1 - pc;
      float fnr = F[((long long)pc * mc + m) * 2], fni = F[((long long)pc * mc + m) * 2 + 1];
      float fsr = s == pc ? 0.f : F[((long long)s * mc + m) * 2];
      float fsi = s == pc ? 0.f : F[((long long)s * mc + m) * 2 + 1];
      ger[i] = w * ((double)fnr + fsr); gei[i] = w * ((double)fni + fsi);
      gor[i] = w * x * ((double)fnr - fsr); goi[i] = w * x * ((double)fni - fsi);
      y[i] = seed[(long long)m * npairs + pc]; yp[i] = 0.0;
    }
    if (lid < 4) S[lid] = 0.f;
    for (int k0 = 0; k0 < nsteps; k0 += SPAN) {
      const int cnt = min(SPAN, nsteps - k0);
      __syncthreads();
      if (lid < SPAN) {
        long long r = row0 + min(k0 + lid, nsteps - 1);
        ab_s[lid][0] = chain[r * 5]; ab_s[lid][1] = chain[r * 5 + 1];
      }
      __syncthreads();
      for (int j = 0; j < cnt; j++) {
        double a = ab_s[j][0], b = ab_s[j][1];
        double ser = y[0] * ger[0], sei = y[0] * gei[0], sor = y[0] * gor[0], soi = y[0] * goi[0];
#pragma unroll
        for (int i = 1; i < KP; i++) {
          ser = fma(y[i], ger[i], ser); sei = fma(y[i], gei[i], sei);
          sor = fma(y[i], gor[i], sor); soi = fma(y[i], goi[i], soi);
        }
        part[j * 4][lid] = (float)ser; part[j * 4 + 1][lid] = (float)sei;
        part[j * 4 + 2][lid] = (float)sor; part[j * 4 + 3][lid] = (float)soi;
#pragma unroll
        for (int i = 0; i < KP; i++) {
          double t = fma(a, u[i], b);
          double yn = fma(t, y[i], yp[i]);
          yp[i] = y[i]; y[i] = yn;
        }
      }
      __syncthreads();
      const int v = lid & 63, h = lid >> 6;
      float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
      if (v < 4 * cnt) {
        for (int k = 0; k < 64; k += 4) {
          s0 += part[v][h * 64 + k]; s1 += part[v][h * 64 + k + 1];
          s2 += part[v][h * 64 + k + 2]; s3 += part[v][h * 64 + k + 3];
        }
      }
      pieces[lid] = (s0 + s1) + (s2 + s3);
      __syncthreads();
      if (lid < 4 * cnt) S[4 + lid] = pieces[lid] + pieces[lid + 64];
      __syncthreads();
      if (lid < 4 * cnt) {
        const int j = lid >> 2, c = lid & 3, k = k0 + j;
        const double* row = chain + (row0 + k) * 5;
        long long idx; double val; bool in;
        if (c < 2) {
          double e2p = k > 0 ? row[-5 + 3] : 0.0;
          val = row[2] * (double)S[4 + 4 * j + c] + e2p * (double)S[4 * j + c];
          idx = (mstart + 2 * k) * 2 + c; in = 2 * k < nl;
        } else {
          val = row[4] * (double)S[4 + 4 * j + c];
          idx = (mstart + 2 * k + 1) * 2 + c - 2; in = 2 * k + 1 < nl;
        }
        if (in) q[idx] = first ? (float)val : q[idx] + (float)val;
      }
      __syncthreads();
      if (lid < 4) S[lid] = S[4 + 4 * (cnt - 1) + lid];
    }
    __syncthreads();
  }
}
'''


def tables(lmax):
    plan = Plan.create(lmax, target="cuda")
    g = make_grid("gauss", plan.nlat, plan.nphi)
    p = plan.npairs
    x = g.cost[:p].astype(np.float64)
    w = g.weights[:p] * 2 * np.pi
    st = legendre.seed_table(plan.mmax, g.sint[:p], np.float64)  # (mc, p, 2): y 2^(256 k)
    seed = np.ldexp(st[..., 0], (256 * st[..., 1]).astype(np.int64))
    seed *= ishioka.seed_factor(np.arange(plan.mc))[:, None]
    polar = plan.tables()["polar"].astype(np.int32)
    chain = ishioka.chain_table(lmax, plan.mmax)
    off = np.array([ishioka.offset(lmax, m) for m in range(plan.mc)], np.int64)
    return plan, x, w, seed, polar, chain, off


def main():
    lmax = int(sys.argv[1])
    plan, x, w, seed, polar, chain, off = tables(lmax)
    if len(sys.argv) > 2:
        d = np.load(sys.argv[2])
        F, qref = d["F"], d["q"]
    else:
        F = np.random.default_rng(1).standard_normal((plan.nlat, plan.mc, 2)).astype(np.float32)
        qref = None
    kern = cp.RawKernel(SRC, "proto")
    dev = [cp.asarray(a) for a in (x, w, seed, polar, chain, off, F)]
    q = cp.zeros((plan.nlm, 2), cp.float32)
    args = (*dev, q, np.int32(lmax), np.int32(plan.mc), np.int32(plan.nlat), np.int32(plan.npairs))
    kern((plan.mc,), (128,), args)
    cp.cuda.Device().synchronize()
    print(f"lmax {lmax}: registers {kern.attributes['num_regs']}, "
          f"shared {kern.attributes['shared_size_bytes']} B")
    if qref is not None:
        qq = q.get()
        err = np.linalg.norm(qq[:, 0] + 1j * qq[:, 1] - qref) / np.linalg.norm(qref)
        print(f"  analysis error against q: {err:.2e}")
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(30):
        ev0.record()
        kern((plan.mc,), (128,), args)
        ev1.record()
        ev1.synchronize()
        ts.append(cp.cuda.get_elapsed_time(ev0, ev1) * 1e3)
    print(f"  kernel (CUDA events, boost clock): median {np.median(ts):.1f} us, min {min(ts):.1f}")


if __name__ == "__main__":
    main()
