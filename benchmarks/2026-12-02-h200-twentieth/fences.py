"""On the GPU machine, `fences.py DIR TAG [TARGET [KERNELS]]`: what the chained waits
cost. For each module DIR/TAG/l*_b1, the rate of runs of 300 enqueued calls (median of 5,
after a warm-up run; in brackets the host's loop without the final wait): as
Session.enqueue makes them (call k waits for value k of the module's timeline and signals
k + 1), and with each call waiting on value 0 only (already reached: the calls' order is
then the driver's queue order, not a fence); and the result of 300 roundtrips in place
(synth q -> f, analys f -> q), relative difference between the two ways (0 when order was
kept)."""
import sys
import time
from pathlib import Path
import numpy as np
import iree.runtime as rt
import ireesht
from ireesht.bench import device_inputs


def make_enqueue(s, chained):
    def enqueue(name, *args):
        fn = s._invokers.get(name) or s._invokers.setdefault(name, s._vm_module.lookup_function(name))
        al = rt.VmVariantList(len(args) + 2)
        for a in args:
            al.push_ref(a._buffer_view)
        al.push_ref(rt.HalFence.create_at(s._timeline, s._enqueued if chained else 0))
        al.push_ref(rt.HalFence.create_at(s._timeline, s._enqueued + 1))
        s.context.vm_context.invoke(fn, al, rt.VmVariantList(2))
        s._enqueued += 1
    return enqueue


def rate(mod, call, n=300, rounds=5):
    """us per call of runs of n calls, and the host's part (the loop without the wait)."""
    out, host = [], []
    for r in range(rounds + 1):
        t0 = time.perf_counter()
        for _ in range(n):
            call()
        host.append((time.perf_counter() - t0) / n * 1e6)
        mod.synchronize()
        out.append((time.perf_counter() - t0) / n * 1e6)
    return f"{np.median(out[1:]):.1f} (host {np.median(host[1:]):.1f})"


root, tag = Path(sys.argv[1]), sys.argv[2]
target = sys.argv[3] if len(sys.argv) > 3 else "cuda"
kernels = sys.argv[4] if len(sys.argv) > 4 else None
for path in sorted((root / tag).glob("l*_b1")):
    mod = ireesht.load(path, target, kernels=kernels)
    q, q_host, q_dev, f_out, q_out = device_inputs(mod, 1, np.random.default_rng(7))
    s, p = mod._session, mod.plan
    res = {}
    for chained in (True, False):
        enq = make_enqueue(s, chained)
        wsy = mod._kept_buffer("F", "synth", (1, p.nlat, p.mc, 2))
        wan = mod._kept_buffer("F", "analys", (1, p.nlat, p.mc, 2))
        sy = (*mod._synth_args, q_dev, f_out, wsy)
        an = (*mod._analys_args, f_out, q_out, wan)
        try:
            tsy = rate(mod, lambda: enq("synth_async", *sy))
            tan = rate(mod, lambda: enq("analys_async", *an))
            qc = s.upload(q_host)  # 300 roundtrips in place: each reads the previous output
            for _ in range(300):
                enq("synth_async", *mod._synth_args, qc, f_out, wsy)
                enq("analys_async", *mod._analys_args, f_out, qc, wan)
            mod.synchronize()
        except ValueError as e:  # a signal out of order: the calls ran concurrently
            print(f"{tag} {path.name:16s} chained={chained}: {str(e).splitlines()[0][:160]}")
            break
        res[chained] = (tsy, tan, mod.to_numpy(qc))
    else:
        d = np.linalg.norm(res[True][2] - res[False][2]) / np.linalg.norm(res[True][2])
        print(f"{tag} {path.name:16s} enqueued rate, us: chained waits {res[True][0]} / "
              f"{res[True][1]}; no waits {res[False][0]} / {res[False][1]}; "
              f"results differ by {d:.1e}", flush=True)
