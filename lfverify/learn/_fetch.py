"""Fetching the paper's data sets: every file from a pinned public source, checked by sha256, kept in the user's
cache folder (`pooch <https://www.fatiando.org/pooch/>`_, as SciPy's ``scipy.datasets`` and scikit-image use it).

The registry ``data_registry.tsv`` (shipped with the package; generated from the staged copy's PROVENANCE.tsv by
``tools/make_data_registry.py``) lists for every file of every data set the public GitHub repository, the commit and
the path it comes from, its size and its sha256.  A file is downloaded from

* ``$LFVERIFY_DATA_URL/<dataset>/<file>`` when the variable names a mirror (an HTTP(S) server with the layout of
  an offline copy such as ``shared/datasets``), else
* ``https://raw.githubusercontent.com/<repository>/<commit>/<path>``, the pinned source,

into a temporary file beside its place in the cache, checked against its sha256 and only then moved into place
(pooch), so the cache never holds a half-written or unchecked file; a cached file whose sha256 no longer matches is
downloaded again.  The cache is pooch's user cache folder for ``lfverify`` (``~/.cache/lfverify`` on Linux, found by
platformdirs) or the folder ``$LFVERIFY_DATA_CACHE`` names.  Every failure (no answer within the timeout, an HTTP
error, a connection that breaks off, a sha256 mismatch, a cache that cannot be written) is a :class:`DataFetchError`,
one line that names the file, the address and how to get the data otherwise.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import logging
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from lfverify.io import Progress

__all__ = ["SourceFile", "DataFetchError", "SOURCE_FILES", "DATA_URL_ENV_VARIABLE", "DATA_CACHE_ENV_VARIABLE",
           "DOWNLOAD_TIMEOUT", "HOW_TO_GET_DATA", "data_cache", "describe_source", "source_files", "source_url",
           "fetch_files"]

#: A mirror of the data sets with the layout ``<dataset>/<file>`` (used instead of the pinned sources).
DATA_URL_ENV_VARIABLE = "LFVERIFY_DATA_URL"
#: The cache folder (default: the platform's user cache folder for lfverify).
DATA_CACHE_ENV_VARIABLE = "LFVERIFY_DATA_CACHE"
#: Seconds a download may wait for the server (to connect, and between two pieces of the file).
DOWNLOAD_TIMEOUT = 30.0
#: How to get the data when they are missing (the end of every error about them).
HOW_TO_GET_DATA = ("the data sets come from `lfverify data fetch` on a machine that reaches their pinned public "
                   f"sources (or a mirror named by ${DATA_URL_ENV_VARIABLE}), or from an offline copy named by "
                   "$LFVERIFY_DATASETS")
_REGISTRY = "data_registry.tsv"
_PINNED_URL = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"


class DataFetchError(OSError):
    """A file of a data set could not be downloaded and checked (one line: the file, the address, the reason)."""


@dataclass(frozen=True)
class SourceFile:
    """One file of a data set and its pinned public source (a row of ``data_registry.tsv``)."""

    dataset: str
    file: str
    repository: str  #: "owner/name" on GitHub
    commit: str
    path: str  #: in the repository
    size: int
    sha256: str

    @property
    def relative(self) -> str:
        """``<dataset>/<file>``: its place in an offline copy, in a mirror and in the cache."""
        return f"{self.dataset}/{self.file}"

    @property
    def url(self) -> str:
        """The pinned source: the raw file at the commit."""
        return _PINNED_URL.format(repository=self.repository, commit=self.commit, path=quote(self.path))


@functools.lru_cache(maxsize=None)
def source_files() -> tuple[SourceFile, ...]:
    """Every row of the shipped registry, in its order."""
    text = resources.files("lfverify.learn").joinpath(_REGISTRY).read_text(encoding="utf-8")
    rows = csv.DictReader(io.StringIO(text), delimiter="\t")
    return tuple(SourceFile(r["dataset"], file=r["file"], repository=r["repository"], commit=r["commit"],
                            path=r["path"], size=int(r["size"]), sha256=r["sha256"]) for r in rows)


SOURCE_FILES = source_files()


def data_cache() -> Path:
    """The cache folder: ``$LFVERIFY_DATA_CACHE`` or pooch's user cache folder for lfverify (it may not exist yet)."""
    named = os.environ.get(DATA_CACHE_ENV_VARIABLE)
    if named:
        return Path(named).expanduser()
    import pooch

    return Path(pooch.os_cache("lfverify"))


def _mirror() -> str | None:
    mirror = os.environ.get(DATA_URL_ENV_VARIABLE, "").strip()
    return mirror.rstrip("/") + "/" if mirror else None


def describe_source() -> str:
    """Where missing files come from, in words: the mirror, or the pinned sources."""
    mirror = _mirror()
    if mirror:
        return f"the mirror {mirror} (${DATA_URL_ENV_VARIABLE})"
    return "their pinned public sources (raw files of GitHub repositories at fixed commits)"


def source_url(entry: SourceFile) -> str:
    """Where ``entry`` is downloaded from: the mirror ``$LFVERIFY_DATA_URL`` if set, else its pinned source."""
    mirror = _mirror()
    return mirror + quote(entry.relative) if mirror else entry.url


@contextlib.contextmanager
def _quiet_pooch():
    """pooch logs every download at INFO on stderr; lfverify reports progress itself."""
    import pooch

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _reason(exc: BaseException, timeout: float) -> str:
    """One line: why a download failed."""
    import requests

    if isinstance(exc, requests.exceptions.HTTPError) and exc.response is not None:
        return f"the server answered HTTP {exc.response.status_code} {exc.response.reason}".rstrip()
    if isinstance(exc, requests.exceptions.Timeout):
        return f"no answer within {timeout:g} s"
    if isinstance(exc, (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError)):
        return "the connection broke off before the whole file arrived"
    if isinstance(exc, requests.exceptions.ConnectionError):
        return "cannot connect (no network, or the host is unreachable)"
    if isinstance(exc, ValueError) and "hash" in str(exc).lower():
        return "its sha256 is not the pinned one (a corrupted download or a changed source); nothing was kept"
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def fetch_files(entries, *, timeout: float | None = None, progress=None) -> list[Path]:
    """Make sure every file of ``entries`` (:class:`SourceFile`) is in the cache and matches its sha256, downloading
    the missing or damaged ones; return their paths in the cache, in order.

    Parameters
    ----------
    entries : iterable of SourceFile
    timeout : float or None, keyword-only
        Seconds to wait for the server (default :data:`DOWNLOAD_TIMEOUT`).
    progress : "auto", None, bool or a mode of :mod:`lfverify.io`, keyword-only
        Progress per file on stderr (:class:`lfverify.io.Progress`; ``None``: a bar on a terminal only).

    Raises
    ------
    DataFetchError
        A download failed (no answer within ``timeout``, an HTTP error, a broken connection, a sha256 mismatch) or the
        cache folder cannot be written; the cache keeps only the complete, checked files fetched before.
    """
    import pooch
    import requests

    entries = list(entries)
    timeout = DOWNLOAD_TIMEOUT if timeout is None else float(timeout)
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds; got {timeout!r}")
    cache = data_cache()
    fetcher = pooch.create(path=cache, base_url="", retry_if_failed=0,
                           registry={e.relative: f"sha256:{e.sha256}" for e in SOURCE_FILES},
                           urls={e.relative: source_url(e) for e in SOURCE_FILES})
    paths = []
    with _quiet_pooch(), Progress(len(entries), "data files", "file", mode=progress) as bar:
        for entry in entries:
            url = fetcher.get_url(entry.relative)
            downloader = pooch.HTTPDownloader(timeout=timeout) if url.startswith(("http://", "https://")) else None
            try:
                paths.append(Path(fetcher.fetch(entry.relative, downloader=downloader)))
            except (requests.exceptions.RequestException, ValueError) as exc:
                raise DataFetchError(f"could not download {entry.relative} from {url}: {_reason(exc, timeout)}; "
                                     f"{HOW_TO_GET_DATA}") from None
            except OSError as exc:  # the cache folder (or a file in it) cannot be created or written
                reason = exc.strerror or ("permission denied" if isinstance(exc, PermissionError)
                                          else type(exc).__name__)
                raise DataFetchError(f"cannot write the data cache {exc.filename or cache}: {reason}; set "
                                     f"${DATA_CACHE_ENV_VARIABLE} to a writable folder, or "
                                     f"$LFVERIFY_DATASETS to an offline copy") from None
            bar.advance(entry.relative)
    return paths
