"""Fast checks of benchmarks/mutation_testing.py: module discovery, mutmut's configuration, the per-stratum
summaries with equivalent mutants, the merge of results, the report (mutmut itself is not run here).

Oracle: counts, rates and tables written by hand for small made-up results; scipy for the intervals.
"""

import json
from pathlib import Path
import sys

import pytest
from scipy import stats

from benchmark_scripts import BENCHMARKS

if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
import mutation_mutmut  # noqa: E402
import mutation_testing as mt  # noqa: E402

REPO = BENCHMARKS.parent
PREFIX = "lfverify.scores"
DIFF_A2 = """--- lfverify/scores.py
+++ lfverify/scores.py
@@ -1,3 +1,3 @@
 def a(x):
-    return x * sign
+    return x / sign
"""


def _stratum(available=10):
    """Six tried mutants of lfverify.scores: killed, survived, timeout / no tests, survived, segfault."""
    undetected = {f"{PREFIX}.x_a__mutmut_2": "survived", f"{PREFIX}.xǁRǁm__mutmut_1": "no tests",
                  f"{PREFIX}.xǁRǁm__mutmut_2": "survived"}
    return {"available": available,
            "tried": mt.compact_names([f"{PREFIX}.x_a__mutmut_{i}" for i in (1, 2, 3)] +
                                      [f"{PREFIX}.xǁRǁm__mutmut_{i}" for i in (1, 2, 3)]),
            "counts": {"killed": 1, "survived": 2, "timeout": 1, "no tests": 1, "segfault": 1},
            "undetected": undetected,
            "diffs": {n: DIFF_A2 if n.endswith("x_a__mutmut_2") else "+    pass\n" for n in undetected},
            "tests_of": {n: {"tests/test_scores.py": 3} for n in undetected}}


def test_mutated_line_is_the_added_line_of_the_diff():
    assert mt.mutated_line(DIFF_A2) == "return x / sign"
    assert mt.mutated_line("") == ""
    assert mt.mutated_line("-    a = 1\n+    a = (\n+        2)\n") == "a = ( / 2)"


def test_tried_names_are_stored_compactly_and_read_back():
    names = ["lfverify.m.x_f__mutmut_3", "lfverify.m.x_f__mutmut_12", "lfverify.m.xǁCǁg__lfv_args_2"]
    compact = mt.compact_names(names)
    assert compact == {"lfverify.m.x_f__mutmut": [3, 12], "lfverify.m.xǁCǁg__lfv_args": [2]}
    assert mt.expand_names(compact) == set(names)


def test_summary_without_equivalent_mutants():
    s = mt.summarize(_stratum(), {}, module_prefix=PREFIX, kind="mutmut")
    # killed, timeout and segfault are detected (3); the two survivors and "no tests" are not
    assert (s["available"], s["tried"], s["detected"], s["equivalent"], s["survived"]) == (10, 6, 3, 0, 3)
    assert [m["name"] for m in s["surviving_mutants"]] == [
        f"{PREFIX}.x_a__mutmut_2", f"{PREFIX}.xǁRǁm__mutmut_1", f"{PREFIX}.xǁRǁm__mutmut_2"]
    assert s["surviving_mutants"][0] == {"name": f"{PREFIX}.x_a__mutmut_2", "status": "survived",
                                         "mutation": "return x / sign", "tests": {"tests/test_scores.py": 3}}


def test_an_equivalent_entry_counts_only_when_its_mutated_line_matches_and_its_mutant_survived():
    reason = {"mutation": "return x / sign", "reason": "sign is +-1, so x / sign == x * sign exactly"}
    s = mt.summarize(_stratum(), {f"{PREFIX}.x_a__mutmut_2": reason}, module_prefix=PREFIX, kind="mutmut")
    assert (s["equivalent"], s["survived"], s["stale_equivalents"]) == (1, 2, [])
    assert s["equivalent_mutants"][0]["reason"] == reason["reason"]
    # renumbered: the same name now holds another mutation -> stale, not counted
    stale = mt.summarize(_stratum(), {f"{PREFIX}.xǁRǁm__mutmut_2": reason}, module_prefix=PREFIX, kind="mutmut")
    assert stale["equivalent"] == 0 and stale["stale_equivalents"][0]["actual_mutation"] == "pass"
    # an entry whose mutant was tried and detected is stale; one not tried this time (sampled out), one of another
    # module and one of another stratum are ignored
    entries = {f"{PREFIX}.x_a__mutmut_1": reason, f"{PREFIX}.x_a__mutmut_9": reason,
               "lfverify.losses.x_b__mutmut_1": reason, f"{PREFIX}.x_a__lfv_args_1": reason}
    gone = mt.summarize(_stratum(), entries, module_prefix=PREFIX, kind="mutmut")
    assert [m["name"] for m in gone["stale_equivalents"]] == [f"{PREFIX}.x_a__mutmut_1"]


def test_summarize_refuses_inconsistent_counts():
    bad = {**_stratum(), "undetected": {}}
    with pytest.raises(ValueError, match="undetected: 0 mutants listed, but counts say 3"):
        mt.summarize(bad, {}, module_prefix=PREFIX, kind="mutmut")
    with pytest.raises(ValueError, match="unknown statuses"):
        mt.summarize({**_stratum(), "counts": {"vanished": 1}}, {}, module_prefix=PREFIX, kind="mutmut")
    with pytest.raises(ValueError, match="tried: 5 names, but counts say 6"):
        tried = mt.compact_names([f"{PREFIX}.x_a__mutmut_{i}" for i in range(1, 6)])
        mt.summarize({**_stratum(), "tried": tried}, {}, module_prefix=PREFIX, kind="mutmut")
    with pytest.raises(ValueError, match="tried 6 mutants of 5 available"):
        mt.summarize(_stratum(available=5), {}, module_prefix=PREFIX, kind="mutmut")


def test_combine_weights_strata_and_checks_the_target_on_the_point_estimate():
    sampled = {"available": 1000, "tried": 100, "detected": 97, "equivalent": 1, "survived": 2}
    full = {"available": 20, "tried": 20, "detected": 19, "equivalent": 1, "survived": 0}
    c = mt.combine([sampled, full], 0.97)
    assert c["rate"] == pytest.approx((10 * 97 + 19) / (10 * 99 + 19), rel=1e-12)
    assert c["meets_target"] and not c["exact"] and c["low"] < c["rate"] < c["high"]
    alone = mt.combine([sampled], 0.98)
    ci = stats.binomtest(97, 99).proportion_ci(method="exact")
    assert alone["low"] == pytest.approx(ci.low, rel=1e-9) and alone["meets_target"] is False
    exact = mt.combine([full], 0.97)
    assert exact["exact"] and exact["rate"] == 1.0 and exact["low"] is None
    assert mt.combine([], 0.97)["meets_target"] is None


def _legacy_module():
    return {"source": "lfverify/scores.py", "tests": ["tests/test_scores.py"], "missing_tests": [], "seconds": 12.0,
            "provenance": {"commit": "5dbbfe0" + "0" * 33, "source": "git archive HEAD", "date": "2026-11-23T02:51:40Z",
                           "max_children": 2, "cpus": 2},
            "counts": {"killed": 8, "survived": 2}, "undetected": {f"{PREFIX}.x_a__mutmut_2": "survived",
                                                                 f"{PREFIX}.x_a__mutmut_5": "survived"},
            "diffs": {f"{PREFIX}.x_a__mutmut_2": DIFF_A2, f"{PREFIX}.x_a__mutmut_5": "+    pass\n"}}


def _fresh_module():
    stratum = _stratum(available=40)
    return {"source": "lfverify/atomic_write.py",
            "provenance": {"commit": "a" * 40, "source": "git archive HEAD", "date": "2027-01-01T00:00:00Z",
                           "sample": 6, "operator_sample": 6, "seed": 1, "max_children": 1, "cpus": 2,
                           "tests": "the default suite"},
            "tests": {"tests/test_cli.py": 2},
            "strata": {"mutmut": {**stratum, "undetected": {}, "diffs": {}, "tests_of": {},
                                  "counts": {"killed": 6}, "seconds": 3.0},
                       "dropkw": {"available": 2,
                                  "tried": mt.compact_names(["lfverify.atomic_write.x_f__lfv_dropkw_1",
                                                             "lfverify.atomic_write.x_f__lfv_dropkw_2"]),
                                  "counts": {"killed": 1, "survived": 1},
                                  "undetected": {"lfverify.atomic_write.x_f__lfv_dropkw_2": "survived"},
                                  "diffs": {"lfverify.atomic_write.x_f__lfv_dropkw_2": "+    os.mkdir(p)"},
                                  "tests_of": {"lfverify.atomic_write.x_f__lfv_dropkw_2": {"tests/test_cli.py": 2}},
                                  "seconds": 1.0}}}


def test_results_merge_per_module_upgrade_the_issue_4_format_and_total_over_strata():
    previous = {"modules": {"scores": _legacy_module()}}
    reason = {"mutation": "return x / sign", "reason": "exact"}
    data = mt.build_data({"atomic_write": _fresh_module()}, previous, run=None, equivalents={
        f"{PREFIX}.x_a__mutmut_2": reason})
    assert list(data["modules"]) == ["atomic_write", "scores"]  # ordered by source path
    scores = data["modules"]["scores"]["summary"]
    assert (scores["tried"], scores["detected"], scores["equivalent"], scores["survived"]) == (10, 8, 1, 1)
    assert scores["exact"] and scores["rate"] == 8 / 9 and scores["meets_target"] is False
    atomic = data["modules"]["atomic_write"]["summary"]
    # mutmut: 6 of 40 tried, all detected (weight 40/6); dropkw: 2 of 2, 1 detected
    assert atomic["rate"] == pytest.approx((40 / 6 * 6 + 1) / (40 / 6 * 6 + 2), rel=1e-12)
    assert not atomic["exact"]
    assert data["by_stratum"]["dropkw"]["tried"] == 2 and data["by_stratum"]["mutmut"]["tried"] == 16
    assert data["overall"]["detected"] == 8 + 6 + 1 and data["overall"]["target"] == mt.PACKAGE_TARGET
    assert data["not_measured"] == [] and data["discovered"] == ["lfverify/atomic_write.py", "lfverify/scores.py"]
    again = mt.build_data({}, json.loads(json.dumps(data)), run=None, equivalents={f"{PREFIX}.x_a__mutmut_2": reason})
    assert again["modules"] == data["modules"] and again["overall"] == data["overall"]  # report-only is stable


def test_results_are_merged_with_the_file_as_it_is_when_a_run_ends(tmp_path, monkeypatch):
    """Two invocations on different modules (each on its own --workdir) must keep each other's modules: the end of a
    run merges into the results as they are then, not as they were when the run started.  Oracle: the module
    written by the other run after this one started is still there, with its own summary; this run's module is
    added; and a module both measured takes this run's record."""
    monkeypatch.setattr(mt, "markdown_report", lambda data: "report\n")
    out = tmp_path / "results" / "mutation.json"
    reason = {"mutation": "return x / sign", "reason": "exact"}
    equivalents = {f"{PREFIX}.x_a__mutmut_2": reason}
    # the other run finishes first (its module: scores) while this run (atomic_write) is still going
    assert mt.merge_and_write(out, {"scores": mt.upgrade_legacy(_legacy_module())}, run=None,
                              equivalents=equivalents) == 0
    assert mt.merge_and_write(out, {"atomic_write": _fresh_module()}, run=None, equivalents=equivalents) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert list(data["modules"]) == ["atomic_write", "scores"]
    assert data["modules"]["scores"]["summary"]["rate"] == 8 / 9
    assert (tmp_path / "results" / "mutation.md").read_text(encoding="utf-8") == "report\n"
    # measured again: this run's record replaces the file's
    remeasured = mt.upgrade_legacy(_legacy_module())
    remeasured["provenance"] = {**remeasured["provenance"], "date": "2027-02-02T00:00:00Z"}
    assert mt.merge_and_write(out, {"scores": remeasured}, run=None, equivalents=equivalents) == 0
    again = json.loads(out.read_text(encoding="utf-8"))["modules"]
    assert list(again) == ["atomic_write", "scores"] and again["scores"]["provenance"]["date"] == "2027-02-02T00:00:00Z"
    assert again["atomic_write"] == data["modules"]["atomic_write"]


def test_markdown_lists_modules_strata_survivors_per_module_and_what_was_not_measured():
    known = {"scores": mt.Module("scores", "lfverify/scores.py"),
             "atomic_write": mt.Module("atomic_write", "lfverify/atomic_write.py"),
             "metrics": mt.Module("metrics", "lfverify/metrics.py")}
    data = mt.build_data({"atomic_write": _fresh_module()}, {"modules": {"scores": _legacy_module()}}, run=None,
                         modules_known=known, excluded={"lfverify/__init__.py": "no function"}, equivalents={})
    report = mt.markdown_report(data)
    assert "| `lfverify/scores.py` | 10 / 10 | 8 | 0 | 2 | 80.00 % (exact) | **not met** |" in report
    # atomic_write: rate (40/6 * 6 + 1) / (40/6 * 6 + 2) = 41/42; Kish n = 42^2 / ((40/6)^2 * 6 + 2); the interval is
    # Clopper-Pearson at (41/42 n, n), shown rounded outwards
    n = 42 ** 2 / ((40 / 6) ** 2 * 6 + 2)
    low, high = stats.beta.ppf(0.025, 41 / 42 * n, n - 41 / 42 * n + 1), stats.beta.ppf(0.975, 41 / 42 * n + 1, n / 42)
    assert (f"| `lfverify/atomic_write.py` | 8 / 42 (mutmut 6/40, dropkw 2/2) | 7 | 0 | 1 | 97.61 % "
            f"[{mt.percent(low)}, {mt.percent(high, up=True)}] | met |") in report
    assert "### `lfverify/atomic_write.py`" in report and "### `lfverify/scores.py`" in report
    assert "`lfverify.atomic_write.x_f__lfv_dropkw_2` (survived): `os.mkdir(p)`; tests run: tests/test_cli.py (2)" \
        in report
    assert "x_a__mutmut_2` (survived): `return x / sign`; tests run: those of the provenance line" in report
    assert "## Not measured yet" in report and "`lfverify/metrics.py`" in report
    assert "* `lfverify/__init__.py`: no function" in report
    assert "| dropkw: drop a keyword argument (the callee's default applies) | 2 / 2 | 1 | 0 | 1 | 50.00 % (exact) |" \
        in report


def test_percentages_round_down_and_interval_tops_round_up():
    assert mt.percent(4711 / 4713) == "99.95 %"
    assert mt.percent(1.0) == "100.00 %" and mt.percent(0.5) == "50.00 %" and mt.percent(None) == "n/a"
    assert mt.percent(0.99999) == "99.99 %" and mt.percent(0.99991, up=True) == "100.00 %"
    assert mt.percent(0.5, up=True) == "50.00 %"


def test_modules_are_discovered_from_the_tree_and_files_without_functions_excluded(tmp_path):
    package = tmp_path / "lfverify"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Package."""\n__version__ = "1"\n')
    (package / "core.py").write_text("def f():\n    return 1\n")
    (package / "sub" / "__init__.py").write_text("from .impl import g\n__all__ = ['g']\n")
    (package / "sub" / "impl.py").write_text("class C:\n    def g(self):\n        return 2\n")
    (package / "sub2").mkdir()
    (package / "sub2" / "__init__.py").write_text("def h():\n    return 3\n")
    modules, excluded = mt.discover_modules(tmp_path)
    assert {k: m.source for k, m in modules.items()} == {
        "core": "lfverify/core.py", "sub.impl": "lfverify/sub/impl.py", "sub2": "lfverify/sub2/__init__.py"}
    assert modules["sub2"].dotted == "lfverify.sub2" and modules["sub.impl"].dotted == "lfverify.sub.impl"
    assert set(excluded) == {"lfverify/__init__.py", "lfverify/sub/__init__.py"}
    assert [m.key for m in mt.select_modules(["sub.impl", "lfverify/core.py"], modules)] == ["sub.impl", "core"]
    assert len(mt.select_modules(None, modules)) == 3
    with pytest.raises(ValueError, match="--module must name a measured module"):
        mt.select_modules(["nope"], modules)


def test_every_file_of_the_package_is_measured_or_excluded_for_having_no_function():
    import ast

    modules, excluded = mt.discover_modules(REPO)
    files = {p.relative_to(REPO).as_posix() for p in (REPO / "lfverify").rglob("*.py")}
    assert {m.source for m in modules.values()} | set(excluded) == files
    for path in excluded:
        tree = ast.parse((REPO / path).read_text())
        assert not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(tree))


def test_mutmut_config_mutates_the_modules_against_the_whole_suite_less_the_incompatible_tests():
    config = mutation_mutmut.mutmut_config(["lfverify/a.py", "lfverify/b/c.py"], ["README.md", "proofs/"])
    assert 'only_mutate = ["lfverify/a.py", "lfverify/b/c.py"]' in config
    selection = next(line for line in config.splitlines() if line.startswith("pytest_add_cli_args_test_selection"))
    assert selection.startswith('pytest_add_cli_args_test_selection = ["tests", "--deselect", "tests/')
    assert selection.count("--deselect") == len(mutation_mutmut.TRAMPOLINE_INCOMPATIBLE_TESTS)
    assert 'also_copy = ["README.md", "proofs/"]' in config
    for test in mutation_mutmut.TRAMPOLINE_INCOMPATIBLE_TESTS:
        path, name = test.split("::")
        assert f"def {name}(" in (REPO / path).read_text()


def _scratch():
    mutmut_mutants = {"lfverify/m.py": ["lfverify.m.x_f__mutmut_1", "lfverify.m.xǁCǁg__mutmut_1",
                                        "lfverify.m.xǁDǁh__mutmut_2", "lfverify.m.x_unreached__mutmut_1"]}
    return mt.Scratch(root=REPO, mutmut_mutants=mutmut_mutants, digest="x", seconds={},
                      tests_by_function={"lfverify.m.x_f": ["t.py::slow", "t.py::fast"],
                                         "lfverify.m.xǁCǁg": ["u.py::a"], "lfverify.m.xǁDǁh": ["v.py::b"],
                                         "lfverify.other.x_k": ["w.py::c"]},
                      duration_by_test={"t.py::slow": 2.0, "t.py::fast": 0.1, "u.py::a": 1.0, "v.py::b": 1.0})


def test_a_mutants_tests_are_its_functions_else_its_class_or_module_fastest_first():
    scratch = _scratch()
    assert mt.tests_of_function(scratch, "lfverify.m", "x_f") == (["t.py::fast", "t.py::slow"], "function")
    assert mt.tests_of_function(scratch, "lfverify.m", "xǁCǁprop") == (["u.py::a"], "class")
    assert mt.tests_of_function(scratch, "lfverify.m", "xǁEǁprop") == (
        ["t.py::fast", "u.py::a", "v.py::b", "t.py::slow"], "module")
    assert mt.tests_of_function(scratch, "lfverify.m", "x_decorated") == (
        ["t.py::fast", "u.py::a", "v.py::b", "t.py::slow"], "module")
    # a function mutmut put behind a trampoline that no test reached has no tests, whatever its neighbours have
    assert mt.tests_of_function(scratch, "lfverify.m", "x_unreached") == ([], "function")
    assert mt.test_files(["t.py::a", "t.py::b[1]", "u.py::c"]) == {"t.py": 2, "u.py": 1}
    assert mt.wall_limit(scratch, ["t.py::slow", "t.py::fast"]) == pytest.approx(
        (2.1 + mutation_mutmut.TIMEOUT_CONSTANT) * mutation_mutmut.TIMEOUT_MULTIPLIER)


def test_survivors_name_their_test_files_most_used_first_and_say_when_no_test_reaches_them():
    assert mt._tests_text({"a.py": 1, "b.py": 5, "c.py": 1}) == "b.py (5), a.py (1), c.py (1)"
    assert mt._tests_text({f"t{i}.py": 1 for i in range(8)}, most=2) == "t0.py (1), t1.py (1) and 6 more files"
    assert mt._tests_text({}) == "none (no test reaches the function)"
    assert mt._tests_text(None) == "those of the provenance line"


def test_stratum_record_counts_statuses_and_keeps_what_a_test_writer_needs_of_the_undetected():
    results = {"lfverify.m.x_f__mutmut_1": {"status": "killed", "seconds": 0.5},
               "lfverify.m.x_f__mutmut_4": {"status": "survived", "seconds": 2.0, "diff": "+    x = 2"},
               "lfverify.m.x_f__mutmut_7": {"status": "timeout", "seconds": 9.0}}
    record = mt.stratum_record(12, results, lambda name: {"t.py": 1})
    assert record == {"available": 12, "tried": {"lfverify.m.x_f__mutmut": [1, 4, 7]},
                      "counts": {"killed": 1, "survived": 1, "timeout": 1},
                      "undetected": {"lfverify.m.x_f__mutmut_4": "survived"},
                      "diffs": {"lfverify.m.x_f__mutmut_4": "+    x = 2"},
                      "tests_of": {"lfverify.m.x_f__mutmut_4": {"t.py": 1}}, "seconds": 11.5}


def test_equivalents_file_is_well_formed_and_the_committed_report_is_generated_from_the_committed_results():
    equivalents = mt.load_equivalents()
    for name, entry in equivalents.items():
        assert name.startswith("lfverify.") and entry["mutation"] and entry["reason"]
        assert mt.stratum_of(name) in mt.STRATA
    data = json.loads(mt.OUT_JSON.read_text(encoding="utf-8"))
    for module in data["modules"].values():
        for kind, stratum in module["strata"].items():
            s = module["summary"]["strata"][kind]
            assert s["tried"] == sum(stratum["counts"].values()) <= stratum["available"]
            assert s["equivalent"] + s["survived"] == len(stratum["undetected"])
    rebuilt = mt.build_data({}, data, run=None)
    assert rebuilt["modules"] == data["modules"] and rebuilt["overall"] == data["overall"]
    assert mt.markdown_report(data) == mt.OUT_JSON.with_suffix(".md").read_text(encoding="utf-8")
