"""The suite's units of xdist work: the tests that share an expensive per-process result run on one worker.

Under ``-n``, xdist sets a module- or session-scoped fixture up once per worker that runs a test needing it, and each
worker fills its own caches; when the tests of one expensive result are spread over both workers, the result is
computed twice.  :func:`shared_work_scheduler` (the hook ``pytest_xdist_make_scheduler`` in tests/conftest.py) keeps
them together.  tests/conftest.py wires it into pytest; this module holds it so that a test can import it (a conftest
is not meant to be imported; tests/test_shared_results.py).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

#: Test files that read one expensive per-process result: the derivations' cache (tests/claim_results.py, 19 s of one
#: core) and the statements' corpus (tests/proofs/statement_instances.py, about 20 s).  Under ``-n`` they are one unit
#: of work, run by one worker, so each result is computed once per run instead of once per worker.
SHARED_RESULT_FILES = ("tests/app/test_report.py", "tests/proofs/test_proofs.py", "tests/proofs/test_statements.py",
                       "tests/proofs/test_executable_statements.py", "tests/proofs/test_corrected_rademacher.py")
#: A module- or session-scoped fixture defined in a test file: xdist sets it up once per worker that runs a test of
#: the file, so such a file is one unit of work too (a spied benchmark trial, a study run, a fitted ensemble).
_SHARED_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope=["'](?:module|session)["']""")


def work_unit(nodeid: str, has_shared_fixture) -> str:
    """The unit of xdist work a test belongs to: ``"shared results"`` for a test of SHARED_RESULT_FILES, its file
    for a test of a file where ``has_shared_fixture(path)`` is true, else the test alone."""
    path = nodeid.split("::", 1)[0]
    if path in SHARED_RESULT_FILES:
        return "shared results"
    return path if has_shared_fixture(path) else nodeid


def shared_work_scheduler(config, log):
    """xdist's default distribution (``-n`` without ``--dist``) with the units of :func:`work_unit`.

    xdist's own ``--dist loadgroup`` would group tests by an ``xdist_group`` mark, but with pytest 9.2 and xdist 3.8
    it groups nothing (pytest-dev/pytest-xdist#1386: the node id it rewrites is no longer the one it schedules by),
    so the grouping is this scheduler's: xdist's ``loadscope`` (largest units first) with the units of
    :func:`work_unit`.  Any other ``--dist`` (loadfile, loadscope, worksteal, ...) is left to xdist."""
    if config.getoption("dist") != "load" or config.getoption("distload"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    root = Path(str(config.rootpath))

    @functools.cache
    def has_shared_fixture(path: str) -> bool:
        file = root / path
        return file.is_file() and _SHARED_FIXTURE.search(file.read_text(encoding="utf-8")) is not None

    class SharedWorkScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid, has_shared_fixture)

    return SharedWorkScheduling(config, log)
