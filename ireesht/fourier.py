"""The Fourier stages' host table ``twiddle`` (kernels/CONTRACT.md), computed in float64.

Rows ``0 .. nphi-1`` hold ``(cos, sin)(2 pi k / nphi)``, what every family reads. When the
stages take the FFT path (``fft_path``), ``nphi / 2`` more rows follow for the GPU families'
radix-4 passes, one block per pass in the order the passes run: for the pass of
sub-transform length ``p``, ``(cos, sin)(2 pi r k / (4 p))`` at row
``nphi + (p - p0) + (r - 1) p + k`` (``r = 1..3``, ``k < p``; ``p0`` = 2 when
``log2(nphi / 2)`` is odd, else 1; the last ``p0`` rows are unused). The lanes of a warp
then read neighbouring rows, where the same rotations in the first ``nphi`` rows lie
``nphi / (4 p)`` rows apart.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fft_path", "twiddle", "twiddle_rows"]

FFT_MAX = 4096  # longest row of the FFT path (workgroup memory of the Fourier kernels)


def fft_path(nphi: int) -> bool:
    """Whether the Fourier stages transform rows of ``nphi`` points by FFT (a power of two,
    ``4 <= nphi <= 4096``) rather than by a direct band-limited DFT."""
    return 4 <= nphi <= FFT_MAX and nphi & (nphi - 1) == 0


def twiddle_rows(nphi: int) -> int:
    """Rows of ``twiddle(nphi)``: ``nphi``, plus ``nphi / 2`` on the FFT path."""
    return nphi + (nphi // 2 if fft_path(nphi) else 0)


def twiddle(nphi: int, dtype: type = np.float64) -> np.ndarray:
    """The table ``(twiddle_rows(nphi), 2)`` of (cos, sin) pairs (module doc), computed in
    float64 and rounded once to ``dtype``."""
    ang = [np.arange(nphi) / nphi]
    if fft_path(nphi):
        n = nphi // 2
        p = p0 = 2 if (n.bit_length() - 1) % 2 else 1
        while p < n:  # radix-4 passes p0, 4 p0, ..., n / 4
            ang += [np.outer(np.arange(1, 4), np.arange(p)).ravel() / (4 * p)]
            p *= 4
        ang += [np.zeros(p0)]
    a = 2 * np.pi * np.concatenate(ang)
    return np.stack([np.cos(a), np.sin(a)], axis=-1).astype(dtype)
