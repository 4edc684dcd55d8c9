"""Here: `sass_digest.py SASS_CSV`: Nsight Compute's source page (profile.sh's sass-<tag>.csv)
summed per execution count (the loop bodies) and, for the most executed one, per opcode
with its top stall reasons."""
import collections
import csv
import sys

rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[1], rows[2:]
ix = {k: i for i, k in enumerate(head)}


def num(r, k):
    try:
        return float(r[ix[k]].replace(",", ""))
    except ValueError:
        return 0.0


SAMPLES, EXEC, WAVES = "Warp Stall Sampling (All Samples)", "Instructions Executed", "L1 Wavefronts Shared"
by = collections.defaultdict(lambda: [0.0, 0, 0.0])
for r in data:
    b = by[int(num(r, EXEC))]
    b[0] += num(r, SAMPLES)
    b[1] += 1
    b[2] += num(r, WAVES)
total = sum(v[0] for v in by.values())
print("per execution count: instructions, stall samples, shared wavefronts")
for e, (s, n, w) in sorted(by.items(), key=lambda kv: -kv[1][0])[:8]:
    print(f"  executed {e:8d}  {n:4d} instructions  {s:7.0f} samples ({100 * s / total:4.1f}%)  {w:.3g}")
hot = max(by, key=lambda e: by[e][0])
stalls = [k for k in head if k.startswith("stall_") and "Not Issued" not in k]
ops = collections.defaultdict(collections.Counter)
for r in data:
    if int(num(r, EXEC)) == hot:
        src = r[ix["Source"]].split()
        c = ops[src[1] if src[0].startswith("@") else src[0]]
        c["n"] += 1
        c["all"] += num(r, SAMPLES)
        for k in stalls:
            c[k] += num(r, k)
print(f"the loop executed {hot} times, per opcode: count, samples, top stalls")
for op, c in sorted(ops.items(), key=lambda kv: -kv[1]["all"]):
    top = sorted(((k, c[k]) for k in stalls), key=lambda kv: -kv[1])[:3]
    print(f"  {op:20s} {c['n']:3d} {c['all']:7.0f}  " + " ".join(f"{k[6:]}={v:.0f}" for k, v in top))
