"""What the twenty-third run's CuPy prototypes share: their nvrtc options, the batch of
random coefficients the synthesis prototypes take, the check of their F against the float64
reference, and the timing of a launch with CUDA events."""
import sys
from pathlib import Path
from typing import Callable
import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "2026-12-01-h200-sixteenth" / "ishioka-pairs"))
from proto import tables  # noqa: E402,F401  (nodes, weights, seeds, polar rows, chain, offsets)
from ireesht import reference  # noqa: E402
from ireesht.grid import make_grid  # noqa: E402


def options(args: list[str]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The nvrtc options among ``args`` (all but -noref) and the values of their -DNAME=N."""
    opts = tuple(a for a in args if a != "-noref")
    return opts, {o[2:].split("=")[0]: int(o.split("=")[1]) for o in opts if o.startswith("-D")}


def coefficients(plan, batch: int) -> np.ndarray:
    """``(batch, nlm, 2)`` float32 coefficients uniform in [-1, 1], Im q_l0 = 0 (ignored by
    the reference)."""
    q = np.random.default_rng(7).uniform(-1, 1, (batch, plan.nlm, 2)).astype(np.float32)
    q[:, : plan.lmax + 1, 1] = 0.0
    return q


def check_synthesis(plan, q: np.ndarray, F: np.ndarray) -> None:
    """Prints the relative L2 error of fields 0 and B - 1 of ``F (B, nlat, mc, 2)`` against
    the float64 reference's synthesis of ``q``, through numpy's FFT (f = Re F_0 + 2 Re sum F_m
    e^{i m phi}: rfft(f) / nphi = F_m; Im F_0 left out)."""
    g = make_grid("gauss", plan.nlat, plan.nphi)
    for b in sorted({0, q.shape[0] - 1}):
        qc = q[b, :, 0].astype(np.float64) + 1j * q[b, :, 1]
        f = reference.synth(qc, plan.lmax, plan.mmax, g)
        Fr = np.fft.rfft(f, axis=-1)[:, : plan.mc] / plan.nphi
        Fk = F[b, ..., 0] + 1j * F[b, ..., 1]
        Fk[:, 0] = Fk[:, 0].real
        Fr[:, 0] = Fr[:, 0].real
        err = np.linalg.norm(Fk - Fr) / np.linalg.norm(Fr)
        print(f"  field {b}: F relative L2 error against the reference {err:.2e}", flush=True)


def time_kernel(cp, launch: Callable[[], None], runs: int = 20) -> None:
    """Prints the median and least time of ``runs`` launches, CUDA events around each (the
    GPU at its boost clock)."""
    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(runs):
        ev0.record()
        launch()
        ev1.record()
        ev1.synchronize()
        ts.append(cp.cuda.get_elapsed_time(ev0, ev1) * 1e3)
    print(f"  kernel (CUDA events, boost clock): median {np.median(ts):.1f} us, min {min(ts):.1f}",
          flush=True)
