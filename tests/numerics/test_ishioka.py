"""The Ishioka recurrence's tables (ireesht/numerics/ishioka.py) against the independent float64
reference (ireesht/numerics/reference.py), and the closed form of their row offsets."""

from __future__ import annotations

import numpy as np
import pytest

from ireesht.numerics import grid, ishioka, reference


@pytest.mark.parametrize("lmax", [0, 1, 2, 40, 255])
def test_synthesis_by_the_chain_matches_reference(rng, lmax):
    # nlat odd: the equator row (x = 0) too, where the even values come from a difference
    # of two odd ones
    g = grid.make_grid("gauss", lmax + 2, 2 * lmax + 4)
    x, s = g.cost, g.sint
    for m in sorted({0, 1, lmax // 3, lmax - 1, lmax} & set(range(lmax + 1))):
        p = reference.legendre_values(lmax, m, x, s)  # (lmax+1-m, nlat)
        q = rng.uniform(-1, 1, lmax + 1 - m) + 1j * rng.uniform(-1, 1, lmax + 1 - m)
        north, south = ishioka.synth_order(lmax, m, q, x, p[0])
        parity = (-1.0) ** np.arange(lmax + 1 - m)
        # float64 rounding, amplified next to the equator by up to ~lmax / 2
        scale = np.abs(q @ p).max()
        np.testing.assert_allclose(north, q @ p, rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(south, (q * parity) @ p, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("lmax", [0, 1, 2, 41, 255])
def test_chain_gives_each_degree_value(lmax):
    # the factors of the tensor-core synthesis (kernels/mlir/leg_synth_mma.mlir): each even
    # degree P_{m+2k} = e1_k y_k + e2_{k-1} y_{k-1}, each odd one x g_k y_k
    g = grid.make_grid("gauss", lmax + 2, 2 * lmax + 4)
    x, s = g.cost, g.sint
    for m in sorted({0, 1, lmax // 3, lmax - 1, lmax} & set(range(lmax + 1))):
        p = reference.legendre_values(lmax, m, x, s)
        rows = ishioka.order_chain(lmax, m)
        y0, y1, e2 = np.zeros_like(x), ishioka.seed_factor(m) * p[0], 0.0
        values = np.zeros((2 * rows.shape[0] + 1, x.size))
        for k, (alpha, beta, e1, e2k, gk) in enumerate(rows):
            values[2 * k] = e1 * y1 + e2 * y0
            values[2 * k + 1] = x * gk * y1
            y1, y0, e2 = (alpha * x * x + beta) * y1 + y0, y1, e2k
        np.testing.assert_allclose(values[: lmax + 1 - m], p, rtol=0, atol=1e-12 * np.abs(p).max())


@pytest.mark.parametrize("lmax", [0, 1, 2, 3, 10, 11, 1023])
def test_offsets_are_the_running_sums_of_the_steps(lmax):
    steps = [ishioka.steps(lmax, m) for m in range(lmax + 1)]
    offsets = [ishioka.offset(lmax, m) for m in range(lmax + 2)]
    assert offsets == [0, *np.cumsum(steps).tolist()]
    table = ishioka.chain_table(lmax, lmax // 2)
    assert table.shape == (ishioka.offset(lmax, lmax // 2 + 1), ishioka.COLUMNS)


def test_chain_scale_stays_near_one():
    # y_k = O_k / g_k: g is a running product of every other C_k, which tends to -1; the
    # kernels' float64 state relies on it staying a few powers of two from 1
    table = ishioka.chain_table(4095, 4095)
    assert np.all(np.isfinite(table))
    g = np.abs(table[:, 4])
    assert g.min() > 2.0**-5 and g.max() < 2.0


@pytest.mark.parametrize("lmax, mmax, segment", [(63, 63, 7), (127, 90, 15), (40, 40, 1)])
def test_restart_states_are_the_chain_where_segments_start(lmax, mmax, segment):
    # leg_analys_lanes64.mlir's segments start from these states: (y_{kb-1}, y_kb) at
    # kb = s segment - 1, and x g_k y_k = P_{m+2k+1}
    g = grid.make_grid("gauss", lmax + 1, 2 * lmax + 2)
    x, s = g.cost, g.sint
    y0 = np.array([ishioka.seed_factor(m) * reference.legendre_values(lmax, m, x, s)[0]
                   for m in range(mmax + 1)])
    rows, states = ishioka.restart_states(lmax, mmax, ishioka.chain_table(lmax, mmax), x * x,
                                          y0, segment)
    nseg = [-(-ishioka.steps(lmax, m) // segment) for m in range(mmax + 1)]
    assert rows.tolist() == [0, *np.cumsum([n - 1 for n in nseg])[:-1].tolist()]
    assert states.shape == (sum(nseg) - mmax - 1, x.size, 2)
    assert ishioka.segment_rows(lmax, mmax, segment)[1] == len(states)
    for m in range(mmax + 1):
        p = reference.legendre_values(lmax, m, x, s)
        gk = ishioka.order_chain(lmax, m)[:, 4]
        for seg in range(1, nseg[m]):
            kb = seg * segment - 1
            for col, k in ((0, kb - 1), (1, kb)):
                if k >= 0 and 2 * k + 1 <= lmax - m:
                    got = x * gk[k] * states[rows[m] + seg - 1, :, col]
                    np.testing.assert_allclose(got, p[2 * k + 1], rtol=0,
                                               atol=1e-12 * np.abs(p).max())
