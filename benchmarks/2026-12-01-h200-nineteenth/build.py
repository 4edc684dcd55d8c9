"""Here: `build.py OUT TAG NAME...`: this run's plans into OUT/TAG/NAME (CUDA), built by the
ireesht on PYTHONPATH (TAG names that code: base, the commit before this run's change)."""
import sys
import ireesht
out, tag = sys.argv[1], sys.argv[2]
weather = dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")
plans = {
    "l255_b1": dict(lmax=255), "l511_b1": dict(lmax=511), "l1023_b1": dict(lmax=1023),
    "l2047_b1": dict(lmax=2047), "l1023_b16": dict(lmax=1023, fields_per_thread=4),
    "l1023_b16_mma": dict(lmax=1023, fields_per_thread=4, recurrence="ishioka"),
    "l720_b1_weather": weather, "l720_b16_weather": dict(weather, fields_per_thread=4),
}
for name in sys.argv[3:]:
    kw = dict(plans[name])
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
