"""The committed cheap-remedy benchmark (benchmarks/out_of_bag_remedy.py, issue 42's cost goal: the random forest's
out-of-bag levels and gradient boosting's two folds) and what docs/estimators.md quotes from it.

Oracle: scipy.stats.ttest_ind (Welch, one-sided) recomputed from the committed records, independent of the
script's own ``one_sided_p_value``; the time ratios recomputed as medians of the records' per-trial ratios; the
docs' quoted summary lines must be lines of the committed table.
"""

import json
import statistics
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark_script, welch_verdict
from shared_files import needs_data

pytestmark = pytest.mark.claims("package:benchmark-machinery")

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
#: Per base learner: its committed tables and its cheap settings (as the script's BASES, typed out here so that a
#: renamed method or a lost table fails).
CHEAP = {"RF": ("out_of_bag_remedy", ("RF+remedy (oob)",)),
         "HGB": ("two_fold_remedy", ("HGB+remedy (2 folds)", "HGB+remedy (2 folds, 1 level)"))}


@pytest.fixture(scope="module", params=tuple(CHEAP))
def committed(request):
    base = request.param
    table = RESULTS / CHEAP[base][0]
    return base, json.loads(table.with_suffix(".json").read_text(encoding="utf-8"))




def _values(records, row, method, shift=0.0):
    return [r["test"][row["metric"]][method] + shift for r in records if r["dataset"] == row["dataset"]]


def test_each_cells_verdicts_and_cost_follow_from_its_records(committed):
    base, table = committed
    records = table["records"]
    assert table["settings"]["base"] == base
    assert len(table["rows"]) == 17 * len(table["settings"]["metrics"])
    for row in table["rows"]:
        mine = [r for r in records if r["dataset"] == row["dataset"]]
        assert len(mine) == row["trials"] == table["settings"]["trials"]
        assert sorted(row["verdicts"]) == sorted(CHEAP[base][1])
        for cheap in CHEAP[base][1]:
            values = _values(records, row, cheap)
            assert row["mean"][cheap] == pytest.approx(statistics.fmean(values), abs=1e-12)
            verdicts = row["verdicts"][cheap]
            assert verdicts["vs_tuned"] == welch_verdict(values, _values(records, row, f"{base}+tuned")), row["dataset"]
            assert verdicts["vs_folds"] == welch_verdict(values, _values(records, row, f"{base}+remedy (5 folds)"))
            ratio = statistics.median(r["seconds"][row["metric"]][cheap] / r["seconds"][row["metric"]][base]
                                      for r in mine)
            assert row["time_ratio"][cheap] == pytest.approx(ratio, rel=1e-12)


def test_a_shifted_cheap_remedy_would_be_called_below(committed):
    """Companion: the same records with the cheap setting's scores lowered by 0.05 give "below" in most cells."""
    base, table = committed
    records = table["records"]
    verdicts = [welch_verdict(_values(records, row, CHEAP[base][1][0], -0.05), _values(records, row, f"{base}+tuned"))
                for row in table["rows"][:20]]
    assert verdicts.count("below") >= 10


def test_the_docs_quote_the_committed_summary_lines():
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    for base, (name, cheap) in CHEAP.items():
        table = (RESULTS / name).with_suffix(".md").read_text(encoding="utf-8").splitlines()
        quoted = [line[2:] for line in docs if line.startswith("> ") and line[2:] in table]
        leads = (*(f"{m} against" for m in cheap), "Fit time over the plain")
        assert sum(any(line.startswith(lead) for lead in leads) for line in quoted) == len(cheap) + 1, base


@needs_data
@pytest.mark.slow  # 11 s of forest fits: CI's `-m slow` run (.ci/run)
@pytest.mark.parametrize("base", tuple(CHEAP))
def test_the_script_runs_end_to_end_and_refuses_bad_settings(tmp_path, monkeypatch, base):
    """Two trials on 120 training rows of one data set: both metrics' rows with a verdict per cheap setting, every
    method's score in [0, 1]; and one trial (no Welch test possible) is refused before any fit."""
    module = load_benchmark_script("out_of_bag_remedy")
    monkeypatch.setattr(module, "RESULTS", tmp_path)
    assert module.main(["--base", base, "--trials", "2", "--max-train", "120", "--datasets", "diabetes",
                        "--work", str(tmp_path / "work")]) == 0
    written = json.loads((tmp_path / CHEAP[base][0]).with_suffix(".json").read_text(encoding="utf-8"))
    assert [(r["dataset"], r["metric"]) for r in written["rows"]] == [("diabetes", "f1"), ("diabetes", "jaccard")]
    assert all(sorted(r["verdicts"]) == sorted(CHEAP[base][1]) for r in written["rows"])
    assert all(0.0 <= v <= 1.0 for r in written["records"] for m in r["test"].values() for v in m.values())
    with pytest.raises(SystemExit) as refused:
        module.main(["--trials", "1"])
    assert refused.value.code == 2
