"""Smoke test of benchmarks/bench_simulations.py in --quick mode: it runs, writes complete JSON atomically, and its
pair count matches the study's configuration.  Timings are reported by the script, never asserted here."""

import json

import pytest

from benchmark_scripts import load_benchmark_script

pytestmark = pytest.mark.claims("package:benchmark-machinery", "package:simulation-engine")


def _load():
    return load_benchmark_script("bench_simulations")


def test_quick_benchmark_writes_complete_results(tmp_path, capsys):
    bench = _load()
    out = tmp_path / "results" / "simulations.json"
    assert bench.main(["--quick", "--out", str(out)]) == 0  # without --check the exit status is 0
    data = json.loads(out.read_text())
    assert data["quick"] is True and "GENERATED" in data["generated_by"]
    assert set(data["verdicts"]) == {"quick_study_seconds", "kernel_vs_blas", "peak_memory"}
    # smoke study: 2 populations x 2 metrics x (100 + 400 + 1600) samples x 8 replications x (257 + 3 x 8) pairs
    assert data["study"]["sample_parameter_pairs"] == 2 * 2 * 2100 * 8 * 281
    assert data["kernel"]["K"] == 257 and data["memory"]["n"] == 50_000
    assert 0 < data["memory"]["peak_bytes"] < 2**30
    assert not list(out.parent.glob("*.tmp"))
    printed = capsys.readouterr().out
    assert "plain BLAS X @ Theta^T" in printed and "results:" in printed
