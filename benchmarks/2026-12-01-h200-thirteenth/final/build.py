"""Build CUDA modules of both recurrences into DIR/l{L}_b{B}_{base|ish}{32|64}."""
import sys, time
from pathlib import Path
import ireesht
out = Path(sys.argv[1])
for spec in sys.argv[2:]:
    L, B, dt = spec.split(":")
    for tag, rec in (("base", "standard"), ("ish", "ishioka")):
        t = time.time()
        ireesht.build(int(L), out / f"l{L}_b{B}_{tag}{dt[-2:]}", targets=("cuda",), dtype=dt,
                      fields_per_thread=4 if int(B) >= 8 else 1, recurrence=rec)
        print(L, B, dt, rec, f"{time.time()-t:.1f}s", flush=True)
