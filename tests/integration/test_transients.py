"""Enqueued calls allocate nothing: every intermediate of a ``*_async`` function (the
scaling's, the Nyquist order's, the theta step's, a vector plan's) lives in storage the
caller keeps (``iree.abi.transients``, mlir/pipeline.mlir). An allocation per call made the
H100's enqueued calls wait for the calls before them (BENCHMARKS.md)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import ireesht
from ireesht.numerics import normalization, reference, vector_reference
from ireesht.numerics.reference import random_coefficients, rel_l2
from ireesht.plan import Plan

pytest.importorskip("iree.compiler")

# plans with intermediates besides F: another normalisation, the Nyquist order, exact
# equiangular analysis (its theta step), a vector plan on a grid with poles
PLANS = {
    "schmidt": dict(lmax=15, norm="schmidt", csphase=False),
    "nyquist": dict(lmax=16, mmax=16, nlat=18, nphi=32, grid="equiangular"),
    "exact": dict(lmax=15, nlat=17, nphi=32, grid="equiangular"),
    "vector": dict(lmax=15, nlat=33, nphi=32, grid="equiangular", transform="vector"),
}


def _vm_functions(plan) -> dict[str, str]:
    """The module's VM functions (``--compile-to=vm``): name -> body."""
    from iree.compiler import compile_str

    from ireesht.codegen import module

    text = compile_str(module.render(plan), extra_args=[
        *module.compile_flags(plan), "--iree-input-demote-f64-to-f32=false",
        "--compile-to=vm"])
    text = text.decode() if isinstance(text, bytes) else text
    out = {}
    for body in re.split(r"\n\s*vm\.func ", text)[1:]:
        name = re.match(r"(?:private )?@(\w+)", body).group(1)
        out[name] = body.split("\n    vm.export")[0].split("\n    vm.import")[0]
    return out


@pytest.mark.parametrize("target", ["cpu", "cuda"])
@pytest.mark.parametrize("name", PLANS)
def test_async_functions_allocate_nothing(name, target):
    plan = Plan.create(target=target, **PLANS[name])
    functions = _vm_functions(plan)
    fns = ("vsynth", "vanalys") if plan.transform == "vector" else ("synth", "analys")
    for fn in fns:
        body = functions[f"{fn}_async"]
        assert "@hal.device.queue.execute" in body  # the function, not an import list
        assert "@hal.device.queue.alloca" not in body, f"{fn}_async allocates per call"
        # the synchronous form allocates its result and intermediates
        assert "@hal.device.queue.alloca" in functions[fn]
    # the plans above have intermediates, whose size the module reports
    assert any(f"{fn}_async_transients_size" in functions for fn in fns)


@pytest.mark.parametrize("name", [*PLANS, "plain", "batched"])
def test_cuda_async_functions_submit_once(name):
    # Session.enqueue lets a CUDA call skip waiting for the call before it (STREAM_ORDERED):
    # sound only while each call is one submission waiting on the caller's fence, with no
    # fence of its own between two submissions
    kw = {"plain": dict(lmax=15), "batched": dict(lmax=15, fields_per_thread=4)}.get(name)
    plan = Plan.create(target="cuda", **(kw or PLANS[name]))
    functions = _vm_functions(plan)
    asyncs = [f for f in functions if f.endswith("_async")]
    assert len(asyncs) == (4 if plan.transform == "vector" else 2)
    for fn in asyncs:
        calls = re.findall(r"vm\.call(?:\.variadic)? @hal\.(device\.queue\.\w+|fence\.\w+)",
                           functions[fn])
        assert calls == ["device.queue.execute"], f"{fn}: {calls}"


@pytest.mark.parametrize("name", PLANS)
def test_calls_of_changing_batches_are_right(name, rng):
    # the kept storage follows the batch size: 3 fields, 1, then 3 again, against the
    # float64 reference (the kernels' convention times the plan's factors) and back
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Nyquist plan's note on its imaginary part
        mod = ireesht.compile(target="cpu", **PLANS[name])
    p, grid = mod.plan, mod.plan.make_grid()
    for batch in (3, 1, 3):
        if p.transform == "vector":
            L = p.band_lmax  # the plan's lmax (its kernels run L + 1)
            q = random_coefficients(rng, L, L, (batch, 2))
            q[..., 0] = 0  # degree 0 has no vector field
            f, f_ref = mod.vsynth(q), vector_reference.vsynth(q, L, L, grid)
            back = mod.vanalys(f)
        else:
            q = random_coefficients(rng, p.lmax, p.mmax, (batch,), p.nphi)
            d = normalization.factors(p.lmax, p.mmax, p.norm, p.csphase)
            f, f_ref = mod.synth(q), reference.synth(q * d, p.lmax, p.mmax, grid)
            back = mod.analys(f)
        assert rel_l2(f, f_ref) < 2e-6, (name, batch)  # float32: about 1e-7 here
        assert rel_l2(back, q) < 2e-6, (name, batch)
