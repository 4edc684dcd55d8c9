"""sass_loops.py COUNTS LMAX OUT: the one-field CUDA plan's Legendre analysis with
leg_analys_lanes64.mlir's copies for the pairs per thread in COUNTS (comma-separated), its
PTX dumped into OUT, assembled by ptxas for sm_90 and disassembled by nvdisasm (both on
PATH; nvdisasm from the nvidia-cuda-nvdisasm wheel); prints the kernel's instruction count
and each loop (a backward branch) with 12 shuffles or more: the step loops and the span
loops around them."""
import re
import subprocess
import sys
from pathlib import Path

from ireesht import kernels_mlir, pipeline
from ireesht.plan import Plan

counts, lmax, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
kernels_mlir._lanes64_counts = lambda kp, wg: [int(c) for c in counts.split(",")]
out.mkdir(parents=True, exist_ok=True)
plan = Plan.create(lmax, target="cuda", kernels="mlir", recurrence="ishioka")
pipeline.compile_plan(plan, extra_args=[f"--iree-hal-dump-executable-binaries-to={out}"])
cubin = out / "leg_analys.cubin"
subprocess.run(["ptxas", "-arch=sm_90", str(out / "sht_leg_analys_v.ptx"), "-o", str(cubin)],
               check=True)
sass = subprocess.run(["nvdisasm", str(cubin)], check=True, capture_output=True,
                      text=True).stdout
ins, labels = [], {}
for line in sass.splitlines():
    if m := re.match(r"^\s*(\.L_x_\d+):", line):
        labels[m.group(1)] = len(ins)
    elif m := re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?);", line):
        ins.append(m.group(1))
print(f"{counts} at lmax {lmax}: {len(ins)} instructions ({len(ins) * 16 / 1024:.1f} KB)")
for i, text in enumerate(ins):
    m = re.search(r"BRA `\((\.L_x_\d+)\)", text)
    if m and labels.get(m.group(1), i + 1) <= i:
        body = ins[labels[m.group(1)]:i + 1]
        shfl = sum("SHFL" in x for x in body)
        if shfl >= 12:
            fp64 = sum(bool(re.search(r"\b(DFMA|DMUL|DADD)\b", x)) for x in body)
            print(f"  loop at {m.group(1)}: {len(body)} instructions, {fp64} float64, "
                  f"{shfl} shuffles, {sum('LDS' in x for x in body)} workgroup loads")
