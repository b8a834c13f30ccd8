"""Atomic file output: a file is either completely written or not touched at all.

The content goes to a temporary file in the destination folder, which then replaces the destination with
``os.replace`` (atomic on POSIX and Windows within one file system); on any failure the temporary file is
removed and the destination keeps its previous content.  The destination is found by
:func:`lfverify.io.write_target`: a symbolic link is written through (the link stays, the file it points to is
replaced in its own folder), and only regular files are ever replaced - a folder, FIFO, device node, socket,
dangling link or link loop at the destination is refused before anything is written.  :func:`atomic_path` serves
writers that need a file name (``savefig``); the two ``write_*`` functions are built on it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from pathlib import Path

from lfverify.io._files import write_target

__all__ = ["atomic_path", "write_text_atomically", "write_bytes_atomically"]


@functools.lru_cache(maxsize=1)
def _new_file_mode() -> int:
    """The mode ``open()`` gives a new file, 0o666 without the process's umask (read once: setting the umask to
    read it is not thread-safe, so it is not repeated)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_path(path):
    """Yield a temporary path next to ``path``; on normal exit it replaces ``path``, on an exception it is removed.

    Missing parent folders are created.  A symbolic link ``path`` is written through (module docstring).

    Raises
    ------
    ValueError
        If ``path`` exists as anything but a regular file or a link to one (:func:`lfverify.io.write_target`).
    """
    path = write_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:  # mkstemp makes the file private (0600); the written file gets the mode of any new file instead
        os.fchmod(fd, _new_file_mode())
    finally:
        os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text_atomically(path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, creating missing parent folders; return the path."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)
    return Path(path)


def write_bytes_atomically(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, creating missing parent folders; return the path."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)
