"""The committed nonlinear-peers benchmark (benchmarks/nonlinear_peers.py, issue 42) and what docs/estimators.md
quotes from it.

Oracle: scipy.stats.ttest_ind (Welch, one-sided) recomputed from the committed records, independent of the
script's own ``one_sided_p_value``; the docs' quoted summary lines must be lines of the committed table.
"""

import json
import statistics
from pathlib import Path

import pytest

from benchmark_scripts import welch_verdict

pytestmark = pytest.mark.claims("package:benchmark-machinery")

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "nonlinear_peers"


@pytest.fixture(scope="module")
def committed():
    return json.loads(RESULTS.with_suffix(".json").read_text(encoding="utf-8"))




def test_each_cells_verdict_is_the_welch_test_of_its_records(committed):
    records = committed["records"]
    assert len(committed["rows"]) == 17 * 2 * 2
    for row in committed["rows"]:
        mine = [r for r in records if r["dataset"] == row["dataset"]]
        assert len(mine) == row["trials"] == committed["settings"]["trials"]
        remedy = [r["test"][row["metric"]][row["base"] + "+remedy"] for r in mine]
        tuned = [r["test"][row["metric"]][row["base"] + "+tuned"] for r in mine]
        assert row["mean"][row["base"] + "+remedy"] == pytest.approx(statistics.fmean(remedy), abs=1e-12)
        assert row["verdict"] == welch_verdict(remedy, tuned), (row["dataset"], row["metric"], row["base"])


def test_a_shifted_remedy_would_be_called_below(committed):
    """Companion: the same records with the remedy's scores lowered by 0.05 give "below" in most cells."""
    records = committed["records"]
    verdicts = []
    for row in committed["rows"][:20]:
        mine = [r for r in records if r["dataset"] == row["dataset"]]
        remedy = [r["test"][row["metric"]][row["base"] + "+remedy"] - 0.05 for r in mine]
        tuned = [r["test"][row["metric"]][row["base"] + "+tuned"] for r in mine]
        verdicts.append(welch_verdict(remedy, tuned))
    assert verdicts.count("below") >= 10


def test_the_docs_quote_the_committed_summary_lines():
    table = RESULTS.with_suffix(".md").read_text(encoding="utf-8").splitlines()
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] for line in docs if line.startswith("> ") and ("MetricOptimalClassifier(B)" in line
                                                                       or line.startswith("> Model class")
                                                                       or (line.startswith("> Fit time over the plain ")
                                                                           and "fit, median over its cells" in line))]
    assert len(quoted) == 4
    assert all(line in table for line in quoted)
