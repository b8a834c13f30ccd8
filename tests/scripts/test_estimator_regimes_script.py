"""Smoke test of benchmarks/estimator_regimes.py in --quick mode (tiny cells, 3 splits): it runs, writes complete,
self-consistent JSON, the table and the figure atomically, and --resume skips the finished cells.  Timings and
the comparisons' outcomes are reported by the script, never asserted here; the decision rule is checked on
planted numbers instead.

Oracles: scipy.stats.ttest_ind (Welch) for the p-value and the interval; scikit-learn's metric functions for the
count-based scorer; hand-made arrays where ours is clearly lower (must be flagged "below") or equal (must not)."""

import json

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import f1_score, fbeta_score, jaccard_score

from benchmark_scripts import load_benchmark_script

pytestmark = pytest.mark.claims("package:benchmark-machinery", "package:estimator")


@pytest.fixture(scope="module")
def script():
    return load_benchmark_script("estimator_regimes")


QUICK_AXES = ("features", "n", "d")


@pytest.fixture(scope="module")
def quick_run(script, tmp_path_factory):
    out = tmp_path_factory.mktemp("regimes") / "results" / "estimator_regimes.json"
    # three axes (the feature families with sparse CSR, and n and d for the slopes): every code path of a cell and
    # of the summary in two thirds of the time of all six (the default run stays short); the other axes differ
    # only in the cells they list
    assert script.main(["--quick", "--axes", ",".join(QUICK_AXES), "--json", str(out)]) == 0
    return out


def test_quick_run_writes_complete_consistent_results(script, quick_run):
    data = json.loads(quick_run.read_text())
    assert "GENERATED" in data["generated_by"] and data["settings"]["quick"] is True
    assert data["settings"]["splits"] == 3 and data["axes"] == list(QUICK_AXES)
    expected = {script.cell_key(c) for a in QUICK_AXES for c in script.axis_cells(script.QUICK, a)}
    assert set(data["cells"]) == expected
    methods = {"logreg", "logreg_balanced", "ours", "tuned"}
    for key, cell in data["cells"].items():
        assert len(cell["splits"]) == 3 and cell["seed_key"] == list(script.text_key(key))
        assert [s["split"] for s in cell["splits"]] == [0, 1, 2]
        assert len({s["random_state"] for s in cell["splits"]}) == 3
        assert cell["peak_bytes"]["ratio"] == cell["peak_bytes"]["ours:f1"] / cell["peak_bytes"]["logreg"]
        for s in cell["splits"]:
            assert s["errors"] == {} and set(s["scores"]) == methods
            assert s["positives_train"] == max(round(cell["cell"]["prior"] * cell["cell"]["n"]), script.MIN_CLASS)
            assert s["positives_test"] == round(cell["cell"]["prior"] * s["n_test"])
            for _name, scores in s["scores"].items():
                assert set(scores) == set(script.METRICS)
                assert all(0.0 <= v <= 1.0 for v in scores.values())
            assert set(s["seconds"]) == {"logreg", "logreg_balanced"} | {f"{m}:{k}" for m in ("ours", "tuned")
                                                                           for k in script.METRICS}
    summary = data["summary"]
    assert set(summary["below"]) == set(script.METRICS)
    assert set(summary["slopes"]) == {"n", "d"} and all(summary["slopes"].values())
    # the table: one row per (axis, cell, metric), the figure a PNG
    md = quick_run.with_suffix(".md").read_text()
    rows = [line for line in md.splitlines() if line.startswith("| ") and not line.startswith("| axis")]
    assert len(rows) == sum(len(script.axis_cells(script.QUICK, a)) for a in QUICK_AXES) * len(script.METRICS)
    assert "## Summary" in md and "log-log slope" in md
    assert quick_run.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(quick_run.parent.glob(".*.tmp"))  # atomic writes leave no temporary file


def test_the_minority_axis_draws_exactly_m_positives_at_its_d_and_prior(script):
    """Oracle: the docstring's minority axis - m = 20, 30, 50, 100, 200 at d = 10, prior 0.1 (n = m / prior) - and a
    training sample of its first quick cell has exactly m positives (round(prior n))."""
    cells = script.axis_cells(script.FULL, "minority")
    assert [(c["value"], c["n"], c["d"], c["prior"]) for c in cells] == [
        (m, 10 * m, 10, 0.1) for m in (20, 30, 50, 100, 200)]
    cell = script.axis_cells(script.QUICK, "minority")[0]
    seq = script.child(script.as_seed_sequence(script.SEED), *script.text_key(script.cell_key(cell)))
    X, y = script.Problem(cell, script.QUICK, script.child(seq, 0)).sample(script.child(seq, 1, 0, 0), cell["n"],
                                                                           training=True)
    assert X.shape == (cell["n"], cell["d"]) and y.sum() == cell["value"] == 10


def test_same_seeds_give_the_same_samples(script):
    """The generator is a function of the cell's SeedSequence: the same key gives the same data."""
    cell = script.axis_cells(script.QUICK, "features")[3]  # sparse_csr
    seq = script.child(script.as_seed_sequence(script.SEED), *script.text_key(script.cell_key(cell)))
    a = script.Problem(cell, script.QUICK, script.child(seq, 0))
    b = script.Problem(cell, script.QUICK, script.child(seq, 0))
    (Xa, ya), (Xb, yb) = (p.sample(script.child(seq, 1, 0, 0), 300, training=True) for p in (a, b))
    assert (Xa != Xb).nnz == 0 and np.array_equal(ya, yb) and Xa.format == "csr"
    assert ya.sum() == 30 and abs(Xa.nnz / Xa.shape[0] / Xa.shape[1] - 0.01) < 0.005


def test_resume_keeps_finished_cells_and_refuses_other_settings(script, quick_run, capsys):
    before = json.loads(quick_run.read_text())["cells"]
    assert script.main(["--quick", "--resume", "--axes", "features", "--json", str(quick_run)]) == 0
    assert json.loads(quick_run.read_text())["cells"] == before
    assert script.main(["--quick", "--resume", "--splits", "4", "--json", str(quick_run)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("estimator_regimes: error: ") and "other settings" in err[-1]
    assert script.main(["--quick", "--axes", "prior,bogus", "--json", str(quick_run)]) == 1
    assert "unknown axes ['bogus']" in capsys.readouterr().err


def test_a_planted_lower_ours_is_flagged_below(script):
    rng = np.random.default_rng(0)
    peer = 0.60 + 0.01 * rng.standard_normal(10)
    ours = 0.50 + 0.01 * rng.standard_normal(10)
    weak = 0.40 + 0.01 * rng.standard_normal(10)
    r = script.compare(ours, {"logreg": weak, "tuned": peer})
    assert r["best_peer"] == "tuned" and r["below"] is True
    welch = stats.ttest_ind(peer, ours, equal_var=False, alternative="greater")
    assert r["p_value"] == pytest.approx(welch.pvalue, rel=1e-12)
    ci = stats.ttest_ind(ours, peer, equal_var=False).confidence_interval(0.95)
    assert r["ci"] == pytest.approx([ci.low, ci.high]) and r["ci"][1] < 0
    assert r["difference"] == pytest.approx(ours.mean() - peer.mean())
    # ours equal to (or above) the best peer is never below; constant samples give no NaN
    assert script.compare(peer, {"tuned": peer})["below"] is False
    assert script.compare(ours + 0.2, {"tuned": peer})["below"] is False
    flat = script.compare([0.5] * 3, {"tuned": [0.75] * 3})  # exactly representable: zero variance
    assert flat["below"] is True and flat["ci"] == [-0.25, -0.25] and flat["p_value"] == 0.0


def test_count_scorer_equals_scikit_learn(script):
    rng = np.random.default_rng(1)
    for _ in range(20):
        y, p = rng.random(50) < 0.2, rng.random(50) < rng.random()
        y, p = y.astype(int), p.astype(int)
        assert script.count_metric(y, p, metric="f1") == pytest.approx(f1_score(y, p, zero_division=0))
        assert script.count_metric(y, p, metric="jaccard") == pytest.approx(jaccard_score(y, p, zero_division=0))
        for beta in (0.5, 2):
            assert script.count_metric(y, p, metric=f"f{beta}") == pytest.approx(
                fbeta_score(y, p, beta=beta, zero_division=0))
    assert script.count_metric([0, 0], [0, 0], metric="f1") == 0.0  # undefined: 0, as zero_division=0
