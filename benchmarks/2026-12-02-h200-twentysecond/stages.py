"""`stages.py STAGES.TXT`: from run_seg.sh's Nsight Compute lines (three calls of four
launches per module, modules in sorted order), each module's Legendre analysis kernel
(grid, block, registers) and the ranges of its Legendre synthesis and analysis, us."""
import re
import sys

tags: dict[str, list] = {}
for line in open(sys.argv[1]):
    if line.startswith("=="):
        rows = tags.setdefault(line.split()[1].rstrip(":"), [])
    m = re.match(r"(\d+) main \(([^)]*)\) \(([^)]*)\) gpu__time_duration.sum=([\d,]+) "
                 r"launch__registers_per_thread=(\d+)", line)
    if m:
        rows.append((m[2], m[3], float(m[4].replace(",", "")) / 1000, int(m[5])))
for tag, rows in tags.items():
    for k in range(0, len(rows), 12):
        mod = rows[k:k + 12]
        syn, ana = [r[2] for r in mod[0::4]], [r[2] for r in mod[3::4]]
        grid, block, _, regs = mod[3]
        print(f"{tag:7s} module {k // 12} grid ({grid}) block ({block}) registers {regs:3d}  "
              f"synthesis {min(syn):.1f}-{max(syn):.1f}  analysis {min(ana):.1f}-{max(ana):.1f}")
