"""The ``ireesht`` command line (also ``python -m ireesht``)."""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

import ireesht
from ireesht import api, bench as timing, registry
from ireesht.comparison import check
from ireesht.host import CPU_BASELINES
from ireesht.numerics import reference
from ireesht.numerics.grid import GRID_KINDS as GRIDS
from ireesht.numerics.normalization import NORMS
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.plan import TRANSFORMS
from ireesht.registry import DTYPES, FIELDS_PER_THREAD, RECURRENCES, TARGETS
from ireesht.runtime import artifacts, cache
from ireesht.runtime.device import DRIVERS, describe_device, list_devices, scan_drivers


def demo(ns: argparse.Namespace) -> int:
    """The README's main job: synthesis -> analysis on the default device, errors against
    the float64 reference, times, and a PNG map of the field and the roundtrip error."""
    mod = api.compile(ns.lmax, grid=ns.grid, target=ns.target)
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
    print(f"time     synth {timing.median_ms(lambda: mod.synth(q), 5):.2f} ms, "
          f"analys {timing.median_ms(lambda: mod.analys(f), 5):.2f} ms (median of 5, numpy in/out)")
    if ns.png:
        _plot(ns.png, f, mod.synth(q2) - f, p)
    return 0


def _plot(path: str, field: np.ndarray, error: np.ndarray, plan) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("png      not written: it needs matplotlib (pip install 'ireesht[plot]')")
        return
    fig, axes = plt.subplots(2, 1, figsize=(8, 8), constrained_layout=True)
    extent = (0, 360, -90, 90)
    for ax, data, title in ((axes[0], field, "synthesized field"),
                            (axes[1], error, "synth(analys(f)) - f")):
        im = ax.imshow(data, extent=extent, aspect="auto", cmap="RdBu_r",
                       vmin=-np.abs(data).max(), vmax=np.abs(data).max())
        ax.set(title=f"{title}, lmax={plan.lmax}, {plan.grid} {plan.nlat}x{plan.nphi}",
               xlabel="longitude", ylabel="latitude")
        fig.colorbar(im, ax=ax)
    fig.savefig(path, dpi=100)
    print(f"png      {path}")


def devices(ns: argparse.Namespace) -> int:
    """What IREE sees on this machine: each target's devices (the index and name that
    ``device=`` takes, the URI) and what they support; drivers without a device, and why."""
    found = scan_drivers()
    rows = list_devices(found)
    for r in rows:
        print(f"{r['target']:7s} {r['index']:2d}  {r['name']}  ({r['uri']})")
        features = describe_device(r["driver"], found[r["driver"]][r["index"]])
        if features:
            print(f"{'':11s} " + ", ".join(f"{k}: {v}" for k, v in features.items()))
    for target, driver in DRIVERS.items():
        if not isinstance(found.get(driver), list) or not found[driver]:
            why = found.get(driver) or "no device"
            print(f"{target:7s} --  none ({driver}: {str(why)[:90]})")
    return 0


def info(ns: argparse.Namespace) -> int:
    """Describe saved artifacts (``ireesht build``, Module.save) after verifying checksums."""
    manifest = artifacts.read_manifest(ns.path)
    for entry in manifest["artifacts"]:
        artifacts.verified_bytes(manifest, entry, check_release=False)
        artifacts.entry_plan(manifest, entry)
    print(json.dumps({k: v for k, v in manifest.items() if not k.startswith("_")}, indent=2))
    return 0


def build_cmd(ns: argparse.Namespace) -> int:
    t0 = time.perf_counter()

    def progress(message: str) -> None:
        print(f"{time.perf_counter() - t0:6.1f} s  compiling {message}", file=sys.stderr, flush=True)

    out = api.build(ns.lmax, ns.out, tuple(_split(ns.targets)), ns.mmax, ns.nlat, ns.nphi, ns.grid,
                ns.dtype, fields_per_thread=ns.fields_per_thread, recurrence=ns.recurrence,
                norm=ns.norm, csphase=not ns.no_csphase,
                cpu_baselines=tuple(_split(ns.cpu_baselines)), progress=progress,
                transform=ns.transform)
    print(f"{time.perf_counter() - t0:6.1f} s  wrote {out} ("
          + ", ".join(sorted(x.name for x in out.glob("*.vmfb"))) + ")", file=sys.stderr)
    return 0


def bench(ns: argparse.Namespace) -> int:
    """Time synth / analys with device-resident data (the fast path: each call waited
    for, and calls enqueued back to back) and numpy in/out."""
    print("| target | kernels | device | dtype | lmax | grid | batch | synth ms | analys ms | "
          "synth / analys ms enqueued | synth ms numpy | analys ms numpy |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for target in _split(ns.targets):
        for lmax in ns.lmax:
            r = timing.bench_plan(lmax, target, ns.batch, ns.repeat, ns.grid, ns.dtype, **_sizes(ns),
                           fields_per_thread=ns.fields_per_thread, recurrence=ns.recurrence)
            print(f"| {target} | {r['kernels']} | {r['device']} | {ns.dtype} | {lmax} "
                  f"| {ns.grid} {r['grid']} | {ns.batch} "
                  f"| {r['synth_ms']:.3f} | {r['analys_ms']:.3f} "
                  f"| {r['synth_pipelined_ms']:.3f} / {r['analys_pipelined_ms']:.3f} "
                  f"| {r['synth_numpy_ms']:.3f} | {r['analys_numpy_ms']:.3f} |", flush=True)
    return 0


def _split(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _sizes(ns: argparse.Namespace) -> dict:
    return dict(mmax=ns.mmax, nlat=ns.nlat, nphi=ns.nphi)


def _size_args(p: argparse.ArgumentParser) -> None:
    """--mmax, --nlat, --nphi: the plan's sizes (default: the grid's, as compile())."""
    for name in ("mmax", "nlat", "nphi"):
        p.add_argument(f"--{name}", type=int)


def check_cmd(ns: argparse.Namespace) -> int:
    rows = check(ns.lmax, ns.batch, ns.grid, artifacts=ns.artifacts, dtype=ns.dtype,
                 transform=ns.transform, **_sizes(ns))
    return 0 if all(r["ok"] for r in rows) else 1


def cache_cmd(ns: argparse.Namespace) -> int:
    """Where compiled modules are cached and how much they take; ``--clear`` removes them."""
    if ns.clear or ns.action == "clear":
        print(f"removed {cache.clear()} files from {cache.root()}")
        return 0
    i = cache.info()
    print(f"cache    {i['root']} (IREESHT_CACHE, else ~/.cache/ireesht)\n"
          f"this     {i['dir']}\n"
          f"entries  {i['entries']}, {i['bytes'] / 2**20:.1f} MiB")
    return 0


def variants(ns: argparse.Namespace) -> int:
    """Print docs/variants.md: the registry's variants and targets."""
    print(registry.docs_table(), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="ireesht", description="spherical harmonic transforms with IREE")
    ap.add_argument("--version", action="version", version=f"ireesht {ireesht.__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("demo", help="synthesis -> analysis roundtrip on the default device")
    d.add_argument("--lmax", type=int, default=127)
    d.add_argument("--grid", default="gauss", choices=GRIDS)
    d.add_argument("--target", default="auto", choices=("auto", *TARGETS))
    d.add_argument("--png", default="ireesht_demo.png",
                   help="map of the field and the roundtrip error ('' for none)")
    d.set_defaults(run=demo)
    b = sub.add_parser("build", help="compile one plan for several targets into a directory")
    b.add_argument("--lmax", type=int, required=True)
    b.add_argument("--grid", default="gauss", choices=GRIDS)
    _size_args(b)
    b.add_argument("--dtype", default="float32", choices=DTYPES)
    b.add_argument("--targets", default=",".join(TARGETS),
                   help="comma-separated, each a target or target:kernels (vulkan:mlir): "
                   + ",".join(TARGETS))
    b.add_argument("--fields-per-thread", type=int, default=1, choices=FIELDS_PER_THREAD,
                   help="fields that share one Legendre recurrence on the GPU targets (4: "
                        "batches)")
    b.add_argument("--recurrence", default="auto", choices=("auto", *RECURRENCES),
                   help="the Legendre recurrence on the GPU targets that run it (auto: ishioka "
                        "on CUDA and Vulkan with one field per thread; with --fields-per-thread "
                        "4 on CUDA, standard in the synthesis and ishioka on tensor cores in the "
                        "analysis at lmax 511-1023; standard elsewhere; ishioka with "
                        "--fields-per-thread 4 on CUDA: both Legendre stages on tensor cores "
                        "(the synthesis in whole groups of 16 fields, the rest after them), "
                        "for batches of 16 fields or more)")
    b.add_argument("--transform", default="scalar", choices=TRANSFORMS,
                   help="vector: modules with vsynth / vanalys (README, Conventions)")
    b.add_argument("--norm", default="ortho", choices=NORMS,
                   help="the coefficients' normalisation (README, Conventions)")
    b.add_argument("--no-csphase", action="store_true",
                   help="harmonics without the Condon-Shortley phase (-1)^m")
    b.add_argument("--cpu-baselines", default="x86-64-v3,aarch64",
                   help="CPU modules to build (comma-separated): " + ",".join(CPU_BASELINES))
    b.add_argument("--out", required=True)
    b.set_defaults(run=build_cmd)
    sub.add_parser("devices", help="IREE drivers and devices on this machine").set_defaults(run=devices)
    i = sub.add_parser("info", help="describe saved artifacts (checks their sha256)")
    i.add_argument("path")
    i.set_defaults(run=info)
    c = sub.add_parser("check", help="every available backend and kernel variant against the "
                       "float64 reference and each other; exits 1 on a mismatch")
    c.add_argument("--lmax", type=int, default=127)
    c.add_argument("--batch", type=int, default=2)
    c.add_argument("--grid", default="gauss", choices=GRIDS)
    c.add_argument("--dtype", default="float32", choices=DTYPES)
    c.add_argument("--transform", default="scalar", choices=TRANSFORMS,
                   help="vector: vsynth / vanalys of spheroidal and toroidal coefficients")
    _size_args(c)
    c.add_argument("--artifacts", help="check the modules of this `ireesht build` directory "
                   "instead of compiling here (lmax, grid and sizes are then the directory's)")
    c.set_defaults(run=check_cmd)
    n = sub.add_parser("bench", help="time synth / analys on given targets and sizes")
    n.add_argument("--lmax", type=int, nargs="+", default=[127, 255, 511])
    n.add_argument("--targets", default="auto")
    n.add_argument("--batch", type=int, default=1)
    n.add_argument("--repeat", type=int, default=20)
    n.add_argument("--grid", default="gauss", choices=GRIDS)
    n.add_argument("--dtype", default="float32", choices=DTYPES)
    n.add_argument("--fields-per-thread", type=int, choices=FIELDS_PER_THREAD,
                   help="fields that share one Legendre recurrence on the GPU targets "
                        "(default: 4 from 8 fields per call, else 1)")
    n.add_argument("--recurrence", default="auto", choices=("auto", *RECURRENCES),
                   help="as for build")
    _size_args(n)
    n.set_defaults(run=bench)
    k = sub.add_parser("cache", help="where compiled modules are cached, their size; "
                       "--clear removes them")
    k.add_argument("action", nargs="?", choices=("show", "clear"), default="show")
    k.add_argument("--clear", action="store_true", help="remove every cached module")
    k.set_defaults(run=cache_cmd)
    sub.add_parser("variants", help="print the kernel variant registry as markdown "
                   "(docs/variants.md)").set_defaults(run=variants)
    ns = ap.parse_args(argv)
    try:
        return ns.run(ns)
    except ValueError as e:
        print(f"ireesht {ns.command}: {e}", file=sys.stderr)
        return 2
