"""Latitude grids and their quadrature rules.

Three grids, chosen once through a small registry (``make_grid(kind, ...)``) and
then described by a :class:`Grid` value that every plan asks:

``"gauss"``
    Gauss-Legendre nodes in ``x = cos(theta)``; ``nlat`` nodes integrate
    polynomials in ``x`` of degree ``<= 2 nlat - 1`` exactly.
``"equiangular"``
    ``theta_i = pi i / (nlat - 1)``, both poles included, Clenshaw-Curtis weights,
    exact for degree ``<= nlat`` (odd ``nlat``) or ``<= nlat - 1`` (even).
``"fejer"``
    ``theta_i = pi (i + 1/2) / nlat``, no poles (ducc0's ``"F1"``), Fejer's first
    rule, exact for degree ``<= nlat`` (odd ``nlat``) or ``<= nlat - 1`` (even).

Analysis by quadrature is exact up to :attr:`Grid.exact_lmax`: ``nlat - 1``
(Gauss) and ``(nlat - 1) // 2`` (equiangular and Fejer, so 721 rings reach lmax
360). On equiangular and Fejer grids ``numerics.resample`` (the theta step)
makes it exact further, up to :attr:`Grid.step_lmax` (``nlat - 2`` and
``nlat - 1``).

Conventions: colatitude ``theta`` increasing (north pole side first), so
``x = cos(theta)`` decreasing; weights integrate over ``x`` in ``[-1, 1]`` (they
sum to 2); ``phi_j = 2 pi j / nphi``. All grids are symmetric about the equator
and the arrays are built so the symmetry is exact in floating point:
``cost[::-1] == -cost``, ``sint[::-1] == sint``, ``weights[::-1] == weights``.

Why ``theta``, ``cost`` and ``sint`` are all stored: near the poles ``x`` is
within rounding of +-1, so ``sin(theta)`` cannot be recovered from ``x``
(``sqrt(1 - x*x)`` keeps only ~8 of 16 digits at theta = 1e-4), and the float32 kernels seed
their recurrence with ``sin(theta)**m``. Nodes are therefore computed in
``theta`` and ``cost``/``sint`` from it, each to full relative precision.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from ireesht.numerics.fourier import fft_size
from ireesht.validate import check_choice, check_int

__all__ = [
    "Quadrature",
    "Grid",
    "GRID_KINDS",
    "gauss_legendre",
    "gauss_legendre_rule",
    "clenshaw_curtis",
    "clenshaw_curtis_rule",
    "fejer",
    "fejer_rule",
    "make_grid",
    "min_nlat",
    "default_sizes",
]


class Quadrature(NamedTuple):
    """A latitude quadrature rule; all arrays ``(nlat,) float64``, theta increasing."""

    theta: np.ndarray
    cost: np.ndarray
    sint: np.ndarray
    weights: np.ndarray


# ----------------------------------------------------------------------------
# Gauss-Legendre
# ----------------------------------------------------------------------------

# First zeros of the Bessel function J0 (the asymptotic McMahon series below is
# not accurate enough for the first few).
_J0_ZEROS = np.array([
    2.4048255576957727686, 5.5200781102863106496, 8.6537279129110122170,
    11.791534439014281614, 14.930917708487785948, 18.071063967910922543,
    21.211636629879258959, 24.352471530749302737, 27.493479132040254796,
    30.634606468431975118,
])


def _bessel_j0_zeros(k: np.ndarray) -> np.ndarray:
    """k-th positive zero of J0 (k >= 1): table, then McMahon's expansion."""
    b = (k - 0.25) * np.pi
    t = 1.0 / (8.0 * b)
    t2 = t * t
    j = b + t * (1.0 + t2 * (-124.0 / 3.0 + t2 * (120928.0 / 15.0
        + t2 * (-401743168.0 / 105.0 + t2 * (1071187749376.0 / 315.0)))))
    small = k <= _J0_ZEROS.size
    j[small] = _J0_ZEROS[k[small].astype(np.int64) - 1]
    return j


def _gauss_initial_theta(n: int, k: np.ndarray) -> np.ndarray:
    """Asymptotic guesses for the k-th node theta_k (k = 1 at the north pole).

    Olver's Bessel-function approximation near the pole (its error there is
    O(n^-5) and it stays ~1e-14 up to theta = pi/4 for n >= 1000), Tricomi's
    interior approximation nearer the equator, where its 1/sin^2 term is harmless.
    Newton polishes both; the guesses only decide how many sweeps are needed
    (one for n >~ 1000).
    """
    rho = n + 0.5
    phi = (4.0 * k - 1.0) * np.pi / (4.0 * n + 2.0)
    psi = _bessel_j0_zeros(k) / rho
    olver = psi + (psi / np.tan(psi) - 1.0) / (8.0 * psi * rho * rho)
    x_tricomi = (1.0 - (n - 1.0) / (8.0 * n**3)
                 - (39.0 - 28.0 / np.sin(phi) ** 2) / (384.0 * float(n) ** 4)) * np.cos(phi)
    return np.where(phi < np.pi / 4, olver, np.arccos(x_tricomi))


def _legendre_pn_theta(n: int, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(P_n, P_{n-1})`` at ``x = cos(theta)`` for ``0 <= theta <= pi/2``, n >= 1.

    Below ``_POLAR_THETA`` the three-term recurrence runs on the differences
    ``D_k = P_k - P_{k-1}`` with ``u = 1 - x = 2 sin^2(theta/2)`` (computed
    without cancellation):

        D_{k+1} = (k D_k - (2k+1) u P_k) / (k+1),   P_{k+1} = P_k + D_{k+1}.

    Why: the plain recurrence only sees ``x``, whose rounding near the pole is an
    error of ~1e-16/theta in theta; Newton would then place polar nodes with a
    relative error of ~n^2 * 1e-16, and sin(theta) and the weights would inherit
    it. Away from the pole the plain recurrence is used: there it rounds less
    (at n = 4096 the equatorial weights came out ~10x more accurate).
    """
    p = np.empty_like(theta)
    pm1 = np.empty_like(theta)
    polar = theta < _POLAR_THETA
    p[polar], pm1[polar] = _pn_difference_form(n, theta[polar])
    p[~polar], pm1[~polar] = _pn_plain(n, np.cos(theta[~polar]))
    return p, pm1


_POLAR_THETA = 0.5


def _pn_difference_form(n: int, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u = 2.0 * np.sin(0.5 * theta) ** 2
    p = 1.0 - u          # P_1
    d = -u               # D_1 = P_1 - P_0
    pm1 = np.ones_like(theta)
    t = np.empty_like(theta)
    for k in range(1, n):
        if k == n - 1:
            pm1 = p.copy()
        d *= k / (k + 1.0)
        np.multiply(u, p, out=t)
        t *= (2.0 * k + 1.0) / (k + 1.0)
        d -= t
        p += d
    return p, pm1


def _pn_plain(n: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pm1 = np.ones_like(x)   # P_{k-1}
    p = x.copy()            # P_k
    t = np.empty_like(x)
    for k in range(1, n):
        # P_{k+1} = ((2k+1) x P_k - k P_{k-1}) / (k+1), written into pm1's buffer.
        np.multiply(x, p, out=t)
        t *= (2.0 * k + 1.0) / (k + 1.0)
        pm1 *= k / (k + 1.0)
        np.subtract(t, pm1, out=pm1)
        p, pm1 = pm1, p
    return p, pm1


def gauss_legendre_rule(nlat: int) -> Quadrature:
    """Gauss-Legendre rule with nodes computed in theta to full relative precision.

    Newton's method on ``P_n(cos theta)`` as a function of ``theta``, from
    asymptotic initial guesses (Olver near the poles, Tricomi inside), on the
    northern half only (the rule is symmetric). Each sweep costs O(n) per node,
    and only nodes that have not converged are swept again. Weights come from
    the derivative, ``w = 2 / (dP_n/dtheta)^2``, evaluated at the final node by a
    Taylor correction of the last sweep's derivative.

    Accuracy (checked against mpmath): theta and sin(theta) to a few ulps
    *relative*, also at the poles (worst 3e-15 at n = 16384, where the
    recurrence's ~sqrt(n) eps rounding shows); weights to ~1e-14 relative.
    Cost: O(n^2) flops in numpy, ~0.3-0.5 s at n = 16384 on 2 cores.

    Parameters
    ----------
    nlat : int
        Number of nodes, >= 1.

    Returns
    -------
    Quadrature
        ``theta`` increasing in (0, pi), ``cost``, ``sint``, ``weights``: each
        ``(nlat,) float64``; weights sum to 2.
    """
    n = check_int("nlat", nlat, minimum=1)
    nh = n // 2                      # nodes strictly north of the equator
    k = np.arange(1, nh + 1, dtype=np.float64)
    theta = _gauss_initial_theta(n, k) if nh else np.empty(0)
    dtheta = np.empty(nh)            # dP_n/dtheta at the final nodes
    active = np.arange(nh)
    for _ in range(20):
        if active.size == 0:
            break
        th = theta[active]
        p, pm1 = _legendre_pn_theta(n, th)
        s, c = np.sin(th), np.cos(th)
        # (1 - x^2) P_n'(x) = n (P_{n-1} - x P_n) and dP/dtheta = -sin(theta) P_n'(x).
        dp = -n * (pm1 - c * p) / s
        step = -p / dp
        # Taylor-correct dP/dtheta to the updated node; the second derivative comes
        # from Legendre's equation P'' + cot(theta) P' + n(n+1) P = 0.
        dtheta[active] = dp * (1.0 - step * c / s + n * (n + 1.0) * step * step)
        theta[active] = th + step
        # After a step of size e Newton's error is ~ e^2 cot(theta)/2 and the
        # derivative's ~ (n e)^2: both below rounding once n * |e| <= 1e-8.
        active = active[n * np.abs(step) > 1e-8]
    else:  # pragma: no cover - the asymptotic guesses make this unreachable
        raise RuntimeError(f"gauss_legendre_rule({n}): Newton did not converge")
    w_half = 2.0 / dtheta**2
    cost_h, sint_h = np.cos(theta), np.sin(theta)
    if n % 2:
        # Middle node exactly on the equator: x = 0, w = 2 / (n P_{n-1}(0))^2.
        _, pm1 = _legendre_pn_theta(n, np.array([np.pi / 2]))
        w_mid = 2.0 / (n * pm1) ** 2
        mid = (np.array([np.pi / 2]), np.zeros(1), np.ones(1), w_mid)
    else:
        mid = (np.empty(0),) * 4
    theta_full = np.concatenate([theta, mid[0], (np.pi - theta)[::-1]])
    cost = np.concatenate([cost_h, mid[1], -cost_h[::-1]])
    sint = np.concatenate([sint_h, mid[2], sint_h[::-1]])
    weights = np.concatenate([w_half, mid[3], w_half[::-1]])
    return Quadrature(theta_full, cost, sint, weights)


def gauss_legendre(nlat: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on ``[-1, 1]``.

    Parameters
    ----------
    nlat : int
        Number of nodes, >= 1.

    Returns
    -------
    x : (nlat,) float64
        Nodes ``cos(theta)``, *descending* (theta increasing; the reverse of
        ``numpy.polynomial.legendre.leggauss``).
    w : (nlat,) float64
        Weights, summing to 2. Exact for polynomials of degree <= 2 nlat - 1.

    See :func:`gauss_legendre_rule` for theta and sin(theta) at full precision.
    """
    q = gauss_legendre_rule(nlat)
    return q.cost, q.weights


# ----------------------------------------------------------------------------
# Clenshaw-Curtis
# ----------------------------------------------------------------------------

def clenshaw_curtis_rule(nlat: int) -> Quadrature:
    """Clenshaw-Curtis rule on ``theta_i = pi i / (nlat - 1)``, both poles included.

    With ``N = nlat - 1`` the rule interpolates at the ``N + 1`` Chebyshev extreme
    points, so it is exact for polynomials of degree ``<= N``; being symmetric it
    also integrates every odd monomial exactly (both sides are zero). Hence it is
    exact up to degree ``N + 1 = nlat`` when ``nlat`` is odd and ``N = nlat - 1``
    when ``nlat`` is even: the first failure is the first even degree above
    ``N``. Weights (Waldvogel 2006 form, one real FFT):

        w_k = c_k / N * (1 - sum_{j=1}^{N/2} b_j cos(2 j theta_k) / (4 j^2 - 1)),

    ``c_k = 1`` at the poles and 2 inside, ``b_j = 1`` for ``j = N/2`` and 2
    otherwise; the pole weights use the closed form ``1/(N^2 - 1)`` (N even) or
    ``1/N^2`` (N odd), which avoids the cancellation in ``1 - sum``.

    Parameters
    ----------
    nlat : int
        Number of rings, >= 2.

    Returns
    -------
    Quadrature
        ``(nlat,) float64`` arrays; ``weights`` sum to 2.
    """
    n = check_int("nlat", nlat, minimum=2)
    big_n = n - 1
    # sum_j b_j g_j cos(2 pi j k / N) over the full period j = 1..N-1, where
    # g_j = 1/(4 j'^2 - 1), j' = min(j, N - j), counts j < N/2 twice and N/2 once.
    j = np.arange(big_n)
    jj = np.minimum(j, big_n - j).astype(np.float64)
    g = 1.0 / (4.0 * jj * jj - 1.0)
    g[0] = 0.0
    s = np.fft.rfft(g).real             # s[k] for k = 0..N//2
    kh = np.arange(n // 2 + n % 2)      # north half incl. equator
    w_half = 2.0 / big_n * (1.0 - s[kh])
    w_half[0] = 1.0 / (big_n * big_n - 1.0) if big_n % 2 == 0 else 1.0 / (big_n * big_n)
    theta_h = np.pi * kh / big_n
    cost_h, sint_h = np.cos(theta_h), np.sin(theta_h)
    cost_h[0], sint_h[0] = 1.0, 0.0
    if n % 2:
        cost_h[-1], sint_h[-1] = 0.0, 1.0     # equator ring, exactly
        south = slice(n // 2 - 1, None, -1)
    else:
        south = slice(None, None, -1)
    theta = np.concatenate([theta_h, np.pi - theta_h[south]])
    theta[-1] = np.pi
    cost = np.concatenate([cost_h, -cost_h[south]])
    sint = np.concatenate([sint_h, sint_h[south]])
    weights = np.concatenate([w_half, w_half[south]])
    return Quadrature(theta, cost, sint, weights)


def clenshaw_curtis(nlat: int) -> tuple[np.ndarray, np.ndarray]:
    """Clenshaw-Curtis nodes ``x = cos(pi i/(nlat-1))`` (descending) and weights.

    Exact for polynomials in ``x`` of degree ``<= nlat`` (nlat odd) or
    ``<= nlat - 1`` (nlat even); see :func:`clenshaw_curtis_rule`.
    """
    q = clenshaw_curtis_rule(nlat)
    return q.cost, q.weights


# ----------------------------------------------------------------------------
# Fejer's first rule
# ----------------------------------------------------------------------------

def fejer_rule(nlat: int) -> Quadrature:
    """Fejer's first rule on ``theta_i = pi (i + 1/2) / nlat``, no poles (ducc0's ``"F1"``).

    The rule interpolates at the ``N = nlat`` Chebyshev points of the first kind, so it is
    exact for polynomials of degree ``<= N - 1``, and, symmetric, for every odd degree: up to
    degree ``N`` for odd ``N`` and ``N - 1`` for even ``N`` (the first failure is the first
    even degree ``>= N``, as for Clenshaw-Curtis). Its weights are the midpoint rule
    ``pi / N`` times the cosine series of ``sin theta`` cut after degree ``N - 1``,
    ``w_k = 2/N (1 - 2 sum_{j=1}^{(N-1)//2} cos(2 j theta_k) / (4 j^2 - 1))``, which loses
    ~N ulps near the poles to cancellation (the sum is ~1/2, the weight O(1/N^2) there).
    Computed instead in the equal form without cancellation (``2 sin theta sin((2j-1) theta)
    = cos((2j-2) theta) - cos(2j theta)`` telescopes the sum; ``cos(N theta_k) = 0``,
    ``sin(N theta_k) = (-1)^k``):

        w_k = 4/N sin(theta_k) (sum_{j=1}^{N//2} sin((2j-1) theta_k) / (2j-1)
                                + [N odd] (-1)^k / (2N)),

    whose terms are all positive near the poles; the sums are one FFT of length 4N.

    Parameters
    ----------
    nlat : int
        Number of rings, >= 1.

    Returns
    -------
    Quadrature
        ``(nlat,) float64`` arrays; ``weights`` sum to 2.
    """
    n = check_int("nlat", nlat, minimum=1)
    kh = np.arange((n + 1) // 2)                # north half incl. equator (odd n)
    theta_h = np.pi * (kh + 0.5) / n
    cost_h, sint_h = np.cos(theta_h), np.sin(theta_h)
    # sum_{j=1}^{n//2} sin((2j-1) theta_k) / (2j-1) = Im sum_odd a_t e^{2 pi i t (2k+1) / 4n}
    a = np.zeros(4 * n)
    odd = np.arange(1, 2 * (n // 2), 2)
    a[odd] = 1.0 / odd
    s = (np.fft.ifft(a) * (4 * n)).imag[2 * kh + 1]
    if n % 2:
        s += (-1.0) ** kh / (2.0 * n)
        cost_h[-1], sint_h[-1] = 0.0, 1.0     # equator ring, exactly
    w_half = 4.0 / n * sint_h * s

    def south(a):                             # the northern rings mirrored, no equator
        return a[:n // 2][::-1]

    theta = np.concatenate([theta_h, np.pi - south(theta_h)])
    cost = np.concatenate([cost_h, -south(cost_h)])
    sint = np.concatenate([sint_h, south(sint_h)])
    weights = np.concatenate([w_half, south(w_half)])
    return Quadrature(theta, cost, sint, weights)


def fejer(nlat: int) -> tuple[np.ndarray, np.ndarray]:
    """Fejer (first rule) nodes ``x = cos(pi (i + 1/2) / nlat)`` (descending) and weights;
    see :func:`fejer_rule`."""
    q = fejer_rule(nlat)
    return q.cost, q.weights


# ----------------------------------------------------------------------------
# Grid registry
# ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _GridKind:
    rule: Callable[[int], Quadrature]
    min_nlat: int
    # Largest lmax whose analysis by quadrature is exact for this nlat.
    exact_lmax: Callable[[int], int]
    # Default (nlat, nphi) for a band limit lmax.
    sizes: Callable[[int], tuple[int, int]]
    # Largest lmax whose rows are determined by their ring values, so that the theta step
    # (numerics.resample) makes analysis exact past exact_lmax; None: no theta step.
    step_lmax: Callable[[int], int] | None = None


# Analysis integrates P_lm P_l'm, a polynomial in x of degree l + l' <= 2 lmax
# (for odd m the two (1-x^2)^(1/2) factors multiply to a polynomial); odd
# l + l' integrate to zero on both symmetric rules, so every even degree
# <= 2 lmax must be exact.
#   gauss: even degrees <= 2 nlat - 2 are exact  -> lmax <= nlat - 1.
#   equiangular: even degrees <= nlat - 1 are exact -> lmax <= (nlat - 1) // 2,
#   e.g. 721 rings are exact up to lmax 360.
#   fejer: the same (Fejer's first rule, fejer_rule).
# step_lmax (numerics.resample): the rows, extended to the circle, are trigonometric
# polynomials sampled at 2 (nlat - 1) points (equiangular) or 2 nlat half-offset points
# (fejer): determined up to degree nlat - 2 (sin((nlat - 1) theta) vanishes on every
# equiangular ring) and nlat - 1 (cos(nlat theta) on every Fejer ring), ducc0's limits for
# "CC" and "F1".
_KINDS: dict[str, _GridKind] = {
    "gauss": _GridKind(
        rule=gauss_legendre_rule,
        min_nlat=1,
        exact_lmax=lambda nlat: nlat - 1,
        sizes=lambda lmax: (lmax + 1, 2 * (lmax + 1)),
    ),
    "equiangular": _GridKind(
        rule=clenshaw_curtis_rule,
        min_nlat=2,
        exact_lmax=lambda nlat: (nlat - 1) // 2,
        sizes=lambda lmax: (2 * lmax + 1, 4 * lmax) if lmax else (2, 2),
        step_lmax=lambda nlat: nlat - 2,
    ),
    "fejer": _GridKind(
        rule=fejer_rule,
        min_nlat=1,
        exact_lmax=lambda nlat: (nlat - 1) // 2,
        sizes=lambda lmax: (lmax + 1, 2 * (lmax + 1)),
        step_lmax=lambda nlat: nlat - 1,
    ),
}

GRID_KINDS: tuple[str, ...] = tuple(_KINDS)


@dataclass(frozen=True, eq=False)
class Grid:
    """A latitude-longitude grid with its latitude quadrature.

    Build with :func:`make_grid`; instances are cached and their arrays read-only.

    Attributes
    ----------
    kind : str
        One of :data:`GRID_KINDS`: ``"gauss"``, ``"equiangular"`` or ``"fejer"``.
    nlat, nphi : int
        Number of rings and of points per ring.
    theta : (nlat,) float64
        Colatitudes, increasing, in [0, pi].
    cost, sint : (nlat,) float64
        ``cos(theta)`` and ``sin(theta)``, each to full relative precision and
        exactly (anti)symmetric about the equator. Use these, not
        ``np.sin(theta)``: south of the equator ``theta = pi - theta_north`` is
        rounded, and ``sin`` of it is not relatively accurate near the pole.
    weights : (nlat,) float64
        Quadrature weights for integrals over ``x = cos(theta)`` in [-1, 1] (sum 2);
        ``sum_i weights[i] * (2 pi / nphi) * sum_j f[i, j]`` integrates over the sphere.
    """

    kind: str
    nlat: int
    nphi: int
    theta: np.ndarray
    cost: np.ndarray
    sint: np.ndarray
    weights: np.ndarray

    @property
    def phi(self) -> np.ndarray:
        """Longitudes ``2 pi j / nphi``: ``(nphi,) float64``."""
        return 2.0 * np.pi * np.arange(self.nphi) / self.nphi

    @property
    def lat(self) -> np.ndarray:
        """Latitudes ``pi/2 - theta``, radians, north first: ``(nlat,) float64``."""
        return np.pi / 2 - self.theta

    lon = phi

    @property
    def lat_deg(self) -> np.ndarray:
        """Latitudes in degrees, north first (90 .. -90 on the equiangular grid)."""
        return np.degrees(self.lat)

    @property
    def lon_deg(self) -> np.ndarray:
        """Longitudes ``360 j / nphi`` in degrees."""
        return 360.0 * np.arange(self.nphi) / self.nphi

    @property
    def exact_lmax(self) -> int:
        """Largest lmax for which analysis by this grid's quadrature is exact.

        The latitude integrand ``P_lm(x) P_l'm(x)`` is a polynomial in ``x`` of
        degree ``<= 2 lmax``. Gauss-Legendre: ``nlat - 1``. Equiangular
        (Clenshaw-Curtis) and Fejer (first rule), both exact for every even degree
        ``<= nlat - 1``: ``(nlat - 1) // 2`` (the theta step goes further,
        :attr:`step_lmax`). The longitude sum is exact as well when
        ``nphi > 2 mmax`` (``= 2 mmax``: for the real part the grid carries of the Nyquist
        order, ``numerics.reference``), which the transforms require separately.
        """
        return _KINDS[self.kind].exact_lmax(self.nlat)

    @property
    def step_lmax(self) -> int | None:
        """Largest lmax whose rows (one order's Fourier coefficients along theta) are
        determined by their ring values, so that ``numerics.resample``'s theta step makes
        analysis exact past :attr:`exact_lmax`: ``nlat - 2`` (equiangular), ``nlat - 1``
        (Fejer); None on Gauss grids (no theta step)."""
        f = _KINDS[self.kind].step_lmax
        return None if f is None else f(self.nlat)

    def __repr__(self) -> str:
        return f"Grid(kind={self.kind!r}, nlat={self.nlat}, nphi={self.nphi})"


@functools.lru_cache(maxsize=32)
def _cached_grid(kind: str, nlat: int, nphi: int) -> Grid:
    q = _KINDS[kind].rule(nlat)
    arrays = []
    for a in q:
        a = np.ascontiguousarray(a, dtype=np.float64)
        a.flags.writeable = False    # shared through the cache
        arrays.append(a)
    return Grid(kind, nlat, nphi, *arrays)


def min_nlat(kind: str) -> int:
    """The fewest rings a grid of this kind has: 2 for ``"equiangular"`` (both poles), else 1."""
    return _KINDS[check_choice("kind", kind, GRID_KINDS)].min_nlat


def make_grid(kind: str, nlat: int, nphi: int) -> Grid:
    """Build (or fetch from the cache) a grid.

    Parameters
    ----------
    kind : {"gauss", "equiangular", "fejer"}
    nlat : int
        Rings: >= 2 for ``"equiangular"`` (both poles), else >= 1.
    nphi : int
        Points per ring, >= 1 (the transforms further need ``nphi >= 2 mmax``).

    Returns
    -------
    Grid
    """
    kind = check_choice("kind", kind, GRID_KINDS)
    nlat = check_int("nlat", nlat, minimum=_KINDS[kind].min_nlat)
    nphi = check_int("nphi", nphi, minimum=1)
    return _cached_grid(kind, nlat, nphi)


def default_sizes(lmax: int, mmax: int, grid: str) -> tuple[int, int]:
    """Default ``(nlat, nphi)`` for a band limit, exact for analysis.

    - ``"gauss"``: ``(lmax + 1, 2 (lmax + 1))``, the grid of the README's benchmarks.
    - ``"equiangular"``: ``(2 lmax + 1, 4 lmax)``: the fewest rings that are exact
      (see :attr:`Grid.exact_lmax`) and square cells (``dphi = dtheta``); lmax 360
      gives the 721 x 1440 grid of ERA5. ``lmax = 0`` gives ``(2, 2)``.
    - ``"fejer"``: ``(lmax + 1, 2 (lmax + 1))``: the fewest rings that are exact with the
      theta step (:attr:`Grid.step_lmax` ``= nlat - 1``, ducc0's smallest "F1" grid),
      square cells. Not the ``2 lmax + 1`` rings of plain quadrature: those double the
      grid, the synthesis and the analysis's Legendre and Fourier work, where the theta
      step adds one ``nlat x nlat`` product per order to the analysis alone, on half the
      rings (the same size as the Gauss grid; equiangular keeps quadrature for ERA5's
      721 rings). Measured at lmax 255 (CPU target, float32, 2 cores, medians of 15):
      256 x 512 with the step vs 511 x 1022, synthesis 1.0 vs 2.3 ms (1 field), 11.7 vs
      39.3 ms (16 fields); analysis 0.9 vs 2.3 ms, 15.0 vs 40.1 ms.

    ``nphi`` depends on ``lmax`` only, so one grid serves every ``mmax``; it
    always exceeds ``2 mmax``. It is rounded up to an FFT size (``fourier.fft_size``: half of
    it ``2^a 3^b 5^c``), as SHTns's automatic grids are: lmax 720 gives 721 x 1458 on Gauss
    grids, lmax 20 21 x 48; lmax 127, 255, 511, 1023 and 2047 keep ``2 (lmax + 1)``.

    Parameters
    ----------
    lmax, mmax : int
        ``0 <= mmax <= lmax``.
    grid : {"gauss", "equiangular", "fejer"}
        The grid kind.
    """
    lmax = check_int("lmax", lmax, minimum=0)
    check_int("mmax", mmax, minimum=0, maximum=lmax)
    grid = check_choice("grid", grid, GRID_KINDS)
    nlat, nphi = _KINDS[grid].sizes(lmax)
    return nlat, fft_size(nphi)
