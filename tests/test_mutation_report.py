"""Fast checks of benchmarks/mutation_testing.py's parsing and kill-rate logic (mutmut itself is not run here).

Oracle: counts written by hand for small made-up mutmut outputs.
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "mutation_testing.py"


def _load():
    spec = importlib.util.spec_from_file_location("mutation_testing", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class body executes
    spec.loader.exec_module(module)
    return module


mt = _load()

RESULTS_OUTPUT = """\
    lfverify.scores.x_a__mutmut_1: killed
    lfverify.scores.x_a__mutmut_2: survived
    lfverify.scores.x_a__mutmut_3: timeout
    lfverify.scores.xǁRǁm__mutmut_1: no tests
    lfverify.scores.xǁRǁm__mutmut_2: survived
    lfverify.scores.xǁRǁm__mutmut_3: segfault
some unrelated line
"""

DIFF_2 = """--- lfverify/scores.py
+++ lfverify/scores.py
@@ -1,3 +1,3 @@
 def a(x):
-    return x * sign
+    return x / sign
"""


def test_parse_results_reads_every_mutant_and_rejects_unknown_statuses():
    statuses = mt.parse_results(RESULTS_OUTPUT)
    assert statuses == {
        "lfverify.scores.x_a__mutmut_1": "killed", "lfverify.scores.x_a__mutmut_2": "survived",
        "lfverify.scores.x_a__mutmut_3": "timeout", "lfverify.scores.xǁRǁm__mutmut_1": "no tests",
        "lfverify.scores.xǁRǁm__mutmut_2": "survived", "lfverify.scores.xǁRǁm__mutmut_3": "segfault",
    }
    with pytest.raises(ValueError, match="unknown status 'exploded'"):
        mt.parse_results("    lfverify.scores.x_a__mutmut_9: exploded\n")


def test_mutated_line_is_the_added_line_of_the_diff():
    assert mt.mutated_line(DIFF_2) == "return x / sign"
    assert mt.mutated_line("") == ""


def _summary(equivalents):
    statuses = mt.parse_results(RESULTS_OUTPUT)
    counts = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    undetected = {k: v for k, v in statuses.items() if v not in mt.DETECTED}
    diffs = {k: DIFF_2 if k.endswith("x_a__mutmut_2") else "+    pass\n" for k in undetected}
    return mt.summarize(counts, undetected, diffs, equivalents, module_prefix="lfverify.scores")


def test_rates_without_equivalent_mutants():
    s = _summary({})
    # 6 mutants: killed, timeout and segfault are detected (3); survived x2 and no tests are not
    assert (s["total"], s["detected"], s["equivalent"], s["non_equivalent"]) == (6, 3, 0, 6)
    assert s["kill_rate"] == 0.5 and s["non_equivalent_kill_rate"] == 0.5
    assert [m["name"] for m in s["surviving_mutants"]] == [
        "lfverify.scores.x_a__mutmut_2", "lfverify.scores.xǁRǁm__mutmut_1", "lfverify.scores.xǁRǁm__mutmut_2"]


def test_an_equivalent_entry_counts_only_when_its_mutated_line_matches():
    reason = {"mutation": "return x / sign", "reason": "sign is +-1, so x / sign == x * sign exactly"}
    s = _summary({"lfverify.scores.x_a__mutmut_2": reason})
    assert s["equivalent"] == 1 and s["non_equivalent"] == 5
    assert s["non_equivalent_kill_rate"] == pytest.approx(3 / 5)
    assert s["equivalent_mutants"][0]["reason"] == reason["reason"]
    assert s["stale_equivalents"] == []
    # the module changed and mutmut renumbered: the same name now holds another mutation -> stale, not counted
    stale = _summary({"lfverify.scores.xǁRǁm__mutmut_2": reason})
    assert stale["equivalent"] == 0 and stale["non_equivalent_kill_rate"] == 0.5
    assert stale["stale_equivalents"][0]["name"] == "lfverify.scores.xǁRǁm__mutmut_2"
    # an entry for a mutant of this module that is detected (or gone) is stale; other modules' entries are ignored
    gone = _summary({"lfverify.scores.x_a__mutmut_1": reason, "lfverify.losses.x_b__mutmut_1": reason})
    assert [m["name"] for m in gone["stale_equivalents"]] == ["lfverify.scores.x_a__mutmut_1"]


def test_summarize_refuses_inconsistent_counts():
    with pytest.raises(ValueError, match="undetected: 0 mutants listed, but counts say 1"):
        mt.summarize({"survived": 1}, {}, {}, {}, module_prefix="lfverify.scores")
    with pytest.raises(ValueError, match="unknown statuses"):
        mt.summarize({"vanished": 1}, {}, {}, {}, module_prefix="lfverify.scores")


def test_overall_sums_counts_rather_than_averaging_rates():
    modules = {"a": {"summary": {"total": 10, "detected": 9, "equivalent": 0, "counts": {"killed": 9, "survived": 1}}},
               "b": {"summary": {"total": 90, "detected": 45, "equivalent": 40,
                                 "counts": {"killed": 44, "timeout": 1, "survived": 45}}}}
    o = mt.overall(modules)
    assert (o["total"], o["detected"], o["equivalent"], o["surviving_non_equivalent"]) == (100, 54, 40, 6)
    assert o["counts"] == {"killed": 53, "survived": 46, "timeout": 1}
    assert o["non_equivalent_kill_rate"] == pytest.approx(54 / 60)  # not the mean of 0.9 and 0.9


def test_percentages_are_rounded_down_so_only_a_complete_kill_reads_100():
    assert mt.percent(4711 / 4713) == "99.95 %"
    assert mt.percent(1.0) == "100.00 %" and mt.percent(0.5) == "50.00 %" and mt.percent(None) == "n/a"
    assert mt.percent(0.99999) == "99.99 %"


def test_module_prefix_and_config_name_the_module_and_its_tests():
    assert mt.module_prefix("lfverify/metrics.py") == "lfverify.metrics"
    config = mt.mutmut_config(mt.ModuleRun("lfverify/scores.py", ("tests/test_scores.py",)))
    assert 'only_mutate = ["lfverify/scores.py"]' in config
    assert 'pytest_add_cli_args_test_selection = ["tests/test_scores.py"]' in config


def test_every_core_module_is_measured_and_its_test_files_exist():
    root = SCRIPT.parents[1]
    assert set(mt.MODULES) == {"metrics", "losses", "scores", "empirical", "populations", "quadrature", "calibration",
                               "validation"}
    for run in mt.MODULES.values():
        assert (root / run.source).is_file()
        for test in run.tests:
            assert (root / test).is_file(), test


def test_equivalents_file_is_well_formed_and_committed_results_are_consistent():
    equivalents = mt.load_equivalents()
    for name, entry in equivalents.items():
        assert name.startswith("lfverify.") and entry["mutation"] and entry["reason"]
    if mt.OUT_JSON.exists():  # the generated results agree with their own counts
        data = json.loads(mt.OUT_JSON.read_text(encoding="utf-8"))
        for module in data["modules"].values():
            s = module["summary"]
            assert s["total"] == sum(module["counts"].values())
            assert s["equivalent"] + len(s["surviving_mutants"]) == len(module["undetected"])
