"""Smoke test of benchmarks/bench_optimizer.py in --quick mode (adult subsampled to 4,000 training rows, one
repeat): it runs, writes complete and self-consistent JSON atomically, and its convergence count is right on
hand-made histories.  Timings are reported by the script, never asserted here."""

import json

import numpy as np
import pytest

from benchmark_scripts import load_benchmark_script
from lfverify.learn import dataset_root

pytestmark = pytest.mark.claims("package:benchmark-machinery")


def _load():
    return load_benchmark_script("bench_optimizer")


def _has_data():
    try:
        return (dataset_root() / "adult" / "a9a.txt").is_file()
    except FileNotFoundError:  # pragma: no cover - the staged data sit beside the repository in CI
        return False


@pytest.mark.parametrize("history, expected", [
    ([0.0, 0.5, 0.9995, 1.0], 2),          # within 1e-3 from iteration 2 on
    ([0.7, 0.7, 0.7], 0),                  # already at the final value
    ([0.0, 1.0, 0.5, 1.0], 3),             # reached at 1, left at 2: counts from 3, where it stays
    ([0.2, 0.2 + 1e-3, 0.2 + 2e-3], 1),    # the boundary |h - final| = 1e-3 is "within" (up to rounding)
])
def test_iterations_to_reach_by_hand(history, expected):
    assert _load().iterations_to_reach(history, tol=1e-3 + 1e-12) == expected


def test_iterations_to_reach_rejects_bad_histories():
    module = _load()
    for bad in ([], [0.1, np.nan], [[0.1, 0.2]]):
        with pytest.raises(ValueError, match="history must be a non-empty 1-D array of finite values"):
            module.iterations_to_reach(bad)


@pytest.mark.skipif(not _has_data(), reason="the staged adult data set is not present")
def test_quick_benchmark_writes_complete_consistent_results(tmp_path, capsys):
    out = tmp_path / "results" / "optimizer.json"
    assert _load().main(["--quick", "--out", str(out)]) == 0  # without --check the exit status is 0
    data = json.loads(out.read_text())
    assert data["quick"] is True and "GENERATED" in data["generated_by"]
    assert (data["data"]["dataset"], data["data"]["n_train"], data["data"]["n_features"]) == ("adult", 4000, 123)
    assert data["data"]["n_test"] == 48842 - round(0.8 * 48842)  # the 8:2 split of App. C.1
    assert data["machine"]["blas_threads_limit"] == 1
    assert set(data["verdicts"]) == {"ubfgs_within_2x_logreg", "ubfgs_5x_faster_than_werm"}
    for init in ("zeros", "erm"):
        run = data["ubfgs"][init]
        assert 0 < run["iterations"] <= 100 and run["seconds"] > 0
        assert 0 <= run["iterations_to_within_1e-3_surrogate"] <= run["iterations"]
        assert 0 <= run["iterations_to_within_1e-3_train_f1"] <= run["iterations"]
        assert 0 < run["test_f1"] <= 1 and 0 < run["final_train_f1"] <= 1
    assert data["werm_full"]["fits"] == 60 and data["werm_single_lambda"]["fits"] == 20
    paper_cost_grid = [0.001 + 0.0499 * i for i in range(1, 21)]  # App. C.2
    assert min(abs(data["werm_full"]["chosen_cost"] - c) for c in paper_cost_grid) < 1e-12
    # every ratio is the quotient of the two times it names, measured in this run
    t_zero, t_erm = data["ubfgs"]["zeros"]["seconds"], data["ubfgs"]["erm"]["seconds_including_erm_init"]
    assert t_erm == data["ubfgs"]["erm"]["seconds"] + data["ubfgs"]["erm"]["erm_init_seconds"]
    assert data["ratios"]["ubfgs_zeros_over_logreg"] == t_zero / data["logistic_regression"]["seconds"]
    assert data["ratios"]["werm_full_over_ubfgs_erm"] == data["werm_full"]["seconds"] / t_erm
    # the profile saw the fit: one evaluate per phase-2 iteration at least, and BFGS updates
    functions = data["profile_ubfgs_zeros"]["functions"]
    assert functions["empirical.evaluate"]["calls"] >= data["ubfgs"]["zeros"]["iterations"]
    assert functions["optimize.maximize_surrogate_utility"]["calls"] == 1
    assert 0 < functions["optimize._bfgs_update"]["calls"] <= data["ubfgs"]["zeros"]["iterations"]
    assert not list(out.parent.glob("*.tmp"))  # nothing half-written left behind
    printed = capsys.readouterr().out
    assert "U-BFGS / LogisticRegression" in printed and "results:" in printed


def test_negative_blas_threads_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        _load().main(["--blas-threads", "-1"])
    assert stop.value.code == 2
    assert "--blas-threads must be >= 0; got -1" in capsys.readouterr().err
