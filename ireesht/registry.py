"""The variant registry: every target and every kernel variant, declared once as data, and
the one function that chooses a plan's variants (``select``).

A plan runs five stages (``STAGES``: four kernels, and the theta step of exact equiangular
analysis, which renders nothing where a plan has no step). For each stage a kernel family
offers one or more variants; ``select`` picks one per stage, once, when the plan is made, and
everything after (tables, code generation, ``info["variants"]``) reads that choice. Adding a
variant means adding a ``Variant`` row below and its template (and, for generated code, the
function named in ``values``); adding a target, a ``Target`` row. ``python -m ireesht
variants`` writes docs/variants.md from this table.

Imports no code generator: a variant names the function that renders its template
(``values``, "module:function" under ``ireesht.codegen``), which only code generation loads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from ireesht import geometry as geo

# the stages of every plan, in the order of their dispatches: the four kernels every family
# writes (KERNEL_STAGES), and the theta step of exact equiangular and Fejer analysis, which
# the MLIR family may take in kernels and every family in linalg ops (nothing without the step)
KERNEL_STAGES = ("leg_synth", "fft_synth", "fft_analys", "leg_analys")
STAGES = ("leg_synth", "fft_synth", "fft_analys", "theta_analys", "leg_analys")
DTYPES = ("float32", "float64")
RECURRENCES = ("standard", "ishioka")
FIELDS_PER_THREAD = (1, 2, 4)


@dataclasses.dataclass(frozen=True)
class Target:
    """A compilation target: its IREE driver, kernel families (the first is the default of
    ``kernels="auto"``), the dtypes its devices run, and what its modules need from the
    machine (for the manifest)."""

    name: str
    driver: str
    families: tuple[str, ...]
    dtypes: tuple[str, ...]
    needs: str


TARGETS = {t.name: t for t in (
    Target("vulkan", "vulkan", ("mlir", "wgsl"), DTYPES,
           "SPIR-V 1.3, Vulkan 1.1 (subgroup arithmetic optional)"),
    Target("cuda", "cuda", ("mlir",), DTYPES, "PTX, sm_80 and newer"),
    # Metal GPUs have no float64 at all
    Target("metal", "metal", ("mlir",), ("float32",), "MSL source (Apple GPUs)"),
    Target("cpu", "local-task", ("c",), DTYPES, "a CPU of the module's baseline"),
)}


def _always(req) -> bool:
    return True


def _never(req) -> bool:
    return False


def _cuda_one_field(req) -> bool:
    return req.target == "cuda" and req.fields_per_thread == 1


def _vulkan_one_field(req) -> bool:
    # float32 plans of one field per thread: on Vulkan the float64 recurrence measured 0.72-1.04x
    # the float32 scheme's time on Gauss grids (lmax 127-2047) and, since the kept
    # intermediates, 0.85-0.89 / 0.61-0.69 on the 721 x 1440 equiangular grid, 0.92-1.04 (one
    # pair 1.11) / 0.72-0.97 on smaller equiangular and Fejer grids (H100; BENCHMARKS.md)
    return req.target == "vulkan" and req.fields_per_thread == 1 and req.dtype == "float32"


def _float64_one_field(req) -> bool:
    """Where ``recurrence="auto"`` takes the float64 recurrence and its Fourier stages."""
    return _cuda_one_field(req) or _vulkan_one_field(req)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One kernel variant of one stage of one kernel family.

    ``serves(req, params)``: whether it can run the request at all (besides ``targets`` and
    ``dtypes``); ``prefer(req)``: whether it goes before the rows after it among the variants
    of its recurrence; ``auto(req)``: whether ``recurrence="auto"`` takes it (with
    ``prefer``). ``tables``: the device tables its dispatch reads, in binding order
    (``ireesht.tables``). ``params``: tunable parameters and their defaults (a
    plan may set them, ``compile(variants=...)``). ``needs``: device features beyond the
    target's baseline ("float64", "tensor_cores", "subgroup_shuffle", "subgroup_arithmetic").
    """

    family: str
    stage: str
    name: str
    label: str  # what ``Plan.describe`` shows
    reason: str  # why auto picks it when it does, one line
    evidence: str  # the BENCHMARKS.md section that justifies it
    template: str
    values: str = ""  # "module:function" under ireesht.codegen (generated code)
    tables: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = DTYPES
    recurrence: str = "standard"
    serves: Callable = lambda req, params: True
    prefer: Callable = _always
    auto: Callable = _always
    params: Mapping[str, int] = dataclasses.field(default_factory=dict)
    needs: tuple[str, ...] = ()

    def can_run(self, req, params: Mapping[str, int] | None = None) -> bool:
        return (req.target in self.targets and req.dtype in self.dtypes
                and self.serves(req, {**self.params, **(params or {})}))


# the MLIR family's float64 recurrence, any dtype: seeds (and the analysis's weights,
# wtab64) in float64; x as xtab's hi + lo
_ISHIOKA_TABLES = ("xtab", "seed64", "polar", "chain")
# the C family's float64 recurrence on float32 plans: nodes, weights and seeds in float64
_C_ISHIOKA_TABLES = ("node64", "seed64", "polar", "chain")
# the largest lmax of the C family's ishioka analysis (kernels/c/leg_analys_ishioka.c)
C_ISHIOKA_LMAX = 1023
_STANDARD_TABLES = ("xtab", "seedtab", "polar", "coef", "stab")
_GPU = ("cuda", "vulkan", "metal")
# the evidence: BENCHMARKS.md sections (or their git history), and the harness's variants suite
# (tools/bench.py), which forces on the same sizes the variant that auto passes over
_CUDA1 = "H200 CUDA table, 1 field (BENCHMARKS.md at 0fe4803); variants suite"
_CUDA16 = "H200 CUDA table, 16 fields (BENCHMARKS.md at 0fe4803); variants suite"
_VULKAN = "H200 Vulkan table (BENCHMARKS.md at 0fe4803)"
_CPU32 = "CPU target against ducc0 (float32 accuracy)"
_GPU32 = "GPU float32 accuracy against ducc0 (H100)"
_EQUI = "Exact equiangular analysis, the Nyquist order, other norms: intermediates kept (H100)"
_VULKAN64 = "GPU float32 accuracy against ducc0 (H100), Vulkan with the float64 recurrence"


def _tensor_cores(req, params) -> bool:
    # float32 batches of four fields per thread whose seeds all start live (no careful loop)
    return (req.fields_per_thread == 4 and req.npairs >= geo.MMA_PAIRS
            and geo.lowest_level(req) >= 0)


def _scalar(req, params) -> bool:
    # vector plans' own MLIR (mlir/vector.mlir) reads the plan's twiddle table
    return req.transform == "scalar"


def _theta_kernel(req, params) -> bool:
    # the low-rank step (float32), whose 2R sums per order stay in registers; groups 0: by
    # fields per thread (Plan.theta_groups)
    return (0 < req.theta_rank <= geo.THETA_KERNEL_RANK and 0 <= params["groups"] <= 64
            and 1 <= params["rows"] <= req.nlat)


def _lanes64(req, params) -> bool:
    # a level -1 pair runs scaled, its parts inversely; nothing below; SPIR-V vectors hold at
    # most four float64 pairs per thread (eight failed to compile for Vulkan; 0: the target's)
    return (geo.lowest_level(req, params["live_bits"]) >= -1 and params["pairs"] >= 0
            and (req.target != "vulkan" or params["pairs"] <= geo.LANES64_PAIRS["vulkan"]))


def _lanes64_segments(req, params) -> bool:
    return (req.npairs <= geo.LANES64_SEGMENT_PAIRS and geo.lowest_level(req) == 0
            and geo.lanes64_segment_steps(req, params["segment_min"]) > 0)


def _ishioka_analysis(req, params) -> bool:
    return geo.ishioka_analys_shape(req) is not None and geo.lowest_level(req) >= 0


def _lane_sums_preferred(req) -> bool:
    lo, hi = geo.LANE_PAIR_GRIDS
    return req.target == "cuda" and (req.fields_per_thread > 1 or (
        req.dtype == "float32" and lo <= req.npairs <= hi))


_SCALING = dict(geo.ISHIOKA_SCALING)
# pairs 0: geometry.LANES64_PAIRS of the target (8 on CUDA, 4 on Vulkan)
_LANES64 = {"wg": 128, "pairs": 0, "live_bits": geo.ISHIOKA_SCALING["live_bits"]}

VARIANTS: tuple[Variant, ...] = (
    # --- MLIR family: Legendre synthesis, in order of preference --------------------------
    Variant("mlir", "leg_synth", "tensor_cores", "tensor cores, whole groups of 16",
            "never by auto: the batch size is known only at the call, and it pays off from 16 "
            "fields per call at lmax 720-1023 (ask for recurrence='ishioka')",
            _CUDA16, "leg_synth_mma.mlir", "mlir.mma:synth_values",
            _ISHIOKA_TABLES, ("cuda",), ("float32",), "ishioka", _tensor_cores, auto=_never,
            needs=("float64", "tensor_cores")),
    Variant("mlir", "leg_synth", "ishioka", "ishioka",
            "float64 recurrence: on GPUs with half-rate float64 faster than the float32 scheme "
            "and ten times more accurate for one field per thread",
            _CUDA1, "leg_synth_ishioka.mlir", "mlir.ishioka:synth_values",
            _ISHIOKA_TABLES, ("cuda", "vulkan"), recurrence="ishioka", auto=_float64_one_field,
            params={**_SCALING, "past_groups": 0}, needs=("float64",)),
    Variant("mlir", "leg_synth", "standard", "standard",
            "float32 recurrence with exact coefficients and rescaling: every GPU",
            _VULKAN, "leg_synth.mlir", "mlir.legendre:synth_values", _STANDARD_TABLES, _GPU),
    # --- MLIR family: Legendre analysis ---------------------------------------------------
    Variant("mlir", "leg_analys", "tensor_cores", "tensor cores",
            "batches of four fields per thread on 256-512 latitude pairs: 37% faster from 8 "
            "fields per call, at most 6% slower up to 4",
            _CUDA16, "leg_analys_mma.mlir", "mlir.mma:analys_values",
            _ISHIOKA_TABLES + ("wtab64",), ("cuda",), ("float32",), "ishioka",
            lambda req, params: _tensor_cores(req, params) and req.npairs <= geo.MMA_ANALYS_PAIRS,
            needs=("float64", "tensor_cores")),
    Variant("mlir", "leg_analys", "lanes64_segments", "float64 lane sums, segments of {steps} steps",
            "grids of at most 384 pairs: segments keep every SM busy (lmax 127 2x, 255 1.6x "
            "faster than the transposed sums)",
            _CUDA1, "leg_analys_lanes64.mlir", "mlir.lanes64:analys_values",
            _ISHIOKA_TABLES + ("wtab64", "restart_rows", "restart"), ("cuda", "vulkan"),
            ("float32",), "ishioka", lambda req, params: _lanes64(req, params)
            and _lanes64_segments(req, params),
            prefer=_cuda_one_field, auto=_cuda_one_field,
            params={**_LANES64, "segment_min": geo.LANES64_SEGMENT_MIN},
            needs=("float64", "subgroup_shuffle")),
    Variant("mlir", "leg_analys", "lanes64", "float64 lane sums",
            "CUDA grids of more than 384 pairs: 10% faster at lmax 1023, 20% at 2047 than the "
            "float32 scheme, error 9.4e-7 -> 1.1e-7; Vulkan (4 pairs per thread): 0.72-1.04x "
            "the float32 scheme's time on Gauss grids at lmax 127-2047, 0.61-0.68x on 721 x "
            "1440, ducc0's error",
            _CUDA1 + "; " + _VULKAN64, "leg_analys_lanes64.mlir", "mlir.lanes64:analys_values",
            _ISHIOKA_TABLES + ("wtab64",), ("cuda", "vulkan"), ("float32",), "ishioka", _lanes64,
            prefer=lambda req: (_cuda_one_field(req) and req.npairs > geo.LANES64_SEGMENT_PAIRS
                                or _vulkan_one_field(req)),
            auto=_float64_one_field, params=_LANES64, needs=("float64", "subgroup_shuffle")),
    Variant("mlir", "leg_analys", "ishioka", "transposed sums",
            "float64 recurrence where one workgroup holds an order's pairs (at most 384)",
            _CUDA1, "leg_analys_ishioka.mlir", "mlir.ishioka:analys_values",
            _ISHIOKA_TABLES + ("wtab64",), ("cuda", "vulkan"), ("float32",), "ishioka",
            _ishioka_analysis,
            prefer=lambda req: req.fields_per_thread == 1 or req.target != "cuda",
            auto=_cuda_one_field, needs=("float64",)),
    Variant("mlir", "leg_analys", "lane_sums", "lane sums, workgroup rows",
            "CUDA with several fields per thread (or one on 385-512 pairs): each degree's "
            "values summed over lanes by shuffles",
            _CUDA16, "leg_analys.mlir", "mlir.legendre:analys_values",
            _STANDARD_TABLES + ("wtab",), _GPU, prefer=_lane_sums_preferred,
            needs=("subgroup_shuffle",)),
    Variant("mlir", "leg_analys", "rows", "workgroup rows",
            "float32 recurrence, sums in workgroup memory, no subgroup operation: every GPU",
            _VULKAN, "leg_analys.mlir", "mlir.legendre:analys_values",
            _STANDARD_TABLES + ("wtab",), _GPU),
    # --- MLIR family: Fourier stages ------------------------------------------------------
    # float32 plans of the float64 Legendre stages: the same kernels in float64 on float32
    # buffers (``${io}``), as the C family's "float64" rows
    Variant("mlir", "fft_synth", "float64", "fft in float64",
            "float32 plans with the ishioka Legendre stages: with float64 seeds and weights, "
            "ducc0's float32 error (0.5-1.0x, was 3.9-14x), 2-8% slower (H100)",
            _GPU32, "fft_synth.mlir", "mlir.fft:stage_values", ("twiddle64",),
            ("cuda", "vulkan"), ("float32",), "ishioka", _scalar, auto=_float64_one_field,
            needs=("float64",)),
    Variant("mlir", "fft_analys", "float64", "fft in float64", "as fft_synth", _GPU32,
            "fft_analys.mlir", "mlir.fft:stage_values", ("twiddle64",), ("cuda", "vulkan"),
            ("float32",), "ishioka", _scalar, auto=_float64_one_field, needs=("float64",)),
    Variant("mlir", "fft_synth", "fft", "fft",
            "Stockham FFT in workgroup memory (radix 16, 8, 4, 2, 3, 5) where nphi / 2 is "
            "2^a 3^b 5^c and nphi <= 4096, else a direct DFT",
            _VULKAN, "fft_synth.mlir", "mlir.fft:stage_values", ("twiddle",), _GPU),
    Variant("mlir", "fft_analys", "fft", "fft", "as fft_synth", _VULKAN, "fft_analys.mlir",
            "mlir.fft:stage_values", ("twiddle",), _GPU),
    # --- theta step (exact equiangular and Fejer analysis), every family ---------------------
    Variant("mlir", "theta_analys", "lowrank", "theta step in two kernels",
            "float32 plans with the low-rank step (rank <= 64): 1.9-5.2x faster than the "
            "linalg ops on CUDA (H100, lmax 255-719), 1.0-1.6x on Vulkan",
            _EQUI, "theta_lowrank.mlir", "mlir.theta:values", ("theta_u", "theta_v", "theta_d"),
            _GPU, ("float32",), serves=_theta_kernel, params={"groups": 0, "rows": 8}),
    Variant("mlir", "theta_analys", "linalg", "theta step in linalg ops",
            "every other plan: tensor and linalg ops that IREE compiles (codegen/theta.py); "
            "nothing for plans without the step", _EQUI, "", targets=_GPU),
    Variant("wgsl", "theta_analys", "linalg", "theta step in linalg ops", "as mlir's", _EQUI,
            "", targets=("vulkan",), dtypes=("float32",)),
    Variant("c", "theta_analys", "linalg", "theta step in linalg ops", "as mlir's", _EQUI, "",
            targets=("cpu",)),
    # --- WGSL family (Vulkan, SPIR-V from naga) -------------------------------------------
    Variant("wgsl", "leg_synth", "standard", "standard", "the family's one synthesis",
            _VULKAN, "leg_synth_nf{nf}.spv", tables=_STANDARD_TABLES, targets=("vulkan",),
            dtypes=("float32",)),
    Variant("wgsl", "leg_analys", "subgroup", "subgroup",
            "subgroup arithmetic sums the latitudes where the device has it", _VULKAN,
            "leg_analys_nf{nf}_sg1.spv", tables=_STANDARD_TABLES + ("wtab",),
            targets=("vulkan",), dtypes=("float32",), needs=("subgroup_arithmetic",)),
    Variant("wgsl", "leg_analys", "tree", "workgroup tree",
            "devices without subgroup arithmetic (compile falls back to it)", _VULKAN,
            "leg_analys_nf1_sg0.spv", tables=_STANDARD_TABLES + ("wtab",),
            targets=("vulkan",), dtypes=("float32",)),
    Variant("wgsl", "fft_synth", "fft", "fft", "the family's one FFT (powers of two)",
            _VULKAN, "fft_synth.spv", tables=("twiddle",), targets=("vulkan",),
            dtypes=("float32",)),
    Variant("wgsl", "fft_analys", "fft", "fft", "as fft_synth", _VULKAN, "fft_analys.spv",
            tables=("twiddle",), targets=("vulkan",), dtypes=("float32",)),
    # --- C family (CPU, objects per baseline) ---------------------------------------------
    # float32 plans: the Ishioka recurrence, its sums and the FFT in float64 on float32
    # buffers: the error of ducc0 fed float32 (issue 37), 0.7x (one field) to 0.98x (16) the
    # time of the float32 scheme (BENCHMARKS.md "CPU float32 accuracy")
    Variant("c", "leg_synth", "ishioka", "float64 ishioka",
            "float32 plans: float64 recurrence and sums, 20x more accurate than the float32 "
            "scheme (4.8e-7 -> 2.5e-8 at lmax 255) and 0.6-0.8x its time",
            _CPU32, "leg_synth_ishioka_{baseline}.o", tables=_C_ISHIOKA_TABLES,
            targets=("cpu",), dtypes=("float32",), recurrence="ishioka"),
    Variant("c", "leg_synth", "c", "four fields per work item",
            "float64 plans, and float32 with recurrence='standard'",
            "CPU", "leg_synth{f64}_{baseline}.o", tables=_STANDARD_TABLES, targets=("cpu",)),
    Variant("c", "fft_synth", "float64", "fft in float64",
            "float32 plans with the ishioka Legendre stages: float32 FFTs alone cost 3x "
            "ducc0's float32 error (1.1e-7 per transform), float64 ones 1.2-1.6x their time",
            _CPU32, "fft_synth_f64io32_{baseline}.o", tables=("twiddle64",), targets=("cpu",),
            dtypes=("float32",), recurrence="ishioka", serves=_scalar),
    Variant("c", "fft_synth", "c", "fft", "the family's FFT in the plan's dtype", "CPU",
            "fft_synth{f64}_{baseline}.o", tables=("twiddle",), targets=("cpu",)),
    Variant("c", "fft_analys", "float64", "fft in float64", "as fft_synth", _CPU32,
            "fft_analys_f64io32_{baseline}.o", tables=("twiddle64",), targets=("cpu",),
            dtypes=("float32",), recurrence="ishioka", serves=_scalar),
    Variant("c", "fft_analys", "c", "fft", "the family's FFT in the plan's dtype", "CPU",
            "fft_analys{f64}_{baseline}.o", tables=("twiddle",), targets=("cpu",)),
    Variant("c", "leg_analys", "ishioka", "float64 ishioka",
            "float32 plans up to lmax 1023 (its float64 sums of an order's steps fill 64 KB "
            "of the worker's stack): 13x more accurate, 0.6-1.1x the time",
            _CPU32, "leg_analys_ishioka_{baseline}.o", tables=_C_ISHIOKA_TABLES,
            targets=("cpu",), dtypes=("float32",), recurrence="ishioka",
            serves=lambda req, params: req.lmax <= C_ISHIOKA_LMAX),
    Variant("c", "leg_analys", "c", "four fields per work item",
            "float64 plans, and float32 with recurrence='standard' or past lmax 1023",
            "CPU", "leg_analys{f64}_{baseline}.o", tables=_STANDARD_TABLES + ("wtab",),
            targets=("cpu",)),
)

_BY_KEY = {(v.family, v.stage, v.name): v for v in VARIANTS}
assert len(_BY_KEY) == len(VARIANTS), "variant names repeat within a family's stage"


def variant(family: str, stage: str, name: str) -> Variant:
    """The registry's row for a variant."""
    return _BY_KEY[(family, stage, name)]


def candidates(family: str, stage: str) -> tuple[Variant, ...]:
    """The variants of one family's stage, in order of preference."""
    return tuple(v for v in VARIANTS if v.family == family and v.stage == stage)


Choice = tuple  # (stage, name, ((param, value), ...)): one stage's resolved variant


def resolve(req, stage: str, spec) -> Choice:
    """A variant asked for by name (``"lanes64"``) or with parameters (``{"name":
    "lanes64", "wg": 32}``): it must exist and serve the request."""
    options = candidates(req.kernels, stage)
    if isinstance(spec, str):
        spec = {"name": spec}
    if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
        raise ValueError(f"variants[{stage!r}]={spec!r}: expected a variant name or a dict "
                         f"with 'name' and parameters")
    name = spec["name"]
    params = {k: v for k, v in spec.items() if k != "name"}
    names = [v.name for v in options]
    if name not in names:
        raise ValueError(f"variants[{stage!r}]={name!r}: expected one of {names} for "
                         f"kernels={req.kernels!r}")
    v = variant(req.kernels, stage, name)
    unknown = sorted(set(params) - set(v.params))
    if unknown:
        raise ValueError(f"variants[{stage!r}]: parameters {unknown} of {name!r}: expected "
                         f"some of {sorted(v.params)}")
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"variants[{stage!r}][{key!r}]={value!r}: expected an integer")
    if not v.can_run(req, params):
        serving = [o.name for o in options if o.can_run(req)]
        raise ValueError(f"variants[{stage!r}]={name!r} cannot run target={req.target!r}, "
                         f"dtype={req.dtype!r}, fields_per_thread={req.fields_per_thread} on "
                         f"{req.nlat} x {req.nphi}: expected one of {serving}")
    return (stage, name, tuple(sorted({**v.params, **params}.items())))


def select(req, recurrence: str = "auto", forced: Mapping | None = None) -> tuple[Choice, ...]:
    """The variant of each stage for a validated request (``ireesht.plan.Request``): those
    in ``forced`` (``{stage: name or {"name": ..., param: value}}``) as given; the others,
    among those that can run the request, in the registry's order, the first that
    ``recurrence`` ("standard", "ishioka": ``prefer``; "auto": ``prefer`` and ``auto``)
    takes. An analysis with no variant of the recurrence asked for takes the standard one.
    Raises ValueError for an unknown or unfit variant, or a recurrence no synthesis runs."""
    forced = dict(forced or {})
    unknown = sorted(set(forced) - set(STAGES))
    if unknown:
        raise ValueError(f"variants: stages {unknown}: expected some of {list(STAGES)}")
    out = []
    for stage in STAGES:
        if stage in forced:
            out.append(resolve(req, stage, forced[stage]))
            continue
        options = [v for v in candidates(req.kernels, stage) if v.can_run(req)]
        if recurrence == "auto":
            picked = [v for v in options if v.prefer(req) and v.auto(req)]
        else:
            if stage == "leg_synth" and not any(v.recurrence == recurrence for v in options):
                raise ValueError(
                    f"recurrence={recurrence!r} runs in float64 in the mlir kernels on cuda or "
                    f"vulkan, and in float32 plans of the cpu target; expected "
                    f"recurrence='standard' with target={req.target!r}, "
                    f"kernels={req.kernels!r}, dtype={req.dtype!r}")
            picked = [v for v in options if v.recurrence == recurrence and v.prefer(req)]
            if not picked:  # no variant of that recurrence: the standard ones
                picked = [v for v in options if v.recurrence == "standard" and v.prefer(req)]
        if not picked:
            raise ValueError(f"no {stage} variant of kernels={req.kernels!r} runs "
                             f"target={req.target!r}, dtype={req.dtype!r}")
        out.append((stage, picked[0].name, tuple(sorted(picked[0].params.items()))))
    return tuple(out)


def docs_table() -> str:
    """docs/variants.md: every variant with what it serves and when ``"auto"`` takes it."""
    lines = ["# Kernel variants", "",
             "Generated from `ireesht/registry.py` by `python -m ireesht variants > "
             "docs/variants.md`; do not edit by hand. `select` takes, for each stage, the "
             "first row of the plan's kernel family that can run the plan and that the "
             "plan's recurrence takes; `compile(..., variants={stage: name})` forces one.", ""]
    for family in ("mlir", "wgsl", "c"):
        lines += [f"## Family `{family}`", "",
                  "| stage | variant | targets | dtypes | recurrence | template | tables | "
                  "needs | parameters | auto takes it | evidence (BENCHMARKS.md) |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for v in VARIANTS:
            if v.family != family:
                continue
            params = ", ".join(f"{k}={x}" for k, x in v.params.items()) or "-"
            lines.append(f"| {v.stage} | `{v.name}` | {', '.join(v.targets)} | "
                         f"{', '.join(v.dtypes)} | {v.recurrence} | `{v.template}` | "
                         f"{', '.join(v.tables)} | {', '.join(v.needs) or '-'} | {params} | "
                         f"{v.reason} | {v.evidence} |")
        lines.append("")
    lines += ["## Targets", "", "| target | IREE driver | families (first: default) | dtypes |",
              "|---|---|---|---|"]
    lines += [f"| {t.name} | {t.driver} | {', '.join(t.families)} | {', '.join(t.dtypes)} |"
              for t in TARGETS.values()]
    return "\n".join(lines) + "\n"
