"""The ``ireesht`` command line (also ``python -m ireesht``)."""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def random_coefficients(rng: np.random.Generator, lmax: int, mmax: int, batch: tuple = ()) -> np.ndarray:
    """Uniform random coefficients in [-1, 1] (complex), Im = 0 for m = 0 (real fields)."""
    from ireesht import layout

    n = layout.nlm(lmax, mmax)
    q = rng.uniform(-1, 1, batch + (n,)) + 1j * rng.uniform(-1, 1, batch + (n,))
    q[..., : lmax + 1] = q[..., : lmax + 1].real
    return q


def rel_l2(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def median_time(fn, *args, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def demo(ns: argparse.Namespace) -> int:
    import ireesht
    from ireesht import reference

    mod = ireesht.compile(ns.lmax, grid=ns.grid)
    p = mod.plan
    rng = np.random.default_rng()
    q = random_coefficients(rng, p.lmax, p.mmax)
    f = mod.synth(q)
    q2 = mod.analys(f)
    g = p.make_grid()
    f_ref = reference.synth(q, p.lmax, p.mmax, g)
    print(f"device   {mod.info['device']} (target {p.target}, kernels {mod.info['kernels']})")
    print(f"plan     lmax={p.lmax} mmax={p.mmax} grid={p.grid} nlat={p.nlat} nphi={p.nphi} "
          f"({p.nlm} coefficients)")
    print(f"module   {mod.info['module']} in {mod.info['compile_s']:.2f} s")
    print(f"synth    rel. L2 error vs float64 reference {rel_l2(f, f_ref):.2e}")
    print(f"roundtrip analys(synth(q)) rel. L2 error   {rel_l2(q2, q):.2e}")
    print(f"time     synth {1e3 * median_time(mod.synth, q):.2f} ms, "
          f"analys {1e3 * median_time(mod.analys, f):.2f} ms (median of 5, numpy in/out)")
    return 0


def devices(ns: argparse.Namespace) -> int:
    """What IREE sees on this machine: each driver and its devices."""
    from ireesht.runtime import scan_drivers

    for driver, found in scan_drivers().items():
        if isinstance(found, str):
            print(f"{driver:12s} unavailable ({found[:90]})")
        elif not found:
            print(f"{driver:12s} no device")
        for d in found if isinstance(found, list) else ():
            print(f"{driver:12s} {d.get('name', '?')}  ({d.get('path', '')})")
    return 0


def info(ns: argparse.Namespace) -> int:
    """Describe a saved module (ireesht.Module.save) after verifying its checksum."""
    import json

    from ireesht.module import read_manifest

    manifest, _ = read_manifest(ns.path)
    print(json.dumps(manifest, indent=2))
    return 0


def check_cmd(ns: argparse.Namespace) -> int:
    from ireesht.comparison import check

    rows = check(ns.lmax, ns.batch, ns.grid)
    return 0 if all(r["ok"] for r in rows) else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ireesht", description="spherical harmonic transforms with IREE")
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="synthesis -> analysis roundtrip on the default device")
    d.add_argument("--lmax", type=int, default=127)
    d.add_argument("--grid", default="gauss", choices=("gauss", "equiangular"))
    d.set_defaults(run=demo)
    sub.add_parser("devices", help="IREE drivers and devices on this machine").set_defaults(run=devices)
    i = sub.add_parser("info", help="describe a saved module (checks its sha256)")
    i.add_argument("path")
    i.set_defaults(run=info)
    c = sub.add_parser("check", help="every available backend and kernel variant against the "
                       "float64 reference and each other; exits 1 on a mismatch")
    c.add_argument("--lmax", type=int, default=127)
    c.add_argument("--batch", type=int, default=2)
    c.add_argument("--grid", default="gauss", choices=("gauss", "equiangular"))
    c.set_defaults(run=check_cmd)
    ns = ap.parse_args(argv)
    try:
        return ns.run(ns)
    except ValueError as e:
        print(f"ireesht {ns.command}: {e}", file=sys.stderr)
        return 2
