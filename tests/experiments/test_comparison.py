"""The ``compare`` experiment (lfverify/experiments/_comparison.py and its wiring in protocol / command).

Oracles: hand-made trial values whose one-sided Welch decisions are recomputed with
``scipy.stats.ttest_ind(equal_var=False, alternative="greater")``; hand-made timing files whose ratios are written
out; a spy on the protocol's fits; the real command on one small data set.

Private: lfverify.experiments._comparison, the comparison with peer implementations (its ratios, targets and tables),
and the benchmark internals it runs on - _protocol's ProtocolConfig (and REMEDY_METHODS, patched),
_benchmark.build_cells and _runner.fingerprint - none of which a face exports.
"""

import json

import numpy as np
import pytest
from scipy import stats

import lfverify.experiments._comparison as comparison
from lfverify.experiments._comparison import (
    collect_fit_time_ratios,
    compare_targets,
    format_ratio,
    markdown_compare_table,
    median_ratios,
)
from lfverify.learn import LinearFractionalClassifier
from shared_files import SMALL_DATA_ROOT

pytestmark = pytest.mark.claims("package:estimator", "package:benchmark-machinery")


def _welch_greater(a, b):
    return stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue


def test_fit_time_ratios_divide_by_the_same_trials_logreg_and_charge_the_erm_starts():
    records = [{"dataset": "d"}, {"dataset": "d"}, {"dataset": "d"}, {"dataset": "e"}]
    timings = [
        {"methods": {"f1": {"LogReg": 0.5, "U-BFGS": 2.0, "Cost-sensitive": 1.0},
                     "erm_start": {"fit_start": 0.25, "train_start": 0.75}}},
        {"methods": {"f1": {"LogReg": 0.25, "U-BFGS": 1.0, "Cost-sensitive": 0.5}}},  # no ERM start recorded
        None,  # a trial whose timing file is missing has no ratio
        {"methods": {"f1": {"U-BFGS": 1.0}}},  # no LogReg time: no ratio
    ]
    ratios = collect_fit_time_ratios(records, timings, "f1")
    assert ratios == {"d": {"LogReg": [1.0, 1.0], "U-BFGS": [(2.0 + 1.0) / 0.5, 1.0 / 0.25],
                            "Cost-sensitive": [2.0, 2.0]}}
    assert median_ratios(ratios) == {"d": {"LogReg": 1.0, "U-BFGS": 5.0, "Cost-sensitive": 2.0}}
    assert collect_fit_time_ratios(records, timings, "jaccard") == {}


def test_targets_follow_the_one_sided_welch_decisions():
    """A truth table on four data sets: the remedy equal to / far below / far above the peer, and U-BFGS short or
    not; each decision is checked against scipy's Welch test, so a change of test or of direction fails."""
    rng = np.random.default_rng(0)
    noise = lambda: list(rng.normal(0.0, 0.01, 20))  # noqa: E731
    base = 0.7
    values = {
        "equal": {"Tuned-threshold": [base + e for e in noise()], "Cost-sensitive": [base + e for e in noise()],
                  "U-BFGS": [base - 0.1 + e for e in noise()]},
        "remedy-below": {"Tuned-threshold": [base + e for e in noise()],
                         "Cost-sensitive": [base - 0.05 + e for e in noise()],
                         "U-BFGS": [base - 0.02 + e for e in noise()]},
        "remedy-above": {"Tuned-threshold": [base + e for e in noise()],
                         "Cost-sensitive": [base + 0.05 + e for e in noise()],
                         "U-BFGS": [base + e for e in noise()]},
        "no-peer": {"Cost-sensitive": [base] * 3},
    }
    ratios = {"equal": {"Cost-sensitive": 2.0, "Tuned-threshold": 6.0},
              "remedy-below": {"Cost-sensitive": 7.0, "Tuned-threshold": 6.0}}
    t = compare_targets(values, ratios, remedies=("Cost-sensitive",))["Cost-sensitive"]
    assert t["datasets"] == ["equal", "remedy-above", "remedy-below"]  # no peer: not counted
    for dataset in t["datasets"]:
        row = values[dataset]
        below = _welch_greater(row["Tuned-threshold"], row["Cost-sensitive"]) < 0.05
        assert (dataset in t["below_peer"]) == below and (dataset in t["not_below_peer"]) == (not below)
        short = _welch_greater(row["Tuned-threshold"], row["U-BFGS"]) < 0.05
        assert (dataset in t["paper_short"]) == short
    assert t["below_peer"] == ["remedy-below"]
    assert t["paper_short"] == ["equal", "remedy-below"]
    assert t["above_paper_where_short"] == ["equal"]  # the remedy is below U-BFGS on remedy-below
    assert t["significantly_above_paper_where_short"] == ["equal"]
    assert t["time_not_above_peer"] == ["equal"] and t["time_above_peer"] == ["remedy-below"]


def test_compare_table_bolds_by_the_rule_and_prints_the_ratio():
    values = {"d": {"A": [0.80, 0.81, 0.79, 0.80], "B": [0.60, 0.61, 0.59, 0.60], "LogReg": [0.80, 0.80, 0.81, 0.79]}}
    ratios = {"d": {"A": 3.14159, "B": 46.4, "LogReg": 1.0}}
    text = markdown_compare_table(values, ratios, "f1", methods=["A", "B", "LogReg"])
    row = next(line for line in text.splitlines() if line.startswith("| d (4)"))
    assert row == "| d (4) | **0.800 (41)** 3.1x | 0.600 (41) 46x | **0.800 (41)** 1x |"
    # the header names the methods; a method without trials on a data set is "-" there (typed out; kills
    # `lfverify.experiments._comparison.x_markdown_compare_table__mutmut_14` and `..._mutmut_40`)
    values["e"] = {"A": [0.5, 0.6]}
    lines = markdown_compare_table(values, ratios, "f1", methods=["A", "B", "LogReg"]).splitlines()
    assert lines[4:6] == ["| dataset | A | B | LogReg |", "|---|---|---|---|"]
    assert lines[7] == "| e (2) | **0.550 (500)** | - | - |"
    assert format_ratio(0.5312) == "0.53x" and format_ratio(9.96) == "10x" and format_ratio(123.4) == "123x"


def test_compare_section_head_table_title_and_failed_trials():
    """compare_section's markdown begins with its section title and a blank line, then each metric's table titled
    by the metric's name (its own name when unknown), and lists the failed trials under the table.  Oracle:
    hand-typed lines.  Kills: paper_benchmark.comparison.x_compare_section__mutmut_5,
    paper_benchmark.comparison.x_compare_section__mutmut_8, paper_benchmark.comparison.x_compare_section__mutmut_36,
    paper_benchmark.comparison.x_markdown_compare_table__mutmut_9"""
    records = [{"dataset": "d", "trial": 0, "results": {"f1": {"A": {"test": 0.5}}},
                "errors": {"f1": {"B": "ValueError: boom"}}},
               {"dataset": "d", "trial": 1, "results": {"f1": {"A": {"test": 0.7}, "B": {"test": 0.4}}}}]
    text, summary = comparison.compare_section(records, [None, None], metrics=["f1"], methods=["A", "B"])
    lines = text.split("\n")
    assert lines[:3] == ["## Which estimator? The paper's methods, the remedies and their peers (compare)", "",
                         "### F1-measure"]
    assert "| d (2) | **0.600 (1000)** | 0.400 (n/a) |" in lines
    assert "* d, B: 1 failed trial(s), e.g. `ValueError: boom`" in lines
    assert summary["values"]["f1"] == {"d": {"A": [0.5, 0.7], "B": [0.4]}}
    table = markdown_compare_table({"d": {"A": [0.5]}}, {}, "auc", methods=["A"])
    assert table.splitlines()[0] == "### auc"


def test_compare_targets_row_counts_the_timed_data_sets():
    """Oracle: the row typed out by hand from hand-built targets (time: 1 of the 3 timed data sets not above the
    peer); the text ends with that row and one newline.  Kills:
    paper_benchmark.comparison.x_markdown_compare_targets__mutmut_10,
    paper_benchmark.comparison.x_markdown_compare_targets__mutmut_28"""
    t = {"datasets": ["a", "b", "c", "d"], "not_below_peer": ["a", "b"], "below_peer": ["c", "d"],
         "paper_short": ["a", "c"], "above_paper_where_short": ["a"], "significantly_above_paper_where_short": [],
         "time_not_above_peer": ["a"], "time_above_peer": ["b", "c"]}
    text = comparison.markdown_compare_targets({"f1": {"Cost-sensitive": t}})
    row = "| Cost-sensitive | f1 | 2 / 4 | c, d | 2 | 1 / 2 (0) | 1 / 3 | b, c |"
    assert text.endswith("|---|---|---|---|---|---|---|---|\n" + row + "\n")
    # no data set below the peer, none slower: "-" in both columns (kills
    # `lfverify.experiments._comparison.x_markdown_compare_targets__mutmut_18`)
    t.update(not_below_peer=["a", "b", "c", "d"], below_peer=[], time_not_above_peer=["a", "b", "c"],
             time_above_peer=[])
    text = comparison.markdown_compare_targets({"f1": {"Cost-sensitive": t}})
    assert text.endswith("\n| Cost-sensitive | f1 | 4 / 4 | - | 2 | 1 / 2 (0) | 3 / 3 | - |\n")


def test_reused_baselines_are_charged_their_whole_fit_for_the_second_metric(monkeypatch):
    """Plug-in is fitted once per trial (F_1) and re-selected for Jaccard; a standalone Jaccard fit would cost the
    whole fit, so the Jaccard time includes it.  Spy: the F_1 fit's own duration."""
    import time

    from lfverify.experiments import run_trial
    from lfverify.experiments._protocol import ProtocolConfig
    from lfverify.learn import PlugInClassifier, load_dataset

    durations = []
    original = PlugInClassifier.fit

    def timed_fit(self, X, y):
        started = time.perf_counter()
        result = original(self, X, y)
        durations.append(time.perf_counter() - started)
        return result

    monkeypatch.setattr(PlugInClassifier, "fit", timed_fit)
    record = run_trial(load_dataset("heart", root=SMALL_DATA_ROOT), 0,
                       ProtocolConfig(methods=("Plug-in", "LogReg", "Cost-sensitive")), seed=0)
    assert len(durations) == 1  # fitted once
    assert record["timing"]["jaccard"]["Plug-in"] >= durations[0] - 1e-4  # rounded to 0.1 ms
    assert record["results"]["jaccard"]["Plug-in"]["fitted_for"] == "f1"
    assert set(record["results"]["f1"]) == {"Plug-in", "LogReg", "Cost-sensitive"}


def test_remedies_in_the_protocol_are_the_estimators_options(monkeypatch):
    """Spy on LinearFractionalClassifier: each remedy column fits it once per metric on the whole training set with
    its options (REMEDY_METHODS), the paper's tau and max_iter for the surrogate utility, and a SeedSequence
    seed; the record keeps the fitted threshold and the folds it was chosen on."""
    from lfverify import learn as estimator
    from lfverify.experiments import run_trial
    from lfverify.experiments._protocol import ProtocolConfig
    from lfverify.learn import load_dataset

    seen = []
    original = estimator.LinearFractionalClassifier.fit

    def spy(self, X, y):
        seen.append((self.get_params(), X.shape[0]))
        return original(self, X, y)

    monkeypatch.setattr(estimator.LinearFractionalClassifier, "fit", spy)
    config = ProtocolConfig(methods=("U-BFGS+refit", "Cost-sensitive", "Cost-sensitive+CV"), max_iter=7)
    record = run_trial(load_dataset("heart", root=SMALL_DATA_ROOT), 0, config, seed=0)
    assert len(seen) == 6 and all(n == record["n_train"] for _, n in seen)
    by_metric = {(p["metric"], p["objective"], p["threshold_cv"]): p for p, _ in seen}
    refit = by_metric[("f1", "surrogate-utility", None)]
    assert refit["threshold"] == "refit" and refit["tau"] == 0.33 and refit["max_iter"] == 7
    assert by_metric[("jaccard", "surrogate-utility", None)]["tau"] == 0.75
    default = by_metric[("f1", "cost-sensitive", "auto")]
    assert default["tau"] is None and default["max_iter"] == 100 and default["threshold"] == "refit"
    # the defaults, with C spelled out (the cost-sensitive objective's default value; None means it there)
    assert default == {**LinearFractionalClassifier(metric="f1").get_params(), "C": 1.0,
                       "random_state": default["random_state"]}
    assert by_metric[("jaccard", "cost-sensitive", 5)]["threshold"] == "refit"
    assert all(isinstance(p["random_state"], np.random.SeedSequence) for p, _ in seen)
    assert record["results"]["f1"]["Cost-sensitive+CV"]["threshold_cv"] == 5
    # heart: the smaller class of the 216 training rows has fewer than 20 x 13 samples, so "auto" takes 5 folds
    assert record["n_train"] == 216
    assert record["results"]["f1"]["Cost-sensitive"]["threshold_cv"] == 5


def test_the_remedies_options_are_part_of_the_fingerprint(monkeypatch):
    """Old records must not be reused once a remedy's options (or the estimator's defaults they spell out) change:
    the compare cells' settings carry the options, so the fingerprint moves with them; a table run without remedies
    keeps its fingerprint."""
    import lfverify.experiments._protocol as protocol
    from lfverify.experiments import BenchOptions
    from lfverify.experiments._benchmark import build_cells
    from lfverify.experiments._runner import fingerprint

    options = BenchOptions(datasets=("heart",), experiments=("compare", "table"), trials=1, data_root=SMALL_DATA_ROOT)
    before = {kind: fingerprint(cells[0].settings_dict) for kind, cells in build_cells(options).items()}
    changed = {**protocol.REMEDY_METHODS, "Cost-sensitive": {**protocol.REMEDY_METHODS["Cost-sensitive"], "C": 2.0}}
    monkeypatch.setattr(protocol, "REMEDY_METHODS", changed)
    after = {kind: fingerprint(cells[0].settings_dict) for kind, cells in build_cells(options).items()}
    assert after["compare"] != before["compare"] and after["table"] == before["table"]


def test_bench_compare_command_writes_the_comparison(tmp_path):
    from lfverify.app import main

    out = tmp_path / "cmp"
    code = main(["bench", "--out", str(out), "--datasets", "heart", "--experiments", "compare", "--trials", "2",
                 "--compare-methods", "U-BFGS,Cost-sensitive,Tuned-threshold,LogReg", "--max-iter", "5",
                 "--serial", "--no-figures", "--data-root", str(SMALL_DATA_ROOT)])
    assert code == 0
    text = (out / "paper_benchmark.md").read_text()
    assert "## Which estimator?" in text and "| heart (2) |" in text and "### Targets of the remedies" in text
    assert "| Cost-sensitive | f1 |" in text and "U-BFGS+refit" not in text  # only the chosen methods
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["compare"]["values"]["f1"]["heart"]) == {"U-BFGS", "Cost-sensitive", "Tuned-threshold",
                                                                "LogReg"}
    assert summary["compare"]["fit_time_ratio"]["f1"]["heart"]["LogReg"] == 1.0
    assert set(summary["compare"]["targets"]["jaccard"]) == {"Cost-sensitive"}
    assert "table" not in summary  # compare alone runs nothing else
    # LogReg is the time base: a compare run without it is refused before any work
    assert main(["bench", "--out", str(tmp_path / "x"), "--datasets", "heart", "--experiments", "compare",
                 "--compare-methods", "U-BFGS,Cost-sensitive", "--data-root", str(SMALL_DATA_ROOT)]) == 2
    assert not (tmp_path / "x").exists()


def test_compare_is_not_a_default_experiment():
    from lfverify.experiments import DEFAULT_EXPERIMENTS, EXPERIMENTS, BenchOptions

    assert "compare" in EXPERIMENTS and "compare" not in DEFAULT_EXPERIMENTS
    assert BenchOptions().experiments == DEFAULT_EXPERIMENTS
    assert comparison.PEER == "Tuned-threshold" and comparison.TIME_BASE == "LogReg"


def test_readme_table_is_the_generated_one():
    """docs/estimators.md (linked from README's "Which estimator should I use?") copies the table
    markdown_readme_table makes of the committed compare run; a re-run without copying it again fails here."""
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    summary = json.loads((repo / "benchmarks/results/paper/compare/summary.json").read_text())
    table = comparison.markdown_readme_table(summary["compare"]).splitlines()
    readme = (repo / "docs" / "estimators.md").read_text().splitlines()
    start = readme.index(table[0])
    assert readme[start:start + len(table)] == table and len(table) == 2 + 17
