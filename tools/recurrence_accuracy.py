#!/usr/bin/env python3
"""Float32 accuracy of the associated-Legendre three-term recurrence near the poles.

Standalone study (numpy only) for the GPU Legendre synthesis kernels: which float32
evaluation scheme of

    P_lm = a_lm x P_{l-1,m} + b_lm P_{l-2,m}

keeps the synthesis F_m(theta) = sum_l q_lm P_lm(cos theta) accurate next to the poles.

Everything the GPU does in float32 is emulated faithfully here:
  * plain +, * on np.float32 arrays (numpy rounds them correctly, IEEE binary32);
  * an FMA as the float64 product (exact for float32 inputs) plus the addend, rounded
    once to float32.  (Strictly a double rounding through float64, which differs from a
    true FMA only when the float64 sum lands exactly on a float32 tie: probability about
    2^-29 per operation, irrelevant here.)
Values are carried as y * 2^E with an integer exponent per (m, row) and rescaled by exact
powers of two (as the kernels' exponent counter does), so no float32 over/underflow
interferes; the accumulated value P = y 2^E is formed exactly (it is a normal float32
whenever it matters).

Layout: thread = latitude row with x >= 0 (Gauss-Legendre nodes, nlat = lmax+1); the
south row comes from parity (even and odd l-m summed apart, F_N = E+O, F_S = E-O in
float32), as in kernels/wgsl/leg_synth.wgsl.  All m are vectorised together, stepping
k = l - m (the coefficient tables are indexed [k, m]), over chunks of rows.

Error measure: field f = Re F_0 + 2 Re sum_m F_m e^{i m phi} on nlon = 2 lmax + 2
longitudes; relative L2 over all grid points (by Parseval, from F directly) and max
|error| / max |f| (from an inverse real FFT in float64).  The phi sum itself is done in
float64: this isolates the Legendre stage.  Reference: the same recurrence in float64 at
the float64 node (its own error near the pole is ~1e-16 l^1.5 ~ 1e-11, negligible).

Schemes (FORMS below; "+opt" suffixes combine):
  std        baseline: x, a, b rounded to float32                               3 ops/step
  std_xs     x = x_hi + x_lo (the current kernel)                               4
  dif        difference (Reinsch-type) form about x = 1, t = 1 - x in float32   4
  dif_ts     the same with t = t_hi + t_lo                                      5
  two_p/two_e/two_s  two-step (l-2 -> l) forms about x = 1 / x = 0 / x^2 = 1/2  5/5/4
  +xc        exact coefficients: y carried as y / S_l with power-of-two-chosen S_l
             (see scaled_tables); S_l is folded into q when q is staged
  +xb, +xe   other power-of-two normalisations (B resp. E exact; others rounded)
  +g         difference form with the rounding moved from e*d to a*t*y
  diagnostics: +c64 (coefficients unrounded), +yonly (only the stored y rounded:
             the floor of any scheme that stores y in float32 once per step),
             +xp, +xq, +xd (one intermediate of the difference form exact)
Accumulation: f32 (kernel), blk (partial sums of BLK terms per parity), f64 (exact).
Recommended (RECOMMENDED): dif_ts+xc where theta < 55 deg, std_xs+xc elsewhere, blocked
accumulation; see tools/recurrence_accuracy.md for the results and the kernel recipe.

Run: python tools/recurrence_accuracy.py --lmax 1023        (prints the table, ~1 min)
     python tools/recurrence_accuracy.py --lmax 511 --forms dif_ts+xc two_p two_e
     python tools/recurrence_accuracy.py --check            (derivation / normalisation checks)
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time

import numpy as np

f32 = np.float32
f64 = np.float64

# --------------------------------------------------------------------------------------
# host tables (float64)
# --------------------------------------------------------------------------------------


def gauss_nodes(nlat: int):
    """x > 0 Gauss-Legendre nodes, pole first.  x is the float64 node; everything else
    (t = 1 - x, theta, sin theta) is derived from that exact float64 number so that the
    float32 schemes and the float64 reference evaluate at the same point."""
    x, _ = np.polynomial.legendre.leggauss(nlat)
    # one more Newton step in float64 (leggauss already polishes once; harmless)
    p0, p1 = np.ones_like(x), x.copy()
    for n in range(2, nlat + 1):
        p0, p1 = p1, ((2 * n - 1) * x * p1 - (n - 1) * p0) / n
    dp = nlat * (x * p1 - p0) / (x * x - 1)
    x = x - p1 / dp
    x = np.sort(x)[::-1]
    x = x[x > 0].copy()
    t = 1.0 - x  # exact (Sterbenz) for x in [0.5, 1]; for x < 0.5 one rounding, fine
    sint = np.sqrt(t * (1.0 + x))
    return x, t, sint


def tables(lmax: int):
    """Coefficient tables indexed [k, m] = (l - m, m), float64.

    a, b : the standard recurrence.
    c    : r_l / r_{l-1}, r_l = R_lm(1), R_lm = P_lm / sin^m theta (reduced function).
           Closed form from P_l^m(cos th) ~ (l+m)!/((l-m)! 2^m m!) sin^m th as th -> 0:
           r_l = sqrt((2l+1)/(4 pi)) sqrt((l+m)!/(l-m)!) / (2^m m!), hence
           c_l = sqrt((2l+1)(l+m) / ((2l-1)(l-m)))          (c_{m+1} = a_{m+1,m}).
    e    : -b_l / c_{l-1} = (l-1-m) sqrt((2l+1) / ((2l-1)(l^2-m^2)))  = a_l - c_l.
    """
    M = lmax + 1
    k = np.arange(M, dtype=f64)[:, None]
    m = np.arange(M, dtype=f64)[None, :]
    l = k + m
    valid = (k >= 1) & (l <= lmax)
    with np.errstate(divide="ignore", invalid="ignore"):
        den = l * l - m * m
        a = np.sqrt((4 * l * l - 1) / den)
        b = -np.sqrt(np.maximum((2 * l + 1) * ((l - 1) ** 2 - m * m), 0) / ((2 * l - 3) * den))
        c = np.sqrt((2 * l + 1) * (l + m) / ((2 * l - 1) * (l - m)))
        e = (l - 1 - m) * np.sqrt((2 * l + 1) / ((2 * l - 1) * den))
    out = {}
    for name, v in (("a", a), ("b", b), ("c", c), ("e", e)):
        out[name] = np.where(valid, v, 0.0)
    out["b"] = np.where(k == 1, 0.0, out["b"])
    return out


def scaled_tables(lmax: int):
    """Exact float32 coefficients by a power-of-two-chosen normalisation ("xc").

    All coefficients share s_l = sqrt((2l+1) / ((2l-1)(l^2-m^2))):
        a_l = (2l-1) s_l,  c_l = (l+m) s_l,  e_l = (l-1-m) s_l,
        b_l = -((l-1)^2-m^2) s_l s_{l-1}.
    Carry yh_l = y_l / S_l with S_l = S_{l-1} s_l 2^{k_l}, S_m = 1, and pick the integer
    k_l so that S_l stays in [2^-1/2, 2^1/2) (so yh ~ y: no new range problem).  Then
        std: yh_l = A x yh_{l-1} + B yh_{l-2},  A = (2l-1) 2^-k_l, B = -((l-1)^2-m^2) 2^-(k_l+k_{l-1})
        dif: yh_l = C yh_{l-1} + dh_l,  dh_l = E dh_{l-1} - A t yh_{l-1},
             C = (l+m) 2^-k_l, E = (l-1-m) 2^-k_l  (A = C + E)
    -- integers times powers of two: exact in float32 while (l-1)^2 < 2^24 (l <= 4097).
    The accumulation uses q' = q S_l (staged per workgroup, not per step).
    Returns (tables indexed [k, m] as float32, S as float64)."""
    M = lmax + 1
    kk = np.arange(M, dtype=f64)[:, None]
    m = np.arange(M, dtype=f64)[None, :]
    l = kk + m
    K = np.zeros((M, M))
    S = np.ones((M, M))
    mv = np.arange(M, dtype=f64)
    Sc = np.ones(M)
    for k in range(1, M):
        lv = mv + k
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.sqrt((2 * lv + 1) / ((2 * lv - 1) * (lv * lv - mv * mv)))
        s = np.where(lv <= lmax, s, 1.0)
        kl = np.round(-np.log2(Sc * s))
        Sc = Sc * s * 2.0**kl
        K[k], S[k] = kl, Sc
    Kprev = np.vstack([np.zeros((1, M)), K[:-1]])
    valid = (kk >= 1) & (l <= lmax)
    T = {
        "a": np.where(valid, (2 * l - 1) * 2.0**-K, 0),
        "b": np.where(valid, -((l - 1) ** 2 - m * m) * 2.0 ** -(K + Kprev), 0),
        "c": np.where(valid, (l + m) * 2.0**-K, 0),
        "e": np.where(valid, (l - 1 - m) * 2.0**-K, 0),
    }
    T["na"] = -T["a"]
    out = {}
    for key, v in T.items():
        v32 = v.astype(f32)
        assert np.array_equal(v32.astype(f64), v), key  # exactly representable
        out[key] = v32
    S = np.where(l <= lmax, S, 0.0)
    return out, S, K


def alt_scaled_tables(lmax: int, T64, kind: str):
    """Other power-of-two normalisations (tested, not recommended):
    kind "xb": std form with B = -2^-j exact (so B*y0 is exact), A rounded;
               S_l = |b_l| S_{l-2} 2^j_l.
    kind "xe": difference form with E = 2^-j exact (so E*d is exact), C and A rounded;
               S_l = e_l S_{l-1} 2^j_l.
    (k = 1, where b = e = 0, uses the xc step.)  Returns (float32 tables, S)."""
    M = lmax + 1
    a, b, c, e = T64["a"], T64["b"], T64["c"], T64["e"]
    mv = np.arange(M, dtype=f64)
    S = np.ones((M, M))
    lv = mv + 1
    with np.errstate(divide="ignore", invalid="ignore"):
        s1 = np.sqrt((2 * lv + 1) / ((2 * lv - 1) * (lv * lv - mv * mv)))
    S[1] = s1 * 2.0 ** np.round(-np.log2(s1))
    for k in range(2, M):
        if kind == "xb":
            f = np.abs(b[k]) * S[k - 2]
        else:
            f = e[k] * S[k - 1]
        f = np.where(f > 0, f, 1.0)
        S[k] = f * 2.0 ** np.round(-np.log2(f))
    Sp = np.vstack([np.ones((1, M)), S[:-1]])
    Spp = np.vstack([np.ones((2, M)), S[:-2]])
    T = {"a": a * Sp / S, "b": b * Spp / S, "c": c * Sp / S, "e": e * Sp / S}
    T["na"] = -T["a"]
    return {k: v.astype(f32) for k, v in T.items()}, S


def two_step_tables(lmax: int, T64, S, K, dtype=f32):
    """Two-step (l-2 -> l, one chain per parity of l-m) difference forms, xc-scaled.

    Eliminating P_{l-1}:  P_l = (alpha_l x^2 + beta_l) P_{l-2} + gamma_l P_{l-4},
        alpha_l = a_l a_{l-1},  beta_l = b_l + a_l b_{l-1} / a_{l-2},
        gamma_l = -a_l b_{l-1} b_{l-2} / a_{l-2}.
    The coefficients depend on x^2 only, so each chain is a recurrence in w = x^2 with
    characteristic angle 2 theta: half the steps per chain (the random walk of rounding
    errors is sqrt(2) shorter), but near-double roots both at x = 1 (pole) and at x = 0
    (equator).  So two difference forms, each about its own reference solution rho:
      pole    (rho_l = R_l(1)):  y_l = cp y_{l-2} + d,  d = ep d_{l-2} - alpha s y_{l-2},
              s = 1 - x^2 = sin^2 theta,  cp = c_l c_{l-1},  ep = -gamma_l / cp_{l-2};
      equator (rho_l = P_l(0), resp. P'_l(0) for odd l-m):
              y_l = c0 y_{l-2} + d,  d = e0 d_{l-2} + alpha x^2 y_{l-2},
              c0 = beta + gamma / c0_{l-2} = -((l-1)^2-m^2) s_l s_{l-1} (even l-m),
                   -(l^2-m^2) s_l s_{l-1} (odd l-m),   e0 = -gamma_l / c0_{l-2}.
    With y carried as y / S_l (see scaled_tables) cp, alpha, c0 become integers times
    powers of two (exact in float32 up to lmax 2047, products < 2^24); ep, e0 (a factor
    1/(2l-5)) are rounded.  Keys: pc, pe, pa (= -alpha), ec, ee, ea (= +alpha), indexed
    [k, m], k >= 2 (the odd chain's first value, k = 1, is one standard step)."""
    M = lmax + 1
    a, b, c = T64["a"], T64["b"], T64["c"]
    kk = np.arange(M, dtype=f64)[:, None]
    m = np.arange(M, dtype=f64)[None, :]
    l = kk + m
    valid = (kk >= 2) & (l <= lmax)
    al = np.zeros((M, M))
    be = np.zeros((M, M))
    ga = np.zeros((M, M))
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(2, M):
            al[k] = a[k] * a[k - 1]
            t1 = a[k] * b[k - 1] / a[k - 2] if k >= 3 else 0.0  # b_{m+1} = 0
            be[k] = b[k] + t1
            ga[k] = -a[k] * b[k - 1] * b[k - 2] / a[k - 2] if k >= 4 else 0.0
    cp = np.zeros((M, M))
    c0 = np.zeros((M, M))
    ep = np.zeros((M, M))
    e0 = np.zeros((M, M))
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(2, M):
            cp[k] = c[k] * c[k - 1]
            if k >= 4:
                ep[k] = -ga[k] / cp[k - 2]
                c0[k] = be[k] + ga[k] / c0[k - 2]
                e0[k] = -ga[k] / c0[k - 2]
            else:
                c0[k] = be[k]
    R = np.zeros((M, M))
    R[2:] = S[:-2] / np.where(S[2:] == 0, 1, S[2:])
    p2 = 2.0 ** -(K + np.vstack([np.zeros((1, M)), K[:-1]]))
    exact = {
        "pc": (l + m) * (l - 1 + m) * p2,
        "pa": -(2 * l - 1) * (2 * l - 3) * p2,
        "ea": (2 * l - 1) * (2 * l - 3) * p2,
        "ec": np.where(kk % 2 == 0, -((l - 1) ** 2 - m * m), -(l * l - m * m)) * p2,
    }
    approx = {"pc": cp * R, "pa": -al * R, "ea": al * R, "ec": c0 * R}
    out = {}
    for key in exact:
        v = np.where(valid, exact[key], 0.0)
        w = np.where(valid, approx[key], 0.0)
        assert np.allclose(v, w, rtol=1e-9, atol=0), key  # the closed forms are right
        v32 = v.astype(f32)
        if lmax <= 2047:
            assert np.array_equal(v32.astype(f64), v), key
        out[key] = v.astype(dtype)
    out["pe"] = np.where(valid, ep * R, 0.0).astype(dtype)
    out["ee"] = np.where(valid, e0 * R, 0.0).astype(dtype)
    # plain two-step form y_l = (alpha x^2 + beta) y_{l-2} + gamma y_{l-4} (mid latitudes,
    # characteristic angle 2 theta near 90 degrees): beta, gamma rounded
    R4 = np.zeros((M, M))
    R4[4:] = R[4:] * R[2:-2]
    out["sa"] = out["ea"]
    # centred at x^2 = 1/2 (theta = 45 deg): cf = alpha (x^2 - 1/2) + (beta + alpha/2); plain
    # alpha x^2 + beta cancels there (2 cos 2theta ~ 0) and its rounding would be ~2 eps
    out["sb"] = np.where(valid, (be + 0.5 * al) * R, 0.0).astype(dtype)
    out["sg"] = np.where(valid, ga * R4, 0.0).astype(dtype)
    return out


def seeds(lmax: int, sint: np.ndarray):
    """P_mm(theta) = (-1)^m sqrt((2m+1)!!/(2m)!! / (4 pi)) sin^m theta as mant * 2^exp,
    mant in [0.5, 1) (sign included), for m = 0..lmax; shape (lmax+1, nrow)."""
    M = lmax + 1
    mant = np.empty((M, sint.size))
    ex = np.empty((M, sint.size), dtype=np.int64)
    p, e = np.frexp(np.full(sint.size, np.sqrt(1.0 / (4 * np.pi))))
    e = e.astype(np.int64)
    mant[0], ex[0] = p, e
    for m in range(1, M):
        p, de = np.frexp(p * (-np.sqrt((2 * m + 1) / (2 * m))) * sint)
        e = e + de
        mant[m], ex[m] = p, e
    return mant, ex


# --------------------------------------------------------------------------------------
# float32 emulation helpers
# --------------------------------------------------------------------------------------


def fma(a, b, c):
    """fl32(a*b + c): float64 product of float32 inputs is exact, one rounding."""
    r = np.multiply(a, b, dtype=f64)
    r += c
    return r.astype(f32)


# --------------------------------------------------------------------------------------
# recurrence forms.  Each keeps a state dict; step(k, nm) produces y_k for m < nm.
# OPS: float32 operations per recurrence step in a kernel (an FMA counts as one).
# --------------------------------------------------------------------------------------

# The difference form.  With r_l = R_lm(1) (R = P / sin^m, the x = 1 solution of the same
# recurrence) and c_l = r_l / r_{l-1} = a_l + b_l / c_{l-1}, put d_l = y_l - c_l y_{l-1}.
# Writing x = 1 - t:  y_l = a x y_{l-1} + b y_{l-2} = (c_l - b/c_{l-1}) y_{l-1} - a t y_{l-1}
# + b y_{l-2}, so
#     d_l = e_l d_{l-1} - a_l t y_{l-1},   e_l = -b_l / c_{l-1} = a_l - c_l,
#     y_l = c_l y_{l-1} + d_l,             d_m = 0.
# Why it helps: at x = 1 the recurrence has a double root, and in the standard form a
# rounding error in y_l is amplified by ~ min(l, 1/sin theta) (errors grow ~ l^1.5 near the
# pole).  In the difference form a rounding of y perturbs (y_l, y_{l-1}) along the slowly
# varying x = 1 solution, and a rounding of d is ~ eps |d| with |d| ~ theta |y|, so both
# stay O(eps |y|) per step at every latitude below ~60 deg.  t = 1 - x is small and
# accurate near the pole (x itself loses the information in float32).
FORMS = {
    # name: (ops, description)
    "std": (3, "standard, x, a, b single float32: y = fma(a, x*y1, b*y0)"),
    "std_xs": (4, "standard, x = x_hi + x_lo: v = fma(x_hi, y1, x_lo*y1); y = fma(a, v, b*y0)"),
    "dif": (4, "difference form, t = 1-x single: d = fma(-a, t*y1, e*d); y = fma(c, y1, d)"),
    "two_p": (5, "two-step pole difference form (one chain per parity), w = sin^2 split"),
    "two_e": (5, "two-step equator difference form, w = x^2 split"),
    "two_s": (4, "two-step plain form centred at x^2=1/2: cf = fma(al, h_hi, fma(al, h_lo, be')); y = fma(cf, y1, ga*y0), h = x^2 - 1/2"),
    "dif_ts": (5, "difference form, t = t_hi + t_lo: p = fma(t_hi, y1, t_lo*y1); d = fma(-a, p, e*d); y = fma(c, y1, d)"),
}

RESCALE_CHECK = 4  # steps between overflow checks (growth per step < 2^7)


class Form:
    """name = base[+opt...]; opts: xc (exact power-of-two-scaled coefficients, y carried
    as y/S_l, S_l folded into q), g (d-update order rounding a t y instead of e d),
    c64 / yonly (diagnostics: unrounded coefficients / only y rounded)."""

    def __init__(self, name, T32, T64, TXC, rows):
        self.name = name
        self.base, *opts = name.split("+")
        self.opts = set(opts)
        self.r = rows
        if "xc" in self.opts:
            self.T = TXC
        elif "xb" in self.opts or "xe" in self.opts:
            self.T = G["TX" + ("B" if "xb" in self.opts else "E")]
        elif self.opts & {"c64", "yonly"}:
            self.T = T64
        else:
            self.T = T32

    def start(self, mant, ex):
        self.y1 = mant.astype(f32)  # the exact seed rounded once to float32
        self.y0 = np.zeros_like(self.y1)
        self.d = np.zeros(self.y1.shape, f64 if self.opts & {"yonly", "xd"} else f32)
        self.E = ex.copy()
        self.scale = np.ldexp(1.0, self.E)

    def step(self, k, nm):
        r = self.r
        y1, y0, d = self.y1[:nm], self.y0[:nm], self.d[:nm]
        base, opts = self.base, self.opts
        col = lambda key: self.T[key][k, :nm, None]
        if "yonly" in opts:
            # diagnostic floor: everything exact except the one rounding of the stored y
            if base.startswith("std"):
                y = (col("a") * (r["x64"] * y1) + col("b") * y0).astype(f32)
            else:
                d = col("e") * d + col("na") * (r["t64"] * y1)  # d kept in float64
                y = (col("c") * y1 + d).astype(f32)
                self.d[:nm] = d
        elif base == "std":
            u = r["x32"] * y1
            w = (col("b") * y0).astype(f32)
            y = fma(col("a"), u, w)
        elif base == "std_xs":
            v = fma(r["xhi"], y1, r["xlo"] * y1)
            w = (col("b") * y0).astype(f32)
            y = fma(col("a"), v, w)
        elif base in ("dif", "dif_ts"):
            if base == "dif":
                p = r["t32"] * y1
            elif "xp" in opts:  # diagnostic: p = t y exact (float64)
                p = r["t64"] * y1
            else:
                p = fma(r["thi"], y1, r["tlo"] * y1)
            if opts & {"xq", "xd"}:  # diagnostics: e*d unrounded / whole d-update unrounded
                q = col("e").astype(f64) * d
                d = col("na").astype(f64) * p + q
                if "xd" not in opts:
                    d = d.astype(f32)
            elif "g" in opts:
                # round the small term a t y (|a t y| << |d| near the pole), not e d
                g = (col("na") * p).astype(f32)
                d = fma(col("e"), d, g)
            else:
                q = (col("e") * d).astype(f32)
                d = fma(col("na"), p, q)
            y = fma(col("c"), y1, d)
            self.d[:nm] = d
        else:
            raise ValueError(self.name)
        self.y0[:nm] = y1
        self.y1[:nm] = y
        if k % RESCALE_CHECK == 0:
            big = np.abs(y) > f32(2.0**60)
            if big.any():
                s = np.where(big, f32(2.0**-64), f32(1.0))
                self.y1[:nm] *= s
                self.y0[:nm] *= s
                self.d[:nm] *= s
                self.E[:nm] += 64 * big
                self.scale[:nm] = np.ldexp(1.0, self.E[:nm])

    def value32(self, nm):
        # P = y 2^E as the float32 the kernel accumulates (exact unless negligibly small)
        return (self.y1[:nm] * self.scale[:nm]).astype(f32)


class Two(Form):
    """Two-step difference forms (see two_step_tables): base two_p (pole form, w = s =
    sin^2 theta) or two_e (equator form, w = x^2); always xc-scaled.  Per degree l one
    step of one chain: p = fma(w_hi, y, w_lo*y); d = fma(+-alpha, p, e*d); y = fma(c, y, d)
    -- 5 operations, as dif_ts."""

    def __init__(self, name, T32, T64, TXC, rows):
        super().__init__(name, T32, T64, TXC, rows)
        self.T = TXC
        pre = {"two_p": "p", "two_e": "e", "two_s": "s"}[self.base]
        self.kc, self.ke, self.ka = pre + "c", pre + "e", pre + "a"
        self.w = "s" if pre == "p" else "w"

    def start(self, mant, ex):
        super().start(mant, ex)
        self.Y = [self.y1, np.zeros_like(self.y1)]  # chain values, even / odd l-m
        self.D = [self.d, np.zeros_like(self.y1)]

    def step(self, k, nm):
        r, T = self.r, self.T
        if k == 1:  # odd chain seed: one standard step, y_{m+1} = A x y_m
            y0 = self.Y[0][:nm]
            v = fma(r["xhi"], y0, r["xlo"] * y0)
            self.Y[1][:nm] = T["a"][1, :nm, None] * v
            y = self.Y[1][:nm]
        else:
            ch = k & 1
            y1, d = self.Y[ch][:nm], self.D[ch][:nm]
        if k >= 2 and self.base == "two_s":
            # D holds y_{l-4}: cf = alpha w + beta (w = x^2 split), y = cf y_{l-2} + gamma y_{l-4}
            al = T["sa"][k, :nm, None]
            cf = fma(al, r["hhi"], fma(al, r["hlo"], T["sb"][k, :nm, None]))
            y = fma(cf, y1, T["sg"][k, :nm, None] * d)
            self.D[ch][:nm] = y1
            self.Y[ch][:nm] = y
        elif k >= 2:
            p = fma(r[self.w + "hi"], y1, r[self.w + "lo"] * y1)
            q = T[self.ke][k, :nm, None] * d
            d = fma(T[self.ka][k, :nm, None], p, q)
            y = fma(T[self.kc][k, :nm, None], y1, d)
            self.D[ch][:nm] = d
            self.Y[ch][:nm] = y
        self.cur = k & 1
        if k % RESCALE_CHECK == 0:
            big = np.abs(y) > f32(2.0**60)
            if big.any():
                sc = np.where(big, f32(2.0**-64), f32(1.0))
                for arr in self.Y + self.D:
                    arr[:nm] *= sc
                self.E[:nm] += 64 * big
                self.scale[:nm] = np.ldexp(1.0, self.E[:nm])

    def value32(self, nm):
        return (self.Y[self.cur if hasattr(self, "cur") else 0][:nm] * self.scale[:nm]).astype(f32)


class Ref:
    """float64 standard recurrence at the float64 node."""

    def __init__(self, T64, rows):
        self.T, self.x = T64, rows["x64"]

    def start(self, mant, ex):
        self.y1 = mant.copy()
        self.y0 = np.zeros_like(mant)
        self.E = ex.copy()
        self.scale = np.ldexp(1.0, self.E)

    def step(self, k, nm):
        y1, y0 = self.y1[:nm], self.y0[:nm]
        y = self.T["a"][k, :nm, None] * (self.x * y1) + self.T["b"][k, :nm, None] * y0
        self.y0[:nm] = y1
        self.y1[:nm] = y
        if k % RESCALE_CHECK == 0:
            big = np.abs(y) > 2.0**400
            if big.any():
                s = np.where(big, 2.0**-400, 1.0)
                self.y1[:nm] *= s
                self.y0[:nm] *= s
                self.E[:nm] += 400 * big
                self.scale[:nm] = np.ldexp(1.0, self.E[:nm])

    def value(self, nm):
        return self.y1[:nm] * self.scale[:nm]


# --------------------------------------------------------------------------------------
# accumulators F_m = sum_l q_lm P_lm, split by parity of k = l - m
# --------------------------------------------------------------------------------------

ACC_MODES = {
    "f32": "float32 FMA accumulation (kernel): acc = fma(q, P, acc)",
    "f64": "diagnostic: exact (float64) accumulation of the float32 P values",
    "blk": "float32, blocked: partial = fma(q, P, partial); every BLK terms of one parity acc += partial",
}
BLK = 32  # = one 64-degree workgroup span of the kernel, 32 terms per parity


class Acc:
    def __init__(self, mode, shape):
        self.mode = mode
        dt = f64 if mode == "f64" else f32
        self.acc = [[np.zeros(shape, dt) for _ in range(2)] for _ in range(2)]  # [par][re/im]
        if mode == "blk":
            self.part = [[np.zeros(shape, f32) for _ in range(2)] for _ in range(2)]
            self.cnt = [0, 0]

    def add(self, k, nm, P, qre, qim):
        par = k & 1
        if self.mode == "f64":
            P64 = P.astype(f64)
            self.acc[par][0][:nm] += qre * P64
            self.acc[par][1][:nm] += qim * P64
            return
        tgt = self.part[par] if self.mode == "blk" else self.acc[par]
        for i, qq in ((0, qre), (1, qim)):
            tgt[i][:nm] = fma(qq, P, tgt[i][:nm])
        if self.mode == "blk":
            self.cnt[par] += 1
            if self.cnt[par] % G.get("blk", BLK) == 0:
                self.flush(par)

    def flush(self, par):
        for i in range(2):
            self.acc[par][i] += self.part[par][i]  # float32 add
            self.part[par][i][:] = 0

    def result(self):
        """(north, south) complex128: F_N = E + O, F_S = E - O, rounded as the kernel does."""
        if self.mode == "blk":
            self.flush(0)
            self.flush(1)
        (er, ei), (orr, oi) = self.acc
        N = (er + orr).astype(f64) + 1j * (ei + oi).astype(f64)
        S = (er - orr).astype(f64) + 1j * (ei - oi).astype(f64)
        return N, S


# --------------------------------------------------------------------------------------
# one chunk of rows
# --------------------------------------------------------------------------------------

G = {}  # globals shared with worker processes (fork)


def field_stats(dF, nlon):
    """Per row: Parseval energy sum_phi |f|^2 / nlon and max_phi |f| of the field of F."""
    e2 = np.abs(dF[0]) ** 2 + 2 * np.sum(np.abs(dF[1:]) ** 2, axis=0)
    dFr = dF.copy()
    dFr[0] = dFr[0].real
    f = nlon * np.fft.irfft(dFr, n=nlon, axis=0)
    return e2, np.abs(f).max(axis=0)


def run_chunk(rs):
    lmax, variants = G["lmax"], G["variants"]
    T32, T64, TXC, q = G["T32"], G["T64"], G["TXC"], G["q"]
    rows = {key: v[rs][None, :] for key, v in G["rowtab"].items()}
    mant, ex = G["mant"][:, rs], G["ex"][:, rs]
    M, R = lmax + 1, mant.shape[1]

    forms = {}
    for fname, _ in variants:
        if fname not in forms:
            cls = Two if fname.startswith("two") else Form
            forms[fname] = cls(fname, T32, T64, TXC, rows)
    accs = {(fn, am): Acc(am, (M, R)) for fn, am in variants}
    ref = Ref(T64, rows)
    racc = Acc("f64", (M, R))
    ref.start(mant, ex)
    for f in forms.values():
        f.start(mant, ex)

    for k in range(lmax + 1):
        nm = lmax + 1 - k
        qre, qim = q["re32"][k, :nm, None], q["im32"][k, :nm, None]
        # xc forms: the kernel stages q' = fl32(q S_l) (one rounding per term, not propagated)
        qxre, qxim = q["xre32"][k, :nm, None], q["xim32"][k, :nm, None]
        qalt = {o: (q[o + "re"][k, :nm, None], q[o + "im"][k, :nm, None]) for o in ("xb", "xe")}
        qre64, qim64 = q["re64"][k, :nm, None], q["im64"][k, :nm, None]
        if k > 0:
            ref.step(k, nm)
        Pr = ref.value(nm)
        par = k & 1
        racc.acc[par][0][:nm] += qre64 * Pr
        racc.acc[par][1][:nm] += qim64 * Pr
        for fn, f in forms.items():
            if k > 0:
                f.step(k, nm)
            P = f.value32(nm)
            for (vn, am), a in accs.items():
                if vn == fn:
                    if "xc" in f.opts or isinstance(f, Two):
                        a.add(k, nm, P, qxre, qxim)
                    elif f.opts & {"xb", "xe"}:
                        a.add(k, nm, P, *qalt["xb" if "xb" in f.opts else "xe"])
                    else:
                        a.add(k, nm, P, qre, qim)

    nlon = 2 * lmax + 2
    FN, FS = racc.result()
    out = {}
    rN, mN = field_stats(FN, nlon)
    rS, mS = field_stats(FS, nlon)
    out["ref"] = (rN, rS, mN, mS)
    for key, a in accs.items():
        N, S = a.result()
        eN, xN = field_stats(N - FN, nlon)
        eS, xS = field_stats(S - FS, nlon)
        out[key] = (eN, eS, xN, xS)
    return rs, out


def setup(lmax: int, variants, seed: int = 1):
    nlat = lmax + 1
    x, t, sint = gauss_nodes(nlat)
    T64 = tables(lmax)
    T64["na"] = -T64["a"]
    T32 = {k: v.astype(f32) for k, v in T64.items()}
    TXC, S, K = scaled_tables(lmax)
    TXC.update(two_step_tables(lmax, T64, S, K))
    TXB, SB = alt_scaled_tables(lmax, T64, "xb")
    TXE, SE = alt_scaled_tables(lmax, T64, "xe")
    xhi = x.astype(f32)
    thi = t.astype(f32)
    rowtab = {
        "x64": x,
        "x32": xhi,
        "xhi": xhi,
        "xlo": (x - xhi).astype(f32),
        "t32": thi,
        "thi": thi,
        "tlo": (t - thi).astype(f32),
        "t64": t,
    }
    sv = t * (1.0 + x)  # sin^2 theta = 1 - x^2, accurate near the pole
    for key, v in (("s", sv), ("w", x * x), ("h", (x - np.sqrt(0.5)) * (x + np.sqrt(0.5)))):
        hi = v.astype(f32)
        rowtab[key + "hi"], rowtab[key + "lo"] = hi, (v - hi).astype(f32)
    mant, ex = seeds(lmax, sint)
    rng = np.random.default_rng(seed)
    M = lmax + 1
    qre = rng.uniform(-1, 1, (M, M)).astype(f32)
    qim = rng.uniform(-1, 1, (M, M)).astype(f32)
    qim[:, 0] = 0  # real field: q_l0 real
    G.update(
        lmax=lmax,
        variants=variants,
        T32=T32,
        T64=T64,
        rowtab=rowtab,
        mant=mant,
        ex=ex,
        TXC=TXC,
        TXB=TXB,
        TXE=TXE,
        q={"re32": qre, "im32": qim, "re64": qre.astype(f64), "im64": qim.astype(f64),
           "xre32": (qre * S).astype(f32), "xim32": (qim * S).astype(f32),
           "xbre": (qre * SB).astype(f32), "xbim": (qim * SB).astype(f32),
           "xere": (qre * SE).astype(f32), "xeim": (qim * SE).astype(f32)},
        x=x,
    )
    return x


def run(lmax: int, variants, nproc: int = 2, chunk: int = 32, seed: int = 1):
    x = setup(lmax, variants, seed)
    nrow = x.size
    nlat = lmax + 1
    slices = [slice(i, min(i + chunk, nrow)) for i in range(0, nrow, chunk)]
    # big chunks first would not help: all cost the same
    res = {}
    if nproc > 1:
        with mp.get_context("fork").Pool(nproc) as pool:
            parts = pool.map(run_chunk, slices)
    else:
        parts = [run_chunk(s) for s in slices]
    # assemble per-row (all nlat rows: north j, south nlat-1-j)
    keys = parts[0][1].keys()
    for key in keys:
        e2 = np.zeros(nlat)
        mx = np.zeros(nlat)
        for rs, out in parts:
            eN, eS, xN, xS = out[key]
            jn = np.arange(rs.start, rs.stop)
            e2[jn], mx[jn] = eN, xN
            e2[nlat - 1 - jn], mx[nlat - 1 - jn] = eS, xS
        res[key] = (e2, mx)
    return x, res


# --------------------------------------------------------------------------------------
# reporting
# --------------------------------------------------------------------------------------


def summarize(res):
    """rel L2 and max error (of max |f|) of every variant."""
    r2, rm = res["ref"]
    norm2, normx = r2.sum(), rm.max()
    out = {}
    for key, (e2, mx) in res.items():
        if key == "ref":
            continue
        out[key] = (np.sqrt(e2.sum() / norm2), mx.max() / normx)
    return out


def hybrid(res, x, near, far, x0):
    """Per-row selection: form `near` for rows with |x| > x0, `far` elsewhere (rows are
    independent computations, so this is exactly what a switching kernel gives)."""
    nlat = 2 * x.size
    ax = np.concatenate([x, x[::-1]])
    assert ax.size == nlat
    sel = ax > x0
    e2 = np.where(sel, res[near][0], res[far][0])
    mx = np.where(sel, res[near][1], res[far][1])
    return e2, mx


def rel(res, e2, mx):
    r2, rm = res["ref"]
    return np.sqrt(e2.sum() / r2.sum()), mx.max() / rm.max()


def check(lmax=64):
    """Derivation checks: (1) quadrature orthonormality of the float64 reference
    recurrence, (2) the float64 difference form reproduces the standard recurrence,
    (3) c_l closed form equals the x=1 ratio recurrence c_l = a_l + b_l / c_{l-1}."""
    nlat = lmax + 1
    xg, wg = np.polynomial.legendre.leggauss(nlat)
    t = 1 - xg
    sint = np.sqrt(t * (1 + xg))
    T = tables(lmax)
    worst_orth = worst_dif = worst_c = 0.0
    for m in range(0, lmax + 1):
        p = np.sqrt(1 / (4 * np.pi)) * np.prod([-np.sqrt((2 * j + 1) / (2 * j)) for j in range(1, m + 1)]) * sint**m
        P = [p]
        y0, y1 = np.zeros_like(p), p
        d = np.zeros_like(p)
        yd = p.copy()
        cc = None
        for k in range(1, lmax + 1 - m):
            a, b, c, e = T["a"][k, m], T["b"][k, m], T["c"][k, m], T["e"][k, m]
            y0, y1 = y1, a * xg * y1 + b * y0
            P.append(y1)
            d = e * d - a * t * yd
            yd = c * yd + d
            worst_dif = max(worst_dif, np.max(np.abs(yd - y1)) / max(np.max(np.abs(y1)), 1e-300))
            cc = a if k == 1 else a + b / cc
            worst_c = max(worst_c, abs(cc / c - 1))
        P = np.array(P)
        G_ = (P * wg) @ P.T * 2 * np.pi
        worst_orth = max(worst_orth, np.max(np.abs(G_ - np.eye(len(P)))))
    # (4) the xc-scaled forms (float64 arithmetic, exact float32 coefficients) times S_l
    #     reproduce P_lm; (5) likewise the two-step forms
    TX, S, K = scaled_tables(lmax)
    TX = {k: v.astype(f64) for k, v in TX.items()}  # exact float32 values
    TX.update(two_step_tables(lmax, T, S, K, dtype=f64))  # unrounded (ep, e0, beta, gamma are not exact)
    worst_xc = worst_two = 0.0
    for m in range(0, lmax + 1):
        p = np.sqrt(1 / (4 * np.pi)) * np.prod([-np.sqrt((2 * j + 1) / (2 * j)) for j in range(1, m + 1)]) * sint**m
        ref = [p]
        y0, y1 = np.zeros_like(p), p
        ys0, ys1 = np.zeros_like(p), p.copy()  # std, scaled
        yd, d = p.copy(), np.zeros_like(p)  # dif, scaled
        Y = {"p": [p.copy(), None], "e": [p.copy(), None], "s": [p.copy(), None]}
        Dd = {"p": [np.zeros_like(p), np.zeros_like(p)], "e": [np.zeros_like(p), np.zeros_like(p)],
              "s": [np.zeros_like(p), np.zeros_like(p)]}
        w = {"p": t * (1 + xg), "e": xg * xg, "s": xg * xg - 0.5}
        for k in range(1, lmax + 1 - m):
            y0, y1 = y1, T["a"][k, m] * xg * y1 + T["b"][k, m] * y0
            ref.append(y1)
            ys0, ys1 = ys1, TX["a"][k, m] * xg * ys1 + TX["b"][k, m] * ys0
            d = TX["e"][k, m] * d + TX["na"][k, m] * t * yd
            yd = TX["c"][k, m] * yd + d
            sc = max(np.max(np.abs(y1)), 1e-300)
            worst_xc = max(worst_xc, np.max(np.abs(ys1 * S[k, m] - y1)) / sc, np.max(np.abs(yd * S[k, m] - y1)) / sc)
            for f in "pes":
                if k == 1:
                    Y[f][1] = TX["a"][1, m] * xg * p
                    continue
                ch = k & 1
                if f == "s":
                    yn = (TX["sa"][k, m] * w[f] + TX["sb"][k, m]) * Y[f][ch] + TX["sg"][k, m] * Dd[f][ch]
                    Dd[f][ch] = Y[f][ch]
                else:
                    Dd[f][ch] = TX[f + "e"][k, m] * Dd[f][ch] + TX[f + "a"][k, m] * w[f] * Y[f][ch]
                    yn = TX[f + "c"][k, m] * Y[f][ch] + Dd[f][ch]
                Y[f][ch] = yn
                worst_two = max(worst_two, np.max(np.abs(yn * S[k, m] - y1)) / sc)
    print(f"check lmax={lmax}: max |2pi sum_j w_j P_lm P_l'm - delta| = {worst_orth:.1e}")
    print(f"  xc-scaled standard and difference forms x S_l vs standard: max rel diff {worst_xc:.1e}")
    print(f"  two-step forms (pole, equator, centred plain) x S_l vs standard: max rel diff {worst_two:.1e}")
    print(f"  float64 difference form vs standard: max rel diff {worst_dif:.1e}")
    print(f"  c_l closed form vs ratio recurrence at x=1: max rel diff {worst_c:.1e}")


RECOMMENDED = ("dif_ts+xc/blk", "std_xs+xc/blk", 55.0)  # near form, far form, theta0 (deg)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lmax", type=int, nargs="+", default=[1023])
    ap.add_argument("--forms", nargs="+",
                    default=["std", "std_xs", "std_xs+xc", "dif", "dif_ts", "dif_ts+xc", "std_xs+yonly", "dif_ts+yonly"],
                    help=", ".join(FORMS) + "; options +xc (exact scaled coefficients), +g (d-update order); "
                    "diagnostics +c64 (coefficients unrounded), +yonly (only y rounded), +xp/+xq/+xd (one op exact)")
    ap.add_argument("--acc", nargs="+", default=["f32"], help="accumulation modes for all forms: " + ", ".join(ACC_MODES))
    ap.add_argument("--blk-forms", nargs="*", default=["dif_ts+xc", "std_xs+xc"], help="forms also run with blocked accumulation")
    ap.add_argument("--f64-forms", nargs="*", default=["dif_ts+xc", "std_xs+xc"], help="forms also run with exact accumulation")
    ap.add_argument("--blk", type=int, default=BLK, help="terms per parity summed into a partial before it is added to the total")
    ap.add_argument("--nproc", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--chunk", type=int, default=32)
    ap.add_argument("--rows", type=int, default=12, help="pole rows printed in the profile")
    ap.add_argument("--hybrid", nargs="*",
                    default=["dif_ts+xc/blk:std_xs+xc/blk", "dif_ts+xc/f32:std_xs+xc/f32", "dif_ts/f32:std_xs/f32",
                             "two_p/f32:two_e/f32", "dif_ts+yonly/f32:std_xs+yonly/f32"],
                    help="near/acc:far/acc pairs combined by latitude (near form where theta < theta0)")
    ap.add_argument("--theta0", type=float, nargs="+", default=[40, 45, 50, 55, 60, 65])
    ap.add_argument("--seed", type=int, default=1, help="seed of the random coefficients")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--save", default=None, help="save per-row results to PREFIX_<lmax>.npz")
    args = ap.parse_args()
    if args.check:
        check()
        return
    variants = [(fn, am) for fn in args.forms for am in args.acc]
    variants += [(fn, "blk") for fn in args.blk_forms if fn in args.forms and (fn, "blk") not in variants]
    variants += [(fn, "f64") for fn in args.f64_forms if fn in args.forms and (fn, "f64") not in variants]
    G["blk"] = args.blk
    for lmax in args.lmax:
        t0 = time.time()
        x, res = run(lmax, variants, nproc=args.nproc, chunk=args.chunk, seed=args.seed)
        print(f"\n=== lmax {lmax}  (nlat {lmax + 1}, Gauss; {time.time() - t0:.0f} s) ===")
        print(f"{'scheme / accumulation':40s} {'ops':>3s}  {'rel L2':>8s}  {'max/maxabs':>10s}")
        for (fn, am), (l2, mx) in summarize(res).items():
            print(f"{fn + ' / ' + am:40s} {FORMS[fn.partition('+')[0]][0]:3d}  {l2:8.2e}  {mx:10.2e}")
        # hybrids: form `near` for rows with theta < theta0, `far` elsewhere (rows are
        # independent, so the per-row results combine exactly as a switching kernel would)
        print(f"\nhybrids (near form for theta < theta0), rel L2 (max/maxabs) per theta0 in deg:")
        for pair in args.hybrid:
            near, far = (tuple(h.split("/")) for h in pair.split(":"))
            if near not in res or far not in res:
                continue
            cells = []
            for deg in args.theta0:
                l2, m_ = rel(res, *hybrid(res, x, near, far, np.cos(np.radians(deg))))
                cells.append(f"{deg:g}: {l2:.2e} ({m_:.1e})")
            print(f"  {pair:36s} " + "  ".join(cells))
        near, far, deg = RECOMMENDED
        near, far = tuple(near.split("/")), tuple(far.split("/"))
        th = np.arccos(x)
        nrow = x.size
        r2, rm = res["ref"]
        rms = np.sqrt(r2.mean())
        if near in res and far in res:
            e2h, mxh = hybrid(res, x, near, far, np.cos(np.radians(deg)))
            l2, m_ = rel(res, e2h, mxh)
            print(f"\nRECOMMENDED {RECOMMENDED[0]} for theta < {deg:g} deg, {RECOMMENDED[1]} elsewhere: "
                  f"rel L2 {l2:.2e}, max {m_:.2e}")
            # per-row profile (north and south rows averaged): rms error of the row / rms of the
            # field, max error of the row / max |f|; the current kernel (std_xs) for comparison
            cmp_ = ("std_xs", "f32")
            idx = list(range(min(args.rows, nrow)))
            idx += [j for j in (16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768) if args.rows <= j < nrow] + [nrow - 1]
            print("\nper-row profile, north rows from the pole (south rows: the same numbers mirrored)")
            print(f"{'row':>4s} {'theta':>7s}  {'form':>9s} {'rms err':>9s} {'max err':>9s}   {'std_xs rms':>10s} {'std_xs max':>10s}")
            for j in idx:
                js = 2 * nrow - 1 - j
                form = "dif_ts+xc" if th[j] < np.radians(deg) else "std_xs+xc"
                a = np.sqrt(0.5 * (e2h[j] + e2h[js])) / rms
                b = max(mxh[j], mxh[js]) / rm.max()
                line = f"{j:4d} {np.degrees(th[j]):7.3f}  {form:>9s} {a:9.2e} {b:9.2e}"
                if cmp_ in res:
                    c = np.sqrt(0.5 * (res[cmp_][0][j] + res[cmp_][0][js])) / rms
                    d = max(res[cmp_][1][j], res[cmp_][1][js]) / rm.max()
                    line += f"   {c:10.2e} {d:10.2e}"
                print(line)
        if args.save:
            np.savez(f"{args.save}_{lmax}.npz", x=x, **{"_".join(k) if isinstance(k, tuple) else k: np.array(v) for k, v in res.items()})
        sys.stdout.flush()


if __name__ == "__main__":
    main()
