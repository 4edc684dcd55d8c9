"""The Fourier stages' host table ``twiddle`` (docs/design.md), computed in float64.

Rows ``0 .. nphi-1`` hold ``(cos, sin)(2 pi k / nphi)``, what every family reads. What
follows depends on the kernel family (``twiddle(nphi, dtype, family)``):

* MLIR family (``stockham_twiddle``): when the stages take the FFT path (``fft_path``:
  ``nphi / 2 = 2^a 3^b 5^c``), ``nphi / 2`` more rows follow for the Stockham passes
  (``fft_passes`` with ``RADIX["mlir"]``), one block per pass in the order the passes run:
  for the radix-R pass of sub-transform length ``p`` (a product of the radices before it),
  ``(cos, sin)(2 pi r k / (R p))`` at the block's row ``(r - 1) p + k`` (``r = 1 .. R-1``,
  ``k < p``; a first pass of radix 2 rotates nothing and has no block; the last rows, as
  many as that pass's ``p``, are unused). The lanes of a warp then read neighbouring rows,
  where the same rotations in the first ``nphi`` rows lie ``nphi / (R p)`` rows apart.
* C and WGSL families (``row_fft``): the table carries the row FFT's whole plan, so that
  the kernels follow it rather than derive it: after the ``nphi`` rows, one header row
  ``(n, m)`` (``n``: complex points of the row FFT, ``nphi / 2`` for even ``nphi``, else
  ``nphi``; ``m``: points of the Stockham FFT that computes it, ``n`` itself when ``n`` is
  a product of 2, 3 and 5, else Bluestein's ``m >= 2 n - 1``; ``(0, 0)``: the direct DFT),
  then one row ``(R, p)`` per pass of the ``m``-point FFT (``fft_passes(m, 4)``) and a row
  ``(0, 0)`` after the last, then the passes' blocks as above (every pass has one, the
  first's ``R - 1`` rows all ``(1, 0)``; ``m - 1`` rows in all), then for Bluestein ``n``
  rows of the chirp ``(cos, sin)(pi t^2 / n)`` and ``m`` rows of the filter's spectrum
  ``B_k / m``, ``B = DFT_m(b)``, ``b_j = exp(-i pi j^2 / n)`` for ``|j| < n`` (index
  ``j mod m``), else 0. The counts are exact in float32 (``< 2^24``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["RowFFT", "direct_dft", "fft_mixed", "fft_passes", "fft_path", "fft_size", "row_fft",
           "stockham_twiddle", "twiddle", "twiddle_rows"]

FFT_MAX = 4096  # longest row of the FFT path (workgroup memory of the Fourier kernels)
# Longest Stockham FFT of the C and WGSL kernels, complex points: their buffers (the WGSL
# family's 16 KB of workgroup memory, the C family's stack scratch, kernels/c/README.md)
ROW_FFT_MAX = 2048
# The largest radix of each kernel family's power-of-two FFT passes, which the twiddle table's
# pass rows follow
RADIX = {"mlir": 16, "wgsl": 4, "c": 4}


def _smooth(n: int) -> bool:
    """Whether ``n >= 1`` has no prime factor but 2, 3 and 5."""
    for f in (2, 3, 5):
        while n % f == 0:
            n //= f
    return n == 1


def fft_path(nphi: int) -> bool:
    """Whether the MLIR family's Fourier stages transform rows of ``nphi`` points by FFT
    (``nphi`` even, ``4 <= nphi <= 4096``, ``nphi / 2`` a product of 2, 3 and 5: 1440,
    2880, powers of two) rather than by a direct band-limited DFT. The C and WGSL families
    follow ``row_fft``."""
    return 4 <= nphi <= FFT_MAX and nphi % 2 == 0 and _smooth(nphi // 2)


def fft_size(nphi: int) -> int:
    """The smallest even row length ``>= nphi`` whose half is ``2^a 3^b 5^c`` (``nphi`` itself
    when it is one): every family's Fourier stages transform such rows by FFT, the MLIR family
    up to ``FFT_MAX`` points. Off that path the MLIR family runs a direct DFT: on an H100,
    lmax 720 on the 721 x 1442 Gauss grid took 1.76 ms per CUDA synthesis against 0.052 ms
    on 721 x 1458 (``default_sizes`` rounds its ``nphi`` up with this)."""
    half, best = max(1, -(-nphi // 2)), None
    p5 = 1
    while p5 < 2 * half:  # each 3^b 5^c below 2 half, doubled up to half
        p = p5
        while p < 2 * half:
            n = p
            while n < half:
                n *= 2
            best = n if best is None else min(best, n)
            p *= 3
        p5 *= 5
    return 2 * best


def direct_dft(nphi: int, family: str) -> bool:
    """Whether kernel family ``family``'s Fourier stages transform rows of ``nphi`` points by
    a direct DFT, O(nphi mmax) per ring, rather than an FFT (``fft_path``; ``row_fft`` for
    the C and WGSL families)."""
    return not fft_path(nphi) if family == "mlir" else row_fft(nphi, family).n == 0


def fft_mixed(nphi: int) -> bool:
    """Whether the FFT of rows of ``nphi`` points needs radix-3 or radix-5 passes (``nphi``
    on the FFT path, ``nphi / 2`` no power of two). The MLIR kernels of other plans are
    rendered without those passes: they hold more registers (the analysis 72 instead of 48
    on an H200), and a power-of-two FFT ran 16% slower with them in."""
    n = nphi // 2
    return fft_path(nphi) and n & (n - 1) != 0


def fft_passes(n: int, radix: int = 8) -> list[tuple[int, int]]:
    """The passes ``(R, p)`` of the ``n``-point complex FFT (``n = 2^a 3^b 5^c``) of a
    kernel family whose largest power-of-two radix is ``radix`` (``RADIX``: 16 for
    kernels/mlir/fft_core.mlir, 4 for the C and WGSL kernels), in the order they run, ``p``
    the sub-transform length before the pass: for ``n``'s power of two ``2^a``, one pass of
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


class RowFFT(NamedTuple):
    """How the C and WGSL families' Fourier stages transform a row of ``nphi`` points
    (``row_fft``): ``n`` complex points (0: the direct DFT), by an ``m``-point Stockham
    FFT of passes ``passes`` (Bluestein when ``m != n``)."""
    n: int
    m: int
    passes: tuple[tuple[int, int], ...]

    @property
    def bluestein(self) -> bool:
        return self.m != self.n


def row_fft(nphi: int, family: str = "c") -> RowFFT:
    """The row FFT of the C and WGSL families for rows of ``nphi`` points (module doc): a
    real row of even ``nphi`` as ``n = nphi / 2`` complex points, of odd ``nphi`` as ``n =
    nphi`` (imaginary parts 0); ``m = n`` when ``n = 2^a 3^b 5^c``, else Bluestein's
    convolution through the smallest such ``m >= 2 n - 1``; the direct DFT (``n = 0``) when
    ``m`` would pass ``ROW_FFT_MAX`` or ``n < 2``."""
    if family not in ("c", "wgsl"):
        raise ValueError(f"family={family!r}: row_fft serves the 'c' and 'wgsl' families")
    n = nphi // 2 if nphi % 2 == 0 else nphi
    m = n if _smooth(n) else next(k for k in range(2 * n - 1, 4 * n) if _smooth(k))
    if n < 2 or m > ROW_FFT_MAX:
        return RowFFT(0, 0, ())
    return RowFFT(n, m, tuple(fft_passes(m, RADIX[family])))


def twiddle_rows(nphi: int, family: str = "mlir") -> int:
    """Rows of ``twiddle(nphi, family=family)``."""
    if family == "mlir":
        return nphi + (nphi // 2 if fft_path(nphi) else 0)
    plan = row_fft(nphi, family)
    if not plan.n:
        return nphi + 1
    return nphi + 1 + len(plan.passes) + 1 + plan.m - 1 + (plan.n + plan.m if plan.bluestein
                                                           else 0)


def _turns(frac: np.ndarray) -> np.ndarray:
    """``(cos, sin)(2 pi frac)``, ``(len, 2)`` float64."""
    a = 2 * np.pi * frac
    return np.stack([np.cos(a), np.sin(a)], axis=-1)


def stockham_twiddle(nphi: int, dtype: type = np.float64, radix: int = 8) -> np.ndarray:
    """The MLIR family's table ``(twiddle_rows(nphi), 2)`` (module doc), its pass rows those
    of ``fft_passes(nphi / 2, radix)``, computed in float64 and rounded once to ``dtype``."""
    ang = [np.arange(nphi) / nphi]
    if fft_path(nphi):
        n = nphi // 2
        blocks = [np.outer(np.arange(1, r), np.arange(p)).ravel() / (r * p)
                  for r, p in fft_passes(n, radix) if r != 2]
        used = sum(b.size for b in blocks)
        ang += blocks + [np.zeros(n - used)]
    return _turns(np.concatenate(ang)).astype(dtype)


def _row_fft_table(nphi: int, family: str) -> np.ndarray:
    """The C and WGSL families' table in float64 (module doc)."""
    plan = row_fft(nphi, family)
    head = [(plan.n, plan.m)]
    parts = [_turns(np.arange(nphi) / nphi), np.array(head, np.float64)]
    if not plan.n:
        return np.concatenate(parts)
    parts.append(np.array([*plan.passes, (0, 0)], np.float64))
    parts += [_turns(np.outer(np.arange(1, r), np.arange(p)).ravel() / (r * p))
              for r, p in plan.passes]
    if plan.bluestein:
        n, m = plan.n, plan.m
        t = np.arange(n)
        # pi t^2 / n as a turn, t^2 reduced mod 2n in integers: exact angles for any n here
        parts.append(_turns((t * t % (2 * n)) / (2 * n)))
        b = np.zeros(m, np.complex128)
        b[:n] = np.exp(-1j * np.pi * (t * t % (2 * n)) / n)
        b[m - n + 1:] = b[1:n][::-1]  # b_{-j} = b_j
        spec = np.fft.fft(b) / m
        parts.append(np.stack([spec.real, spec.imag], axis=-1))
    return np.concatenate(parts)


def twiddle(nphi: int, dtype: type = np.float64, family: str = "mlir") -> np.ndarray:
    """The Fourier stages' table ``(twiddle_rows(nphi, family), 2)`` of the kernel family
    ``family`` (``"mlir"``, ``"wgsl"``, ``"c"``; module doc), computed in float64 and
    rounded once to ``dtype``."""
    if family == "mlir":
        return stockham_twiddle(nphi, dtype, RADIX["mlir"])
    if family not in RADIX:
        raise ValueError(f"family={family!r}: expected one of {sorted(RADIX)}")
    return _row_fft_table(nphi, family).astype(dtype)
