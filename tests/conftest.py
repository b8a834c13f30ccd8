"""Shared test configuration.

Hypothesis profiles, chosen by the environment variable LFVERIFY_HYPOTHESIS_PROFILE:

* ``dev`` (default): random, 50 examples per property, no deadline (numerical code has uneven run times).
* ``ci``: derandomized (the same examples on every run), no deadline, no example database, failing examples
  printed as reproduction blobs.  ``.ci/run`` selects it.
* ``thorough``: 1000 examples per property, for a deliberate hunt before a release.

Claims (tests/claim_markers.py): every test names the registry claims or package contracts its oracle checks with
the ``claims`` marker (the closest marker wins); ``pytest --claim NAME`` runs the tests of one claim (its corrected
statement's included) and ``pytest --claim NAME --collect-only`` lists them with their oracles.

Data (tests/shared_files.py): the staged copy of the paper's data sets is found in or above the repository and
handed to lfverify through ``LFVERIFY_DATASETS`` (unless it is set already); without it (a user's clone, or
``LFVERIFY_TEST_HIDE_SHARED=1``) the tests that need every data set are skipped with a reason.  ``LFVERIFY_DATA_URL``
is the tests' own mirror of four small data sets on 127.0.0.1 and the data cache a temporary folder, so the tests,
and the commands they start, never reach the network nor fill the user's cache.

Scheduling (``-n``): the files that read the derivations' cache or the statements' corpus are one unit of work and
each file with a module- or session-scoped fixture another, so that under xdist each expensive result is computed
once per run, not once per worker (``pytest_xdist_make_scheduler``; tests/test_shared_results.py).

Threads: the test process (each xdist worker under ``-n auto``) and every command it starts run their BLAS and
OpenMP libraries on one thread: several threads per process oversubscribe a small or busy machine, where OpenMP's
waiting threads slow a tree ensemble's fit several-fold (FINDINGS.md, "A faster suite").  The tests measure no
speed.
"""

import functools
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import settings
from threadpoolctl import threadpool_limits

import shared_files  # noqa: F401 (sets LFVERIFY_DATASETS and the network guard before any test module loads)
from claim_markers import CLAIMS_INDEX, marked_claims, oracle_of, selected, wanted_labels
from claim_results import CLAIM_RESULTS

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("LFVERIFY_HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(scope="session")
def claim_results():
    """Every derivation's result, each claim checked at most once in this process (tests/claim_results.py)."""
    return CLAIM_RESULTS


def pytest_addoption(parser):
    group = parser.getgroup("lfverify")
    group.addoption("--claim", action="append", default=[], metavar="NAME",
                    help="run only the tests of the claim NAME: its printed name ('Theorem 1', 'Thm. 1'), LaTeX "
                         "label, proofs/ file name or a package contract; its corrected statement's tests included "
                         "(repeatable)")
    group.addoption("--claims-index", metavar="PATH",
                    help="write {test id: claim labels} of every collected test to PATH as JSON")


def pytest_configure(config):
    os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"
    threadpool_limits(1)  # the libraries this process has loaded already
    try:
        wanted_labels(config.getoption("claim"))
    except (TypeError, ValueError) as exc:
        raise pytest.UsageError(str(exc)) from None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Record the claims of every collected test; ``--claim`` keeps the tests of the claims it names; tests marked
    ``slow`` are skipped unless a marker expression (``-m slow``) selects them."""
    try:
        index = {item.nodeid: marked_claims(item) for item in items}
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[CLAIMS_INDEX] = index
    if config.getoption("claims_index"):
        with open(config.getoption("claims_index"), "w") as fh:
            json.dump(index, fh, indent=1)
    names = config.getoption("claim")
    if names:
        keep = set(selected(index, names))
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in keep])
        items[:] = [item for item in items if item.nodeid in keep]
    if config.option.markexpr:
        return
    skip = pytest.mark.skip(reason="slow: select with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


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


def pytest_xdist_make_scheduler(config, log):
    """xdist's default distribution (``-n`` without ``--dist``) with the units of :func:`work_unit`.

    xdist's own ``--dist loadgroup`` would group tests by an ``xdist_group`` mark, but with pytest 9.2 and xdist 3.8
    it groups nothing (pytest-dev/pytest-xdist#1386: the node id it rewrites is no longer the one it schedules by),
    so the grouping is this scheduler's: xdist's ``loadscope`` (largest units first) with the units of
    :func:`work_unit`.  Any ``--dist`` given explicitly is left to xdist."""
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


def pytest_report_collectionfinish(config, items):
    """With ``--claim`` and ``--collect-only``: one line per selected test, its node id and its oracle (the "Oracle"
    sentence of its docstring, else its class's or module's; tests/claim_markers.py)."""
    names = config.getoption("claim")
    if not (names and config.getoption("collectonly")):
        return None
    return [f"the oracles of the {len(items)} tests of --claim {', '.join(map(repr, names))}:",
            *(f"{item.nodeid} -- {oracle_of(item)}" for item in items), ""]
