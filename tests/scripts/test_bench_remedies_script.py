"""Smoke test of benchmarks/bench_remedies.py in --quick mode (adult and w8a cut to 4,000 training rows, one
repeat): it runs and writes complete, self-consistent JSON atomically.  Timings are reported by the script, never
asserted here; the ratios are checked to be the quotients of the times they are made of."""

import json

import pytest

from benchmark_scripts import load_benchmark_script
from lfverify.learn import dataset_root

pytestmark = pytest.mark.claims("package:benchmark-machinery", "package:estimator")


def _has_data():
    try:
        root = dataset_root()
    except FileNotFoundError:  # pragma: no cover - the staged data sit beside the repository in CI
        return False
    return (root / "adult" / "a9a.txt").is_file() and (root / "w8a" / "w8a").is_file()


@pytest.mark.skipif(not _has_data(), reason="the staged adult and w8a data sets are not present")
def test_quick_benchmark_writes_complete_consistent_results(tmp_path):
    out = tmp_path / "results" / "remedies.json"
    assert load_benchmark_script("bench_remedies").main(["--quick", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["quick"] is True and "GENERATED" in data["generated_by"] and data["repeats"] == 1
    assert set(data["verdicts"]) == {"default_within_3x_logreg_on_adult", "cv5_not_slower_than_tuned"}
    for name, d in (("adult", 123), ("w8a", 300)):
        r = data["datasets"][name]
        assert (r["n_train"], r["n_features"]) == (4000, d) and 0 < r["density"] < 0.2
        s, q = r["seconds"], r["ratios"]
        assert q["default_over_logreg"] == s["default"] / s["logreg"]
        assert q["cv5_over_tuned"] == s["cv5"] / s["tuned"]
        assert q["evaluate_csr_over_dense"] == r["core_seconds"]["evaluate_csr"] / r["core_seconds"]["evaluate_dense"]
        assert all(0.0 <= v <= 1.0 for v in r["test_f1"].values())
        assert set(r["test_f1"]) == {"logreg", "tuned", "default", "default_csr", "cv5", "ubfgs_refit", "paper"}
        # the same fit on CSR and dense input predicts the same test set alike
        assert r["test_f1"]["default_csr"] == r["test_f1"]["default"]
    verdict = data["datasets"]["adult"]["ratios"]["default_over_logreg"] <= 3.0
    assert data["verdicts"]["default_within_3x_logreg_on_adult"] == verdict
