import sys
import ireesht
out = sys.argv[1]
plans = {"l255_b1": dict(lmax=255), "l511_b1": dict(lmax=511),
         "l720_b1_e1440": dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular"),
         "l360_b1_e1440": dict(lmax=360, grid="equiangular"),
         "l1023_b1": dict(lmax=1023)}
for name, kw in plans.items():
    L = kw.pop("lmax")
    ireesht.build(L, f"{out}/{name}", targets=("cuda",), **kw)
    print(name, flush=True)
