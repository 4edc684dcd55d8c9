"""build24.py OUT TAG LMAX...: one-field CUDA modules of the tree on PYTHONPATH."""
import sys
from pathlib import Path
import ireesht
out, tag, *ls = sys.argv[1:]
Path(out, tag).mkdir(parents=True, exist_ok=True)
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for lmax in map(int, ls):
    name, kw = (f"l{lmax}_b1_weather", weather) if lmax == 720 else (f"l{lmax}_b1", {})
    ireesht.build(lmax, f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
