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


def test_out_names_where_the_tables_go_and_the_committed_ones_stay_as_they_are(committed, tmp_path, monkeypatch):
    """Oracle: the committed records of two data sets' first two trials, given back as the run's records (no fit, no
    data read):
    the tables go to --out, each cell's verdict is the Welch test of those records, and the committed files keep
    their bytes."""
    from benchmark_scripts import load_benchmark_script

    module = load_benchmark_script("nonlinear_peers")
    names = sorted({r["dataset"] for r in committed["records"]})[:2]
    chosen = [r for r in committed["records"] if r["dataset"] in names and r["trial"] < 2]
    monkeypatch.setattr(module, "run_resumable", lambda *args, **kwargs: chosen)
    # the data sets are not read (no fit), so the run needs none staged (README's command without ../shared)
    monkeypatch.setattr(module, "available_datasets", lambda: sorted({r["dataset"] for r in committed["records"]}))
    before = {suffix: RESULTS.with_suffix(suffix).read_bytes() for suffix in (".json", ".md")}
    out = tmp_path / "trial" / "peers"
    assert module.main(["--datasets", *names, "--trials", "2", "--metrics", "f1", "jaccard", "--out", str(out)]) == 0
    written = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert len(written["rows"]) == 2 * 2 * 2 and out.with_suffix(".md").exists()
    for row in written["rows"]:
        mine = [r for r in chosen if r["dataset"] == row["dataset"]]
        assert row["verdict"] == welch_verdict([r["test"][row["metric"]][row["base"] + "+remedy"] for r in mine],
                                               [r["test"][row["metric"]][row["base"] + "+tuned"] for r in mine])
    assert {suffix: RESULTS.with_suffix(suffix).read_bytes() for suffix in (".json", ".md")} == before


def test_the_docs_quote_the_committed_summary_lines():
    table = RESULTS.with_suffix(".md").read_text(encoding="utf-8").splitlines()
    docs = (ROOT / "docs" / "estimators.md").read_text(encoding="utf-8").splitlines()
    quoted = [line[2:] for line in docs if line.startswith("> ") and ("MetricOptimalClassifier(B)" in line
                                                                       or line.startswith("> Model class")
                                                                       or (line.startswith("> Fit time over the plain ")
                                                                           and "fit, median over its cells" in line))]
    assert len(quoted) == 4
    assert all(line in table for line in quoted)
