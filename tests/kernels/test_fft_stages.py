"""Fourier stages fft_synth / fft_analys (docs/design.md) of both kernel families on
IREE's Vulkan driver against numpy.fft in float64.

WGSL family: one small MLIR module wraps each stage's .spv in an ``hal.dispatch.extern`` with
the contract's bindings, push constants and grid; all sizes are dynamic, so it is compiled
once for every case. MLIR family (kernels/mlir): each stage template is rendered once per NL
(the grid's x extent is the one size fixed at compile time) into a module that calls it with
``flow.dispatch``; NP, mc and B are dynamic, so that module too serves every case.
tests/kernels/test_mlir_fft.py adds what only the MLIR family has, with the helpers of this file.

Inputs are fresh random numbers on every run. The bound is a relative L2 error of 1e-6
(synthesis: relative to the reference; analysis: relative to the reference's expected norm,
see check_analys).
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pytest

rt = pytest.importorskip("iree.runtime")
pytest.importorskip("iree.compiler")

from ireesht.codegen import wgsl as kernels_wgsl  # noqa: E402
from ireesht.codegen.mlir import common, family as kernels_mlir  # noqa: E402
from ireesht.numerics import fourier  # noqa: E402
from ireesht.numerics.reference import rel_l2  # noqa: E402
from ireesht.codegen.module import compile_mlir  # noqa: E402
from ireesht.codegen.pipeline import template_values  # noqa: E402
from ireesht.plan import Plan  # noqa: E402
from ireesht.runtime.device import Session  # noqa: E402

TOL = 1e-6  # relative L2 error, float32 kernels vs float64 reference
NLS = (1, 3, 8)  # the NL of the cases, one MLIR-family executable each

WGSL_MODULE = """
#spirv = #hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb">
#fft_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // twiddle [NT][2]
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F or f
  #hal.pipeline.binding<storage_buffer>             // f or F (result)
]>
module @fft_stages {
  // F [B][NL][mc][2] -> f [B][NL][NP].
  func.func @synth(%twiddle: tensor<?x2xf32>, %F: tensor<?x?x?x2xf32>, %np_i: i32)
      -> tensor<?x?x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %ntw = tensor.dim %twiddle, %c0 : tensor<?x2xf32>
    %np = arith.index_cast %np_i : i32 to index
    %b = tensor.dim %F, %c0 : tensor<?x?x?x2xf32>
    %nl = tensor.dim %F, %c1 : tensor<?x?x?x2xf32>
    %mc = tensor.dim %F, %c2 : tensor<?x?x?x2xf32>
    %b_i = arith.index_cast %b : index to i32
    %nl_i = arith.index_cast %nl : index to i32
    %mc_i = arith.index_cast %mc : index to i32
    %f = hal.dispatch.extern "main"[%nl, %b](%nl_i, %np_i, %mc_i, %b_i, %twiddle, %F)
        : (i32, i32, i32, i32, tensor<?x2xf32>{%ntw}, tensor<?x?x?x2xf32>{%b, %nl, %mc})
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
    %ntw = tensor.dim %twiddle, %c0 : tensor<?x2xf32>
    %mc = arith.index_cast %mc_i : i32 to index
    %np_i = arith.index_cast %np : index to i32
    %b_i = arith.index_cast %b : index to i32
    %nl_i = arith.index_cast %nl : index to i32
    %F = hal.dispatch.extern "main"[%nl, %b](%nl_i, %np_i, %mc_i, %b_i, %twiddle, %f)
        : (i32, i32, i32, i32, tensor<?x2xf32>{%ntw}, tensor<?x?x?xf32>{%b, %nl, %np})
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

MLIR_LAYOUT = """#fft_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // twiddle [NT][2]
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F or f
  #hal.pipeline.binding<storage_buffer>             // f or F (result)
]>"""

# The MLIR family's functions for one NL. F [B][NL][mc][2] -> f [B][NL][NP]: F and f of the
# stage's buffer type ${io}, the table of its arithmetic type ${ft} (fft.stage_values).
MLIR_SYNTH = """
  func.func @synth${nl}(%tw: tensor<?x2x${ft}>, %F: tensor<?x${nl}x?x2x${io}>, %np_i: i32)
      -> tensor<?x${nl}x?x${io}> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %ntw = tensor.dim %tw, %c0 : tensor<?x2x${ft}>
    %np = arith.index_cast %np_i : i32 to index
    %b = tensor.dim %F, %c0 : tensor<?x${nl}x?x2x${io}>
    %mc = tensor.dim %F, %c2 : tensor<?x${nl}x?x2x${io}>
    %nl_i = arith.constant ${nl} : i32
    %mc_i = arith.index_cast %mc : index to i32
    %b_i = arith.index_cast %b : index to i32
    %f = flow.dispatch @fft_synth_${nl}::@v::@main[%b](%nl_i, %np_i, %mc_i, %b_i, %tw, %F)
        : (i32, i32, i32, i32, tensor<?x2x${ft}>{%ntw}, tensor<?x${nl}x?x2x${io}>{%b, %mc})
          -> tensor<?x${nl}x?x${io}>{%b, %np}
    return %f : tensor<?x${nl}x?x${io}>
  }
"""

# f [B][NL][NP] -> F [B][NL][mc][2].
MLIR_ANALYS = """
  func.func @analys${nl}(%tw: tensor<?x2x${ft}>, %f: tensor<?x${nl}x?x${io}>, %mc_i: i32)
      -> tensor<?x${nl}x?x2x${io}> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %ntw = tensor.dim %tw, %c0 : tensor<?x2x${ft}>
    %np = tensor.dim %f, %c2 : tensor<?x${nl}x?x${io}>
    %b = tensor.dim %f, %c0 : tensor<?x${nl}x?x${io}>
    %mc = arith.index_cast %mc_i : i32 to index
    %nl_i = arith.constant ${nl} : i32
    %np_i = arith.index_cast %np : index to i32
    %b_i = arith.index_cast %b : index to i32
    %F = flow.dispatch @fft_analys_${nl}::@v::@main[%b](%nl_i, %np_i, %mc_i, %b_i, %tw, %f)
        : (i32, i32, i32, i32, tensor<?x2x${ft}>{%ntw}, tensor<?x${nl}x?x${io}>{%b, %np})
          -> tensor<?x${nl}x?x2x${io}>{%b, %mc}
    return %F : tensor<?x${nl}x?x2x${io}>
  }
"""


def mlir_plan(target: str, nl: int = 1, dtype: str = "float32", nphi: int = 12,
              variant: str = "fft") -> Plan:
    """A plan of the MLIR family whose grid has NL = ``nl`` latitudes and whose Fourier stages
    are ``variant``; by default an NP (12) whose FFT takes a radix-3 pass, so that the
    kernels have every pass (``fourier.fft_mixed``) and one serves every NP."""
    return Plan.create(0, nlat=nl, nphi=nphi, target=target, kernels="mlir", dtype=dtype,
                       variants={"fft_synth": variant, "fft_analys": variant})


def mlir_module(target: str, nls=NLS, dtype: str = "float32", nphi: int = 12,
                variant: str = "fft") -> str:
    """The MLIR family's Fourier stages (``variant``) for ``target`` (cuda, metal, vulkan),
    one executable per NL, and the functions ``synth<NL>`` / ``analys<NL>`` that dispatch
    them."""
    parts = []
    for nl in nls:
        plan = mlir_plan(target, nl, dtype, nphi, variant)
        values = kernels_mlir.stage_values(plan, template_values(plan), every_fft_pass=True)
        for stage, wrapper in (("fft_synth", MLIR_SYNTH), ("fft_analys", MLIR_ANALYS)):
            v = {**values[stage], "exe": f"{stage}_{nl}", "nl": nl}
            template = string.Template((common.kernels_dir() / f"{stage}.mlir").read_text())
            parts += [template.substitute(v), string.Template(wrapper).substitute(v)]
    device, alias, _ = common.executable_target(mlir_plan(target, variant=variant))
    return (f"#target = {alias}\n{MLIR_LAYOUT}\n"
            f'module @mlir_fft attributes {{hal.device.targets = [#hal.device.target<"{device}", '
            f"[#target]> : !hal.device]}} {{\n" + "\n".join(parts) + "}\n")


class Stages(NamedTuple):
    """A family's Fourier stages: ``run(name, nl, *args)`` calls function ``name`` (synth,
    analys) on NL rows; ``family`` names the twiddle table's pass rows they read."""
    family: str
    run: Callable[..., np.ndarray]


@functools.cache
def load(family: str, variant: str = "fft") -> Stages:
    """The family's stages (the MLIR family's ``variant``) on the Vulkan device. Compiled once
    per test run, as test_mlir_fft.py runs the MLIR family too."""
    if family == "wgsl":
        session = Session(compile_mlir(WGSL_MODULE, kernels_wgsl.compile_flags(None)), "vulkan")
        return Stages(family, lambda name, nl, *args: session.to_numpy(session.call(name, *args)))
    plan = mlir_plan("vulkan", variant=variant)
    session = Session(compile_mlir(mlir_module("vulkan", variant=variant),
                                   kernels_mlir.compile_flags(plan)), "vulkan")
    return Stages(family,
                  lambda name, nl, *args: session.to_numpy(session.call(f"{name}{nl}", *args)))


POW2 = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]  # FFT path of both families
# NP / 2 a product of 2, 3 and 5: the FFT of both families, radix 3 and 5 passes too
# (tests/kernels/test_mlir_fft.py has the MLIR family's long rows); 3 2^k, 5 2^k among them
SMOOTH = [6, 10, 12, 24, 30, 40, 48, 80, 90, 100, 360, 1440]
# The MLIR family's direct DFT; the WGSL family's Bluestein FFT (NP / 2 or an odd NP with a
# prime factor > 5: 97 and 1447 prime, 1018 = 2 509, 606 = 2 3 101), its mixed-radix FFT
# of odd rows (15, 45), and the direct DFT of both (2, too short; 1447: Bluestein's m > 2048)
OTHER = [2, 14, 15, 45, 97, 98, 606, 1018, 1447]
SHAPES = [(nl, b) for nl in NLS for b in (1, 3)]  # (NL, B)


def _cases() -> list:
    cases = []
    for n in POW2 + SMOOTH + OTHER:
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


@pytest.fixture(scope="module", params=["wgsl", "mlir"])
def stages(request, vulkan: str) -> Stages:
    """The family's stages on the Vulkan device (see ``load``)."""
    return load(request.param)


def check_rounded_once(got: np.ndarray, ref: np.ndarray, case: str) -> None:
    """Every float32 output within half an ulp of the float64 reference (and float64's own
    rounding): what a kernel that computes in float64 and rounds at the store gives."""
    err = np.abs(got - ref) - 2.0**-24 * np.abs(ref)
    assert err.max() <= 1e-12 * np.abs(ref).max(), (
        f"{case}: {np.mean(err > 0):.1%} past half an ulp")


def check_synth(stages: Stages, rng: np.random.Generator, n: int, m: int, shapes: list,
                tol: float = TOL, dtype: type = np.float32, tw_dtype: type | None = None,
                half_ulp: bool = False) -> None:
    """Synthesis of random F of M = ``m`` into rows of ``n`` points, for each (NL, B) of
    ``shapes``, against numpy.fft.irfft in float64; inputs in ``dtype``, the table in
    ``tw_dtype`` (default ``dtype``); with ``half_ulp`` also ``check_rounded_once``."""
    tw = fourier.twiddle(n, tw_dtype or dtype, stages.family)
    for nl, b in shapes:
        F = rng.standard_normal((b, nl, m + 1, 2)).astype(dtype)
        got = stages.run("synth", nl, tw, F, n)
        Fc = F[..., 0].astype(np.float64) + 1j * F[..., 1].astype(np.float64)
        spec = np.zeros((b, nl, n // 2 + 1), np.complex128)
        spec[..., : m + 1] = Fc
        spec[..., 0] = spec[..., 0].real  # Im F_0 is ignored
        ref = np.fft.irfft(spec, n=n, axis=-1) * n  # Re F_0 + 2 Re sum_m F_m e^{i m phi}
        assert got.shape == (b, nl, n)
        err = rel_l2(got, ref)
        assert err <= tol, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"
        if half_ulp:
            check_rounded_once(got, ref, f"NP={n} M={m} NL={nl} B={b}")


def check_analys(stages: Stages, rng: np.random.Generator, n: int, m: int, shapes: list,
                 tol: float = TOL, dtype: type = np.float32, tw_dtype: type | None = None,
                 half_ulp: bool = False) -> None:
    """Analysis of random rows of ``n`` points up to M = ``m`` (as check_synth)."""
    tw = fourier.twiddle(n, tw_dtype or dtype, stages.family)
    for nl, b in shapes:
        f = rng.standard_normal((b, nl, n)).astype(dtype)
        got = stages.run("analys", nl, tw, f, m + 1)
        f64 = f.astype(np.float64)
        ref = np.fft.rfft(f64, axis=-1)[..., : m + 1]  # raw, no 1/NP
        assert got.shape == (b, nl, m + 1, 2)
        # Relative to the reference's expected norm, E|F_m|^2 = |f_row|^2 (Parseval), not
        # to its actual norm: with few outputs (M = 0, one row) the sum can cancel to near
        # zero and make the plain relative error meaningless (seen: 2.6e-6 at NP=256, M=0).
        scale = np.sqrt((m + 1) * np.sum(f64**2))
        err = float(np.linalg.norm(got[..., 0] + 1j * got[..., 1] - ref) / scale)
        assert err <= tol, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"
        if half_ulp:
            check_rounded_once(got, np.stack([ref.real, ref.imag], -1),
                               f"NP={n} M={m} NL={nl} B={b}")


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_fft_synth(stages, rng: np.random.Generator, n: int, m: int, shapes: list) -> None:
    check_synth(stages, rng, n, m, shapes)


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_fft_analys(stages, rng: np.random.Generator, n: int, m: int, shapes: list) -> None:
    check_analys(stages, rng, n, m, shapes)
