#!/usr/bin/env python3
"""The CPU target against the CPU peers, in one run on this machine.

    python tools/bench_cpu.py --lmax 127,255,511,1023 [--lavapipe]

For each lmax (Gauss grid, nlat = lmax + 1, nphi = 2 (lmax + 1), mmax = lmax, one field):
median wall ms of synthesis / analysis for

- ireesht target "cpu" (C kernels on IREE's local-task, every core), inputs and outputs
  as device arrays (on the CPU they are host memory: no copies), float32 and float64;
- ducc0 ``synthesis_2d`` / ``analysis_2d`` (geometry "GL"), float32 and float64, 1 thread
  and all cores;
- SHTns (float64, its only precision), 1 thread and all cores, with
  OMP_PROC_BIND=true OMP_PLACES=cores, when the ``shtns`` module is importable;
- with ``--lavapipe``, ireesht target "vulkan" on Mesa's CPU Vulkan driver (lmax <= 255),
  to decide whether ``target="auto"`` should ever prefer it over the CPU target.

Each row runs in its own process (idle thread pools of one library slow the next).

Measure only on an otherwise idle machine: the load average is printed with each row.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# SHTns's OpenMP threads sometimes stall without pinning (issue 5's measurement)
os.environ.setdefault("OMP_PROC_BIND", "true")
os.environ.setdefault("OMP_PLACES", "cores")

from ireesht.bench import device_inputs, median_ms  # noqa: E402


def ireesht_ms(lmax: int, target: str, dtype: str, n: int) -> tuple[float, float]:
    import ireesht

    mod = ireesht.compile(lmax, target=target, dtype=dtype)
    _, _, q_dev, f_out, q_out = device_inputs(mod, 1)
    f_dev = mod.synth(q_dev, out=f_out)
    return (median_ms(lambda: mod.synth(q_dev, out=f_out), n),
            median_ms(lambda: mod.analys(f_dev, out=q_out), n))


def ducc0_ms(lmax: int, dtype: str, nthreads: int, n: int) -> tuple[float, float]:
    import ducc0

    from ireesht.cli import random_coefficients

    real = np.dtype(dtype)
    alm = random_coefficients(np.random.default_rng(), lmax, lmax, (1,)).astype(
        np.result_type(real, np.complex64))
    f = np.zeros((1, lmax + 1, 2 * (lmax + 1)), real)
    kw = dict(lmax=lmax, spin=0, geometry="GL", nthreads=nthreads)
    return (median_ms(lambda: ducc0.sht.synthesis_2d(alm=alm, map=f, **kw), n),
            median_ms(lambda: ducc0.sht.analysis_2d(alm=alm, map=f, **kw), n))


def shtns_ms(lmax: int, nthreads: int, n: int) -> tuple[float, float]:
    import shtns

    sh = shtns.sht(lmax, lmax, norm=shtns.sht_orthonormal, nthreads=nthreads)
    sh.set_grid(lmax + 1, 2 * (lmax + 1), shtns.sht_gauss)
    q = sh.spec_array()
    q[:] = np.random.default_rng().uniform(-1, 1, q.shape)
    f = sh.spat_array()
    return (median_ms(lambda: sh.SH_to_spat(q, f), n), median_ms(lambda: sh.spat_to_SH(f, q), n))


def measure(row: str, lmax: int, n: int) -> tuple[float, float]:
    """One row, ``kind:args``: ireesht:TARGET:DTYPE, ducc0:DTYPE:THREADS, shtns:THREADS."""
    kind, *args = row.split(":")
    if kind == "ireesht":
        return ireesht_ms(lmax, args[0], args[1], n)
    if kind == "ducc0":
        return ducc0_ms(lmax, args[0], int(args[1]), n)
    return shtns_ms(lmax, int(args[0]), n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lmax", default="127,255,511,1023")
    ap.add_argument("--calls", type=int, default=7)
    ap.add_argument("--lavapipe", action="store_true")
    ap.add_argument("--row", help=argparse.SUPPRESS)  # one measurement, in a child process
    ns = ap.parse_args()
    if ns.row:
        print(json.dumps(measure(ns.row, int(ns.lmax), ns.calls)))
        return 0
    cores = os.cpu_count()
    rows = [(f"ireesht cpu {dt} ({cores} threads)", f"ireesht:cpu:{dt}") for dt in ("float32", "float64")]
    rows += [(f"ducc0 {dt} {t} thread(s)", f"ducc0:{dt}:{t}") for dt in ("float32", "float64")
             for t in (1, cores)]
    if importlib.util.find_spec("shtns"):
        rows += [(f"SHTns float64 {t} thread(s)", f"shtns:{t}") for t in (1, cores)]
    print("| lmax | what | synth ms | analys ms | load avg |\n|---|---|---|---|---|")
    for lmax in (int(x) for x in ns.lmax.split(",")):
        lava = [("ireesht vulkan (lavapipe) float32", "ireesht:vulkan:float32")]
        for name, row in rows + (lava if ns.lavapipe and lmax <= 255 else []):
            # each in its own process: thread pools left spinning by one library (OpenMP,
            # lavapipe) would slow down the next
            out = subprocess.run([sys.executable, __file__, "--row", row, "--lmax", str(lmax),
                                  "--calls", str(ns.calls)], capture_output=True, text=True)
            if out.returncode:
                print(f"| {lmax} | {name} | failed: {out.stderr.strip().splitlines()[-1]} | | |")
                continue
            s, a = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"| {lmax} | {name} | {s:.2f} | {a:.2f} | {os.getloadavg()[0]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
