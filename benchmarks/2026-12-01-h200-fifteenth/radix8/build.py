"""Build the CUDA modules of the radix-8 A/B into DIR/<tag>/<plan> with the package on
PYTHONPATH: float32, lmax 511, 1023, 2047 (one field), 127 and 1023 with 16 fields (four per
thread), 721 x 1440 at lmax 720. Usage: PYTHONPATH=PKG python build.py DIR TAG"""
import sys
import ireesht

out, tag = sys.argv[1], sys.argv[2]
plans = {"l511_b1": dict(lmax=511), "l1023_b1": dict(lmax=1023), "l2047_b1": dict(lmax=2047),
         "l127_b16": dict(lmax=127, fields_per_thread=4),
         "l1023_b16": dict(lmax=1023, fields_per_thread=4),
         "l720_b1_e1440": dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")}
for name, kw in plans.items():
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, ireesht.__file__, flush=True)
