"""Where the tests find the project's shared inputs - the paper's LaTeX source and the staged copy of its data sets -
and how they keep lfverify off the network.

This is the repository's own search, not the package's: ``shared/paper`` and ``shared/datasets`` are looked for
walking up from the current folder and from this folder (then /work).  The staged data sets are the folder
``$LFVERIFY_DATASETS`` names if it is set, else the ``shared/datasets`` found; in the second case the variable is set
to it for this process and every command it starts, so that lfverify reads the offline copy (``.ci/run`` sets it
the same way).  ``None`` when absent: the tests that need them are skipped with a reason.

The user's data cache is never touched: ``LFVERIFY_DATA_CACHE`` points at a temporary folder for the session and
``LFVERIFY_DATA_URL`` at a closed port of 127.0.0.1, so a test that would download fails at once (the fetcher's own
tests set both to their local server).
"""

import atexit
import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest


def find_shared(relative: str) -> Path | None:
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for folder in (start, *start.parents):
            if (folder / relative).exists():
                return folder / relative
    fallback = Path("/work") / relative
    return fallback if fallback.exists() else None


def _staged_data() -> Path | None:
    named = os.environ.get("LFVERIFY_DATASETS")
    if named:
        return Path(named) if Path(named).is_dir() else None
    found = find_shared("shared/datasets")
    if found is not None and found.is_dir():
        os.environ["LFVERIFY_DATASETS"] = str(found)
        return found
    return None


def _closed_port() -> int:
    with socket.socket() as probe:  # a port the system just handed out and nobody listens on any more
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PAPER_TEX = find_shared("shared/paper/bao-sugiyama-2020-linear-fractional.tex")
DATA_ROOT = _staged_data()
TEST_CACHE = Path(tempfile.mkdtemp(prefix="lfverify-test-cache-"))
atexit.register(shutil.rmtree, TEST_CACHE, ignore_errors=True)
os.environ["LFVERIFY_DATA_CACHE"] = str(TEST_CACHE)
os.environ["LFVERIFY_DATA_URL"] = f"http://127.0.0.1:{_closed_port()}/"
needs_tex = pytest.mark.skipif(PAPER_TEX is None, reason="the paper's LaTeX source (shared/paper) is not available")
needs_data = pytest.mark.skipif(DATA_ROOT is None, reason="the staged data sets (shared/datasets) are not available")
