"""Argument validation shared by every public function.

Each helper raises ``ValueError`` whose message names the parameter, the value it
got and what was expected (``"lmax=-1: expected an integer >= 0"``), and returns
the normalised value so callers can write ``lmax = check_int("lmax", lmax, minimum=0)``.
Errors are values, not asserts: these checks stay on under ``python -O``.

The size limits of a plan live here too (README, "Reliability"): a plan over them is refused
before anything is allocated or generated.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "LMAX_LIMIT",
    "NLAT_LIMIT",
    "NPHI_LIMIT",
    "FIELD_LIMIT",
    "PLAN_BYTES_LIMIT",
    "check_int",
    "check_sizes",
    "check_plan_bytes",
    "check_representable",
    "check_result",
    "check_kind",
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


# Size limits. IREE 3.13's Python runtime does not report a device's memory, so they are
# fixed: lmax 16383 has 1.3e8 coefficients; the kernels take sizes as i32 push constants and
# index a field's nlat x nphi values in 32 bits; the tables and one field's buffers (q, F, f)
# of the largest plans take about 9 GiB in float32. A plan under the limits can still be too
# large for a device: that surfaces as ireesht.DeviceError (out of memory) when it loads.
LMAX_LIMIT = 16383
NLAT_LIMIT = 32768
NPHI_LIMIT = 65536
FIELD_LIMIT = 2**31 - 1  # nlat * nphi
PLAN_BYTES_LIMIT = 32 * 2**30


def check_sizes(lmax: int, nlat: int, nphi: int) -> None:
    """Refuse a plan whose sizes pass the limits above (integers already checked), before
    anything of the plan is computed."""
    for name, value, limit in (("lmax", lmax, LMAX_LIMIT), ("nlat", nlat, NLAT_LIMIT),
                               ("nphi", nphi, NPHI_LIMIT)):
        if value > limit:
            raise ValueError(f"{name}={value}: over the size limit {name} <= {limit} "
                             f"(ireesht.validate.{name.upper()}_LIMIT)")
    if nlat * nphi > FIELD_LIMIT:
        raise ValueError(f"nlat={nlat}, nphi={nphi}: a field of {nlat * nphi} values, over the "
                         f"limit of {FIELD_LIMIT} (2^31 - 1, 32-bit indices)")


def check_plan_bytes(what: str, needed: int) -> None:
    """Refuse a plan whose device memory (``needed`` bytes: its tables and one field's
    buffers) passes ``PLAN_BYTES_LIMIT``."""
    if needed > PLAN_BYTES_LIMIT:
        raise ValueError(f"{what}: needs {needed / 2**30:.1f} GiB of device memory (tables and "
                         f"one field's buffers), over the limit of "
                         f"{PLAN_BYTES_LIMIT / 2**30:.0f} GiB (ireesht.validate.PLAN_BYTES_LIMIT)")


def check_representable(name: str, arr: np.ndarray, dtype) -> np.ndarray:
    """``arr`` converted to ``dtype`` (C-contiguous), or ``ValueError`` if a value is NaN or
    infinite, or too large for ``dtype`` (1e300 in float32 would become inf), naming the
    value, its index and ``dtype``'s largest value."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.ascontiguousarray(arr, dtype=dtype)
    finite = np.isfinite(out)
    if not finite.all():
        index = tuple(int(i) for i in np.argwhere(~finite)[0])
        value = arr[index].item()
        if np.isfinite(value):
            real = np.finfo(dtype).dtype
            raise ValueError(f"{name}: {value!r} at index {index} exceeds the largest "
                             f"{real.name} value, {np.finfo(real).max:.8g} (the plan's dtype)")
        raise ValueError(f"{name}: expected finite values, found {value!r} at index {index}")
    return out


def check_result(name: str, arr: np.ndarray, dtype) -> np.ndarray:
    """Raise ``ValueError`` if a transform's result holds a non-finite value: finite inputs
    whose sums overflow ``dtype``."""
    if not np.isfinite(arr).all():
        real = np.finfo(dtype).dtype
        raise ValueError(f"{name}: the result overflows {real.name} (largest value "
                         f"{np.finfo(real).max:.8g}): the input is too large for the plan's "
                         f"dtype; scale it down or use dtype='float64'")
    return arr


def check_bool(name: str, value: object) -> bool:
    """Return ``value`` as a Python bool, or raise ``ValueError``: Python and numpy bools only
    (``1`` or ``"yes"`` is more likely a mix-up with another convention than an intent)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}={value!r}: expected True or False")
    return bool(value)


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


def check_kind(name: str, dtype, complex_: bool) -> None:
    """Refuse a dtype of the wrong kind for a transform's input: complex coefficients, real
    fields (numpy's name of any library's dtype, or None for one it has no name for)."""
    kinds, expected = ("c", "complex64 or complex128") if complex_ else ("f", "float32 or float64")
    if dtype is None or np.dtype(dtype).kind != kinds[0] or np.dtype(dtype).itemsize not in (
            (8, 16) if complex_ else (4, 8)):
        raise ValueError(f"{name}: dtype {dtype}, expected {expected}")
