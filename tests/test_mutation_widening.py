"""benchmarks/mutation_testing.py's widened runs and mutation_import_hook.py, on made-up copies in a temporary folder
(real pytest processes; no mutmut; a few seconds).

A widened run judges an undetected (or timed-out) mutant again in a fresh pytest process against the whole test
files of its function and of its module.  Oracles: made-up stats whose file choice is worked out by hand from the
documented rule; tiny packages whose tests fail exactly on the hand-made mutants (mutmut's mutants read
``MUTANT_UNDER_TEST``, as its trampolines do; operator mutants are imported from their mutated source).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmark_scripts import BENCHMARKS

if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
import mutation_import_hook  # noqa: E402
import mutation_testing as mt  # noqa: E402


# ---------------------------------------------------------------------- which files, which status
def test_widened_files_take_the_functions_files_then_the_modules_cheapest_first_within_the_cap(tmp_path):
    """Oracle: the documented rule (function's files, then module's, each cheapest first, while the total stays
    within WIDEN_MAX_SECONDS; the tool's own files never) on made-up stats, each answer worked out by hand."""
    cap = mt.WIDEN_MAX_SECONDS
    names = ["lfverify.m.x_f__mutmut_1", "lfverify.m.x_g__mutmut_1", "lfverify.m.x_h__mutmut_1",
             "lfverify.m.x_k__mutmut_1"]
    scratch = mt.Scratch(tmp_path, {"lfverify/m.py": names},
                         {"lfverify.m.x_f": ["tests/test_mutation_report.py::test_a"],
                          "lfverify.m.x_g": ["tests/test_slow.py::test_a"],
                          "lfverify.m.x_h": ["tests/test_mutation_report.py::test_a", "tests/test_fast.py::test_a"],
                          "lfverify.m.x_k": ["tests/test_mid.py::test_a"]},
                         {"tests/test_mutation_report.py::test_a": 1.0, "tests/test_slow.py::test_a": 50.0,
                          "tests/test_slow.py::test_b": cap - 49.0, "tests/test_fast.py::test_a": 1.0,
                          "tests/test_mid.py::test_a": 30.0}, {}, "HEAD abc")
    # x_f: its only file is the tool's own; module's files cheapest first: fast (1), mid (30): 31 s; slow (91) no
    assert mt.widened_files(scratch, "lfverify.m", "x_f") == ["tests/test_fast.py", "tests/test_mid.py"]
    # x_g: its file (50 + 41 = 91 s) is over the cap; then fast and mid
    assert mt.widened_files(scratch, "lfverify.m", "x_g") == ["tests/test_fast.py", "tests/test_mid.py"]
    # x_k: its own file first although the module has a cheaper one
    assert mt.widened_files(scratch, "lfverify.m", "x_k") == ["tests/test_mid.py", "tests/test_fast.py"]
    scratch.duration_by_test["tests/test_slow.py::test_b"] = cap - 50.0  # slow is exactly the cap
    assert mt.widened_files(scratch, "lfverify.m", "x_g") == ["tests/test_slow.py"]  # + fast: 1 s over
    assert mt.widened_files(scratch, "lfverify.m", "x_h") == ["tests/test_fast.py", "tests/test_mid.py"]
    scratch.duration_by_test["tests/test_mid.py::test_a"] = cap - 1.0  # fast + mid: exactly the cap
    assert mt.widened_files(scratch, "lfverify.m", "x_h") == ["tests/test_fast.py", "tests/test_mid.py"]
    scratch.duration_by_test["tests/test_mid.py::test_a"] = cap - 0.5
    assert mt.widened_files(scratch, "lfverify.m", "x_h") == ["tests/test_fast.py"]


@pytest.mark.parametrize("code, status", [
    (None, "timeout"), (0, "survived"), (5, "survived"), (1, "killed"), (2, "killed"), (3, "killed"),
    (4, "suspicious"), (-11, "segfault"), (-9, "segfault"), (mutation_import_hook.NOT_APPLIED, "not applied"),
    (96, "suspicious"), (98, "suspicious")])
def test_widened_status_of_every_pytest_exit_status(code, status):
    """Truth table (pytest's documented exit codes: 0 ok, 1 tests failed, 2 interrupted - a collection error -,
    3 internal error, 4 usage error, 5 no tests); a usage error is never a kill."""
    assert mt.widened_status(code) == status


@pytest.mark.parametrize("narrowed, widened, takes", [
    ("survived", "killed", True), ("survived", "timeout", True), ("survived", "segfault", True),
    ("survived", "survived", False), ("survived", "not applied", False), ("survived", "suspicious", False),
    ("no tests", "killed", True), ("no tests", "survived", False),
    ("timeout", "killed", True), ("timeout", "survived", True), ("timeout", "timeout", True),
    ("timeout", "not applied", False), ("timeout", "suspicious", False),
    ("killed", "survived", False), ("segfault", "survived", False), ("suspicious", "killed", False)])
def test_which_narrowed_statuses_take_the_widened_one(narrowed, widened, takes):
    """Truth table of takes_widened_status: a widened kill counts for an undetected or timed-out mutant; a
    widened pass also replaces a narrowed timeout; a run that says nothing (not applied, suspicious) changes
    nothing; a detected mutant is never judged again."""
    assert mt.takes_widened_status(narrowed, widened) is takes


# ---------------------------------------------------------------------- mutmut's mutants
def test_widening_runs_undetected_mutmut_mutants_against_the_files_of_their_function_and_module(tmp_path):
    """A function credited (by mutmut's stats) to one test of a file whose other test detects the mutant - what a
    shared fixture does - is detected by the widened run and recorded as killed with the files; a mutant no test
    detects stays survived; a detected mutant is not rerun; a function without tests, and one credited only to
    an unrelated file (what an import-time function gets), are run against the files of their module's tests.
    Timeouts rerun their narrowed test with a limit from its clean run: one that hangs times out again, one whose
    test fails is killed, one that passes is undetected and then widened."""
    tests = tmp_path / "mutants" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_x.py").write_text(
        "import os, time\n"
        "def test_credited():\n"
        "    if os.environ['MUTANT_UNDER_TEST'] == 'lfverify.m.x_f__mutmut_4':\n"
        "        time.sleep(120)\n"
        "    assert os.environ['MUTANT_UNDER_TEST'] != 'lfverify.m.x_f__mutmut_5'\n"
        "def test_reads_the_fixture():\n"
        "    assert os.environ['MUTANT_UNDER_TEST'] not in ('lfverify.m.x_f__mutmut_1', 'lfverify.m.x_h__mutmut_1',\n"
        "                                                    'lfverify.m.x_k__mutmut_1', 'lfverify.m.x_f__mutmut_6')\n")
    (tests / "test_y.py").write_text("def test_unrelated():\n    pass\n")
    names = ["lfverify.m.x_f__mutmut_1", "lfverify.m.x_f__mutmut_2", "lfverify.m.x_g__mutmut_1",
             "lfverify.m.x_h__mutmut_1", "lfverify.m.x_f__mutmut_3", "lfverify.m.x_k__mutmut_1",
             "lfverify.m.x_f__mutmut_4", "lfverify.m.x_f__mutmut_5", "lfverify.m.x_f__mutmut_6"]
    scratch = mt.Scratch(tmp_path, {"lfverify/m.py": [n for n in names if "x_h" not in n]},
                         {"lfverify.m.x_f": ["tests/test_x.py::test_credited"],
                          "lfverify.m.x_g": ["tests/test_y.py::test_unrelated"],
                          "lfverify.m.x_k": ["tests/test_y.py::test_unrelated"]},
                         {"tests/test_x.py::test_credited": 0.01, "tests/test_x.py::test_reads_the_fixture": 0.01,
                          "tests/test_y.py::test_unrelated": 0.02}, {}, "HEAD abc")
    statuses = ["survived", "survived", "killed", "no tests", "timeout", "survived", "timeout", "timeout", "timeout"]
    results = {n: {"status": s} for n, s in zip(names, statuses)}
    said = []
    detected = mt.widen_undetected(scratch, results, dict.fromkeys(names, "lfverify.m"), max_children=2,
                                   say=said.append)
    both, credited = ["tests/test_x.py", "tests/test_y.py"], ["tests/test_x.py::test_credited"]
    assert detected == 4  # f_1, h_1, k_1, and f_6 (a timeout whose test passed, detected by the widened files)
    assert results["lfverify.m.x_f__mutmut_1"] == {"status": "killed", "widened": both}
    assert results["lfverify.m.x_f__mutmut_2"] == {"status": "survived"}
    assert results["lfverify.m.x_g__mutmut_1"] == {"status": "killed"}
    assert results["lfverify.m.x_h__mutmut_1"] == {"status": "killed", "widened": both}
    # credited to test_y.py only (which passes); test_x.py, a file of the module's tests, detects it
    assert results["lfverify.m.x_k__mutmut_1"] == {"status": "killed", "widened": ["tests/test_y.py",
                                                                                  "tests/test_x.py"]}
    # a timeout whose narrowed test passes within the measured limit: undetected (and no widened test fails)
    assert results["lfverify.m.x_f__mutmut_3"] == {"status": "survived", "rejudged": credited}
    assert results["lfverify.m.x_f__mutmut_4"] == {"status": "timeout", "rejudged": credited}
    assert results["lfverify.m.x_f__mutmut_5"] == {"status": "killed", "rejudged": credited}
    assert results["lfverify.m.x_f__mutmut_6"] == {"status": "killed", "rejudged": credited, "widened": both}
    store = json.loads((tmp_path / mt.WIDENED_STORE).read_text())
    clean = store[json.dumps(["clean", credited, None])]
    assert clean["exit_code"] == 0
    hang = store[json.dumps(["lfverify.m.x_f__mutmut_4", credited, None, "clean"])]
    assert hang["limit"] == round(mt.clean_limit(clean["seconds"]), 1) and hang["exit_code"] is None
    assert hang["limit"] <= hang["seconds"] < hang["limit"] + 30  # killed at the limit, not after 120 s
    assert said == ["  [widen] 1 clean runs of the tests of the mutants below (timing, and the import hook's control)",
                    "  [widen] 4 mutants run again in a fresh process",
                    "  [widen] timeouts judged again with a limit from a clean run: 1 of 4 time out again, "
                    "2 pass",
                    "  [widen] 6 mutants run again in a fresh process"]
    # kept in the copy: a second call reruns nothing and gives the same answer
    results2 = {"lfverify.m.x_f__mutmut_1": {"status": "survived"}}
    said.clear()
    assert mt.widen_undetected(scratch, results2, {"lfverify.m.x_f__mutmut_1": "lfverify.m"}, max_children=1,
                               say=said.append) == 1
    assert said == [] and results2["lfverify.m.x_f__mutmut_1"]["status"] == "killed"


# ---------------------------------------------------------------------- operator mutants, through the import hook
MODULE = '''\
def _table():
    return {"a": 1.0, "b": 2.0}


TABLE = _table()


def scale(x, factor=2.0):
    return x * factor
'''
TESTS = '''\
from lfverify.m import TABLE, scale


def test_table():
    assert TABLE == {"a": 1.0, "b": 2.0}


def test_scale():
    assert scale(3.0, 2.0) == 6.0
'''


class _OperatorMutant:
    """The attributes run_operators reads of a mutation_operators.Mutant, with one text replacement as the edit."""

    def __init__(self, name, key, old, new, module="lfverify.m"):
        self.name, self.module, self.key, self.old, self.new = name, module, key, old, new
        self.path = module.replace(".", "/") + ".py"
        self.diff = f"-    {old}\n+    {new}"

    def apply(self, source):
        assert self.old in source
        return source.replace(self.old, self.new)

    def to_json(self):
        return {"name": self.name, "module": self.module, "function": self.key[2:], "key": self.key,
                "firstlineno": 1}


def _operator_copy(tmp_path):
    (tmp_path / "lfverify").mkdir()
    (tmp_path / "lfverify" / "__init__.py").write_text("")
    (tmp_path / "lfverify" / "m.py").write_text(MODULE)
    (tmp_path / "lfverify" / "n.py").write_text("def unused():\n    return 0\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_m.py").write_text(TESTS)
    (tmp_path / "tests" / "test_other.py").write_text("def test_other():\n    pass\n")
    trampolined = {"lfverify/m.py": ["lfverify.m.x_scale__mutmut_1", "lfverify.m.x__table__mutmut_1"],
                   "lfverify/n.py": ["lfverify.n.x_unused__mutmut_1"]}
    return mt.Scratch(tmp_path, trampolined,
                      {"lfverify.m.x_scale": ["tests/test_m.py::test_scale"],
                       # an import-time function is credited to the first test that imported its module
                       "lfverify.m.x__table": ["tests/test_other.py::test_other"],
                       "lfverify.m.x_helper": ["tests/test_m.py::test_table"],
                       "lfverify.n.x_unused": ["tests/test_other.py::test_other"]},
                      {"tests/test_m.py::test_scale": 0.01, "tests/test_m.py::test_table": 0.01,
                       "tests/test_other.py::test_other": 0.01}, {}, "HEAD abc")


def test_operator_mutants_are_widened_in_a_fresh_process_that_imports_the_mutated_module(tmp_path, monkeypatch):
    """The narrowed (warm, patched in memory) run leaves ``_table``'s mutant undetected: the function ran at
    import, before any patch.  The widened run imports lfverify.m from the mutated source, so test_table fails:
    killed.  An equivalent mutant stays survived; a module whose control fails (no widened file imports
    lfverify.n: the hook is never in force) keeps its narrowed statuses with the reason; the module file on disk
    is untouched.  Oracle: the tiny package's tests, which fail exactly on the first mutant."""
    mutants = [_OperatorMutant("lfverify.m.x__table__lfv_args_1", "x__table", '"b": 2.0', '"b": 3.0'),
               _OperatorMutant("lfverify.m.x_scale__lfv_dropkw_1", "x_scale", "return x * factor",
                               "return factor * x"),
               _OperatorMutant("lfverify.n.x_unused__lfv_args_1", "x_unused", "return 0", "return 1",
                               module="lfverify.n")]
    names = [m.name for m in mutants]
    narrowed = []

    def runner(command, *, cwd, env, log, timeout, label, progress=None):
        jobs = json.loads(Path(command[command.index("--jobs") + 1]).read_text())["mutants"]
        narrowed.append(([j["name"] for j in jobs], [j["tests"] for j in jobs]))
        Path(command[command.index("--out") + 1]).write_text(json.dumps(
            {"seconds": {"clean_run": 1.0}, "results": {n: {"status": "survived", "seconds": 1.0} for n in names}}))

    monkeypatch.setattr(mt, "run_bounded", runner)
    said = []
    results = mt.run_operators(_operator_copy(tmp_path), mutants, max_children=2, say=said.append)
    assert narrowed == [(names, [["tests/test_other.py::test_other"], ["tests/test_m.py::test_scale"],
                                 ["tests/test_other.py::test_other"]])]
    assert results[names[0]]["status"] == "killed"
    assert results[names[0]]["widened"] == ["tests/test_other.py", "tests/test_m.py"]
    assert results[names[1]] == {"status": "survived", "seconds": 1.0, "diff": mutants[1].diff}
    assert results[names[2]]["status"] == "survived" and "widened" not in results[names[2]]
    assert results[names[2]]["widen_error"] == ("the clean run of its tests (unmutated, through the import hook) "
                                                f"exited with {mutation_import_hook.NOT_APPLIED}")
    # clean runs: one per (module, tests): _table's files, scale's (its own file first), lfverify.n's
    assert said[1:] == ["  [widen] 3 clean runs of the tests of the mutants below (timing, and the import hook's "
                        "control)", "  [widen] 2 mutants run again in a fresh process"]
    assert (tmp_path / "lfverify" / "m.py").read_text() == MODULE
    assert not list((tmp_path / ".lfverify-widened-sources").iterdir())  # each mutated source removed after its run
    # without widening the narrowed statuses are the results
    (tmp_path / "again").mkdir()
    plain = mt.run_operators(_operator_copy(tmp_path / "again"), mutants, max_children=1, widen=False,
                             say=said.append)
    assert len(narrowed) == 2 and {n: r["status"] for n, r in plain.items()} == dict.fromkeys(names, "survived")
    assert not (tmp_path / "again" / mt.WIDENED_STORE).exists()


# ---------------------------------------------------------------------- the hook itself
def _pytest_with_hook(tmp_path, module, source, *tests):
    spec = tmp_path / "mutant.json"
    spec.write_text(json.dumps({"module": module, "source": source}))
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{BENCHMARKS}", mutation_import_hook.ENV: str(spec),
           "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "mutation_import_hook", *tests], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120).returncode


def test_the_import_hook_compiles_the_module_from_the_given_source_and_says_when_it_never_did(tmp_path):
    """Oracle: the tiny package's tests pass on its source and fail with a changed import-time table; a session
    that never imports the module exits NOT_APPLIED whatever its tests do."""
    _operator_copy(tmp_path)
    assert _pytest_with_hook(tmp_path, "lfverify.m", MODULE, "tests/test_m.py") == 0
    assert _pytest_with_hook(tmp_path, "lfverify.m", MODULE.replace('"b": 2.0', '"b": 3.0'), "tests/test_m.py") == 1
    assert _pytest_with_hook(tmp_path, "lfverify.m", MODULE, "tests/test_other.py") == mutation_import_hook.NOT_APPLIED
    assert not list(tmp_path.rglob("*.pyc"))


def test_the_import_hook_does_not_claim_a_module_imported_before_it():
    """A module already imported cannot be loaded again from another source: the finder is not installed and the
    session would exit NOT_APPLIED.  Oracle: sys.meta_path before and after."""
    before = list(sys.meta_path)
    os.environ[mutation_import_hook.ENV] = os.devnull + "-missing"
    try:
        with pytest.raises(FileNotFoundError):
            mutation_import_hook._install()
    finally:
        del os.environ[mutation_import_hook.ENV]
    assert mutation_import_hook._install() is None  # no variable: no finder
    assert sys.meta_path == before


def test_the_finder_leaves_every_other_module_to_the_normal_import(tmp_path):
    """Oracle: a finder for one name answers None for any other name and loads that name from the given source."""
    (tmp_path / "tiny_hooked.py").write_text("VALUE = 1\n")
    finder = mutation_import_hook.MutatedModuleFinder("tiny_hooked", "VALUE = 2\n")
    assert finder.find_spec("json", None) is None
    spec = finder.find_spec("tiny_hooked", [str(tmp_path)])
    assert spec is not None and spec.origin == str(tmp_path / "tiny_hooked.py")
    import importlib.util

    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.VALUE == 2 and finder.applied == ["tiny_hooked"]


def test_a_clean_run_over_its_limit_leaves_the_mutant_unjudged_with_the_reason(tmp_path, monkeypatch):
    """A timeout whose clean run does not finish cannot be judged again: its narrowed status stands and the reason
    names the limit.  Oracle: a test that sleeps 30 s, a clean-run limit of 1 s (the slack made negative)."""
    tests = tmp_path / "mutants" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_slow.py").write_text("import time\ndef test_slow():\n    time.sleep(30)\n")
    name = "lfverify.m.x_f__mutmut_1"
    scratch = mt.Scratch(tmp_path, {"lfverify/m.py": [name]}, {"lfverify.m.x_f": ["tests/test_slow.py::test_slow"]},
                         {"tests/test_slow.py::test_slow": 0.0}, {}, "HEAD abc")
    limit = mt.wall_limit(scratch, ["tests/test_slow.py::test_slow"])
    monkeypatch.setattr(mt, "WIDEN_SLACK_SECONDS", 1.0 - limit)
    results = {name: {"status": "timeout"}}
    mt.widen_undetected(scratch, results, {name: "lfverify.m"}, max_children=1, say=lambda line: None)
    assert results[name] == {"status": "timeout",
                             "widen_error": "the clean run of its tests (unmutated) did not finish within 1 s"}
