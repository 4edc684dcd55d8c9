"""Kernel facts that both variant selection (``ireesht.registry``) and code generation read:
which seeds a Legendre kernel starts live, and the shapes of the variants whose eligibility
depends on the grid. Host-side numpy only.

Each constant's comment says what was measured to set it; the tables with the figures are in
BENCHMARKS.md.
"""

from __future__ import annotations

import functools

import numpy as np

from ireesht.numerics import ishioka, legendre

# The float64 state of the Ishioka kernels carries y 2^(S k): a seed keeps its true value
# (k = 0, "live") where its scale in the seed table (2^(256 k), seed64) is 2^-LIVE or more
# (values down to 2^-896), which every seed the kernels run is at lmax 1023 (at 2047 all but
# 4%), so that nearly every warp takes the lean loop; a value whose k < 0 moves up a
# level once |y| > 2^T. T leaves 2^223 of headroom for the growth between two checks (8 steps
# of 2 degrees: at most 2^160 for lmax < 16384); LIVE keeps every live seed a normal float64,
# and S - LIVE = 40 bits above it keep the largest seeds (2^7) on level 0. Level sums (float32
# plans of one field whose lowest seeds are on level -1) add that level's values unscaled and
# scale the sums at the end: S keeps them finite for every float32 input.
ISHIOKA_SCALING = {"live_bits": 800, "scale_bits": 840, "threshold_bits": 800}

# Tensor-core kernels (CUDA, 3xTF32): fields per synthesis workgroup, the fewest latitude
# pairs the synthesis serves, and the most the analysis serves (a warp of 32 pairs each, 16
# warps at most).
MMA_FIELDS = 16
MMA_PAIRS = 256
MMA_ANALYS_PAIRS = 512

# The float32 scheme's analysis with one field sums over lane pairs on grids of 385-512 pairs
# (spans of 64 degrees): 12% faster at lmax 1023, slower at 511 and 2047.
LANE_PAIR_GRIDS = (385, 512)

# leg_analys_ishioka.mlir: steps per span; per target the most threads per workgroup and bytes
# of workgroup memory (a workgroup holds every latitude pair of its order, one or two per
# thread); the most pairs it serves (past 384 pairs, lmax 1023, it was slower than the float32
# scheme).
ISHIOKA_ANALYS_SPAN = 8
ISHIOKA_ANALYS_LIMITS = {"cuda": (1024, 48 * 1024), "vulkan": (128, 32768), "metal": (0, 0)}
ISHIOKA_ANALYS_PAIRS = 384

# leg_analys_lanes64.mlir (float64 lane sums): grids of at most SEGMENT_PAIRS pairs run each
# order in segments of steps(lmax, 0) / SEGMENTS - 1 steps (at least SEGMENT_MIN) from restart
# tables, so that the low orders' long chains do not leave the GPU waiting; larger grids run
# whole orders. H200: lmax 127 2x, 255 1.6x faster than the transposed sums; 721 x 1440 8%.
# the float64 lane sums' most pairs per thread (registry "lanes64" pairs 0): SPIR-V vectors hold
# four float64 values (eight failed to compile for Vulkan)
LANES64_PAIRS = {"cuda": 8, "vulkan": 4}
LANES64_SEGMENTS = 4
LANES64_SEGMENT_MIN = 15
LANES64_SEGMENT_PAIRS = 384


def seeds(req, dtype: type) -> np.ndarray:
    """The plan's seed table ``(mmax + 1, npairs, 2)`` in ``dtype`` (``legendre.seed_table``);
    a vector plan's carry 1 / sin(theta) (``numerics.vector``)."""
    g = req.make_grid()
    return legendre.seed_table(req.mmax, g.sint[:req.npairs], dtype,
                               over_sin=req.transform == "vector")


def polar(req) -> np.ndarray:
    """The pairs next to the pole each order skips (``legendre.polar_rows``), for the seeds
    of ``seeds``."""
    g, p = req.make_grid(), req.npairs
    return legendre.polar_rows(req.lmax, req.mmax, g.cost[:p], g.sint[:p],
                               np.dtype(req.dtype).type, over_sin=req.transform == "vector")


@functools.lru_cache(maxsize=32)
def lowest_seed_counter(req) -> int:
    """The lowest exponent counter k of the float64 seed table (``seed64``, which the Ishioka
    kernels read whatever the dtype) over the (order, pair) the Legendre kernels run (those
    that order m does not skip, ``legendre.polar_rows``)."""
    k = seeds(req, np.float64)[:, :, 1]
    skip = polar(req)
    run = np.arange(req.npairs)[None, :] >= skip[:, None]
    return int(k[run].min()) if run.any() else 0


def lowest_level(req, live_bits: int = ISHIOKA_SCALING["live_bits"],
                 scale_bits: int = ISHIOKA_SCALING["scale_bits"]) -> int:
    """The lowest level k' of the Ishioka kernels' float64 state over the seeds they run
    (``ISHIOKA_SCALING``, or the given bits): 0 when every one starts live."""
    table_bits = legendre.RESCALE_BITS["float64"][1]
    return (table_bits * lowest_seed_counter(req) + live_bits) // scale_bits


def ishioka_analys_shape(req) -> dict | None:
    """leg_analys_ishioka.mlir's sizes: ``kp`` pairs per thread (one up to 256 pairs, else
    two, else the other where the target's limits allow only that), ``nw`` groups of 32
    threads and its arrays; None past ``ISHIOKA_ANALYS_PAIRS`` or where no shape fits
    ``ISHIOKA_ANALYS_LIMITS``."""
    threads, memory = ISHIOKA_ANALYS_LIMITS.get(req.target, (0, 0))
    if req.npairs > ISHIOKA_ANALYS_PAIRS:
        return None
    sp = ISHIOKA_ANALYS_SPAN
    for kp in ((1, 2) if req.npairs <= 256 else (2, 1)):
        nw, nl = -(-req.npairs // (32 * kp)), 32 * kp
        rs = nl + 4  # 4 floats more per row: two rows' 16-byte loads in different banks
        z = dict(kp=kp, nw=nw, wg=32 * nw, nl=nl, sp=sp, rs=rs, group_floats=sp * rs,
                 ys_size=2 * nw * sp * rs, part_size=2 * nw * 32, ni=nl // 4)
        if 32 * nw <= threads and 4 * (z["ys_size"] + z["part_size"]) + 32 * sp + 32 <= memory:
            return z
    return None


def lanes64_segment_steps(req, segment_min: int = LANES64_SEGMENT_MIN) -> int:
    """Steps per segment of each order in leg_analys_lanes64.mlir's segments:
    steps(lmax, 0) / ``LANES64_SEGMENTS`` - 1, 0 where that is below ``segment_min``."""
    steps = ishioka.steps(req.lmax, 0) // LANES64_SEGMENTS - 1
    return steps if steps >= segment_min else 0

# The theta step's kernels (theta_analys "lowrank") keep an order's 2R sums in registers
# (unrolled): ranks up to 64 (the grids' limits have 23-30, ireesht.numerics.resample);
# larger ones, which only grids far from their limit have, take the linalg step.
THETA_KERNEL_RANK = 64
# Groups of rings the first kernel sums apart (its grid's y), one field per thread / batches:
# H100, lmax 719, analysis ms with 2 / 4 / 8 groups: 1 field 0.169 / 0.161 / 0.147, 16 fields
# 0.763 / 0.775 / 0.856 (BENCHMARKS.md, "Exact equiangular analysis")
THETA_GROUPS = (8, 2)
