"""Here: `build.py OUT TAG NAME...`: the plans of this run's A/B into OUT/TAG/NAME (CUDA).
Tags base, mma16 and mma8 set the plan (mmaall: mma16's on every grid, MMA_PAIRS 0); the tags
of knobs/variants.py take mma16's plan with that module's knobs of the tensor-core synthesis
(knobs/knobs.patch applied first)."""
import sys
from pathlib import Path
import ireesht
out, tag = sys.argv[1], sys.argv[2]
plans = {
    "l127_b16": dict(lmax=127), "l511_b16": dict(lmax=511), "l1023_b16": dict(lmax=1023),
    "l100_b5_m80_odd": dict(lmax=100, mmax=80, nlat=101),
    "l1023_b4": dict(lmax=1023), "l255_b16": dict(lmax=255), "l1023_b8": dict(lmax=1023),
    "l767_b16": dict(lmax=767), "l1023_b1": dict(lmax=1023), "l1023_b3": dict(lmax=1023),
    "l1023_b20": dict(lmax=1023), "l600_b16_m500_odd": dict(lmax=600, mmax=500, nlat=601, nphi=1002),
}
kw_tag = {"base": dict(fields_per_thread=4), "mma16": dict(fields_per_thread=4, recurrence="ishioka"),
          "mma8": dict(fields_per_thread=2, recurrence="ishioka")}.get(tag)
if tag == "mmaall":
    from ireesht import kernels_mlir
    kernels_mlir.MMA_PAIRS = 0
    kw_tag = dict(fields_per_thread=4, recurrence="ishioka")
if kw_tag is None:
    sys.path.insert(0, str(Path(__file__).parent / "knobs"))
    import variants
    variants.apply(tag)
    kw_tag = dict(fields_per_thread=4, recurrence="ishioka")
for name in sys.argv[3:]:
    kw = {**plans[name], **kw_tag}
    ireesht.build(kw.pop("lmax"), f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
