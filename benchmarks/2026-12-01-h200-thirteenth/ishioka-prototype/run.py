"""Prototype Ishioka float64-chain Legendre stages on CUDA via CuPy: accuracy and timing."""
import sys, time, json, os
import numpy as np
sys.path.insert(0, os.path.dirname(__file__)); sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../.."))
from ishioka import chain
from ireesht import legendre, reference
from ireesht.plan import Plan

def tables(L):
    plan = Plan.create(L, target="cuda"); g = plan.make_grid(); n = plan.npairs
    x, s, w = g.cost[:n].copy(), g.sint[:n].copy(), g.weights[:n].copy()
    skip = legendre.polar_rows(L, L, x, s, np.float32).astype(np.int32)
    mc = L + 1
    moff = np.zeros(mc + 1, np.int32); abl, ecl = [], []
    for m in range(mc):
        alpha, beta, gg, a, b = chain(L, m)
        K = (L - m) // 2; kp = -(-(K + 1) // 32) * 32
        abt = np.zeros((kp, 2)); ect = np.zeros((kp, 4))
        k = np.arange(K + 1)
        abt[:K + 1, 0], abt[:K + 1, 1] = alpha[:K + 1], beta[:K + 1]
        ect[:K + 1, 0] = gg[k] / a[m + 2 * k + 1]
        ect[:K + 1, 1] = -gg[k] * b[m + 2 * k + 3] / a[m + 2 * k + 3]
        ect[:K + 1, 2] = gg[k]
        abl.append(abt); ecl.append(ect); moff[m + 1] = moff[m] + kp
    st = legendre.seed_table(L, s, np.float64)  # (mc, n, 2): y 2^(256 k)
    seed = np.ldexp(st[:, :, 0], (256 * st[:, :, 1]).astype(int))
    mm = np.arange(mc, dtype=np.float64)[:, None] + 1  # a_{m+1} = sqrt(2m + 3)
    seed *= np.sqrt(2 * mm + 1)
    return dict(L=L, n=n, nlat=g.nlat, mc=mc, x=x, s=s, w=w, skip=skip, moff=moff,
                ab=np.concatenate(abl), ec=np.concatenate(ecl), seed=seed)

def main():
    import cupy as cp
    L = int(sys.argv[1]); mode = sys.argv[2] if len(sys.argv) > 2 else "time"
    akp = int(os.environ.get("AKP", "4")); at = int(os.environ.get("AT", "128")); aspan = int(os.environ.get("ASPAN", "8"))
    skp = int(os.environ.get("SKP", "2"))
    t = time.time(); T = tables(L); print(f"tables {time.time()-t:.1f}s", flush=True)
    src = open(os.path.join(os.path.dirname(__file__), "proto.cu")).read()
    mod = cp.RawModule(code=src, options=(f"-DSKP={skp}", f"-DAKP={akp}", f"-DAT={at}", f"-DASPAN={aspan}", "-lineinfo"))
    ks, ka = mod.get_function(os.environ.get("SK", "synth")), mod.get_function(os.environ.get("AK", "analys"))
    for nm, kf in (("synth", ks), (os.environ.get("AK", "analys"), ka)):
        print(nm, "regs", kf.attributes["num_regs"], "local", kf.attributes["local_size_bytes"], flush=True)
    n, mc, nlat = T["n"], T["mc"], T["nlat"]
    nlm = mc * (L + 1) - L * (L + 1) // 2
    d = {k: cp.asarray(T[k]) for k in ("x", "w", "skip", "moff", "seed")}
    d_ab = cp.asarray(T["ab"]); d_ec = cp.asarray(T["ec"])
    rng = np.random.default_rng(1)
    q = (rng.uniform(-1, 1, (nlm, 2))).astype(np.float32)
    for m0 in [0]: q[:L + 1, 1] = 0  # m = 0 imaginary parts
    d_q = cp.asarray(q); d_F = cp.zeros((nlat, mc, 2), cp.float32)
    gx = -(-n // (64 * skp))
    argS = (d_ab, d_ec, d_q, d["x"], d["seed"], d["skip"], d["moff"], d_F, np.int32(L), np.int32(mc), np.int32(n), np.int32(nlat))
    Fr = rng.uniform(-1, 1, (nlat, mc, 2)).astype(np.float32)
    d_Fr = cp.asarray(Fr); d_qo = cp.zeros((nlm, 2), cp.float32)
    argA = (d_ab, d_ec, d_Fr, d["x"], d["w"], d["seed"], d["skip"], d["moff"], d_qo, np.int32(L), np.int32(mc), np.int32(n), np.int32(nlat))
    assert at * akp >= n, (at, akp, n)
    runS = lambda: ks((gx, mc), (64,), argS)
    runA = lambda: ka((mc,), (at,), argA)
    if mode == "ncu":
        for _ in range(3): runS(); runA()
        cp.cuda.Device().synchronize(); return
    runS(); runA(); cp.cuda.Device().synchronize()
    F = cp.asnumpy(d_F); qa = cp.asnumpy(d_qo)
    # accuracy on sampled orders against the float64 reference values
    x, s = T["x"], T["s"]
    errS, refS, errA, refA = 0.0, 0.0, 0.0, 0.0
    for m in sorted(set(list(range(0, mc, max(1, mc // 24))) + [1, 2, 3, mc - 1])):
        P = reference.legendre_values(L, m, x, s)  # (L+1-m, n)
        o = m * (2 * L + 3 - m) // 2
        Q = q[o:o + L + 1 - m, 0].astype(np.float64) + 1j * q[o:o + L + 1 - m, 1]
        sg = (-1.0) ** np.arange(L + 1 - m)
        FN = Q @ P; FS = (Q * sg) @ P
        got = F[:n, m, 0] + 1j * F[:n, m, 1]; gots = F[nlat - 1 - np.arange(n), m, 0] + 1j * F[nlat - 1 - np.arange(n), m, 1]
        errS += np.sum(np.abs(got - FN) ** 2) + np.sum(np.abs(gots - FS) ** 2); refS += np.sum(np.abs(FN) ** 2) + np.sum(np.abs(FS) ** 2)
        fn = Fr[:n, m, 0] + 1j * Fr[:n, m, 1]; fs = Fr[nlat - 1 - np.arange(n), m, 0] + 1j * Fr[nlat - 1 - np.arange(n), m, 1]
        w = T["w"]
        qref = P @ (w * fn) + sg * (P @ (w * fs))
        qg = qa[o:o + L + 1 - m, 0] + 1j * qa[o:o + L + 1 - m, 1]
        errA += np.sum(np.abs(qg - qref) ** 2); refA += np.sum(np.abs(qref) ** 2)
    print(f"L {L}: synth rel L2 {np.sqrt(errS / refS):.3e}, analys rel L2 {np.sqrt(errA / refA):.3e}", flush=True)
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    res = {}
    for nm, fn in (("synth", runS), ("analys", runA)):
        for _ in range(20): fn()
        ts = []
        for rep in range(5):
            ev0.record()
            for _ in range(100): fn()
            ev1.record(); ev1.synchronize()
            ts.append(cp.cuda.get_elapsed_time(ev0, ev1) / 100)
        res[nm] = ts
        print(f"L {L} {nm}: ms per launch (5 runs of 100) " + " ".join(f"{v:.4f}" for v in ts), flush=True)

if __name__ == "__main__":
    main()
