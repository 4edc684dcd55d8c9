"""The Fourier stages' twiddle table (ireesht/numerics/fourier.py, docs/design.md): the rows the
MLIR family's radix-R passes read hold the rotations the pass applies, exp(2 pi i r k / (R p)),
checked here against the table's own first NP rows (entry r k NP / (R p)), in float64; the C
and WGSL families' table holds the row FFT's whole plan, checked by running that plan in
numpy from the table alone against numpy.fft."""

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
    t = fourier.stockham_twiddle(nphi, np.float64, radix)
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


def _row_dft(t: np.ndarray, nphi: int, x: np.ndarray, sgn: int) -> np.ndarray:
    """The C and WGSL kernels' row DFT (kernels/c/sht_fft.h row_dft) in numpy, read from the
    table ``t`` alone: sum_t x_t exp(sgn 2 pi i k t / n)."""
    n, m = (int(v) for v in t[nphi])
    passes, row = [], nphi + 1
    while t[row, 0] != 0:
        passes.append((int(t[row, 0]), int(t[row, 1])))
        row += 1
    blocks = row + 1
    rows = t[:, 0] + 1j * sgn * t[:, 1]

    def stockham(z: np.ndarray, s: int) -> np.ndarray:
        tb = blocks
        for r, p in passes:
            w = (t[tb:tb + (r - 1) * p, 0] + 1j * s * t[tb:tb + (r - 1) * p, 1]).reshape(r - 1, p)
            tb += (r - 1) * p
            nb = m // r
            x_ = z.reshape(r, nb // p, p)  # x[i + r nb], i = b p + k
            a = np.concatenate([x_[:1], x_[1:] * w[:, None, :]])
            e = np.exp(s * 2j * np.pi * np.outer(np.arange(r), np.arange(r)) / r)
            y = np.einsum("qr,rbk->bqk", e, a)  # y[(b r + q) p + k]
            z = y.reshape(m)
        return z

    if m == n:
        return stockham(x.astype(complex), sgn)
    chirp = rows[blocks + m - 1: blocks + m - 1 + n]
    spec = t[blocks + m - 1 + n: blocks + 2 * m - 1 + n]
    spec = spec[:, 0] + 1j * spec[:, 1]
    filt = spec if sgn > 0 else np.conj(spec[(m - np.arange(m)) % m])
    a = np.zeros(m, complex)
    a[:n] = x * chirp
    return chirp * stockham(stockham(a, -1) * filt, 1)[:n]


# powers of two, 3 2^k, 5 2^k, the ERA5 rows, odd rows, primes, products with a large prime
ROW_FFT = [4, 8, 64, 4096, 6, 48, 96, 10, 80, 360, 1440, 2880, 3, 15, 45, 97, 91, 98, 606, 1018,
           2042]


@pytest.mark.parametrize("family", ["c", "wgsl"])
@pytest.mark.parametrize("nphi", ROW_FFT)
def test_row_fft_table_runs_as_the_dft(rng, family: str, nphi: int) -> None:
    plan = fourier.row_fft(nphi, family)
    t = fourier.twiddle(nphi, np.float64, family)
    assert t.shape == (fourier.twiddle_rows(nphi, family), 2)
    n = nphi // 2 if nphi % 2 == 0 else nphi
    assert plan.n == n and plan.m >= (2 * n - 1 if plan.bluestein else n)
    assert int(np.prod([r for r, _ in plan.passes])) == plan.m
    assert {r for r, _ in plan.passes} <= {2, 3, 4, 5}
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    for sgn, ref in ((-1, np.fft.fft(x)), (1, np.fft.ifft(x) * n)):
        got = _row_dft(t, nphi, x, sgn)
        # float64 table: Bluestein's three FFTs stay within a few 1e-15
        assert np.linalg.norm(got - ref) <= 1e-13 * np.linalg.norm(ref), (nphi, sgn)


@pytest.mark.parametrize("nphi,why", [(2, "n < 2"), (1447, "Bluestein m > 2048"),
                                      (2894, "Bluestein m > 2048"), (4100, "n > 2048"),
                                      (8192, "n > 2048")])
def test_row_fft_direct_dft_has_a_header_only(nphi: int, why: str) -> None:
    assert fourier.row_fft(nphi, "c").n == 0, why
    t = fourier.twiddle(nphi, np.float32, "wgsl")
    assert t.shape == (nphi + 1, 2) and (t[nphi] == 0).all()


def test_row_fft_serves_the_c_and_wgsl_families_only() -> None:
    with pytest.raises(ValueError, match="family='mlir'"):
        fourier.row_fft(1440, "mlir")
    with pytest.raises(ValueError, match="family='cuda'"):
        fourier.twiddle(1440, np.float32, "cuda")
