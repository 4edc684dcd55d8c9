"""sass_regions.py SASS_CSV: Nsight Compute's per-instruction stall samples (`ncu --import
... --page source --csv --print-source sass`) summed by code region, a region being a run of
instructions executed the same number of times (a loop body, a span's staging): its share of
all samples and its five largest stall reasons; regions under 2% left out."""
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
head, body = rows[1], rows[2:]
samples = head.index("Warp Stall Sampling (All Samples)")
executed = head.index("Instructions Executed")
reasons = {c: head.index(c) for c in head if c.startswith("stall_") and "Not Issued" not in c}
total = sum(int(r[samples]) for r in body)
regions = []
for r in body:
    n = int(r[executed] or 0)
    if not regions or regions[-1]["n"] != n:
        regions.append({"n": n, "count": 0, "s": 0, "at": r[0], "r": dict.fromkeys(reasons, 0)})
    g = regions[-1]
    g["count"] += 1
    g["s"] += int(r[samples])
    for c, i in reasons.items():
        g["r"][c] += int(r[i] or 0)
print(f"{total} samples")
for g in regions:
    if g["s"] / total > 0.02:
        top = sorted(g["r"].items(), key=lambda kv: -kv[1])[:5]
        print(f"executed {g['n']:>8} x {g['count']:4d} instructions at {g['at']}: "
              f"{100 * g['s'] / total:5.1f}%  "
              + ", ".join(f"{k[6:]} {100 * v / total:.1f}" for k, v in top))
