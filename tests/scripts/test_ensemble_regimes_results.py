"""The committed regime sweep around gradient boosting (benchmarks/ensemble_regimes.py, issue 42 item 3) and what
docs/estimators.md quotes from it.

Oracle: scipy.stats.ttest_ind (Welch, one-sided; ``benchmark_scripts.welch_verdict``) recomputed from the committed
records, independent of the script's own ``one_sided_p_value``; the time ratios recomputed as medians of the
records' per-split ratios; the docs' quoted summary lines must be lines of the committed table.
"""

import json
import statistics
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark_script, welch_verdict

pytestmark = pytest.mark.claims("package:benchmark-machinery")

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "ensemble_regimes"
REMEDIES = ("HGB+remedy (5 folds)", "HGB+remedy (2 folds)", "HGB+remedy (5 folds, 1 level)")  # typed out


@pytest.fixture(scope="module")
def committed():
    return json.loads(RESULTS.with_suffix(".json").read_text(encoding="utf-8"))


def _values(records, row, method, shift=0.0):
    return [r["test"][row["metric"]][method] + shift for r in records if r["dataset"] == row["cell"]]


def test_each_cells_verdicts_and_cost_follow_from_its_records(committed):
    records, settings = committed["records"], committed["settings"]
    assert not settings["quick"] and settings["splits"] >= 5
    assert {r["axis"] for r in committed["rows"]} == {"prior", "flip", "features", "minority"}
    for row in committed["rows"]:
        mine = [r for r in records if r["dataset"] == row["cell"]]
        assert len(mine) == row["splits"] == settings["splits"]
        for remedy in REMEDIES:
            values = _values(records, row, remedy)
            assert row["mean"][remedy] == pytest.approx(statistics.fmean(values), abs=1e-12)
            assert row["vs_tuned"][remedy] == welch_verdict(values, _values(records, row, "HGB+tuned")), row["cell"]
            ratio = statistics.median(r["seconds"][row["metric"]][remedy] / r["seconds"][row["metric"]]["HGB"]
                                      for r in mine)
            assert row["time_ratio"][remedy] == pytest.approx(ratio, rel=1e-12)


def test_a_shifted_remedy_would_be_called_below(committed):
    """Companion: the same records with the remedy's scores lowered by 0.05 give "below" in most cells."""
    records = committed["records"]
    verdicts = [welch_verdict(_values(records, row, REMEDIES[0], -0.05), _values(records, row, "HGB+tuned"))
                for row in committed["rows"]]
    assert verdicts.count("below") >= len(verdicts) // 2


def test_the_docs_quote_the_committed_summary_lines():
    table = RESULTS.with_suffix(".md").read_text(encoding="utf-8").splitlines()
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] for line in docs if line.startswith("> ") and line[2:] in table]
    leads = (*(f"{m} against" for m in REMEDIES), "Fit time over the plain HGB fit")
    assert sorted(next(lead for lead in leads if line.startswith(lead)) for line in quoted
                  if any(line.startswith(lead) for lead in leads)) == sorted(leads)


@pytest.mark.slow  # gradient boosting's fits on the small plan's minority cells: CI's `-m slow` run (.ci/run)
def test_the_script_runs_end_to_end_and_refuses_bad_settings(tmp_path, monkeypatch):
    """The small plan's minority axis, 2 splits: both metrics' rows per cell with a verdict per remedy, every score
    in [0, 1]; and one split (no Welch test possible) is refused before any fit."""
    module = load_benchmark_script("ensemble_regimes")
    monkeypatch.setattr(module, "OUT", tmp_path / "regimes")
    assert module.main(["--quick", "--axes", "minority", "--workers", "1", "--work", str(tmp_path / "work")]) == 0
    written = json.loads((tmp_path / "regimes.json").read_text(encoding="utf-8"))
    assert [(r["value"], r["metric"]) for r in written["rows"]] == [(10, "f1"), (10, "jaccard"), (100, "f1"),
                                                                     (100, "jaccard")]
    assert all(sorted(r["vs_tuned"]) == sorted(REMEDIES) for r in written["rows"])
    assert all(0.0 <= v <= 1.0 for r in written["records"] for m in r["test"].values() for v in m.values())
    with pytest.raises(SystemExit) as refused:
        module.main(["--splits", "1"])
    assert refused.value.code == 2
