"""Here: `build_small.py OUT`: one-field CUDA modules at lmax 255 and 511 (128 / 256 pairs)
with leg_analys_lanes64.mlir forced (LANES64_FROM_PAIRS 0) and four pairs per thread
(LANES64_PAIRS 4: workgroups of 32 / 64 threads) as OUT/small4/, this tree's defaults
(leg_analys_ishioka.mlir) as OUT/small/, and OUT/chk4/g511 (the forced variant) for
`ireesht check --artifacts`."""
import sys
import ireesht
from ireesht import kernels_mlir

out = sys.argv[1]
for name, lmax in (("l255_b1", 255), ("l511_b1", 511)):
    ireesht.build(lmax, f"{out}/small/{name}", targets=("cuda",))
kernels_mlir.LANES64_FROM_PAIRS = 0
kernels_mlir.LANES64_PAIRS = 4
for name, lmax in (("l255_b1", 255), ("l511_b1", 511)):
    ireesht.build(lmax, f"{out}/small4/{name}", targets=("cuda",))
ireesht.build(511, f"{out}/chk4/g511", targets=("cuda",))
