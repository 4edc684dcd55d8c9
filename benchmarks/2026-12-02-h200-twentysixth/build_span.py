"""build_span.py OUT TAG SPAN LMAX...: the twenty-fourth run's build24.py (one-field CUDA
modules of the tree on PYTHONPATH) with leg_analys_lanes64.mlir's steps per span at most
SPAN (kernels_mlir.LANES64_SPAN) instead of the product's."""
import runpy
import sys
from pathlib import Path

from ireesht import kernels_mlir

kernels_mlir.LANES64_SPAN = int(sys.argv.pop(3))
runpy.run_path(str(Path(__file__).parents[1] / "2026-12-02-h200-twentyfourth" / "build24.py"),
               run_name="__main__")
