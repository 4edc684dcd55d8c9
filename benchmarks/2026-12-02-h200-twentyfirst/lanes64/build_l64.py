"""Here: `build_l64.py OUT`: one-field CUDA modules of this tree for the A/B of the Legendre
analysis with float64 lane sums (leg_analys_lanes64.mlir): OUT/new/l1023_b1 and l2047_b1
(this tree's defaults: that kernel), OUT/new/l511_b1, l767_b1 and l720_b1_weather with the
kernel forced onto grids of at most 384 pairs (ISHIOKA_ANALYS_PAIRS 0), OUT/prod/ the same
three with this tree's defaults (leg_analys_ishioka.mlir); and OUT/chk/g1023, g2047 (`ireesht
build`, CUDA) for `ireesht check --artifacts`. The float32 scheme's modules at lmax 1023 and
2047 (OUT/prod/l1023_b1, l2047_b1) are copies of build.sh's."""
import sys
import ireesht
from ireesht import kernels_mlir

out = sys.argv[1]
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
small = {"l511_b1": (511, {}), "l767_b1": (767, {}), "l720_b1_weather": (720, weather)}
for name, lmax in (("l1023_b1", 1023), ("l2047_b1", 2047)):
    ireesht.build(lmax, f"{out}/new/{name}", targets=("cuda",))
    ireesht.build(lmax, f"{out}/chk/g{lmax}", targets=("cuda",))
for name, (lmax, kw) in small.items():
    ireesht.build(lmax, f"{out}/prod/{name}", targets=("cuda",), **kw)
kernels_mlir.ISHIOKA_ANALYS_PAIRS = 0
for name, (lmax, kw) in small.items():
    ireesht.build(lmax, f"{out}/new/{name}", targets=("cuda",), **kw)
    print(name, flush=True)
