"""Fourier stages fft_synth / fft_analys of the C family (kernels/c, docs/design.md) on
IREE's local-task driver against numpy.fft in float64, with the checks of
tests/kernels/test_fft_stages.py (synthesis: relative L2 error; analysis: relative to the
reference's expected norm).

The objects are called as the CPU target's modules call them (``ireesht.codegen.c``): one
``stream.executable`` per stage and row length (the family's shapes are static but for the
batch), all in one module compiled once per dtype. The row lengths cover every path of
``fourier.row_fft``: powers of two, 3 2^k and 5 2^k (radices 2, 3, 4, 5), odd rows, primes
and products with a large prime (Bluestein), and rows past the FFT (direct DFT).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pytest

rt = pytest.importorskip("iree.runtime")
pytest.importorskip("iree.compiler")

from ireesht.codegen import c as kernels_c  # noqa: E402
from ireesht.codegen.module import compile_mlir  # noqa: E402
from ireesht.codegen.pipeline import template_values  # noqa: E402
from ireesht.numerics import fourier  # noqa: E402
from ireesht.plan import Plan  # noqa: E402
from ireesht.runtime.device import Session  # noqa: E402
from ireesht.tables import table_shapes  # noqa: E402

from tests.kernels.test_fft_stages import check_analys, check_synth  # noqa: E402

NL = 3  # rows per field; the batch B (1 or 3) is dynamic
# Each path of fourier.row_fft: 2^k; 3 2^k and 5 2^k; 1440, 2880 (the ERA5 rows); odd rows
# of radices 3 and 5 (15, 45, 75); Bluestein for an odd prime (97), an even row whose half
# is prime (1018 = 2 509, 2042 = 2 1021) or has a large prime factor (606 = 2 3 101, 98),
# and an odd composite (91 = 7 13); the direct DFT past Bluestein's reach (1447, 2894 =
# 2 1447: m > 2048) and past the FFT (8192).
ROWS = [4, 8, 64, 1024, 4096, 6, 12, 48, 96, 10, 20, 40, 80, 360, 720, 1440, 2880,
        15, 45, 75, 97, 91, 98, 606, 1018, 2042, 1447, 2894, 8192]
# (plan dtype, variant): "c" in the plan's dtype (float64: the same sources with -DSHT_F64);
# "float64", the float32 plans' default, is the float64 build on float32 buffers
# (kernels/c/README.md), whose error is the rounding of its float32 outputs
BUILDS = [("float32", "c"), ("float32", "float64"), ("float64", "c")]
TOL = {("float32", "c"): 1e-6, ("float32", "float64"): 8e-8, ("float64", "c"): 1e-13}


def _mmaxes(n: int) -> list[int]:
    """The largest M with NP > 2M, and a short one (n // 5)."""
    return sorted({(n - 1) // 2, n // 5})


CASES = [(n, m) for n in ROWS for m in _mmaxes(n)]


def _functions(i: int, n: int, mc: int, ft: str, objs: dict[str, str], twt: str) -> str:
    """The executables of case ``i`` (NP = n, mc) and the functions ``run_synth_<i>``
    (twiddle of element type ``twt``, F) and ``run_analys_<i>`` (twiddle, f) that dispatch
    them, as ireesht.codegen.c.parts does."""
    tw = f"{fourier.twiddle_rows(n, 'c')}x2"
    Fs, fs = f"?x{NL}x{mc}x2", f"?x{NL}x{n}"
    grid = (f"%gx = arith.constant {NL} : index", "%b")
    consts = ["nlat", "nphi", "mc", "nb"]
    exes = [kernels_c._executable("fft_synth", objs["fft_synth"], ft,
                                  [("twiddle", tw, False, twt), ("F", Fs, True),
                                   ("f", fs, True)], consts, grid, symbol=f"synth_{i}"),
            kernels_c._executable("fft_analys", objs["fft_analys"], ft,
                                  [("twiddle", tw, False, twt), ("f", fs, True),
                                   ("F", Fs, True)], consts, grid, symbol=f"analys_{i}")]
    head = f"""    %c0 = arith.constant 0 : index
    %nlat = arith.constant {NL} : i32
    %nphi = arith.constant {n} : i32
    %mc = arith.constant {mc} : i32"""
    funcs = f"""
  func.func @run_synth_{i}(%tw: tensor<{tw}x{twt}>, %F: tensor<{Fs}x{ft}>)
      -> tensor<{fs}x{ft}> {{
{head}
    %b = tensor.dim %F, %c0 : tensor<{Fs}x{ft}>
    %nb = arith.index_cast %b : index to i32
    %f = flow.dispatch @c_synth_{i}::@synth_{i}[%b](%tw, %F, %nlat, %nphi, %mc, %nb, %b)
        : (tensor<{tw}x{twt}>, tensor<{Fs}x{ft}>{{%b}}, i32, i32, i32, i32, index)
          -> tensor<{fs}x{ft}>{{%b}}
    return %f : tensor<{fs}x{ft}>
  }}
  func.func @run_analys_{i}(%tw: tensor<{tw}x{twt}>, %f: tensor<{fs}x{ft}>)
      -> tensor<{Fs}x{ft}> {{
{head}
    %b = tensor.dim %f, %c0 : tensor<{fs}x{ft}>
    %nb = arith.index_cast %b : index to i32
    %F = flow.dispatch @c_analys_{i}::@analys_{i}[%b](%tw, %f, %nlat, %nphi, %mc, %nb, %b)
        : (tensor<{tw}x{twt}>, tensor<{fs}x{ft}>{{%b}}, i32, i32, i32, i32, index)
          -> tensor<{Fs}x{ft}>{{%b}}
    return %F : tensor<{Fs}x{ft}>
  }}
"""
    return "\n".join(exes) + funcs


class CStages(NamedTuple):
    """The C family's stages of one build, in the form check_synth / check_analys call:
    ``run(name, nl, twiddle, x, n_or_mc)`` picks the function of the case by its shapes."""
    family: str
    dtype: str
    variant: str
    session: Session

    def run(self, name: str, nl: int, tw: np.ndarray, x: np.ndarray, size: int) -> np.ndarray:
        n, mc = (size, x.shape[2]) if name == "synth" else (x.shape[2], size)
        i = CASES.index((n, mc - 1))
        out = self.session.call(f"run_{name}_{i}", tw, x)
        return self.session.to_numpy(out)

    def check(self, check, rng: np.random.Generator, n: int, m: int) -> None:
        dtype = np.dtype(self.dtype).type
        tw_dtype = np.float64 if self.variant == "float64" else dtype
        check(self, rng, n, m, [(NL, 1), (NL, 3)], tol=TOL[(self.dtype, self.variant)],
              dtype=dtype, tw_dtype=tw_dtype)


@functools.cache
def load(dtype: str, variant: str) -> CStages:
    """Every case's stages of one build for the host's CPU baseline, compiled once."""
    plan = Plan.create(1, nlat=NL, nphi=16, target="cpu", dtype=dtype,
                       variants={"fft_synth": variant, "fft_analys": variant})
    ft = {"float32": "f32", "float64": "f64"}[dtype]
    objs = kernels_c.kernel_objects(plan)
    twt = table_shapes(plan)[plan.variant("fft_synth").tables[0]][1]
    alias = kernels_c.parts(plan, template_values(plan))["aliases"]
    body = "\n".join(_functions(i, n, m + 1, ft, objs, twt) for i, (n, m) in enumerate(CASES))
    text = f"{alias}\nmodule @c_fft {{\n{body}\n}}\n"
    return CStages("c", dtype, variant,
                   Session(compile_mlir(text, kernels_c.compile_flags(plan)), "cpu"))


@pytest.fixture(scope="module", params=BUILDS, ids=[f"{d}-{v}" for d, v in BUILDS])
def stages(request) -> CStages:
    return load(*request.param)


@pytest.mark.parametrize("n,m", CASES, ids=[f"NP{n}-M{m}" for n, m in CASES])
def test_fft_synth(stages: CStages, rng: np.random.Generator, n: int, m: int) -> None:
    stages.check(check_synth, rng, n, m)


@pytest.mark.parametrize("n,m", CASES, ids=[f"NP{n}-M{m}" for n, m in CASES])
def test_fft_analys(stages: CStages, rng: np.random.Generator, n: int, m: int) -> None:
    stages.check(check_analys, rng, n, m)
