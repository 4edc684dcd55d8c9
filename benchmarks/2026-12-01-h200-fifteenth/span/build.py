"""Build the CUDA modules of the span A/B into DIR/<tag>/<plan> with the working tree and
variants.py's TAG: float32, one field, lmax 511, 1023, 2047 and 721 x 1440 at lmax 720.
Usage: python build.py DIR TAG"""
import sys
import ireesht
from variants import apply

out, tag = sys.argv[1], sys.argv[2]
apply(tag)
plans = {"l511_b1": dict(lmax=511), "l1023_b1": dict(lmax=1023), "l2047_b1": dict(lmax=2047),
         "l720_b1_e1440": dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")}
for name, kw in plans.items():
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
