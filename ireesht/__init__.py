"""ireesht: spherical harmonic transforms on any GPU, compiled ahead of time with IREE.

``ireesht.compile(lmax, ...)`` builds a module with ``synth`` (coefficients -> field) and
``analys`` (field -> coefficients); ``module.save(dir)`` / ``ireesht.load(dir)`` keep it.
Conventions (orthonormal, Condon-Shortley phase, packed m-major coefficients, spatial
``(..., nlat, nphi)`` with colatitude increasing) are in README.md and
``ireesht.numerics.layout``.
"""

__version__ = "0.1.0"

__all__ = ["ApproximationWarning", "ArtifactError", "CacheWarning", "DeviceError", "Module",
           "PerformanceWarning", "Plan", "analys_lsq", "build", "check", "compile", "divergence",
           "from_divergence_vorticity", "gradient", "lm_indices", "load", "nlm", "pack",
           "unpack", "vorticity", "__version__"]

# Imported on first use, so that ``import ireesht`` costs nothing and ``ireesht.load`` pulls
# in only the runtime (no code generator, no compiler).
_LAZY = {
    "ApproximationWarning": "ireesht.runtime.module",
    "analys_lsq": "ireesht.lsq",
    "ArtifactError": "ireesht.runtime.artifacts",
    "CacheWarning": "ireesht.runtime.cache",
    "DeviceError": "ireesht.runtime.device",
    "Module": "ireesht.runtime.module",
    "PerformanceWarning": "ireesht.runtime.module",
    "Plan": "ireesht.plan",
    "build": "ireesht.api",
    "check": "ireesht.comparison",
    "compile": "ireesht.api",
    "load": "ireesht.runtime.module",
    "lm_indices": "ireesht.numerics.layout",
    "nlm": "ireesht.numerics.layout",
    "pack": "ireesht.numerics.layout",
    "unpack": "ireesht.numerics.layout",
    "divergence": "ireesht.numerics.vector",  # vector fields' coefficient helpers
    "vorticity": "ireesht.numerics.vector",
    "from_divergence_vorticity": "ireesht.numerics.vector",
    "gradient": "ireesht.numerics.vector",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ireesht' has no attribute {name!r}")
