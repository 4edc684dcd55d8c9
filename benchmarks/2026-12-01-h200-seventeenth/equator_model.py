"""Here: `equator_model.py`: a numpy model of leg_synth_ishioka.mlir's float32 sums with several
fields per thread (each y_k and modified coefficient rounded to float32, products and sums in
float32), lmax 1023, a few orders: the largest error of F relative to the order's largest
value, the row's x, and the L2 error, against the float64 values of ireesht.reference."""
import numpy as np

from ireesht import grid, ishioka, reference

LMAX = 1023
g = grid.make_grid("gauss", LMAX + 1, 2 * LMAX + 2)
pairs = (LMAX + 2) // 2
x, s = g.cost[:pairs], g.sint[:pairs]
rng = np.random.default_rng(1)
f32 = np.float32
worst, num, den = 0.0, 0.0, 0.0
for m in (0, 1, 50, 300, 700):
    p = reference.legendre_values(LMAX, m, x, s)
    q = rng.uniform(-1, 1, LMAX + 1 - m) + 1j * rng.uniform(-1, 1, LMAX + 1 - m)
    exact = q @ p
    rows = ishioka.order_chain(LMAX, m)
    qx = np.zeros(LMAX - m + 3, complex)
    qx[: LMAX + 1 - m] = q
    k = np.arange(rows.shape[0])
    qe = rows[:, 2] * qx[2 * k] + rows[:, 3] * qx[2 * k + 2]
    qo = rows[:, 4] * qx[2 * k + 1]
    coef = [c.astype(f32) for c in (qe.real, qe.imag, qo.real, qo.imag)]
    sums = [np.zeros(pairs, f32) for _ in range(4)]
    y0, y1 = np.zeros_like(x), ishioka.seed_factor(m) * p[0]
    for j in range(rows.shape[0]):
        v = y1.astype(f32)
        sums = [(acc + v * c[j]).astype(f32) for acc, c in zip(sums, coef)]
        y1, y0 = (rows[j, 0] * x * x + rows[j, 1]) * y1 + y0, y1
    er, ei, o_r, oi = (a.astype(float) for a in sums)
    err = np.abs(er + 1j * ei + x * (o_r + 1j * oi) - exact)
    worst = max(worst, err.max() / np.abs(exact).max())
    num, den = num + np.sum(err**2), den + np.sum(np.abs(exact) ** 2)
    print(f"m {m:4d}  largest {err.max() / np.abs(exact).max():.2e} at x {x[np.argmax(err)]:.2e}  "
          f"L2 {np.sqrt(np.sum(err**2) / np.sum(np.abs(exact) ** 2)):.2e}")
print(f"largest {worst:.2e}, L2 {np.sqrt(num / den):.2e}")
