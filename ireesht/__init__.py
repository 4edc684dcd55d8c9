"""ireesht: spherical harmonic transforms on any GPU, compiled ahead of time with IREE.

``ireesht.compile(lmax, ...)`` builds a module with ``synth`` (coefficients -> field) and
``analys`` (field -> coefficients); ``module.save(dir)`` / ``ireesht.load(dir)`` keep it.
Conventions (orthonormal, Condon-Shortley phase, packed m-major coefficients, spatial
``(..., nlat, nphi)`` with colatitude increasing) are in README.md and ``ireesht.layout``.
"""

__version__ = "0.1.0"

__all__ = ["Module", "build", "check", "compile", "load", "nlm", "pack", "unpack", "__version__"]

_LAZY = {
    "Module": "ireesht.module",
    "build": "ireesht.module",
    "check": "ireesht.comparison",
    "compile": "ireesht.module",
    "load": "ireesht.module",
    "nlm": "ireesht.layout",
    "pack": "ireesht.layout",
    "unpack": "ireesht.layout",
}


def __getattr__(name: str):
    # lazy, so that `import ireesht.grid` needs neither the IREE runtime nor the compiler
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ireesht' has no attribute {name!r}")
