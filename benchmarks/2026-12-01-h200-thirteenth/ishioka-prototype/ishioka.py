"""Ishioka single-chain recurrence tables (float64) and a numpy check against the plain recurrence."""
import numpy as np

def ab(L, m):
    l = np.arange(0, L + 4, dtype=np.float64)
    a = np.zeros_like(l); b = np.zeros_like(l)
    ok = l > m
    s = np.zeros_like(l)
    s[ok] = np.sqrt((2 * l[ok] + 1) / ((2 * l[ok] - 1) * (l[ok] ** 2 - m * m)))
    sprev = np.concatenate(([0.0], s[:-1]))
    a[ok] = (2 * l[ok] - 1) * s[ok]
    b[ok] = -((l[ok] - 1) ** 2 - m * m) * s[ok] * sprev[ok]
    return a, b          # indexed by l

def chain(L, m):
    """alpha_k, beta_k (k = 0..K: step k -> k+1), g_k (k = 0..K+1): y_k = O_k / g_k."""
    a, b = ab(L, m)
    K = (L - m) // 2
    k = np.arange(K + 1)
    l = m + 2 * k + 3
    A = a[l] * a[l - 1]
    B = b[l] + a[l] * b[l - 1] / a[l - 2]
    C = -a[l] * b[l - 1] * b[l - 2] / a[l - 2]
    g = np.ones(K + 2)
    # g_{k+1} = C_k g_{k-1} for k >= 1, g_0 = g_1 = 1: running products of every other C
    if K >= 1:
        c = C[1:]  # C_1 .. C_K gives g_2 .. g_{K+1}
        g[2::2] = np.cumprod(c[0::2])      # g_2 = C_1 g_0, g_4 = C_3 g_2, ...
        g[3::2] = np.cumprod(c[1::2])      # g_3 = C_2 g_1, ...
    alpha = A * g[:K + 1] / g[1:K + 2]
    beta = B * g[:K + 1] / g[1:K + 2]
    return alpha, beta, g, a, b

def modified_q(L, m, Q):
    """Q: complex (L+1-m,) for l = m..L -> qe, qo (K+1,) complex."""
    alpha, beta, g, a, b = chain(L, m)
    K = (L - m) // 2
    Qx = np.zeros(L - m + 4, complex); Qx[:L - m + 1] = Q
    k = np.arange(K + 1)
    qe = g[k] * (Qx[2 * k] / a[m + 2 * k + 1] - Qx[2 * k + 2] * b[m + 2 * k + 3] / a[m + 2 * k + 3])
    qo = g[k] * Qx[2 * k + 1]
    return qe, qo

def synth_ishioka(L, m, Q, x, pmm):
    alpha, beta, g, a, b = chain(L, m)
    qe, qo = modified_q(L, m, Q)
    K = (L - m) // 2
    u = x * x
    y0 = np.zeros_like(x); y1 = a[m + 1] * pmm
    fe = 0; fo = 0
    for k in range(K + 1):
        fe = fe + y1 * qe[k]; fo = fo + y1 * qo[k]
        y1, y0 = (alpha[k] * u + beta[k]) * y1 + y0, y1
    return fe + x * fo, fe - x * fo

def synth_plain(L, m, Q, x, pmm):
    a, b = ab(L, m)
    p2 = np.zeros_like(x); p1 = pmm.copy()
    fn = Q[0] * p1; fs = Q[0] * p1
    for l in range(m + 1, L + 1):
        p = a[l] * x * p1 + b[l] * p2
        p2, p1 = p1, p
        sgn = (-1) ** (l - m)
        fn = fn + Q[l - m] * p; fs = fs + sgn * Q[l - m] * p
    return fn, fs

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    L = 300
    x = np.cos(np.linspace(0.05, np.pi / 2 - 0.001, 50))
    for m in [0, 1, 7, 50, 200, 299, 300]:
        s = np.sqrt(1 - x * x)
        pmm = 0.3 * s ** m
        Q = rng.uniform(-1, 1, L + 1 - m) + 1j * rng.uniform(-1, 1, L + 1 - m)
        n1, s1 = synth_ishioka(L, m, Q, x, pmm); n2, s2 = synth_plain(L, m, Q, x, pmm)
        sc = np.abs(n2).max() + 1e-300
        print(m, np.abs(n1 - n2).max() / sc, np.abs(s1 - s2).max() / sc)
