"""The one door to the file system: what lfverify reads, writes or is given as a path goes through here.

* :func:`read_bytes` / :func:`read_text` / :func:`open_regular` - read a *regular* file.  The file's kind is
  checked before it is read, and the open itself never blocks: the path is opened with ``O_NONBLOCK`` and checked
  again with ``fstat`` on the open descriptor, so a named pipe (FIFO) opens at once and is refused instead of
  waiting forever for a writer; a device or a socket is refused before it is opened.  Symbolic links are followed.
* :func:`is_regular` - whether a file to be read is there: a folder, FIFO, device or socket in its place is
  refused by kind (``stat`` only) rather than taken for a missing file.
* :func:`broken_link_kind` - whether a path is a symbolic link leading nowhere (dangling) or round (a loop).
* :func:`write_target` - where a write to ``path`` lands.  A symbolic link is *written through*: the link stays
  and the file it points to gets the new content (replaced atomically in the target's folder).  A dangling link,
  a link loop, and a destination that is a folder, a FIFO, a device or a socket are refused: lfverify only ever
  replaces regular files.
* :func:`check_path_argument` - a path given on the command line (``--out``, ``--errata``, ``--data-root``,
  ``--render``), checked before any work: not empty, not a dangling link or a link loop, not a FIFO, device or
  socket, and, when relative, resolvable (the working folder still exists).

Every refusal is a :class:`ValueError` (:class:`NotARegularFile` for a file of another kind, also an
:class:`OSError` so that readers that treat unreadable files as damaged still do) with one line naming the
argument or the path and what is wrong.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "NotText", "file_kind", "open_regular", "read_bytes", "read_text", "decode_text",
           "is_regular", "broken_link_kind",
           "write_target", "check_path_argument", "special_files_in"]

_KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISLNK, "a symbolic link"))


def file_kind(mode: int) -> str:
    """The kind of file of an ``st_mode``, in words ("a regular file", "a named pipe (FIFO)", ...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a special file"  # pragma: no cover - every POSIX kind is listed


class NotARegularFile(ValueError, OSError):
    """A path that lfverify would read or replace is a folder, a FIFO, a device or a socket (``path``, ``kind``)."""

    def __init__(self, path, kind: str, action: str = "read"):
        self.path, self.kind = Path(path), kind
        ValueError.__init__(self, f"{path} is {kind}, not a regular file; lfverify does not {action} it")

    def __str__(self) -> str:
        return self.args[0]

    @property
    def strerror(self):  # what readers that quote an OSError's strerror print
        return f"it is {self.kind}, not a regular file"


def _open_regular(path) -> int:
    """A read-only descriptor of the regular file ``path``; NotARegularFile (or OSError) otherwise, never a wait."""
    info = os.stat(path)  # follows links; a device or socket is refused before anything opens it
    if stat.S_ISDIR(info.st_mode):  # the operating system's own words, as open() gives them
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(info.st_mode) and not stat.S_ISFIFO(info.st_mode):
        raise NotARegularFile(path, file_kind(info.st_mode))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:  # the kind again, of what was opened: a regular file swapped for a FIFO in between is refused too
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(path, file_kind(info.st_mode))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path) -> bytes:
    """The content of the regular file ``path`` (links followed).

    Raises
    ------
    NotARegularFile
        If ``path`` is a folder, a FIFO, a device or a socket (checked without blocking).
    OSError
        If it cannot be opened or read.
    """
    with open_regular(path) as fh:
        return fh.read()


def open_regular(path):
    """A binary file object reading the regular file ``path`` (links followed), for reads in blocks.

    Raises
    ------
    NotARegularFile
        If ``path`` is a folder, a FIFO, a device or a socket (checked without blocking).
    """
    return os.fdopen(_open_regular(path), "rb")


class NotText(ValueError):
    """A file that does not decode as the declared encoding: the message names the file, the line and the column."""


def read_text(path, encoding: str = "utf-8", errors: str = "strict") -> str:
    """The content of the regular file ``path`` decoded as ``encoding`` (see :func:`read_bytes`).

    Raises
    ------
    NotText
        (a ValueError) if the bytes do not decode: one line naming the file, the line and column of the first bad
        byte, and the encoding expected (a file saved in another encoding, e.g. Latin-1, is the usual cause).
    """
    return decode_text(read_bytes(path), path, encoding, errors)


def decode_text(data: bytes, source, encoding: str = "utf-8", errors: str = "strict") -> str:
    """``data`` (the content of the file ``source``) decoded as ``encoding``; :class:`NotText` names ``source``, the
    line and the column of the first byte that does not decode."""
    try:
        return data.decode(encoding, errors)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise NotText(f"{source}: not {encoding} text: byte 0x{data[exc.start]:02x} at line {line}, column {column} "
                      f"({exc.reason}); save the file as {encoding}") from None


def is_regular(path) -> bool:
    """Whether ``path`` is a regular file (links followed): True; nothing there (or a dangling link, or a link
    loop): False.

    Raises
    ------
    NotARegularFile
        If ``path`` is a folder, a FIFO, a device or a socket (``stat`` only: nothing is opened, nothing waits).
    """
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return False
        raise
    if not stat.S_ISREG(info.st_mode):
        raise NotARegularFile(path, file_kind(info.st_mode))
    return True


def broken_link_kind(path) -> str | None:
    """What ``path`` is if it is a symbolic link that leads to no file: ``"a symbolic link loop"`` or ``"a dangling
    symbolic link"``; None for anything else (``lstat`` and ``stat`` only: nothing is opened)."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return "a dangling symbolic link"
    return None


def write_target(path) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or the file its symbolic link(s) point to.

    Raises
    ------
    ValueError
        If ``path`` is a dangling symbolic link or a link loop, or exists as anything but a regular file
        (:class:`NotARegularFile`: a folder, a FIFO, a device, a socket).
    """
    path = Path(path)
    broken = broken_link_kind(path)
    if broken == "a symbolic link loop":
        raise ValueError(f"{path} is a symbolic link loop; lfverify does not write through it")
    if broken is not None:
        raise ValueError(f"{path} is a dangling symbolic link (to {os.readlink(path)}); lfverify writes "
                         "through a link only to an existing file")
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise ValueError(f"{path} cannot be written: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise NotARegularFile(path, file_kind(info.st_mode), "replace")
    return target


def check_path_argument(value, option: str, *, want: str = "folder") -> Path:
    """Check a path argument before any work: one ValueError naming ``option`` and the path, else the Path.

    Parameters
    ----------
    value : str or path
        As given on the command line.
    option : str
        The option named in the message (``"--out"``).
    want : {"folder", "file"}
        What the path must be if it exists (a folder, or a regular file).

    Raises
    ------
    ValueError
        For an empty path, a relative path while the working folder no longer exists, a dangling symbolic link,
        a link loop (anywhere along the path), an existing path of the wrong kind, or a FIFO, device or socket.
    """
    if want not in ("folder", "file"):
        raise ValueError(f"want must be 'folder' or 'file'; got {want!r}")
    text = os.fspath(value)
    if text == "" or text.strip() == "":
        raise ValueError(f"{option}: an empty path ({text!r}); give the {want} explicitly, e.g. "
                         f"{option} {'./results' if want == 'folder' else './out.md'}")
    path = Path(text)
    if not path.is_absolute():
        try:
            os.getcwd()
        except FileNotFoundError as exc:
            raise ValueError(f"{option}: {text} is relative, but the working folder no longer exists (deleted "
                             "while this shell was in it); cd to an existing folder or give an absolute path") from exc
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ValueError(f"{option}: {text} is a symbolic link loop (or runs through one)") from exc
        if exc.errno == errno.ENOENT and os.path.islink(path):
            raise ValueError(f"{option}: {text} is a dangling symbolic link (to {os.readlink(path)}); remove it "
                             "or give another path") from exc
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):  # to be created; a file on the way is named later
            return path
        raise ValueError(f"{option}: {text} cannot be examined: {exc.strerror or exc}") from exc
    kind = "a file" if stat.S_ISREG(info.st_mode) else file_kind(info.st_mode)
    if want == "folder" and not stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{option}: {text} is {kind}, not a folder; choose a folder (new or empty)")
    if want == "file" and stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{option}: {text} is a folder; give the path of a file")
    if want == "file" and not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{option}: {text} is {kind}, not a regular file; give the path of a file")
    return path


def special_files_in(folder) -> list[Path]:
    """The FIFOs, devices and sockets in ``folder`` and its subfolders (links not followed), sorted."""
    found = []
    for parent, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            entry = Path(parent) / name
            try:
                mode = os.lstat(entry).st_mode
            except OSError:
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
                found.append(entry)
    return sorted(found)
