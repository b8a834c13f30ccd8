"""fit_rate passes its ``level``, ``expected`` and ``tolerance`` on, and refuses a missing or non-finite entry at any
position (issue 45, item 4).

Oracle: fit_rate is an OLS with HC3 standard errors and Student-t quantiles on N - 2 degrees of freedom, so its
slope interval is slope +- t_{(1 + level) / 2, N - 2} * s.e.: at level 0.9 and 0.99 the half-widths are these exact
multiples of the same standard error (the slope itself unchanged), and rate_fit_band's log-scale half-widths scale by
the same quantile ratio.  The verdict ``holds`` is the documented rule low <= expected <= high within expected +-
tolerance, recomputed from the interval.  A None, NaN or inf error (or sample size) at the start, the middle or
the end is a ValueError ("finite and positive"), never a fit of the rest.

Companions: one-line planted variants (tests/planted.py) whose inner call uses the default level, or that
drop the first replication before the finiteness check, must make the checks raise AssertionError.

Private: lfverify.simulations._rates (fit_rate's inner _replication_fit and conf_int call are planted with one-line
variants; fit_rate and rate_fit_band are the public names of that module).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import lfverify.simulations._rates as rates
from planted import planted as mutant

pytestmark = pytest.mark.claims("package:simulation-engine")

N = np.repeat([10.0, 40.0, 160.0, 640.0], 3)
ERRORS = N ** -0.5 * np.tile([0.8, 1.0, 1.3], 4) * np.array([1.0, 1.1, 0.9, 1.05, 0.95, 1.0, 1.02, 0.98, 1.0, 0.9,
                                                               1.1, 1.0])


def check_level(fit_rate, band) -> None:
    df = N.size - 2
    fits = {level: fit_rate(N, ERRORS, level=level) for level in (0.9, 0.99)}
    for level, fit in fits.items():
        half = (fit.ci_high - fit.ci_low) / 2
        assert fit.level == level
        assert half == pytest.approx(stats.t.ppf((1 + level) / 2, df) * fit.slope_standard_error, rel=1e-9), level
        assert fit.holds == (fit.ci_low <= -0.5 <= fit.ci_high and fit.ci_low >= -0.6 and fit.ci_high <= -0.4)
    assert fits[0.9].slope == fits[0.99].slope
    at = np.array([20.0, 300.0])
    widths = {level: np.log(band(N, ERRORS, at, level=level)[1]) - np.log(band(N, ERRORS, at, level=level)[0])
              for level in (0.9, 0.99)}
    ratio = stats.t.ppf(0.995, df) / stats.t.ppf(0.95, df)
    assert widths[0.99] == pytest.approx(ratio * widths[0.9], rel=1e-9)
    tight = fit_rate(N, ERRORS, expected=fits[0.9].slope, tolerance=1e-6)
    assert not tight.holds and tight.expected == fits[0.9].slope and tight.tolerance == 1e-6
    wide = fit_rate(N, ERRORS, expected=fits[0.9].slope, tolerance=5.0)
    assert wide.holds
    assert fits[0.9].ci_low <= -0.5 <= fits[0.9].ci_high  # so that only the expected passed on decides below
    assert not fit_rate(N, ERRORS, expected=-3.0, tolerance=5.0).holds  # -3 lies outside the interval


def _band(sample_sizes, errors, at, *, level):
    low_high = rates.rate_fit_band(sample_sizes, errors, at, level=level)
    return low_high[0], low_high[1]


def test_fit_rate_follows_level_expected_and_tolerance():
    check_level(rates.fit_rate, _band)


@pytest.mark.parametrize("target, old, new", [
    ("fit_rate", "fit.conf_int(alpha=1.0 - level)[1]", "fit.conf_int(alpha=0.05)[1]"),
    ("fit_rate", "holds=_holds(low, high, expected, tolerance)", "holds=_holds(low, high, -0.5, tolerance)"),
    ("rate_fit_band", "conf_int(alpha=1.0 - level)", "conf_int(alpha=0.05)"),
])
def test_companion_level_check_fails_when_an_inner_call_uses_the_default(target, old, new):
    fit_rate, band = rates.fit_rate, _band
    if target == "fit_rate":
        fit_rate = mutant(rates.fit_rate, old, new)
    else:
        planted = mutant(rates.rate_fit_band, old, new)

        def band(sample_sizes, errors, at, *, level):
            low, high = planted(sample_sizes, errors, at, level=level)[:2]
            return low, high
    with pytest.raises(AssertionError):
        check_level(fit_rate, band)


def check_non_finite_anywhere(fit_rate) -> None:
    for index in (0, N.size // 2, N.size - 1):
        for bad in (None, math.nan, math.inf):
            for which in ("errors", "sample_sizes"):
                n, e = list(N), list(ERRORS)
                (e if which == "errors" else n)[index] = bad
                try:
                    fit_rate(n, e)
                except ValueError as exc:
                    assert "finite and positive" in str(exc), (index, bad, which, exc)
                else:
                    raise AssertionError(f"fit_rate fitted {which} with {bad} at index {index}")


def test_fit_rate_refuses_a_missing_or_non_finite_entry_at_the_start_middle_and_end():
    check_non_finite_anywhere(rates.fit_rate)


def test_companion_non_finite_check_fails_when_the_first_replication_is_not_checked(monkeypatch):
    planted = mutant(rates._replication_fit, "if not (np.isfinite(n).all() and np.isfinite(e).all())",
                     "if not (np.isfinite(n[1:]).all() and np.isfinite(e[1:]).all())")
    monkeypatch.setattr(rates, "_replication_fit", planted)
    with pytest.raises(AssertionError):
        check_non_finite_anywhere(rates.fit_rate)
