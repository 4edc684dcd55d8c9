"""Here: `build_auto.py OUT`: the CUDA batch plans (fields_per_thread=4) of this tree twice,
OUT/std with recurrence="standard" (the float32 scheme in both stages, the default before)
and OUT/auto with recurrence="auto" (its analysis on tensor cores), as l{lmax}_b{batch}
(one module per plan, copied per batch size), and OUT/chk/g1023_b4: `ireesht build` of the
auto plan for `ireesht check --artifacts`."""
import shutil
import sys
import ireesht

out = sys.argv[1]
weather = dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")
plans = {"l1023_b{}": (dict(lmax=1023), (1, 4, 8, 16)), "l511_b{}": (dict(lmax=511), (16,)),
         "l720_b{}_weather": (weather, (16,))}
for tag, rec in (("std", "standard"), ("auto", "auto")):
    for name, (kw, batches) in plans.items():
        kw = dict(kw)
        first = f"{out}/{tag}/{name.format(batches[0])}"
        ireesht.build(kw.pop("lmax"), first, targets=("cuda",), fields_per_thread=4,
                      recurrence=rec, **kw)
        for b in batches[1:]:
            shutil.copytree(first, f"{out}/{tag}/{name.format(b)}")
        print(tag, name, flush=True)
ireesht.build(1023, f"{out}/chk/g1023_b4", targets=("cuda",), fields_per_thread=4)
