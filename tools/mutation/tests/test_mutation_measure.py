"""tools/mutation/measure.py and import_hook.py: module discovery, mutmut's configuration, reading mutmut's output,
and the custom operators' runs (real pytest processes on a tiny package in a temporary folder; a few seconds).

Oracles: trees, configurations and outputs written by hand; tiny packages whose tests fail exactly on the
hand-made mutants.
"""

import json
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import import_hook
import measure
import pytest

pytestmark = pytest.mark.claims("package:mutation-testing")

MODULE = 'TABLE = {"a": 1.0, "b": 2.0}\n\n\ndef value(key):\n    return TABLE[key]\n'
TEST = "from lfverify.m import value\n\n\ndef test_value():\n    assert value('b') == 2.0\n"


def test_modules_are_found_in_the_tree_and_files_without_a_function_are_excluded(tmp_path):
    (tmp_path / "lfverify" / "core").mkdir(parents=True)
    (tmp_path / "lfverify" / "__init__.py").write_text("from .core import f\n")
    (tmp_path / "lfverify" / "core" / "__init__.py").write_text("def f():\n    return 1\n")
    (tmp_path / "lfverify" / "core" / "_m.py").write_text("class C:\n    def g(self):\n        return 2\n")
    (tmp_path / "lfverify" / "_version.py").write_text("__version__ = '1'\n")
    modules, excluded = measure.discover(tmp_path)
    assert modules == {"lfverify/core/__init__.py": "lfverify.core", "lfverify/core/_m.py": "lfverify.core._m"}
    assert sorted(excluded) == ["lfverify/__init__.py", "lfverify/_version.py"]
    assert measure.select(["lfverify.core._m", "lfverify/core/__init__.py", "lfverify.core"], modules) == [
        "lfverify/core/_m.py", "lfverify/core/__init__.py"]
    assert measure.select(None, modules) == list(modules)
    with pytest.raises(ValueError, match="--module must name a module"):
        measure.select(["lfverify.core.missing"], modules)


def test_the_committed_mutmut_configuration_mutates_the_package_against_the_default_suite():
    """What mutmut reads: the package, no only_mutate (measure.py sets it), the suite less eleven deselected tests
    (ten functions and tests/test_architecture.py, each given its reason in pyproject.toml) that exist, and every
    also_copy entry present (tools/ among them: a docs test names tools/mutation/README.md)."""
    config = tomllib.loads((measure.REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    assert config["source_paths"] == ["lfverify"] and "only_mutate" not in config
    selection = config["pytest_add_cli_args_test_selection"]
    assert selection[0] == "tests" and selection[1::2] == ["--deselect"] * 11
    for node in selection[2::2]:
        path, _, name = node.partition("::")
        text = (measure.REPO / path).read_text(encoding="utf-8")
        assert not name or re.search(rf"^def {name}\(", text, re.M), node
    assert "tools" in config["also_copy"]
    assert all((measure.REPO / p).exists() for p in config["also_copy"])


def test_the_copys_configuration_gets_the_overrides_and_keeps_everything_else():
    text = (measure.REPO / "pyproject.toml").read_text(encoding="utf-8")
    configured = tomllib.loads(measure.configure(text, {"only_mutate": ["lfverify/io/_atomic.py"],
                                                        "timeout_multiplier": 2.0}))
    original = tomllib.loads(text)
    assert configured["tool"]["mutmut"] == {**original["tool"]["mutmut"], "only_mutate": ["lfverify/io/_atomic.py"],
                                            "timeout_multiplier": 2.0}
    assert {k: v for k, v in configured.items() if k != "tool"} == {k: v for k, v in original.items() if k != "tool"}
    assert configured["tool"]["pytest"] == original["tool"]["pytest"]
    middle = '[tool.mutmut]\nsource_paths = ["p"]\n\n[tool.other]\nx = 1\n'
    assert tomllib.loads(measure.configure(middle, {"debug": True})) == {
        "tool": {"mutmut": {"source_paths": ["p"], "debug": True}, "other": {"x": 1}}}


def test_mutmut_results_are_read_and_its_population_must_be_the_sampled_one():
    output = ("    lfverify.io._atomic.x_f__mutmut_1: killed\n    lfverify.io._atomic.x_f__mutmut_2: no tests\n"
              "    lfverify.io.xǁCǁg__mutmut_1: survived\nsome other line\n")
    statuses = measure.parse_results(output)
    assert statuses == {"lfverify.io._atomic.x_f__mutmut_1": "killed", "lfverify.io._atomic.x_f__mutmut_2": "no tests",
                        "lfverify.io.xǁCǁg__mutmut_1": "survived"}
    measure.check_population(statuses, {"lfverify.io._atomic": ["lfverify.io._atomic.x_f__mutmut_1",
                                                                "lfverify.io._atomic.x_f__mutmut_2"],
                                        "lfverify.io": ["lfverify.io.xǁCǁg__mutmut_1"]})
    with pytest.raises(RuntimeError, match="mutmut generated 2 mutants, the sample was drawn from 1"):
        measure.check_population(statuses, {"lfverify.io._atomic": ["lfverify.io._atomic.x_f__mutmut_1"]})


def test_node_ids_are_read_one_a_line_whatever_their_parameters_hold():
    output = "tests/t.py::test_a[0.5-two words]\ntests/t.py::test_b\n  \nStats loaded\n"
    assert measure.node_ids(output) == ["tests/t.py::test_a[0.5-two words]", "tests/t.py::test_b"]
    assert measure.test_files(measure.node_ids(output)) == {"tests/t.py": 2}


def test_pytest_exit_statuses_read_as_mutmuts_words():
    codes = (0, 1, 2, 3, 4, 5, None, -9, import_hook.NOT_APPLIED, 6)
    assert [measure.status_of(c) for c in codes] == [
        "survived", "killed", "killed", "killed", "killed", "no tests", "timeout", "segfault", "not applied",
        "suspicious"]


def test_node_ids_of_a_file_that_no_longer_collects_end_pytest_with_status_4(tmp_path):
    """Why 4 reads as killed: pytest given node ids of a file whose import fails (as under a mutant that breaks
    the module at import) stops with a usage error, 4, not 2; the same node ids of the intact file pass (0)."""
    test = tmp_path / "test_one.py"
    test.write_text("def test_a():\n    pass\n")
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:lfverify",
           f"{test}::test_a"]
    assert subprocess.run(run, cwd=tmp_path, capture_output=True, timeout=120).returncode == 0
    test.write_text("raise TypeError('broken at import')\ndef test_a():\n    pass\n")
    assert subprocess.run(run, cwd=tmp_path, capture_output=True, timeout=120).returncode == 4


def test_a_stratum_records_counts_and_what_a_test_writer_needs_of_the_undetected():
    tried = {"m.x_f__lfv_args_1": {"status": "killed", "diff": "d1", "tests": ["tests/t.py::a"]},
             "m.x_f__lfv_args_2": {"status": "survived", "diff": "d2", "tests": ["tests/t.py::a", "tests/u.py::b"]}}
    assert measure.record(7, tried) == {
        "available": 7, "tried": {"m.x_f__lfv_args": [1, 2]}, "counts": {"killed": 1, "survived": 1},
        "undetected": {"m.x_f__lfv_args_2": "survived"}, "diffs": {"m.x_f__lfv_args_2": "d2"},
        "tests_of": {"m.x_f__lfv_args_2": {"tests/t.py": 1, "tests/u.py": 1}}}


# ---------------------------------------------------------------------- operator mutants in fresh pytest processes
@pytest.fixture
def copy(tmp_path):
    (tmp_path / "lfverify").mkdir()
    (tmp_path / "lfverify" / "__init__.py").write_text("")
    (tmp_path / "lfverify" / "m.py").write_text(MODULE)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_m.py").write_text(TEST)
    (tmp_path / "tests" / "test_other.py").write_text("def test_other():\n    assert True\n")
    (tmp_path / "tests" / "test_slow.py").write_text(
        "import pathlib, subprocess, sys, time\nfrom lfverify.m import value\n\n\ndef test_slow():\n"
        "    child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "    pathlib.Path('child.pid').write_text(str(child.pid))\n    time.sleep(60)\n")
    return tmp_path


def test_an_operator_mutant_runs_from_its_source_and_the_run_says_when_it_never_applied(copy):
    """Oracle: the tests pass on the module's source and fail on a changed import-time table; a session that never
    imports the module exits NOT_APPLIED; nothing is written into the package."""
    assert measure.run_pytest(copy, "lfverify.m", MODULE, ["tests/test_m.py"], 120)[0] == 0
    changed = MODULE.replace('"b": 2.0', '"b": 3.0')
    assert measure.run_pytest(copy, "lfverify.m", changed, ["tests/test_m.py"], 120)[0] == 1
    assert measure.run_pytest(copy, "lfverify.m", MODULE, ["tests/test_other.py"], 120)[0] == import_hook.NOT_APPLIED
    assert (copy / "lfverify" / "m.py").read_text() == MODULE and not list(copy.glob("*.json"))


def test_a_run_over_its_limit_is_a_timeout_and_takes_its_children_with_it(copy):
    start = time.monotonic()
    code, seconds = measure.run_pytest(copy, "lfverify.m", MODULE, ["tests/test_slow.py"], 5)
    assert code is None and seconds < 30 and time.monotonic() - start < 30
    assert not measure._LIVE
    pid = int((copy / "child.pid").read_text())  # the test's own child, in pytest's process group
    assert _gone_within_5_s(pid), f"the test's child {pid} outlived the run"


def test_processes_left_working_in_the_copy_are_killed_and_others_are_not(tmp_path):
    """Oracle: three detached sleepers (their own sessions, as a Dask cluster's workers are): a mutant run's working
    in the copy, the same beside it, and one in the copy without MUTANT_UNDER_TEST (a shell someone opened there);
    only the first is killed."""
    import os

    copy, beside = tmp_path / "copy" / "mutants", tmp_path / "beside"
    copy.mkdir(parents=True)
    beside.mkdir()
    mutant = {**os.environ, "MUTANT_UNDER_TEST": "lfverify.m.x_f__mutmut_1"}
    plain = {k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"}
    inside, outside, shell = (subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], cwd=where,
                                               env=env, start_new_session=True)
                              for where, env in ((copy, mutant), (beside, mutant), (copy, plain)))
    try:
        said = []
        assert measure.kill_leftovers(tmp_path / "copy", say=said.append) == [inside.pid]
        assert inside.wait(timeout=10) == -9 and outside.poll() is None and shell.poll() is None
        assert str(inside.pid) in said[0]
        assert measure.kill_leftovers(tmp_path / "copy", say=said.append) == [] and len(said) == 1
    finally:
        for proc in (inside, outside, shell):
            proc.kill()
            proc.wait()


def _gone_within_5_s(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie awaiting its parent) within 5 s (read from /proc)."""
    for _ in range(100):
        if not Path(f"/proc/{pid}").exists() or Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] == "Z":
            return True
        time.sleep(0.05)
    return False


# ---------------------------------------------------------------------- mutmut's survivors judged again, afresh
#: a hand-made stand-in for mutmut's trampolined module: ``cached`` computes once per process (as the tests' derivation
#: cache does) and the mutant named in MUTANT_UNDER_TEST changes what it computes; ``same`` has an equivalent mutant
TRAMPOLINED = """import os

_CACHE = {}


def cached():
    if "v" not in _CACHE:
        _CACHE["v"] = 3 if os.environ.get("MUTANT_UNDER_TEST") == "lfverify.m.x_cached__mutmut_1" else 2
    return _CACHE["v"]


def same():
    return abs(2) if os.environ.get("MUTANT_UNDER_TEST") == "lfverify.m.x_same__mutmut_1" else 2


def slow():
    if os.environ.get("MUTANT_UNDER_TEST") == "lfverify.m.x_slow__mutmut_1":  # a mutant that really hangs
        import time
        time.sleep(600)
    return 2


def table():
    if os.environ.get("MUTANT_UNDER_TEST") == "lfverify.m.x_table__mutmut_1":
        raise TypeError("table() missing 1 required positional argument")
    return (1, 2)


TABLE = table()  # built at import: its mutant breaks the import, in the tests' conftest
"""


@pytest.fixture
def trampolined(tmp_path):
    (tmp_path / "mutants" / "lfverify").mkdir(parents=True)
    (tmp_path / "mutants" / "lfverify" / "__init__.py").write_text("")
    (tmp_path / "mutants" / "lfverify" / "m.py").write_text(TRAMPOLINED)
    # an installed lfverify registers lfverify.testing.plugin with pytest (pytest11), which the fresh pytest imports
    # from mutants/ as it would the real package's; a non-editable install finds it nowhere else
    (tmp_path / "mutants" / "lfverify" / "testing").mkdir()
    (tmp_path / "mutants" / "lfverify" / "testing" / "__init__.py").write_text("")
    (tmp_path / "mutants" / "lfverify" / "testing" / "plugin.py").write_text("")
    (tmp_path / "mutants" / "tests").mkdir()
    (tmp_path / "mutants" / "tests" / "test_m.py").write_text(
        "from lfverify.m import cached, same, slow\n\n\ndef test_cached():\n    assert cached() == 2\n\n\n"
        "def test_same():\n    assert same() == 2\n\n\ndef test_slow():\n    assert slow() == 2\n")
    (tmp_path / "mutants" / "tests" / "test_red.py").write_text("def test_red():\n    assert False\n")
    (tmp_path / "mutants" / "tests" / "conftest.py").write_text("import lfverify.m  # noqa: F401\n")
    return tmp_path


def test_a_survivor_of_a_cached_result_is_detected_afresh_and_an_equivalent_one_is_not(trampolined):
    """Oracle: the stand-in's mutants by construction - the cached one changes the value a fresh process computes
    (mutmut's forked run read the parent's cache), the table's breaks the module's import in the tests' conftest
    (pytest's status 4; the forked run had imported it before the mutant was chosen), the other returns the same
    value."""
    undetected = {"lfverify.m.x_cached__mutmut_1": ["tests/test_m.py::test_cached"],
                  "lfverify.m.x_same__mutmut_1": ["tests/test_m.py::test_same"],
                  "lfverify.m.x_table__mutmut_1": ["tests/test_m.py::test_same"],
                  "lfverify.m.x_other__mutmut_1": []}  # no tests: nothing to run
    assert measure.judge_again(trampolined, undetected, 2, say=lambda _: None) == [
        "lfverify.m.x_cached__mutmut_1", "lfverify.m.x_table__mutmut_1"]
    assert not measure._LIVE


def test_a_fresh_judgement_tells_the_suite_it_is_fresh(monkeypatch, tmp_path):
    """The suite skips a Dask cluster's test only in mutmut's forked run, told apart from a fresh process of this
    tool by LFVERIFY_FRESH_MUTANT_RUN (tests/mutmut_runs.py), which every fresh judgement sets."""
    seen = {}
    monkeypatch.setattr(measure, "_pytest_in_own_group", lambda arguments, *, cwd, env, limit: seen.update(env) or 0)
    assert measure.fresh_pytest(tmp_path, ["t.py::a"], "lfverify.m.x_f__mutmut_1") == 0
    assert seen["LFVERIFY_FRESH_MUTANT_RUN"] == "1" and seen["MUTANT_UNDER_TEST"] == "lfverify.m.x_f__mutmut_1"


def test_a_failing_clean_run_leaves_mutmuts_verdicts(trampolined):
    """Companion: where the same tests fail on the original code, a failure under the mutant is no evidence."""
    undetected = {"lfverify.m.x_cached__mutmut_1": ["tests/test_m.py::test_cached", "tests/test_red.py::test_red"]}
    said = []
    assert measure.judge_again(trampolined, undetected, 1, say=said.append) == []
    assert "clean run of 2 tests failed" in said[0]


def test_runs_mutmut_stopped_are_judged_again_each_by_what_a_fresh_process_does(trampolined, monkeypatch):
    """Oracle: the stand-in's mutants by construction, each recorded by mutmut as stopped (timeout or a signal): one
    really hangs (a timeout again, under the fresh limit: 5 x the clean run's seconds + the constant, here 3 s), one
    changes the value (killed), one is inert (survived: mutmut's stop was the environment's, as a run that hung in a
    Dask cluster was).  A stop whose clean run fails, or without tests, keeps mutmut's verdict (absent)."""
    monkeypatch.setattr(measure, "CLEAN_CONSTANT", 3.0)
    stopped = {"lfverify.m.x_slow__mutmut_1": ["tests/test_m.py::test_slow"],
               "lfverify.m.x_cached__mutmut_1": ["tests/test_m.py::test_cached"],
               "lfverify.m.x_same__mutmut_1": ["tests/test_m.py::test_same"],
               "lfverify.m.x_table__mutmut_1": ["tests/test_m.py::test_same", "tests/test_red.py::test_red"],
               "lfverify.m.x_other__mutmut_1": []}
    said = []
    start = time.monotonic()
    assert measure.verify_stops(trampolined, stopped, 2, say=said.append) == {
        "lfverify.m.x_cached__mutmut_1": "killed", "lfverify.m.x_same__mutmut_1": "survived",
        "lfverify.m.x_slow__mutmut_1": "timeout"}
    assert time.monotonic() - start < 120 and not measure._LIVE  # the hanging run was stopped, not waited for
    assert any("clean run of 2 tests failed" in line for line in said) and "1 of them not detected there" in said[-1]


def test_a_stratum_keeps_what_mutmut_said_of_a_stop_judged_again():
    """A verdict replaced by verify_stops is recorded beside mutmut's, and a survivor's diff and tests are kept as
    any survivor's are (the table lists it)."""
    tried = {"m.x_f__mutmut_1": {"status": "survived", "diff": "d1", "tests": ["t.py::a"], "mutmut": "timeout"},
             "m.x_f__mutmut_2": {"status": "timeout", "diff": "", "tests": [], "mutmut": "segfault"},
             "m.x_f__mutmut_3": {"status": "timeout", "diff": "", "tests": []}}
    stratum = measure.record(5, tried)
    assert stratum["stops_judged_again"] == {"m.x_f__mutmut_1": {"mutmut": "timeout", "fresh": "survived"},
                                             "m.x_f__mutmut_2": {"mutmut": "segfault", "fresh": "timeout"}}
    assert stratum["counts"] == {"survived": 1, "timeout": 2} and stratum["diffs"] == {"m.x_f__mutmut_1": "d1"}
    assert "stops_judged_again" not in measure.record(5, {"m.x_f__mutmut_3": tried["m.x_f__mutmut_3"]})


def test_the_copy_gets_mutmuts_shorter_wall_limit():
    """mutmut's default limit, (seconds + 1) x 15, waited 20 minutes on a hung run; the copy's is set lower."""
    for tests, deselect in ((None, None), (["tests/a.py"], ["tests/a.py::b"])):
        settings = measure.copy_settings(["lfverify/m.py"], tests, deselect)
        text = measure.configure((measure.REPO / "pyproject.toml").read_text(encoding="utf-8"), settings)
        config = tomllib.loads(text)["tool"]["mutmut"]
        assert config["timeout_multiplier"] == 5.0 and config["timeout_constant"] == 10.0
        assert config["only_mutate"] == ["lfverify/m.py"]
    assert config["pytest_add_cli_args_test_selection"] == ["tests/a.py", "--deselect", "tests/a.py::b"]


def test_mutants_detected_afresh_move_from_undetected_to_killed():
    stratum = {"available": 9, "tried": {"m.x_f__mutmut": [1, 2, 3]}, "counts": {"killed": 1, "survived": 2},
               "undetected": {"m.x_f__mutmut_2": "survived", "m.x_f__mutmut_3": "survived"},
               "diffs": {"m.x_f__mutmut_2": "d2", "m.x_f__mutmut_3": "d3"},
               "tests_of": {"m.x_f__mutmut_2": {"t.py": 1}, "m.x_f__mutmut_3": {"t.py": 1}}}
    assert measure.detected_afresh(stratum, ["m.x_f__mutmut_2"]) == {
        **stratum, "counts": {"killed": 2, "survived": 1}, "undetected": {"m.x_f__mutmut_3": "survived"},
        "diffs": {"m.x_f__mutmut_3": "d3"}, "tests_of": {"m.x_f__mutmut_3": {"t.py": 1}},
        "fresh_kills": ["m.x_f__mutmut_2"]}
    both = measure.detected_afresh(stratum, ["m.x_f__mutmut_2", "m.x_f__mutmut_3"])
    assert both["counts"] == {"killed": 3} and both["undetected"] == {} and stratum["counts"]["survived"] == 2
    tried = {"m.x_f__mutmut_1": {"status": "killed", "diff": "", "tests": [], "fresh": True}}
    assert measure.record(3, tried)["fresh_kills"] == ["m.x_f__mutmut_1"]


def test_the_finder_loads_only_its_module_and_from_the_given_source(tmp_path):
    (tmp_path / "tiny_hooked.py").write_text("VALUE = 1\n")
    finder = import_hook.MutatedModuleFinder("tiny_hooked", "VALUE = 2\n")
    assert finder.find_spec("json", None) is None
    spec = finder.find_spec("tiny_hooked", [str(tmp_path)])
    assert spec.origin == str(tmp_path / "tiny_hooked.py")
    import importlib.util

    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.VALUE == 2 and finder.applied == ["tiny_hooked"]


def test_mutmuts_population_of_a_module_is_listed_without_running_it(tmp_path):
    """Oracle: ``value`` has mutants (mutmut mutates the string key, at least), each named after the module and the
    function, and the listing writes nothing."""
    pytest.importorskip("mutmut")
    (tmp_path / "pyproject.toml").write_text('[tool.mutmut]\nsource_paths = ["lfverify"]\n')
    (tmp_path / "lfverify").mkdir()
    (tmp_path / "lfverify" / "m.py").write_text(MODULE + "\n\ndef add(a, b):\n    return a + b\n")
    names = measure.mutmut_population(tmp_path, "lfverify/m.py")
    assert names and all(re.fullmatch(r"lfverify\.m\.x_(value|add)__mutmut_\d+", n) for n in names)
    assert any(n.startswith("lfverify.m.x_add__") for n in names) and len(set(names)) == len(names)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["lfverify", "m.py", "pyproject.toml"]
    assert Path.cwd() != tmp_path


def test_the_copy_is_head_with_the_overrides_and_mutants_folder_ready(tmp_path):
    """mutants/ must exist before mutmut starts (else Python caches the PYTHONPATH entry as empty and the stats run
    imports the checkout); oracle: git's own HEAD and its file list."""
    import subprocess

    commit = measure.make_copy(tmp_path / "copy", {"only_mutate": ["lfverify/io/_atomic.py"]})
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=measure.REPO, capture_output=True, text=True).stdout
    assert commit == head.strip()
    assert (tmp_path / "copy" / "mutants").is_dir()
    config = tomllib.loads((tmp_path / "copy" / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert config["only_mutate"] == ["lfverify/io/_atomic.py"]
    tracked = subprocess.run(["git", "ls-tree", "-r", "--name-only", "HEAD", "lfverify"], cwd=measure.REPO,
                             capture_output=True, text=True).stdout.split()
    assert tracked and all((tmp_path / "copy" / t).is_file() for t in tracked)


def test_rejudge_writes_each_module_as_it_goes_and_resumes_after_an_interruption(tmp_path, monkeypatch):
    """Oracle: a results file written by hand for one real module at HEAD, whose copy holds HEAD's source; mutmut's
    and the fresh runs' answers are stand-ins.  A second call finds the module judged and runs nothing."""
    import argparse

    source = "lfverify/io/_atomic.py"
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=measure.REPO, capture_output=True, text=True,
                            check=True).stdout.strip()
    text = subprocess.run(["git", "show", f"{commit}:{source}"], cwd=measure.REPO, capture_output=True, text=True,
                          check=True).stdout
    (tmp_path / "copy" / "lfverify" / "io").mkdir(parents=True)
    (tmp_path / "copy" / source).write_text(text, encoding="utf-8")
    names = ["lfverify.io._atomic.x_f__mutmut_1", "lfverify.io._atomic.x_f__mutmut_2"]
    stratum = {"available": 5, "tried": {"lfverify.io._atomic.x_f__mutmut": [1, 2]}, "counts": {"survived": 2},
               "undetected": {n: "survived" for n in names}, "diffs": {n: "d" for n in names},
               "tests_of": {n: {"tests/t.py": 1} for n in names}}
    out = tmp_path / "results.json"
    out.write_text(json.dumps({"last_run": {"modules": [source]}, "modules": {source: {
        "source": source, "provenance": {"commit": commit, "tests": "the suite"}, "strata": {"mutmut": stratum}}}}))
    monkeypatch.setattr(measure, "mutmut", lambda copy, *args, **kwargs: "tests/t.py::test_a\n")
    monkeypatch.setattr(measure, "judge_again", lambda copy, undetected, children, say: [names[0]])
    args = argparse.Namespace(out=out, workdir=tmp_path, max_children=1)
    entries = measure.rejudge(args, {}, say=lambda _: None)
    written = json.loads(out.read_text())["modules"][source]
    assert written == entries[source] and written["provenance"]["tests"] == "the suite" + measure.FRESH_TEXT
    assert written["strata"]["mutmut"]["counts"] == {"killed": 1, "survived": 1}

    def never(*args, **kwargs):
        raise AssertionError("a module judged afresh was judged again")

    monkeypatch.setattr(measure, "judge_again", never)
    said = []
    assert measure.rejudge(args, {}, say=said.append) == {} and said == [f"{source}: judged afresh already"]


def test_sigterm_during_a_fresh_judgement_leaves_no_pytest_behind(trampolined):
    """A terminated tool (the default signal of kill) kills the pytest processes it started, as on Ctrl-C.  Oracle:
    /proc after the tool's exit; the test run sleeps for a minute unless killed."""
    (trampolined / "mutants" / "tests" / "test_slow.py").write_text(
        "import pathlib, os, time\n\n\ndef test_slow():\n    pathlib.Path('pid').write_text(str(os.getpid()))\n"
        "    time.sleep(60)\n")
    script = (f"import sys; sys.path.insert(0, {str(measure.HERE)!r}); import measure, signal, pathlib; "
              "signal.signal(signal.SIGTERM, measure._stop); "
              f"measure.judge_again(pathlib.Path({str(trampolined)!r}), "
              "{'m.x_f__mutmut_1': ['tests/test_slow.py::test_slow']}, 1, say=print)")
    tool = subprocess.Popen([sys.executable, "-c", script])
    pid_file = trampolined / "mutants" / "pid"
    for _ in range(300):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.05)
    pid = int(pid_file.read_text())
    tool.terminate()
    assert tool.wait(timeout=30) == 128 + 15
    assert _gone_within_5_s(pid), f"the fresh pytest {pid} outlived the terminated tool"


def test_a_reused_copy_must_hold_the_named_commits_sources(tmp_path):
    """``--reuse-copy COMMIT`` and ``--rejudge`` read verdicts from a copy: its file must be the commit's (oracle:
    ``git show``), an edited one is refused by name."""
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=measure.REPO, capture_output=True, text=True,
                            check=True).stdout.strip()
    source = "lfverify/io/_atomic.py"
    text = subprocess.run(["git", "show", f"{commit}:{source}"], cwd=measure.REPO, capture_output=True, text=True,
                          check=True).stdout
    (tmp_path / "lfverify" / "io").mkdir(parents=True)
    (tmp_path / source).write_text(text, encoding="utf-8")
    measure._check_copy_is(tmp_path, source, commit)
    (tmp_path / source).write_text(text + "\n# edited\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match=f"is not {source} at {commit[:7]}: not the copy of that run"):
        measure._check_copy_is(tmp_path, source, commit)
