"""The committed out-of-bag benchmark (benchmarks/out_of_bag_remedy.py, issue 42's cost goal) and what
docs/estimators.md quotes from it.

Oracle: scipy.stats.ttest_ind (Welch, one-sided) recomputed from the committed records, independent of the
script's own ``one_sided_p_value``; the time ratios recomputed as medians of the records' per-trial ratios; the
docs' quoted summary lines must be lines of the committed table.
"""

import json
import statistics
import warnings
from pathlib import Path

import pytest
from scipy import stats

from benchmark_scripts import load_benchmark_script
from shared_files import needs_data

pytestmark = pytest.mark.claims("package:benchmark-machinery")

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "out_of_bag_remedy"
OOB, TUNED, FOLDS = "RF+remedy (oob)", "RF+tuned", "RF+remedy (5 folds)"


@pytest.fixture(scope="module")
def committed():
    return json.loads(RESULTS.with_suffix(".json").read_text(encoding="utf-8"))


def _p(a, b):
    """One-sided Welch p of mean(a) > mean(b); both samples constant: the sign of the difference decides."""
    if statistics.variance(a) + statistics.variance(b) == 0:
        return 0.0 if statistics.fmean(a) > statistics.fmean(b) else 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nearly identical samples: SciPy's precision note
        return stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue


def _verdict(ours, other, alpha=0.05):
    below, above = _p(other, ours), _p(ours, other)
    return "below" if below < alpha else "above" if above < alpha else "tie"


def _values(records, row, method, shift=0.0):
    return [r["test"][row["metric"]][method] + shift for r in records if r["dataset"] == row["dataset"]]


def test_each_cells_verdicts_and_cost_follow_from_its_records(committed):
    records = committed["records"]
    assert len(committed["rows"]) == 17 * len(committed["settings"]["metrics"])
    for row in committed["rows"]:
        mine = [r for r in records if r["dataset"] == row["dataset"]]
        assert len(mine) == row["trials"] == committed["settings"]["trials"]
        oob = _values(records, row, OOB)
        assert row["mean"][OOB] == pytest.approx(statistics.fmean(oob), abs=1e-12)
        assert row["vs_tuned"] == _verdict(oob, _values(records, row, TUNED)), row["dataset"]
        assert row["vs_folds"] == _verdict(oob, _values(records, row, FOLDS)), row["dataset"]
        ratio = statistics.median(r["seconds"][row["metric"]][OOB] / r["seconds"][row["metric"]]["RF"] for r in mine)
        assert row["time_ratio"][OOB] == pytest.approx(ratio, rel=1e-12)


def test_a_shifted_out_of_bag_remedy_would_be_called_below(committed):
    """Companion: the same records with the out-of-bag remedy's scores lowered by 0.05 give "below" in most
    cells."""
    records = committed["records"]
    verdicts = [_verdict(_values(records, row, OOB, -0.05), _values(records, row, TUNED))
                for row in committed["rows"][:20]]
    assert verdicts.count("below") >= 10


def test_the_docs_quote_the_committed_summary_lines():
    table = RESULTS.with_suffix(".md").read_text(encoding="utf-8").splitlines()
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] for line in docs if line.startswith("> Out-of-bag remedy")
              or line.startswith("> Fit time over the plain forest's")]
    assert len(quoted) == 2
    assert all(line in table for line in quoted)


@needs_data
@pytest.mark.slow  # 11 s of forest fits: CI's `-m slow` run (.ci/run)
def test_the_script_runs_end_to_end_and_refuses_bad_settings(tmp_path, monkeypatch):
    """Two trials on 120 training rows of one data set: both metrics' rows, every method's score in [0, 1]; and one
    trial (no Welch test possible) is refused before any fit."""
    module = load_benchmark_script("out_of_bag_remedy")
    monkeypatch.setattr(module, "OUT", tmp_path / "oob")
    assert module.main(["--trials", "2", "--max-train", "120", "--datasets", "diabetes"]) == 0
    written = json.loads((tmp_path / "oob.json").read_text(encoding="utf-8"))
    assert [(r["dataset"], r["metric"]) for r in written["rows"]] == [("diabetes", "f1"), ("diabetes", "jaccard")]
    assert all(0.0 <= v <= 1.0 for r in written["records"] for m in r["test"].values() for v in m.values())
    with pytest.raises(SystemExit) as refused:
        module.main(["--trials", "1"])
    assert refused.value.code == 2
