"""`anal_set.py time|launch DIR TAG`: the eighteenth run's anal.py, with kernels_mlir's
constants set as build_var.py built TAG's modules (DIR/TAG/consts.txt, where there is one),
so that the loaded plans compute the tables their modules take."""
import runpy
import sys
from pathlib import Path
from ireesht import kernels_mlir

consts = Path(sys.argv[2], sys.argv[3], "consts.txt")
for arg in consts.read_text().split() if consts.exists() else ():
    name, value = arg.split("=")
    setattr(kernels_mlir, name, tuple(map(int, value.split(","))) if "," in value else int(value))
runpy.run_path(str(Path(__file__).parents[1] / "2026-12-01-h200-eighteenth" / "anal.py"),
               run_name="__main__")
