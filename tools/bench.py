#!/usr/bin/env python3
"""The benchmark harness: every path the README quotes, timed the same way, as JSON, with a
committed reference per card and a comparison that flags regressions.

    python tools/bench.py prepare DIR [--cases readme]      # here: compiles (no GPU needed)
    python tools/bench.py run DIR --json OUT.json [--peers]  # on the GPU machine: times
    python tools/bench.py compare REF.json NEW.json          # flags cases > 5% slower
    python tools/bench.py train DIR --json OUT.json          # an SFNO training step (GPU)
    python tools/bench.py percall DIR                        # where an enqueued call goes
    python tools/bench.py accuracy DIR --json OUT.json       # float32 error / ducc0's
    python tools/bench.py table OUT.json                     # the markdown table of a run

``prepare`` writes one ``ireesht build`` directory per case (``CASES``); ``run`` loads each
module there (``ireesht.load``: the runtime alone) and measures, on fresh random inputs:

- ``enqueued``: time per call of ``--calls`` calls enqueued back to back (``sync=False``,
  device arrays in and out), median of five rounds after one: the rate of a loop whose
  results stay on the device;
- ``waited``: median time of ``--calls`` calls that each wait for their result;
- ``cpu`` (CPU target, and ducc0 beside it): the median CPU time of all the process's
  threads over such calls, which other load on a shared machine disturbs far less;
- ``error``: synthesis against the float64 reference (lmax <= 1023) and the roundtrip
  analys(synth(q)) against q (against the reference's own roundtrip on grids whose
  quadrature is not exact), relative L2;
- peers (``--peers``): torch-harmonics ``InverseRealSHT`` / ``RealSHT`` on CUDA (same grid
  and batch, CUDA-synchronised calls; ``InverseRealVectorSHT`` / ``RealVectorSHT`` for the
  ``_vector`` cases) where it is installed, ducc0 for the CPU cases;
- SHTns (``--shtns BINARY``, ``tools/peers``): its CUDA transforms on the CUDA cases, scalar
  or vector, same inputs, in the same run (``table``: ireesht / SHTns).

Vector cases (``transform="vector"``) time ``vsynth`` / ``vanalys`` of ``batch`` vector fields
(2 batch scalar fields through the kernels at lmax + 1), to be read beside the scalar case
of the same name without ``_vector``.

Results are keyed ``case/target:kernels``; ``compare`` takes the enqueued times of the cases
both files have and exits 1 if any is more than ``--threshold`` (5%) slower.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ireesht  # noqa: E402
from ireesht.bench import device_inputs, functions, median_ms, pipelined_ms  # noqa: E402
from ireesht.numerics import normalization, reference, vector_reference  # noqa: E402
from ireesht.numerics.reference import rel_l2  # noqa: E402

CPU_CLOCK = time.process_time  # the CPU cases' second clock (ireesht.bench.median_ms)
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
    # vector transforms beside their scalar cases (issue 37: at most 2x the scalar time)
    **{f"l{lmax}_b1_vector": (dict(lmax=lmax, targets=GPU, transform="vector"), 1)
       for lmax in (127, 511, 1023)},
    "l1023_b16_vector": (dict(lmax=1023, targets=GPU, fields_per_thread=4,
                              transform="vector"), 16),
    "weather_b1_vector": (dict(**WEATHER, targets=GPU, transform="vector"), 1),
    "weather_b16_vector": (dict(**WEATHER, targets=GPU, fields_per_thread=4,
                                transform="vector"), 16),
    # a normalisation other than the kernels' own: one more elementwise dispatch each way
    "l1023_b1_schmidt": (dict(lmax=1023, targets=("cuda",), norm="schmidt", csphase=False), 1),
    "weather_b1_schmidt": (dict(**WEATHER, targets=("cuda",), norm="schmidt", csphase=False), 1),
}
# the CPU target (and ducc0 as its peer), for the CI machine's kind: Gauss grids of 2^k
# points per row, and the weather grids (equiangular, nphi = 2^k 3^2 5: the mixed-radix FFT)
_CPU = dict(targets=("cpu",), cpu_baselines=("x86-64-v3",))
CPU_CASES = {
    **{f"cpu_l{lmax}_b1": (dict(lmax=lmax, **_CPU), 1) for lmax in (127, 255, 511, 1023)},
    **{f"cpu_weather{nlat}_b1": (dict(lmax=nlat - 1, mmax=nlat - 2, nlat=nlat, nphi=2 * nlat - 2,
                                      grid="equiangular", **_CPU), 1)
       for nlat in (181, 361, 721, 1441)},
    **{f"cpu_l{lmax}_b1_vector": (dict(lmax=lmax, transform="vector", **_CPU), 1)
       for lmax in (127, 511)},
}
# the evidence for the registry's "auto" choices on CUDA: each case forces the variant that
# auto passes over, to be read beside the readme case of the same size
VARIANT_CASES = {
    **{f"l{lmax}_b1_lane_sums": (dict(lmax=lmax, targets=("cuda",),
                                      variants={"leg_analys": "lane_sums"}), 1)
       for lmax in (127, 255, 1023)},
    "l1023_b1_standard": (dict(lmax=1023, targets=("cuda",), recurrence="standard"), 1),
    "l1023_b16_lane_sums": (dict(lmax=1023, targets=("cuda",), fields_per_thread=4,
                                 variants={"leg_analys": "lane_sums"}), 16),
    # the Fourier stages in float32, where auto takes them in float64
    **{f"{name}_b1_fft32": (dict(**kw, targets=("cuda",),
                                 variants={"fft_synth": "fft", "fft_analys": "fft"}), 1)
       for name, kw in (("l255", dict(lmax=255)), ("l1023", dict(lmax=1023)),
                        ("weather", WEATHER))},
    # Vulkan: the float32 scheme, where auto takes the float64 recurrence
    **{f"l{lmax}_b1_vk_standard": (dict(lmax=lmax, targets=("vulkan:mlir",),
                                        recurrence="standard"), 1)
       for lmax in (127, 511, 1023, 2047)},
    "weather_b1_vk_standard": (dict(**WEATHER, targets=("vulkan:mlir",),
                                    recurrence="standard"), 1),
}
# the training step of ``train``: the layers' plan on the weather grid (torch-harmonics' lmax and
# mmax counts 720: degrees 0..719), built for batches (B x C = 256 fields per transform)
TRAIN_CASES = {"train_weather": (dict(lmax=719, mmax=719, nlat=721, nphi=1440,
                                      grid="equiangular", targets=("cuda",),
                                      fields_per_thread=4), 256)}
# vector cases beside the scalar ones of the same size (issue 37's "at most 2x")
VECTOR_CASES = {n: c for n, c in {**CASES, **CPU_CASES}.items()
                if n.endswith("_vector") or f"{n}_vector" in CASES or f"{n}_vector" in CPU_CASES}
# exact equiangular analysis (theta step, lmax = nlat - 2) beside the Gauss grid of the same
# lmax: the goal is analysis within 1.5x of the Gauss case's
EQUIANGULAR_CASES = {
    **{f"equi{lmax}_b{b}": (dict(lmax=lmax, nlat=lmax + 2, nphi=nphi, grid="equiangular",
                                 targets=GPU, fields_per_thread=4 if b > 1 else 1), b)
       for lmax, nphi in ((255, 512), (719, 1440)) for b in (1, 16)},
    **{f"gauss{lmax}_b{b}": (dict(lmax=lmax, nphi=nphi, targets=GPU,
                                  fields_per_thread=4 if b > 1 else 1), b)
       for lmax, nphi in ((255, 512), (719, 1440)) for b in (1, 16)},
    # the theta step in linalg ops, where auto takes its kernels (theta_analys "lowrank"),
    # and the kernels' parameters beside auto's (groups of rings in the first kernel: 8 for one
    # field per thread, 2 for batches; rings per thread in the second: 8)
    **{f"equi{lmax}_b{b}_linalg": (dict(lmax=lmax, nlat=lmax + 2, nphi=nphi, grid="equiangular",
                                        targets=GPU, fields_per_thread=4 if b > 1 else 1,
                                        variants={"theta_analys": "linalg"}), b)
       for lmax, nphi in ((255, 512), (719, 1440)) for b in (1, 16)},
    **{f"equi719_b{b}_{tag}": (dict(lmax=719, nlat=721, nphi=1440, grid="equiangular",
                                    targets=("cuda",), fields_per_thread=4 if b > 1 else 1,
                                    variants={"theta_analys": {"name": "lowrank", **kw}}), b)
       for b, params in ((1, {"g4": {"groups": 4}, "g16": {"groups": 16}, "r16": {"rows": 16}}),
                         (16, {"g1": {"groups": 1}, "g4": {"groups": 4}, "r16": {"rows": 16}}))
       for tag, kw in params.items()},
    "equi719_b1_f64": (dict(lmax=719, nlat=721, nphi=1440, grid="equiangular",
                            targets=("cuda",), dtype="float64"), 1),
    "gauss719_b1_f64": (dict(lmax=719, nphi=1440, targets=("cuda",), dtype="float64"), 1),
    **{f"cpu_{g}{lmax}_b1": (dict(lmax=lmax, nlat=lmax + 2 if g == "equi" else None,
                                  nphi=2 * lmax + 2, grid="equiangular" if g == "equi"
                                  else "gauss", targets=("cpu",), cpu_baselines=("x86-64-v3",)), 1)
       for lmax in (255, 511) for g in ("equi", "gauss")},
}
# the Nyquist order (nphi = 2 mmax: mmax 720 on the weather grid), beside the readme's
# weather cases (mmax 719): the extra order's matmul and pass over the field
NYQUIST_CASES = {f"weather_b{b}_nyquist": (dict(WEATHER, mmax=720, targets=GPU,
                                                fields_per_thread=4 if b > 1 else 1), b)
                 for b in (1, 16)}
# float32 accuracy against ducc0 fed float32 (issue 37: every default path within 2x of ducc0's
# error), the peers' own test cases on Gauss grids: torch-harmonics' (16 roundtrips
# analys(synth(q)), rel L2), SHTns's (16 fields, one roundtrip, rel L2; the batched kernels, and
# the one-field plan called one field at a time) and pyshtools' (the worst coefficient error of
# one roundtrip over the rms coefficient). name -> (build arguments, fields); ACCURACY says how
# each is measured: (rounds, metric, one field per call)
ACCURACY_CASES = {
    "acc_th_l255": (dict(lmax=255, nlat=256, nphi=512, targets=GPU), 1),
    "acc_shtns_l426_b16": (dict(lmax=426, nlat=432, nphi=864, targets=GPU,
                                fields_per_thread=4), 16),
    "acc_shtns_l426_f1": (dict(lmax=426, nlat=432, nphi=864, targets=GPU), 16),
    "acc_pysh_l256": (dict(lmax=256, nlat=257, nphi=514, targets=GPU), 1),
    # batched plans with the float64 recurrence: tensor cores (recurrence="ishioka"), and the
    # Ishioka synthesis with the Fourier stages in float64
    "acc_shtns_l426_b16_ishioka": (dict(lmax=426, nlat=432, nphi=864, targets=("cuda",),
                                        fields_per_thread=4, recurrence="ishioka"), 16),
    "acc_shtns_l426_b16_f64": (dict(lmax=426, nlat=432, nphi=864, targets=("cuda",),
                                    fields_per_thread=4,
                                    variants={"leg_synth": "ishioka", "fft_synth": "float64",
                                              "fft_analys": "float64"}), 16),
}
ACCURACY = {"acc_th_l255": (16, "rel_l2", False), "acc_shtns_l426_b16": (1, "rel_l2", False),
            "acc_shtns_l426_f1": (1, "rel_l2", True), "acc_pysh_l256": (1, "worst", False),
            "acc_shtns_l426_b16_ishioka": (1, "rel_l2", False),
            "acc_shtns_l426_b16_f64": (1, "rel_l2", False)}
ACCURACY_SEED = 37  # the stored inputs (seeded per case): the same for ireesht and ducc0
SUITES = {"readme": CASES, "accuracy": ACCURACY_CASES, "variants": VARIANT_CASES,
          "cpu": CPU_CASES, "train": TRAIN_CASES,
          "vector": VECTOR_CASES, "equiangular": EQUIANGULAR_CASES, "nyquist": NYQUIST_CASES,
          "smoke": {"l31_b1": (dict(lmax=31, targets=GPU), 1),
                    "l31_b1_vector": (dict(lmax=31, targets=GPU, transform="vector"), 1)}}


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
    synth, analys = (getattr(mod, name) for name in functions(mod))
    f_dev = synth(q_dev, out=f_out)
    f = mod.to_numpy(f_dev)
    q2 = mod.to_numpy(analys(f_dev, out=q_out))
    q2 = q2[..., 0] + 1j * q2[..., 1]
    g = p.make_grid()
    row = {"device": mod.info["device"], "lmax": p.band_lmax, "grid": f"{p.nlat} x {p.nphi}",
           "dtype": p.dtype, "batch": batch, "variants": mod.info["variants"],
           "transform": p.transform}
    # timed before the float64 references: their multithreaded numpy work must not overlap
    # the host-bound calls of small plans
    row["enqueued_ms"] = list(pipelined_ms(mod, q_dev, f_out, q_out, calls))
    row["waited_ms"] = [median_ms(lambda: synth(q_dev, out=f_out), calls),
                        median_ms(lambda: analys(f_dev, out=q_out), calls)]
    if p.target == "cpu":  # CPU time of all threads: robust to other load on the machine
        row["cpu_ms"] = [median_ms(lambda: synth(q_dev, out=f_out), calls, clock=CPU_CLOCK),
                         median_ms(lambda: analys(f_dev, out=q_out), calls, clock=CPU_CLOCK)]
    data = {"q": q, "f": f, "f_is_reference": False}
    if p.transform == "vector":  # the vector reference sums directly: O(lmax^3) per field
        if p.band_lmax <= 255:
            u_ref = vector_reference.vsynth(q[:1], p.band_lmax, p.mmax, g)
            row["error_synth"] = rel_l2(f[:1], u_ref)
        if p.exact:
            row["error_roundtrip"] = rel_l2(q2, q)
    elif p.lmax <= 1023:
        # the reference is orthonormal: d_lm turns the plan's norm and phase into it
        d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
        f_ref = reference.synth(q[:1] * d, p.lmax, p.mmax, g)
        data["q"] = q * d  # SHTns is orthonormal too
        if batch == 1:
            data.update(f=f_ref, f_is_reference=True)
        row["error_synth"] = rel_l2(f[:1], f_ref)
        q_ref = q[:1] if p.exact else reference.analys(f_ref, p.lmax, p.mmax, g, exact=False) / d
        row["error_roundtrip"] = rel_l2(q2[:1], q_ref)
    elif p.exact:
        row["error_roundtrip"] = rel_l2(q2, q)
    return row, data


def torch_harmonics_ms(p, batch: int, calls: int) -> list[float]:
    """torch-harmonics on CUDA, same grid and batch: synthesis, analysis (ms per call)."""
    import torch

    _torch_harmonics_sht()
    import torch_harmonics.sht as th

    grid = "legendre-gauss" if p.grid == "gauss" else "equiangular"
    dev = torch.device("cuda")
    vector = p.transform == "vector"
    fwd_cls, inv_cls = ((th.RealVectorSHT, th.InverseRealVectorSHT) if vector
                        else (th.RealSHT, th.InverseRealSHT))
    size = dict(lmax=p.band_lmax + 1, mmax=p.mmax + 1, grid=grid)
    fwd = fwd_cls(p.nlat, p.nphi, **size).to(dev)
    inv = inv_cls(p.nlat, p.nphi, **size).to(dev)
    x = torch.randn(batch, *((2,) if vector else ()), p.nlat, p.nphi, device=dev)
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
    computed, ours). Vector plans: SHTns's ``cu_SHsphtor_to_spat`` / ``cu_spat_to_SHsphtor`` of
    ``batch`` vector fields (S, T <-> u_theta, u_phi), roundtrip error only (SHTns's vector
    conventions are not mapped onto ireesht's)."""
    import subprocess
    import tempfile

    grid = {"gauss": "gauss", "equiangular": "poles"}[p.grid]
    vector = p.transform == "vector"
    if batch > 1 and p.nlat % 2:
        return {"error": "SHTns batches only even nlat on the GPU"}
    with tempfile.TemporaryDirectory() as tmp:
        qf, ff = Path(tmp, "q.bin"), Path(tmp, "f.bin")
        q = np.asarray(data["q"], np.complex128)
        if vector:  # (batch, 2, nlm): the program reads the batch fields of S, then of T
            q = q.transpose(1, 0, 2)
        np.ascontiguousarray(q).tofile(qf)
        if vector:  # no reference synthesis for SHTns's vector convention
            ff = "-"
        else:
            f = np.broadcast_to(np.asarray(data["f"], np.float64), (batch, p.nlat, p.nphi))
            np.ascontiguousarray(f).tofile(ff)
        prec = ("64" if p.dtype == "float64" else "32") + ("v" if vector else "")
        cmd = [binary, "bench", grid, str(p.band_lmax), str(p.mmax), str(p.nlat), str(p.nphi),
               str(batch), prec, "phi" if p.nlat % 2 else "native", str(qf), str(ff),
               str(calls), "5", str(calls)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    line = next((x for x in out.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        return {"error": f"rc {out.returncode}: {(out.stderr or out.stdout)[-200:]}"}
    r = json.loads(line[len("RESULT "):])
    if "error" in r:
        return {"error": r["error"]}
    res = {"enqueued_ms": [r["synth_enq_ms"], r["analys_enq_ms"]],
           "waited_ms": [r["synth_wait_ms"], r["analys_wait_ms"]],
           "error_roundtrip": r["err_roundtrip"]}
    if vector:
        return res
    return dict(res, error_synth=r["err_synth"],
                synth_checked_against="reference" if data["f_is_reference"] else "ireesht")


def ducc0_ms(p, batch: int, calls: int) -> dict:
    """ducc0 on every core, same grid (Gauss: "GL", equiangular: "CC") and dtype: synthesis,
    analysis (ms per call), wall (``waited_ms``) and CPU time of all threads (``cpu_ms``). ducc0's CC analysis is exact up to nlat - 2 and refuses more: on
    an equiangular grid its analysis is timed at min(lmax, mmax, nlat - 2) (ERA5: 719 for
    720), the same work within 0.3%."""
    import os

    import ducc0

    real = np.dtype(p.dtype)
    vector = p.transform == "vector"  # spin 1: (grad, curl) for one field (ducc0's 2 maps)
    if vector and batch != 1:
        raise ValueError(f"batch={batch}: the ducc0 vector peer times one field")
    alm = reference.random_coefficients(np.random.default_rng(), p.band_lmax, p.mmax,
                                        (2,) if vector else (batch,))
    alm = alm.astype(np.result_type(real, np.complex64))
    geometry = {"gauss": "GL", "equiangular": "CC"}[p.grid]
    kw = dict(lmax=p.band_lmax, mmax=p.mmax, spin=int(vector), geometry=geometry,
              nthreads=os.cpu_count())
    f = ducc0.sht.synthesis_2d(alm=alm, ntheta=p.nlat, nphi=p.nphi, **kw)
    kwa = dict(kw)
    if geometry == "CC" and p.band_lmax > p.nlat - 2:
        kwa.update(lmax=p.nlat - 2, mmax=min(p.mmax, p.nlat - 2))
    synth = lambda: ducc0.sht.synthesis_2d(alm=alm, ntheta=p.nlat, nphi=p.nphi, **kw)  # noqa: E731
    analys = lambda: ducc0.sht.analysis_2d(map=f, **kwa)  # noqa: E731
    return {"waited_ms": [median_ms(synth, calls), median_ms(analys, calls)],
            "cpu_ms": [median_ms(synth, calls, clock=CPU_CLOCK),
                       median_ms(analys, calls, clock=CPU_CLOCK)]}


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


def train(root: Path, out: Path | None, steps: int, batch: int = 4, channels: int = 64,
          blocks: int = 4) -> dict:
    """A training step of an SFNO-like network at full weather resolution (721 x 1440, degrees
    < 720), with ireesht's layers (``ireesht.torch``, the module of ``root/train_weather``
    provided, runtime only) and with torch-harmonics': encoder (1x1 conv 2 -> C), ``blocks``
    x [RealSHT -> per-degree complex C x C mixing -> InverseRealSHT, GELU MLP, skip], decoder;
    MSE loss, Adam. Median ms per step (forward, backward, optimizer; CUDA-synchronised) over
    ``steps`` after 3 warm-ups; peak memory: torch's allocator and the device's used memory
    (``cudaMemGetInfo`` after each step, minus before the model: IREE's pools are not
    torch's). Then the transforms alone (``_transforms``: the model's own SHT / ISHT layers,
    forward and forward + backward, and their share of the step), and torch-harmonics' times
    over ireesht's. On the CPU target (a plan built for it in ``root/train_weather``, any grid)
    the same runs without the memory figures."""
    import torch

    import ireesht.torch as ist

    _torch_harmonics_sht()
    import torch_harmonics.sht as th

    mod = ireesht.load(root / "train_weather")
    ist.provide(mod)
    nlat, nlon, L = mod.plan.nlat, mod.plan.nphi, mod.plan.lmax + 1
    dev = torch.device("cuda" if mod.plan.target == "cuda" else "cpu")
    cuda = dev.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)

    class Block(torch.nn.Module):
        def __init__(self, sht, isht):
            super().__init__()
            self.sht, self.isht = sht, isht
            self.w = torch.nn.Parameter(torch.randn(channels, channels, L, dtype=torch.complex64)
                                        / channels)
            self.mlp = torch.nn.Sequential(torch.nn.Conv2d(channels, 2 * channels, 1),
                                           torch.nn.GELU(),
                                           torch.nn.Conv2d(2 * channels, channels, 1))

        def forward(self, x):
            c = torch.einsum("bilm,iol->bolm", self.sht(x), self.w)
            return x + self.mlp(torch.nn.functional.gelu(self.isht(c)))

    def model(lib):
        sht = lib.RealSHT(nlat, nlon, lmax=L, mmax=L, grid="equiangular")
        isht = lib.InverseRealSHT(nlat, nlon, lmax=L, mmax=L, grid="equiangular")
        return torch.nn.Sequential(torch.nn.Conv2d(2, channels, 1),
                                   *[Block(sht, isht) for _ in range(blocks)],
                                   torch.nn.Conv2d(channels, 2, 1)).to(dev)

    result = {"meta": {"date": time.strftime("%Y-%m-%d"), "host": platform.node(),
                       "device": mod.info["device"], "grid": f"{nlat} x {nlon}",
                       "lmax": L - 1, "batch": batch, "channels": channels, "blocks": blocks,
                       "steps": steps}, "results": {}}
    x = torch.randn(batch, 2, nlat, nlon, device=dev)
    y = torch.randn(batch, 2, nlat, nlon, device=dev)
    losses = {}
    for name, lib in (("ireesht", ist), ("torch_harmonics", th)):
        torch.manual_seed(0)
        sync()
        if cuda:
            torch.cuda.empty_cache()
            free0 = torch.cuda.mem_get_info()[0]
            torch.cuda.reset_peak_memory_stats()
        net = model(lib)
        opt = torch.optim.Adam(net.parameters(), lr=1e-4)
        used, times = 0, []
        for i in range(steps + 3):
            sync()
            t0 = time.perf_counter()
            opt.zero_grad(set_to_none=True)
            loss = torch.nn.functional.mse_loss(net(x), y)
            loss.backward()
            opt.step()
            sync()
            times.append((time.perf_counter() - t0) * 1e3)
            if cuda:
                used = max(used, free0 - torch.cuda.mem_get_info()[0])
            if i == 0:
                losses[name] = float(loss.detach())
        result["results"][name] = {
            "step_ms": float(np.median(times[3:])), "first_step_ms": times[0],
            "loss0": losses[name],
            "peak_torch_gb": torch.cuda.max_memory_allocated() / 1e9 if cuda else None,
            "peak_device_gb": used / 1e9 if cuda else None}
        sht, isht = net[1].sht, net[1].isht  # the layers every block of the model shares
        del net, opt, loss
        result["results"][name].update(_transforms(sht, isht, batch, channels, blocks, steps,
                                                   dev, mod if name == "ireesht" else None))
        result["results"][name]["transforms_share"] = (
            result["results"][name]["transforms_per_step_ms"] / result["results"][name]["step_ms"])
        print(name, json.dumps(result["results"][name]), flush=True)
        del sht, isht
        if out:
            out.write_text(json.dumps(result, indent=1))
    r = result["results"]
    result["th_over_ireesht"] = {k: r["torch_harmonics"][k] / r["ireesht"][k]
                                 for k in ("step_ms", "transforms_fwd_ms",
                                           "transforms_fwd_bwd_ms")}
    print("torch-harmonics / ireesht", json.dumps(result["th_over_ireesht"]), flush=True)
    if out:
        out.write_text(json.dumps(result, indent=1))
    return result


def _transforms(sht, isht, batch: int, channels: int, blocks: int, reps: int, dev,
                mod=None) -> dict:
    """The transforms of ``train``'s step alone, on x of its shape (batch, channels, nlat, nlon)
    float32: ``isht(sht(x))`` forward (no grad), and forward + backward (autograd to x with a
    fixed grad_output); median ms over ``reps`` after 2 warm-ups, CUDA-synchronised. A step
    calls ``blocks`` such pairs forward and backward: ``transforms_per_step_ms`` = blocks x
    fwd+bwd. Peak memory of each measurement: torch's allocator (absolute, x and grad_output
    included) and the device's used memory (``cudaMemGetInfo`` minus before: IREE's pools
    are not torch's). ``tables_bytes``: the precomputed tables of the pair (torch-harmonics:
    the layers' buffers, O(lmax^3); ireesht: the module's, ``info["tables_bytes"]``)."""
    import torch

    cuda = dev.type == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    nbytes = sum(b.numel() * b.element_size() for m in (sht, isht) for b in m.buffers())
    out = {"tables_bytes": nbytes + (mod.info.get("tables_bytes", 0) if mod else 0)}
    x = torch.randn(batch, channels, sht.nlat, sht.nlon, device=dev)
    g = torch.randn_like(x)

    def fwd():
        with torch.no_grad():
            isht(sht(x))

    def fwd_bwd():
        x.grad = None
        torch.autograd.backward(isht(sht(x)), g)

    for key, fn, grad in (("transforms_fwd", fwd, False), ("transforms_fwd_bwd", fwd_bwd, True)):
        x.requires_grad_(grad)
        sync()
        if cuda:
            torch.cuda.empty_cache()
            free0 = torch.cuda.mem_get_info()[0]
            torch.cuda.reset_peak_memory_stats()
        used, times = 0, []
        for i in range(reps + 2):
            sync()
            t0 = time.perf_counter()
            fn()
            sync()
            times.append((time.perf_counter() - t0) * 1e3)
            if cuda:
                used = max(used, free0 - torch.cuda.mem_get_info()[0])
        out[f"{key}_ms"] = float(np.median(times[2:]))
        out[f"{key}_peak_torch_gb"] = torch.cuda.max_memory_allocated() / 1e9 if cuda else None
        out[f"{key}_peak_device_gb"] = used / 1e9 if cuda else None
    out["transforms_per_step_ms"] = blocks * out["transforms_fwd_bwd_ms"]
    x.grad = None
    return out


def _accuracy_metric(name: str, x: np.ndarray, q: np.ndarray) -> float:
    """``ACCURACY``'s metric of case ``name``: ``x`` (after the roundtrips) against ``q``."""
    x, q = np.asarray(x, np.complex128), np.asarray(q, np.complex128)
    if ACCURACY[name][1] == "worst":
        return float(np.max(np.abs(x - q)) / np.sqrt(np.mean(np.abs(q) ** 2)))
    return rel_l2(x, q)


def prepare_accuracy(out: Path, targets: tuple[str, ...] | None, only: str | None) -> None:
    """``prepare --cases accuracy``: each case's build directory (for ``targets`` instead of
    the case's own where given), its fixed inputs (``accuracy_q.npy``: complex64, seeded) and
    ducc0's float32 metric on them (``accuracy.json``), computed here once: ducc0 fed float32
    (complex64 coefficients, float32 grids), one field per call, Gauss grid ("GL")."""
    import ducc0

    out.mkdir(parents=True, exist_ok=True)
    cases = {n: c for n, c in ACCURACY_CASES.items() if not only or only in n}
    for name, (kw, batch) in cases.items():
        rng = np.random.default_rng([ACCURACY_SEED, zlib.crc32(name.encode())])
        kw = dict(kw, **({"targets": targets} if targets else {}))
        t0 = time.perf_counter()
        ireesht.build(out=out / name, **kw)
        lmax, nlat, nphi = kw["lmax"], kw["nlat"], kw["nphi"]
        q = reference.random_coefficients(rng, lmax, lmax, (batch,)).astype(np.complex64)
        np.save(out / name / "accuracy_q.npy", q)
        rounds = ACCURACY[name][0]
        x = q
        for _ in range(rounds):
            x = np.array([ducc0.sht.analysis_2d(
                map=ducc0.sht.synthesis_2d(alm=v[None], spin=0, lmax=lmax, geometry="GL",
                                           ntheta=nlat, nphi=nphi, nthreads=0),
                spin=0, lmax=lmax, geometry="GL", nthreads=0)[0] for v in x])
            assert x.dtype == np.complex64, x.dtype  # ducc0 stayed in float32
        info = {"rounds": rounds, "metric": ACCURACY[name][1], "seed": ACCURACY_SEED,
                "ducc0": _accuracy_metric(name, x, q), "ducc0_version": ducc0.__version__}
        (out / name / "accuracy.json").write_text(json.dumps(info, indent=1))
        print(f"built {name} ({time.perf_counter() - t0:.1f} s): ducc0 {info['ducc0']:.2e}",
              flush=True)
    (out / "cases.json").write_text(json.dumps({n: b for n, (_, b) in cases.items()}, indent=1))


def accuracy(root: Path, out: Path | None) -> dict:
    """Every runnable module of a ``prepare --cases accuracy`` directory (``ireesht.load``'s
    runtime alone, no ducc0 needed) on the stored inputs: ireesht's metric, ducc0's (stored)
    and their ratio (goal: <= 2) per case and target; writes ``out`` (JSON) as it goes and
    prints the markdown table."""
    from ireesht.runtime import artifacts
    from ireesht.runtime.device import available_drivers
    from ireesht.runtime.module import load_entry

    cases = json.loads((root / "cases.json").read_text())
    drivers = available_drivers()
    result = {"meta": {"date": time.strftime("%Y-%m-%d"), "host": platform.node(),
                       "ireesht": ireesht.__version__}, "results": {}}
    for name in cases:
        info = json.loads((root / name / "accuracy.json").read_text())
        q = np.load(root / name / "accuracy_q.npy")
        manifest = artifacts.read_manifest(root / name)
        for entry in artifacts.runnable(manifest["artifacts"], drivers):
            key = f"{name}/{entry['target']}:{entry['kernels']}"
            try:
                mod = load_entry(manifest, entry)
                one = ACCURACY[name][2]
                x = q
                for _ in range(info["rounds"]):
                    if one:  # the one-field plan, one field per call
                        x = np.concatenate([mod.analys(mod.synth(v[None])) for v in x])
                    else:
                        x = mod.analys(mod.synth(x))
                err = _accuracy_metric(name, x, q)
                row = {"device": mod.info["device"], "metric": info["metric"],
                       "rounds": info["rounds"], "fields": int(q.shape[0]),
                       "one_field_per_call": one, "ireesht": err, "ducc0": info["ducc0"],
                       "ratio": err / info["ducc0"]}
                del mod
            except Exception as e:  # report, keep the rest of the run
                row = {"error": f"{type(e).__name__}: {e}"[:300]}
            result["results"][key] = row
            print(key, json.dumps(row), flush=True)
            if out:
                out.write_text(json.dumps(result, indent=1))
    print("\n| case | target | metric | ireesht | ducc0 float32 | ratio (goal <= 2) |")
    print("|---|---|---|---|---|---|")
    for key, r in result["results"].items():
        name, target = key.split("/")
        if "error" in r:
            print(f"| {name} | {target} | error: {r['error'][:100]} | | | |")
        else:
            print(f"| {name} | {target} | {r['metric']}, {r['rounds']} round(s) "
                  f"| {r['ireesht']:.2e} | {r['ducc0']:.2e} | {r['ratio']:.2f} |")
    return result


def percall(root: Path, out: Path | None, calls: int, cases: tuple[str, ...]) -> dict:
    """Where an enqueued one-field synthesis goes on the host: ``Module.synth(sync=False)``,
    ``Session.enqueue`` (no argument checks), IREE's invoke alone (the VM call that records and
    submits the command buffer) and building its argument list; each as (host us per call,
    us per call once the device has finished ``calls`` calls), and a waited call."""
    import iree.runtime as rt

    result = {}
    for case in cases:
        mod = ireesht.load(root / case)
        _, _, q_dev, f_out, _ = device_inputs(mod, 1, np.random.default_rng())
        s, p = mod._session, mod.plan
        args = [*mod._args["synth"], q_dev, f_out,
                mod._kept_buffer("F", "synth", (1, p.nlat, p.mc, 2))]
        fn = s._vm_module.lookup_function("synth_async")
        transients = mod._kept_transients("synth", 1, args)

        def arg_list():
            return s._arg_list(args, transients)

        def invoke():
            s.context.vm_context.invoke(fn, arg_list(), rt.VmVariantList(2))
            s._enqueued += 1

        def rate(call, n=calls):
            call()
            s.synchronize()
            t0 = time.perf_counter()
            for _ in range(n):
                call()
            t1 = time.perf_counter()
            s.synchronize()
            return [(t1 - t0) / n * 1e6, (time.perf_counter() - t0) / n * 1e6]

        def waited():
            mod.synth(q_dev, out=f_out, sync=False)
            s.synchronize()

        r = {"module_synth_us": rate(lambda: mod.synth(q_dev, out=f_out, sync=False)),
             "session_enqueue_us": rate(lambda: s.enqueue("synth_async", *args,
                                                          transients=transients)),
             "iree_invoke_us": rate(invoke),
             "arg_list_us": rate(arg_list)[0],
             "waited_us": rate(waited, min(calls, 500))[1]}
        result[case] = r
        print(case, json.dumps(r), flush=True)
        del mod
    if out:
        out.write_text(json.dumps(result, indent=1))
    return result


def _torch_harmonics_sht() -> None:
    """Make ``import torch_harmonics.sht`` load only the pure-PyTorch SHT modules: the
    package's __init__ also loads compiled attention extensions, built against one torch
    version, which fail to load on others."""
    import importlib.util
    import types

    if "torch_harmonics" not in sys.modules:
        spec = importlib.util.find_spec("torch_harmonics")
        pkg = types.ModuleType("torch_harmonics")
        pkg.__path__ = list(spec.submodule_search_locations)
        sys.modules["torch_harmonics"] = pkg


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
        peer = peer.get("waited_ms") if isinstance(peer, dict) else peer  # ducc0: wall, CPU
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
    a.add_argument("--targets", help="accuracy suite: build for these targets (comma-separated) "
                                     "instead of the cases' own, e.g. cpu")
    a.add_argument("--only", help="accuracy suite: only the cases whose name contains this")
    ac = sub.add_parser("accuracy")
    ac.add_argument("root", type=Path, help="a prepare --cases accuracy directory")
    ac.add_argument("--json", type=Path)
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
    r = sub.add_parser("train")
    r.add_argument("root", type=Path, help="a prepare --cases train directory")
    r.add_argument("--json", type=Path)
    r.add_argument("--steps", type=int, default=10)
    r.add_argument("--batch", type=int, default=4)
    r.add_argument("--channels", type=int, default=64)
    r.add_argument("--blocks", type=int, default=4)
    pc = sub.add_parser("percall")
    pc.add_argument("root", type=Path)
    pc.add_argument("--json", type=Path)
    pc.add_argument("--calls", type=int, default=2000)
    pc.add_argument("--cases", default="l127_b1,l255_b1,l1023_b1,weather_b1")
    t = sub.add_parser("table")
    t.add_argument("result", type=Path)
    ns = ap.parse_args()
    if ns.cmd == "prepare" and ns.cases == "accuracy":
        prepare_accuracy(ns.out, tuple(ns.targets.split(",")) if ns.targets else None, ns.only)
    elif ns.cmd == "prepare":
        if ns.targets or ns.only:
            ap.error("--targets and --only: only with --cases accuracy")
        prepare(ns.out, ns.cases)
    elif ns.cmd == "accuracy":
        accuracy(ns.root, ns.json)
    elif ns.cmd == "run":
        run(ns.root, ns.json, ns.calls, ns.peers, ns.only, ns.shtns)
    elif ns.cmd == "train":
        train(ns.root, ns.json, ns.steps, ns.batch, ns.channels, ns.blocks)
    elif ns.cmd == "percall":
        percall(ns.root, ns.json, ns.calls, tuple(ns.cases.split(",")))
    elif ns.cmd == "compare":
        return compare(json.loads(ns.reference.read_text()), json.loads(ns.new.read_text()),
                       ns.threshold)
    else:
        table(json.loads(ns.result.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
