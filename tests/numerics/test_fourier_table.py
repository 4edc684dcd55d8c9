"""The Fourier stages' twiddle table (ireesht/numerics/fourier.py, docs/design.md): the rows the
MLIR family's radix-R passes read hold the rotations the pass applies, exp(2 pi i r k / (R p)),
checked here against the table's own first NP rows (entry r k NP / (R p)), in float64."""

from __future__ import annotations

import numpy as np
import pytest

from ireesht.numerics import fourier


# The MLIR family's passes (fourier.RADIX["mlir"] = 16): radix 16 where it takes fewer passes
# than radix 8, after one pass of the remainder's radix
MLIR_PASSES = {2: [2], 4: [4], 8: [8], 16: [16], 32: [4, 8], 64: [8, 8], 128: [8, 16],
               256: [16, 16], 512: [8, 8, 8], 1024: [4, 16, 16], 2048: [8, 16, 16]}


@pytest.mark.parametrize("nphi", [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])
def test_power_of_two_rows_take_the_familys_passes(nphi: int) -> None:
    t = fourier.twiddle(nphi)
    assert t.shape == (nphi + nphi // 2, 2) == (fourier.twiddle_rows(nphi), 2)
    k = np.arange(nphi)
    np.testing.assert_allclose(t[:nphi], np.stack([np.cos(2 * np.pi * k / nphi),
                                                   np.sin(2 * np.pi * k / nphi)], -1),
                               rtol=0, atol=1e-15)
    # radix 8: one pass of radix 2 or 4 when log2(n) is no multiple of 3, first, radix 8
    # after it; WGSL: one of radix 2 when log2(n) is odd, radix 4 after it
    n = nphi // 2
    a = n.bit_length() - 1
    first = {0: [], 1: [2], 2: [4]}[a % 3]
    assert [r for r, _ in fourier.fft_passes(n, 8)] == first + [8] * (a // 3)
    assert [r for r, _ in fourier.fft_passes(n, 4)] == [2] * (a % 2) + [4] * (a // 2)
    assert [r for r, _ in fourier.fft_passes(n, fourier.RADIX["mlir"])] == MLIR_PASSES[n]


@pytest.mark.parametrize("nphi,radix", [*[(n, r) for n in (4, 8, 16, 32, 64, 128, 256, 512, 1024,
                                                            2048, 4096) for r in (4, 8, 16)],
                                         *[(n, r) for n in (6, 12, 30, 50, 360, 1440, 2880, 3888,
                                                            4050) for r in (8, 16)]])
def test_pass_blocks_hold_the_pass_rotations(nphi: int, radix: int) -> None:
    t = fourier.twiddle(nphi, np.float64, radix)
    n = nphi // 2
    assert fourier.fft_path(nphi) and t.shape == (nphi + n, 2)
    passes = fourier.fft_passes(n, radix)
    assert int(np.prod([r for r, _ in passes])) == n
    row = nphi
    for r, p in passes:
        assert p == int(np.prod([rr for rr, pp in passes if pp < p]))
        if r == 2:
            continue
        for rr in range(1, r):
            for kk in range(p):
                np.testing.assert_array_equal(t[row], t[rr * kk * nphi // (r * p) % nphi])
                row += 1
    assert row <= nphi + n


@pytest.mark.parametrize("nphi", [2, 3, 14, 98, 8192, 4100])
def test_direct_path_has_no_pass_rows(nphi: int) -> None:
    assert not fourier.fft_path(nphi)
    assert fourier.twiddle(nphi, np.float32).shape == (nphi, 2)
