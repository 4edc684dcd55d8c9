"""A transform plan: sizes, grid, kernel variants, and the device tables they need.

A plan is the unit that is compiled (one MLIR module per plan) and cached. Everything here
is host-side numpy and needs no compiler, so a saved module can rebuild its tables where
only the runtime is installed.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ireesht import grid as gridmod
from ireesht import fourier, ishioka, layout, legendre
from ireesht.validate import check_choice, check_int

DTYPES = ("float32", "float64")
# kernel families with float64 kernels; Metal GPUs have no float64 at all
FLOAT64_KERNELS = ("mlir", "c")
# kernel families each target can run, the first being the default of kernels="auto"
TARGET_KERNELS = {"vulkan": ("mlir", "wgsl"), "cuda": ("mlir",), "metal": ("mlir",), "cpu": ("c",)}
TARGETS = tuple(TARGET_KERNELS)
CPU_BASELINES = ("x86-64-v2", "x86-64-v3", "aarch64")
FIELDS_PER_THREAD = (1, 2, 4)
SYNTH_WG = 64  # workgroup size of leg_synth (WGSL and MLIR)
# Targets whose MLIR analysis sums each degree's values over lanes with subgroup shuffles
# (analys_lane_group): CUDA, the one target with more than one analysis field per thread.
# H200, 16 fields, Legendre analysis (with the spans of 32 degrees they allow): float32
# lmax 127 / 255 / 1023 / 2047 39% / 36% / 21% / 24% faster, float64 (two fields per
# thread) 255 / 1023 30% / 20% (BENCHMARKS.md, tenth and eleventh runs).
LANE_SUM_TARGETS = ("cuda",)
# One float32 field sums over lane pairs (one shuffle per value; the partial sums take half
# the workgroup memory, so spans of 64 degrees) on grids of 385-512 latitude pairs: one
# chunk of four pairs per thread (leg_analys.mlir, with recurrence="standard": the default
# one-field plans on CUDA take the Ishioka analysis, kernels_mlir.lanes64_analysis). H200,
# Legendre analysis, one field (BENCHMARKS.md sixteenth run): lmax
# 1023 198.8-201.7 -> 174.8-177.3 us (96 registers: 5 workgroups per SM instead of 6, which
# alone gave 180); lmax 2047 (two chunks) 1103-1104 -> 1150-1155; lmax 511 (256 pairs)
# 57.5 -> 65.5 us with the spans of the tenth run.
LANE_PAIR_GRIDS = (385, 512)
# the four stage kernels of every family, in the order of their dispatches (synthesis,
# then analysis)
STAGES = ("leg_synth", "fft_synth", "fft_analys", "leg_analys")
# Table arguments of the exported functions (mlir/pipeline.mlir), in order; the field
# (q or f) follows them.
SYNTH_TABLES = ("xtab", "seedtab", "polar", "coef", "stab", "twiddle")
ANALYS_TABLES = ("xtab", "seedtab", "polar", "coef", "stab", "wtab", "twiddle")
# The synthesis of the "ishioka" recurrence reads the chain table instead of coef and stab,
# and so does its analysis where it has one (kernels_mlir.ishioka_analysis).
ISHIOKA_SYNTH_TABLES = ("xtab", "seedtab", "polar", "chain", "twiddle")
ISHIOKA_ANALYS_TABLES = ("xtab", "seedtab", "polar", "chain", "wtab", "twiddle")
# the analysis in segments (kernels_mlir.lanes64_segment) also takes the restart tables
SEGMENT_ANALYS_TABLES = ("xtab", "seedtab", "polar", "chain", "wtab", "restart_rows", "restart",
                         "twiddle")
# Legendre recurrences: "standard" (the plan's dtype, ireesht/legendre.py) and "ishioka"
# (float64 whatever the dtype, ireesht/ishioka.py; MLIR kernels, devices with float64): the
# synthesis, and the analysis of float32 plans of one field per thread on grids of at most
# 384 pairs (kernels_mlir.ishioka_analysis) and of the tensor-core batch plans on CUDA
# (kernels_mlir.mma_analysis). "auto" takes "ishioka" on CUDA with one field per thread:
# datacenter GPUs run float64 at half the float32 rate (H200, one field, Legendre synthesis
# stage: lmax 1023 145 -> 105 us, 2047 925 -> 781 us, float32 error 1.1e-6 -> 1.2e-7;
# float64 plans 204 -> 109 us at 1023, BENCHMARKS.md thirteenth run). With fields sharing
# a recurrence the sums are most of the work (16 fields, four per thread, lmax 1023: 1030
# us with the standard scheme, 1937 with float64 sums, 1097 with float32 ones), and consumer
# GPUs run float64 at 1/32 to 1/64 of the float32 rate (Metal has none): "standard" there.
# For CUDA batch plans (four fields per thread) "auto" keeps "standard" for the synthesis and
# takes "ishioka" for the analysis where it runs on tensor cores (kernels_mlir.mma_analysis):
# H200, lmax 1023, analysis enqueued, 1 / 4 / 8 / 16 fields per call 0.349 -> 0.339 / 0.374
# -> 0.397 / 0.715 -> 0.451 / 1.386 -> 0.887 ms, error 9.4e-7 -> 2.9e-7 (BENCHMARKS.md
# twentieth run). The synthesis on tensor cores takes whole groups of 16 fields (the fields
# past them float32 sums of the Ishioka kernel, whose largest error is 5x the float32
# scheme's) and pays off from 16 fields per call at lmax 720-1023 only (H200, lmax 1023,
# synthesis enqueued: 4 fields 0.261 against 0.247 ms, 16 fields 0.83 against 0.91; at 511
# 0.180 against 0.170; twenty-fourth run): the batch size is known only at the call, so
# "auto" keeps the float32 scheme there.
RECURRENCES = ("standard", "ishioka")
ISHIOKA_TARGETS = ("cuda", "vulkan")


@dataclasses.dataclass(frozen=True)
class Plan:
    """Sizes and choices of one transform.

    Attributes
    ----------
    lmax, mmax : band limit, 0 <= mmax <= lmax
    grid : "gauss" or "equiangular"
    nlat, nphi : spatial grid (nlat x nphi), nphi > 2 mmax
    dtype : "float32" or "float64"
    target : "vulkan", "cuda", "metal" or "cpu"
    kernels : kernel family, one of ``TARGET_KERNELS[target]``
    fields_per_thread : fields that share one recurrence in the Legendre kernels (1, 2, 4):
        larger is faster for batches, slower for single fields
    subgroups : whether the analysis kernel sums with subgroup operations (WGSL family; the
        MLIR family sums in workgroup memory, with or without)
    recurrence : the Legendre recurrence, one of ``RECURRENCES`` ("ishioka": float64, MLIR
        kernels on CUDA or Vulkan devices with shaderFloat64; the synthesis's, and the
        analysis's where ``kernels_mlir`` has a kernel for it)
    analysis_recurrence : the analysis's recurrence where it is not ``recurrence`` (None:
        the same; ``analys_recurrence`` gives the one that runs): ``recurrence="auto"``
        sets it to "ishioka" for the CUDA batch plans whose analysis then runs on tensor
        cores (``kernels_mlir.mma_analysis``) while their synthesis keeps the float32 scheme
    cpu : for target "cpu", the instruction set the module is built for: "host" (this
        machine's, for modules compiled where they run) or a portable baseline of
        ``CPU_BASELINES`` (saved artifacts)
    """

    lmax: int
    mmax: int
    grid: str
    nlat: int
    nphi: int
    dtype: str = "float32"
    target: str = "vulkan"
    kernels: str = "wgsl"
    fields_per_thread: int = 1
    subgroups: bool = True
    cpu: str = "host"
    recurrence: str = "standard"
    analysis_recurrence: str | None = None

    @classmethod
    def create(
        cls,
        lmax: int,
        mmax: int | None = None,
        nlat: int | None = None,
        nphi: int | None = None,
        grid: str = "gauss",
        target: str = "vulkan",
        dtype: str = "float32",
        kernels: str = "auto",
        fields_per_thread: int = 1,
        subgroups: bool = True,
        recurrence: str = "auto",
    ) -> "Plan":
        """Validate the user's choices and fill in default sizes."""
        check_int("lmax", lmax, minimum=0)
        mmax = lmax if mmax is None else mmax
        check_int("mmax", mmax, minimum=0)
        if mmax > lmax:
            raise ValueError(f"mmax={mmax}: expected mmax <= lmax={lmax}")
        check_choice("grid", grid, gridmod.GRID_KINDS)
        check_choice("target", target, TARGETS)
        check_choice("dtype", dtype, DTYPES)
        families = TARGET_KERNELS[target]
        if dtype == "float64":
            if target == "metal":
                raise ValueError("dtype='float64': Metal GPUs have no float64; expected "
                                 "dtype='float32' on target 'metal'")
            families = tuple(f for f in families if f in FLOAT64_KERNELS)
        kernels = families[0] if kernels == "auto" else kernels
        check_choice(f"kernels (target={target!r}, dtype={dtype!r})", kernels, families)
        if fields_per_thread not in FIELDS_PER_THREAD:
            raise ValueError(
                f"fields_per_thread={fields_per_thread!r}: expected one of {FIELDS_PER_THREAD}"
            )
        auto = recurrence == "auto"
        if auto:
            fast = target == "cuda" and kernels == "mlir" and fields_per_thread == 1
            recurrence = "ishioka" if fast else "standard"
        check_choice("recurrence", recurrence, RECURRENCES)
        if recurrence == "ishioka" and (kernels != "mlir" or target not in ISHIOKA_TARGETS):
            raise ValueError(
                f"recurrence='ishioka' runs in float64 in the mlir kernels on "
                f"{' or '.join(ISHIOKA_TARGETS)}; expected recurrence='standard' with "
                f"target={target!r}, kernels={kernels!r}")
        dnlat, dnphi = gridmod.default_sizes(lmax, mmax, grid)
        nlat = dnlat if nlat is None else nlat
        nphi = dnphi if nphi is None else nphi
        g = gridmod.make_grid(grid, nlat, nphi)  # validates nlat, nphi on their own
        if nphi <= 2 * mmax:
            raise ValueError(f"nphi={nphi}: expected nphi > 2*mmax = {2 * mmax}")
        if g.exact_lmax < lmax and grid == "gauss":
            raise ValueError(
                f"nlat={nlat}: Gauss analysis of lmax={lmax} needs nlat >= lmax+1 = {lmax + 1}"
            )
        plan = cls(int(lmax), int(mmax), grid, int(nlat), int(nphi), dtype, target, kernels,
                   int(fields_per_thread), bool(subgroups), recurrence=recurrence)
        if auto and recurrence == "standard" and target == "cuda" and fields_per_thread == 4:
            from ireesht.kernels_mlir import mma_analysis  # the MLIR kernels decide

            mixed = dataclasses.replace(plan, analysis_recurrence="ishioka")
            if mma_analysis(mixed):
                return mixed
        return plan

    # sizes -----------------------------------------------------------------
    @functools.cached_property  # read on every call of the device-array path (3.6 us)
    def nlm(self) -> int:
        return layout.nlm(self.lmax, self.mmax)

    @property
    def mc(self) -> int:
        return self.mmax + 1

    @property
    def npairs(self) -> int:
        return (self.nlat + 1) // 2

    @property
    def exact(self) -> bool:
        """Whether analysis is exact (to rounding) for fields band-limited to lmax."""
        return self.make_grid().exact_lmax >= self.lmax

    @property
    def analys_recurrence(self) -> str:
        """The recurrence of the analysis (``analysis_recurrence``, else ``recurrence``)."""
        return self.analysis_recurrence or self.recurrence

    @property
    def float64_recurrence(self) -> bool:
        """Whether a Legendre stage runs the "ishioka" recurrence (float64 on the device
        whatever the dtype; it reads the chain table)."""
        return "ishioka" in (self.recurrence, self.analys_recurrence)

    @property
    def synth_tables(self) -> tuple[str, ...]:
        """The table arguments of the exported synthesis functions, in order."""
        return ISHIOKA_SYNTH_TABLES if self.recurrence == "ishioka" else SYNTH_TABLES

    @property
    def analys_tables(self) -> tuple[str, ...]:
        """The table arguments of the exported analysis functions, in order."""
        from ireesht.kernels_mlir import (  # the MLIR kernels decide
            ishioka_analysis, lanes64_analysis, lanes64_segment, mma_analysis)

        if lanes64_segment(self):
            return SEGMENT_ANALYS_TABLES
        ishioka = ishioka_analysis(self) or lanes64_analysis(self) or mma_analysis(self)
        return ISHIOKA_ANALYS_TABLES if ishioka else ANALYS_TABLES

    def make_grid(self) -> gridmod.Grid:
        return gridmod.make_grid(self.grid, self.nlat, self.nphi)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    # tables ----------------------------------------------------------------
    def tables(self) -> dict[str, np.ndarray]:
        """The device tables, in the plan's dtype, in the layouts of kernels/CONTRACT.md.

        Returns
        -------
        dict with ``xtab (npairs, 4)`` (x and t = 1 - x as hi + lo pairs), ``seedtab
        (mc*npairs, 2)`` (the seed of order m and pair p in row m npairs + p,
        ``legendre.seed_table``), ``polar (mc,)`` (the pairs next to the pole that order m may
        skip, ``legendre.polar_rows``), ``coef (nlm, 4)`` (A, B, C, E),
        ``stab (nlm,)``, ``wtab (npairs,)``, ``twiddle (fourier.twiddle_rows(nphi), 2)`` (its
        pass rows those of the plan's kernel family); all
        computed in float64 and rounded once (values that need more than float32 come as hi +
        lo pairs; in float64 the lo parts are 0); with the "ishioka" recurrence (either stage's) also ``chain
        (ishioka.offset(lmax, mmax + 1), 5)`` in float64 whatever the dtype
        (``ishioka.chain_table``).
        """
        dt = np.dtype(self.dtype).type
        g = self.make_grid()
        p = self.npairs
        xtab = np.zeros((p, 4), dt)
        xtab[:, 0], xtab[:, 1] = legendre.split(g.cost[:p], dt)
        # exact for the rows that use it (x > 1/2, Sterbenz)
        xtab[:, 2], xtab[:, 3] = legendre.split(1.0 - g.cost[:p], dt)
        # exact in float32: < 2^24
        polar = legendre.polar_rows(self.lmax, self.mmax, g.cost[:p], g.sint[:p], dt).astype(dt)
        coef, stab = legendre.recurrence_tables(self.lmax, self.mmax)
        # the 2 pi / nphi of the longitude quadrature is folded into the weights
        wtab = (g.weights[:p] * (2 * np.pi / self.nphi)).astype(dt)
        out = {
            "xtab": xtab,
            "seedtab": legendre.seed_table(self.mmax, g.sint[:p], dt).reshape(self.mc * p, 2),
            "polar": polar,
            "coef": coef.astype(dt),
            "stab": stab.astype(dt),
            "wtab": wtab,
            "twiddle": fourier.twiddle(self.nphi, dt, fourier.RADIX[self.kernels]),
        }
        if self.float64_recurrence:
            out["chain"] = ishioka.chain_table(self.lmax, self.mmax)
        if "restart" in self.analys_tables:
            from ireesht.kernels_mlir import lanes64_restart

            out.update(lanes64_restart(self, out))
        return out


def analys_fields_per_thread(plan: Plan) -> int:
    """Fields per thread of the analysis kernel. WGSL: the workgroup-tree variant keeps one
    group per thread, which leaves workgroup memory for one field only. MLIR: a thread's
    (pair, field) products fill a vector<4 nf>, and SPIR-V vectors hold 4 at most, so nf
    fields on CUDA and one elsewhere; in float64 two at most (four took 244 registers, two
    workgroups per SM on an H200, and ran 15-21% slower at lmax 1023 and 2047 with 16
    fields, BENCHMARKS.md)."""
    if plan.kernels == "mlir":
        if plan.target != "cuda":
            return 1
        return min(plan.fields_per_thread, 2) if plan.dtype == "float64" else plan.fields_per_thread
    return plan.fields_per_thread if plan.subgroups else 1


def analys_lane_group(plan: Plan, nf: int) -> int:
    """Lanes that sum each degree's 2 nf values with subgroup shuffles in the MLIR analysis
    with nf fields per thread (kernels/mlir/leg_analys.mlir), on LANE_SUM_TARGETS: 2 nf with
    two fields or more; with one field, lane pairs on float32 grids of LANE_PAIR_GRIDS
    pairs; else 1 (no shuffles)."""
    if plan.kernels != "mlir" or plan.target not in LANE_SUM_TARGETS:
        return 1
    if nf > 1:
        return 2 * nf
    lo, hi = LANE_PAIR_GRIDS
    return 2 if plan.dtype == "float32" and lo <= plan.npairs <= hi else 1
