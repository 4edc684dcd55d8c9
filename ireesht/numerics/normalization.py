"""Normalisations and phase of the spherical harmonics: the diagonal scaling, per (l, m), between
a plan's coefficients and the kernels' (orthonormal, Condon-Shortley phase).

With ``Y_lm`` orthonormal with the Condon-Shortley phase (``int |Y_lm|^2 dOmega = 1``), a plan
of ``norm`` and ``csphase`` uses ``Y'_lm = d_lm Y_lm`` and coefficients ``a'_lm`` with the same
real-field sum, ``f = sum_l [a'_l0 Y'_l0 + 2 Re sum_{m>0} a'_lm Y'_lm]``, so ``a_lm = d_lm
a'_lm``: synthesis multiplies by ``d``, analysis divides by it. pyshtools' conventions
(``norm`` 4, 1, 2; ``csphase`` -1 / 1):

| norm | ``d_lm`` | ``int |Y'_lm|^2 dOmega`` | pyshtools |
|---|---|---|---|
| ``"ortho"`` | 1 | 1 | ``norm=4`` |
| ``"four_pi"`` | ``sqrt(4 pi)`` | ``4 pi`` | ``norm=1`` (geodesy) |
| ``"schmidt"`` | ``sqrt(4 pi / (2l + 1))`` | ``4 pi / (2l + 1)`` | ``norm=2`` |

times ``(-1)^m`` with ``csphase=False`` (pyshtools ``csphase=1``: no Condon-Shortley phase).
pyshtools' complex coefficients ``c_lm`` (``SHExpandGLQC``) of a real field are ``a'_lm`` for
``m >= 0``; its real ones are ``C_l,m = sqrt(2) Re a'_lm``, ``C_l,-m = -sqrt(2) Im a'_lm`` for
``m > 0`` and ``C_l0 = a'_l0``.
"""

from __future__ import annotations

import numpy as np

from ireesht.numerics import layout

# the kernels' own convention first
NORMS = ("ortho", "four_pi", "schmidt")


def is_native(norm: str, csphase: bool) -> bool:
    """Whether coefficients of ``norm`` and ``csphase`` are the kernels' own (no scaling)."""
    return norm == "ortho" and csphase


def factors(lmax: int, mmax: int, norm: str, csphase: bool) -> np.ndarray:
    """``d_lm`` of each packed coefficient (module doc): ``(nlm,) float64``, orthonormal
    coefficients = ``d`` times those of ``norm`` and ``csphase``."""
    l, m = layout.lm_indices(lmax, mmax)
    if norm == "ortho":
        d = np.ones(l.size)
    elif norm == "four_pi":
        d = np.full(l.size, np.sqrt(4 * np.pi))
    elif norm == "schmidt":
        d = np.sqrt(4 * np.pi / (2 * l + 1))
    else:
        raise ValueError(f"norm={norm!r}: expected one of {', '.join(map(repr, NORMS))}")
    return d if csphase else d * np.where(m % 2 == 1, -1.0, 1.0)
