"""tools/mutation/later.py: a run's survivors killed by a test written afterwards - the diff applied to today's
source, and the confirmation that the recorded test fails on it (real pytest processes on a tiny package).

Oracles: sources and diffs written by hand; a tiny package whose tests fail exactly on the hand-made mutants.
"""

import json
import shutil

import later
import measure
import pytest

pytestmark = pytest.mark.claims("package:mutation-testing")

SOURCE = '''class C:
    def f(self, x):
        if x < 0:
            return -x

        return x


def g(x):
    if x < 0:
        return 0
    return x
'''

#: mutmut's diff of a method shows it dedented, with a blank context line
METHOD_DIFF = "\n".join(["--- m.py", "+++ m.py", "@@ -1,5 +1,5 @@", " def f(self, x):", "-    if x < 0:",
                         "+    if x <= 0:", "         return -x", " ", "     return x"])


def test_a_dedented_method_diff_is_applied_at_the_methods_indentation():
    assert later.apply_diff(SOURCE, METHOD_DIFF) == SOURCE.replace("        if x < 0:", "        if x <= 0:", 1)


def test_a_hunk_found_twice_or_nowhere_is_refused():
    """Companion: ``if x < 0:`` alone occurs twice (in ``f`` and ``g``); after an edit of the source, nowhere."""
    twice = "--- m.py\n+++ m.py\n@@ -1,1 +1,1 @@\n-if x < 0:\n+if x <= 0:"
    with pytest.raises(ValueError, match="found 2 times"):
        later.apply_diff(SOURCE, twice)
    with pytest.raises(ValueError, match="found 0 times"):
        later.apply_diff(SOURCE.replace("return -x", "return abs(x)"), METHOD_DIFF)
    with pytest.raises(ValueError, match="changes nothing"):
        later.apply_diff(SOURCE, "--- m.py\n+++ m.py\n@@ -1,1 +1,1 @@\n def g(x):")


def test_a_recorded_survivor_of_the_fresh_table_applies_to_todays_source():
    """Oracle: the fresh-seed table's diff of a module changed by no later commit's edit of that line."""
    data = json.loads((measure.HERE / "results" / "mutation_heldout.json").read_text(encoding="utf-8"))
    name = "lfverify.parallel._faults.x_describe_exit__mutmut_4"
    diff = data["modules"]["lfverify/parallel/_faults.py"]["strata"]["mutmut"]["diffs"][name]
    text = (measure.REPO / "lfverify" / "parallel" / "_faults.py").read_text(encoding="utf-8")
    mutated = later.apply_diff(text, diff)
    changed = [(a, b) for a, b in zip(text.splitlines(), mutated.splitlines()) if a != b]
    assert changed == [("    if exitcode < 0:", "    if exitcode <= 0:")]


MODULE = "def value(key):\n    return {'a': 1.0, 'b': 2.0}[key]\n\n\ndef other():\n    return 3\n"
DIFFS = {"lfverify.m.x_value__mutmut_1": "--- m.py\n+++ m.py\n@@ -1,2 +1,2 @@\n def value(key):\n"
                                         "-    return {'a': 1.0, 'b': 2.0}[key]\n+    return {'a': 1.0, 'b': 3.0}[key]",
         "lfverify.m.x_other__mutmut_1": "--- m.py\n+++ m.py\n@@ -1,2 +1,2 @@\n def other():\n"
                                         "-    return 3\n+    return 4"}


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A results file, a records file and a stand-in for ``git archive HEAD`` that writes a tiny package."""
    def make_copy(target, overrides):
        shutil.rmtree(target, ignore_errors=True)
        (target / "lfverify" / "testing").mkdir(parents=True)
        (target / "lfverify" / "__init__.py").write_text("")
        (target / "lfverify" / "m.py").write_text(MODULE)
        # an installed lfverify registers lfverify.testing.plugin with pytest (pytest11): pytest imports it from here
        (target / "lfverify" / "testing" / "__init__.py").write_text("")
        (target / "lfverify" / "testing" / "plugin.py").write_text("")
        (target / "tests").mkdir()
        (target / "tests" / "test_m.py").write_text(
            "from lfverify.m import other, value\n\n\ndef test_value():\n    assert value('b') == 2.0\n\n\n"
            "def test_other_runs():\n    assert other() > 0\n")
        return "c0ffee"

    monkeypatch.setattr(measure, "make_copy", make_copy)
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"modules": {"lfverify/m.py": {"strata": {"mutmut": {"diffs": DIFFS}}}}}))
    records = tmp_path / "killed_later.json"
    records.write_text(json.dumps({"KILLED_LATER": {
        "lfverify.m.x_value__mutmut_1": {"mutation": "return {'a': 1.0, 'b': 3.0}[key]",
                                         "test": "tests/test_m.py::test_value", "confirmed": None},
        "lfverify.m.x_other__mutmut_1": {"mutation": "return 4", "test": "tests/test_m.py::test_other_runs",
                                         "confirmed": None}}}))
    return results, records, tmp_path / "work"


def test_confirmation_records_which_later_test_fails_on_its_mutant(tiny):
    """Oracle: ``test_value`` fails when 'b' maps to 3.0; ``test_other_runs`` passes when ``other`` returns 4 (the
    companion: a record whose test does not fail its mutant is not confirmed, and the run says so)."""
    results, records, work = tiny
    said = []
    assert later.confirm(results, work, 2, path=records, say=said.append) == 1
    confirmed = json.loads(records.read_text())["KILLED_LATER"]
    assert confirmed["lfverify.m.x_value__mutmut_1"]["confirmed"] == {"commit": "c0ffee", "status": 1}
    assert confirmed["lfverify.m.x_other__mutmut_1"]["confirmed"]["status"] == 0
    assert (work / "later-0" / "lfverify" / "m.py").read_text() == MODULE  # restored after each run
    assert sorted(said) == ["lfverify.m.x_other__mutmut_1: pytest status 0", "lfverify.m.x_value__mutmut_1: killed"]
    assert not measure._LIVE


def _confirm_with_value_record(tiny, **changes):
    """Confirm after setting ``changes`` in the record of ``x_value__mutmut_1``: (records not confirmed, records)."""
    results, records, work = tiny
    data = json.loads(records.read_text())
    data["KILLED_LATER"]["lfverify.m.x_value__mutmut_1"].update(changes)
    records.write_text(json.dumps(data))
    missed = later.confirm(results, work, 1, path=records, say=lambda _: None)
    return missed, json.loads(records.read_text())["KILLED_LATER"]


def test_a_record_whose_mutation_is_not_the_results_files_is_not_confirmed(tiny):
    missed, confirmed = _confirm_with_value_record(tiny, mutation="return 5")
    assert missed == 2
    outcome = confirmed["lfverify.m.x_value__mutmut_1"]["confirmed"]
    assert outcome == {"commit": "c0ffee", "status": None, "why": "not in the results file with this mutation"}


def test_a_record_of_a_module_gone_since_is_not_confirmed_and_stops_nothing(tiny):
    """A module deleted (or renamed) since the run, without a diff of today: that record says so, the others run."""
    missed, confirmed = _confirm_with_value_record(tiny, module_today="lfverify/gone.py")
    assert missed == 2
    why = confirmed["lfverify.m.x_value__mutmut_1"]["confirmed"]["why"]
    assert why == "not applied: no module lfverify/gone.py today"
    assert confirmed["lfverify.m.x_other__mutmut_1"]["confirmed"]["status"] == 0  # ran: its test does not fail


def test_a_record_of_code_moved_since_the_run_is_confirmed_with_its_diff_of_today(tiny):
    """Oracle: the tiny module's ``value`` renamed ``lookup`` since the run - the results file's diff no longer
    applies, a diff of today's code making the same mutated line does, and ``test_value`` fails on it; a diff of
    today that makes another line is refused (the companion)."""
    results, records, work = tiny
    data = json.loads(records.read_text())
    record = data["KILLED_LATER"]["lfverify.m.x_value__mutmut_1"]
    today = DIFFS["lfverify.m.x_value__mutmut_1"].replace("def value(key)", "def lookup(key)")
    record.update(module_today="lfverify/m.py", diff_today=today)
    del data["KILLED_LATER"]["lfverify.m.x_other__mutmut_1"]
    records.write_text(json.dumps(data))
    moved = MODULE.replace("def value(key)", "def lookup(key)") + "\n\nvalue = lookup\n"
    real_make_copy = measure.make_copy

    def make_copy(target, overrides):
        commit = real_make_copy(target, overrides)
        (target / "lfverify" / "m.py").write_text(moved)
        return commit

    measure.make_copy = make_copy  # restored by the fixture's monkeypatch
    assert later.confirm(results, work, 1, path=records, say=lambda _: None) == 0
    record["diff_today"] = today.replace("3.0}", "4.0}")
    records.write_text(json.dumps(data))
    assert later.confirm(results, work, 1, path=records, say=lambda _: None) == 1
    outcome = json.loads(records.read_text())["KILLED_LATER"]["lfverify.m.x_value__mutmut_1"]["confirmed"]
    assert outcome["why"] == "diff_today makes another mutation"
