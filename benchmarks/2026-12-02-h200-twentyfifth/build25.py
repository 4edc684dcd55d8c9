"""build25.py OUT TAG COUNTS LMAX...: one-field CUDA modules of the tree on PYTHONPATH, with
leg_analys_lanes64.mlir's copies for the pairs per thread in COUNTS (comma-separated,
ascending, the last kp) instead of kernels_mlir._lanes64_counts's; "-" keeps those."""
import sys
from pathlib import Path
import ireesht
from ireesht import kernels_mlir
out, tag, counts, *ls = sys.argv[1:]
if counts != "-":
    kernels_mlir._lanes64_counts = lambda kp, wg: [int(c) for c in counts.split(",")]
Path(out, tag).mkdir(parents=True, exist_ok=True)
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for lmax in map(int, ls):
    name, kw = (f"l{lmax}_b1_weather", weather) if lmax == 720 else (f"l{lmax}_b1", {})
    ireesht.build(lmax, f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
