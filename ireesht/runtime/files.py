"""Reading and writing ireesht's own files (cache entries, artifacts) safely.

``read_regular`` reads only a regular file, of the size expected and never more than a bound,
and checks that before reading: a FIFO, a device (``/dev/zero``) or a huge sparse file is
refused, never read or waited on. ``write_atomic`` writes a temporary file in the same
directory and renames it into place, so that a reader sees the old file or the new one,
never part of one, even with several processes writing at once.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class FileCheckError(ValueError):
    """A file that is not what it should be (not a regular file, or of the wrong size)."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _check(path: Path, st: os.stat_result, limit: int, size: int | None) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise FileCheckError(f"{path}: {_kind(st.st_mode)}, expected a regular file")
    if st.st_size > limit:
        raise FileCheckError(f"{path}: {st.st_size} bytes, over the limit of {limit}")
    if size is not None and st.st_size != size:
        raise FileCheckError(f"{path}: {st.st_size} bytes, expected {size} (truncated or "
                             f"replaced)")


def read_regular(path: str | os.PathLike, limit: int, size: int | None = None) -> bytes:
    """The bytes of regular file ``path``: at most ``limit`` bytes, exactly ``size`` where
    given. Raises ``FileCheckError`` (a ValueError) for anything else, OSError where the
    file cannot be opened. The file is checked before it is opened and again on the open
    descriptor (opened non-blocking, so that even a FIFO swapped in between cannot hang)."""
    path = Path(path)
    _check(path, os.stat(path), limit, size)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        _check(path, st, limit, size)
        data = f.read(st.st_size + 1)
    if len(data) != st.st_size:
        raise FileCheckError(f"{path}: changed while it was read")
    return data


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory, flushed to
    disk and renamed into place (``os.replace``). Raises OSError; leaves no temporary file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it 0600
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
