"""Fourier stages fft_synth / fft_analys (kernels/CONTRACT.md) on IREE's Vulkan driver
against numpy.fft in float64.

One small MLIR module wraps each stage's .spv in an ``hal.dispatch.extern`` with the
contract's bindings, push constants and grid; all sizes are dynamic, so it is compiled
once for every case. Inputs are fresh random numbers on every run. The bound is a
relative L2 error of 1e-6 (synthesis: relative to the reference; analysis: relative to
the reference's expected norm, see test_fft_analys).
"""

from __future__ import annotations

import numpy as np
import pytest

rt = pytest.importorskip("iree.runtime")
pytest.importorskip("iree.compiler")

from ireesht.kernels_wgsl import compile_flags  # noqa: E402
from ireesht.pipeline import compile_mlir  # noqa: E402
from ireesht.runtime import Session  # noqa: E402

TOL = 1e-6  # relative L2 error, float32 kernels vs float64 reference

MLIR = """
#spirv = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb">
#fft_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // twiddle [NP][2]
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F or f
  #hal.pipeline.binding<storage_buffer>             // f or F (result)
]>
module @fft_stages {
  // F [B][NL][mc][2] -> f [B][NL][NP]; NP = rows of twiddle.
  func.func @synth(%twiddle: tensor<?x2xf32>, %F: tensor<?x?x?x2xf32>) -> tensor<?x?x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %np = tensor.dim %twiddle, %c0 : tensor<?x2xf32>
    %b = tensor.dim %F, %c0 : tensor<?x?x?x2xf32>
    %nl = tensor.dim %F, %c1 : tensor<?x?x?x2xf32>
    %mc = tensor.dim %F, %c2 : tensor<?x?x?x2xf32>
    %np_i = arith.index_cast %np : index to i32
    %b_i = arith.index_cast %b : index to i32
    %nl_i = arith.index_cast %nl : index to i32
    %mc_i = arith.index_cast %mc : index to i32
    %f = hal.dispatch.extern "main"[%nl, %b](%nl_i, %np_i, %mc_i, %b_i, %twiddle, %F)
        : (i32, i32, i32, i32, tensor<?x2xf32>{%np}, tensor<?x?x?x2xf32>{%b, %nl, %mc})
          -> tensor<?x?x?xf32>{%b, %nl, %np}
      count(%device: !hal.device, %wl: index, %wb: index) -> (index, index, index) {
        %one = arith.constant 1 : index
        hal.return %wl, %wb, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "fft_synth.spv"}>] })
    return %f : tensor<?x?x?xf32>
  }

  // f [B][NL][NP] -> F [B][NL][mc][2].
  func.func @analys(%twiddle: tensor<?x2xf32>, %f: tensor<?x?x?xf32>, %mc_i: i32)
      -> tensor<?x?x?x2xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %b = tensor.dim %f, %c0 : tensor<?x?x?xf32>
    %nl = tensor.dim %f, %c1 : tensor<?x?x?xf32>
    %np = tensor.dim %f, %c2 : tensor<?x?x?xf32>
    %mc = arith.index_cast %mc_i : i32 to index
    %np_i = arith.index_cast %np : index to i32
    %b_i = arith.index_cast %b : index to i32
    %nl_i = arith.index_cast %nl : index to i32
    %F = hal.dispatch.extern "main"[%nl, %b](%nl_i, %np_i, %mc_i, %b_i, %twiddle, %f)
        : (i32, i32, i32, i32, tensor<?x2xf32>{%np}, tensor<?x?x?xf32>{%b, %nl, %np})
          -> tensor<?x?x?x2xf32>{%b, %nl, %mc}
      count(%device: !hal.device, %wl: index, %wb: index) -> (index, index, index) {
        %one = arith.constant 1 : index
        hal.return %wl, %wb, %one : index, index, index
      }
      layout(#fft_layout)
      objects({ #spirv ordinal(0) = [#hal.executable.object<{path = "fft_analys.spv"}>] })
    return %F : tensor<?x?x?x2xf32>
  }
}
"""

POW2 = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]  # FFT path
OTHER = [2, 6, 10, 12, 30, 100]  # direct-DFT path: not a power of two, or too short
SHAPES = [(nl, b) for nl in (1, 3, 8) for b in (1, 3)]  # (NL, B)


def _cases() -> list:
    cases = []
    for n in POW2 + OTHER:
        mmax = (n - 1) // 2  # largest M with NP > 2M
        for m in sorted({mmax, n // 5, 0} if n <= 16 else {mmax, n // 5}):
            cases.append(pytest.param(n, m, SHAPES, id=f"NP{n}-M{m}"))
    # a power of two beyond the FFT path falls back to the direct DFT
    cases.append(pytest.param(8192, 200, [(1, 1), (3, 1)], id="NP8192-M200"))
    # long direct sums: minutes on lavapipe, also a check of its 65535-iteration loop cap
    for n in (8192, 12000):
        cases.append(pytest.param(n, (n - 1) // 2, [(1, 1)], id=f"NP{n}-M{(n - 1) // 2}",
                                  marks=pytest.mark.slow))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def stages(vulkan: str) -> Session:
    """Both stages compiled once (dynamic shapes) and loaded on the Vulkan device."""
    return Session(compile_mlir(MLIR, compile_flags(None)), "vulkan")


def twiddle(n: int) -> np.ndarray:
    ang = 2.0 * np.pi * np.arange(n) / n
    return np.stack([np.cos(ang), np.sin(ang)], axis=-1).astype(np.float32)


def rel_l2(got: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(got - ref) / np.linalg.norm(ref))


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_fft_synth(stages: Session, n: int, m: int, shapes: list) -> None:
    rng = np.random.default_rng()
    tw = twiddle(n)
    for nl, b in shapes:
        F = rng.standard_normal((b, nl, m + 1, 2)).astype(np.float32)
        got = stages.to_numpy(stages.call("synth", tw, F))
        Fc = F[..., 0].astype(np.float64) + 1j * F[..., 1].astype(np.float64)
        spec = np.zeros((b, nl, n // 2 + 1), np.complex128)
        spec[..., : m + 1] = Fc
        spec[..., 0] = spec[..., 0].real  # Im F_0 is ignored
        ref = np.fft.irfft(spec, n=n, axis=-1) * n  # Re F_0 + 2 Re sum_m F_m e^{i m phi}
        assert got.shape == (b, nl, n)
        err = rel_l2(got, ref)
        assert err <= TOL, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_fft_analys(stages: Session, n: int, m: int, shapes: list) -> None:
    rng = np.random.default_rng()
    tw = twiddle(n)
    for nl, b in shapes:
        f = rng.standard_normal((b, nl, n)).astype(np.float32)
        got = stages.to_numpy(stages.call("analys", tw, f, m + 1))
        f64 = f.astype(np.float64)
        ref = np.fft.rfft(f64, axis=-1)[..., : m + 1]  # raw, no 1/NP
        assert got.shape == (b, nl, m + 1, 2)
        # Relative to the reference's expected norm, E|F_m|^2 = |f_row|^2 (Parseval), not
        # to its actual norm: with few outputs (M = 0, one row) the sum can cancel to near
        # zero and make the plain relative error meaningless (seen: 2.6e-6 at NP=256, M=0).
        scale = np.sqrt((m + 1) * np.sum(f64**2))
        err = float(np.linalg.norm(got[..., 0] + 1j * got[..., 1] - ref) / scale)
        assert err <= TOL, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"
