"""The Fourier stages' host table ``twiddle`` (docs/design.md), computed in float64.

Rows ``0 .. nphi-1`` hold ``(cos, sin)(2 pi k / nphi)``, what every family reads. When the
stages take the FFT path (``fft_path``: ``nphi / 2 = 2^a 3^b 5^c``), ``nphi / 2`` more rows
follow for the Stockham passes of the plan's kernel family (``fft_passes`` with the family's
``RADIX``: the MLIR family's, and the WGSL family's for powers of two), one block per pass
in the order the passes run: for the radix-R pass of sub-transform length ``p`` (a product
of the radices before it), ``(cos, sin)(2 pi r k / (R p))`` at the block's row
``(r - 1) p + k`` (``r = 1 .. R-1``, ``k < p``; a first pass of radix 2 rotates nothing and
has no block; the last rows, as many as that pass's ``p``, are unused). The lanes of a warp
then read neighbouring rows, where the same rotations in the first ``nphi`` rows lie
``nphi / (R p)`` rows apart.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fft_mixed", "fft_passes", "fft_path", "twiddle", "twiddle_rows"]

FFT_MAX = 4096  # longest row of the FFT path (workgroup memory of the Fourier kernels)
# The largest radix of each kernel family's power-of-two FFT passes, which the twiddle table's
# pass rows follow (the C family reads rows 0 .. nphi-1 only)
RADIX = {"mlir": 16, "wgsl": 4, "c": 4}


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
    two only (docs/design.md); the table serves both."""
    return 4 <= nphi <= FFT_MAX and nphi % 2 == 0 and _smooth(nphi // 2)


def fft_mixed(nphi: int) -> bool:
    """Whether the FFT of rows of ``nphi`` points needs radix-3 or radix-5 passes (``nphi``
    on the FFT path, ``nphi / 2`` no power of two). The MLIR kernels of other plans are
    rendered without those passes: they hold more registers (the analysis 72 instead of 48
    on an H200), and a power-of-two FFT ran 16% slower with them in."""
    n = nphi // 2
    return fft_path(nphi) and n & (n - 1) != 0


def fft_passes(n: int, radix: int = 8) -> list[tuple[int, int]]:
    """The passes ``(R, p)`` of the ``n``-point complex FFT of a kernel family whose largest
    power-of-two radix is ``radix`` (``RADIX``: 16 for kernels/mlir/fft_core.mlir, 4 for the
    WGSL kernels, which take powers of two only), in the order they run, ``p`` the
    sub-transform length before the pass: for ``n``'s power of two ``2^a``, one pass of
    radix ``2^(a mod log2 radix)`` when that is not 1, radix ``radix`` for the rest of it,
    then radix 3, then radix 5. A radix of 16 falls back to 8 where 16 takes as many passes
    (a = 9: 2 16 16 against 8 8 8), since its passes have half the butterflies (on an H200
    the 512-point FFT ran 6 against 8 us with radix 8)."""
    two = n & -n
    a = two.bit_length() - 1
    if radix == 16 and -(-a // 4) == -(-a // 3):
        radix = 8
    p, passes = 1, []
    first = 1 << (a % (radix.bit_length() - 1))
    if first > 1:
        passes.append((first, 1))
        p = first
    for r, more in ((radix, lambda p: p < two), (3, lambda p: (n // p) % 3 == 0),
                    (5, lambda p: p < n)):
        while more(p):
            passes.append((r, p))
            p *= r
    return passes


def twiddle_rows(nphi: int) -> int:
    """Rows of ``twiddle(nphi)``: ``nphi``, plus ``nphi / 2`` on the FFT path."""
    return nphi + (nphi // 2 if fft_path(nphi) else 0)


def twiddle(nphi: int, dtype: type = np.float64, radix: int = 8) -> np.ndarray:
    """The table ``(twiddle_rows(nphi), 2)`` of (cos, sin) pairs (module doc), its pass rows
    those of ``fft_passes(nphi / 2, radix)`` (``RADIX[family]``), computed in float64 and
    rounded once to ``dtype``."""
    ang = [np.arange(nphi) / nphi]
    if fft_path(nphi):
        n = nphi // 2
        blocks = [np.outer(np.arange(1, r), np.arange(p)).ravel() / (r * p)
                  for r, p in fft_passes(n, radix) if r != 2]
        used = sum(b.size for b in blocks)
        ang += blocks + [np.zeros(n - used)]
    a = 2 * np.pi * np.concatenate(ang)
    return np.stack([np.cos(a), np.sin(a)], axis=-1).astype(dtype)
