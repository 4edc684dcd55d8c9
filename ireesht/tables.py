"""The device tables of a plan, in the layouts of docs/design.md ("Stage contract"): computed
on the host in float64, rounded once, uploaded once and resident while the module lives.

Each table is built only when one of the plan's variants reads it (``Variant.tables``).
"""

from __future__ import annotations

import numpy as np

from ireesht import geometry
from ireesht.numerics import fourier, ishioka, legendre, normalization, resample, vector

# The format of the tables: bump it when a table's content or layout changes for the same
# plan. Modules carry it in their plan's fingerprint (``Plan.fingerprint``), so a module
# compiled for other tables is refused when it loads, and cache entries miss.
TABLES_VERSION = 9  # 2: the C / WGSL twiddle layout (mixed radix); 3: table theta;
# 4: theta folded by the equatorial symmetry; 5, 6: the low-rank theta step (float32); 7: the
# MLIR family's float64 recurrence reads seed64 and wtab64 (was seedtab and wtab); 8: float64
# plans read seedtab, wtab and twiddle for those (Plan.stage_tables); 9: vector plans' seeds
# carry 1 / sin(theta) and the pole rows their limits (vrows and vpole gone, vanalys_mix 4 wide)
# MLIR element type of each plan dtype
FLOAT_TYPES = {"float32": "f32", "float64": "f64"}

def names(plan) -> tuple[str, ...]:
    """Every table the plan's variants read, each once, in the order of first use."""
    return tuple(dict.fromkeys(plan.synth_tables + plan.analys_tables + plan.vsynth_tables
                               + plan.vanalys_tables))

def segment_steps(plan) -> int:
    """Steps per segment of the analysis in segments (``lanes64_segments``), else 0."""
    if plan.variant_names["leg_analys"] != "lanes64_segments":
        return 0
    return geometry.lanes64_segment_steps(plan, plan.params("leg_analys")["segment_min"])

def table_shapes(plan) -> dict[str, tuple[str, str]]:
    """The shape (``"AxB"``) and MLIR element type of each table of ``device_tables``."""
    ft = FLOAT_TYPES[plan.dtype]
    if plan.nyquist:  # the kernels' tables, and the Nyquist order's
        nn = plan.lmax - plan.mmax + 1
        shapes = {**table_shapes(plan.kernel_plan), "nyq_synth": (f"{nn}x{plan.nlat}", ft),
                  "nyq_analys": (f"{plan.nlat}x{nn}", ft)}
        return {name: shapes[name] for name in names(plan)}
    p, nlm = plan.npairs, plan.nlm
    nh = (plan.nlat + 1) // 2  # the theta step's folded blocks (resample.theta_blocks)
    shapes = {"xtab": (f"{p}x4", ft), "seedtab": (f"{plan.mc * p}x2", ft),
              "polar": (f"{plan.mc}", ft), "coef": (f"{nlm}x4", ft), "stab": (f"{nlm}", ft),
              "wtab": (f"{p}", ft),
              "twiddle": (f"{fourier.twiddle_rows(plan.nphi, plan.kernels)}x2", ft),
              "chain": (f"{ishioka.offset(plan.lmax, plan.mmax + 1)}x{ishioka.COLUMNS}", "f64"),
              "node64": (f"{p}x2", "f64"), "seed64": (f"{plan.mc * p}x2", "f64"),
              "wtab64": (f"{p}", "f64"),
              "twiddle64": (f"{fourier.twiddle_rows(plan.nphi, plan.kernels)}x2", "f64"),
              "qscale": (f"{nlm}", ft), "theta": (f"4x{nh}x{nh}", ft)}
    if plan.theta_rank:
        r2 = 2 * plan.theta_rank
        shapes.update(theta_u=(f"{plan.nlat}x{r2}", ft), theta_v=(f"{r2}x{plan.nlat}", ft),
                      theta_d=(f"{plan.nlat}", ft))
    if plan.transform == "vector":
        shapes.update(vsynth_mix=(f"{plan.nlm}x4", ft), vanalys_mix=(f"{plan.band_nlm}x4", ft))
    steps = segment_steps(plan)
    if steps:
        rows = ishioka.segment_rows(plan.lmax, plan.mmax, steps)[1]
        shapes.update(restart_rows=(f"{plan.mc}", "f64"), restart=(f"{rows * p}x2", "f64"))
    return {name: shapes[name] for name in names(plan)}

def device_tables(plan) -> dict[str, np.ndarray]:
    """The tables the plan's kernels read, in the plan's dtype (chain, restart, node64,
    seed64, wtab64 and twiddle64 in float64 whatever the dtype):

    ``xtab (npairs, 4)`` x and t = 1 - x as hi + lo pairs; ``seedtab (mc*npairs, 2)`` the seed
    of order m and pair p in row m npairs + p (``legendre.seed_table``); ``polar (mc,)`` the
    pairs next to the pole that order m may skip; ``coef (nlm, 4)`` (A, B, C, E) and ``stab
    (nlm,)`` of the float32 scheme; ``wtab (npairs,)`` the quadrature weights times 2 pi /
    nphi; ``twiddle`` (``fourier.twiddle``, in the layout of the plan's kernel family);
    ``chain`` (``ishioka.chain_table``); ``node64 (npairs, 2)`` x and the weight (times
    2 pi / nphi), ``seed64``, ``wtab64`` and ``twiddle64``: seedtab, wtab and twiddle in
    float64 (the float64 stages of float32 plans: the C family's, and the MLIR family's
    Ishioka kernels); ``restart_rows``, ``restart`` (``restart_tables``);
    ``qscale (nlm,)`` the coefficients' normalisation and phase (``normalization.factors``);
    ``theta (4, nh, nh)``, ``nh = (nlat + 1) // 2``, the theta step folded by the equatorial
    symmetry (``resample.theta_blocks``), or for
    the low-rank step of float32 plans ``theta_u (nlat, 2r)``, ``theta_v (2r, nlat)``,
    ``theta_d (nlat,)`` (``resample.theta_lowrank``).
    For a ``nyquist`` plan, those of its ``kernel_plan`` and ``nyquist_tables``.
    """
    want = names(plan)
    if plan.nyquist:
        out = {**device_tables(plan.kernel_plan), **nyquist_tables(plan)}
        return {name: out[name] for name in want}
    dt = np.dtype(plan.dtype).type
    g = plan.make_grid()
    p = plan.npairs
    out = {}
    xtab = np.zeros((p, 4), dt)
    xtab[:, 0], xtab[:, 1] = legendre.split(g.cost[:p], dt)
    # exact for the rows that use it (x > 1/2, Sterbenz)
    xtab[:, 2], xtab[:, 3] = legendre.split(1.0 - g.cost[:p], dt)
    out["xtab"] = xtab
    if "seedtab" in want:
        out["seedtab"] = geometry.seeds(plan, dt).reshape(plan.mc * p, 2)
    # exact in float32: < 2^24
    out["polar"] = geometry.polar(plan).astype(dt)
    if "coef" in want:
        coef, stab = legendre.recurrence_tables(plan.lmax, plan.mmax)
        out["coef"], out["stab"] = coef.astype(dt), stab.astype(dt)
    # the 2 pi / nphi of the longitude quadrature is folded into the weights
    weights = g.weights[:p] * (2 * np.pi / plan.nphi)
    if "wtab" in want:
        out["wtab"] = weights.astype(dt)
    if "wtab64" in want:
        out["wtab64"] = weights
    if "twiddle" in want:
        out["twiddle"] = fourier.twiddle(plan.nphi, dt, plan.kernels)
    if "chain" in want:
        out["chain"] = ishioka.chain_table(plan.lmax, plan.mmax)
    if "node64" in want:
        out["node64"] = np.stack([g.cost[:p], weights], -1)
    if "seed64" in want:
        out["seed64"] = geometry.seeds(plan, np.float64).reshape(plan.mc * p, 2)
    if "twiddle64" in want:
        out["twiddle64"] = fourier.twiddle(plan.nphi, np.float64, plan.kernels)
    if "restart" in want:
        out.update(restart_tables(plan, out))
    if "qscale" in want:
        out["qscale"] = normalization.factors(plan.lmax, plan.mmax, plan.norm,
                                              plan.csphase).astype(dt)
    if "theta" in want:
        out["theta"] = resample.theta_blocks(g, plan.lmax).astype(dt)
    if "theta_u" in want:
        out.update({k: v.astype(dt) for k, v in resample.theta_lowrank(g, plan.lmax).items()})
    if plan.transform == "vector":
        out.update(vector_tables(plan))
    return {name: out[name] for name in want}


def nyquist_tables(plan) -> dict[str, np.ndarray]:
    """The tables of the Nyquist order ``N = nphi / 2 = mmax`` (``Plan.nyquist``,
    ``codegen.nyquist``), in the plan's dtype, ``l = N..lmax``: ``nyq_synth (lmax - N + 1,
    nlat)`` ``2 d_lN P_lN(theta_i)``, so that synthesis adds ``(-1)^j sum_l Re q_lN
    nyq_synth[l, i]`` to ring i (the real-field convention counts m > 0 twice); ``nyq_analys
    (nlat, lmax - N + 1)`` with ``q_lN = sum_i nyq_analys[i, l] sum_j (-1)^j f_ij`` (Im 0), half
    the quadrature ``sum_i W_i P_lN (theta_p F)_i`` (``W_i = w_i 2 pi / nphi``, ``theta_p`` the
    theta step of N's parity where the plan takes it), divided by ``d_lN``: the inverse of the
    synthesis on band-limited fields. ``d`` the plan's normalisation and phase
    (``normalization.factors``; 1 for the kernels' own). ``P_lN`` by the kernels' float64
    recurrence (``legendre.scaled_legendre``) on the northern rings, which returns 0 for
    values below 2^-128 near the poles (``sin^N theta`` underflows there), rounded once:
    negligible in either dtype (float32 flushes those below ~1e-38 to 0 as well)."""
    dt = np.dtype(plan.dtype).type
    g = plan.make_grid()
    n = plan.mmax
    p = plan.npairs  # the northern rings, mirrored as the kernels do: P(-x) = (-1)^(l-N) P(x)
    north = legendre.scaled_legendre(plan.lmax, n, g.cost[:p], g.sint[:p], np.float64)
    sign = (-1.0) ** np.arange(north.shape[0])[:, None]
    leg = np.concatenate([north, (sign * north[:, :plan.nlat - p])[:, ::-1]], axis=1)
    d = normalization.factors(plan.lmax, n, plan.norm, plan.csphase)[-leg.shape[0]:]
    weighted = (g.weights * (2 * np.pi / plan.nphi))[:, None] * leg.T    # W_i P_lN(theta_i)
    if plan.theta_step:
        weighted = resample.theta_table(g, plan.lmax)[n % 2].T @ weighted
    return {"nyq_synth": (2.0 * d[:, None] * leg).astype(dt),
            "nyq_analys": (0.5 * weighted / d[None, :]).astype(dt)}


def vector_tables(plan) -> dict[str, np.ndarray]:
    """The tables of a vector plan's mixing along l (``numerics.vector``, docs/design.md
    "Vector transforms"), in the plan's dtype: ``vsynth_mix (nlm, 4)`` (packing at the
    kernels' lmax = L + 1) and ``vanalys_mix (band_nlm, 4)`` (at L). The rows' ``1 /
    sin(theta)`` is in the seeds (``geometry.seeds``)."""
    dt = np.dtype(plan.dtype).type
    return {"vsynth_mix": vector.synth_mix(plan.band_lmax, plan.mmax).astype(dt),
            "vanalys_mix": vector.analys_mix(plan.band_lmax, plan.mmax).astype(dt)}

def restart_tables(plan, tables: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tables of the analysis in segments, from the plan's ``xtab``, ``seed64`` and
    ``chain``: ``restart_rows (mc,)``, order m's first row, and ``restart (rows npairs, 2)``,
    the chain's state where each segment starts (``ishioka.restart_states``), in float64,
    from the seeds as the kernel takes them (live: y 2^(S k), times a_{m+1})."""
    xtab, seed64 = tables["xtab"], tables["seed64"]
    x = xtab[:, 0].astype(np.float64) + xtab[:, 1].astype(np.float64)
    ys = seed64[:, 0].reshape(plan.mc, plan.npairs)
    k = seed64[:, 1].astype(np.int64).reshape(plan.mc, plan.npairs)
    scale_bits = legendre.RESCALE_BITS["float64"][1]
    y0 = np.ldexp(ys, scale_bits * k) * ishioka.seed_factor(np.arange(plan.mc))[:, None]
    rows, states = ishioka.restart_states(plan.lmax, plan.mmax, tables["chain"], x * x, y0,
                                          segment_steps(plan))
    return {"restart_rows": rows.astype(np.float64), "restart": states.reshape(-1, 2)}
