"""The committed model-class comparison per regime cell (benchmarks/regime_model_class.py, issue 42's "Done when": the
model class that wins in each regime) and the script on a one-cell sweep.

Oracles: scipy.stats.ttest_ind (Welch, one-sided; ``benchmark_scripts.welch_verdict``) recomputed from the committed
records of both files (this script's linear fits, ensemble_regimes.py's tree fits), independent of the script's own
``one_sided_p_value``; the better tree rule by mean recomputed from the records; the plain HGB refit's scores against
the committed record's, which the script must refuse to compare with when they differ (a planted record).
"""

import json
import statistics
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark_script, welch_verdict

pytestmark = pytest.mark.claims("package:benchmark-machinery", "package:estimator")

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
TREES = ("HGB+tuned", "HGB+remedy (5 folds)")  # typed out
WINNER = {"above": "linear", "below": "tree ensemble", "tie": "no difference"}


@pytest.fixture(scope="module")
def committed():
    return (json.loads((RESULTS / "regime_model_class.json").read_text(encoding="utf-8")),
            json.loads((RESULTS / "ensemble_regimes.json").read_text(encoding="utf-8")))


def _linear(records, row, shift=0.0):
    return [r["test"][row["metric"]] + shift
            for r in sorted((r for r in records if r["dataset"] == row["cell"]), key=lambda r: r["trial"])]


def _trees(records, row):
    mine = sorted((r for r in records if r["dataset"] == row["cell"]), key=lambda r: r["trial"])
    return {m: [r["test"][row["metric"]][m] for r in mine] for m in TREES}


def _best(trees: dict) -> str:
    """The tree rule with the higher mean."""
    return max(TREES, key=lambda m: statistics.fmean(trees[m]))


def test_each_cells_winner_follows_from_both_files_records(committed):
    ours, theirs = committed
    assert ours["settings"]["splits"] >= 5 and not ours["settings"]["quick"]
    assert [(r["cell"], r["metric"]) for r in ours["rows"]] == [(r["cell"], r["metric"]) for r in theirs["rows"]]
    for row in ours["rows"]:
        linear, trees = _linear(ours["records"], row), _trees(theirs["records"], row)
        assert len(linear) == len(trees["HGB+tuned"]) == row["splits"] == ours["settings"]["splits"]
        best = _best(trees)
        assert row["best_tree"] == best
        assert row["mean"]["linear default"] == pytest.approx(statistics.fmean(linear), abs=1e-12)
        assert row["winner"] == WINNER[welch_verdict(linear, trees[best])], row["cell"]


def test_a_lowered_linear_default_would_lose_its_cells(committed):
    """Companion: the linear default's scores lowered by 0.5 (or clipped at 0) make the tree ensemble win most
    cells; the test above would then fail on every committed "linear" verdict."""
    ours, theirs = committed
    verdicts = []
    for row in ours["rows"]:
        lowered = [max(0.0, v - 0.5) for v in _linear(ours["records"], row)]
        trees = _trees(theirs["records"], row)
        verdicts.append(WINNER[welch_verdict(lowered, trees[_best(trees)])])
    assert verdicts.count("tree ensemble") >= len(verdicts) // 2


def _one_cell(tmp_path: Path) -> Path:
    """The committed sweep cut to its smallest cell (minority 20: 200 training rows) and its first two splits."""
    data = json.loads((RESULTS / "ensemble_regimes.json").read_text(encoding="utf-8"))
    cell = next(r["cell"] for r in data["rows"] if (r["axis"], r["value"]) == ("minority", 20))
    data["records"] = [r for r in data["records"] if r["dataset"] == cell and r["trial"] < 2]
    data["settings"]["axes"] = ["minority"]
    path = tmp_path / "ensemble_regimes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_script_compares_the_classes_on_the_committed_splits(tmp_path):
    """One cell, two splits: the plain HGB refit matches both committed records, and the results name a winner per
    metric from those two splits; the minority axis's other cells, absent from the records, are not rows."""
    module = load_benchmark_script("regime_model_class")
    records = _one_cell(tmp_path)
    assert module.main(["--records", str(records), "--out", str(tmp_path / "out" / "classes"), "--workers", "1",
                        "--work", str(tmp_path / "work")]) == 0
    written = json.loads((tmp_path / "out" / "classes.json").read_text(encoding="utf-8"))
    rows = written["rows"]
    assert [(r["value"], r["metric"], r["splits"]) for r in rows] == [(20, "f1", 2), (20, "jaccard", 2)]
    assert all(r["winner"] in WINNER.values() and 0.0 <= r["mean"]["linear default"] <= 1.0 for r in rows)
    assert (tmp_path / "out" / "classes.md").read_text(encoding="utf-8").startswith("# Which model class wins")


def test_a_record_made_on_other_data_stops_the_comparison(tmp_path):
    """Companion: the first split's committed plain-HGB F_1 planted 1e-9 higher: the refit no longer matches it, and
    the split is refused by name instead of being compared."""
    module = load_benchmark_script("regime_model_class")
    records = _one_cell(tmp_path)
    data = json.loads(records.read_text(encoding="utf-8"))
    first = data["records"][0]
    first["test"]["f1"]["HGB"] += 1e-9
    records.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RuntimeError, match="not the same data"):
        module.run_split(first["dataset"], 0, first["trial"], False, str(records))


def test_a_records_file_without_splits_is_refused_before_any_fit(tmp_path):
    module = load_benchmark_script("regime_model_class")
    records = _one_cell(tmp_path)
    data = json.loads(records.read_text(encoding="utf-8"))
    data["records"] = []
    records.write_text(json.dumps(data), encoding="utf-8")
    for path in (records, tmp_path / "missing.json"):
        with pytest.raises(SystemExit) as refused:
            module.main(["--records", str(path), "--out", str(tmp_path / "out"), "--work", str(tmp_path / "work")])
        assert refused.value.code == 2
    assert not (tmp_path / "out.json").exists()


def test_the_docs_quote_the_committed_summary_line():
    table = (RESULTS / "regime_model_class.md").read_text(encoding="utf-8").splitlines()
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] for line in docs if line.startswith("> The linear default against the better tree-ensemble")]
    assert len(quoted) == 1 and quoted[0] in table
