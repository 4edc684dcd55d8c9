"""Here: `build_l64b.py OUT`: the one-field CUDA modules of this tree (leg_analys_lanes64.mlir
with two steps per loop, the default on CUDA grids of more than 256 pairs) as OUT/new2/
l1023_b1, l2047_b1, l767_b1 and l720_b1_weather, and OUT/chk2/g1023, g2047, e720_1440
(`ireesht build`, CUDA) for `ireesht check --artifacts`."""
import sys
import ireesht

out = sys.argv[1]
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for name, lmax, kw in (("l1023_b1", 1023, {}), ("l2047_b1", 2047, {}), ("l767_b1", 767, {}),
                       ("l720_b1_weather", 720, weather)):
    ireesht.build(lmax, f"{out}/new2/{name}", targets=("cuda",), **kw)
ireesht.build(1023, f"{out}/chk2/g1023", targets=("cuda",))
ireesht.build(2047, f"{out}/chk2/g2047", targets=("cuda",))
ireesht.build(720, f"{out}/chk2/e720_1440", targets=("cuda",), **weather)
