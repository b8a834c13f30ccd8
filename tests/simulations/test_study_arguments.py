"""rate_study passes its ``level`` on, and measure_rate / run_study their ``seed`` (issue 45, item 4).

Oracles:

* rate_study's docstring: with ``fit="errors"`` the slope's interval is fit_rate's (OLS with HC3 and Student-t
  quantiles on points - 2 degrees of freedom), so at levels 0.9 and 0.99 its half-width is exactly
  t_{(1 + level) / 2, points - 2} times the reported standard error, the slope unchanged; each n's geometric-mean
  interval is exp(mean log +- t_{(1 + level) / 2, R - 1} s.e.), so the ratio of its log-widths at the two levels
  is the quantile ratio.  With ``fit="means"`` and ``expected=None`` each n's interval is at the Bonferroni level
  1 - (1 - level) / k over the k sizes, half-width t_{(1 + that) / 2, R - 1} times its standard error.
* measure_rate's and run_study's ``seed`` is the study seed of the documented stream: a replication's error in the
  records is the statistic of replication_sample(population, name, n, r, study_seed=seed) (the public sampler);
  the same seed in another folder writes the same records.csv, another seed different ones, and the summary
  names the seed.

Companions: planted variants (tests/planted.py) whose inner call uses the default level or seed make the checks
raise AssertionError.

Private: lfverify.simulations._rate_study (its _fit_errors / _fit_means and measure_rate, replaced by planted
variants in the companions).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import lfverify.simulations as simulations
import lfverify.simulations._rate_study as rate_study_module
from lfverify.core import BOUNDED_LOGISTIC_POPULATION
from lfverify.simulations import rate_study, read_records, replication_sample
from planted import planted, planting

pytestmark = pytest.mark.claims("package:simulation-engine")

SIZES = (50, 200, 800)
R = 4


def mean_error(rep, target):
    """|mean of u - E u| on the bounded-logistic population (u ~ U[-1, 1])."""
    return abs(float(np.mean(rep.X[:, 0])) - target)


def mean_deviation(rep, target):
    return float(np.mean(rep.X[:, 0])) - target


def _study(**kw):
    options = dict(statistic=mean_error, populations={"bounded": BOUNDED_LOGISTIC_POPULATION},
                   target={"bounded": 0.0}, sample_sizes=SIZES, replications=R)
    options.update(kw)
    return rate_study("mean", **options)


def _measure(study, out, measure=None, **kw):
    measure = measure or simulations.measure_rate
    return measure(study, out=out, executor="serial", progress=False, figures=False, **kw)


def check_errors_level(tmp_path) -> None:
    results = {level: _measure(_study(level=level), tmp_path / f"errors-{level}").rates["bounded/error"]
               for level in (0.9, 0.99)}
    for level, rate in results.items():
        fit = rate["fit"]
        q = stats.t.ppf((1 + level) / 2, fit["points"] - 2)
        assert fit["level"] == level
        assert (fit["ci_high"] - fit["ci_low"]) / 2 == pytest.approx(q * fit["slope_standard_error"], rel=1e-9)
    assert results[0.9]["fit"]["slope"] == results[0.99]["fit"]["slope"]
    ratio = stats.t.ppf(0.995, R - 1) / stats.t.ppf(0.95, R - 1)
    for low, high in zip(results[0.9]["table"], results[0.99]["table"]):
        widths = [np.log(row["ci_high"]) - np.log(row["ci_low"]) for row in (low, high)]
        assert widths[1] == pytest.approx(ratio * widths[0], rel=1e-9), low["n"]


def check_means_level(tmp_path) -> None:
    for level in (0.9, 0.99):
        study = _study(statistic=mean_deviation, fit="means", expected=None, level=level)
        table = _measure(study, tmp_path / f"means-{level}").rates["bounded/error"]["table"]
        each = 1.0 - (1.0 - level) / len(SIZES)
        q = stats.t.ppf((1 + each) / 2, R - 1)
        for row in table:
            assert row["level"] == pytest.approx(each, rel=1e-15)
            assert (row["ci_high"] - row["ci_low"]) / 2 == pytest.approx(q * row["standard_error"], rel=1e-9)


def test_rate_study_follows_level(tmp_path):
    check_errors_level(tmp_path)
    check_means_level(tmp_path)


@pytest.mark.parametrize("target, old, new, check", [
    ("_fit_errors", 'geometric_mean_interval(values, level=config["level"])', "geometric_mean_interval(values)",
     check_errors_level),
    ("_fit_errors", 'tolerance=config["tolerance"], level=config["level"])', 'tolerance=config["tolerance"])',
     check_errors_level),
    ("_fit_means", 'level = config["level"]', "level = 0.95", check_means_level),
])
def test_companion_a_rate_study_whose_fit_uses_the_default_level_fails(monkeypatch, tmp_path, target, old, new,
                                                                        check):
    planting(monkeypatch, rate_study_module, target, old, new)
    with pytest.raises(AssertionError):
        check(tmp_path)


def check_measure_rate_seed(tmp_path, measure=None) -> None:
    for seed in (0, 7):
        out = tmp_path / f"seed-{seed}"
        result = _measure(_study(), out, measure, seed=seed)
        assert result.summary["generated_by"]["seed"] == seed
        for row in read_records(out):
            X, _ = replication_sample(BOUNDED_LOGISTIC_POPULATION, "bounded", row["n"], row["replication"],
                                      study_seed=seed)
            assert row["error"] == pytest.approx(abs(float(np.mean(X[:, 0]))), rel=1e-15, abs=0), (seed, row)


def test_measure_rate_draws_from_the_seed_it_is_given(tmp_path):
    check_measure_rate_seed(tmp_path)


def test_companion_measure_rate_with_the_default_seed_fails(tmp_path):
    with pytest.raises(AssertionError):
        check_measure_rate_seed(tmp_path, planted(rate_study_module.measure_rate, "seed=seed", "seed=None"))


TINY = {"sample_sizes": [100, 200, 400], "replications": 3, "refinement_rounds": 1, "samples_per_task": 600}


def check_run_study_seed(tmp_path, run_study=None) -> None:
    run_study = run_study or simulations.run_study

    def records(seed, folder):
        summary = run_study("uniform-convergence", "smoke", out=tmp_path / folder, executor="serial", seed=seed,
                            progress=False, figures=False, overrides=TINY)
        assert summary["generated_by"]["seed"] == seed
        return (tmp_path / folder / "records.csv").read_bytes()

    first = records(3, "a")
    assert records(3, "b") == first
    assert records(4, "c") != first


def test_run_study_draws_from_the_seed_it_is_given(tmp_path):
    check_run_study_seed(tmp_path)


def test_companion_run_study_with_the_default_seed_fails(tmp_path):
    with pytest.raises(AssertionError):
        check_run_study_seed(tmp_path, planted(simulations.run_study, "seed=seed", "seed=None"))
