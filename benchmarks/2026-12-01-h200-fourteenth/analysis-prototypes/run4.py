"""Prototype transposed-sum Ishioka analysis: accuracy against the float64 reference, timing."""
import sys, os, time
import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../2026-12-01-h200-thirteenth/ishioka-prototype"))
sys.path.insert(0, os.path.join(HERE, "../../.."))
from run import tables
from run3 import analysis_error, device_data, event_ms
from ireesht import reference

def main():
    import cupy as cp
    L = int(sys.argv[1]); mode = sys.argv[2] if len(sys.argv) > 2 else "time"
    kp, sp, nw = (int(os.environ.get(k, d)) for k, d in (("KP4", "2"), ("SP4", "8"), ("NWARP", "8")))
    yt = os.environ.get("YT", "float")
    T = tables(L)
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "a4.cu")).read()
    mod = cp.RawModule(code=src, options=(f"-DKP4={kp}", f"-DSP4={sp}", f"-DNWARP={nw}", f"-DYT={yt}", f"-DMINB={os.environ.get('MINB', '1')}", f"-DPFE={os.environ.get('PFE', '0')}", "-lineinfo"))
    ka = mod.get_function("analys4")
    print(f"MINB={os.environ.get('MINB', '1')} PFE={os.environ.get('PFE', '0')} YT={yt} KP4={kp} SP4={sp} NWARP={nw} analys4 regs {ka.attributes['num_regs']} local {ka.attributes['local_size_bytes']}", flush=True)
    n, mc, nlat = T["n"], T["mc"], T["nlat"]
    d, Fr = device_data(T)
    d_ab, d_ec, d_Fr, d_qo = d["ab"], d["ec"], d["Fr"], d["qo"]
    assert 32 * kp * nw >= n, (kp, nw, n)
    argA = (d_ab, d_ec, d_Fr, d["x"], d["w"], d["seed"], d["skip"], d["moff"], d_qo,
            np.int32(L), np.int32(mc), np.int32(n), np.int32(nlat))
    def runA():
        ka((mc,), (32 * nw,), argA)
    if mode == "ncu":
        for _ in range(3): runA()
        cp.cuda.Device().synchronize(); return
    runA(); cp.cuda.Device().synchronize()
    qa = cp.asnumpy(d_qo)
    print(f"L {L}: analys4 rel L2 {analysis_error(T, Fr, qa):.3e}", flush=True)
    for nm, fn in (("analys4", runA),):
        print(f"L {L} {nm}: ms " + " ".join(f"{v:.4f}" for v in event_ms(fn)), flush=True)

if __name__ == "__main__":
    main()
