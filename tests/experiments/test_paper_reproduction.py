"""lfverify.experiments._reproduction: our cells beside the printed Tables 4-5 and the diagnosis of each
disagreement; and benchmarks/paper_reproduction.py, whose committed output must match the committed runs.

Oracles: hand-made trial values with an exactly known mean and standard error (two trials m - s, m + s have
mean m and standard error s), placed on either side of the printed cells (paper_values, itself checked against
the .tex in test_paper_benchmark.py); a planted change of one number must change the diagnosis.

Private: lfverify.experiments._reproduction's diagnose and load_table_values, the comparison's parts, and
lfverify.experiments._benchmark, imported to patch which data sets it finds.
"""

import json
import math

import pytest

from benchmark_scripts import load_benchmark_script
from lfverify.experiments import compare_with_paper, markdown_reproduction
from lfverify.experiments._reproduction import diagnose, load_table_values
from lfverify.paper import printed_result

pytestmark = pytest.mark.claims("Table 4", "Table 5", "package:benchmark-machinery")


def trials(mean, standard_error):
    """Two trial values with exactly this mean and standard error (sample sd = s sqrt(2), n = 2)."""
    return [mean - standard_error, mean + standard_error]


def test_trials_helper_has_the_stated_mean_and_standard_error():
    values = trials(0.7, 0.005)
    assert sum(values) / 2 == pytest.approx(0.7, rel=1e-15, abs=0)
    assert math.sqrt(sum((v - 0.7) ** 2 for v in values)) / math.sqrt(2) == pytest.approx(0.005, rel=1e-12, abs=0)


def test_each_diagnosis_and_a_planted_change_that_moves_it():
    # heart / F1 printed: U-BFGS 0.802 (99), ERM 0.792 (80)
    cell = {"U-BFGS": trials(0.80, 0.01), "ERM": trials(0.80, 0.01)}
    assert diagnose("f1", "heart", "U-BFGS", cell) == ""  # inside the band
    cell = {"U-BFGS": trials(0.70, 0.005), "ERM": trials(0.80, 0.005)}  # z = -9 against the paper, -14 vs start
    assert diagnose("f1", "heart", "U-BFGS", cell).startswith("left its start: ours 0.700 is below our ERM start "
                                                             "0.800")
    cell["ERM"] = trials(0.70, 0.005)  # the start itself is 9.7 combined s.e. below the paper's ERM
    assert diagnose("f1", "heart", "U-BFGS", cell).startswith("start differs: our ERM 0.700 against the paper's "
                                                             "0.792, below")
    cell["ERM"] = trials(0.79, 0.05)  # the start agrees with the paper's and ours is not significantly below it
    assert diagnose("f1", "heart", "U-BFGS", cell) == "unexplained"
    training = {"U-GD": {"surrogate": [0.1, 0.2, 0.15], "metric": [0.85, 0.80, 0.82]},
                "U-BFGS": {"surrogate": [0.4, 0.5, 0.42], "metric": [0.70, 0.74, 0.75]}}
    assert diagnose("f1", "heart", "U-BFGS", cell, training) == ("U_hat over the metric: on the training set "
                                                                 "U-BFGS's U_hat is +0.290 and its f1 -0.093 "
                                                                 "against U-GD's")
    assert diagnose("f1", "heart", "U-GD", {**cell, "U-GD": cell["U-BFGS"]}, training) == "unexplained"  # U-BFGS only
    training["U-BFGS"]["metric"] = [0.86, 0.79, 0.83]  # the training metric no longer lower
    assert diagnose("f1", "heart", "U-BFGS", cell, training) == "unexplained"
    # w8a / F1 printed: U-GD 0.297 (80) below the paper's own ERM 0.735 (35)
    cell = {"U-GD": trials(0.73, 0.003), "ERM": trials(0.73, 0.003)}
    assert diagnose("f1", "w8a", "U-GD", cell).startswith("paper below its ERM: the printed 0.297 is below the "
                                                         "paper's own ERM start 0.735")
    cell["U-GD"] = trials(0.20, 0.003)  # now below the printed value: not the paper's fault
    assert not diagnose("f1", "w8a", "U-GD", cell).startswith("paper below its ERM")
    # skin_nonskin / F1 printed: U-BFGS 0.856 (4), ERM 0.854 (7); 0.853 is 6 combined s.e. off yet < 0.005
    cell = {"U-BFGS": trials(0.853, 0.0003), "ERM": trials(0.853, 0.0003)}
    assert diagnose("f1", "skin_nonskin", "U-BFGS", cell).startswith("tiny standard errors: a difference of "
                                                                     "-0.0030")
    cell = {"U-BFGS": trials(0.846, 0.0003), "ERM": trials(0.85, 0.005)}  # 0.010 off: no longer small
    assert diagnose("f1", "skin_nonskin", "U-BFGS", cell) == "unexplained"
    assert diagnose("f1", "heart", "U-BFGS", {"U-BFGS": trials(0.5, 0.01)}) == ("unexplained (no ERM trials in "
                                                                               "the run)")


def test_compare_with_paper_rows_and_markdown_counts():
    values = {"f1": {"heart": {"U-BFGS": trials(0.70, 0.005), "ERM": trials(0.80, 0.005),
                               "Tuned-threshold": trials(0.9, 0.01)},
                     "w8a": {"U-GD": trials(0.73, 0.003), "ERM": trials(0.735, 0.003)},
                     "not-in-paper": {"U-GD": trials(0.5, 0.1)}}}
    rows = compare_with_paper(values)
    assert [(r.dataset, r.method, r.within) for r in rows] == [("heart", "U-BFGS", False), ("heart", "ERM", True),
                                                              ("w8a", "U-GD", False), ("w8a", "ERM", True)]
    heart = rows[0]
    printed = printed_result("f1", "heart", "U-BFGS")
    assert heart.z == pytest.approx((0.70 - printed.mean) / math.hypot(0.005, printed.standard_error), rel=1e-12,
                                    abs=0)
    assert rows[1].diagnosis == ""  # ERM cells are compared, not diagnosed
    text = markdown_reproduction(rows, groups={"heart": ["heart"], "w8a": ["w8a"]})
    assert "| data sets | U-GD | U-BFGS | ERM |" in text
    assert "| heart | 0 / 0 | 0 / 1 | 1 / 1 |" in text and "| w8a | 0 / 1 | 0 / 0 | 1 / 1 |" in text
    assert "U-GD / U-BFGS cells outside the band (2 of 2):" in text
    assert "| f1 | heart | U-BFGS | 0.700 (50) | 0.802 (99) | -9.2 | left its start:" in text
    assert "over all" not in text  # no training values given: no training section
    training = {"f1": {"heart": {"U-GD": {"surrogate": [0.1, 0.2, 0.15], "metric": [0.85, 0.80, 0.82]},
                                 "U-BFGS": {"surrogate": [0.4, 0.5, 0.42], "metric": [0.70, 0.74, 0.75]}}}}
    text = markdown_reproduction(rows, groups={"heart": ["heart"]}, training=training)
    # means: U_hat 0.44 - 0.15 = +0.290, train f1 0.73 - 0.82333 = -0.093 (both paired-significant at 5 %)
    assert "| left its start: ours 0.700 is below our ERM start 0.800 (the paper's U-BFGS 0.802, its ERM 0.792) | " \
           "U_hat +0.290, train f1 -0.093 |" in text
    assert ("over all 1 (metric, data set) pairs: U_hat significantly higher on 1, the training metric significantly "
            "lower on 1, both on 1") in text
    training["f1"]["heart"]["U-BFGS"]["metric"] = [0.86, 0.79, 0.83]  # no longer lower
    text = markdown_reproduction(rows, groups={"heart": ["heart"]}, training=training)
    assert "train f1 +0.003 (n.s.) |" in text and "significantly lower on 0, both on 0" in text


def _write_summary(folder, table):
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps({"table": table}))


def test_load_table_values_merges_folders_and_refuses_a_data_set_twice(tmp_path):
    _write_summary(tmp_path / "a", {"f1": {"heart": {"ERM": [0.1, 0.2]}}})
    _write_summary(tmp_path / "b", {"f1": {"sonar": {"ERM": [0.3]}}, "jaccard": {"sonar": {"ERM": [0.4]}}})
    values, training, source = load_table_values([tmp_path / "a", tmp_path / "b"])
    assert values == {"f1": {"heart": {"ERM": [0.1, 0.2]}, "sonar": {"ERM": [0.3]}},
                      "jaccard": {"sonar": {"ERM": [0.4]}}}
    assert source == {"heart": tmp_path / "a", "sonar": tmp_path / "b"} and training == {}
    _write_summary(tmp_path / "c", {"f1": {"heart": {"ERM": [0.5]}}})
    with pytest.raises(ValueError, match="data set 'heart' is in two folders"):
        load_table_values([tmp_path / "a", tmp_path / "c"])
    with pytest.raises(ValueError, match="must be lfverify bench output folders with a summary.json; got"):
        load_table_values([tmp_path / "missing"])


def test_committed_reproduction_report_matches_the_committed_runs(tmp_path):
    """benchmarks/results/paper/REPRODUCTION.md is generated; regenerating it from the committed summary.json
    files must give the same text (a run re-recorded without regenerating the report fails here)."""
    script = load_benchmark_script("paper_reproduction")
    out = tmp_path / "REPRODUCTION.md"
    assert script.main(["--out", str(out)]) == 0
    assert out.read_text() == script.OUTPUT.read_text()


def test_findings_counts_table_is_the_generated_one():
    """FINDINGS.md copies REPRODUCTION.md's counts table; a regenerated report must be copied again."""
    report = load_benchmark_script("paper_reproduction").OUTPUT.read_text().splitlines()
    start = report.index("| data sets | U-GD | U-BFGS | ERM | W-ERM | Plug-in |")
    table = report[start:report.index("", start)]
    readme = (load_benchmark_script("paper_reproduction").OUTPUT.parents[3] / "FINDINGS.md").read_text()
    readme_lines = {line.strip() for line in readme.splitlines()}
    assert len(table) == 2 + 5 and [row for row in table if row not in readme_lines] == []


def test_validate_options_fills_in_every_available_data_set(monkeypatch):
    """datasets=None means every available data set, and a given list comes back as a tuple.  Oracle: a stubbed
    available_datasets returning ['a', 'b'].  Kills: paper_benchmark.command.x_validate_options__mutmut_158"""
    import lfverify.experiments._benchmark as datasets  # validate_options reads available_datasets here
    from lfverify.experiments import BenchOptions, validate_options

    monkeypatch.setattr(datasets, "available_datasets", lambda root=None: ["a", "b"])
    monkeypatch.setattr(datasets, "fetchable_datasets", lambda root=None: [])  # an offline copy, whatever the env
    assert validate_options(BenchOptions()).datasets == ("a", "b")
    assert validate_options(BenchOptions(datasets=["b"])).datasets == ("b",)
