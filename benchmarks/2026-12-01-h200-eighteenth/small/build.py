"""Here: `build.py OUT TAG`: one field per call at lmax 255-1023 (CUDA): tag base, the committed
kernels; kp1, one latitude pair per thread in the Ishioka synthesis (two committed)."""
import sys
import ireesht
from ireesht import kernels_mlir
out, tag = sys.argv[1], sys.argv[2]
if tag == "kp1":
    kernels_mlir.ISHIOKA_SLOTS = 2
for lmax in (255, 511, 767, 1023):
    ireesht.build(lmax, f"{out}/{tag}/l{lmax}_b1", targets=("cuda",))
    print(tag, lmax, flush=True)
