"""Fitted convergence rates and limits with confidence intervals, and the verdicts built on them (statsmodels).

Two fits of log(error) = intercept + slope log(n):

* :func:`fit_rate` - from the *replications*: ordinary least squares of every replication's log error on its
  log n, with heteroskedasticity-robust (HC3) standard errors and a Student t interval.  Used for positive
  per-replication errors (Lemma 4's sup, ||theta_hat_n - theta*||).  Beside it, the classical lack-of-fit F
  test (replicates at each n give the pure-error variance) says whether the log-log plot is straight.
* :func:`fit_rate_of_means` - from positive Monte-Carlo *means* with known standard errors: weighted least
  squares of log(mean) with the delta-method variances (se / mean)^2.  The slope's standard error is the
  sampling one, inflated by sqrt(chi^2 / dof) (the Birge ratio, Student t with k - 2 degrees of freedom) when
  the lack-of-fit chi^2 test rejects at 5 %.
* :func:`fit_power_law` - mean = c n^p fitted to means of any sign (e.g. a bias that sinks into the noise at
  large n, where its logarithm is undefined) by nonlinear weighted least squares (scipy's curve_fit with the
  known standard errors), the same Birge rule; points where the signal is lost in the noise weigh little.

A rate claim "error = O(n^p)" holds here (Lemma 4: p = -1/2) when the slope's interval covers p *and* lies
within [p - tolerance, p + tolerance]: a floor (planted bias), a different rate (n^-1/4, n^-1) and an
imprecise fit all fail (tests/test_simulations_rates.py).  :func:`fit_limit` fits y = a + b n^p to means and
gives the interval of a, the limit as n -> infinity.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

from lfverify.core._validation import check_real

__all__ = ["RateFit", "fit_rate", "fit_rate_of_means", "fit_power_law", "LimitFit", "fit_limit", "rate_verdict"]


class RateFit(NamedTuple):
    """log(error) = intercept + slope log(n) with the slope's interval and the claim's verdict."""

    slope: float
    slope_standard_error: float
    ci_low: float
    ci_high: float
    intercept: float
    level: float
    expected: float
    tolerance: float
    points: int  #: replications (fit_rate) or sample sizes (fit_rate_of_means)
    sample_sizes: int
    lack_of_fit_p: float  #: p-value of the test that log E[error] is linear in log n (small: curved)
    method: str
    holds: bool  #: the interval covers ``expected`` and lies within expected +- tolerance

    def as_dict(self) -> dict:
        return {k: (bool(v) if isinstance(v, (bool, np.bool_)) else v) for k, v in self._asdict().items()}

    @property
    def verdict(self) -> str:
        return rate_verdict(self)


def _check_settings(expected, tolerance, level):
    expected = check_real(expected, "expected")
    tolerance = check_real(tolerance, "tolerance", low=0.0, low_inclusive=False)
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    return expected, tolerance, level


def _decide(slope, se, quantile, expected, tolerance):
    low, high = slope - quantile * se, slope + quantile * se
    return low, high, bool(low <= expected <= high and low >= expected - tolerance and high <= expected + tolerance)


def fit_rate(sample_sizes, errors, *, expected: float = -0.5, tolerance: float = 0.1,
             level: float = 0.95) -> RateFit:
    """OLS of log(error_i) on log(n_i) over replications, HC3 standard errors; decide the claim ``expected``.

    Parameters
    ----------
    sample_sizes : array_like of shape (N,)
        The sample size of each replication; at least 3 distinct values, each at least twice.
    errors : array_like of shape (N,)
        Positive errors, one per replication.
    expected : float, keyword-only
        Claimed exponent (Lemma 4: -0.5).
    tolerance : float > 0, keyword-only
        Half-width of the acceptance band [expected - tolerance, expected + tolerance].
    level : float in (0, 1), keyword-only

    Raises
    ------
    ValueError
        On mismatched shapes, non-finite or non-positive values, fewer than 3 distinct sample sizes.
    """
    import statsmodels.api as sm

    expected, tolerance, level = _check_settings(expected, tolerance, level)
    n = np.asarray(sample_sizes, dtype=np.float64)
    e = np.asarray(errors, dtype=np.float64)
    if n.ndim != 1 or e.shape != n.shape:
        raise ValueError(f"sample_sizes and errors must be 1-D arrays of one length; got shapes {n.shape}, {e.shape}")
    if not (np.isfinite(n).all() and np.isfinite(e).all()) or np.any(n <= 0) or np.any(e <= 0):
        raise ValueError("sample_sizes and errors must be finite and positive (errors are fitted on a log scale)")
    levels, counts = np.unique(n, return_counts=True)
    if levels.size < 3 or np.any(counts < 2):
        raise ValueError(f"fit_rate needs >= 3 distinct sample sizes with >= 2 replications each; got counts "
                         f"{dict(zip(levels.tolist(), counts.tolist()))}")
    x, yv = np.log(n), np.log(e)
    design = np.column_stack([np.ones_like(x), x])
    fit = sm.OLS(yv, design).fit(cov_type="HC3")
    slope, se = float(fit.params[1]), float(fit.bse[1])
    q = float(stats.t.ppf(0.5 + level / 2, n.size - 2))
    low, high, holds = _decide(slope, se, q, expected, tolerance)
    # lack of fit: residual sum of squares split into pure error (within n) and lack of fit (group means vs line)
    group = np.searchsorted(levels, n)
    group_mean = np.bincount(group, yv) / counts
    pure = float(np.sum((yv - group_mean[group]) ** 2))
    lack = float(np.sum(counts * (group_mean - (fit.params[0] + fit.params[1] * np.log(levels))) ** 2))
    df_lack, df_pure = levels.size - 2, n.size - levels.size
    p_lack = float(stats.f.sf((lack / df_lack) / (pure / df_pure), df_lack, df_pure)) if df_lack > 0 and pure > 0 \
        else 1.0
    return RateFit(slope, se, low, high, float(fit.params[0]), level, expected, tolerance, int(n.size),
                   int(levels.size), p_lack, "OLS of log(error) on log(n) per replication, HC3 s.e.", holds)


def _check_series(sample_sizes, means, standard_errors, *, positive_means: bool):
    n = np.asarray(sample_sizes, dtype=np.float64)
    y = np.asarray(means, dtype=np.float64)
    se = np.asarray(standard_errors, dtype=np.float64)
    if n.ndim != 1 or y.shape != n.shape or se.shape != n.shape:
        raise ValueError(f"sample_sizes, means and standard_errors must be 1-D of one length; got shapes "
                         f"{n.shape}, {y.shape}, {se.shape}")
    if n.size < 3:
        raise ValueError(f"a fit needs at least 3 sample sizes; got {n.size}")
    if not (np.isfinite(n).all() and np.isfinite(y).all() and np.isfinite(se).all()):
        raise ValueError("sample_sizes, means and standard_errors must be finite")
    if np.any(n <= 0) or np.unique(n).size != n.size:
        raise ValueError(f"sample_sizes must be positive and distinct; got {n.tolist()}")
    if np.any(se <= 0):
        raise ValueError(f"standard_errors must be positive; got {se.tolist()}")
    if positive_means and np.any(y <= 0):
        raise ValueError(f"means must be positive to take logarithms; got {y.tolist()}")
    return n, y, se


def _weighted_fit(design, response, sd, level):
    """WLS with known standard deviations: params, covariance (Birge-inflated on lack of fit), quantile, p-value."""
    import statsmodels.api as sm

    fit = sm.WLS(response, design, weights=1.0 / sd**2).fit()
    dof = design.shape[0] - design.shape[1]
    chi2 = float(np.sum(fit.wresid**2))
    p_lack = float(stats.chi2.sf(chi2, dof)) if dof > 0 else 1.0
    cov = np.asarray(fit.normalized_cov_params)
    if dof > 0 and p_lack < 0.05:
        return np.asarray(fit.params), cov * (chi2 / dof), float(stats.t.ppf(0.5 + level / 2, dof)), p_lack
    return np.asarray(fit.params), cov, float(stats.norm.ppf(0.5 + level / 2)), p_lack


def fit_rate_of_means(sample_sizes, means, standard_errors, *, expected: float = -0.5, tolerance: float = 0.1,
                      level: float = 0.95) -> RateFit:
    """WLS of log(mean) on log(n) with delta-method weights (see the module notes); decide ``expected``.

    Parameters
    ----------
    sample_sizes : array_like of shape (k,), k >= 3, distinct
    means : array_like of shape (k,), positive
    standard_errors : array_like of shape (k,), positive
    expected, tolerance, level : as in :func:`fit_rate`
    """
    expected, tolerance, level = _check_settings(expected, tolerance, level)
    n, y, se = _check_series(sample_sizes, means, standard_errors, positive_means=True)
    design = np.column_stack([np.ones_like(n), np.log(n)])
    params, cov, q, p_lack = _weighted_fit(design, np.log(y), se / y, level)
    slope, slope_se = float(params[1]), float(np.sqrt(cov[1, 1]))
    low, high, holds = _decide(slope, slope_se, q, expected, tolerance)
    return RateFit(slope, slope_se, low, high, float(params[0]), level, expected, tolerance, int(n.size),
                   int(n.size), p_lack, "WLS of log(mean) on log(n), delta-method weights", holds)


def fit_power_law(sample_sizes, means, standard_errors, *, expected: float = -1.0, tolerance: float = 0.2,
                  level: float = 0.95) -> RateFit:
    """Fit mean = c n^p (nonlinear WLS, known standard errors) and decide the claim p = ``expected``.

    The intercept reported is log|c|.  Starting values come from the log-log fit of the points with
    mean > 2 se.  See :func:`fit_rate` for the arguments.

    Raises
    ------
    ValueError
        On malformed input, or when fewer than 2 means are significantly non-zero (no rate to fit).
    """
    from scipy.optimize import curve_fit

    expected, tolerance, level = _check_settings(expected, tolerance, level)
    n, y, se = _check_series(sample_sizes, means, standard_errors, positive_means=False)
    sign = 1.0 if np.sum(y / se**2) >= 0 else -1.0
    strong = sign * y > 2 * se
    if np.count_nonzero(strong) < 2:
        raise ValueError("fit_power_law needs at least 2 means significantly different from 0 (|mean| > 2 se)")
    slope0, intercept0 = np.polyfit(np.log(n[strong]), np.log(sign * y[strong]), 1)

    def model(nn, log_c, p):
        return sign * np.exp(log_c + p * np.log(nn))

    params, cov = curve_fit(model, n, y, p0=(intercept0, slope0), sigma=se, absolute_sigma=True, maxfev=10000)
    dof = n.size - 2
    chi2 = float(np.sum(((y - model(n, *params)) / se) ** 2))
    p_lack = float(stats.chi2.sf(chi2, dof)) if dof > 0 else 1.0
    if dof > 0 and p_lack < 0.05:
        cov, q = cov * (chi2 / dof), float(stats.t.ppf(0.5 + level / 2, dof))
    else:
        q = float(stats.norm.ppf(0.5 + level / 2))
    slope, slope_se = float(params[1]), float(np.sqrt(cov[1, 1]))
    low, high, holds = _decide(slope, slope_se, q, expected, tolerance)
    return RateFit(slope, slope_se, low, high, float(params[0]), level, expected, tolerance, int(n.size),
                   int(n.size), p_lack, "nonlinear WLS of mean = c n^p, known s.e.", holds)


def rate_verdict(fit: RateFit) -> str:
    """One line: the fitted slope, its interval, and why the claim holds or fails."""
    band = (fit.expected - fit.tolerance, fit.expected + fit.tolerance)
    text = (f"slope {fit.slope:.4f}, {100 * fit.level:g}% CI [{fit.ci_low:.4f}, {fit.ci_high:.4f}]; "
            f"claim n^{fit.expected:g}: ")
    if fit.holds:
        return text + f"holds (CI covers {fit.expected:g} and lies within [{band[0]:g}, {band[1]:g}])"
    reasons = []
    if not fit.ci_low <= fit.expected <= fit.ci_high:
        reasons.append(f"CI excludes {fit.expected:g}")
    if fit.ci_low < band[0] or fit.ci_high > band[1]:
        reasons.append(f"CI not within [{band[0]:g}, {band[1]:g}]")
    return text + "fails (" + "; ".join(reasons) + ")"


class LimitFit(NamedTuple):
    """y = limit + coefficient n^exponent, fitted by weighted least squares; the limit's interval."""

    limit: float
    limit_standard_error: float
    ci_low: float
    ci_high: float
    coefficient: float
    exponent: float
    level: float
    points: int
    lack_of_fit_p: float

    def as_dict(self) -> dict:
        return self._asdict()


def fit_limit(sample_sizes, means, standard_errors, *, exponent: float = -0.5, level: float = 0.95) -> LimitFit:
    """Extrapolate Monte-Carlo means y(n) to n -> infinity with the model y = a + b n^exponent (WLS).

    Standard errors as in :func:`fit_rate_of_means` (sampling, Birge-inflated on lack of fit).  Means may have
    any sign.
    """
    exponent = check_real(exponent, "exponent", high=0.0, high_inclusive=False)
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    n, y, se = _check_series(sample_sizes, means, standard_errors, positive_means=False)
    design = np.column_stack([np.ones_like(n), n**exponent])
    params, cov, q, p_lack = _weighted_fit(design, y, se, level)
    limit, limit_se = float(params[0]), float(np.sqrt(cov[0, 0]))
    return LimitFit(limit, limit_se, limit - q * limit_se, limit + q * limit_se, float(params[1]), exponent, level,
                    int(n.size), p_lack)
