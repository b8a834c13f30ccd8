"""The suite's per-process results run once under ``-n``: the test files that read the derivations' cache
(tests/claim_results.py) or the statements' corpus (tests/proofs/statement_instances.py) are one unit of xdist work
(tests/shared_work.py, wired in tests/conftest.py), and that list follows the code; so is each test file that
defines a module- or session-scoped fixture.

Oracles: the files' own text (which of them read a shared result), read here with a regular expression; a real
``pytest -n 2 -v`` run in a subprocess, whose lines say which worker ran each test; planted file lists and planted
``-v`` lines for the companions.

Private: the scheduler's ``_split_scope``, the method xdist's own loadscope, loadfile and loadgroup schedulers
override to say which tests form one unit of work; the hook's scheduler overrides it too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import shared_work

pytestmark = pytest.mark.claims("package:registry")

REPO = Path(__file__).resolve().parents[1]
#: what marks a test file as a reader of a per-process result
_READS_SHARED = re.compile(r"\b(claim_results|CLAIM_RESULTS|statement_instances)\b")


def listing_problems(listed, root: Path = REPO) -> list[str]:
    """What is wrong with a list of shared-result files: a listed file that does not exist or reads no shared result,
    and a test file that reads one but is not listed."""
    readers = {str(p.relative_to(root)) for p in root.glob("tests/**/test_*.py") if _READS_SHARED.search(p.read_text())}
    readers.discard("tests/test_shared_results.py")  # this file names them, it reads none
    problems = [f"{f}: listed, but no such file" for f in listed if not (root / f).is_file()]
    problems += [f"{f}: listed, but it reads no shared result" for f in listed
                 if (root / f).is_file() and f not in readers]
    problems += [f"{f}: reads a shared result, not listed" for f in sorted(readers - set(listed))]
    return problems


def test_the_listed_files_are_exactly_those_that_read_a_shared_result():
    assert listing_problems(shared_work.SHARED_RESULT_FILES) == []


def test_a_missing_or_extra_file_in_the_list_is_reported():
    """Companion: the list without one reader, and with a file that reads nothing, and with one that does not exist."""
    listed = list(shared_work.SHARED_RESULT_FILES)
    assert listing_problems(listed[1:]) == [f"{listed[0]}: reads a shared result, not listed"]
    assert listing_problems([*listed, "tests/core/test_metrics.py"]) == [
        "tests/core/test_metrics.py: listed, but it reads no shared result"]
    assert listing_problems([*listed, "tests/core/test_gone.py"]) == [
        "tests/core/test_gone.py: listed, but no such file"]


def test_a_listed_files_tests_share_one_unit_a_shared_fixtures_file_is_one_and_every_other_test_its_own():
    listed = shared_work.SHARED_RESULT_FILES[0]
    never = lambda path: False  # noqa: E731
    assert {shared_work.work_unit(f"{f}::test_x[1]", never) for f in shared_work.SHARED_RESULT_FILES} == {
        shared_work.work_unit(f"{listed}::test_y", never)}
    other = "tests/core/test_metrics.py::test_x[tests/proofs/test_proofs.py]"
    assert shared_work.work_unit(other, never) == other
    metrics_file = "tests/core/test_metrics.py"
    assert shared_work.work_unit(other, lambda path: path == metrics_file) == metrics_file


class _Config:
    """The options and the one value the hook and xdist's scheduler read, and the suite's root."""

    rootpath = REPO

    def __init__(self, dist):
        self.values = {"dist": dist, "distload": False, "tx": ["popen", "popen"]}

    def getoption(self, name):
        return self.values[name]

    getvalue = getoption


def test_the_hook_schedules_by_work_unit_under_the_default_distribution_only():
    """A file with a module- or session-scoped fixture (read from its text) is one unit, a file without one is not."""
    scheduler = shared_work.shared_work_scheduler(_Config("load"), None)
    assert scheduler._split_scope("tests/proofs/test_proofs.py::test_a") == "shared results"
    assert 'scope="module"' in (REPO / "tests/experiments/test_protocol_path.py").read_text()
    assert scheduler._split_scope("tests/experiments/test_protocol_path.py::test_a[1]") == (
        "tests/experiments/test_protocol_path.py")
    assert "scope=" not in (REPO / "tests/core/test_metrics.py").read_text()
    assert scheduler._split_scope("tests/core/test_metrics.py::test_a") == "tests/core/test_metrics.py::test_a"
    for explicit in ("loadfile", "loadscope", "worksteal", "no"):
        assert shared_work.shared_work_scheduler(_Config(explicit), None) is None


def workers_of(verbose_output: str, path: str) -> set[str]:
    """The xdist workers (``gw0``, ...) that ran a test of ``path``, read from ``pytest -v``'s result lines."""
    return set(re.findall(rf"^\[(gw\d+)\] .*? {re.escape(path)}::", verbose_output, flags=re.MULTILINE))


@pytest.mark.slow  # two pytest workers of their own: 12 s, for the suite's speed only (CI runs -m slow)
def test_under_two_workers_a_shared_result_files_tests_all_run_on_one():
    """A real ``pytest -n 2`` of a listed file beside an unlisted one: every test of the listed file on one worker
    (xdist's own loadgroup fails exactly this with pytest 9.2, pytest-dev/pytest-xdist#1386), and the unlisted file's
    tests spread over both."""
    listed, other = "tests/proofs/test_corrected_rademacher.py", "tests/core/test_metrics.py"
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "-v", listed, other],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]
    assert len(workers_of(done.stdout, listed)) == 1, done.stdout[-3000:]
    assert workers_of(done.stdout, other) == {"gw0", "gw1"}


def test_workers_of_reads_a_split_run():
    """Companion: lines of a run that split a file over two workers give both workers."""
    lines = ("[gw0] [ 50%] PASSED tests/proofs/test_corrected_rademacher.py::test_a \n"
             "[gw1] [100%] PASSED tests/proofs/test_corrected_rademacher.py::test_b[x] \n")
    assert workers_of(lines, "tests/proofs/test_corrected_rademacher.py") == {"gw0", "gw1"}
    assert workers_of(lines, "tests/core/test_metrics.py") == set()


def test_the_suite_still_runs_without_xdist():
    """The scheduler hook is xdist's, declared optional: ``-p no:xdist`` (pytest alone) collects the suite instead of
    stopping at an unknown hook.  Oracle: the exit status and the count pytest prints."""
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "--collect-only",
                           "-q", "tests/test_shared_results.py"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"^\d+ tests? collected", done.stdout, flags=re.MULTILINE), done.stdout[-1000:]


@pytest.mark.parametrize("mutant, kept", [(None, True), ("lfverify.m.x_f__mutmut_1", True),
                                          ("lfverify.m.x_f__lfv_args_1", True), ("stats", False), ("", False),
                                          ("fail", False)])
def test_the_derivations_cache_keeps_a_result_except_in_mutmuts_main_process(monkeypatch, mutant, kept):
    """Oracle: a counting stand-in for run_claims.  In a plain run or a mutant's own run a claim is checked once per
    process; in mutmut's main process (MUTANT_UNDER_TEST names its phase: "stats", "" for its clean run, "fail")
    every read checks it again, so that mutmut credits the derivation to every test that reads it and no forked
    mutant's run reads the clean result (tools/mutation/README.md).  Found by a re-measure of proofs/ on
    2026-12-07: 58 mutants detected in a fresh process survived in mutmut's forked runs after the clean run."""
    import claim_results

    calls = []
    monkeypatch.setattr(claim_results, "run_claims", lambda claims: calls.append(claims[0].key) or ["result"])
    if mutant is None:
        monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    else:
        monkeypatch.setenv("MUTANT_UNDER_TEST", mutant)
    cache = claim_results.ClaimsCheckedOnDemand()
    cache.__dict__["claims"] = [type("Claim", (), {"key": "k"})()]  # the cached_property, filled by hand
    assert cache["k"] == "result" and cache["k"] == "result"
    assert calls == (["k"] if kept else ["k", "k"]) and ("k" in cache) is kept


@pytest.mark.parametrize("environ, main, forked", [
    ({}, False, False), ({"MUTANT_UNDER_TEST": "stats"}, True, False), ({"MUTANT_UNDER_TEST": ""}, True, False),
    ({"MUTANT_UNDER_TEST": "fail"}, True, False), ({"MUTANT_UNDER_TEST": "lfverify.m.x_f__mutmut_1"}, False, True),
    ({"MUTANT_UNDER_TEST": "lfverify.m.x_f__mutmut_1", "LFVERIFY_FRESH_MUTANT_RUN": "1"}, False, False),
    ({"MUTANT_UNDER_TEST": "lfverify.m.x_f__lfv_args_1"}, False, False)])
def test_the_mutation_runs_are_told_apart(environ, main, forked):
    """Oracle: mutmut 3.8's phase names (tools/mutation/README.md) and the tool's own variable for a fresh process."""
    import mutmut_runs

    assert mutmut_runs.in_mutmut_main_process(environ) is main
    assert mutmut_runs.in_forked_mutant_run(environ) is forked


def test_a_dask_cluster_skips_its_test_only_in_a_forked_mutant_run(monkeypatch):
    """mutmut's forked run inherits Dask's state without its event loop's thread, and a LocalCluster started there
    waited until mutmut's wall limit (2026-12-08: 20 minutes and more per mutant); there it skips the test (a
    fresh judgement runs it).  Companion: in a fresh process of the tool the class is left as it is."""
    import distributed

    import mutmut_runs

    original = distributed.LocalCluster.__init__
    fresh = {"MUTANT_UNDER_TEST": "lfverify.m.x_f__mutmut_1", mutmut_runs.FRESH: "1"}
    assert not mutmut_runs.guard_clusters(monkeypatch, fresh) and distributed.LocalCluster.__init__ is original
    assert mutmut_runs.guard_clusters(monkeypatch, {"MUTANT_UNDER_TEST": "lfverify.m.x_f__mutmut_1"})
    with pytest.raises(pytest.skip.Exception, match="fresh judgement runs this test"):
        distributed.LocalCluster(n_workers=0, processes=False)
