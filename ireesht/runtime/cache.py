"""The disk cache of compiled modules: ``$IREESHT_CACHE`` or ``~/.cache/ireesht``, one file per
key (a hash of the module's text, kernels and flags), written atomically."""

from __future__ import annotations

import os
from pathlib import Path

from ireesht import __version__


def cache_dir() -> Path:
    """Where compiled modules are cached: ``$IREESHT_CACHE`` or ``~/.cache/ireesht``, in a
    folder per ireesht version."""
    root = os.environ.get("IREESHT_CACHE") or Path.home() / ".cache" / "ireesht"
    return Path(root) / __version__


def read(key: str) -> bytes | None:
    """The module cached under ``key``, or None."""
    path = cache_dir() / f"{key}.vmfb"
    return path.read_bytes() if path.exists() else None


def write(key: str, vmfb: bytes) -> None:
    """Cache ``vmfb`` under ``key``: a temporary file renamed into place, so that concurrent
    compiles of one plan never see half a file."""
    path = cache_dir() / f"{key}.vmfb"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(vmfb)
    tmp.replace(path)
