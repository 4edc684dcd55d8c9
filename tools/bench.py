#!/usr/bin/env python3
"""The benchmark harness: every path the README quotes, timed the same way, as JSON, with a
committed reference per card and a comparison that flags regressions.

    python tools/bench.py prepare DIR [--cases readme]      # here: compiles (no GPU needed)
    python tools/bench.py run DIR --json OUT.json [--peers]  # on the GPU machine: times
    python tools/bench.py compare REF.json NEW.json          # flags cases > 5% slower
    python tools/bench.py table OUT.json                     # the markdown table of a run

``prepare`` writes one ``ireesht build`` directory per case (``CASES``); ``run`` loads each
module there (``ireesht.load``: the runtime alone) and measures, on fresh random inputs:

- ``enqueued``: time per call of ``--calls`` calls enqueued back to back (``sync=False``,
  device arrays in and out), median of five rounds after one: the rate of a loop whose
  results stay on the device;
- ``waited``: median time of ``--calls`` calls that each wait for their result;
- ``error``: synthesis against the float64 reference (lmax <= 1023) and the roundtrip
  analys(synth(q)) against q (against the reference's own roundtrip on grids whose
  quadrature is not exact), relative L2;
- peers (``--peers``): torch-harmonics ``InverseRealSHT`` / ``RealSHT`` on CUDA (same grid
  and batch, CUDA-synchronised calls) where it is installed, ducc0 for the CPU cases.

Results are keyed ``case/target:kernels``; ``compare`` takes the enqueued times of the cases
both files have and exits 1 if any is more than ``--threshold`` (5%) slower.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ireesht  # noqa: E402
from ireesht.bench import device_inputs, median_ms, pipelined_ms  # noqa: E402
from ireesht.numerics import reference  # noqa: E402
from ireesht.numerics.reference import rel_l2  # noqa: E402

WEATHER = dict(lmax=720, mmax=719, nlat=721, nphi=1440, grid="equiangular")
GPU = ("cuda", "vulkan:mlir")

# name -> (ireesht.build arguments, fields per call). The README's figures come from these.
CASES = {
    **{f"l{lmax}_b1": (dict(lmax=lmax, targets=GPU), 1) for lmax in (127, 255, 511, 1023, 2047)},
    **{f"l{lmax}_b16": (dict(lmax=lmax, targets=GPU, fields_per_thread=4), 16)
       for lmax in (127, 511, 1023, 2047)},
    "l1023_b16_ishioka": (dict(lmax=1023, targets=("cuda",), fields_per_thread=4,
                               recurrence="ishioka"), 16),
    "l1023_b1_f64": (dict(lmax=1023, targets=("cuda", "vulkan:mlir"), dtype="float64"), 1),
    "l1023_b1_wgsl": (dict(lmax=1023, targets=("vulkan:wgsl",)), 1),
    "weather_b1": (dict(**WEATHER, targets=GPU), 1),
    "weather_b16": (dict(**WEATHER, targets=GPU, fields_per_thread=4), 16),
    "weather_b16_ishioka": (dict(**WEATHER, targets=("cuda",), fields_per_thread=4,
                                 recurrence="ishioka"), 16),
}
# the CPU target (and ducc0 as its peer), for the CI machine's kind
CPU_CASES = {f"cpu_l{lmax}_b1": (dict(lmax=lmax, targets=("cpu",), cpu_baselines=("x86-64-v3",)), 1)
             for lmax in (127, 255, 511, 1023)}
# the evidence for the registry's "auto" choices on CUDA: each case forces the variant that
# auto passes over, to be read beside the readme case of the same size
VARIANT_CASES = {
    **{f"l{lmax}_b1_lane_sums": (dict(lmax=lmax, targets=("cuda",),
                                      variants={"leg_analys": "lane_sums"}), 1)
       for lmax in (127, 255, 1023)},
    "l1023_b1_standard": (dict(lmax=1023, targets=("cuda",), recurrence="standard"), 1),
    "l1023_b16_lane_sums": (dict(lmax=1023, targets=("cuda",), fields_per_thread=4,
                                 variants={"leg_analys": "lane_sums"}), 16),
}
# exact equiangular analysis (theta step, lmax = nlat - 2) beside the Gauss grid of the same
# lmax: the goal is analysis within 1.5x of the Gauss case's
EQUIANGULAR_CASES = {
    **{f"equi{lmax}_b{b}": (dict(lmax=lmax, nlat=lmax + 2, nphi=nphi, grid="equiangular",
                                 targets=GPU, fields_per_thread=4 if b > 1 else 1), b)
       for lmax, nphi in ((255, 512), (719, 1440)) for b in (1, 16)},
    **{f"gauss{lmax}_b{b}": (dict(lmax=lmax, nphi=nphi, targets=GPU,
                                  fields_per_thread=4 if b > 1 else 1), b)
       for lmax, nphi in ((255, 512), (719, 1440)) for b in (1, 16)},
    "equi719_b1_f64": (dict(lmax=719, nlat=721, nphi=1440, grid="equiangular",
                            targets=("cuda",), dtype="float64"), 1),
    "gauss719_b1_f64": (dict(lmax=719, nphi=1440, targets=("cuda",), dtype="float64"), 1),
    **{f"cpu_{g}{lmax}_b1": (dict(lmax=lmax, nlat=lmax + 2 if g == "equi" else None,
                                  nphi=2 * lmax + 2, grid="equiangular" if g == "equi"
                                  else "gauss", targets=("cpu",), cpu_baselines=("x86-64-v3",)), 1)
       for lmax in (255, 511) for g in ("equi", "gauss")},
}
SUITES = {"readme": CASES, "variants": VARIANT_CASES, "cpu": CPU_CASES,
          "equiangular": EQUIANGULAR_CASES,
          "smoke": {"l31_b1": (dict(lmax=31, targets=GPU), 1)}}


def prepare(out: Path, suite: str) -> None:
    """One ``ireesht build`` directory per case, and ``cases.json`` (name -> fields per
    call)."""
    out.mkdir(parents=True, exist_ok=True)
    cases = SUITES[suite]
    for name, (kw, _) in cases.items():
        t0 = time.perf_counter()
        ireesht.build(out=out / name, **kw)
        print(f"built {name} ({time.perf_counter() - t0:.1f} s)", flush=True)
    (out / "cases.json").write_text(json.dumps({n: b for n, (_, b) in cases.items()}, indent=1))


def measure(mod, batch: int, calls: int, rng: np.random.Generator) -> tuple[dict, dict]:
    """The times and errors of one loaded module (module doc), and the inputs and results a
    peer is checked with (``q``, ``f``: the float64 reference where computed, else ours)."""
    p = mod.plan
    q, _, q_dev, f_out, q_out = device_inputs(mod, batch, rng)
    f_dev = mod.synth(q_dev, out=f_out)
    f = mod.to_numpy(f_dev)
    q2 = mod.to_numpy(mod.analys(f_dev, out=q_out))
    q2 = q2[..., 0] + 1j * q2[..., 1]
    g = p.make_grid()
    row = {"device": mod.info["device"], "lmax": p.lmax, "grid": f"{p.nlat} x {p.nphi}",
           "dtype": p.dtype, "batch": batch, "variants": mod.info["variants"]}
    data = {"q": q, "f": f, "f_is_reference": False}
    if p.lmax <= 1023:
        f_ref = reference.synth(q[:1], p.lmax, p.mmax, g)
        if batch == 1:
            data.update(f=f_ref, f_is_reference=True)
        row["error_synth"] = rel_l2(f[:1], f_ref)
        q_ref = q[:1] if p.exact else reference.analys(f_ref, p.lmax, p.mmax, g, exact=False)
        row["error_roundtrip"] = rel_l2(q2[:1], q_ref)
    elif p.exact:
        row["error_roundtrip"] = rel_l2(q2, q)
    row["enqueued_ms"] = list(pipelined_ms(mod, q_dev, f_out, q_out, calls))
    row["waited_ms"] = [median_ms(lambda: mod.synth(q_dev, out=f_out), calls),
                        median_ms(lambda: mod.analys(f_dev, out=q_out), calls)]
    return row, data


def torch_harmonics_ms(p, batch: int, calls: int) -> list[float]:
    """torch-harmonics on CUDA, same grid and batch: synthesis, analysis (ms per call)."""
    import importlib.util
    import types

    import torch

    # only the pure-PyTorch SHT modules: the package's __init__ also loads compiled attention
    # extensions, built against one torch version, which fail to load on others
    if "torch_harmonics" not in sys.modules:
        spec = importlib.util.find_spec("torch_harmonics")
        pkg = types.ModuleType("torch_harmonics")
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["torch_harmonics"] = pkg
    import torch_harmonics.sht as th

    grid = "legendre-gauss" if p.grid == "gauss" else "equiangular"
    dev = torch.device("cuda")
    fwd = th.RealSHT(p.nlat, p.nphi, lmax=p.lmax + 1, mmax=p.mmax + 1, grid=grid).to(dev)
    inv = th.InverseRealSHT(p.nlat, p.nphi, lmax=p.lmax + 1, mmax=p.mmax + 1, grid=grid).to(dev)
    x = torch.randn(batch, p.nlat, p.nphi, device=dev)
    c = fwd(x)

    def timed(fn):
        def call():
            fn()
            torch.cuda.synchronize()
        return median_ms(call, calls)

    out = [timed(lambda: inv(c)), timed(lambda: fwd(x))]
    del fwd, inv, x, c
    torch.cuda.empty_cache()
    return out


def shtns_ms(p, batch: int, calls: int, data: dict, binary: str) -> dict:
    """SHTns's CUDA transforms (``tools/peers``'s benchmark program, one process per plan,
    same grid, batch, dtype and inputs): enqueued and waited ms, synth / analysis, and its
    errors (synthesis against ``data["f"]``: the float64 reference or, where that was not
    computed, ours)."""
    import subprocess
    import tempfile

    grid = {"gauss": "gauss", "equiangular": "poles"}[p.grid]
    if batch > 1 and p.nlat % 2:
        return {"error": "SHTns batches only even nlat on the GPU"}
    with tempfile.TemporaryDirectory() as tmp:
        qf, ff = Path(tmp, "q.bin"), Path(tmp, "f.bin")
        np.ascontiguousarray(data["q"], np.complex128).tofile(qf)
        f = np.broadcast_to(np.asarray(data["f"], np.float64), (batch, p.nlat, p.nphi))
        np.ascontiguousarray(f).tofile(ff)
        prec = "64" if p.dtype == "float64" else "32"
        cmd = [binary, "bench", grid, str(p.lmax), str(p.mmax), str(p.nlat), str(p.nphi),
               str(batch), prec, "phi" if p.nlat % 2 else "native", str(qf), str(ff),
               str(calls), "5", str(calls)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    line = next((x for x in out.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        return {"error": f"rc {out.returncode}: {(out.stderr or out.stdout)[-200:]}"}
    r = json.loads(line[len("RESULT "):])
    if "error" in r:
        return {"error": r["error"]}
    return {"enqueued_ms": [r["synth_enq_ms"], r["analys_enq_ms"]],
            "waited_ms": [r["synth_wait_ms"], r["analys_wait_ms"]],
            "error_synth": r["err_synth"], "error_roundtrip": r["err_roundtrip"],
            "synth_checked_against": "reference" if data["f_is_reference"] else "ireesht"}


def ducc0_ms(p, batch: int, calls: int) -> list[float]:
    """ducc0 on every core, same Gauss grid and dtype: synthesis, analysis (ms per call)."""
    import os

    import ducc0

    real = np.dtype(p.dtype)
    alm = reference.random_coefficients(np.random.default_rng(), p.lmax, p.mmax, (batch,))
    alm = alm.astype(np.result_type(real, np.complex64))
    kw = dict(lmax=p.lmax, mmax=p.mmax, spin=0, geometry="GL", nthreads=os.cpu_count())
    f = ducc0.sht.synthesis_2d(alm=alm, ntheta=p.nlat, nphi=p.nphi, **kw)
    return [median_ms(lambda: ducc0.sht.synthesis_2d(alm=alm, ntheta=p.nlat, nphi=p.nphi, **kw),
                      calls),
            median_ms(lambda: ducc0.sht.analysis_2d(map=f, **kw), calls)]


def run(root: Path, out: Path | None, calls: int, peers: bool, only: str | None,
        shtns: str | None = None) -> dict:
    """Every module of every case under ``root``; writes ``out`` (JSON) as it goes."""
    from ireesht.runtime import artifacts
    from ireesht.runtime.device import available_drivers
    from ireesht.runtime.module import load_entry

    cases = json.loads((root / "cases.json").read_text())
    drivers = available_drivers()
    rng = np.random.default_rng()
    result = {"meta": {"date": time.strftime("%Y-%m-%d"), "host": platform.node(),
                       "ireesht": ireesht.__version__, "calls": calls}, "results": {}}
    for name, batch in cases.items():
        if only and only not in name:
            continue
        manifest = artifacts.read_manifest(root / name)
        for entry in artifacts.runnable(manifest["artifacts"], drivers):
            key = f"{name}/{entry['target']}:{entry['kernels']}"
            try:
                mod = load_entry(manifest, entry)
                row, data = measure(mod, batch, calls, rng)
                # torch-harmonics' tables take O(lmax^3) memory: 21.6 GB at lmax 1023
                if (peers and entry["target"] == "cuda" and row["dtype"] == "float32"
                        and row["lmax"] <= 1023):
                    row["torch_harmonics_ms"] = _peer(torch_harmonics_ms, mod.plan, batch, calls)
                if shtns and entry["target"] == "cuda":
                    row["shtns"] = _peer(shtns_ms, mod.plan, batch, calls, data, shtns)
                if peers and entry["target"] == "cpu":
                    row["ducc0_ms"] = _peer(ducc0_ms, mod.plan, batch, calls)
                del mod
            except Exception as e:  # report, keep the rest of the run
                row = {"error": f"{type(e).__name__}: {e}"[:300]}
            result["results"][key] = row
            print(key, json.dumps(row), flush=True)
            if out:
                out.write_text(json.dumps(result, indent=1))
    return result


def _peer(fn, plan, batch: int, calls: int, *args):
    try:
        return fn(plan, batch, calls, *args)
    except Exception as e:  # not installed, or out of memory: the row says why
        return f"{type(e).__name__}: {e}"[:200]


def compare(ref: dict, new: dict, threshold: float) -> int:
    """Print each case both runs have, new / reference enqueued time; 1 if any direction is
    more than ``threshold`` slower."""
    worst, slower = 0.0, []
    print("| case | reference ms (synth / analys) | new ms | new / reference |")
    print("|---|---|---|---|")
    for key, r in ref["results"].items():
        n = new["results"].get(key)
        if not n or "error" in n or "error" in r:
            continue
        ratios = [b / a for a, b in zip(r["enqueued_ms"], n["enqueued_ms"])]
        worst = max(worst, *ratios)
        flag = " **slower**" if max(ratios) > 1 + threshold else ""
        if flag:
            slower.append(key)
        print(f"| {key} | {r['enqueued_ms'][0]:.4f} / {r['enqueued_ms'][1]:.4f} "
              f"| {n['enqueued_ms'][0]:.4f} / {n['enqueued_ms'][1]:.4f} "
              f"| {ratios[0]:.3f} / {ratios[1]:.3f}{flag} |")
    missing = sorted(set(ref["results"]) - set(new["results"]))
    print(f"\nworst ratio {worst:.3f}; {len(slower)} case(s) more than {threshold:.0%} slower"
          + (f": {', '.join(slower)}" if slower else "")
          + (f"; not in the new run: {', '.join(missing)}" if missing else ""))
    return 1 if slower else 0


def table(result: dict) -> None:
    """The markdown table of a run (BENCHMARKS.md): enqueued ms, synthesis / analysis, the
    peers of the same run and ireesht's time over SHTns's."""
    print("| case | target | enqueued ms | waited ms | SHTns ms | ireesht / SHTns "
          "| torch-harmonics or ducc0 ms | synth / roundtrip rel L2 |")
    print("|---|---|---|---|---|---|---|---|")
    pair = lambda v: f"{v[0]:.4f} / {v[1]:.4f}" if isinstance(v, list) else ""  # noqa: E731
    for key, r in result["results"].items():
        name, target = key.split("/")
        if "error" in r:
            print(f"| {name} | {target} | error: {r['error'][:100]} | | | | | |")
            continue
        sh = r.get("shtns") if isinstance(r.get("shtns"), dict) else {}
        ratio = ([a / b for a, b in zip(r["enqueued_ms"], sh["enqueued_ms"])]
                 if "enqueued_ms" in sh else None)
        ratio = f"{ratio[0]:.2f} / {ratio[1]:.2f}" if ratio else sh.get("error", "")[:40]
        peer = r.get("torch_harmonics_ms", r.get("ducc0_ms", ""))
        err = " / ".join(f"{r[k]:.1e}" if k in r else "-"
                         for k in ("error_synth", "error_roundtrip"))
        print(f"| {name} | {target} | {pair(r['enqueued_ms'])} | {pair(r['waited_ms'])} "
              f"| {pair(sh.get('enqueued_ms'))} | {ratio} | {pair(peer)} | {err} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("out", type=Path)
    a.add_argument("--cases", default="readme", choices=tuple(SUITES))
    b = sub.add_parser("run")
    b.add_argument("root", type=Path)
    b.add_argument("--json", type=Path)
    b.add_argument("--calls", type=int, default=50)
    b.add_argument("--peers", action="store_true")
    b.add_argument("--only", help="only the cases whose name contains this")
    b.add_argument("--shtns", metavar="BINARY",
                   help="time SHTns's CUDA transforms too, with this build of "
                        "tools/peers/shtns_bench.cu (tools/peers/README.md)")
    c = sub.add_parser("compare")
    c.add_argument("reference", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--threshold", type=float, default=0.05)
    t = sub.add_parser("table")
    t.add_argument("result", type=Path)
    ns = ap.parse_args()
    if ns.cmd == "prepare":
        prepare(ns.out, ns.cases)
    elif ns.cmd == "run":
        run(ns.root, ns.json, ns.calls, ns.peers, ns.only, ns.shtns)
    elif ns.cmd == "compare":
        return compare(json.loads(ns.reference.read_text()), json.loads(ns.new.read_text()),
                       ns.threshold)
    else:
        table(json.loads(ns.result.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
