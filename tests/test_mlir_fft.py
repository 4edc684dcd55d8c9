"""Fourier stages of the MLIR kernel family (kernels/mlir/fft_synth.mlir, fft_analys.mlir)
alone, against numpy.fft in float64, on IREE's Vulkan driver; plus compile-only checks
for CUDA and Metal (no such GPU here).

Each stage template is rendered once per NL (the grid's x extent is the one size fixed at
compile time) into a small module that calls it with ``flow.dispatch``, with the contract's
operands (kernels/CONTRACT.md); NP, mc and B are dynamic, so one compiled module serves
every case. Inputs are fresh random numbers on every run; the bounds are those of
tests/test_fft_stages.py (the WGSL stages).
"""

from __future__ import annotations

import string

import numpy as np
import pytest

rt = pytest.importorskip("iree.runtime")
pytest.importorskip("iree.compiler")

from ireesht.kernels_mlir import compile_flags, executable_target, kernels_dir  # noqa: E402
from ireesht.pipeline import compile_mlir  # noqa: E402
from ireesht.plan import Plan  # noqa: E402
from ireesht.runtime import Session  # noqa: E402

TOL = 1e-6  # relative L2 error, float32 kernels vs float64 reference
NLS = (1, 3, 8)

LAYOUT = """#fft_layout = #hal.pipeline.layout<constants = 4, bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // twiddle [NP][2]
  #hal.pipeline.binding<storage_buffer, ReadOnly>,  // F or f
  #hal.pipeline.binding<storage_buffer>             // f or F (result)
]>"""

# F [B][NL][mc][2] -> f [B][NL][NP]; NP = rows of twiddle.
SYNTH = """
  func.func @synth${nl}(%tw: tensor<?x2x${ft}>, %F: tensor<?x${nl}x?x2x${ft}>)
      -> tensor<?x${nl}x?x${ft}> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %np = tensor.dim %tw, %c0 : tensor<?x2x${ft}>
    %b = tensor.dim %F, %c0 : tensor<?x${nl}x?x2x${ft}>
    %mc = tensor.dim %F, %c2 : tensor<?x${nl}x?x2x${ft}>
    %nl_i = arith.constant ${nl} : i32
    %np_i = arith.index_cast %np : index to i32
    %mc_i = arith.index_cast %mc : index to i32
    %b_i = arith.index_cast %b : index to i32
    %f = flow.dispatch @fft_synth_${nl}::@v::@main[%b](%nl_i, %np_i, %mc_i, %b_i, %tw, %F)
        : (i32, i32, i32, i32, tensor<?x2x${ft}>{%np}, tensor<?x${nl}x?x2x${ft}>{%b, %mc})
          -> tensor<?x${nl}x?x${ft}>{%b, %np}
    return %f : tensor<?x${nl}x?x${ft}>
  }
"""

# f [B][NL][NP] -> F [B][NL][mc][2].
ANALYS = """
  func.func @analys${nl}(%tw: tensor<?x2x${ft}>, %f: tensor<?x${nl}x?x${ft}>, %mc_i: i32)
      -> tensor<?x${nl}x?x2x${ft}> {
    %c0 = arith.constant 0 : index
    %np = tensor.dim %tw, %c0 : tensor<?x2x${ft}>
    %b = tensor.dim %f, %c0 : tensor<?x${nl}x?x${ft}>
    %mc = arith.index_cast %mc_i : i32 to index
    %nl_i = arith.constant ${nl} : i32
    %np_i = arith.index_cast %np : index to i32
    %b_i = arith.index_cast %b : index to i32
    %F = flow.dispatch @fft_analys_${nl}::@v::@main[%b](%nl_i, %np_i, %mc_i, %b_i, %tw, %f)
        : (i32, i32, i32, i32, tensor<?x2x${ft}>{%np}, tensor<?x${nl}x?x${ft}>{%b, %np})
          -> tensor<?x${nl}x?x2x${ft}>{%b, %mc}
    return %F : tensor<?x${nl}x?x2x${ft}>
  }
"""


def module_text(target: str, nls=NLS, ft: str = "f32") -> str:
    """Both stage templates for ``target`` (cuda, metal, vulkan), one executable per NL, and
    the functions ``synth<NL>`` / ``analys<NL>`` that dispatch them."""
    plan = Plan(lmax=1, mmax=1, grid="gauss", nlat=1, nphi=4, target=target, kernels="mlir")
    device, alias, pipeline = executable_target(plan)
    parts = []
    for nl in nls:
        for stage, wrapper in (("fft_synth", SYNTH), ("fft_analys", ANALYS)):
            values = dict(exe=f"{stage}_{nl}", target="#target", pipeline=pipeline, ft=ft,
                          nl=nl, lmax=1, mmax=1, nlat=nl, nphi=4, mc=2, npairs=1)
            template = string.Template((kernels_dir() / f"{stage}.mlir").read_text())
            parts += [template.substitute(values), string.Template(wrapper).substitute(values)]
    return (f"#target = {alias}\n{LAYOUT}\n"
            f'module @mlir_fft attributes {{hal.device.targets = [#hal.device.target<"{device}", '
            f"[#target]> : !hal.device]}} {{\n" + "\n".join(parts) + "}\n")


def flags(target: str) -> list[str]:
    return compile_flags(Plan(lmax=1, mmax=1, grid="gauss", nlat=1, nphi=4, target=target,
                              kernels="mlir"))


POW2 = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]  # FFT path
OTHER = [2, 6, 10, 12, 30, 97, 100]  # direct-DFT path: not a power of two, or too short
SHAPES = [(nl, b) for nl in NLS for b in (1, 3)]  # (NL, B)


def _cases() -> list:
    cases = []
    for n in POW2 + OTHER:
        mmax = (n - 1) // 2  # largest M with NP > 2M
        for m in sorted({mmax, n // 5, 0} if n <= 16 else {mmax, n // 5}):
            cases.append(pytest.param(n, m, SHAPES, id=f"NP{n}-M{m}"))
    # a power of two beyond the FFT path falls back to the direct DFT
    cases.append(pytest.param(8192, 200, [(1, 1), (3, 3)], id="NP8192-M200"))
    # two tiles of 2048 (F row / f row), and with S = 16 lanes per m in analysis
    cases.append(pytest.param(5000, 3, [(1, 1), (3, 3)], id="NP5000-M3"))
    # 68k terms per thread in synthesis: lavapipe ends all loops of an invocation after 65535
    # iterations in total, so this is right only while the 32-term inner loop is unrolled
    cases.append(pytest.param(4100, 2049, [(1, 1)], id="NP4100-M2049"))
    for n in (8192, 12000):
        cases.append(pytest.param(n, (n - 1) // 2, [(1, 1)], id=f"NP{n}-M{(n - 1) // 2}",
                                  marks=pytest.mark.slow))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def stages(vulkan: str) -> Session:
    """Both stages for every NL, compiled once (NP, mc, B dynamic), on the Vulkan device."""
    return Session(compile_mlir(module_text("vulkan"), flags("vulkan")), "vulkan")


def twiddle(n: int) -> np.ndarray:
    ang = 2.0 * np.pi * np.arange(n) / n
    return np.stack([np.cos(ang), np.sin(ang)], axis=-1).astype(np.float32)


def rel_l2(got: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(got - ref) / np.linalg.norm(ref))


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_synth_matches_numpy(stages: Session, rng: np.random.Generator, n: int, m: int,
                   shapes: list) -> None:
    tw = twiddle(n)
    for nl, b in shapes:
        F = rng.standard_normal((b, nl, m + 1, 2)).astype(np.float32)
        got = stages.to_numpy(stages.call(f"synth{nl}", tw, F))
        Fc = F[..., 0].astype(np.float64) + 1j * F[..., 1].astype(np.float64)
        spec = np.zeros((b, nl, n // 2 + 1), np.complex128)
        spec[..., : m + 1] = Fc
        spec[..., 0] = spec[..., 0].real  # Im F_0 is ignored
        ref = np.fft.irfft(spec, n=n, axis=-1) * n  # Re F_0 + 2 Re sum_m F_m e^{i m phi}
        assert got.shape == (b, nl, n)
        err = rel_l2(got, ref)
        assert err <= TOL, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_analys_matches_numpy(stages: Session, rng: np.random.Generator, n: int, m: int,
                    shapes: list) -> None:
    tw = twiddle(n)
    for nl, b in shapes:
        f = rng.standard_normal((b, nl, n)).astype(np.float32)
        got = stages.to_numpy(stages.call(f"analys{nl}", tw, f, m + 1))
        f64 = f.astype(np.float64)
        ref = np.fft.rfft(f64, axis=-1)[..., : m + 1]  # raw, no 1/NP
        assert got.shape == (b, nl, m + 1, 2)
        # relative to the expected norm sqrt(mc) |f_row| (Parseval), as in test_fft_stages.py:
        # with few outputs the reference itself can nearly cancel
        scale = np.sqrt((m + 1) * np.sum(f64**2))
        err = float(np.linalg.norm(got[..., 0] + 1j * got[..., 1] - ref) / scale)
        assert err <= TOL, f"NP={n} M={m} NL={nl} B={b}: rel L2 error {err:.2e}"


@pytest.mark.parametrize("target,ft,marker", [
    ("cuda", "f32", b"bar.sync"),
    ("cuda", "f64", b"bar.sync"),
    ("metal", "f32", b"threadgroup_barrier"),
    ("vulkan", "f32", None),
])
def test_compiles_for_every_target(tmp_path, target: str, ft: str, marker: bytes | None) -> None:
    """The same templates build for every target of the family (compile only: no CUDA or
    Metal device here); the dumped kernels synchronise the workgroup."""
    vmfb = compile_mlir(module_text(target, nls=(3,), ft=ft),
                        [*flags(target), f"--iree-hal-dump-executable-binaries-to={tmp_path}"])
    assert vmfb
    kernels = sorted(p for p in tmp_path.iterdir() if p.suffix in (".ptx", ".metal", ".spv"))
    assert len(kernels) == 2, kernels  # one per stage
    if marker:
        for path in kernels:
            assert marker in path.read_bytes(), path
