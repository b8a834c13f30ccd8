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
once per run, not once per worker (``pytest_xdist_make_scheduler``, tests/shared_work.py).

Threads: the test process (each xdist worker under ``-n auto``) and every command it starts run their BLAS and
OpenMP libraries on one thread: several threads per process oversubscribe a small or busy machine, where OpenMP's
waiting threads slow a tree ensemble's fit several-fold (FINDINGS.md, "A faster suite").  The tests measure no
speed.
"""

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings
from threadpoolctl import threadpool_limits

import mutmut_runs
import shared_files  # noqa: F401 (sets LFVERIFY_DATASETS and the network guard before any test module loads)
from claim_markers import CLAIMS_INDEX, marked_claims, oracle_of, selected, wanted_labels
from claim_results import CLAIM_RESULTS
from shared_work import shared_work_scheduler

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("LFVERIFY_HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _no_dask_cluster_in_a_forked_mutant_run(monkeypatch):
    """In a run mutmut forks for a mutant, a test that starts a Dask LocalCluster is skipped instead of waiting
    forever (tests/mutmut_runs.py); everywhere else this does nothing."""
    mutmut_runs.guard_clusters(monkeypatch)


@pytest.fixture(scope="session")
def claim_results():
    """Every derivation's result, each claim checked at most once in this process (tests/claim_results.py)."""
    return CLAIM_RESULTS


@pytest.fixture
def ascii_locale(monkeypatch):
    """Every ``Path.read_text`` that names no encoding decodes as ASCII, as under LC_ALL=C without Python's UTF-8
    mode (a minimal container): a read that relies on the locale fails on a non-ASCII file, one that names UTF-8
    does not."""
    read_text = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None, errors=None: read_text(
        self, encoding=encoding or "ascii", errors=errors))


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


@pytest.hookimpl(optionalhook=True)  # xdist's hook: the suite also runs without xdist (-p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """xdist's default distribution with the suite's units of work (tests/shared_work.py)."""
    return shared_work_scheduler(config, log)


def pytest_report_collectionfinish(config, items):
    """With ``--claim`` and ``--collect-only``: one line per selected test, its node id and its oracle (the "Oracle"
    sentence of its docstring, else its class's or module's; tests/claim_markers.py)."""
    names = config.getoption("claim")
    if not (names and config.getoption("collectonly")):
        return None
    return [f"the oracles of the {len(items)} tests of --claim {', '.join(map(repr, names))}:",
            *(f"{item.nodeid} -- {oracle_of(item)}" for item in items), ""]
