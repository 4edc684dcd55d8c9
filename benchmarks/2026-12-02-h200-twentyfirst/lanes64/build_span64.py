"""Here: `build_span64.py OUT`: the one-field CUDA modules of e008b70 with leg_analys_lanes64.mlir
on spans of 64 steps where its workgroup memory allows (64 threads: lmax 1023, 767, 721 x
1440) as OUT/span64/<plan>, and OUT/chk3/g1023 for `ireesht check --artifacts`."""
import sys
import ireesht
from ireesht import kernels_mlir

out = sys.argv[1]
kernels_mlir.LANES64_SPAN = 64
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for name, lmax, kw in (("l1023_b1", 1023, {}), ("l767_b1", 767, {}),
                       ("l720_b1_weather", 720, weather)):
    ireesht.build(lmax, f"{out}/span64/{name}", targets=("cuda",), **kw)
ireesht.build(1023, f"{out}/chk3/g1023", targets=("cuda",))
