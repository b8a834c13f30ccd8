"""tools/mutation/report.py: sampling, rates and intervals, the equivalence records, the table; and the committed
results (the figures carried over from the layout before the subpackages).

Oracles: counts, rates and tables written by hand for small made-up results; scipy's binomtest for Clopper-Pearson
(another implementation than statsmodels'); for the carried figures, the numbers of benchmarks/results/mutation.md
at 690d787, copied here by hand.
"""

import json

import measure
import pytest
import report
from scipy import stats

pytestmark = pytest.mark.claims("package:mutation-testing")

PREFIX = "lfverify.core._scores"
DIFF_A2 = """--- lfverify/core/_scores.py
+++ lfverify/core/_scores.py
@@ -1,3 +1,3 @@
 def a(x):
-    return x * sign
+    return x / sign
"""
NAMES = [f"lfverify.m.x_f__mutmut_{i}" for i in range(1, 301)]


def _stratum(available=10):
    """Six tried mutants: killed, 2 survived, timeout, no tests, segfault."""
    undetected = {f"{PREFIX}.x_a__mutmut_2": "survived", f"{PREFIX}.xǁRǁm__mutmut_1": "no tests",
                  f"{PREFIX}.xǁRǁm__mutmut_2": "survived"}
    return {"available": available,
            "tried": report.compact_names([f"{PREFIX}.x_a__mutmut_{i}" for i in (1, 2, 3)] +
                                          [f"{PREFIX}.xǁRǁm__mutmut_{i}" for i in (1, 2, 3)]),
            "counts": {"killed": 1, "survived": 2, "timeout": 1, "no tests": 1, "segfault": 1},
            "undetected": undetected,
            "diffs": {n: DIFF_A2 if n.endswith("x_a__mutmut_2") else "+    pass\n" for n in undetected},
            "tests_of": {n: {"tests/core/test_scores.py": 3} for n in undetected}}


# ---------------------------------------------------------------------- sampling
def test_same_seed_same_sample_other_seed_or_stratum_other_sample():
    first = report.sample_names(NAMES, 25, seed=7, stratum="lfverify.m:mutmut")
    assert first == report.sample_names(list(reversed(NAMES)), 25, seed=7, stratum="lfverify.m:mutmut")
    assert len(set(first)) == 25 and set(first) <= set(NAMES) and first == sorted(first)
    assert first != report.sample_names(NAMES, 25, seed=8, stratum="lfverify.m:mutmut")
    assert first != report.sample_names(NAMES, 25, seed=7, stratum="lfverify.m:args")
    assert report.sample_names(NAMES[:10], 10, seed=1, stratum="s") == sorted(NAMES[:10])
    assert report.sample_names(NAMES, None, seed=1, stratum="s") == sorted(NAMES)
    with pytest.raises(ValueError, match="distinct"):
        report.sample_names(["a", "a"], 1, seed=1, stratum="s")


def test_the_sample_covers_the_stratum_uniformly():
    """Each name's inclusion count over 400 seeds: a chi-square test (df 299) must not reject at 1e-3, while
    taking the first 25 names every time is rejected."""
    counts = dict.fromkeys(NAMES, 0)
    for seed in range(400):
        for name in report.sample_names(NAMES, 25, seed=seed, stratum="s"):
            counts[name] += 1
    expected = 400 * 25 / 300
    assert stats.chi2.sf(sum((c - expected) ** 2 / expected for c in counts.values()), 299) > 1e-3
    biased = [400 if i < 25 else 0 for i in range(300)]
    assert stats.chi2.sf(sum((c - expected) ** 2 / expected for c in biased), 299) < 1e-3


# ---------------------------------------------------------------------- rates and intervals
@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 30), (30, 30), (29, 30), (97, 100), (3, 17), (500, 503)])
def test_one_sampled_stratum_gets_clopper_pearson_on_its_non_equivalent_mutants(k, n):
    """Oracle: scipy's binomtest (root-finding) for k detected of n - 1 non-equivalent (one recorded equivalent)."""
    s = report.estimate([{"available": 10 * (n + 1), "tried": n + 1, "detected": k, "equivalent": 1}])
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert s["rate"] == pytest.approx(k / n, rel=1e-12) and not s["exact"]
    assert s["low"] == pytest.approx(ci.low, rel=1e-8, abs=1e-12)
    assert s["high"] == pytest.approx(ci.high, rel=1e-8, abs=1e-12)


def test_strata_are_weighted_by_what_a_tried_mutant_stands_for():
    """Two strata by hand: weights 10 and 1; Kish's n = (10*99 + 19)^2 / (100*99 + 19)."""
    sampled = {"available": 1000, "tried": 100, "detected": 97, "equivalent": 1, "survived": 2}
    full = {"available": 20, "tried": 20, "detected": 19, "equivalent": 1, "survived": 0}
    c = report.combine([sampled, full], 0.97)
    assert c["rate"] == pytest.approx((10 * 97 + 19) / (10 * 99 + 19), rel=1e-12)
    assert c["effective_n"] == pytest.approx((10 * 99 + 19) ** 2 / (100 * 99 + 19), rel=1e-12)
    assert c["meets_target"] and not c["exact"] and c["low"] < c["rate"] < c["high"]
    assert report.combine([sampled], 0.98)["meets_target"] is False  # 97/99 < 98 %, on the point estimate
    exact = report.combine([full], 0.97)
    assert exact["exact"] and exact["rate"] == 1.0 and exact["low"] is None and exact["high"] is None
    assert report.combine([], 0.97)["rate"] is None and report.combine([], 0.97)["meets_target"] is None
    with pytest.raises(ValueError, match="tried <= available"):
        report.estimate([{"available": 5, "tried": 6, "detected": 6, "equivalent": 0}])


def test_percentages_round_down_and_interval_tops_round_up():
    assert report.percent(4711 / 4713) == "99.95 %" and report.percent(1.0) == "100.00 %"
    assert report.percent(0.99991, up=True) == "100.00 %" and report.percent(0.5, up=True) == "50.00 %"
    assert report.percent(None) == "n/a"


# ---------------------------------------------------------------------- equivalence records
def test_mutated_line_and_compact_names():
    assert report.mutated_line(DIFF_A2) == "return x / sign"
    assert report.mutated_line("-    a = 1\n+    a = (\n+        2)\n") == "a = ( / 2)"
    names = ["lfverify.m.x_f__mutmut_3", "lfverify.m.x_f__mutmut_12", "lfverify.m.xǁCǁg__lfv_args_2"]
    compact = report.compact_names(names)
    assert compact == {"lfverify.m.x_f__mutmut": [3, 12], "lfverify.m.xǁCǁg__lfv_args": [2]}
    assert report.expand_names(compact) == set(names)


def test_summary_without_equivalence_records():
    s = report.summarize(_stratum(), {}, module=PREFIX, kind="mutmut")
    assert (s["available"], s["tried"], s["detected"], s["equivalent"], s["survived"]) == (10, 6, 3, 0, 3)
    assert s["surviving_mutants"][0] == {"name": f"{PREFIX}.x_a__mutmut_2", "status": "survived",
                                         "mutation": "return x / sign", "tests": {"tests/core/test_scores.py": 3},
                                         "killed_later_by": None}
    assert s["killed_later"] == 0


def test_a_survivor_killed_later_stays_survived_and_is_counted_only_at_its_mutation():
    test = "tests/core/test_scores.py::test_sign"
    s = report.summarize(_stratum(), {}, module=PREFIX, kind="mutmut",
                         later={f"{PREFIX}.x_a__mutmut_2": {"mutation": "return x / sign", "test": test}})
    assert (s["detected"], s["survived"], s["killed_later"]) == (3, 3, 1)
    assert s["surviving_mutants"][0]["killed_later_by"] == test
    other = report.summarize(_stratum(), {}, module=PREFIX, kind="mutmut",
                             later={f"{PREFIX}.x_a__mutmut_2": {"mutation": "return x * sign", "test": test}})
    assert other["killed_later"] == 0 and other["surviving_mutants"][0]["killed_later_by"] is None


def test_only_confirmed_kills_are_loaded(tmp_path):
    records = {"a": {"mutation": "m", "test": "t", "confirmed": {"commit": "c", "status": 1}},
               "b": {"mutation": "m", "test": "t", "confirmed": {"commit": "c", "status": 0, "why": "pytest status 0"}},
               "c": {"mutation": "m", "test": "t", "confirmed": None}}
    path = tmp_path / "killed_later.json"
    path.write_text(json.dumps({"KILLED_LATER": records}), encoding="utf-8")
    assert list(report.load_killed_later(path)) == ["a"]


def test_a_record_counts_only_when_its_line_matches_and_its_mutant_went_undetected():
    reason = {"mutation": "return x / sign", "reason": "sign is +-1, so x / sign == x * sign exactly"}
    s = report.summarize(_stratum(), {f"{PREFIX}.x_a__mutmut_2": reason}, module=PREFIX, kind="mutmut")
    assert (s["equivalent"], s["survived"], s["stale_equivalents"]) == (1, 2, [])
    renumbered = report.summarize(_stratum(), {f"{PREFIX}.xǁRǁm__mutmut_2": reason}, module=PREFIX, kind="mutmut")
    assert renumbered["equivalent"] == 0 and renumbered["stale_equivalents"][0]["actual_mutation"] == "pass"
    # detected -> stale; not tried this time, another module's (a submodule's too), another stratum's -> ignored
    entries = {f"{PREFIX}.x_a__mutmut_1": reason, f"{PREFIX}.x_a__mutmut_9": reason,
               "lfverify.core._losses.x_b__mutmut_1": reason, f"{PREFIX}.sub.x_a__mutmut_1": reason,
               f"{PREFIX}.x_a__lfv_args_1": reason}
    gone = report.summarize(_stratum(), entries, module=PREFIX, kind="mutmut")
    assert [m["name"] for m in gone["stale_equivalents"]] == [f"{PREFIX}.x_a__mutmut_1"]


def test_summarize_refuses_inconsistent_counts():
    with pytest.raises(ValueError, match="undetected: 0 mutants listed"):
        report.summarize({**_stratum(), "undetected": {}}, {}, module=PREFIX, kind="mutmut")
    with pytest.raises(ValueError, match="unknown statuses"):
        report.summarize({**_stratum(), "counts": {"vanished": 1}}, {}, module=PREFIX, kind="mutmut")
    with pytest.raises(ValueError, match="tried: 6 counted, 0 named, 5 available"):
        report.summarize({**_stratum(available=5), "tried": {}}, {}, module=PREFIX, kind="mutmut")


def test_the_equivalence_records_are_well_formed_and_named_after_todays_modules():
    records = report.load_equivalents()
    modules, _ = measure.discover(measure.REPO)
    known = set(modules.values())
    assert len(records) >= 200
    for name in records:
        module = measure.operators.function_key_of(name).rpartition(".")[0]
        assert module in known, name


# ---------------------------------------------------------------------- the table and the committed results
def _entry(source, commit, measured_as=None):
    p = {"commit": commit, "source": "git archive HEAD", "date": "2027-01-01T00:00:00Z", "sample": 6,
         "operator_sample": 1, "seed": 1, "max_children": 1, "cpus": 2, "tests": "the default suite"}
    if measured_as:
        p["measured_as"] = measured_as
    return {"source": source, "module": measure.dotted(source), "provenance": p, "strata": {"mutmut": _stratum()}}


def test_the_table_names_each_rows_commit_and_its_old_path_and_lists_what_was_not_measured():
    data = report.build({"lfverify/core/_scores.py": _entry("lfverify/core/_scores.py", "a" * 40,
                                                            "lfverify/scores.py")},
                        discovered=["lfverify/core/_scores.py", "lfverify/core/_losses.py"],
                        excluded={"lfverify/__init__.py": "no function"}, last_run=None, equivalents={})
    text = report.markdown(data)
    assert "| `lfverify/core/_scores.py` | aaaaaaa as `lfverify/scores.py` | 6 / 10 | 3 | 0 | 3 | 50.00 % [" in text
    assert "## Not measured yet\n\n`lfverify/core/_losses.py`" in text
    assert "* `lfverify/__init__.py`: no function" in text
    assert ("* `lfverify.core._scores.x_a__mutmut_2` (survived): `return x / sign`; tests run: "
            "tests/core/test_scores.py (3)") in text
    assert data["overall"]["meets_target"] is False
    same = report.build({"lfverify/core/_scores.py": _entry("lfverify/core/_scores.py", "b" * 40)},
                        discovered=["lfverify/core/_scores.py"], excluded={}, last_run=None, equivalents={})
    assert "| `lfverify/core/_scores.py` | bbbbbbb | " in report.markdown(same)
    assert "fresh process" not in text  # no mutant of this run was detected only afresh


def test_the_table_counts_the_mutants_detected_only_afresh():
    entry = _entry("lfverify/core/_scores.py", "a" * 40)
    entry["strata"]["mutmut"] = measure.detected_afresh(entry["strata"]["mutmut"], [f"{PREFIX}.x_a__mutmut_2"])
    data = report.build({"lfverify/core/_scores.py": entry}, discovered=["lfverify/core/_scores.py"], excluded={},
                        last_run=None, equivalents={})
    text = report.markdown(data)
    assert "| `lfverify/core/_scores.py` | aaaaaaa | 6 / 10 | 4 | 0 | 2 |" in text
    assert "in a fresh process (1 mutmut mutants;" in text and "`lfverify/core/_scores.py` 1." in text


@pytest.mark.parametrize("name", ["mutation.json", "mutation_heldout.json", "seed2027_sample.json"])
def test_the_committed_table_is_generated_from_the_committed_results(name):
    """Each committed results file (the carried table, the fresh-seed measurement run in batches of modules, and the
    modules measured so far at a new seed, 2027) and its table."""
    path = measure.OUT.with_name(name)
    data = json.loads(path.read_text(encoding="utf-8"))
    modules, excluded = measure.discover(measure.REPO)
    rebuilt = report.build(data["modules"], discovered=list(modules), excluded=excluded, last_run=data["last_run"])
    assert report.markdown(rebuilt, path.relative_to(measure.REPO).as_posix()) == path.with_suffix(".md").read_text(
        encoding="utf-8")


def test_the_docs_figures_are_generated_from_the_committed_results():
    """docs/testing.md's generated part is the one ``measure.py --docs`` writes from the two committed results
    files; a page without its markers, or with two, is refused."""
    fresh, carried = (json.loads(p.read_text(encoding="utf-8")) for p in (measure.HELDOUT, measure.OUT))
    page = (measure.REPO / "docs" / "testing.md").read_text(encoding="utf-8")
    assert report.replace_docs_block(page, report.docs_block(fresh, carried)) == page
    block = report.docs_block(fresh, carried)
    assert f"{len(fresh['modules'])} of {len(fresh['discovered'])} modules" in block
    assert block.count("\n| `lfverify/") == len(fresh["modules"])
    with pytest.raises(ValueError, match="need exactly one"):
        report.replace_docs_block("no markers", block)
    with pytest.raises(ValueError, match="need exactly one"):
        report.replace_docs_block(page + report.DOCS_START, block)


def test_the_carried_figures_are_those_measured_on_the_old_layout():
    """benchmarks/results/mutation.md at 690d787: 69 modules, package 99.88 % [99.33 %, 100.00 %] over 6237 of
    48302 mutants; e.g. atomic_write.py 8 / 13, 100.00 % [46.58 %, 100.00 %]; populations.py 99.86 % (exact).  Since
    2026-12-07 the package's lower end is 99.32 %: one equivalence record (``fbeta_calibration``'s ``beta`` check
    made inclusive) was wrong - the message for a negative beta then says [0.0, inf) - and a test now kills it."""
    data = json.loads(measure.OUT.read_text(encoding="utf-8"))
    carried = {e["provenance"]["measured_as"]: e for e in data["modules"].values()
               if e["provenance"].get("tool") == "benchmarks/mutation_testing.py"}
    assert len(carried) == 69
    assert all(len(e["provenance"]["commit"]) == 40 for e in carried.values())
    package = report.combine([s for e in carried.values() for s in e["summary"]["strata"].values()], 0.98)
    assert (package["tried"], package["available"]) == (6237, 48302)
    assert report.rate_text(package) == "99.88 % [99.32 %, 100.00 %]"
    atomic = carried["lfverify/atomic_write.py"]
    assert atomic["source"] == "lfverify/io/_atomic.py" and atomic["provenance"]["commit"].startswith("e6df4b3")
    assert report.rate_text(atomic["summary"]) == "100.00 % [46.58 %, 100.00 %]"
    populations = carried["lfverify/populations.py"]
    assert populations["source"] == "lfverify/core/_populations.py"
    assert report.rate_text(populations["summary"]) == "99.86 % (exact)"
