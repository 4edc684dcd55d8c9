"""Exact analysis on equiangular and Fejer grids: the theta step that makes it exact up to
``lmax = nlat - 2`` (equiangular) and ``nlat - 1`` (Fejer), where their quadratures are exact
only up to ``(nlat - 1) // 2``.

Why quadrature fails, and what replaces it
------------------------------------------
With ``N = nlat - 1`` rings ``theta_i = pi i / N`` (both poles), a field band-limited to
``lmax`` has, for each order m, Fourier rows ``F_m(theta) = sum_l q_lm P_lm(cos theta)``: a
trigonometric polynomial of degree ``<= lmax``, even in theta (a cosine series) for even m
and odd (a sine series) for odd m, since ``P_lm(cos theta) = sin^m theta p(cos theta)``.
Analysis needs ``int_0^pi F_m P_lm sin theta dtheta``, an integrand of degree ``2 lmax + 1``:
no rule with weights on ``nlat`` rings integrates that for ``lmax > (nlat - 1) // 2``.

But ``F_m`` itself is known exactly from its samples while ``lmax < N``: extended to the
circle (``F(2 pi - theta) = (-1)^m F(theta)``) it is a trigonometric polynomial of degree
``< N`` sampled at ``2 N`` points. So the analysis integrates its trigonometric interpolant
``F~`` exactly (a DCT-I / DST-I gives its coefficients, the integrals of ``cos j theta cos k
theta sin theta`` are closed forms) and puts the result back on the rings as a row ``G`` of
degree ``<= lmax`` that the trapezoid rule ``v_i = pi / N`` (half at the poles) integrates
against every ``P_lm`` exactly:

    sum_i v_i G_i P_lm(theta_i) = int_0^pi F~ P_lm sin theta dtheta.

``G = K_p F`` with one real ``nlat x nlat`` matrix per parity p of m (:func:`operator`). The
pipeline applies it on the device between the Fourier and the Legendre analysis (``theta``
table, ``mlir/pipeline.mlir``; folded by the equatorial symmetry, ``theta_blocks``, or
diagonal plus low rank, below), with the
Clenshaw-Curtis weights ``w_i`` of ``wtab`` left in place: the table holds ``diag(v / w) K_p``.
For band-limited fields the result is exact; for any field at ``lmax = nlat - 2`` it equals
ducc0's ``analysis_2d(geometry="CC")`` (which resamples with FFTs to reach the same
integral), both to rounding.

Fejer grids (offset rings)
--------------------------
With ``N = nlat`` rings ``theta_i = pi (i + 1/2) / N`` (no poles) the extended row is sampled
at ``2 N`` half-offset points ``theta_i``, ``i < 2 N``. There ``cos(N theta_i) = 0`` and
``sin(N theta_i) = (-1)^i``, so the interpolant lives in ``cos k theta``, ``k = 0..N-1``
(even m) or ``sin k theta``, ``k = 1..N`` (odd m): the DCT-II / DST-II pair,

    a_k = 2/N sum_i F_i cos(k theta_i),   F~ = a_0 / 2 + sum_{k=1}^{N-1} a_k cos(k theta),
    b_k = 2/N sum_i F_i sin(k theta_i),   F~ = sum_{k=1}^{N-1} b_k sin(k theta) + b_N / 2 sin(N theta)

(``sum_i cos^2(k theta_i) = N / 2`` for ``0 < k < N``, ``sum_i sin^2(N theta_i) = N``). Rows of
degree ``<= N - 1`` are reproduced, so the step is exact up to ``lmax = nlat - 1``; the
moments and the projection onto ``cos j theta`` / ``sin j theta``, ``j <= lmax``, are as above,
and the midpoint rule ``v_i = pi / N`` (exact for trigonometric degree ``< 2 N``, products of
degree ``<= 2 lmax <= 2 N - 2``) replaces the trapezoid rule. At ``lmax = nlat - 1`` the result
equals ducc0's ``analysis_2d(geometry="F1")`` for any field, to rounding.

Diagonal plus low rank
----------------------
``K_p - diag(sin theta_i)`` has a low numerical rank: about 25-30 singular values above
``1e-9 ||K_p||`` at nlat 257 to 1441 when ``lmax`` is the step's limit, ``nlat - 2 - lmax``
more below it (``G ~ sin theta F`` away from the truncation's and the poles' corrections).
Float32 plans apply ``K_p = diag(sin theta) + U_p V_p^T`` (:func:`theta_lowrank`), ``4 r
nlat`` multiply-adds per order instead of the folded step's ``nlat^2 / 2`` (``theta_rank`` decides,
``codegen/theta.py``); its error, ``1e-9`` of F, is far below float32's rounding. Float64
plans keep the folded step: below ``1e-12`` the rank grows to hundreds (the host's
construction of ``K_p`` carries ~1e-13 of rounding).

Where quadrature is already exact (``lmax <= (nlat - 1) // 2``) the plain quadrature stays
(no theta step). Past ``Grid.step_lmax`` (equiangular: the sine rows lose a degree, ``sin N
theta`` vanishes on every ring; Fejer: the cosine rows, ``cos N theta``) analysis is
approximate, as ``ireesht.ApproximationWarning`` says, and ``ireesht.analys_lsq`` solves the
least-squares problem instead.
"""

from __future__ import annotations

import functools

import numpy as np

from .grid import Grid, make_grid, min_nlat

__all__ = ["exact_lmax", "exact_nlat", "needs_theta_step", "operator", "theta_blocks",
           "theta_lowrank", "theta_rank", "theta_table"]

# the low-rank step's truncation, relative to ||K_p|| (= 1): far below float32's rounding
LOWRANK_TOL = 1e-9


def exact_lmax(kind: str, nlat: int) -> int:
    """Largest lmax for which ireesht's analysis on this grid is exact: the quadrature's
    (``Grid.exact_lmax``), or the theta step's past it (``Grid.step_lmax``): Gauss ``nlat -
    1``; equiangular ``nlat - 2``; Fejer ``nlat - 1`` (``(nlat - 1) // 2`` for tiny grids
    where it is more)."""
    g = make_grid(kind, nlat, 1)
    return max(g.exact_lmax, -1 if g.step_lmax is None else g.step_lmax)


def exact_nlat(kind: str, lmax: int, step: bool = True) -> int:
    """The fewest rings whose analysis is exact for ``lmax``: ``exact_lmax``, or with ``step``
    False the quadrature's alone (``Grid.exact_lmax``)."""
    nlat = max(lmax + 1, min_nlat(kind))  # an order needs as many rings as coefficients
    while (exact_lmax(kind, nlat) if step else make_grid(kind, nlat, 1).exact_lmax) < lmax:
        nlat += 1
    return nlat


def needs_theta_step(grid: Grid, lmax: int) -> bool:
    """Whether the analysis of ``lmax`` on ``grid`` takes the theta step: a grid that has one
    (equiangular, Fejer), past the quadrature's exact limit and within ``grid.step_lmax``."""
    return grid.step_lmax is not None and grid.exact_lmax < lmax <= grid.step_lmax


def _sin_moments(n: np.ndarray) -> np.ndarray:
    """``int_0^pi cos(n theta) sin(theta) dtheta``: ``2 / (1 - n^2)`` for even n, else 0."""
    n = np.abs(n)
    even = n % 2 == 0
    return np.where(even, 2.0 / np.where(even, 1.0 - n.astype(np.float64) ** 2, 1.0), 0.0)


@functools.lru_cache(maxsize=8)
def operator(kind: str, nlat: int, lmax: int, parity: int) -> np.ndarray:
    """``K_p``: ``(nlat, nlat) float64``, ring values F of one order of parity p -> G with
    ``sum_i v_i G_i P(theta_i) = int_0^pi F~ P sin theta dtheta`` for every ``P`` of degree
    ``<= lmax`` and parity p (module doc; ``v = step_weights``) on the grid ``kind``
    ("equiangular" or "fejer"). Needs ``lmax <= Grid.step_lmax`` (``nlat - 2``, ``nlat - 1``).

    Built from explicit matrices, O(nlat^3) flops on the host (0.2 s at nlat 721)."""
    g = make_grid(kind, nlat, 1)
    if g.step_lmax is None or not 0 <= lmax <= g.step_lmax:
        raise ValueError(f"lmax={lmax}: the theta step needs a grid with one (equiangular, "
                         f"fejer) and 0 <= lmax <= {g.step_lmax} on {kind} with nlat={nlat}")
    theta = g.theta
    j = np.arange(lmax + 1)
    if kind == "equiangular":
        big_n = nlat - 1
        k = np.arange(nlat)
        if parity == 0:
            # F~ = sum_k'' a_k cos(k theta), a_k = (2/N) sum_i'' F_i cos(k theta_i) (DCT-I;
            # '' halves the first and last terms)
            half = np.ones(nlat)
            half[0] = half[-1] = 0.5
            coeffs = (2.0 / big_n) * half[:, None] * np.cos(np.outer(k, theta)) * half[None, :]
        else:
            # F~ = sum_{k=1}^{N-1} b_k sin(k theta), b_k = (2/N) sum_i F_i sin(k theta_i) (DST-I)
            coeffs = np.zeros((nlat, nlat))
            coeffs[1:big_n] = (2.0 / big_n) * np.sin(np.outer(k[1:big_n], theta))
    else:  # fejer, module doc: DCT-II (k = 0..N-1) / DST-II (k = 1..N), a_0 and b_N halved
        k = np.arange(nlat + parity)
        trig = np.cos if parity == 0 else np.sin
        coeffs = (2.0 / nlat) * trig(np.outer(k, theta))
        coeffs[0 if parity == 0 else nlat] *= 0.5
    if parity == 0:
        # int cos(j t) cos(k t) sin t dt over [0, pi]
        moments = 0.5 * (_sin_moments(j[:, None] + k) + _sin_moments(j[:, None] - k))
        norms = np.full(lmax + 1, np.pi / 2)
        norms[0] = np.pi                          # int_0^pi cos^2(j t) dt
    else:
        moments = 0.5 * (_sin_moments(j[:, None] - k) - _sin_moments(j[:, None] + k))
        moments[0] = 0.0
        norms = np.full(lmax + 1, np.pi / 2)
    basis = band_basis(g, lmax, parity, full=True)
    # G = sum_j g_j basis_j with g_j int basis_j^2 = int F~ basis_j sin t: the rule v sums
    # G P exactly (degree <= 2 lmax < 2 N) to sum_j g_j (P, basis_j) = int F~ P sin t
    return basis @ ((moments @ coeffs) / norms[:, None])


def step_weights(grid: Grid) -> np.ndarray:
    """The rule ``v`` in theta that integrates products of rows of degree ``<= lmax``
    exactly: trapezoid ``pi / N``, half at the poles (equiangular, ``N = nlat - 1``), midpoint
    ``pi / nlat`` (Fejer): ``(nlat,) float64``."""
    nlat = grid.nlat
    if grid.kind == "fejer":
        return np.full(nlat, np.pi / nlat)
    v = np.full(nlat, np.pi / (nlat - 1))
    v[0] = v[-1] = 0.5 * v[0]
    return v


def _row_scale(grid: Grid) -> np.ndarray:
    """``v / w``: rows the Legendre analysis weighs by ``w`` (``wtab``) weighed by ``v``."""
    return step_weights(grid) / grid.weights


def theta_table(grid: Grid, lmax: int) -> np.ndarray:
    """The theta step's matrices ``T_p``: ``(2, nlat, nlat) float64``, ``[p] = diag(v / w) K_p``,
    so that the Legendre analysis with the grid's weights ``w`` (``wtab``) applies ``v``. The
    device table holds them folded (``theta_blocks``) or in low rank (``theta_lowrank``); the
    adjoints use them whole."""
    scale = _row_scale(grid)
    return np.stack([scale[:, None] * operator(grid.kind, grid.nlat, lmax, p) for p in (0, 1)])


def theta_blocks(grid: Grid, lmax: int) -> np.ndarray:
    """The device table ``theta``: ``(4, nh, nh) float64``, ``nh = (nlat + 1) // 2``, the theta
    step folded by the equatorial symmetry. ``T_p = theta_table(grid, lmax)[p]`` commutes with
    the reflection ``J: i -> nlat - 1 - i`` (``K_p`` does: theta -> pi - theta maps the
    interpolant of ``J F`` to that of F reflected; ``v`` and ``w`` are symmetric), so with the
    ring sums ``S_k = F_k + F_{N-k}`` and differences ``A_k = F_k - F_{N-k}`` (k < nh; the
    equator's A is 0 for odd nlat) ``[2 p] = Ks_p / 2`` and ``[2 p + 1] = Ka_p / 2``,
    ``Ks[i, k] = T[i, k] + T[i, N-k]`` (``T[i, k]`` at the equator), ``Ka[i, k] = T[i, k] -
    T[i, N-k]`` (0 at the equator) give ``Y_s = [2 p] S``, ``Y_a = [2 p + 1] A`` and
    ``G_i = Y_s,i + Y_a,i``, ``G_{N-i} = Y_s,i - Y_a,i``: two ``nh x nh`` products per parity
    instead of one ``nlat x nlat``, half the multiply-adds (``codegen/theta.py``)."""
    nlat = grid.nlat
    nh = (nlat + 1) // 2
    out = np.zeros((4, nh, nh))
    for p, t in enumerate(theta_table(grid, lmax)):
        # T commutes with J to rounding (~1e-13 relative at nlat 721): average the two halves
        t = 0.5 * (t + t[::-1, ::-1])
        top, mirror = t[:nh, :nh], t[:nh, ::-1][:, :nh]       # T[i, k], T[i, N - k]
        out[2 * p] = 0.5 * (top + mirror)
        out[2 * p + 1] = 0.5 * (top - mirror)
        if nlat % 2:
            out[2 * p][:, nh - 1] = 0.5 * top[:, nh - 1]      # the equator: S = 2 F, A = 0
            out[2 * p + 1][:, nh - 1] = 0.0
            out[2 * p + 1][nh - 1, :] = 0.0
    return out


@functools.lru_cache(maxsize=8)
def _lowrank(kind: str, nlat: int, lmax: int) -> tuple[np.ndarray, np.ndarray, int]:
    """``(U, V, r)``: ``U (2, nlat, r)``, ``V (2, r, nlat)`` with ``K_p - diag(sin theta) =
    U_p V_p`` to ``LOWRANK_TOL`` (SVD; the parity of fewer terms padded with zeros)."""
    g = make_grid(kind, nlat, 1)
    parts = []
    for p in (0, 1):
        k = operator(kind, nlat, lmax, p)
        u, s, vt = np.linalg.svd(k - np.diag(g.sint), full_matrices=False)
        parts.append((u, s, vt, int((s > LOWRANK_TOL * s[0] if s[0] else s > 0).sum())))
    r = max(1, *(n for *_, n in parts))
    big_u, big_v = np.zeros((2, nlat, r)), np.zeros((2, r, nlat))
    for p, (u, s, vt, n) in enumerate(parts):
        big_u[p, :, :n] = u[:, :n] * s[:n]
        big_v[p, :n] = vt[:n]
    return big_u, big_v, r


def theta_rank(grid: Grid, lmax: int, dtype: str) -> int:
    """The rank r of the low-rank theta step where a plan takes it, else 0 (the folded step,
    ``theta_blocks``): float32 plans whose ``4 r nlat`` multiply-adds per order are at most
    the folded step's ``nlat^2 / 2``. Needs ``needs_theta_step``."""
    if dtype != "float32":
        return 0
    r = _lowrank(grid.kind, grid.nlat, lmax)[2]
    return r if 8 * r <= grid.nlat else 0


def theta_lowrank(grid: Grid, lmax: int) -> dict[str, np.ndarray]:
    """The device tables of the low-rank step (float64): ``theta_v (2 r, nlat)``, rows
    ``[V_0; V_1]``; ``theta_u (nlat, 2 r)``, columns ``[s U_0, s U_1]``; ``theta_d
    (nlat,)``, ``s sin theta`` (both parities); ``s = v / w`` as in ``theta_table``. Then
    ``theta_table(grid, lmax)[p] = diag(theta_d) + theta_u[:, p r:(p+1) r] theta_v[p r:(p+1) r]``
    to ``LOWRANK_TOL``."""
    u, v, r = _lowrank(grid.kind, grid.nlat, lmax)
    scale = _row_scale(grid)
    return {"theta_v": np.concatenate([v[0], v[1]]),
            "theta_u": scale[:, None] * np.concatenate([u[0], u[1]], axis=1),
            "theta_d": scale * grid.sint}


def band_basis(grid: Grid, lmax: int, parity: int, full: bool = False) -> np.ndarray:
    """``cos(j theta_i)`` (parity 0, j = 0..lmax) or ``sin(j theta_i)`` (parity 1, j =
    1..lmax; ``full``: from j = 0, a zero column) on the grid's rings: ``(nlat, lmax + 1 -
    parity) float64``, the rows of degree <= lmax. Pole rings (equiangular) get ``sin(j pi)
    = 0`` exactly (``np.sin`` leaves ~j 1e-16)."""
    j = np.arange(0 if full else parity, lmax + 1)
    if parity == 0:
        return np.cos(np.outer(grid.theta, j))
    basis = np.sin(np.outer(grid.theta, j))
    basis[grid.sint == 0] = 0.0
    return basis


def quadrature_inverse(grid: Grid, lmax: int) -> np.ndarray:
    """``Z``: ``(2, nlat, nlat) float64`` with ``A(Z_p h) = A_quad(h)``: the quadrature
    analysis (weights ``w``, no theta step) of rows h through the analysis with the theta
    step, ``sum_i w_i P_i (theta_p Z_p h)_i = sum_i w_i P_i h_i`` for every P of degree <=
    lmax and parity p. The transpose of synthesis needs it (``ireesht.adjoint``):
    ``Z_p = X (X^T W theta_p X)^{-1} X^T W``, X the band's rows (``band_basis``), whose
    middle factor is the Gram matrix of the band under ``sin theta dtheta`` (invertible)."""
    table = theta_table(grid, lmax)
    w = grid.weights
    out = []
    for p in (0, 1):
        x = band_basis(grid, lmax, p)
        xtw = x.T * w[None, :]
        out.append(x @ np.linalg.solve(xtw @ table[p] @ x, xtw))
    return np.stack(out)
