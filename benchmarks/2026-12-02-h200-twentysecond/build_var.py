"""Here: `build_var.py OUT TAG NAME=VALUE... LMAX...`: the one-field CUDA modules of this tree
with kernels_mlir's constants NAME set to VALUE (an integer, or a tuple of them: A,B), as
OUT/TAG/<plan>, and the settings in OUT/TAG/consts.txt (anal_set.py loads the modules with
them); lmax 720 is the 721 x 1440 grid."""
import sys
from pathlib import Path
import ireesht
from ireesht import kernels_mlir

out, tag, *args = sys.argv[1:]
for name, value in (a.split("=") for a in args if "=" in a):
    assert hasattr(kernels_mlir, name), name
    setattr(kernels_mlir, name, tuple(map(int, value.split(","))) if "," in value else int(value))
Path(out, tag).mkdir(parents=True, exist_ok=True)
Path(out, tag, "consts.txt").write_text(" ".join(a for a in args if "=" in a) + "\n")
weather = dict(mmax=719, nlat=721, nphi=1440, grid="equiangular")
for lmax in (int(a) for a in args if "=" not in a):
    name, kw = (f"l{lmax}_b1_weather", weather) if lmax == 720 else (f"l{lmax}_b1", {})
    ireesht.build(lmax, f"{out}/{tag}/{name}", targets=("cuda",), **kw)
    print(tag, name, flush=True)
