"""The Fourier stages' host table ``twiddle`` (kernels/CONTRACT.md), computed in float64.

Rows ``0 .. nphi-1`` hold ``(cos, sin)(2 pi k / nphi)``, what every family reads. When the
stages take the FFT path (``fft_path``: ``nphi / 2 = 2^a 3^b 5^c``), ``nphi / 2`` more rows
follow for the MLIR family's Stockham passes (``fft_passes``), one block per pass in the
order the passes run: for the radix-R pass of sub-transform length ``p`` (a product of the
radices before it), ``(cos, sin)(2 pi r k / (R p))`` at the block's row ``(r - 1) p + k``
(``r = 1 .. R-1``, ``k < p``; the first pass of radix 2 rotates nothing and has no block;
the last rows, as many as that pass's ``p``, are unused). The lanes of a warp then read
neighbouring rows, where the same rotations in the first ``nphi`` rows lie ``nphi / (R p)``
rows apart.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fft_mixed", "fft_passes", "fft_path", "twiddle", "twiddle_rows"]

FFT_MAX = 4096  # longest row of the FFT path (workgroup memory of the Fourier kernels)


def _smooth(n: int) -> bool:
    """Whether ``n >= 1`` has no prime factor but 2, 3 and 5."""
    for f in (2, 3, 5):
        while n % f == 0:
            n //= f
    return n == 1


def fft_path(nphi: int) -> bool:
    """Whether the Fourier stages transform rows of ``nphi`` points by FFT (``nphi`` even,
    ``4 <= nphi <= 4096``, ``nphi / 2`` a product of 2, 3 and 5: 1440, 2880, powers of two)
    rather than by a direct band-limited DFT. The WGSL family takes its FFT for powers of
    two only (kernels/CONTRACT.md); the table serves both."""
    return 4 <= nphi <= FFT_MAX and nphi % 2 == 0 and _smooth(nphi // 2)


def fft_mixed(nphi: int) -> bool:
    """Whether the FFT of rows of ``nphi`` points needs radix-3 or radix-5 passes (``nphi``
    on the FFT path, ``nphi / 2`` no power of two). The MLIR kernels of other plans are
    rendered without those passes: they hold more registers (the analysis 72 instead of 48
    on an H200), and a power-of-two FFT ran 16% slower with them in."""
    n = nphi // 2
    return fft_path(nphi) and n & (n - 1) != 0


def fft_passes(n: int) -> list[tuple[int, int]]:
    """The passes ``(radix, p)`` of the ``n``-point complex FFT of the MLIR Fourier kernels
    (kernels/mlir/fft_core.mlir), in the order they run, ``p`` the sub-transform length
    before the pass: one radix-2 pass when ``n``'s power of two has an odd exponent, radix 4
    for the rest of it, then radix 3, then radix 5."""
    two = n & -n
    p, passes = 1, []
    if (two.bit_length() - 1) % 2:
        passes.append((2, 1))
        p = 2
    for radix, more in ((4, lambda p: p < two), (3, lambda p: (n // p) % 3 == 0), (5, lambda p: p < n)):
        while more(p):
            passes.append((radix, p))
            p *= radix
    return passes


def twiddle_rows(nphi: int) -> int:
    """Rows of ``twiddle(nphi)``: ``nphi``, plus ``nphi / 2`` on the FFT path."""
    return nphi + (nphi // 2 if fft_path(nphi) else 0)


def twiddle(nphi: int, dtype: type = np.float64) -> np.ndarray:
    """The table ``(twiddle_rows(nphi), 2)`` of (cos, sin) pairs (module doc), computed in
    float64 and rounded once to ``dtype``."""
    ang = [np.arange(nphi) / nphi]
    if fft_path(nphi):
        n = nphi // 2
        blocks = [np.outer(np.arange(1, r), np.arange(p)).ravel() / (r * p)
                  for r, p in fft_passes(n) if r != 2]
        used = sum(b.size for b in blocks)
        ang += blocks + [np.zeros(n - used)]
    a = 2 * np.pi * np.concatenate(ang)
    return np.stack([np.cos(a), np.sin(a)], axis=-1).astype(dtype)
