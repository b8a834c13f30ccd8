"""The claims each test checks (tests/claim_markers.py, wired in tests/conftest.py): every test names a claim or a
package contract, every registry claim and contract has a test, every property test the registry lists names the
claim that lists it, the closest marker wins, and ``pytest --claim NAME`` selects a claim's tests by the names people
use and, with ``--collect-only``, lists them with their oracles.

Oracles: the registry (lfverify/paper/_registry.py) and the suite's own collection (``--claims-index``); planted
indexes for each breach of the rule, typed out by hand; a pytest run in a subprocess for ``--claim``; a planted module
run by pytest in a subprocess with the suite's conftest, its claims and oracles typed out by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from claim_markers import CLAIMS_INDEX, NO_ORACLE, coverage_problems, oracle_sentence, selected
from lfverify.paper import Evidence, PaperClaim

pytestmark = pytest.mark.claims("package:registry")

REPO = Path(__file__).resolve().parents[2]
#: the mutation tool's tests: outside pyproject's testpaths (CI runs them in their own step), their markers checked here
TOOL_TESTS = "tools/mutation/tests"
TEST_FILES = sorted([*REPO.glob("tests/**/test_*.py"), *REPO.glob(f"{TOOL_TESTS}/test_*.py")])


def _pytest(*args, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _whole_suite_index(config, tmp_path) -> dict:
    """{node id: claim labels} of every test of the suite and of the mutation tool: this session's when it collected
    every test file under tests/ (README's command) and a collection-only run of the tool's tests beside one file of
    tests/ (which loads tests/conftest.py, the markers' plugin), else a collection-only run of both folders."""
    index = config.stash.get(CLAIMS_INDEX, {})
    files = {nodeid.split("::", 1)[0] for nodeid in index}
    suite = {str(p.relative_to(REPO)) for p in TEST_FILES if not str(p.relative_to(REPO)).startswith(TOOL_TESTS)}
    paths = [Path(__file__).relative_to(REPO).as_posix(), TOOL_TESTS] if files >= suite else ["tests", TOOL_TESTS]
    path = tmp_path / "index.json"
    run = _pytest("--collect-only", "-q", "--claims-index", str(path), *paths)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    collected = {**(index if files >= suite else {}), **json.loads(path.read_text())}
    assert any(nodeid.startswith(TOOL_TESTS) for nodeid in collected), "the mutation tool's tests were not collected"
    return collected


def test_every_test_names_a_claim_and_every_claim_has_a_test(request, tmp_path):
    """Oracle: the registry's claims, contracts and property-test targets against the suite's markers."""
    index = _whole_suite_index(request.config, tmp_path)
    assert len(index) > 1000
    assert coverage_problems(index) == []


def test_the_rule_reports_each_planted_breach():
    """Companion: an unmarked test, a claim no test names, a contract no test names and a listed property test whose
    marker forgets its claim are each reported, one line each."""
    claims = (PaperClaim("thm:a", "Theorem 9", "a", "holds", (Evidence("property-test", "tests/t.py::test_p"),)),
              PaperClaim("lem:b", "Lemma 9", "b", "holds", (Evidence("derivation", "x"),)))
    index = {"tests/t.py::test_p[1]": ["package:files"], "tests/t.py::test_q": [], "tests/t.py::test_r": ["thm:a"]}
    assert coverage_problems(index, claims, {"package:files": "", "package:data-sets": ""}) == [
        "tests/t.py::test_q: names no claim (add @pytest.mark.claims(...))",
        "Lemma 9 (lem:b): no test names it",
        "package:data-sets: no test names it",
        "tests/t.py::test_p: the registry lists it for Theorem 9 (thm:a), but its claims marker does not name that "
        "claim"]
    missing = {"tests/t.py::test_r": ["thm:a", "lem:b", "package:files", "package:data-sets"]}
    assert coverage_problems(missing, claims, {"package:files": "", "package:data-sets": ""}) == [
        "Theorem 9 (thm:a): its property test tests/t.py::test_p was not collected"]


def test_selection_by_name_includes_the_corrected_statement_and_the_registry_property_tests():
    """Oracle: the registry: Theorem 1's corrected statement is corrected:thm:f-measure-calibration, and its
    property test is test_theorem_1_kink_counterexample_of_errata_pinned (here planted unmarked)."""
    target = "tests/proofs/test_calibration_properties.py::test_theorem_1_kink_counterexample_of_errata_pinned"
    index = {"a::t1": ["thm:f-measure-calibration"], "a::t2": ["corrected:thm:f-measure-calibration"],
             "a::t3": ["thm:jaccard-calibration"], f"{target}[x]": [], "a::t4": ["package:files"]}
    for name in ("Theorem 1", "Thm. 1", "thm:f-measure-calibration", "theorem-1", "THEOREM 1"):
        assert selected(index, [name]) == ["a::t1", "a::t2", f"{target}[x]"]
    assert selected(index, ["Theorem 1 (corrected)"]) == ["a::t2"]
    assert selected(index, ["package:files", "Thm. 2"]) == ["a::t3", "a::t4"]


def test_pytest_claim_option_runs_the_tests_of_one_claim():
    """Oracle: the markers of three test files; ``--claim 'Thm. 1'`` keeps Theorem 1's tests and its corrected
    statement's, drops the others; an unknown name is a usage error with the close matches."""
    files = ["tests/proofs/test_calibration_properties.py", "tests/proofs/test_corrected_rademacher.py",
             "tests/core/test_metrics.py"]
    run = _pytest("--collect-only", "-q", "--claim", "Thm. 1", *files)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert ids and all(i.startswith("tests/proofs/test_calibration_properties.py::") for i in ids)
    assert any("theorem_1_kink" in i for i in ids)
    run = _pytest("--collect-only", "-q", "--claim", "Lemma 9", "tests/core/test_metrics.py")
    assert run.returncode == 4
    assert ("--claim must be a claim's printed name (e.g. 'Theorem 1' or 'Thm. 1'), its LaTeX label or its proofs/ "
            "file name; got 'Lemma 9'; close matches: ") in run.stderr


PLANTED = '''
"""A planted module.

Its oracle is named below. Oracle: the module's sentence, e.g. Thm. 1 by hand.  Not this one.
"""
import pytest

pytestmark = pytest.mark.claims("Theorem 1")


def test_module_default():
    """Takes the module's claim. Oracle: the test's own
    sentence over two lines!  Then more."""


@pytest.mark.claims("package:documentation")
def test_own_mark_replaces_the_module_default():
    """A rendering."""


@pytest.mark.parametrize("x", [1, pytest.param(2, marks=pytest.mark.claims("Lemma 4", "Lemma 3"))])
@pytest.mark.claims("Lemma 3")
def test_param(x):
    pass


class TestClass:
    """Oracles: the class's sentence."""

    pytestmark = pytest.mark.claims("Lemma 4")

    def test_class_default(self):
        pass

    @pytest.mark.claims("Theorem 1 (corrected)")
    def test_own_mark_replaces_the_class_default(self):
        pass
'''


def _planted_run(tmp_path, *args) -> subprocess.CompletedProcess:
    """pytest on the planted module with the suite's conftest (loaded as a plugin) and its pytest settings."""
    (tmp_path / "test_planted.py").write_text(textwrap.dedent(PLANTED))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", str(REPO / "pyproject.toml"),
                          "--rootdir", str(tmp_path), "-p", "conftest", "--collect-only", "-q", *args,
                          str(tmp_path / "test_planted.py")], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300, env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    return run


def test_the_closest_claims_marker_replaces_the_class_and_module_defaults(tmp_path):
    """Oracle: the planted module's markers, typed out by hand: a test's own mark replaces its module's and its
    class's, a parametrisation's replaces its test's (its own marks add up), the others keep the default."""
    _planted_run(tmp_path, "--claims-index", str(tmp_path / "index.json"))
    assert json.loads((tmp_path / "index.json").read_text()) == {
        "test_planted.py::test_module_default": ["thm:f-measure-calibration"],
        "test_planted.py::test_own_mark_replaces_the_module_default": ["package:documentation"],
        "test_planted.py::test_param[1]": ["lem:unbiased-gradient"],
        "test_planted.py::test_param[2]": ["lem:uniform-convergence", "lem:unbiased-gradient"],
        "test_planted.py::TestClass::test_class_default": ["lem:uniform-convergence"],
        "test_planted.py::TestClass::test_own_mark_replaces_the_class_default": [
            "corrected:thm:f-measure-calibration"]}


def test_claim_with_collect_only_lists_each_selected_test_with_its_oracle(tmp_path):
    """Oracle: the planted module's docstrings, typed out by hand: the test's "Oracle" sentence, else its class's,
    else its module's; without ``--collect-only`` no list."""
    run = _planted_run(tmp_path, "--claim", "Theorem 1")
    module = "Oracle: the module's sentence, e.g. Thm. 1 by hand."
    assert run.stdout.splitlines()[:4] == [
        "the oracles of the 2 tests of --claim 'Theorem 1':",
        "test_planted.py::test_module_default -- Oracle: the test's own sentence over two lines!",
        "test_planted.py::TestClass::test_own_mark_replaces_the_class_default -- Oracles: the class's sentence.",
        ""]
    run = _planted_run(tmp_path, "--claim", "Lemma 3")
    assert run.stdout.splitlines()[:4] == [
        "the oracles of the 2 tests of --claim 'Lemma 3':",
        f"test_planted.py::test_param[1] -- {module}",
        f"test_planted.py::test_param[2] -- {module}",
        ""]
    run = _planted_run(tmp_path)
    assert "the oracles" not in run.stdout and " -- " not in run.stdout
    assert oracle_sentence("No such sentence; the oracle is lower case.") is None
    assert NO_ORACLE == "(no oracle named)"
