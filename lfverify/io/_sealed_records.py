"""JSON records that carry their own integrity: a SHA-256 of their content, checked whenever they are read back.

The simulation engine (:mod:`lfverify.simulations`) and the benchmark runner
(:mod:`lfverify.experiments`) keep one record per finished unit of work and resume from them, so a
record read back must be exactly what was written.  :func:`seal` adds ``"sha256"``, the SHA-256 of the record's
canonical JSON text (sorted keys, no whitespace, the hash itself left out); it depends only on the content, so a
record is the same byte for byte whichever executor produced it.  :func:`read_sealed` reads a record back and
raises :class:`DamagedRecord` (naming the file) for anything that is not the sealed JSON object it wrote: an
unreadable file, bytes that are not UTF-8, invalid JSON, a value that is not an object, a hash that does not match
(a truncated or edited record).  Each caller adds its own schema check (keys, types, row count against its task)
and recomputes a damaged record after moving it aside with :func:`set_aside`; a damaged record is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from lfverify.io._files import read_bytes

__all__ = ["DamagedRecord", "content_hash", "seal", "read_sealed", "set_aside", "report_damaged"]

HASH_KEY = "sha256"


class DamagedRecord(ValueError):
    """A record that cannot be trusted: ``path`` and ``reason`` (one line)."""

    def __init__(self, path, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"record {self.path} is damaged: {reason}")


def content_hash(record: dict) -> str:
    """SHA-256 of the canonical JSON text of ``record`` without its ``"sha256"`` entry."""
    body = {k: v for k, v in record.items() if k != HASH_KEY}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def seal(record: dict) -> dict:
    """``record`` with its content hash under ``"sha256"``."""
    return {**{k: v for k, v in record.items() if k != HASH_KEY}, HASH_KEY: content_hash(record)}


def read_sealed(path, *, unsealed_ok: bool = False) -> dict:
    """The JSON object stored at ``path``, its content hash checked.

    Parameters
    ----------
    path : path
    unsealed_ok : bool, keyword-only
        Accept a record without a hash (written before records were sealed); the caller must then check its
        schema and may seal it.

    Raises
    ------
    DamagedRecord
        If the file cannot be read (or is not a regular file: a FIFO, a device) or decoded, is not a JSON
        object, lacks its hash (unless ``unsealed_ok``) or its hash does not match its content.
    """
    path = Path(path)
    try:
        text = read_bytes(path).decode("utf-8")  # a FIFO or device is refused at once, never waited on
    except OSError as exc:
        raise DamagedRecord(path, f"cannot be read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise DamagedRecord(path, f"is not UTF-8 text (byte {exc.start})") from exc
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DamagedRecord(path, f"is not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    except RecursionError as exc:
        raise DamagedRecord(path, "is nested too deeply to be a record") from exc
    if not isinstance(record, dict):
        raise DamagedRecord(path, f"holds a JSON {type(record).__name__}, not an object")
    stored = record.get(HASH_KEY)
    if stored is None:
        if unsealed_ok:
            return record
        raise DamagedRecord(path, f"has no content hash ({HASH_KEY!r})")
    if stored != content_hash(record):
        raise DamagedRecord(path, "its content does not match its sha256 (truncated or edited)")
    return record


def set_aside(path) -> Path:
    """Rename a damaged record to ``<name>.damaged`` (replacing an older one), so it is recomputed, not lost."""
    path = Path(path)
    target = path.with_name(path.name + ".damaged")
    os.replace(path, target)
    return target


def report_damaged(error: DamagedRecord, what: str) -> None:
    """Set a damaged record aside and say so on stderr (one line); ``what`` names what is recomputed."""
    target = set_aside(error.path)
    print(f"lfverify: {error}; moved to {target.name} and recomputing {what}", file=sys.stderr, flush=True)
