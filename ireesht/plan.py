"""A transform plan: validated sizes and choices (``Request``) and the kernel variant of each
stage (``Plan``), chosen once by ``ireesht.registry.select``.

A plan is the unit that is compiled (one MLIR module per plan), cached and saved. Both are
frozen values that cannot be invalid: every field is checked when one is made, from
``compile()`` arguments (``Plan.create``) or from an artifact's manifest (``Plan.from_dict``),
and a bad one raises ValueError naming the field and the values allowed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
from collections.abc import Mapping

from ireesht import registry, tables
from ireesht.geometry import THETA_GROUPS, lanes64_segment_steps
from ireesht.numerics import grid as gridmod
from ireesht.numerics import layout, normalization, resample
from ireesht.host import CPU_BASELINES
from ireesht.registry import DTYPES, FIELDS_PER_THREAD, RECURRENCES, STAGES, TARGETS

# the float64 copies of float32 tables that a float64 plan reads as the tables themselves
SAME_IN_FLOAT64 = {"seed64": "seedtab", "wtab64": "wtab", "twiddle64": "twiddle"}
# "vector": spin-1 fields through the scalar kernels at lmax + 1 (ireesht.numerics.vector)
TRANSFORMS = ("scalar", "vector")
from ireesht.validate import check_bool, check_choice, check_int, check_plan_bytes, check_sizes


def canonical_json(value) -> bytes:
    """One byte string per JSON value (sorted keys, no spaces, ASCII, no NaN): what the
    integrity digests of plans and manifests hash. Raises ValueError for NaN or infinities,
    TypeError for what JSON cannot hold."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode()


@dataclasses.dataclass(frozen=True)
class Request:
    """Sizes and choices of one transform, before its variants are chosen.

    Attributes
    ----------
    lmax, mmax : band limit, 0 <= mmax <= lmax
    grid : one of ``numerics.grid.GRID_KINDS``: "gauss", "equiangular" (both poles) or
        "fejer" (no poles)
    nlat, nphi : spatial grid (nlat x nphi), nphi >= 2 mmax (``nphi == 2 mmax``: the Nyquist
        order, ``nyquist``)
    dtype : "float32" or "float64"
    target : "vulkan", "cuda", "metal" or "cpu" (``registry.TARGETS``)
    kernels : kernel family, one of the target's (``registry.TARGETS[target].families``)
    fields_per_thread : fields that share one Legendre recurrence in the GPU kernels (1, 2, 4):
        larger is faster for batches, slower for single fields
    cpu : target "cpu": the instruction set, "host" (this machine's) or a portable baseline
        of ``CPU_BASELINES`` (saved artifacts); "host" on the other targets
    transform : "scalar" (``synth``, ``analys``) or "vector" (``vsynth``, ``vanalys`` of
        vector fields of band limit ``lmax - 1``: ``lmax`` is always the Legendre kernels'
        band limit, one more than the fields' for vectors; ``band_lmax``)
    norm, csphase : the coefficients' normalisation ("ortho", "four_pi", "schmidt") and
        whether they carry the Condon-Shortley phase (``numerics.normalization``); scalar
        plans only
    """

    lmax: int
    mmax: int
    grid: str
    nlat: int
    nphi: int
    dtype: str
    target: str
    kernels: str
    fields_per_thread: int
    cpu: str
    transform: str = "scalar"
    norm: str = "ortho"
    csphase: bool = True

    def __post_init__(self) -> None:
        for name in ("lmax", "mmax", "nlat", "nphi"):  # Python ints: hashable, JSON-able
            object.__setattr__(self, name, check_int(name, getattr(self, name), minimum=0))
        check_sizes(self.lmax, self.nlat, self.nphi)  # before the grid is computed
        if self.mmax > self.lmax:
            raise ValueError(f"mmax={self.mmax}: expected mmax <= lmax={self.lmax}")
        check_choice("grid", self.grid, gridmod.GRID_KINDS)
        check_choice("target", self.target, TARGETS)
        check_choice("dtype", self.dtype, DTYPES)
        target = TARGETS[self.target]
        if self.dtype not in target.dtypes:
            raise ValueError(f"dtype={self.dtype!r}: {self.target} devices have no float64; "
                             f"expected one of {target.dtypes} on target {self.target!r}")
        families = tuple(f for f in target.families
                         if any(self.dtype in v.dtypes for v in registry.candidates(f, "leg_synth")))
        check_choice(f"kernels (target={self.target!r}, dtype={self.dtype!r})", self.kernels,
                     families)
        object.__setattr__(self, "fields_per_thread",
                           check_int("fields_per_thread", self.fields_per_thread))
        if self.fields_per_thread not in FIELDS_PER_THREAD:
            raise ValueError(f"fields_per_thread={self.fields_per_thread!r}: expected one of "
                             f"{FIELDS_PER_THREAD}")
        check_choice("cpu", self.cpu, ("host", *CPU_BASELINES) if self.target == "cpu"
                     else ("host",))
        check_choice("transform", self.transform, TRANSFORMS)
        if self.transform == "vector" and self.mmax >= self.lmax:
            raise ValueError(f"mmax={self.mmax}: a vector plan's kernels run at lmax={self.lmax}"
                             f", one more than its fields' {self.lmax - 1}: expected mmax <= "
                             f"{self.lmax - 1}")
        check_choice("norm", self.norm, normalization.NORMS)
        object.__setattr__(self, "csphase", check_bool("csphase", self.csphase))
        if self.transform == "vector" and self.scaled:
            raise ValueError(f"norm={self.norm!r}, csphase={self.csphase}: vector plans take "
                             "the orthonormal convention with the Condon-Shortley phase only "
                             "(norm='ortho', csphase=True)")
        g = gridmod.make_grid(self.grid, self.nlat, self.nphi)  # checks nlat, nphi alone
        if self.nphi < 2 * self.mmax:
            raise ValueError(f"nphi={self.nphi}: expected nphi >= 2*mmax = {2 * self.mmax}")
        if self.nyquist and self.transform == "vector":
            raise ValueError(f"nphi={self.nphi}, mmax={self.mmax}: vector plans cannot keep "
                             f"the Nyquist order (nphi = 2*mmax; its i m T terms need Im of "
                             f"the coefficients, which the grid cannot carry): expected nphi > "
                             f"2*mmax = {2 * self.mmax} or mmax <= {(self.nphi - 1) // 2}")
        if self.grid == "gauss" and g.exact_lmax < self.band_lmax:
            raise ValueError(f"nlat={self.nlat}: Gauss analysis of lmax={self.band_lmax} needs "
                             f"nlat >= lmax+1 = {self.band_lmax + 1}")

    # sizes -----------------------------------------------------------------
    @functools.cached_property  # read on every call of the device-array path
    def nlm(self) -> int:
        return layout.nlm(self.lmax, self.mmax)

    @property
    def mc(self) -> int:
        return self.mmax + 1

    @property
    def npairs(self) -> int:
        return (self.nlat + 1) // 2

    def make_grid(self) -> gridmod.Grid:
        return gridmod.make_grid(self.grid, self.nlat, self.nphi)

    @property
    def nyquist(self) -> bool:
        """Whether order ``mmax`` is the Nyquist order ``nphi / 2``: the grid carries only
        its real part (``sin(m phi_j) = 0``); the kernels run with ``mmax - 1`` and the
        module adds the order around them (``codegen.nyquist``, ``kernel_plan``)."""
        return self.nphi == 2 * self.mmax

    @property
    def band_lmax(self) -> int:
        """The band limit of the fields transformed: ``lmax`` (scalar), ``lmax - 1`` (vector:
        ``sin(theta) u`` has one degree more, ``ireesht.numerics.vector``)."""
        return self.lmax - (self.transform == "vector")

    @functools.cached_property
    def band_nlm(self) -> int:
        """Packed coefficients of one field (of S or T) at ``band_lmax``."""
        return layout.nlm(self.band_lmax, self.mmax)

    @property
    def scaled(self) -> bool:
        """Whether the module scales the coefficients (``qscale``): a normalisation or phase
        other than the kernels' own."""
        return not normalization.is_native(self.norm, self.csphase)

    @property
    def exact(self) -> bool:
        """Whether analysis is exact (to rounding) for fields band-limited to band_lmax."""
        return self.exact_lmax >= self.band_lmax

    @property
    def exact_lmax(self) -> int:
        """The largest band limit the analysis integrates exactly: the quadrature's, raised by
        the theta step on equiangular and Fejer grids for scalar plans
        (``numerics.resample.exact_lmax``);
        vector plans the quadrature's (the integrand u . grad Y*_lm is a polynomial of the
        scalar one's degree, docs/design.md; the theta step does not apply to u / sin theta)."""
        if self.transform == "vector":
            return self.make_grid().exact_lmax
        return resample.exact_lmax(self.grid, self.nlat)

    @property
    def exact_nlat(self) -> int:
        """The fewest rings of the plan's grid kind whose analysis is exact for band_lmax
        (``numerics.resample.exact_nlat``; vector plans: the quadrature's)."""
        return resample.exact_nlat(self.grid, self.band_lmax, step=self.transform == "scalar")

    @property
    def theta_step(self) -> bool:
        """Whether the analysis takes the theta step of exact equiangular or Fejer analysis
        between its Fourier and Legendre stages (``numerics.resample``; table ``theta``;
        scalar plans)."""
        return (self.transform == "scalar"
                and resample.needs_theta_step(self.make_grid(), self.lmax))

    @property
    def theta_rank(self) -> int:
        """The rank of the low-rank theta step (``numerics.resample.theta_rank``: float32
        plans where it is cheaper; tables ``theta_u``, ``theta_v``, ``theta_d``), else 0 (the
        folded step, table ``theta``, or none)."""
        return (resample.theta_rank(self.make_grid(), self.lmax, self.dtype)
                if self.theta_step else 0)

    @property
    def theta_tables(self) -> tuple[str, ...]:
        """The theta step's tables (``codegen.theta``), in order; () without the step."""
        if not self.theta_step:
            return ()
        return ("theta_u", "theta_v", "theta_d") if self.theta_rank else ("theta",)


@dataclasses.dataclass(frozen=True)
class Plan(Request):
    """A ``Request`` with the variant of each stage: ``variants`` is ``((stage, name,
    ((param, value), ...)), ...)`` in ``STAGES`` order, each a row of ``ireesht.registry``
    that can run the request (checked when made)."""

    variants: tuple = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.variants, tuple) or [c[0] for c in self.variants
                                                    if isinstance(c, tuple)] != list(STAGES):
            raise ValueError(f"variants={self.variants!r}: expected one (stage, name, params) "
                             f"per stage, in the order {STAGES}")
        if self.nyquist:  # the kernels run one order less: their plan resolves the variants
            self.kernel_plan
        else:
            for stage, name, params in self.variants:
                registry.resolve(self, stage, {"name": name, **dict(params)})  # raises if unfit
        check_plan_bytes(f"lmax={self.lmax}, nlat={self.nlat}, nphi={self.nphi}, "
                         f"dtype={self.dtype!r}", self.device_bytes())

    @functools.cached_property
    def kernel_plan(self) -> "Plan":
        """The plan the kernels and their tables are built for: the plan itself, or for a
        ``nyquist`` plan the same with ``mmax - 1`` (``nphi > 2 (mmax - 1)``), whose packed
        coefficients are the first ``nlm - (lmax - mmax + 1)`` of this plan's."""
        if not self.nyquist:
            return self
        return dataclasses.replace(self, mmax=self.mmax - 1)

    def device_bytes(self, batch: int = 1) -> int:
        """Device memory of the resident tables and the buffers (q, F, f) of ``batch``
        fields, in bytes."""
        itemsize = {"f32": 4, "f64": 8}
        table = sum(math.prod(int(n) for n in shape.split("x")) * itemsize[et]
                    for shape, et in tables.table_shapes(self).values())
        per_field = (2 * self.nlm + 2 * self.nlat * self.kernel_plan.mc
                     + self.nlat * self.nphi)
        if self.transform == "vector":  # two components through the scalar kernels
            per_field = 2 * per_field + 4 * self.band_nlm
        return table + batch * per_field * itemsize[tables.FLOAT_TYPES[self.dtype]]

    @functools.cached_property
    def fingerprint(self) -> str:
        """sha256 of everything that determines the module's results and the tables it
        reads: the plan (``as_dict``) and ``tables.TABLES_VERSION``. The module carries it
        (reflection ``ireesht.plan`` of ``synth``), so that a module is used only with the
        plan it was compiled for."""
        return hashlib.sha256(canonical_json(
            {"plan": self.as_dict(), "tables_version": tables.TABLES_VERSION})).hexdigest()

    @classmethod
    def create(cls, lmax: int, mmax: int | None = None, nlat: int | None = None,
               nphi: int | None = None, grid: str = "gauss", target: str = "vulkan",
               dtype: str = "float32", kernels: str = "auto", fields_per_thread: int = 1,
               recurrence: str = "auto", variants: Mapping | None = None,
               cpu: str = "host", norm: str = "ortho", csphase: bool = True,
               transform: str = "scalar") -> "Plan":
        """Validate the user's choices, fill in default sizes and choose the variants
        (``registry.select``; ``variants`` forces some, ``{stage: name}`` or ``{stage:
        {"name": name, param: value}}``). ``lmax`` is the fields' band limit: a vector
        plan's kernels run at ``lmax + 1``."""
        check_int("lmax", lmax, minimum=0)
        mmax = lmax if mmax is None else mmax
        check_int("mmax", mmax, minimum=0)
        check_choice("transform", transform, TRANSFORMS)
        check_choice("grid", grid, gridmod.GRID_KINDS)
        check_choice("target", target, TARGETS)
        check_choice("recurrence", recurrence, ("auto", *RECURRENCES))
        if kernels == "auto":
            kernels = TARGETS[target].families[0]
        dnlat, dnphi = gridmod.default_sizes(lmax, min(mmax, lmax), grid)
        if transform == "vector" and mmax > lmax:
            raise ValueError(f"mmax={mmax}: expected mmax <= lmax={lmax}")
        req = Request(lmax + (transform == "vector"), mmax, grid, dnlat if nlat is None else nlat,
                      dnphi if nphi is None else nphi, dtype, target, kernels,
                      fields_per_thread, cpu, transform, norm, csphase)
        if variants is not None and not isinstance(variants, Mapping):
            raise ValueError(f"variants={variants!r}: expected a dict {{stage: name}}")
        # a Nyquist plan's kernels run with mmax - 1 (Plan.kernel_plan): chosen for that
        kreq = dataclasses.replace(req, mmax=req.mmax - 1) if req.nyquist else req
        chosen = registry.select(kreq, recurrence, variants)
        return cls(**{f.name: getattr(req, f.name) for f in dataclasses.fields(Request)},
                   variants=chosen)

    @classmethod
    def from_dict(cls, d: Mapping) -> "Plan":
        """The plan of ``as_dict()`` (an artifact's manifest), checked as ``create`` checks."""
        if not isinstance(d, Mapping):
            raise ValueError(f"plan: {type(d).__name__}, expected a mapping of its fields")
        names = [f.name for f in dataclasses.fields(cls)]
        missing, extra = sorted(set(names) - set(d)), sorted(set(d) - set(names))
        if missing or extra:
            raise ValueError(f"plan: fields {missing} missing, {extra} unknown; expected "
                             f"exactly {names}")
        v = d["variants"]
        if not isinstance(v, Mapping) or list(v) != list(STAGES):
            raise ValueError(f"plan.variants={v!r}: expected {{stage: {{'name': ...}}}} for "
                             f"{STAGES} in that order")
        choices = []
        for stage in STAGES:
            spec = v[stage]
            if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str):
                raise ValueError(f"plan.variants[{stage!r}]={spec!r}: expected "
                                 "{'name': ..., parameters}")
            params = tuple(sorted((k, x) for k, x in spec.items() if k != "name"))
            choices.append((stage, spec["name"], params))
        return cls(**{k: d[k] for k in names if k != "variants"}, variants=tuple(choices))

    def as_dict(self) -> dict:
        """The plan as JSON-able data (``from_dict`` reads it back)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(Request)}
        d["variants"] = {s: {"name": n, **dict(p)} for s, n, p in self.variants}
        return d

    # the chosen variants ------------------------------------------------------
    def variant(self, stage: str) -> registry.Variant:
        """The registry row of a stage's variant."""
        return registry.variant(self.kernels, stage, self.variant_names[stage])

    @functools.cached_property
    def variant_names(self) -> dict[str, str]:
        """``{stage: variant name}`` (``info["variants"]``)."""
        return {stage: name for stage, name, _ in self.variants}

    def params(self, stage: str) -> dict[str, int]:
        """The parameters of a stage's variant (its defaults, or what the plan set)."""
        return next(dict(p) for s, _, p in self.variants if s == stage)

    @property
    def recurrence(self) -> str:
        """The recurrence of the synthesis ("standard" or "ishioka")."""
        return self.variant("leg_synth").recurrence

    @property
    def analys_recurrence(self) -> str:
        return self.variant("leg_analys").recurrence

    def stage_tables(self, stage: str) -> tuple[str, ...]:
        """The tables a stage's variant reads, in binding order (``Variant.tables``). A
        float64 plan's ``seedtab``, ``wtab`` and ``twiddle`` are their float64 copies
        (``seed64``, ``wtab64``, ``twiddle64``: the same values), so variants that name either
        read one table, uploaded once."""
        names = self.variant(stage).tables
        if self.dtype == "float64":
            names = tuple(SAME_IN_FLOAT64.get(n, n) for n in names)
        return names

    @property
    def synth_tables(self) -> tuple[str, ...]:
        """The table arguments of the exported synthesis functions, in order."""
        return (self.stage_tables("leg_synth") + self.stage_tables("fft_synth")
                + self._scale_tables + (("nyq_synth",) if self.nyquist else ()))

    @property
    def analys_tables(self) -> tuple[str, ...]:
        """The table arguments of the exported analysis functions, in order."""
        return (self.stage_tables("leg_analys") + self.stage_tables("fft_analys")
                + self._scale_tables + self.theta_tables
                + (("nyq_analys",) if self.nyquist else ()))

    @property
    def _scale_tables(self) -> tuple[str, ...]:
        # the coefficients' scaling (mlir/qscale.mlir), only where the plan needs it
        return ("qscale",) if self.scaled else ()

    @property
    def vsynth_tables(self) -> tuple[str, ...]:
        """The table arguments of ``vsynth`` (vector plans; () otherwise), in order."""
        if self.transform != "vector":
            return ()
        return self.synth_tables + ("vsynth_mix",)

    @property
    def vanalys_tables(self) -> tuple[str, ...]:
        """The table arguments of ``vanalys`` (vector plans; () otherwise), in order."""
        if self.transform != "vector":
            return ()
        return self.analys_tables + ("vanalys_mix",)

    @property
    def theta_groups(self) -> int:
        """Groups of rings whose sums the theta step's kernels keep apart (``"lowrank"``'s
        ``groups``; 0: 8 for one field per thread, 2 for batches, ``geometry.THETA_GROUPS``),
        else 0."""
        if self.variant_names["theta_analys"] != "lowrank":
            return 0
        return (self.params("theta_analys")["groups"]
                or THETA_GROUPS[self.fields_per_thread > 1])

    def needs(self) -> set[str]:
        """The device features its variants need beyond the target's baseline."""
        return {n for s in STAGES for n in self.variant(s).needs}

    def describe(self) -> str:
        """The Legendre stages' variants, as ``ireesht check`` shows them."""
        labels = []
        for stage in ("leg_synth", "leg_analys"):
            v = self.variant(stage)
            steps = (lanes64_segment_steps(self, self.params(stage)["segment_min"])
                     if "{steps}" in v.label else 0)
            labels.append(v.label.format(steps=steps))
        return " / ".join(labels)
