"""The disk cache of compiled modules: ``$IREESHT_CACHE`` or ``~/.cache/ireesht``, a folder
per ireesht version, one file per key (a hash of the module's text, kernels, flags and
compiler).

An entry is ``MAGIC``, the sha256 of the module and the module. It is written atomically
(``files.write_atomic``: several processes compiling one plan at once each write a complete
entry, and the last rename wins), and its sha256 is checked before IREE sees a byte: a
corrupt or truncated entry is discarded with a warning (``CacheWarning``) and the plan is
compiled again. A cache directory that cannot be used (read-only, a file) means compiling
without the cache, with one warning.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from pathlib import Path

from ireesht import __version__
from ireesht.runtime.files import FileCheckError, read_regular, write_atomic

MAGIC = b"ireesht-cache-1\n"
SUFFIX = ".entry"
# what clear() removes: entries, their temporary files, and modules of older releases
_OURS = (SUFFIX, ".vmfb", ".tmp")
_MAX_ENTRY_BYTES = 2**28 + len(MAGIC) + 32


class CacheWarning(UserWarning):
    """The cache could not be used, or an entry was corrupt (the module is compiled)."""


def root() -> Path:
    """``$IREESHT_CACHE`` or ``~/.cache/ireesht``."""
    return Path(os.environ.get("IREESHT_CACHE") or Path.home() / ".cache" / "ireesht")


def cache_dir() -> Path:
    """Where compiled modules are cached: ``root()``, in a folder per ireesht version."""
    return root() / __version__


def problem() -> str | None:
    """Why the cache directory cannot be used (it cannot be made, or is not a writable
    directory), or None. Makes the directory."""
    path = cache_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"cannot be made ({e.strerror or e})"
    if not path.is_dir():
        return "not a directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return "not writable"
    return None


def warn(message: str) -> None:
    warnings.warn(f"ireesht cache {cache_dir()}: {message}", CacheWarning, stacklevel=3)


def read(key: str) -> bytes | None:
    """The module cached under ``key`` after checking its sha256, or None (a corrupt or
    truncated entry is removed, with a warning)."""
    path = cache_dir() / f"{key}{SUFFIX}"
    try:
        data = read_regular(path, _MAX_ENTRY_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, FileCheckError) as e:
        warn(f"cannot read entry {path.name} ({e}); compiling without it")
        return None
    n = len(MAGIC)
    head, digest, module = data[:n], data[n:n + 32], data[n + 32:]
    if head == MAGIC and hashlib.sha256(module).digest() == digest:
        return module
    discard(key, "truncated or corrupt (its sha256 does not match)")
    return None


def discard(key: str, why: str) -> None:
    """Remove the entry of ``key``, with a warning saying ``why``."""
    path = cache_dir() / f"{key}{SUFFIX}"
    warn(f"entry {path.name} {why}: discarded, compiling the module again")
    try:
        path.unlink()
    except OSError:
        pass


def write(key: str, vmfb: bytes) -> None:
    """Cache ``vmfb`` under ``key`` (atomically); a failure to write is a warning."""
    try:
        write_atomic(cache_dir() / f"{key}{SUFFIX}", MAGIC + hashlib.sha256(vmfb).digest() + vmfb)
    except OSError as e:
        warn(f"cannot write an entry ({e}); the module is not cached")


def _files() -> list[Path]:
    base = root()
    if not base.is_dir():
        return []
    return [f for d in base.iterdir() if d.is_dir() and not d.is_symlink()
            and re.fullmatch(r"\d+\.\d+\.\d+\S*", d.name)  # a version's folder
            for f in d.iterdir() if f.name.endswith(_OURS) and f.is_file()
            and not f.is_symlink()]


def info() -> dict:
    """The cache's location (``root``, ``dir`` for this version), its entries (of every
    ireesht version there) and their bytes."""
    files = _files()
    return {"root": str(root()), "dir": str(cache_dir()), "entries": len(files),
            "bytes": sum(f.stat().st_size for f in files)}


def clear() -> int:
    """Remove every entry (of every ireesht version) and the folders left empty; returns
    the number of files removed. Removes only the cache's own files, whatever the root."""
    files = _files()
    for f in files:
        f.unlink(missing_ok=True)
    for d in {f.parent for f in files}:
        try:
            d.rmdir()
        except OSError:  # not empty: something else is there
            pass
    return len(files)
