"""On the 2-core machine: the test field of proto.py at lmax LMAX: random coefficients q
(uniform in [-1, 1], m = 0 imaginary part 0) and F[i, m] = sum_l q_lm P_lm(x_i) on the Gauss
grid (float64 reference Legendre functions, rounded to float32). Usage: make_data.py LMAX OUT"""
import sys
import numpy as np
from ireesht import reference
from ireesht.grid import make_grid
from ireesht.plan import Plan

lmax, out = int(sys.argv[1]), sys.argv[2]
plan = Plan.create(lmax, target="cuda")
g = make_grid("gauss", plan.nlat, plan.nphi)
rng = np.random.default_rng(5)
F = np.zeros((plan.nlat, plan.mc, 2), np.float32)
qs = []
for m in range(plan.mc):
    n = lmax + 1 - m
    q = rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n) * (m > 0)
    P = reference.legendre_values(lmax, m, g.cost, g.sint)  # (n, nlat)
    f = q @ P
    F[:, m, 0], F[:, m, 1] = f.real, f.imag
    qs.append(q)
np.savez(out, F=F, q=np.concatenate(qs))
