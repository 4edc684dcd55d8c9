"""Here: `build.py OUT TAG NAME...`: the plans of this run's A/B into OUT/TAG/NAME (CUDA).
Tag base: the float32 scheme with fields_per_thread=4 (the default); mma: the same with
recurrence="ishioka" (the synthesis and, up to 512 pairs, the analysis on tensor cores)."""
import sys
import ireesht
out, tag = sys.argv[1], sys.argv[2]
plans = {
    "l1023_b16": dict(lmax=1023), "l1023_b8": dict(lmax=1023), "l1023_b4": dict(lmax=1023),
    "l1023_b3": dict(lmax=1023), "l767_b16": dict(lmax=767), "l511_b16": dict(lmax=511),
    "l600_b16_m500_odd": dict(lmax=600, mmax=500, nlat=601, nphi=1200),
    "l255_b16": dict(lmax=255), "l1023_b1": dict(lmax=1023),
    "l720_b16_weather": dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular"),
}
kw_tag = {"base": dict(fields_per_thread=4),
          "mma": dict(fields_per_thread=4, recurrence="ishioka")}[tag]
for name in sys.argv[3:]:
    kw = {**plans[name], **kw_tag}
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
