"""Prototype transposed-sum Ishioka analysis: accuracy against the float64 reference, timing."""
import sys, os, time
import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../2026-12-01-h200-thirteenth/ishioka-prototype"))
sys.path.insert(0, os.path.join(HERE, "../../.."))
from run import tables
from ireesht import reference

def analysis_error(T, Fr, qa):
    """Relative L2 error of the analysis qa (nlm, 2) of Fourier coefficients Fr against the
    float64 reference's Legendre values, on 28 orders."""
    L, n, mc, nlat = T["L"], T["n"], T["mc"], T["nlat"]
    x, s, w = T["x"], T["s"], T["w"]
    errA = refA = 0.0
    for m in sorted(set(list(range(0, mc, max(1, mc // 24))) + [1, 2, 3, mc - 1])):
        P = reference.legendre_values(L, m, x, s)
        o = m * (2 * L + 3 - m) // 2
        sg = (-1.0) ** np.arange(L + 1 - m)
        fn = Fr[:n, m, 0] + 1j * Fr[:n, m, 1]
        fs = Fr[nlat - 1 - np.arange(n), m, 0] + 1j * Fr[nlat - 1 - np.arange(n), m, 1]
        if nlat % 2: fs[-1] = 0
        qref = P @ (w * fn) + sg * (P @ (w * fs))
        qg = qa[o:o + L + 1 - m, 0] + 1j * qa[o:o + L + 1 - m, 1]
        errA += np.sum(np.abs(qg - qref) ** 2); refA += np.sum(np.abs(qref) ** 2)
    return np.sqrt(errA / refA)

def device_data(T):
    """The tables on the device (ab padded for the prefetch past the last order), random
    Fourier coefficients Fr (host and device) and the output q."""
    import cupy as cp
    L, mc, nlat = T["L"], T["mc"], T["nlat"]
    d = {k: cp.asarray(T[k]) for k in ("x", "w", "skip", "moff", "seed", "ec")}
    d["ab"] = cp.asarray(np.concatenate([T["ab"], np.zeros((64, 2))]))
    Fr = np.random.default_rng(2).uniform(-1, 1, (nlat, mc, 2)).astype(np.float32)
    d["Fr"] = cp.asarray(Fr)
    d["qo"] = cp.zeros((mc * (L + 1) - L * (L + 1) // 2, 2), cp.float32)
    return d, Fr

def event_ms(fn):
    """ms per call of fn, five rounds of 50 after 10 warm-up calls, by CUDA events."""
    import cupy as cp
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(10): fn()
    ts = []
    for rep in range(5):
        ev0.record()
        for _ in range(50): fn()
        ev1.record(); ev1.synchronize()
        ts.append(cp.cuda.get_elapsed_time(ev0, ev1) / 50)
    return ts

def main():
    import cupy as cp
    L = int(sys.argv[1]); mode = sys.argv[2] if len(sys.argv) > 2 else "time"
    kp, sp, nacc, pref, atom = (int(os.environ.get(k, d)) for k, d in (("KP3", "1"), ("SP3", "8"), ("NACC", "2"), ("PREF", "0"), ("ATOM", "1")))
    T = tables(L)
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "a3.cu")).read()
    mod = cp.RawModule(code=src, options=(f"-DKP3={kp}", f"-DSP3={sp}", f"-DNACC={nacc}", f"-DPREF={pref}", f"-DATOM={atom}", "-lineinfo"))
    ka, kc = mod.get_function("analys3"), mod.get_function("conv")
    print(f"KP3={kp} SP3={sp} NACC={nacc} PREF={pref} ATOM={atom} analys3 regs {ka.attributes['num_regs']} local {ka.attributes['local_size_bytes']}", flush=True)
    n, mc, nlat = T["n"], T["mc"], T["nlat"]
    d, Fr = device_data(T)
    d_ab, d_ec, d_Fr, d_qo = d["ab"], d["ec"], d["Fr"], d["qo"]
    d_acc = cp.zeros(int(T["moff"][-1]) * 4, cp.float64)
    NL = 32 * kp
    grid = (-(-n // NL), mc)
    argA = (d_ab, d_Fr, d["x"], d["w"], d["seed"], d["skip"], d["moff"], d_acc,
            np.int32(L), np.int32(mc), np.int32(n), np.int32(nlat))
    argC = (d_ec, d_acc, d["moff"], d_qo, np.int32(L))
    def runA():
        d_acc.fill(0)
        ka(grid, (32,), argA)
        kc((mc,), (128,), argC)
    if mode == "ncu":
        for _ in range(3): runA()
        cp.cuda.Device().synchronize(); return
    runA(); cp.cuda.Device().synchronize()
    qa = cp.asnumpy(d_qo)
    print(f"L {L}: analys3 rel L2 {analysis_error(T, Fr, qa):.3e}", flush=True)
    for nm, fn in (("fill+analys3+conv", runA), ("analys3", lambda: ka(grid, (32,), argA)),
                   ("conv", lambda: kc((mc,), (128,), argC)), ("fill", lambda: d_acc.fill(0))):
        print(f"L {L} {nm}: ms " + " ".join(f"{v:.4f}" for v in event_ms(fn)), flush=True)

if __name__ == "__main__":
    main()
