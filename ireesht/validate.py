"""Argument validation shared by every public function.

Each helper raises ``ValueError`` whose message names the parameter, the value it
got and what was expected (``"lmax=-1: expected an integer >= 0"``), and returns
the normalised value so callers can write ``lmax = check_int("lmax", lmax, minimum=0)``.
Errors are values, not asserts: these checks stay on under ``python -O``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "check_int",
    "check_choice",
    "check_array",
    "check_finite",
    "check_shape",
]


def check_int(
    name: str,
    value: object,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    """Return ``value`` as a Python int, or raise ``ValueError``.

    Accepts Python and numpy integers; rejects bools, floats (even integral ones:
    ``lmax=3.0`` is more likely a bug than an intent) and anything else.
    ``minimum`` and ``maximum`` are inclusive bounds.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name}={value!r}: expected an integer")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}={v}: expected an integer >= {minimum}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name}={v}: expected an integer <= {maximum}")
    return v


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ``ValueError``."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(map(repr, choices))}")
    return value


def check_array(name: str, value: object, *, kinds: str = "iufc") -> np.ndarray:
    """Return ``value`` as a numpy array whose dtype kind is in ``kinds``.

    ``kinds`` uses numpy's one-letter dtype kinds: ``"f"`` real float, ``"c"``
    complex, ``"i"``/``"u"`` integer, ``"b"`` bool. Object and string arrays are
    refused, so a list of mixed junk fails here rather than deep inside a kernel.
    """
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name}: cannot be converted to an array ({exc})") from None
    if arr.dtype.kind not in kinds:
        raise ValueError(
            f"{name}: dtype {arr.dtype} not accepted; expected dtype kind in {kinds!r}"
        )
    return arr


def check_finite(name: str, arr: np.ndarray) -> np.ndarray:
    """Raise ``ValueError`` if ``arr`` holds NaN or +-Inf; return it unchanged."""
    arr = np.asarray(arr)
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name}: expected finite values, found {arr[tuple(bad)]!r} at index {tuple(int(i) for i in bad)}"
        )
    return arr


def check_shape(
    name: str,
    arr: np.ndarray,
    trailing: Sequence[int | None],
    *,
    what: Sequence[str] | None = None,
) -> np.ndarray:
    """Check the trailing dimensions of ``arr``; leading (batch) dims are free.

    Parameters
    ----------
    name : str
        Parameter name used in the message.
    arr : ndarray
        Array to check.
    trailing : sequence of int or None
        Expected sizes of the last ``len(trailing)`` dimensions; ``None`` accepts
        any size.
    what : sequence of str, optional
        Names of those dimensions for the message (``("nlat", "nphi")``).
    """
    arr = np.asarray(arr)
    k = len(trailing)
    labels = tuple(what) if what is not None else tuple(str(s) for s in trailing)
    expected = "(..., " + ", ".join(
        f"{lab}={s}" if (s is not None and lab != str(s)) else str(lab)
        for lab, s in zip(labels, trailing)
    ) + ")"
    if arr.ndim < k:
        raise ValueError(f"{name}: shape {arr.shape} has too few dimensions; expected {expected}")
    tail = arr.shape[arr.ndim - k :]
    for got, want in zip(tail, trailing):
        if want is not None and got != want:
            raise ValueError(f"{name}: shape {arr.shape}; expected {expected}")
    return arr
