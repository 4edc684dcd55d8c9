#!/usr/bin/env python3
"""Benchmark synth / analys: per-call wall time, GPU time of each stage, error, and peers.

Two steps, so the GPU machine needs only the runtime:

    python tools/bench.py prepare OUT --lmax 127,255,511,1023,2047    # here: compiles
    python tools/bench.py run OUT [--peers]                          # on the GPU machine
    python tools/bench.py walltime OUT/l1023_nf1                     # one plan's per-call time

``prepare`` saves one module per (lmax, fields_per_thread) with ``Module.save``. ``run``
loads each, and for batch 1 (fields_per_thread 1) and batch 16 (fields_per_thread 4):

- wall: median per-call time of ``synth`` / ``analys`` on device-resident inputs, results
  left on the device (synchronous calls, as a user makes them);
- gpu: device time of each dispatch from IREE's HAL profiler (iree-benchmark-module with
  ``--device_profiling_mode=dispatch-events``, then ``iree-profile statistics``), per stage;
- floor: the Legendre compute floor of DESIGN.md, lmax^3 FMA per field at 33.5e12 FMA/s
  (H200 fp32), and GPU time / floor;
- error: synthesis against the float64 reference (lmax <= 1023) and the roundtrip
  analys(synth(q)) against q, relative L2, fresh random coefficients in [-1, 1];
- peers (``--peers``): torch-harmonics ``RealSHT`` / ``InverseRealSHT`` on CUDA, same grid
  and batch, median of CUDA-synchronised calls.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

H200_FMA_PER_S = 33.5e12
BATCHES = {1: 1, 16: 4}  # batch -> fields_per_thread


def prepare(out: Path, lmaxes: list[int]) -> None:
    import ireesht

    for lmax in lmaxes:
        for nf in sorted(set(BATCHES.values())):
            mod = ireesht.compile(lmax, fields_per_thread=nf)
            mod.save(out / f"l{lmax}_nf{nf}")
            print(f"saved lmax={lmax} nf={nf} ({mod.info['module']}, {mod.info['compile_s']:.1f} s)")


def median_ms(fn, n: int) -> float:
    fn()  # warm-up: pipelines, allocations
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(times))


def tool(name: str) -> str:
    import iree._runtime_libs as libs

    return str(Path(libs.__file__).parent / name)


def profile_calls(mod, function: str, inputs: list[np.ndarray], tmp: Path,
                  modes: str = "dispatch-events") -> str:
    """Run ``function`` 20 times under iree-benchmark-module with HAL profiling; returns
    the path of the profile bundle."""
    args = [tool("iree-benchmark-module"), f"--module={mod.info['path']}/module.vmfb",
            "--device=vulkan", f"--function={function}", "--benchmark_min_time=20x",
            f"--device_profiling_mode={modes}",
            f"--device_profiling_output={tmp / 'p.ireeprof'}"]
    for i, a in enumerate(inputs):
        np.save(tmp / f"in{i}.npy", a)
        args.append(f"--input=@{tmp / f'in{i}.npy'}")
    subprocess.run(args, check=True, capture_output=True)
    return str(tmp / "p.ireeprof")


def gpu_stage_ms(mod, function: str, inputs: list[np.ndarray], tmp: Path) -> list[float]:
    """Average device time of each dispatch of ``function``, in dispatch order (ms)."""
    bundle = profile_calls(mod, function, inputs, tmp)
    stats = subprocess.run([tool("iree-profile"), "statistics", "--format=jsonl", bundle],
                           check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in stats.stdout.splitlines()]
    # one "dispatch_function" row per executable (= stage), aggregated over all calls;
    # the first dispatch of each call starts first
    stages = sorted((r for r in rows if r.get("row_type") == "dispatch_function"),
                    key=lambda r: r["first_start_time"])
    return [r["total_duration_ns"] / r["sample_count"] / 1e6 for r in stages]


def torch_harmonics_ms(lmax: int, batch: int, n: int) -> tuple[float, float]:
    import importlib.util
    import types

    import torch

    # only the pure-PyTorch SHT modules: the package __init__ also loads compiled attention
    # extensions, which are built against one torch version and fail to load on others
    if "torch_harmonics" not in sys.modules:
        spec = importlib.util.find_spec("torch_harmonics")
        pkg = types.ModuleType("torch_harmonics")
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["torch_harmonics"] = pkg
    import torch_harmonics.sht as th

    nlat, nphi = lmax + 1, 2 * (lmax + 1)
    dev = torch.device("cuda")
    fwd = th.RealSHT(nlat, nphi, lmax=lmax + 1, mmax=lmax + 1, grid="legendre-gauss").to(dev)
    inv = th.InverseRealSHT(nlat, nphi, lmax=lmax + 1, mmax=lmax + 1, grid="legendre-gauss").to(dev)
    x = torch.randn(batch, nlat, nphi, device=dev)
    c = fwd(x)

    def timed(fn):
        def run():
            fn()
            torch.cuda.synchronize()
        return median_ms(run, n)

    out = timed(lambda: inv(c)), timed(lambda: fwd(x))
    del fwd, inv, x, c
    torch.cuda.empty_cache()
    return out


def run(root: Path, peers: bool, n: int) -> None:
    import iree.runtime as rt

    import ireesht
    from ireesht import reference
    from ireesht.cli import random_coefficients, rel_l2
    from ireesht.plan import ANALYS_TABLES, SYNTH_TABLES

    rng = np.random.default_rng()
    rows = []
    for path in sorted(root.glob("l*_nf*"), key=lambda p: (int(p.name[1:].split("_")[0]), p.name)):
        mod = ireesht.load(path)
        p = mod.plan
        batch = next(b for b, nf in BATCHES.items() if nf == p.fields_per_thread)
        q = random_coefficients(rng, p.lmax, p.mmax, (batch,)).astype(np.complex64)
        q_host = q.view(np.float32).reshape(batch, p.nlm, 2)
        q_dev = rt.asdevicearray(mod._session.device, q_host)
        f_dev = mod.synth(q_dev)
        f = mod._session.to_numpy(f_dev)
        q2 = mod._session.to_numpy(mod.analys(f_dev)).view(np.complex64)[..., 0]
        err_rt = rel_l2(q2, q)
        err_syn = rel_l2(f[0], reference.synth(q[0], p.lmax, p.mmax, p.make_grid())) if p.lmax <= 1023 else float("nan")
        wall_s = median_ms(lambda: mod.synth(q_dev), n)
        wall_a = median_ms(lambda: mod.analys(f_dev), n)
        t = mod.plan.tables()
        with tempfile.TemporaryDirectory() as tmp:
            gs = gpu_stage_ms(mod, "synth", [t[k] for k in SYNTH_TABLES] + [q_host], Path(tmp))
            ga = gpu_stage_ms(mod, "analys", [t[k] for k in ANALYS_TABLES] + [f], Path(tmp))
        floor_ms = 1e3 * batch * p.lmax**3 / H200_FMA_PER_S
        row = dict(lmax=p.lmax, batch=batch, device=mod.info["device"], wall_synth=wall_s,
                   wall_analys=wall_a, gpu_synth_leg=gs[0], gpu_synth_fft=gs[1],
                   gpu_analys_fft=ga[0], gpu_analys_leg=ga[1], floor=floor_ms,
                   err_synth=err_syn, err_roundtrip=err_rt)
        if peers and p.lmax <= 1023:
            try:
                row["th_synth"], row["th_analys"] = torch_harmonics_ms(p.lmax, batch, n)
            except Exception as e:  # report, keep the table
                row["th_error"] = f"{type(e).__name__}: {e}"[:200]
        rows.append(row)
        print(json.dumps(row), flush=True)
        del mod
    print_table(rows)


def walltime(path: Path, n: int) -> None:
    """Per-call wall time of one saved plan, batch 1, under $IREESHT_IREE_FLAGS."""
    import os

    import iree.runtime as rt

    import ireesht
    from ireesht.cli import random_coefficients

    mod = ireesht.load(path)
    p = mod.plan
    q = random_coefficients(np.random.default_rng(), p.lmax, p.mmax, (1,)).astype(np.complex64)
    q_dev = rt.asdevicearray(mod._session.device, q.view(np.float32).reshape(1, p.nlm, 2))
    f_dev = mod.synth(q_dev)
    print(f"flags={os.environ.get('IREESHT_IREE_FLAGS', '')!r} lmax={p.lmax}: synth "
          f"{median_ms(lambda: mod.synth(q_dev), n):.3f} ms, analys "
          f"{median_ms(lambda: mod.analys(f_dev), n):.3f} ms per call (median of {n})")


def host_profile(path: Path) -> None:
    """Where a call's time goes: IREE's queue and device-queue events for 20 calls
    of one saved plan's synth (iree-profile statistics, text)."""
    import ireesht
    from ireesht.cli import random_coefficients
    from ireesht.plan import SYNTH_TABLES

    mod = ireesht.load(path)
    p = mod.plan
    t = p.tables()
    q = random_coefficients(np.random.default_rng(), p.lmax, p.mmax, (1,)).astype(np.complex64)
    with tempfile.TemporaryDirectory() as tmp:
        bundle = profile_calls(mod, "synth", [t[k] for k in SYNTH_TABLES] +
                               [q.view(np.float32).reshape(1, p.nlm, 2)], Path(tmp),
                               "queue-events,device-queue-events,dispatch-events")
        for cmd in ("statistics", "queue"):
            out = subprocess.run([tool("iree-profile"), cmd, bundle], capture_output=True, text=True)
            print(f"--- iree-profile {cmd} ---")
            print(out.stdout + out.stderr)


def print_table(rows: list[dict]) -> None:
    print("\n| lmax | batch | synth wall ms | analys wall ms | synth GPU ms (leg + fft) | analys GPU ms (fft + leg) "
          "| Legendre GPU / floor (synth, analys) | synth rel L2 | roundtrip rel L2 | torch-harmonics ms (synth / analys) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        th = f"{r['th_synth']:.3f} / {r['th_analys']:.3f}" if "th_synth" in r else r.get("th_error", "—")
        gs = r["gpu_synth_leg"] + r["gpu_synth_fft"]
        ga = r["gpu_analys_fft"] + r["gpu_analys_leg"]
        print(f"| {r['lmax']} | {r['batch']} | {r['wall_synth']:.3f} | {r['wall_analys']:.3f} "
              f"| {gs:.4f} ({r['gpu_synth_leg']:.4f} + {r['gpu_synth_fft']:.4f}) "
              f"| {ga:.4f} ({r['gpu_analys_fft']:.4f} + {r['gpu_analys_leg']:.4f}) "
              f"| {r['gpu_synth_leg'] / r['floor']:.1f}x, {r['gpu_analys_leg'] / r['floor']:.1f}x "
              f"| {r['err_synth']:.1e} | {r['err_roundtrip']:.1e} | {th} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("out", type=Path)
    a.add_argument("--lmax", default="127,255,511,1023,2047")
    b = sub.add_parser("run")
    b.add_argument("root", type=Path)
    b.add_argument("--peers", action="store_true")
    b.add_argument("--calls", type=int, default=50)
    d = sub.add_parser("hostprofile")
    d.add_argument("path", type=Path)
    c = sub.add_parser("walltime")
    c.add_argument("path", type=Path)
    c.add_argument("--calls", type=int, default=100)
    ns = ap.parse_args()
    if ns.cmd == "prepare":
        prepare(ns.out, [int(x) for x in ns.lmax.split(",")])
    elif ns.cmd == "hostprofile":
        host_profile(ns.path)
    elif ns.cmd == "walltime":
        walltime(ns.path, ns.calls)
    else:
        run(ns.root, ns.peers, ns.calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
