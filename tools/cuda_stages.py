#!/usr/bin/env python3
"""GPU time of each stage of the CUDA modules, measured with Nsight Compute (IREE 3.13's
HAL profiler does not record CUDA dispatches).

On the GPU machine, over the directories of ``tools/bench.py prepare``:

    ncu --csv --metrics gpu__time_duration.sum --log-file OUT/ncu.csv \\
        python3 tools/cuda_stages.py launch benchdata > OUT/order.json
    python3 tools/cuda_stages.py report OUT/order.json OUT/ncu.csv

``launch`` loads every CUDA module and calls ``synth`` and ``analys`` (device arrays,
written into kept buffers) ``CALLS`` times each after one warm-up call; the kernels run in
a fixed order (Legendre then Fourier for synthesis, Fourier then Legendre for analysis;
the synthesis on tensor cores has two Legendre dispatches, the whole groups of 16 fields
then the rest, ``kernels_mlir.mma_synthesis``), so ``report`` assigns each profiled launch
to its stage by position and prints the median time of each stage (the Legendre
synthesis: the sum of its dispatches) with the compute floor of tools/bench.py.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CALLS = 3
H200_FMA_PER_S = {"float32": 33.5e12, "float64": 16.75e12}


def launch(root: Path) -> None:
    import ireesht
    from ireesht import artifacts
    from ireesht.bench import device_inputs
    from ireesht.kernels_mlir import mma_synthesis

    order = []
    for path in sorted(root.glob("l*_b*_*")):
        entries = [e for e in artifacts.read_manifest(path)["artifacts"] if e["target"] == "cuda"]
        for entry in entries:
            mod = ireesht.load(path, "cuda", kernels=entry["kernels"])
            p = mod.plan
            batch = int(path.name.split("_")[1][1:])
            _, _, q_dev, f_out, q_out = device_inputs(mod, batch)
            for _ in range(1 + CALLS):
                mod.synth(q_dev, out=f_out)
            for _ in range(1 + CALLS):
                mod.analys(f_out, out=q_out)
            mod._session.to_numpy(q_out)  # waits for the last call
            order.append(dict(dir=path.name, lmax=p.lmax, batch=batch, dtype=p.dtype,
                              synth_legendre=2 if mma_synthesis(p) else 1))
    json.dump(order, sys.stdout)


def report(order_path: Path, ncu_csv: Path) -> None:
    order = json.loads(order_path.read_text())
    lines = ncu_csv.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = [r for r in csv.DictReader(lines[start:]) if r["Metric Name"] == "gpu__time_duration.sum"]
    # launches per synth call (its Legendre dispatches, then the Fourier one) and per analys call
    sizes = [(m.get("synth_legendre", 1) + 1, 2) for m in order]
    expected = sum((1 + CALLS) * (ns + na) for ns, na in sizes)
    if len(rows) != expected:
        names = sorted({r["Kernel Name"] for r in rows})
        raise SystemExit(f"{len(rows)} profiled kernels, expected {expected} for "
                         f"{len(order)} modules; kernel names: {names[:10]}")
    print("| module | lmax | batch | dtype | Legendre synth ms | FFT synth ms | FFT analys ms | "
          "Legendre analys ms | Legendre / floor (synth, analys) |")
    print("|---|---|---|---|---|---|---|---|---|")
    at = 0
    for mod, (ns, na) in zip(order, sizes):
        ns_each = [float(r["Metric Value"].replace(",", ""))
                   for r in rows[at:at + (1 + CALLS) * (ns + na)]]
        at += len(ns_each)
        synth = np.array(ns_each[:(1 + CALLS) * ns]).reshape(1 + CALLS, ns)[1:]  # drop the warm-up
        analys = np.array(ns_each[(1 + CALLS) * ns:]).reshape(1 + CALLS, na)[1:]
        synth = np.stack([synth[:, :-1].sum(1), synth[:, -1]], 1)
        t = np.concatenate([np.median(synth, 0), np.median(analys, 0)]) / 1e6
        floor = 1e3 * mod["batch"] * mod["lmax"] ** 3 / H200_FMA_PER_S[mod["dtype"]]
        print(f"| {mod['dir']} | {mod['lmax']} | {mod['batch']} | {mod['dtype']} | {t[0]:.4f} | {t[1]:.4f} "
              f"| {t[2]:.4f} | {t[3]:.4f} | {t[0] / floor:.1f}x, {t[3] / floor:.1f}x |")


if __name__ == "__main__":
    if sys.argv[1] == "launch":
        launch(Path(sys.argv[2]))
    else:
        report(Path(sys.argv[2]), Path(sys.argv[3]))
