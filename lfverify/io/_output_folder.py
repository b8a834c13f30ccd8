"""Output locations: checked before any work starts, and each output folder owned by the one command writing it.

* :func:`check_output_folder` / :func:`check_output_file` - the location is (or can become) a folder / a file
  in a folder that this process can write to; checked by creating and removing a probe file, so permissions,
  read-only mounts, immutable folders and paths under a regular file are all found, for root too.
* :func:`claim_output_folder` - the above, then the folder's owner: ``lfverify-owner.json`` names the command
  that writes the folder and the fingerprint of its settings.  A new (or empty) folder is claimed; a folder owned
  by another command, or by the same command with other settings, is refused with one line naming both, so two
  commands never overwrite each other's ``summary.json``; a folder holding nothing but its marker (a run that
  stopped before writing anything) is free again.  A non-empty folder without a marker is adopted only
  when its files show that the same command wrote it (folders written before the marker existed); any other
  non-empty folder is refused.  A folder holding a FIFO, device or socket (where a record, ``run.json`` or the
  marker should be) is refused: lfverify reads and writes only regular files (``lfverify/io/_files.py``).
* Two processes, one folder: the claim - the ownership check and the marker's write - runs under an OS-level
  lock (``filelock``: ``flock`` on ``DIR/.lfverify.lock``), so two runs can never both pass the check.  Inside
  :func:`holding_output_folders` (the command line wraps every command in it) the lock is kept until the run ends,
  so a second run on the folder, with any settings, is refused at once with one line naming the holder (pid,
  host, command, from ``DIR/.lfverify.lock.json``).  The kernel releases the lock of a killed process.

Every error is a :class:`ValueError` naming the option (``--out``, ``--errata``), the path and what is wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sys
import tempfile
from pathlib import Path

import filelock

from lfverify._version import __version__
from lfverify.io._atomic import write_text_atomically
from lfverify.io._files import check_path_argument, file_kind, read_bytes, read_text, special_files_in

__all__ = ["MARKER", "LOCK", "check_output_folder", "check_output_file", "claim_output_folder", "owner_of",
           "settings_fingerprint", "holding_output_folders"]

#: The ownership marker written into every output folder.
MARKER = "lfverify-owner.json"
#: The lock file of an output folder (hidden: not a result); its holder is described in ``LOCK + ".json"``.
LOCK = ".lfverify.lock"

#: Inside :func:`holding_output_folders`: real path -> the lock kept until the run ends; None outside.
_RUN_LOCKS: dict | None = None
_RUN_COMMAND: str | None = None


#: Inside :func:`holding_output_folders`: library argument names -> the command line's options, for the messages.
_RUN_OPTIONS: dict = {}


@contextlib.contextmanager
def holding_output_folders(command: str | None = None, options: dict | None = None):
    """Keep the lock of every output folder claimed inside this block until it ends (the whole run).

    Parameters
    ----------
    command : str, optional
        The command line named to a second process that finds a folder locked (default: ``sys.argv``).
    options : dict, optional
        Argument names of the library (``"out"``) -> the options that set them (``"--out"``), named in the
        message a locked folder gives.
    """
    global _RUN_LOCKS, _RUN_COMMAND, _RUN_OPTIONS
    outer = _RUN_LOCKS, _RUN_COMMAND, _RUN_OPTIONS
    _RUN_LOCKS, _RUN_COMMAND, _RUN_OPTIONS = {}, command, dict(options or {})
    try:
        yield
    finally:
        held = _RUN_LOCKS
        _RUN_LOCKS, _RUN_COMMAND, _RUN_OPTIONS = outer
        for real, lock in held.items():
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(real, LOCK + ".json"))
            lock.release(force=True)


def _holder(path: Path) -> str:
    try:
        holder = json.loads(read_text(path / (LOCK + ".json")))
        return f"pid {holder['pid']} on {holder['host']}: {holder['command']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "its pid is not recorded yet"


@contextlib.contextmanager
def _folder_lock(path: Path, option: str):
    """The folder's lock for the claim; kept for the run inside :func:`holding_output_folders`."""
    real = os.path.realpath(path)
    if _RUN_LOCKS is not None and real in _RUN_LOCKS:  # this run holds it already (``simulate all``)
        yield
        return
    lock = filelock.FileLock(os.path.join(real, LOCK), timeout=0, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise ValueError(f"{option}: {path} is in use by another lfverify run ({_holder(path)}); wait for it to "
                         "end or choose another folder") from None
    except OSError as exc:
        raise ValueError(f"{option}: cannot lock {path}: {exc.strerror or exc}") from exc
    keep = False
    try:
        yield
        if _RUN_LOCKS is not None:
            command = _RUN_COMMAND or " ".join(sys.argv)
            write_text_atomically(Path(real) / (LOCK + ".json"), json.dumps(
                {"pid": os.getpid(), "host": socket.gethostname(), "command": command}) + "\n")
            _RUN_LOCKS[real] = lock
            keep = True
    finally:
        if not keep:
            lock.release(force=True)


def settings_fingerprint(settings: dict) -> str:
    """16 hex digits of the SHA-256 of the canonical JSON of ``settings`` (sorted keys; other values by repr)."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _nearest_existing(path: Path) -> Path:
    for candidate in (path, *path.parents):
        if os.path.lexists(candidate):
            return candidate
    return Path(path.anchor or ".")


def _probe_writable(folder: Path, option: str, path: Path) -> None:
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".lfverify-probe-")
    except OSError as exc:
        raise ValueError(f"{option}: cannot write to {folder} (for {path}): {exc.strerror or exc}") from exc
    os.close(fd)
    os.unlink(probe)


def check_output_folder(path, *, option: str = "--out") -> Path:
    """Raise ValueError unless ``path`` is a writable folder or can be created as one (nothing is created)."""
    path = check_path_argument(path, option, want="folder")  # empty, dangling link, loop, FIFO, lost cwd
    existing = _nearest_existing(path.absolute())
    if existing == path.absolute():
        if not existing.is_dir():
            raise ValueError(f"{option}: {path} is a file, not a folder; choose a folder (new or empty)")
    elif not existing.is_dir():
        raise ValueError(f"{option}: {path} cannot be created: {existing} is a file, not a folder")
    _probe_writable(existing, option, path)
    return path


def check_output_file(path, *, option: str) -> Path:
    """Raise ValueError unless ``path`` can be written as a file (not a folder; its folder writable)."""
    path = Path(check_path_argument(path, option, want="file") if not Path(path).is_dir() else path)
    if path.is_dir():
        raise ValueError(f"{option}: {path} is a folder; give the path of a file")
    check_output_folder(path.parent if str(path.parent) else Path("."), option=option)
    return path


def owner_of(path) -> dict | None:
    """The marker of the folder ``path`` (command, fingerprint, ...), or None if it has none."""
    marker = Path(path) / MARKER
    if not os.path.lexists(marker):
        return None
    try:
        owner = json.loads(read_bytes(marker).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{marker} is unreadable ({exc}); delete it to let lfverify check the folder again") \
            from exc
    if not isinstance(owner, dict) or not isinstance(owner.get("command"), str):
        raise ValueError(f"{marker} is not an lfverify ownership marker; delete it to let lfverify check the "
                         "folder again")
    return owner


def _visible_entries(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if not p.name.startswith("."))


def _holds_results(path: Path) -> bool:
    """Whether the folder holds a file other than the marker (and hidden files), at any depth."""
    for folder, dirs, files in os.walk(path):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if any(not f.startswith(".") and not (f == MARKER and Path(folder) == path) for f in files):
            return True
    return False


def _infer_owner(path: Path) -> tuple[str | None, str | None]:
    """(command, fingerprint or None if its files do not say) of an unmarked folder written before the marker
    existed, from its files; (None, None) if lfverify did not write it."""
    names = set(_visible_entries(path))
    if {"REPORT.md", "report.json"} & names:
        return "verify", None
    if "run.json" in names:
        try:
            manifest = json.loads(read_text(path / "run.json"))
            study, fingerprint = manifest.get("study"), manifest.get("fingerprint")
        except (OSError, ValueError, AttributeError):
            return None, None
        return (f"simulate {study}", fingerprint) if isinstance(study, str) and study else (None, None)
    if names and all((path / n / "run.json").is_file() for n in names):  # `simulate all`: one folder per study
        return "simulate all", None
    records = path / "records"
    if "paper_benchmark.md" in names or (records.is_dir() and any(records.iterdir())
                                         and all(p.is_dir() for p in records.iterdir())):
        return "bench", None
    return None, None


def claim_output_folder(path, *, command: str, fingerprint: str, settings: str = "",
                        option: str = "--out") -> Path:
    """Check ``path`` (see :func:`check_output_folder`), create it, and make sure ``command`` owns it.

    Parameters
    ----------
    path : path
    command : str
        The owning command, e.g. ``"simulate uniform-convergence"``, ``"bench"``, ``"verify"``.
    fingerprint : str
        The fingerprint of the settings the folder's results depend on; another one is refused.
    settings : str
        A short description of those settings for the messages (e.g. ``"mode quick, seed 0"``).
    option : str
        The option or argument named in the messages.

    Raises
    ------
    ValueError
        If the folder cannot be written, belongs to another command or to the same command with other settings,
        or is a non-empty folder that lfverify did not write.
    """
    option = _RUN_OPTIONS.get(option, option)  # "out" of the library is "--out" on the command line
    path = check_output_folder(path, option=option)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{option}: cannot create the folder {path}: {exc.strerror or exc}") from exc
    _refuse_special_files(path, option)
    if _foreign(path):  # refused without a lock file left in someone else's folder
        _refuse_foreign(path, option)
    with _folder_lock(path, option):
        _claim(path, command=command, fingerprint=fingerprint, settings=settings, option=option)
    return path


def _foreign(path: Path) -> bool:
    """Whether ``path`` holds files, no marker, and nothing that lfverify wrote."""
    return _holds_results(path) and not os.path.lexists(path / MARKER) and _infer_owner(path)[0] is None


def _refuse_foreign(path: Path, option: str):
    raise ValueError(f"{option}: {path} is not empty and was not written by lfverify (no {MARKER}); "
                     "choose a new or empty folder")


def _refuse_special_files(path: Path, option: str) -> None:
    special = special_files_in(path)
    if special:
        raise ValueError(f"{option}: {path} holds {_kind_of(special[0])} at {special[0]}; lfverify reads and "
                         "writes only regular files: remove it or choose another folder")


def _claim(path: Path, command: str, fingerprint: str, settings: str, option: str) -> None:
    _refuse_special_files(path, option)  # again, under the lock
    owner = owner_of(path) if _holds_results(path) else None
    if owner is None:
        inferred, theirs = _infer_owner(path) if _holds_results(path) else (command, None)
        if inferred is None:
            _refuse_foreign(path, option)
        owner = {"command": inferred, "fingerprint": fingerprint if theirs is None else theirs}
        if owner["command"] == command and owner["fingerprint"] == fingerprint:
            _write_marker(path, command, fingerprint, settings)
    if owner["command"] != command:
        raise ValueError(f"{option}: {path} holds the output of `lfverify {owner['command']}`; `lfverify {command}` "
                         "will not overwrite it: choose another folder")
    if owner.get("fingerprint") != fingerprint:
        theirs = owner.get("settings") or f"fingerprint {owner.get('fingerprint')}"
        raise ValueError(f"{option}: {path} holds the results of another run of `lfverify {command}` ({theirs}; "
                         f"this run: {settings or 'fingerprint ' + fingerprint}); choose another folder")


def _kind_of(entry: Path) -> str:
    return file_kind(os.lstat(entry).st_mode)


def _write_marker(path: Path, command: str, fingerprint: str, settings: str) -> None:
    marker = {"note": f"this folder is written by `lfverify {command}`; other commands and other settings refuse "
                      "it", "command": command, "fingerprint": fingerprint, "settings": settings,
              "lfverify_version": __version__}
    write_text_atomically(path / MARKER, json.dumps(marker, indent=1) + "\n")
