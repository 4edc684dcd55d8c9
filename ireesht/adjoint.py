"""Exact adjoints (transposes) of synthesis and analysis: the backward passes of autograd.

With the real-field convention ``f = sum_l q_l0 P_l0 + 2 Re sum_{m>0} q_lm P_lm e^{i m phi}``
(``Im q_l0`` ignored), the real inner products ``<a, b> = sum Re a Re b + Im a Im b`` on packed
coefficients and ``<f, g> = sum f g`` on fields, and the quadrature analysis
``A f_lm = sum_i W_i P_lm(x_i) sum_j f_ij e^{-i m phi_j}`` with ``W_i = w_i 2 pi / nphi``:

- ``S^T g = c_m A(g / W)``, ``c_0 = 1``, ``c_m = 2`` for ``m > 0``: differentiating ``f`` by
  ``Re q_lm`` and ``Im q_lm`` gives ``c_m P_lm cos(m phi)`` and ``-c_m P_lm sin(m phi)``,
  which is ``A`` without its weights; ``Im (S^T g)_l0 = 0``, as ``S`` ignores ``Im q_l0``.
- ``A^T q = W S(q / c)``: ``<A f, q> = sum_ij f_ij W_i sum_lm P_lm Re(q_lm e^{i m phi_j})``,
  and ``S`` counts the orders ``m > 0`` twice.
- The Nyquist order ``N = nphi / 2`` (``Plan.nyquist``): ``S`` adds ``2 Re q_lN P_lN (-1)^j``
  and ``A`` returns half the quadrature, real (``numerics.reference``), so ``c_N = 4``;
  ``Im`` of order N is ignored by ``S`` and 0 from ``A`` (and from ``S^T``), as for m = 0.

In a plan's normalisation ``d_lm`` (``numerics.normalization``: ``S' = S D``, ``A' = D^-1 A``
with ``D = diag(d)``) the same holds with ``c_m d_lm^2`` for ``c_m`` (``adjoint_factors``):
``S'^T g = D S^T g = c_m d^2 A'(g / W)`` and ``A'^T q = A^T D^-1 q = W S'(q / (c_m d^2))``;
``d^2`` does not depend on the phase.

Both are elementwise scalings around the existing kernels, so they run on every target and
kernel family; they hold on every grid, exact quadrature or not (``A`` is the quadrature
formula either way). Plans whose analysis takes the theta step (exact equiangular and Fejer
analysis, ``numerics.resample``: ``A = A_quad T``, T one ``nlat x nlat`` matrix per parity of m along
theta) add a matrix product along theta: ``A^T q = T^T W S(q / c)`` and ``S^T g = c A(Z (g /
W))`` with ``A Z = A_quad`` (``resample.quadrature_inverse``); the parity of m is that of the
field under ``phi -> phi + pi``, so the field's two halves in phi separate it (even nphi). ``tests/integration/test_adjoint.py`` checks ``<S a, g> = <a, S^T g>``
and ``<A f, q> = <f, A^T q>`` against the float64 reference. These are the gradients of
``ireesht.torch`` (PyTorch's complex gradient ``dL/dRe q + i dL/dIm q`` is exactly the
gradient for this inner product) and, conjugated, of ``ireesht.jax``.

The scalings run in the caller's array library (numpy, torch, JAX, CuPy: on its device); a
device array (``iree.runtime.DeviceArray``) is refused, as IREE has no elementwise kernel here.
"""

from __future__ import annotations

import functools

import numpy as np

from ireesht import interop
from ireesht.numerics import layout, normalization, resample
from ireesht.numerics.grid import make_grid
from ireesht.runtime.device import is_device_array
from ireesht.validate import check_kind

__all__ = ["synth_adjoint", "analys_adjoint", "transpose_synth", "transpose_analys",
           "ring_weights", "order_factors", "adjoint_factors"]


@functools.lru_cache(maxsize=32)
def ring_weights(grid, nlat: int, nphi: int) -> np.ndarray:
    """``W_i = w_i 2 pi / nphi``: ``(nlat, 1) float64``, the weight of each grid point
    in the analysis (``grid`` a ``numerics.grid`` kind)."""
    w = (make_grid(grid, nlat, nphi).weights * (2.0 * np.pi / nphi))[:, None]
    w.flags.writeable = False
    return w


@functools.lru_cache(maxsize=32)
def order_factors(lmax: int, mmax: int, nyquist: bool = False) -> np.ndarray:
    """``c_m`` of each packed coefficient: 1 for ``m = 0``, 2 for ``m > 0``, 4 for the Nyquist
    order ``m = mmax`` of a ``nyquist`` plan (module doc); ``(nlm,) float64``."""
    _, m = layout.lm_indices(lmax, mmax)
    c = np.where(m == 0, 1.0, np.where(nyquist and mmax > 0 and m == mmax, 4.0, 2.0))
    c.flags.writeable = False
    return c


@functools.lru_cache(maxsize=32)
def adjoint_factors(lmax: int, mmax: int, norm: str, nyquist: bool = False) -> np.ndarray:
    """``c_m d_lm^2`` of each packed coefficient (module doc), ``d`` the normalisation
    ``norm``'s factors: ``(nlm,) float64``; ``order_factors`` for ``"ortho"``."""
    c = (order_factors(lmax, mmax, nyquist)
         * normalization.factors(lmax, mmax, norm, True) ** 2)
    c.flags.writeable = False
    return c


def synth_adjoint(module, f):
    """``S^T f``: ``(..., nlat, nphi)`` real -> ``(..., nlm)`` complex, of the caller's kind.

    The transpose of ``module.synth`` for the real inner products (module doc): ``c_m d^2
    module.analys(f / W)``. Costs one analysis and two elementwise scalings.
    """
    _refuse_device_array("f", f)
    return transpose_synth(_checked("f", f, complex_=False), module.plan, module.analys,
                           interop.constant_like)


def analys_adjoint(module, q):
    """``A^T q``: ``(..., nlm)`` complex -> ``(..., nlat, nphi)`` real, of the caller's kind.

    The transpose of ``module.analys`` (module doc): ``W module.synth(q / (c_m d^2))``. Costs one
    synthesis and two elementwise scalings.
    """
    _refuse_device_array("q", q)
    return transpose_analys(_checked("q", q, complex_=True), module.plan, module.synth,
                            interop.constant_like)


def transpose_synth(f, plan, analys, like):
    """``S^T f = c_m d^2 analys(f / W)`` in any array library: ``analys`` is the analysis to use
    (``ireesht.torch`` and ``ireesht.jax`` pass their differentiable ones, so that gradients
    of gradients work), ``like(a, f)`` turns a host constant into an array of ``f``'s library.
    With the theta step: ``c_m analys(Z (f / W))`` (module doc)."""
    k = _constants(plan)
    g = f / like(k["w"], f)
    if plan.theta_step:
        g = _along_theta(g, k["inverse"], k["sign"], plan, like)
    return analys(g) * like(k["c"], f)


def transpose_analys(q, plan, synth, like):
    """``A^T q = W synth(q / (c_m d^2))`` in any array library (see ``transpose_synth``);
    with the theta step ``T^T (W synth(q / (c_m d^2)))``."""
    k = _constants(plan)
    f = synth(q * like(k["1/c"], q)) * like(k["w"], q)
    if plan.theta_step:
        f = _along_theta(f, k["transpose"], k["sign"], plan, like)
    return f


@functools.lru_cache(maxsize=16)
def _constants(plan) -> dict:
    """The plan's scalings in its dtype, read-only (so that ``interop.constant_like`` keeps
    their device copies): ``w`` (``ring_weights``), ``c`` (``adjoint_factors``) and ``1/c``,
    and with the theta step its matrices transposed (``"transpose"``) and ``Z``
    (``"inverse"``), each a pair for the parities of m 0 and 1, and ``sign`` ``[[1], [-1]]``."""
    real = np.dtype(plan.dtype)
    c = adjoint_factors(plan.lmax, plan.mmax, plan.norm, plan.nyquist)
    k = {"w": ring_weights(plan.grid, plan.nlat, plan.nphi).astype(real),
         "c": c.astype(real), "1/c": (1.0 / c).astype(real),
         "sign": np.array([[1.0], [-1.0]], real)}
    if plan.theta_step:
        g = plan.make_grid()
        if plan.theta_rank:  # T_p^T = diag(d) + V_p^T U_p^T, as the module's step applies T_p
            t, r = resample.theta_lowrank(g, plan.lmax), plan.theta_rank
            k["transpose"] = tuple((t["theta_d"][:, None].astype(real),
                                    t["theta_u"][:, p * r:(p + 1) * r].T.astype(real),
                                    t["theta_v"][p * r:(p + 1) * r].T.astype(real))
                                   for p in (0, 1))
        else:
            k["transpose"] = tuple(resample.theta_table(g, plan.lmax).transpose(0, 2, 1)
                                   .astype(real))
        k["inverse"] = tuple(resample.quadrature_inverse(g, plan.lmax).astype(real))
    for a in _arrays(k.values()):
        a.flags.writeable = False
    return k


def _arrays(values):
    for v in values:
        if isinstance(v, tuple):
            yield from _arrays(v)
        else:
            yield v


def _along_theta(f, mats: tuple, sign: np.ndarray, plan, like):
    """``mats[m mod 2] @ F_m`` for every order, on a field ``(..., nlat, nphi)`` in its own
    library: with ``a``, ``b`` the field's halves in phi, ``(a + b) / 2`` holds the even orders
    and ``(a - b) / 2`` the odd ones (``e^{i m pi} = (-1)^m``), so the result's halves are
    ``x + y`` and ``x - y``, ``x = mats[0] (a + b) / 2``, ``y = mats[1] (a - b) / 2``. A
    matrix given as ``(d, Ut, Vt)`` is ``diag(d) + Vt Ut`` (the low-rank step's transpose:
    ``4 r nlat`` instead of ``nlat^2`` multiply-adds per column)."""
    if plan.nphi % 2:
        raise ValueError(f"nphi={plan.nphi}: the adjoints of an exact {plan.grid} analysis "
                         "(theta step) need an even nphi")
    h = plan.nphi // 2
    halves = f.reshape(*f.shape[:-1], 2, h)
    a, b = halves[..., 0, :], halves[..., 1, :]
    x = _apply(mats[0], (a + b) * 0.5, f, like)
    y = _apply(mats[1], (a - b) * 0.5, f, like)
    sign = like(sign, f)
    return (x[..., None, :] + sign * y[..., None, :]).reshape(f.shape)


def _apply(mat, x, f, like):
    if isinstance(mat, tuple):
        d, ut, vt = (like(a, f) for a in mat)
        return d * x + vt @ (ut @ x)
    return like(mat, f) @ x


def _refuse_device_array(name: str, x) -> None:
    if is_device_array(x):
        raise ValueError(f"{name}: iree.runtime.DeviceArray, expected a host or DLPack array "
                         "(numpy, torch, JAX, CuPy): the adjoint's scalings run in the "
                         "caller's array library")


def _checked(name: str, x, complex_: bool):
    """``x`` as an array of its own kind, of a dtype the transform takes (as the transforms
    check it: complex for coefficients, float for fields), so that scaling it cannot turn
    a wrong dtype into a right one."""
    if not interop.is_foreign(x):
        x = np.asarray(x)
    check_kind(name, interop.dtype_of(x), complex_)
    return x
