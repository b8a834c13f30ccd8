"""Where the tests find the project's shared inputs - the paper's LaTeX source and the staged copy of its data sets -
and how they keep lfverify off the network.

This is the repository's own search, not the package's, and it never names an absolute folder: ``shared/paper``
and ``shared/datasets`` are looked for in the repository's folder and the folders above it (a clone with the
project's ``shared/`` beside it, as here and in CI).  The staged data sets are the folder ``$LFVERIFY_DATASETS``
names if it is set, else the ``shared/datasets`` found; in the second case the variable is set to it for this
process and every command it starts, so that lfverify reads the offline copy (``.ci/run`` sets it the same way).
:data:`DATA_ROOT` is ``None`` when neither exists: the tests that need every data set are skipped with a reason
(:data:`needs_data`).

``$LFVERIFY_TEST_HIDE_SHARED`` (any value but ``""`` or ``0``) hides both, as on a user's clone: the search finds
nothing and ``$LFVERIFY_DATASETS`` is removed from the environment.  ``.ci/run`` runs the suite a second time so.

The tests' own data: ``tests/data/mirror`` holds four small data sets of the staged copy, byte for byte (its
README).  It is served on 127.0.0.1 for the whole session as ``$LFVERIFY_DATA_URL``, so that without the staged
copy lfverify downloads them through its real fetcher (pooch, sha256, cache); a data set the mirror lacks is a 404,
an error at once, never a download from the internet.  :data:`SMALL_DATA_ROOT` is an offline copy holding at least
:data:`MIRROR_DATASETS`: the staged copy, else the mirror's folder.

The user's data cache is never touched: ``LFVERIFY_DATA_CACHE`` points at a temporary folder for the session.
"""

import atexit
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
#: Set (not "" or "0") to hide the staged data sets and the paper's source, as on a user's clone.
HIDE_SHARED_ENV_VARIABLE = "LFVERIFY_TEST_HIDE_SHARED"
HIDDEN = os.environ.get(HIDE_SHARED_ENV_VARIABLE, "").strip() not in ("", "0")
#: The tests' own mirror: a few small data sets with the layout ``<dataset>/<file>`` (tests/data/mirror/README.md).
TEST_MIRROR = REPOSITORY / "tests" / "data" / "mirror"
#: The data sets the mirror holds (every file of heart and fourclass; the file the other two load from).
MIRROR_DATASETS = ("breast-cancer", "diabetes", "heart", "fourclass")


def find_shared(relative: str) -> Path | None:
    """``relative`` (e.g. ``"shared/datasets"``) in the repository's folder or the nearest folder above it that
    holds it; ``None`` if none does, or if the shared inputs are hidden."""
    if HIDDEN:
        return None
    for folder in (REPOSITORY, *REPOSITORY.parents):
        if (folder / relative).exists():
            return folder / relative
    return None


def _staged_data() -> Path | None:
    if HIDDEN:
        os.environ.pop("LFVERIFY_DATASETS", None)
        return None
    named = os.environ.get("LFVERIFY_DATASETS")
    if named:
        return Path(named) if Path(named).is_dir() else None
    found = find_shared("shared/datasets")
    if found is not None and found.is_dir():
        os.environ["LFVERIFY_DATASETS"] = str(found)
        return found
    return None


class MirrorHandler(http.server.BaseHTTPRequestHandler):
    """Serves ``server.root`` with the layout ``<dataset>/<file>``; ``server.fault`` plants one failure ("404",
    "corrupt": the last byte flipped, "slow": 1.5 s before the answer, "partial": half the body, then the connection
    closed); ``server.requests`` lists the paths asked for."""

    timeout = 10  # seconds a connection may sit idle: the server's close, which waits for its threads, is bounded

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        fault, root = self.server.fault, Path(self.server.root)
        self.server.requests.append(self.path)
        path = (root / self.path.lstrip("/")).resolve()
        if fault == "404" or not path.is_file() or root.resolve() not in path.parents:
            self.send_error(404, "Not Found")
            return
        body = path.read_bytes()
        if fault == "corrupt":
            body = body[:-1] + bytes([body[-1] ^ 1])
        if fault == "slow":
            time.sleep(1.5)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if fault == "partial":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)


class _MirrorServer(http.server.ThreadingHTTPServer):
    """The mirror's server: closing it waits for its request threads, so that none outlives the test that made it
    (a "slow" answer finishes 1.5 s after its request, when the client has long given up, and its broken pipe used
    to be reported on whichever later test's stderr was being captured); a client gone away or silent is the planted
    fault, not an error to print."""

    daemon_threads = False
    block_on_close = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def serve_mirror(root: Path) -> http.server.ThreadingHTTPServer:
    """A server of ``root`` (:class:`MirrorHandler`) on a free port of 127.0.0.1, in a daemon thread; its address
    is ``f"http://127.0.0.1:{server.server_address[1]}/"``.  The caller stops it with :func:`stop_mirror`."""
    httpd = _MirrorServer(("127.0.0.1", 0), MirrorHandler)
    httpd.root, httpd.fault, httpd.requests = root, None, []
    # a short poll: shutdown() waits up to one poll interval (0.5 s by default, paid at every test's teardown)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True,
                     name="lfverify-test-mirror").start()
    return httpd


def stop_mirror(httpd: http.server.ThreadingHTTPServer) -> None:
    """Stop a server of :func:`serve_mirror`: its loop, then its socket and request threads (waited for)."""
    httpd.shutdown()
    httpd.server_close()


PAPER_TEX = find_shared("shared/paper/bao-sugiyama-2020-linear-fractional.tex")
DATA_ROOT = _staged_data()
SMALL_DATA_ROOT = DATA_ROOT if DATA_ROOT is not None else TEST_MIRROR
TEST_CACHE = Path(tempfile.mkdtemp(prefix="lfverify-test-cache-"))
atexit.register(shutil.rmtree, TEST_CACHE, ignore_errors=True)
os.environ["LFVERIFY_DATA_CACHE"] = str(TEST_CACHE)
SESSION_MIRROR = serve_mirror(TEST_MIRROR)
atexit.register(stop_mirror, SESSION_MIRROR)
os.environ["LFVERIFY_DATA_URL"] = f"http://127.0.0.1:{SESSION_MIRROR.server_address[1]}/"
needs_tex = pytest.mark.skipif(PAPER_TEX is None, reason="the paper's LaTeX source (shared/paper) is not available")
needs_data = pytest.mark.skipif(DATA_ROOT is None, reason="the staged data sets (shared/datasets) are not available")


def needs_datasets(*names: str):
    """Skip unless every data set of ``names`` can be had: from the staged copy, or else from the tests' mirror."""
    lacking = [] if DATA_ROOT is not None else [n for n in names if n not in MIRROR_DATASETS]
    return pytest.mark.skipif(bool(lacking), reason=f"the staged data sets (shared/datasets) are not available and "
                                                     f"the tests' mirror lacks {', '.join(lacking)}")
