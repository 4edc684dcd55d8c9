"""On the GPU machine, `hostcost.py DIR TAG`: the host's cost of one enqueued call, for each
module DIR/TAG/l*_b1: the host time of a loop of 300 enqueued calls (then one wait, not
counted), median of 5 loops, through the API (`synth(q, out=f, sync=False)`), through
`Session.enqueue` alone, and the part of that which builds the argument list (no invoke);
the GPU's rate for comparison (runs of 300, enqueued, waited for)."""
import sys
import time
from pathlib import Path
import numpy as np
import iree.runtime as rt
import ireesht
from ireesht.bench import device_inputs, pipelined_ms


def host_us(mod, fn, n=300, rounds=5):
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t0) / n * 1e6)
        mod.synchronize()
    return float(np.median(out))


root, tag = Path(sys.argv[1]), sys.argv[2]
for path in sorted((root / tag).glob("l*_b1")):
    mod = ireesht.load(path, "cuda")
    q, _, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
    mod.synth(q_dev, out=f_out)
    mod.analys(f_out, out=q_out)
    s, p = mod._session, mod.plan
    ws = mod._kept_buffer("F", "synth", (1, p.nlat, p.mc, 2))
    args = (*mod._synth_args, q_dev, f_out, ws)

    def build():
        al = rt.VmVariantList(len(args) + 2)
        for a in args:
            al.push_ref(a._buffer_view)
        al.push_ref(rt.HalFence.create_at(s._timeline, 0))
        al.push_ref(rt.HalFence.create_at(s._timeline, 1))
        rt.VmVariantList(2)

    api_s = host_us(mod, lambda: mod.synth(q_dev, out=f_out, sync=False))
    api_a = host_us(mod, lambda: mod.analys(f_out, out=q_out, sync=False))
    ses = host_us(mod, lambda: s.enqueue("synth_async", *args))
    arg = host_us(mod, build)
    psy, pan = pipelined_ms(mod, q_dev, f_out, q_out, 300)
    print(f"{tag} {path.name:16s} host us per enqueued call: API synth {api_s:.1f} analys "
          f"{api_a:.1f}; Session.enqueue (synth) {ses:.1f}, of which argument list "
          f"{arg:.1f}; GPU rate {psy * 1e3:.1f} / {pan * 1e3:.1f} us", flush=True)
