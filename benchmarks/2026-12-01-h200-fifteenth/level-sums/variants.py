"""The variants of the level-sums A/B (build.py, ../ab.py): the working tree's package with
`kp4` (four latitude pairs per synthesis thread, ISHIOKA_SLOTS 8) or `ana1` / `ana2` (the
Ishioka analysis at lmax 1023, 512 pairs, ISHIOKA_ANALYS_PAIRS 512, one pair per thread
(512 threads) or two (256)); `old` and `new` leave the package as it is. Applied at build
time and again before loading (the tables follow the analysis kernel)."""
import inspect


def apply(tag: str) -> tuple[int, ...]:
    """Patch the package for variant `tag`; returns the lmax the variant is built for."""
    from ireesht import kernels_mlir
    if tag == "kp4":
        kernels_mlir.ISHIOKA_SLOTS = 8
    if tag.startswith("ana"):
        kernels_mlir.ISHIOKA_ANALYS_PAIRS = 512
        if tag == "ana1":
            src = inspect.getsource(kernels_mlir._ishioka_analys_shape)
            src = src.replace("(1, 2) if plan.npairs <= 256 else (2, 1)", "(1, 2)")
            exec(src, kernels_mlir.__dict__)
        return (1023,)
    return (1023, 2047)
