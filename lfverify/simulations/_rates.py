"""Fitted convergence rates and limits with confidence intervals, and the verdicts built on them (statsmodels).

Two fits of log(error) = intercept + slope log(n):

* :func:`fit_rate` - from the *replications*: ordinary least squares of every replication's log error on its
  log n, with heteroskedasticity-robust (HC3) standard errors and a Student t interval.  Used for positive
  per-replication errors (Lemma 4's sup, ||theta_hat_n - theta*||).  Beside it, the classical lack-of-fit F
  test (replicates at each n give the pure-error variance: statsmodels' ``compare_f_test`` of the line against
  one mean per n) says whether the log-log plot is straight.  The line describes the *mean of log(error)* at
  each n, i.e. the log of the geometric mean (:func:`lfverify.simulations._intervals.geometric_mean_interval`),
  not the log of the mean error; :func:`rate_fit_band` gives its confidence band.
* :func:`fit_rate_of_means` - from positive Monte-Carlo *means* with known standard errors: weighted least
  squares of log(mean) with the delta-method variances (se / mean)^2.  The slope's standard error is the
  sampling one (statsmodels' fixed scale 1, normal quantiles), inflated by sqrt(chi^2 / dof) (the Birge ratio:
  statsmodels' default WLS scale, Student t with k - 2 degrees of freedom) when the lack-of-fit chi^2 test
  rejects at 5 %.
* :func:`fit_power_law` - mean = c n^p fitted to means of any sign (e.g. a bias that sinks into the noise at
  large n, where its logarithm is undefined) by nonlinear weighted least squares (scipy's curve_fit with the
  known standard errors), the same Birge rule (curve_fit's ``absolute_sigma=False``); points where the signal is
  lost in the noise weigh little.

A rate claim "error = O(n^p)" holds here (Lemma 4: p = -1/2) when the slope's interval covers p *and* lies
within [p - tolerance, p + tolerance]: a floor (planted bias), a different rate (n^-1/4, n^-1) and an
imprecise fit all fail (tests/simulations/test_simulations_rates.py).  :func:`fit_limit` fits y = a + b n^p to means and
gives the interval of a, the limit as n -> infinity, and :func:`limit_fit_band` the band of the fitted curve.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

from lfverify.core import check_real

__all__ = ["RateFit", "fit_rate", "rate_fit_band", "fit_rate_of_means", "fit_power_law", "LimitFit", "fit_limit",
           "limit_fit_band", "rate_verdict"]


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


def _holds(low, high, expected, tolerance):
    """The claim's verdict on the interval [low, high] of the slope."""
    return bool(low <= expected <= high and low >= expected - tolerance and high <= expected + tolerance)


def _replication_fit(sample_sizes, errors):
    """OLS (statsmodels) of log(error) on [1, log n] with HC3 covariance and Student t (N - 2 degrees of freedom)
    quantiles; returns (model, results, index of each replication's sample size in ``levels``, ``levels``)."""
    import statsmodels.api as sm

    n = np.asarray(sample_sizes, dtype=np.float64)
    e = np.asarray(errors, dtype=np.float64)
    if n.ndim != 1 or e.shape != n.shape:
        raise ValueError(f"sample_sizes and errors must be 1-D arrays of one length; got shapes {n.shape}, {e.shape}")
    if not (np.isfinite(n).all() and np.isfinite(e).all()) or np.any(n <= 0) or np.any(e <= 0):
        raise ValueError("sample_sizes and errors must be finite and positive (errors are fitted on a log scale)")
    levels, group, counts = np.unique(n, return_inverse=True, return_counts=True)
    if levels.size < 3 or np.any(counts < 2):
        raise ValueError(f"fit_rate needs >= 3 distinct sample sizes with >= 2 replications each; got counts "
                         f"{dict(zip(levels.tolist(), counts.tolist()))}")
    model = sm.OLS(np.log(e), np.column_stack([np.ones_like(n), np.log(n)]))
    return model, model.fit(cov_type="HC3", use_t=True), group, levels


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
    model, fit, group, levels = _replication_fit(sample_sizes, errors)
    slope, se = float(fit.params[1]), float(fit.bse[1])
    low, high = (float(v) for v in fit.conf_int(alpha=1.0 - level)[1])
    # lack of fit: the classical F test of the line (non-robust fit) against one mean per sample size
    means = sm.OLS(model.endog, (group[:, None] == np.arange(levels.size)).astype(np.float64)).fit()
    # a zero pure-error sum of squares (identical replications at every n) makes F undefined: nothing to test
    p_lack = float(means.compare_f_test(model.fit())[1]) if means.ssr > 0 else 1.0
    return RateFit(slope, slope_standard_error=se, ci_low=low, ci_high=high, intercept=float(fit.params[0]),
                   level=level, expected=expected, tolerance=tolerance, points=int(model.nobs),
                   sample_sizes=int(levels.size), lack_of_fit_p=p_lack,
                   method="OLS of log(error) on log(n) per replication, HC3 s.e.",
                   holds=_holds(low, high, expected, tolerance))


def rate_fit_band(sample_sizes, errors, at, *, level: float = 0.95):
    """The confidence band of :func:`fit_rate`'s line at the sample sizes ``at``, back on the error scale.

    Returns ``(low, high)``: exp of statsmodels' interval of intercept + slope log(n) (HC3 covariance, Student t
    with N - 2 degrees of freedom, as the slope's interval), i.e. the band of the *geometric mean* error.
    """
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    at = np.asarray(at, dtype=np.float64)
    fit = _replication_fit(sample_sizes, errors)[1]
    band = fit.get_prediction(np.column_stack([np.ones_like(at), np.log(at)])).conf_int(alpha=1.0 - level)
    return np.exp(band[:, 0]), np.exp(band[:, 1])


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


def _weighted_fit(design, response, sd):
    """WLS with known standard deviations (statsmodels): the fitted results and the lack-of-fit p-value.

    Known standard deviations: covariance (X'WX)^-1 (fixed scale 1) and normal quantiles.  When the chi^2 test of
    the standardized residuals rejects at 5 %, statsmodels' default WLS results instead: the covariance scaled by
    chi^2 / dof (the Birge ratio) and Student t quantiles with dof degrees of freedom.
    """
    import statsmodels.api as sm

    model = sm.WLS(response, design, weights=1.0 / sd**2)
    known = model.fit(cov_type="fixed scale", cov_kwds={"scale": 1.0}, use_t=False)
    dof = design.shape[0] - design.shape[1]
    p_lack = float(stats.chi2.sf(known.ssr, dof)) if dof > 0 else 1.0  # ssr: sum of squared standardized residuals
    return (model.fit() if dof > 0 and p_lack < 0.05 else known), p_lack


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
    fit, p_lack = _weighted_fit(design, np.log(y), se / y)
    low, high = (float(v) for v in fit.conf_int(alpha=1.0 - level)[1])
    return RateFit(float(fit.params[1]), slope_standard_error=float(fit.bse[1]), ci_low=low, ci_high=high,
                   intercept=float(fit.params[0]), level=level, expected=expected,
                   tolerance=tolerance, points=int(n.size), sample_sizes=int(n.size), lack_of_fit_p=p_lack,
                   method="WLS of log(mean) on log(n), delta-method weights",
                   holds=_holds(low, high, expected, tolerance))


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

    def fit(absolute_sigma):
        return curve_fit(model, n, y, p0=(intercept0, slope0), sigma=se, absolute_sigma=absolute_sigma,
                         maxfev=10000)

    params, cov = fit(True)
    dof = n.size - 2
    chi2 = float(np.sum(((y - model(n, *params)) / se) ** 2))
    p_lack = float(stats.chi2.sf(chi2, dof)) if dof > 0 else 1.0
    inflate = dof > 0 and p_lack < 0.05
    if inflate:
        # the Birge rule: curve_fit's relative sigma scales the covariance by chi^2 / dof (same optimisation,
        # same parameters); Student t quantiles with dof degrees of freedom
        params, cov = fit(False)
    slope, slope_se = float(params[1]), float(np.sqrt(cov[1, 1]))
    estimate = stats.t(dof, loc=slope, scale=slope_se) if inflate else stats.norm(loc=slope, scale=slope_se)
    low, high = (float(v) for v in estimate.interval(level))
    return RateFit(slope, slope_standard_error=slope_se, ci_low=low, ci_high=high, intercept=float(params[0]),
                   level=level, expected=expected, tolerance=tolerance, points=int(n.size),
                   sample_sizes=int(n.size), lack_of_fit_p=p_lack, method="nonlinear WLS of mean = c n^p, known s.e.",
                   holds=_holds(low, high, expected, tolerance))


def rate_verdict(fit: RateFit) -> str:
    """One line: the fitted slope, its interval, and why the expected rate is confirmed or not (a row of a study,
    not a claim's verdict: "confirmed" / "not confirmed", never the registry's "holds" / "fails as stated")."""
    band = (fit.expected - fit.tolerance, fit.expected + fit.tolerance)
    text = (f"slope {fit.slope:.4f}, {100 * fit.level:g}% CI [{fit.ci_low:.4f}, {fit.ci_high:.4f}]; "
            f"rate n^{fit.expected:g}: ")
    if fit.holds:
        return text + f"confirmed (CI covers {fit.expected:g} and lies within [{band[0]:g}, {band[1]:g}])"
    reasons = []
    if not fit.ci_low <= fit.expected <= fit.ci_high:
        reasons.append(f"CI excludes {fit.expected:g}")
    if fit.ci_low < band[0] or fit.ci_high > band[1]:
        reasons.append(f"CI not within [{band[0]:g}, {band[1]:g}]")
    return text + "not confirmed (" + "; ".join(reasons) + ")"


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
    fit, p_lack, exponent, level = _limit_fit(sample_sizes, means, standard_errors, exponent=exponent, level=level)
    low, high = (float(v) for v in fit.conf_int(alpha=1.0 - level)[0])
    return LimitFit(float(fit.params[0]), limit_standard_error=float(fit.bse[0]), ci_low=low, ci_high=high,
                    coefficient=float(fit.params[1]), exponent=exponent, level=level,
                    points=int(fit.nobs), lack_of_fit_p=p_lack)


def _limit_fit(sample_sizes, means, standard_errors, exponent, level):
    """The checked arguments' WLS of y on [1, n^exponent] (:func:`_weighted_fit`): results, p_lack, exponent, level."""
    exponent = check_real(exponent, "exponent", high=0.0, high_inclusive=False)
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    n, y, se = _check_series(sample_sizes, means, standard_errors, positive_means=False)
    return (*_weighted_fit(np.column_stack([np.ones_like(n), n**exponent]), y, se), exponent, level)


def limit_fit_band(sample_sizes, means, standard_errors, at, *, exponent: float = -0.5, level: float = 0.95):
    """The confidence band ``(low, high)`` of :func:`fit_limit`'s curve a + b n^exponent at the sample sizes ``at``
    (statsmodels' interval of the fitted mean, with the covariance and quantiles :func:`fit_limit` uses)."""
    fit, _, exponent, level = _limit_fit(sample_sizes, means, standard_errors, exponent=exponent, level=level)
    at = np.asarray(at, dtype=np.float64)
    band = fit.get_prediction(np.column_stack([np.ones_like(at), at**exponent])).conf_int(alpha=1.0 - level)
    return band[:, 0], band[:, 1]
