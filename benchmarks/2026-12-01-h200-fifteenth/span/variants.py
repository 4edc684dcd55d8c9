"""The span A/B's variants (build.py, ../ab.py): spans of `s<N>` steps in
leg_synth_ishioka.mlir (ISHIOKA_SYNTH_SPAN). First run: s32 and s64, the package staging
one row per thread (`times-1.txt`, `stages-1.txt`); second: s64, s128 and s256, rows
thread id + 64 r."""


def apply(tag: str) -> None:
    from ireesht import kernels_mlir
    kernels_mlir.ISHIOKA_SYNTH_SPAN = int(tag[1:])
