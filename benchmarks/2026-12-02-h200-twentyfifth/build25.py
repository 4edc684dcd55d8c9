"""build25.py OUT TAG COUNTS LMAX...: the twenty-fourth run's build24.py (one-field CUDA
modules of the tree on PYTHONPATH) with leg_analys_lanes64.mlir's copies for the pairs per
thread in COUNTS (comma-separated, ascending, the last kp) instead of
kernels_mlir._lanes64_counts's; "-" keeps those."""
import runpy
import sys
from pathlib import Path

from ireesht import kernels_mlir

counts = sys.argv.pop(3)
if counts != "-":
    kernels_mlir._lanes64_counts = lambda kp, wg: [int(c) for c in counts.split(",")]
runpy.run_path(str(Path(__file__).parents[1] / "2026-12-02-h200-twentyfourth" / "build24.py"),
               run_name="__main__")
