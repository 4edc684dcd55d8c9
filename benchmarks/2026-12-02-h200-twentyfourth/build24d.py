"""build24d.py OUT TAG [recurrence]: the 16-field CUDA plans of the tree on PYTHONPATH, as
OUT/TAG/l{L}_b{B} (one module copied per batch size)."""
import shutil, sys
from pathlib import Path
import ireesht
out, tag, *rec = sys.argv[1:]
kw = dict(recurrence=rec[0]) if rec else {}
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for lmax, batches in ((1023, (4, 16, 20)), (767, (16,)), (511, (16,)), (720, (16,))):
    extra = weather if lmax == 720 else {}
    first = None
    for b in batches:
        name = f"l{lmax}_b{b}" + ("_weather" if lmax == 720 else "")
        path = Path(out, tag, name)
        if first is None:
            ireesht.build(lmax, path, targets=("cuda",), fields_per_thread=4, **extra, **kw)
            first = path
        else:
            shutil.copytree(first, path)
        print(tag, name, flush=True)
