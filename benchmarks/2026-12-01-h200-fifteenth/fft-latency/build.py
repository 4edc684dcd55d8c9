"""Build the CUDA modules of the FFT A/B into DIR/<tag>/<plan> with the package on
PYTHONPATH: float32, lmax 1023 and 2047 (one field), 1023 with 16 fields (four per thread),
and the weather grid 721 x 1440 at lmax 720 (radix-3 and -5 passes).
Usage: PYTHONPATH=PKG python build.py DIR TAG"""
import sys
import ireesht

out, tag = sys.argv[1], sys.argv[2]
plans = {"l1023_b1": dict(lmax=1023), "l2047_b1": dict(lmax=2047),
         "l1023_b16": dict(lmax=1023, fields_per_thread=4),
         "l720_b1_e1440": dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")}
for name, kw in plans.items():
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, ireesht.__file__, flush=True)
