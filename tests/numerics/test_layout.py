"""Packed m-major coefficient layout and its dense form."""

import numpy as np
import pytest

from ireesht.numerics.layout import lm_index, lm_indices, m_offsets, nlm, pack, unpack

SHAPES = [(0, 0), (1, 0), (1, 1), (5, 2), (7, 7), (16, 9), (31, 31)]


def _random_dense(rng, batch, lmax, mmax):
    d = rng.standard_normal(batch + (lmax + 1, mmax + 1)) + 1j * rng.standard_normal(
        batch + (lmax + 1, mmax + 1)
    )
    return d


@pytest.mark.parametrize("lmax,mmax", SHAPES)
def test_nlm_counts_pairs(lmax, mmax):
    assert nlm(lmax, mmax) == sum(1 for m in range(mmax + 1) for _ in range(m, lmax + 1))


@pytest.mark.parametrize("lmax,mmax", SHAPES)
def test_lm_index_enumerates_m_major(lmax, mmax):
    order = [(l, m) for m in range(mmax + 1) for l in range(m, lmax + 1)]
    assert [lm_index(l, m, lmax) for l, m in order] == list(range(nlm(lmax, mmax)))


def test_lm_index_formula_and_arrays():
    lmax = 10
    assert lm_index(3, 2, lmax) == 2 * (2 * lmax + 3 - 2) // 2 + 1
    l = np.array([[0, 5], [10, 7]])
    m = np.array([[0, 5], [3, 0]])
    got = lm_index(l, m, lmax)
    assert got.dtype == np.int64 and got.shape == (2, 2)
    assert got.tolist() == [[lm_index(int(a), int(b), lmax) for a, b in zip(r, s)] for r, s in zip(l, m)]


@pytest.mark.parametrize("lmax,mmax", SHAPES)
def test_m_offsets_point_at_l_equals_m(lmax, mmax):
    off = m_offsets(lmax, mmax)
    assert off.dtype == np.int64 and off.shape == (mmax + 1,)
    assert off.tolist() == [lm_index(m, m, lmax) for m in range(mmax + 1)]


@pytest.mark.parametrize("lmax,mmax", SHAPES)
def test_pack_unpack_roundtrip_batched(lmax, mmax):
    rng = np.random.default_rng()
    batch = (2, 3)
    q = rng.standard_normal(batch + (nlm(lmax, mmax),)) + 1j * rng.standard_normal(
        batch + (nlm(lmax, mmax),)
    )
    dense = unpack(q, lmax, mmax)
    assert dense.shape == batch + (lmax + 1, mmax + 1)
    np.testing.assert_array_equal(pack(dense), q)


def test_unpack_places_entries_and_zeroes_l_below_m():
    rng = np.random.default_rng()
    lmax, mmax = 6, 4
    q = rng.standard_normal(nlm(lmax, mmax)) + 1j * rng.standard_normal(nlm(lmax, mmax))
    dense = unpack(q, lmax, mmax)
    for m in range(mmax + 1):
        for l in range(lmax + 1):
            want = q[lm_index(l, m, lmax)] if l >= m else 0
            assert dense[l, m] == want


def test_pack_ignores_entries_with_l_below_m():
    rng = np.random.default_rng()
    d = _random_dense(rng, (), 5, 5)
    d2 = d.copy()
    d2[np.triu_indices(6, k=1)] = 123.0 + 4j   # (l < m): not coefficients
    np.testing.assert_array_equal(pack(d), pack(d2))


def test_pack_keeps_single_precision():
    rng = np.random.default_rng()
    d = _random_dense(rng, (), 4, 3).astype(np.complex64)
    assert pack(d).dtype == np.complex64
    assert pack(d.real.astype(np.float64)).dtype == np.complex128
    assert unpack(pack(d), 4, 3).dtype == np.complex64


# ------------------------------------------------------------------- validation

def test_nlm_rejects_mmax_above_lmax():
    with pytest.raises(ValueError, match="mmax=4"):
        nlm(3, 4)


def test_nlm_rejects_negative_or_non_integer_lmax():
    with pytest.raises(ValueError, match="lmax=-1"):
        nlm(-1, 0)
    with pytest.raises(ValueError, match="lmax=2.0"):
        nlm(2.0, 0)


def test_lm_index_rejects_m_above_l():
    with pytest.raises(ValueError, match="m=3"):
        lm_index(2, 3, 5)


def test_lm_index_rejects_l_above_lmax():
    with pytest.raises(ValueError, match="l=6"):
        lm_index(6, 0, 5)
    with pytest.raises(ValueError, match="lmax=5"):
        lm_index(np.array([1, 6]), np.array([0, 0]), 5)


def test_pack_rejects_mmax_above_lmax_shape():
    with pytest.raises(ValueError, match="mmax"):
        pack(np.zeros((3, 5), dtype=complex))


def test_pack_rejects_one_dimensional_input():
    with pytest.raises(ValueError, match="dense"):
        pack(np.zeros(5, dtype=complex))


def test_pack_rejects_non_finite():
    d = np.ones((4, 4), dtype=complex)
    d[2, 1] = np.nan
    with pytest.raises(ValueError, match="finite"):
        pack(d)


def test_unpack_rejects_wrong_length():
    with pytest.raises(ValueError, match="nlm=15"):
        unpack(np.ones(14, dtype=complex), 4, 4)


def test_unpack_rejects_non_numeric():
    with pytest.raises(ValueError, match="dtype"):
        unpack(np.array(["a"] * 15), 4, 4)


@pytest.mark.parametrize("lmax,mmax", SHAPES)
def test_lm_indices_give_the_degree_and_order_of_each_packed_index(lmax, mmax):
    l, m = lm_indices(lmax, mmax)
    assert l.shape == m.shape == (nlm(lmax, mmax),)
    np.testing.assert_array_equal(lm_index(l, m, lmax), np.arange(l.size))
    assert m.max() == mmax and l.max() == lmax
