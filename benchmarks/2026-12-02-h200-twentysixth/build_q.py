"""build_q.py OUT TAG PRODUCTS LMAX...: 16-field CUDA plans (fields_per_thread=4,
recurrence="ishioka": the synthesis on tensor cores) of the tree on PYTHONPATH as
OUT/TAG/l{L}_b16; PRODUCTS 1 makes each tf32 product one mma.sync (hi hi) instead of
3xTF32's three (timing only: the results lose float32's accuracy), 3 keeps the product."""
import sys
from pathlib import Path
import ireesht
from ireesht import kernels_mlir

out, tag, products, *ls = sys.argv[1:]
if products == "1":
    three = kernels_mlir._tf32x3
    kernels_mlir._tf32x3 = lambda n, a, b, acc, res: three(n, a, b, acc, res)[-1:][0].replace(
        f"{n}d2", acc).split("\n")
for lmax in map(int, ls):
    ireesht.build(lmax, Path(out, tag, f"l{lmax}_b16"), targets=("cuda",), fields_per_thread=4,
                  recurrence="ishioka")
    print(tag, lmax, flush=True)
