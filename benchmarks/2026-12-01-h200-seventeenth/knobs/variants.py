"""apply(tag): set kernels_mlir's knobs of the tensor-core synthesis per tag (build time):
warps per workgroup, flush of the products every 16 steps, register cap, tiles skipped past
the batch."""
from ireesht import kernels_mlir as k

KNOBS = {"w4f": (4, True, 128, False), "w8f": (8, True, 128, False), "w8n": (8, False, 128, False),
         "w4n": (4, False, 96, False), "ns": (4, True, None, False), "s": (4, True, None, True),
         "s128": (4, True, 128, True)}


def apply(tag):
    k.MMA_WARPS, k.MMA_FLUSH, k.MMA_MAXNREG, k.MMA_SKIP = KNOBS[tag]
