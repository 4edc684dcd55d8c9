"""Fourier stages of the MLIR kernel family (kernels/mlir/fft_synth.mlir, fft_analys.mlir):
what only this family has, beyond the cases both families run in tests/kernels/test_fft_stages.py
(whose harness and checks these use): sizes at the limits of its own kernels, and its
"float64" variant, on IREE's Vulkan driver, and compile-only checks for CUDA and Metal (no
such GPU here).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("iree.runtime")
pytest.importorskip("iree.compiler")

import test_fft_stages  # noqa: E402
from test_fft_stages import (  # noqa: E402
    Stages, check_analys, check_synth, load, mlir_module, mlir_plan)

from ireesht.codegen.mlir.family import compile_flags, render_stage, stage_values  # noqa: E402
from ireesht.codegen.module import compile_mlir  # noqa: E402
from ireesht.codegen.pipeline import template_values  # noqa: E402
from ireesht.runtime.device import Session  # noqa: E402

CASES = [
    # long rows of the FFT path with radix 3 and 5 passes (NP / 2 = 2^a 3^b 5^c): the grids of
    # weather models (1440, 2880), an odd NP / 2 with every radix-3 and radix-5 butterfly of a
    # thread in use (4050: 2025 = 3^4 5^2), five radix-3 passes (3888)
    *[pytest.param(n, m, [(1, 1), (3, 3)], id=f"NP{n}-M{m}")
      for n, m in ((1440, 719), (1440, 360), (2880, 1439), (3000, 1499), (3888, 1943),
                   (4050, 2024))],
    # two tiles of 2048 (F row / f row), and with S = 16 lanes per m in analysis
    pytest.param(5000, 3, [(1, 1), (3, 3)], id="NP5000-M3"),
    # 68k terms per thread in synthesis: lavapipe ends all loops of an invocation after 65535
    # iterations in total, so this is right only while the 32-term inner loop is unrolled
    pytest.param(4100, 2049, [(1, 1)], id="NP4100-M2049"),
]


@pytest.fixture(scope="module")
def stages(vulkan: str):
    return load("mlir")


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_synth_matches_numpy(stages, rng: np.random.Generator, n: int, m: int,
                             shapes: list) -> None:
    check_synth(stages, rng, n, m, shapes)


@pytest.mark.parametrize("n,m,shapes", CASES)
def test_analys_matches_numpy(stages, rng: np.random.Generator, n: int, m: int,
                              shapes: list) -> None:
    check_analys(stages, rng, n, m, shapes)


# The "float64" variant (float32 plans of the float64 Legendre stages): the same kernels in
# float64 with the float64 table, on float32 F and f: every output is the float64 result
# rounded once (rel L2 2.5e-8 on lavapipe, that of the reference rounded to float32; the
# float32 kernels 0.9-3e-7 from NP 64)
CASES64 = [*test_fft_stages.CASES, *CASES]


@pytest.fixture(scope="module")
def stages64(vulkan: str):
    return load("mlir", "float64")


@pytest.mark.parametrize("n,m,shapes", CASES64)
def test_float64_synth_matches_numpy(stages64, rng: np.random.Generator, n: int, m: int,
                                     shapes: list) -> None:
    check_synth(stages64, rng, n, m, shapes, tw_dtype=np.float64, half_ulp=True)


@pytest.mark.parametrize("n,m,shapes", CASES64)
def test_float64_analys_matches_numpy(stages64, rng: np.random.Generator, n: int, m: int,
                                      shapes: list) -> None:
    check_analys(stages64, rng, n, m, shapes, tw_dtype=np.float64, half_ulp=True)


def test_float64_variant_computes_in_float64_on_the_plans_buffers() -> None:
    """The "float64" stages read the float64 table and keep float64 in workgroup memory
    (32 KB), and read F or f and write f or F as float32; the "fft" ones are all float32."""
    for target in ("cuda", "vulkan"):
        for variant, ft, io in (("float64", "f64", "f32"), ("fft", "f32", "f32")):
            plan = mlir_plan(target, variant=variant)
            for stage in ("fft_synth", "fft_analys"):
                text = render_stage(plan, stage, template_values(plan))
                bindings = [line.split(" : ")[-1] for line in text.splitlines()
                            if "hal.interface.binding.subspan" in line]
                assert [b[:len("memref<?xf32")] for b in bindings] == [
                    f"memref<?x{ft}", f"memref<?x{io}", f"memref<?x{io}"], (target, stage)
                assert f"memref.alloc() : memref<4096x{ft}," in text
                for op in ("arith.extf", "arith.truncf", "@pair_load_io("):
                    assert (op in text) == (io != ft), (target, stage, op)


@pytest.mark.parametrize("target,dtype,variant,markers", [
    ("cuda", "float32", "fft", (b"bar.sync", b"ld.global.nc.v2", b"st.global.v2")),
    ("cuda", "float64", "fft", (b"bar.sync", b"ld.global.nc.v2", b"st.global.v2")),
    # float64 rotations, float32 pairs of F and f, float64 arithmetic rounded at the store
    ("cuda", "float32", "float64", (b"bar.sync", b"ld.global.nc.v2.b64", b"ld.global.nc.v2.b32",
                                    b"st.global.v2.b32", b"fma.rn.f64", b"cvt.rn.f32.f64")),
    ("metal", "float32", "fft", (b"threadgroup_barrier",)),
])
def test_compiles_for_cuda_and_metal(tmp_path, target: str, dtype: str, variant: str,
                                     markers: tuple) -> None:
    """The templates that run on Vulkan build for CUDA and Metal too (compile only); the
    dumped kernels synchronise the workgroup, and on CUDA read the rotations and write the
    F or f pairs as one access each."""
    vmfb = compile_mlir(mlir_module(target, nls=(3,), dtype=dtype, variant=variant),
                        [*compile_flags(mlir_plan(target, variant=variant)),
                         f"--iree-hal-dump-executable-binaries-to={tmp_path}"])
    assert vmfb
    kernels = sorted(p for p in tmp_path.iterdir() if p.suffix in (".ptx", ".metal"))
    assert len(kernels) == 2, kernels  # one per stage
    for path in kernels:
        for marker in markers:
            assert marker in path.read_bytes(), (path, marker)


def test_pairs_move_as_one_access_on_cuda_only() -> None:
    """@pair_load / @pair_store take vector<2> accesses on CUDA only: NVIDIA's Vulkan driver
    crashed creating a pipeline with vector<2> loads of the row (H200, 2026-11-30)."""
    for target, vector in (("cuda", True), ("vulkan", False), ("metal", False)):
        plan = mlir_plan(target)
        values = stage_values(plan, template_values(plan))
        for stage in ("fft_synth", "fft_analys"):
            funcs = values[stage]["fft_funcs"]
            assert ("vector.load %a[%o] alignment = " in funcs) == vector, (target, stage)
            assert ("vector.store %v, %a[%o] alignment = " in funcs) == vector, (target, stage)


def test_power_of_two_plans_leave_radix_3_and_5_out(vulkan, rng: np.random.Generator) -> None:
    """Rendered for a plan whose rows are a power of two, the Fourier kernels have no radix-3
    or radix-5 passes (those hold registers the power-of-two FFT then lacks), and they take
    the direct DFT for rows of other lengths: still right."""
    for nphi, mixed in ((64, False), (1440, True), (12, True)):
        plan = mlir_plan("vulkan", nphi=nphi)
        values = stage_values(plan, template_values(plan))
        for stage in ("fft_synth", "fft_analys"):
            assert ("func.call @radix3(" in values[stage]["fft_core"]) == mixed
            assert ("func.call @radix5(" in values[stage]["fft_core"]) == mixed
    session = Session(compile_mlir(mlir_module("vulkan", nls=(3,), nphi=64),
                                   compile_flags(mlir_plan("vulkan", nphi=64))), "vulkan")

    stages = Stages("mlir", lambda name, nl, *args: session.to_numpy(
        session.call(f"{name}{nl}", *args)))
    for n in (30, 64):
        check_synth(stages, rng, n, n // 2 - 1, [(3, 2)])
        check_analys(stages, rng, n, n // 2 - 1, [(3, 2)])
