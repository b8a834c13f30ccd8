"""Smoke test of benchmarks/bench_estimators.py in --quick mode: it runs, writes complete JSON atomically, and
its fast and literal Eq. (7) computations agree.  Timings are reported by the script, never asserted here."""

import json

import pytest

from benchmark_scripts import load_benchmark_script

pytestmark = pytest.mark.claims("package:benchmark-machinery")  # a timing script's run, not Lemma 3


def _load():
    return load_benchmark_script("bench_estimators")


def test_quick_benchmark_writes_complete_results(tmp_path, capsys):
    out = tmp_path / "results" / "estimators.json"
    assert _load().main(["--quick", "--out", str(out)]) == 0  # without --check the exit status is 0
    data = json.loads(out.read_text())
    assert data["quick"] is True and "GENERATED" in data["generated_by"]
    assert set(data["verdicts"]) == {"blas_ratio", "double_sum_speedup", "batch_speedup"}
    assert data["double_sum"]["relative_difference"] < 1e-12  # oracle: the literal double sum of Eq. (7)
    assert data["batch"]["K"] == 64 and data["blas"]["n"] == 100_000 and data["batch"]["n"] == 20_000
    assert not list(out.parent.glob("*.tmp"))  # nothing half-written left behind
    printed = capsys.readouterr().out
    assert "double sum / factorised V_hat" in printed and "results:" in printed
