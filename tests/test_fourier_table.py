"""The Fourier stages' twiddle table (ireesht/fourier.py, kernels/CONTRACT.md): the rows the
MLIR family's radix-R passes read hold the rotations the pass applies, exp(2 pi i r k / (R p)),
checked here against the table's own first NP rows (entry r k NP / (R p)), in float64."""

from __future__ import annotations

import numpy as np
import pytest

from ireesht import fourier


@pytest.mark.parametrize("nphi", [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])
def test_pass_blocks_hold_the_pass_rotations(nphi: int) -> None:
    t = fourier.twiddle(nphi)
    assert t.shape == (nphi + nphi // 2, 2) == (fourier.twiddle_rows(nphi), 2)
    k = np.arange(nphi)
    np.testing.assert_allclose(t[:nphi], np.stack([np.cos(2 * np.pi * k / nphi),
                                                   np.sin(2 * np.pi * k / nphi)], -1),
                               rtol=0, atol=1e-15)
    n = nphi // 2
    p = p0 = 2 if (n.bit_length() - 1) % 2 else 1
    rows = 0
    while p < n:
        for r in (1, 2, 3):
            for kk in range(p):
                row = nphi + (p - p0) + (r - 1) * p + kk
                assert row < nphi + n
                np.testing.assert_array_equal(t[row], t[r * kk * nphi // (4 * p) % nphi])
                rows += 1
        p *= 4
    assert rows == n - p0


@pytest.mark.parametrize("nphi", [6, 12, 30, 50, 360, 1440, 2880, 3888, 4050])
def test_mixed_radix_blocks_hold_the_pass_rotations(nphi: int) -> None:
    t = fourier.twiddle(nphi)
    n = nphi // 2
    assert fourier.fft_path(nphi) and t.shape == (nphi + n, 2)
    passes = fourier.fft_passes(n)
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
