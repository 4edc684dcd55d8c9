"""build_kp4.py OUT TAG COUNTS: the lmax 1023 one-field CUDA module of the tree on PYTHONPATH
with four pairs per thread in leg_analys_lanes64.mlir (LANES64_PAIRS = 4: workgroups of 128
threads) and its copies for the pairs per thread in COUNTS (comma-separated; "-" keeps
kernels_mlir._lanes64_counts's)."""
import sys

from ireesht import kernels_mlir

kernels_mlir.LANES64_PAIRS = 4
if sys.argv[3] != "-":
    kernels_mlir._lanes64_counts = lambda kp, wg: [int(c) for c in sys.argv[3].split(",")]
import ireesht  # noqa: E402

ireesht.build(1023, f"{sys.argv[1]}/{sys.argv[2]}/l1023_b1", targets=("cuda",))
