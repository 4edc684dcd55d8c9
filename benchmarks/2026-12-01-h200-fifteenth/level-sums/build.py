"""Build the CUDA modules of the level-sums A/B into DIR/<tag>/l{L}_b1, one field, float32:
`old` with the package at commit 2a591a3 on PYTHONPATH (careful loop at lmax 2047), the
others with the working tree (variants.py). Usage: PYTHONPATH=PKG python build.py DIR TAG"""
import sys
import time
import ireesht
from variants import apply

out, tag = sys.argv[1], sys.argv[2]
for lmax in apply(tag):
    t = time.time()
    ireesht.build(lmax, f"{out}/{tag}/l{lmax}_b1", targets=("cuda",))
    print(tag, lmax, f"{time.time() - t:.0f} s", flush=True)
