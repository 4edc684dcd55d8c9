"""On the GPU machine (twenty-first run; the sixteenth run's ishioka-pairs/proto.py with
its workgroup sums in float64): a CUDA C prototype (CuPy) of a Legendre analysis that keeps four
latitude pairs per thread, as kernels/mlir/leg_analys.mlir does, but runs the Ishioka
recurrence in float64 (ireesht/ishioka.py) and sums in float64 per thread (three fused
multiply-adds per degree and pair), then reduces the workgroup's partial sums in float64: a
reduce-scatter over groups of four lanes with shuffles (lane c keeps value c), then
row sums of the groups' values in workgroup memory; one conversion per q value. One field, Gauss grid; no careful loop (seeds below float64's range
start at 0: exact at lmax 1023, where none is, timing only at 2047). Checks against the
coefficients q of a field F synthesized in float64 (lmax 1023, data.npz from make_data.py),
and times the kernel (CUDA events; Nsight Compute: kernel name "proto").
Usage: proto2.py LMAX [data.npz|-] [nvrtc options: -DKP=8 pairs per thread,
-DNT=64 threads per workgroup, -DSPAN=32 steps per span, -DMINB=5 workgroups per SM for
the register cap]"""
import sys
from pathlib import Path
import numpy as np
try:
    import cupy as cp
except ImportError:
    cp = None

sys.path.insert(0, str(Path(__file__).parents[2] / "2026-12-01-h200-sixteenth" / "ishioka-pairs"))
from proto import tables  # noqa: E402  (the prototype's tables: nodes, weights, seeds, chain)

SRC = r'''
#ifndef KP
#define KP 4
#endif
#ifndef NT
#define NT 128
#endif
#ifndef SPAN
#define SPAN 16
#endif
#define NG (NT / 4)
#define NV (4 * SPAN)
#define NH (NT >= NV ? NT / NV : 1)
#ifndef MINB
#define MINB 1
#endif
extern "C" __global__ void __launch_bounds__(NT, MINB) proto2(
    const double* __restrict__ xs, const double* __restrict__ ws, const double* __restrict__ seed,
    const int* __restrict__ polar, const double* __restrict__ chain,
    const long long* __restrict__ chain_off, const float* __restrict__ F, float* __restrict__ q,
    int lmax, int mc, int nlat, int npairs)
{
  __shared__ double ab_s[SPAN][2];
  __shared__ double part[SPAN * 4][NG + 1];
  __shared__ double pieces[NH * NV];
  __shared__ double S[SPAN * 4 + 4];
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
  const int c = lid & 3, grp = lid >> 2;
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
    if (lid < 4) S[lid] = 0.0;
    for (int k0 = 0; k0 < nsteps; k0 += SPAN) {
      const int cnt = min(SPAN, nsteps - k0);
      __syncthreads();
      for (int t = lid; t < SPAN; t += NT) {
        long long r = row0 + min(k0 + t, nsteps - 1);
        ab_s[t][0] = chain[r * 5]; ab_s[t][1] = chain[r * 5 + 1];
      }
      __syncthreads();
      for (int j = 0; j < cnt; j++) {
        double a = ab_s[j][0], b = ab_s[j][1];
        double s0 = y[0] * ger[0], s1 = y[0] * gei[0], s2 = y[0] * gor[0], s3 = y[0] * goi[0];
#pragma unroll
        for (int i = 1; i < KP; i++) {
          s0 = fma(y[i], ger[i], s0); s1 = fma(y[i], gei[i], s1);
          s2 = fma(y[i], gor[i], s2); s3 = fma(y[i], goi[i], s3);
        }
        // reduce-scatter over the 4 lanes of a group: lane c keeps value c
        {
          const bool hi = c & 2;
          double k0v = hi ? s2 : s0, k1v = hi ? s3 : s1;   // kept pair
          double g0v = hi ? s0 : s2, g1v = hi ? s1 : s3;   // given to lane ^ 2
          k0v += __shfl_xor_sync(0xffffffffu, g0v, 2);
          k1v += __shfl_xor_sync(0xffffffffu, g1v, 2);
          const bool odd = c & 1;
          double kv = odd ? k1v : k0v, gv = odd ? k0v : k1v;
          kv += __shfl_xor_sync(0xffffffffu, gv, 1);
          part[j * 4 + c][grp] = kv;
        }
#pragma unroll
        for (int i = 0; i < KP; i++) {
          double t = fma(a, u[i], b);
          double yn = fma(t, y[i], yp[i]);
          yp[i] = y[i]; y[i] = yn;
        }
      }
      __syncthreads();
      // row sums: value v over the NG groups, in NH pieces of NG / NH groups
      for (int t = lid; t < NH * NV; t += NT) {
        const int v = t % NV, h = t / NV;
        double r0 = 0.0, r1 = 0.0;
        if (v < 4 * cnt) {
#pragma unroll
          for (int k = 0; k < NG / NH; k += 2) {
            r0 += part[v][h * (NG / NH) + k]; r1 += part[v][h * (NG / NH) + k + 1];
          }
        }
        pieces[t] = r0 + r1;
      }
      __syncthreads();
      for (int t = lid; t < 4 * cnt; t += NT) {
        double r = pieces[t];
        for (int h = 1; h < NH; h++) r += pieces[h * NV + t];
        S[4 + t] = r;
      }
      __syncthreads();
      for (int t = lid; t < 4 * cnt; t += NT) {
        const int j = t >> 2, cc = t & 3, k = k0 + j;
        const double* row = chain + (row0 + k) * 5;
        long long idx; double val; bool in;
        if (cc < 2) {
          double e2p = k > 0 ? row[-5 + 3] : 0.0;
          val = row[2] * S[4 + 4 * j + cc] + e2p * S[4 * j + cc];
          idx = (mstart + 2 * k) * 2 + cc; in = 2 * k < nl;
        } else {
          val = row[4] * S[4 + 4 * j + cc];
          idx = (mstart + 2 * k + 1) * 2 + cc - 2; in = 2 * k + 1 < nl;
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


def main():
    lmax = int(sys.argv[1])
    plan, x, w, seed, polar, chain, off = tables(lmax)
    if len(sys.argv) > 2 and sys.argv[2] != "-":
        d = np.load(sys.argv[2])
        F, qref = d["F"], d["q"]
    else:
        F = np.random.default_rng(1).standard_normal((plan.nlat, plan.mc, 2)).astype(np.float32)
        qref = None
    opts = tuple(sys.argv[3:])
    nt = next((int(o[5:]) for o in opts if o.startswith("-DNT=")), 128)
    kern = cp.RawKernel(SRC, "proto2", options=opts)
    dev = [cp.asarray(a) for a in (x, w, seed, polar, chain, off, F)]
    q = cp.zeros((plan.nlm, 2), cp.float32)
    args = (*dev, q, np.int32(lmax), np.int32(plan.mc), np.int32(plan.nlat), np.int32(plan.npairs))
    kern((plan.mc,), (nt,), args)
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
        kern((plan.mc,), (nt,), args)
        ev1.record()
        ev1.synchronize()
        ts.append(cp.cuda.get_elapsed_time(ev0, ev1) * 1e3)
    print(f"  kernel (CUDA events, boost clock): median {np.median(ts):.1f} us, min {min(ts):.1f}")


if __name__ == "__main__":
    main()
