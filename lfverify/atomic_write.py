"""Atomic file output: a file is either completely written or not touched at all.

The text goes to a temporary file in the destination folder, which then replaces the destination with
``os.replace`` (atomic on POSIX and Windows within one file system); on any failure the temporary file is
removed and the destination keeps its previous content.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomically"]


def write_text_atomically(path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, creating missing parent folders; return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path
