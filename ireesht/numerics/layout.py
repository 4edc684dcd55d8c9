"""Packing of spherical harmonic coefficients.

Coefficients ``q_lm`` are complex and stored for ``m >= 0`` only (real fields:
``q_{l,-m} = (-1)^m conj(q_lm)``), packed m-major as SHTns and ducc0 do: all ``l``
for ``m = 0``, then all ``l >= 1`` for ``m = 1``, ... The packed index of ``(l, m)``
is ``m (2 lmax + 3 - m) / 2 + (l - m)``; it does not depend on ``mmax``, which only
decides where the array ends. The dense layout (torch-harmonics') is
``(..., lmax + 1, mmax + 1)`` indexed ``[l, m]``.
"""

from __future__ import annotations

import numpy as np

from ireesht.validate import check_array, check_finite, check_int, check_shape

__all__ = ["nlm", "lm_index", "lm_indices", "m_offsets", "pack", "unpack"]


def _check_lmax_mmax(lmax: int, mmax: int) -> tuple[int, int]:
    lmax = check_int("lmax", lmax, minimum=0)
    mmax = check_int("mmax", mmax, minimum=0, maximum=lmax)
    return lmax, mmax


def nlm(lmax: int, mmax: int) -> int:
    """Number of packed coefficients, ``(mmax+1)(lmax+1) - mmax(mmax+1)/2``."""
    lmax, mmax = _check_lmax_mmax(lmax, mmax)
    return (mmax + 1) * (lmax + 1) - mmax * (mmax + 1) // 2


def lm_index(l: int | np.ndarray, m: int | np.ndarray, lmax: int) -> int | np.ndarray:
    """Packed index of ``(l, m)``: ``m (2 lmax + 3 - m) / 2 + (l - m)``.

    Parameters
    ----------
    l, m : int or integer ndarray
        Degree and order, ``0 <= m <= l <= lmax``; arrays broadcast together.
    lmax : int
        Maximum degree of the packing.

    Returns
    -------
    int, or int64 ndarray of the broadcast shape when ``l`` or ``m`` is an array.
    """
    lmax = check_int("lmax", lmax, minimum=0)
    if np.ndim(l) == 0 and np.ndim(m) == 0:
        li = check_int("l", l, minimum=0, maximum=lmax)
        mi = check_int("m", m, minimum=0, maximum=li)
        return mi * (2 * lmax + 3 - mi) // 2 + (li - mi)
    la = check_array("l", l, kinds="iu").astype(np.int64)
    ma = check_array("m", m, kinds="iu").astype(np.int64)
    la, ma = np.broadcast_arrays(la, ma)
    bad = (ma < 0) | (ma > la) | (la > lmax)
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        raise ValueError(
            f"(l, m)=({la[i]}, {ma[i]}) at index {i}: expected 0 <= m <= l <= lmax={lmax}"
        )
    return ma * (2 * lmax + 3 - ma) // 2 + (la - ma)


def m_offsets(lmax: int, mmax: int) -> np.ndarray:
    """Packed index of ``(l=m, m)`` for each ``m``: ``(mmax + 1,) int64``.

    The block of order ``m`` is ``qlm[..., off[m] : off[m] + lmax + 1 - m]``, ``l``
    increasing.
    """
    lmax, mmax = _check_lmax_mmax(lmax, mmax)
    m = np.arange(mmax + 1, dtype=np.int64)
    return m * (2 * lmax + 3 - m) // 2


def lm_indices(lmax: int, mmax: int) -> tuple[np.ndarray, np.ndarray]:
    """Degree and order of each packed coefficient: ``(l, m)``, two ``(nlm,) int64`` arrays
    (``l[i], m[i]`` of ``qlm[..., i]``)."""
    lmax, mmax = _check_lmax_mmax(lmax, mmax)
    return _dense_index(lmax, mmax)


def _dense_index(lmax: int, mmax: int) -> tuple[np.ndarray, np.ndarray]:
    """(l, m) index arrays of length nlm in packed order."""
    m = np.repeat(np.arange(mmax + 1), lmax + 1 - np.arange(mmax + 1))
    l = np.arange(m.size) - m_offsets(lmax, mmax)[m] + m
    return l, m


def pack(dense: np.ndarray) -> np.ndarray:
    """Dense ``(..., lmax+1, mmax+1)`` coefficients to packed ``(..., nlm)``.

    ``lmax`` and ``mmax`` are read from the shape (``mmax <= lmax`` required).
    Entries with ``l < m`` are not coefficients and are ignored (not checked), so
    a dense array that holds anything there still packs.

    Parameters
    ----------
    dense : (..., lmax+1, mmax+1) array, real or complex
        ``dense[..., l, m] = q_lm``.

    Returns
    -------
    (..., nlm) complex ndarray
        complex64 for float32/complex64 input, complex128 otherwise.
    """
    dense = check_array("dense", dense, kinds="iufc")
    if dense.ndim < 2:
        raise ValueError(f"dense: shape {dense.shape}; expected (..., lmax+1, mmax+1)")
    lmax, mmax = dense.shape[-2] - 1, dense.shape[-1] - 1
    if lmax < 0 or mmax < 0 or mmax > lmax:
        raise ValueError(
            f"dense: shape {dense.shape} gives lmax={lmax}, mmax={mmax}; "
            "expected (..., lmax+1, mmax+1) with 0 <= mmax <= lmax"
        )
    check_finite("dense", dense)
    l, m = _dense_index(lmax, mmax)
    dtype = np.result_type(dense.dtype, np.complex64)
    return dense[..., l, m].astype(dtype, copy=False)


def unpack(qlm: np.ndarray, lmax: int, mmax: int) -> np.ndarray:
    """Packed ``(..., nlm)`` coefficients to dense ``(..., lmax+1, mmax+1)``.

    Entries with ``l < m`` are zero. The dtype is kept if complex, else promoted
    to complex as in :func:`pack`.
    """
    lmax, mmax = _check_lmax_mmax(lmax, mmax)
    qlm = check_array("qlm", qlm, kinds="iufc")
    check_shape("qlm", qlm, (nlm(lmax, mmax),), what=("nlm",))
    check_finite("qlm", qlm)
    l, m = _dense_index(lmax, mmax)
    dtype = np.result_type(qlm.dtype, np.complex64)
    out = np.zeros(qlm.shape[:-1] + (lmax + 1, mmax + 1), dtype=dtype)
    out[..., l, m] = qlm
    return out
