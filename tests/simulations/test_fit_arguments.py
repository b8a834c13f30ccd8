"""The rate-curve fits pass their ``level`` on, and refuse a missing or non-finite entry anywhere (issue 45, item 4).

Oracles:

* fit_rate_of_means and fit_limit are statsmodels WLS fits with known standard errors, and fit_power_law a
  nonlinear WLS with known standard errors; each documents its interval as estimate +- q * s.e. with q the normal
  quantile z_{(1 + level) / 2} when the chi^2 lack-of-fit test does not reject at 5 %, and the Student-t quantile
  t_{(1 + level) / 2, k - 2} on the Birge-inflated standard error when it does.  Each fit is run in both regimes
  (the test checks which one by the reported lack_of_fit_p) at levels 0.9 and 0.99: the half-width is exactly that
  quantile times the reported standard error (relative 1e-9), and the estimate does not move with the level.
* The summaries of a curve refuse None, NaN and inf at its start, middle and end (sample sizes, means, standard
  errors; and mean_interval / geometric_mean_interval's replications) with their documented ValueError, never a fit
  of the rest.

Companions: one-line planted variants (tests/planted.py) whose interval uses the default level, or whose
finiteness check skips the first entry, must make the checks raise AssertionError.

Private: lfverify.simulations._rates (fit_rate_of_means, fit_limit, fit_power_law: the studies' curve fits, not
exported) and lfverify.simulations._intervals (mean_interval, geometric_mean_interval), called directly and
replaced by planted variants in the companions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import lfverify.simulations._intervals as intervals
import lfverify.simulations._rates as rates
from planted import planted

pytestmark = pytest.mark.claims("package:simulation-engine")

N = np.array([10.0, 40.0, 160.0, 640.0, 2560.0])
NOISE = np.array([1.0, 1.02, 0.99, 1.01, 0.98])
MEANS = N ** -0.5 * NOISE
LIMIT_MEANS = 0.3 + 2.0 * N ** -0.5 * NOISE
#: regime -> (relative standard error of the means, absolute one of the limit's means): the chi^2 test accepts the
#: first regime's fits and rejects the second's
REGIMES = {"known": (0.02, 0.02), "inflated": (0.002, 0.0005)}


def _series(name, regime):
    relative, absolute = REGIMES[regime]
    if name == "fit_limit":
        return N, LIMIT_MEANS, np.full(N.size, absolute)
    return N, MEANS, relative * MEANS


def _estimate(name, fit):
    """(estimate, its standard error) of the interval the fit reports."""
    if name == "fit_limit":
        return fit.limit, fit.limit_standard_error
    return fit.slope, fit.slope_standard_error


def check_levels(name, fit_function) -> None:
    for regime in REGIMES:
        n, means, se = _series(name, regime)
        fits = {level: fit_function(n, means, se, level=level) for level in (0.9, 0.99)}
        inflated = fits[0.9].lack_of_fit_p < 0.05
        assert inflated == (regime == "inflated"), (name, regime, fits[0.9].lack_of_fit_p)
        for level, fit in fits.items():
            estimate, standard_error = _estimate(name, fit)
            q = stats.t.ppf((1 + level) / 2, n.size - 2) if inflated else stats.norm.ppf((1 + level) / 2)
            assert fit.level == level
            assert (fit.ci_high - fit.ci_low) / 2 == pytest.approx(q * standard_error, rel=1e-9), (name, regime, level)
            assert (fit.ci_high + fit.ci_low) / 2 == pytest.approx(estimate, rel=1e-9, abs=1e-12)
        assert _estimate(name, fits[0.9]) == _estimate(name, fits[0.99])


FITS = ("fit_rate_of_means", "fit_limit", "fit_power_law")


@pytest.mark.parametrize("name", FITS)
def test_each_fit_follows_its_level(name):
    check_levels(name, getattr(rates, name))


@pytest.mark.parametrize("name, old, new", [
    ("fit_rate_of_means", "fit.conf_int(alpha=1.0 - level)[1]", "fit.conf_int(alpha=0.05)[1]"),
    ("fit_limit", "fit.conf_int(alpha=1.0 - level)[0]", "fit.conf_int(alpha=0.05)[0]"),
    ("fit_power_law", "estimate.interval(level)", "estimate.interval(0.95)"),
])
def test_companion_a_fit_whose_interval_uses_the_default_level_fails(name, old, new):
    with pytest.raises(AssertionError):
        check_levels(name, planted(getattr(rates, name), old, new))


def check_non_finite_anywhere(fits) -> None:
    n, means, se = _series("fit_power_law", "known")
    for name, fit_function in fits.items():
        for index in (0, N.size // 2, N.size - 1):
            for bad in (None, math.nan, math.inf):
                for which in range(3):
                    columns = [list(n), list(means), list(se)]
                    columns[which][index] = bad
                    try:
                        fit_function(*columns)
                    except ValueError as exc:
                        assert str(exc) == "sample_sizes, means and standard_errors must be finite", (name, exc)
                    else:
                        raise AssertionError(f"{name} fitted column {which} with {bad} at index {index}")


def test_the_fits_refuse_a_missing_or_non_finite_entry_at_the_start_middle_and_end():
    check_non_finite_anywhere({name: getattr(rates, name) for name in FITS})


def test_companion_a_finiteness_check_that_skips_the_first_entry_fails(monkeypatch):
    monkeypatch.setattr(rates, "_check_series", planted(rates._check_series, "np.isfinite(y).all()",
                                                        "np.isfinite(y[1:]).all()"))
    for name in FITS:
        with pytest.raises(AssertionError):
            check_non_finite_anywhere({name: getattr(rates, name)})


def check_intervals_refuse_non_finite(mean_interval, geometric_mean_interval) -> None:
    for index in (0, 2, 4):
        for bad in (None, math.nan, math.inf):
            values = [1.0, 2.0, 3.0, 4.0, 5.0]
            values[index] = bad
            for function, message in ((mean_interval, "values must be finite; got a NaN or infinite replication"),
                                      (geometric_mean_interval, "values must be positive and finite to take "
                                                                "logarithms")):
                try:
                    function(values)
                except ValueError as exc:
                    assert str(exc) == message, exc
                else:
                    raise AssertionError(f"{function.__name__} summarised {bad} at index {index}")


def test_the_intervals_refuse_a_missing_or_non_finite_replication_anywhere():
    check_intervals_refuse_non_finite(intervals.mean_interval, intervals.geometric_mean_interval)


def test_companion_intervals_that_skip_the_first_replication_fail():
    with pytest.raises(AssertionError):
        check_intervals_refuse_non_finite(
            planted(intervals.mean_interval, "np.isfinite(arr).all()", "np.isfinite(arr[1:]).all()"),
            intervals.geometric_mean_interval)
    with pytest.raises(AssertionError):
        check_intervals_refuse_non_finite(
            intervals.mean_interval,
            planted(intervals.geometric_mean_interval, "np.isfinite(arr).all()", "np.isfinite(arr[1:]).all()"))
