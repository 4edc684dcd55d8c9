"""How much of the MLIR Legendre synthesis's work lies below the counting threshold.

A host model (numpy, float64) of kernels/mlir/leg_synth.mlir's loop iterations: per order
m, the pairs after the ones m skips (``polar[m]``, ireesht/legendre.py ``polar_rows``)
in warps of 32 threads x ``kp`` pairs, each warp running ceil((lmax + 1 - m) / 4)
iterations of four degrees. It finds, per (m, pair), the first degree whose |P_lm| reaches
2^(THRESHOLD_BITS - SCALE_BITS) (where the kernels start counting values), and prints the
iterations a warp would run if its pairs started there (from a table of start values)
instead of at l = m, how many of today's iterations have no pair, some pairs or every
pair counting, and how many pair-degrees lie below the threshold (the steps a table of
start states would take). Run: ``python tools/legendre_work.py --lmax 1023`` (5 s; O(lmax^3)).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ireesht import legendre  # noqa: E402
from ireesht.plan import Plan  # noqa: E402


def first_counted(lmax: int, cost: np.ndarray, sint: np.ndarray, drop: float) -> np.ndarray:
    """(lmax+1, npairs) int: for each (m, pair) the first l >= m with log2 |P_lm| >= drop,
    lmax + 1 where there is none. The float64 recurrence in l for every m at once, with the
    values carried as y 2^e (exact power-of-two rescaling) so that nothing underflows."""
    mc, n = lmax + 1, cost.size
    m = np.arange(mc, dtype=np.float64)[:, None]
    logc = np.log2(np.abs(legendre.seed_constants(lmax)))[:, None]
    log_seed = logc + m * np.log2(np.maximum(sint, np.finfo(np.float64).tiny))[None, :]
    e = np.floor(log_seed)
    y1 = 2.0 ** (log_seed - e)  # P_{l-1} / 2^e
    y2 = np.zeros((mc, n))  # P_{l-2} / 2^e
    first = np.where(log_seed >= drop, np.arange(mc)[:, None], lmax + 1) * np.ones((1, n), int)
    for l in range(1, lmax + 1):
        ms = np.arange(l)[:, None].astype(np.float64)  # the orders with l > m
        a = np.sqrt((4.0 * l * l - 1) / (l * l - ms * ms))
        b = -np.sqrt(((l - 1.0) ** 2 - ms * ms) / (4.0 * (l - 1) ** 2 - 1)) * a
        y = a * cost[None, :] * y1[:l] + b * y2[:l]
        y2[:l], y1[:l] = y1[:l], y
        big = np.abs(y) > 2.0 ** 200
        y1[:l][big] *= 2.0 ** -200
        y2[:l][big] *= 2.0 ** -200
        e[:l][big] += 200
        counted = np.log2(np.maximum(np.abs(y1[:l]), 1e-300)) + e[:l] >= drop
        first[:l] = np.where((first[:l] > lmax) & counted, l, first[:l])
    return first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lmax", type=int, default=1023)
    ap.add_argument("--kp", type=int, default=2, help="pairs per thread (leg_synth: 2)")
    args = ap.parse_args()
    plan = Plan.create(args.lmax, target="cuda")
    g, n, lmax = plan.make_grid(), plan.npairs, args.lmax
    cost, sint = g.cost[:n], g.sint[:n]
    skip = legendre.polar_rows(lmax, lmax, cost, sint, np.float32)
    drop = legendre.THRESHOLD_BITS - legendre.SCALE_BITS
    first = first_counted(lmax, cost, sint, drop)
    per_warp = 32 * args.kp
    now = start = none = some = every = 0
    for m in range(lmax + 1):
        for w0 in range(int(skip[m]), n, per_warp):
            f = first[m, w0:w0 + per_warp]
            iters = -(-(lmax + 1 - m) // 4)
            now += iters
            lo = min(int(f.min()), lmax + 1)
            lo -= (lo - m) % 4  # a warp starts on an iteration boundary
            start += -(-(lmax + 1 - lo) // 4)
            a = min((int(f.min()) - m) // 4, iters)  # iterations before any pair counts
            b = min(-(-(int(f.max()) - m) // 4), iters)  # ... before every pair counts
            none, some, every = none + a, some + b - a, every + iters - b
    print(f"lmax {lmax}, {per_warp} pairs per warp, counting from 2^{drop}:")
    print(f"  warp iterations of 4 degrees now: {now}")
    print(f"    no pair counting: {none}, some: {some}, every pair: {every}")
    print(f"  starting each warp where its first pair counts: {start} ({start / now:.3f})")
    # the work a table of start states must do: each pair's steps before it counts
    m = np.arange(lmax + 1)[:, None]
    ran = np.arange(n)[None, :] >= skip[:, None]  # the (m, pair) the kernels run
    below = np.minimum(first, lmax + 1) - m
    print(f"  pair-degrees run: {int(((lmax + 1 - m) * ran).sum())}, of them below the "
          f"threshold: {int((below * ran).sum())}")


if __name__ == "__main__":
    main()
