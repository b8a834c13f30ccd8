"""The statistics of lfverify/simulations: fitted rates and their verdicts, limits, intervals.

Oracles: synthetic data with a known exponent (the verdict must accept n^-1/2 with noise and reject a planted
floor, n^-1/4 and n^-1), numpy on the pooled data for merged moments, scipy's exact binomial interval, and for the
statistics taken from SciPy / statsmodels literals worked out in exact fractions and mpmath (the recipe beside
each, a textbook or R value as cross-check where there is one).

Private: lfverify.simulations._intervals and _rates, the intervals and fits the studies' verdicts rest on, tested
against their oracles.
"""

import math

import numpy as np
import pytest
from scipy import stats

from lfverify.simulations import fit_rate
from lfverify.simulations._intervals import clopper_pearson, geometric_mean_interval, mean_interval, merge_moments
from lfverify.simulations._rates import fit_limit, fit_power_law, fit_rate_of_means, rate_fit_band

pytestmark = pytest.mark.claims("package:simulation-engine")  # the statistics, on synthetic data: no claim of the paper

SIZES = np.array([100, 316, 1000, 3162, 10000])


def synthetic_errors(rng, curve, *, reps=30, noise=0.35):
    """Per-replication errors curve(n) * lognormal noise (the spread of the measured sup errors)."""
    n = np.repeat(SIZES, reps)
    return n, curve(n) * np.exp(noise * rng.standard_normal(n.size))


@pytest.mark.parametrize("seed", range(5))
def test_exact_root_n_rate_with_noise_passes(seed):
    n, e = synthetic_errors(np.random.default_rng(seed), lambda n: 7.0 / np.sqrt(n))
    fit = fit_rate(n, e)
    assert fit.holds and fit.ci_low <= -0.5 <= fit.ci_high
    assert fit.ci_high - fit.ci_low < 0.1  # precise enough that the band [-0.6, -0.4] means something
    assert "rate n^-0.5: confirmed (CI covers -0.5" in fit.verdict  # a study row's words, not a claim's verdict


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("curve, reason", [
    (lambda n: 0.05 + 7.0 / np.sqrt(n), "CI excludes -0.5"),  # planted bias: the error floors at 0.05
    (lambda n: 2.0 * n ** -0.25, "CI excludes -0.5"),  # wrong rate n^-1/4
    (lambda n: 50.0 / n, "CI excludes -0.5"),  # wrong rate n^-1
])
def test_planted_floor_and_wrong_rates_fail(seed, curve, reason):
    n, e = synthetic_errors(np.random.default_rng(100 + seed), curve)
    fit = fit_rate(n, e)
    assert not fit.holds
    assert reason in fit.verdict


def test_imprecise_fit_fails_even_when_it_covers_the_claim():
    """Three replications per n: the interval covers -0.5 but is wider than the band [-0.6, -0.4]."""
    n, e = synthetic_errors(np.random.default_rng(7), lambda n: 7.0 / np.sqrt(n), reps=3, noise=0.8)
    fit = fit_rate(n, e)
    assert fit.ci_low <= -0.5 <= fit.ci_high and not fit.holds
    assert "not within" in fit.verdict


def test_lack_of_fit_detects_a_curved_loglog_plot():
    rng = np.random.default_rng(3)
    straight = fit_rate(*synthetic_errors(rng, lambda n: 7.0 / np.sqrt(n), reps=100))
    curved = fit_rate(*synthetic_errors(rng, lambda n: 0.05 + 7.0 / np.sqrt(n), reps=100))
    assert straight.lack_of_fit_p > 0.01 and curved.lack_of_fit_p < 1e-3


def test_fit_rate_of_means_accepts_the_true_rate_and_rejects_a_floor():
    rng = np.random.default_rng(11)
    se = 0.03 * SIZES ** -0.5
    good = fit_rate_of_means(SIZES, SIZES ** -0.5 + se * rng.standard_normal(5), se)
    floored = fit_rate_of_means(SIZES, 0.004 + SIZES ** -0.5 + se * rng.standard_normal(5), se)
    assert good.holds and not floored.holds
    assert "CI excludes -0.5" in floored.verdict


def test_fit_power_law_handles_signed_noisy_means():
    """A 1/n bias that sinks into the noise (negative means at large n) is still fitted as c n^-1."""
    rng = np.random.default_rng(5)
    n = 2.0 ** np.arange(2, 11)
    se = 0.01 / np.sqrt(n)
    fit = fit_power_law(n, 0.4 / n + se * rng.standard_normal(n.size), se, expected=-1.0, tolerance=0.2)
    assert fit.holds and abs(fit.intercept - np.log(0.4)) < 0.2
    wrong = fit_power_law(n, 0.4 / np.sqrt(n) + se * rng.standard_normal(n.size), se, expected=-1.0,
                          tolerance=0.2)
    assert not wrong.holds
    with pytest.raises(ValueError, match="significantly"):
        fit_power_law(n, se * rng.standard_normal(n.size), se)


def test_fit_limit_recovers_a_known_limit_and_its_interval_covers_it():
    rng = np.random.default_rng(2)
    se = 0.002 * np.ones(5)
    fit = fit_limit(SIZES, 0.07 + 0.9 / np.sqrt(SIZES) + se * rng.standard_normal(5), se)
    assert fit.ci_low <= 0.07 <= fit.ci_high and fit.ci_high - fit.ci_low < 0.02
    shifted = fit_limit(SIZES, 0.09 + 0.9 / np.sqrt(SIZES) + se * rng.standard_normal(5), se)
    assert not shifted.ci_low <= 0.07 <= shifted.ci_high


@pytest.mark.parametrize("args, match", [
    (([100, 200], [0.1, 0.1]), "sample_sizes and errors must be 1-D"),
    (([100, 100, 200, 200, 300, 300], [0.1, -0.1, 0.1, 0.1, 0.1, 0.1]), "positive"),
    (([100, 100, 200, 200], [0.1, 0.1, 0.1, 0.1]), "3 distinct"),
])
def test_fit_rate_rejects_bad_input(args, match):
    n, e = args
    if match.startswith("sample_sizes"):
        e = e + [0.1]
    with pytest.raises(ValueError, match=match):
        fit_rate(n, e)


def test_fit_rate_of_means_rejects_bad_input():
    with pytest.raises(ValueError, match="standard_errors must be positive"):
        fit_rate_of_means([1, 2, 3], [1.0, 1.0, 1.0], [1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="distinct"):
        fit_rate_of_means([1, 1, 3], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="tolerance"):
        fit_rate_of_means([1, 2, 3], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0], tolerance=0.0)


def test_merge_moments_names_the_three_lengths_it_was_given():
    """Oracle: the message typed out, with the lengths of counts, means and m2s in that order.

    Kills `lfverify.simulations._intervals.x_merge_moments__mutmut_8` (the message dropped)."""
    with pytest.raises(ValueError) as raised:
        merge_moments([2, 3], [np.zeros(2)], [np.zeros(2), np.zeros(2)])
    assert str(raised.value) == ("merge_moments needs equally long, non-empty counts, means and m2s; got lengths "
                                 "2, 1, 2")


def test_merge_moments_returns_float64_whatever_the_float_type_of_a_later_block():
    """The package's results are float64 (issue 45 item 1): a later block's mean in long double or float32 is read
    as float64, so the merged mean is float64 and equals the merge of the same numbers given as float64 (the
    values below are exact in every one of the three types).  Oracle: the pooled mean (0 x 2 + 1 x 3) / 5 = 0.6 and
    M2 = 0 + 0 + 1^2 x 2 x 3 / 5 = 1.2, by hand.

    Kills `lfverify.simulations._intervals.x_merge_moments__mutmut_38` (the later means kept in their own type)."""
    for dtype in (np.longdouble, np.float32):
        count, mean, m2 = merge_moments([2, 3], [np.zeros(2), np.ones(2, dtype=dtype)], [np.zeros(2), np.zeros(2)])
        assert count == 5 and mean.dtype == np.float64 and m2.dtype == np.float64, dtype
        np.testing.assert_allclose(mean, [0.6, 0.6], rtol=1e-15, atol=0)
        np.testing.assert_allclose(m2, [1.2, 1.2], rtol=1e-15, atol=0)


def test_merge_moments_equals_the_pooled_sample():
    rng = np.random.default_rng(0)
    blocks = [rng.normal(3.0, 2.0, size=(k, 4)) for k in (5, 17, 1, 40)]
    count, mean, m2 = merge_moments([len(b) for b in blocks], [b.mean(axis=0) for b in blocks],
                                    [((b - b.mean(axis=0)) ** 2).sum(axis=0) for b in blocks])
    pooled = np.concatenate(blocks)
    assert count == 63
    np.testing.assert_allclose(mean, pooled.mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(m2, ((pooled - pooled.mean(axis=0)) ** 2).sum(axis=0), rtol=1e-12)
    ci = mean_interval(count=count, mean=mean, m2=m2)
    direct = mean_interval(pooled)
    np.testing.assert_allclose(ci.standard_error, direct.standard_error, rtol=1e-12)
    np.testing.assert_allclose(ci.standard_error, stats.sem(pooled, axis=0), rtol=1e-12)


def test_mean_interval_covers_the_truth_at_its_level_and_not_a_wrong_value():
    """95 % intervals of 2000 samples of 40 normal draws: coverage within 3 binomial s.e. of 95 % for the true
    mean, and far below it for a value 0.5 s.d. away (the companion wrong input)."""
    rng = np.random.default_rng(9)
    draws = rng.normal(1.0, 1.0, size=(2000, 40))
    ci = mean_interval(draws, axis=1)
    coverage = np.mean((ci.low <= 1.0) & (1.0 <= ci.high))
    assert abs(coverage - 0.95) < 3 * np.sqrt(0.95 * 0.05 / 2000)
    assert np.mean((ci.low <= 1.5) & (1.5 <= ci.high)) < 0.2


def test_clopper_pearson_matches_scipy_exact_interval():
    # scipy's binomtest finds the interval by root finding (agrees to ~1e-10 relative), clopper_pearson inverts
    # the beta distribution directly
    for k, n in ((0, 20), (3, 50), (20, 20), (7, 3000)):
        ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        np.testing.assert_allclose(clopper_pearson(k, n), (ref.low, ref.high), rtol=1e-9, atol=1e-15)
    with pytest.raises(ValueError, match="successes"):
        clopper_pearson(5, 3)


def test_mean_interval_rejects_non_finite_and_tiny_input():
    with pytest.raises(ValueError, match="finite"):
        mean_interval([1.0, np.nan, 2.0])
    with pytest.raises(ValueError, match="at least 2"):
        mean_interval([1.0])


def test_check_series_rejects_a_non_finite_mean_even_with_finite_standard_errors():
    """Oracle: the documented rule 'sample_sizes, means and standard_errors must be finite' - a NaN mean with
    finite n and s.e. is rejected with exactly that message.

    Kills: simulations.rates.x__check_series__mutmut_27."""
    with pytest.raises(ValueError, match="^sample_sizes, means and standard_errors must be finite$"):
        fit_rate_of_means([10, 20, 30], [1.0, np.nan, 1.0], [0.1, 0.1, 0.1])
    with pytest.raises(ValueError, match="^sample_sizes, means and standard_errors must be finite$"):
        fit_rate_of_means([10, np.inf, 30], [1.0, 1.0, 1.0], [0.1, 0.1, 0.1])


def test_check_series_rejects_a_zero_sample_size():
    """Oracle: n = 0 is not allowed (sample sizes must be positive, n > 0): [0, 10, 20] is rejected with the
    'positive and distinct' message naming the sizes.

    Kills: simulations.rates.x__check_series__mutmut_37."""
    with pytest.raises(ValueError, match=r"^sample_sizes must be positive and distinct; got \[0\.0, 10\.0, 20\.0\]$"):
        fit_power_law([0, 10, 20], [1.0, 0.5, 0.25], [0.01, 0.01, 0.01])


def test_fit_power_law_inflates_the_covariance_by_chi2_over_dof_on_lack_of_fit():
    """Oracle: scipy's curve_fit with absolute_sigma=False (covariance scaled by chi2/dof, the Birge inflation)
    on the same data, and the t quantile scipy.stats.t.ppf(0.975, dof); the data (a power law plus a planted
    zig-zag far larger than the s.e.) fail the lack-of-fit test.

    Kills: simulations.rates.x_fit_power_law__mutmut_106."""
    from scipy.optimize import curve_fit

    n = np.array([100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0])
    y = 3.0 * n**-0.5 * np.array([1.3, 0.8, 1.25, 0.75, 1.2, 0.85])
    se = 0.01 * 3.0 * n**-0.5
    fit = fit_power_law(n, y, se, expected=-0.5, tolerance=0.2)
    assert fit.lack_of_fit_p < 0.05

    def model(nn, log_c, p):
        return np.exp(log_c + p * np.log(nn))

    params, cov = curve_fit(model, n, y, p0=(np.log(3.0), -0.5), sigma=se, absolute_sigma=False, maxfev=10000)
    q = stats.t.ppf(0.975, n.size - 2)
    slope_se = np.sqrt(cov[1, 1])
    assert fit.slope == pytest.approx(params[1], rel=1e-6)
    assert fit.slope_standard_error == pytest.approx(slope_se, rel=1e-5)
    assert fit.ci_low == pytest.approx(params[1] - q * slope_se, rel=1e-5)
    assert fit.ci_high == pytest.approx(params[1] + q * slope_se, rel=1e-5)


# ---------------------------------------------------------------------- dense textbook oracles (issue 17)
def _dense_wls(design, response, sd):
    """Weighted least squares written out: params = (X'WX)^-1 X'Wy with W = diag(1/sd^2); the covariance
    (X'WX)^-1 for known standard deviations; chi2 = sum of squared standardized residuals."""
    w = 1.0 / sd**2
    bread = np.linalg.inv(design.T @ (w[:, None] * design))
    params = bread @ (design.T @ (w * response))
    chi2 = float(np.sum(w * (response - design @ params) ** 2))
    return params, bread, chi2


def test_fit_rate_uses_hc3_standard_errors_and_the_t_quantile_at_the_requested_level():
    """Oracle: the HC3 sandwich written out (MacKinnon & White 1985): (X'X)^-1 X' diag(e_i^2 / (1 - h_ii)^2)
    X (X'X)^-1, the slope by the normal equations, and scipy's t quantile with N - 2 degrees of freedom at a
    non-default level.  Heteroskedastic errors (spread growing with n) make HC3 differ from the classical s.e.

    Kills: simulations.rates.x_fit_rate__lfv_dropkw_1 (``.fit()`` without ``cov_type="HC3"``)."""
    rng = np.random.default_rng(20201)
    n = np.repeat(SIZES, 4).astype(float)
    errors = n**-0.5 * np.exp((0.05 + 0.1 * np.log(n / 100)) * rng.standard_normal(n.size))
    fit = fit_rate(n, errors, expected=-0.5, tolerance=0.3, level=0.8)
    x = np.column_stack([np.ones(n.size), np.log(n)])
    y = np.log(errors)
    bread = np.linalg.inv(x.T @ x)
    params = bread @ x.T @ y
    resid = y - x @ params
    leverage = np.einsum("ij,jk,ik->i", x, bread, x)
    hc3 = bread @ x.T @ np.diag(resid**2 / (1 - leverage) ** 2) @ x @ bread
    classical = bread * (resid @ resid) / (n.size - 2)
    se = np.sqrt(hc3[1, 1])
    assert abs(se / np.sqrt(classical[1, 1]) - 1) > 0.05  # the two differ here: the check can tell them apart
    q = stats.t.ppf(0.9, n.size - 2)
    assert fit.slope == pytest.approx(params[1], rel=1e-12)
    assert fit.intercept == pytest.approx(params[0], rel=1e-12)
    assert fit.slope_standard_error == pytest.approx(se, rel=1e-10)
    assert (fit.ci_low, fit.ci_high) == pytest.approx((params[1] - q * se, params[1] + q * se), rel=1e-10)
    assert fit.level == 0.8


@pytest.mark.parametrize("level", [0.9, 0.99])
def test_fit_limit_fields_and_interval_against_dense_wls_with_and_without_lack_of_fit(level):
    """Oracle: the WLS normal equations written out; without lack of fit the covariance is (X'WX)^-1 and the
    quantile scipy's normal one; with a planted zig-zag (lack-of-fit p < 0.05) the covariance is inflated by
    chi2 / dof and the quantile is scipy's t with dof = k - 2.  Every field of LimitFit is checked by name at a
    non-default level and exponent.

    Kills: simulations.rates.x_fit_limit__lfv_args_12 (``level`` and ``points`` swapped) and
    x__weighted_fit__lfv_dist_3 (the normal quantile where the t quantile belongs)."""
    n = np.array([100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0])
    se = np.full(n.size, 0.004)
    exponent = -0.75
    design = np.column_stack([np.ones(n.size), n**exponent])
    smooth = 0.07 + 2.0 * n**exponent + se * np.array([0.3, -0.5, 0.2, 0.4, -0.1, -0.3])
    zigzag = smooth + 10 * se * np.array([1, -1, 1, -1, 1, -1])
    for means, inflated in ((smooth, False), (zigzag, True)):
        fit = fit_limit(n, means, se, exponent=exponent, level=level)
        params, cov, chi2 = _dense_wls(design, means, se)
        dof = n.size - 2
        p_lack = stats.chi2.sf(chi2, dof)
        assert bool(p_lack < 0.05) is inflated
        if inflated:
            cov, q = cov * chi2 / dof, stats.t.ppf(0.5 + level / 2, dof)
        else:
            q = stats.norm.ppf(0.5 + level / 2)
        limit_se = np.sqrt(cov[0, 0])
        assert fit.limit == pytest.approx(params[0], rel=1e-12)
        assert fit.coefficient == pytest.approx(params[1], rel=1e-12)
        assert fit.limit_standard_error == pytest.approx(limit_se, rel=1e-10)
        assert fit.ci_low == pytest.approx(params[0] - q * limit_se, rel=1e-10)
        assert fit.ci_high == pytest.approx(params[0] + q * limit_se, rel=1e-10)
        assert fit.lack_of_fit_p == pytest.approx(p_lack, rel=1e-10)
        assert (fit.exponent, fit.level, fit.points) == (exponent, level, n.size)
        assert type(fit.points) is int


@pytest.mark.parametrize("successes, trials", [(True, 5), (1, True), (True, True), (False, 3)])
def test_clopper_pearson_refuses_a_bool_in_either_argument(successes, trials):
    """Oracle: the rule "successes and trials must be ints" (a bool is not a count), for each argument alone.

    Kills: simulations.intervals.x_clopper_pearson__mutmut_4 (``and``: only both bools refused)."""
    with pytest.raises(TypeError, match="^successes and trials must be ints$"):
        clopper_pearson(successes, trials)


@pytest.mark.parametrize("given", [{"count": 5, "mean": 1.0}, {"count": 5, "m2": 2.0}, {"mean": 1.0, "m2": 2.0},
                                   {"count": 5}, {"mean": 1.0}, {"m2": 2.0}, {}])
def test_mean_interval_from_moments_needs_all_three(given):
    """Oracle: the rule "values, or count, mean and m2": any one missing is refused with that message; all three
    give the t interval written out (mean +- t_{0.975, count-1} sqrt(m2 / (count - 1) / count)).

    Kills: simulations.intervals.x_mean_interval__mutmut_29 and _30 (``and`` for one ``or``)."""
    with pytest.raises(ValueError, match="^mean_interval needs values, or count, mean and m2$"):
        mean_interval(**given)
    ci = mean_interval(count=5, mean=1.0, m2=2.0)
    half = stats.t.ppf(0.975, 4) * np.sqrt(2.0 / 4 / 5)
    assert (float(ci.low), float(ci.high)) == pytest.approx((1.0 - half, 1.0 + half), rel=1e-12)


# ---------------------------------------------------------------------- pinned literals (SciPy / statsmodels inside)
@pytest.mark.parametrize("successes, trials, level, low, high", [
    # 1 - 0.025^(1/150): the high end of 0 of 150 in closed form
    (0, 150, 0.95, 0.0, 0.024292597166108544628),
    (3, 50, 0.95, 0.012548587835334061947, 0.16548194660377289308),
    (7, 3000, 0.9, 0.001095601166706350597, 0.0043782144372807439145),
    (20, 20, 0.95, 0.83156652901691466294, 1.0),
])
def test_clopper_pearson_against_mpmath(successes, trials, level, low, high):
    """Oracle: the Clopper-Pearson limits solved in mpmath (40 digits, Illinois root finding on [0, 1]):
    I_low(k, n - k + 1) = (1 - level) / 2 and I_high(k + 1, n - k) = (1 + level) / 2 with I the regularized
    incomplete beta, 0 and 1 at the ends.  (SciPy's binomtest, which root-finds to 2e-12 absolute, misses this
    tolerance: 5.5e-13 relative for 0 of 150, 2.5e-12 for 7 of 3000.)"""
    got = clopper_pearson(successes, trials, level=level)
    assert got == (pytest.approx(low, rel=1e-13, abs=0), pytest.approx(high, rel=1e-13, abs=0))
    assert all(type(v) is float for v in got)


def test_mean_interval_of_the_sleep_data_is_the_textbook_t_interval():
    """Student's sleep data, drug 1 (R's ``t.test(sleep$extra[1:10])``: 95 % CI -0.5297804 2.0297804).  Oracle:
    mean 0.75 and s / sqrt(10) in exact fractions, t_{0.975, 9} = 2.2621571627982055 by mpmath root finding on the
    incomplete beta; the interval 0.75 -+ t s / sqrt(10) to 40 digits."""
    ci = mean_interval([0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0])
    assert float(ci.mean) == pytest.approx(0.75, rel=1e-15, abs=0)
    assert float(ci.standard_error) == pytest.approx(0.56573452745572773248, rel=1e-14, abs=0)
    assert float(ci.low) == pytest.approx(-0.52978041352623256341, rel=1e-13, abs=0)
    assert float(ci.high) == pytest.approx(2.0297804135262325634, rel=1e-13, abs=0)
    assert (ci.count, ci.level) == (10, 0.95)


def test_mean_interval_of_identical_replications_is_the_point_itself():
    """Zero standard error (SciPy's t.interval is NaN for a zero scale): the interval is [mean, mean], per entry,
    while the other entries keep their t interval (t_{0.975, 2} = 4.3026527297494637, mpmath; se = 1 / sqrt 3)."""
    ci = mean_interval(np.array([[2.0, 0.0], [2.0, 1.0], [2.0, 2.0]]))
    np.testing.assert_array_equal(ci.standard_error[0], 0.0)
    assert (ci.low[0], ci.high[0]) == (2.0, 2.0)
    half = 4.3026527297494637 / math.sqrt(3)
    assert (ci.low[1], ci.high[1]) == (pytest.approx(1 - half, rel=1e-13), pytest.approx(1 + half, rel=1e-13))


def test_geometric_mean_interval_of_powers_of_two():
    """1, 2, 4, 8: the logs are (0, 1, 2, 3) ln 2, so the geometric mean is 2^1.5 = 2.8284271247461901 (not the
    arithmetic mean 3.75), the standard error of the mean log ln 2 sqrt(5/3) / 2 = 0.44742458112988226 and the
    95 % interval exp(1.5 ln 2 -+ t_{0.975, 3} se) with t_{0.975, 3} = 3.1824463052837096 (mpmath):
    [0.68100615528897356, 11.747324070228607]."""
    ci = geometric_mean_interval([1.0, 2.0, 4.0, 8.0])
    assert float(ci.mean) == pytest.approx(2.8284271247461901, rel=1e-14, abs=0)
    assert float(ci.standard_error) == pytest.approx(0.44742458112988226121, rel=1e-14, abs=0)
    assert float(ci.low) == pytest.approx(0.68100615528897356229, rel=1e-13, abs=0)
    assert float(ci.high) == pytest.approx(11.747324070228607429, rel=1e-13, abs=0)
    with pytest.raises(ValueError, match="^values must be positive and finite to take logarithms$"):
        geometric_mean_interval([1.0, 0.0, 2.0])


#: log n = 0, 0, 1, 1, 2, 2 and log error = 0, 0.2, 1, 1.2, 1.6, 1.8: OLS line 1/6 + (4/5) log n exactly
_N = np.exp([0.0, 0.0, 1.0, 1.0, 2.0, 2.0])
_ERRORS = np.exp([0.0, 0.2, 1.0, 1.2, 1.6, 1.8])


def test_fit_rate_lack_of_fit_is_the_classical_f_test_worked_exactly():
    """Oracle, in fractions: the group means of log error (1/10, 11/10, 17/10) miss the line 1/6 + 4/5 log n by
    (-1/15, 2/15, -1/15), so the lack-of-fit sum of squares is 2 (1 + 4 + 1) / 225 = 4/75 on 1 degree of freedom,
    the pure-error one 3 x 2 x (1/10)^2 = 3/50 on 3: F = (4/75) / (1/50) = 8/3 and p = P(F(1, 3) > 8/3) =
    I_{3 / (3 + 8/3)}(3/2, 1/2) = 0.20097622619892212559 (mpmath).  The slope's HC3 standard error sqrt(13/1225)
    = 0.10301575072754255123 (the sandwich in fractions, leverages 5/12, 1/6, 5/12)."""
    fit = fit_rate(_N, _ERRORS, expected=0.8, tolerance=1.0)
    assert (fit.slope, fit.intercept) == (pytest.approx(0.8, rel=1e-14), pytest.approx(1 / 6, rel=1e-14))
    assert fit.slope_standard_error == pytest.approx(0.10301575072754255123, rel=1e-13, abs=0)
    assert fit.lack_of_fit_p == pytest.approx(0.20097622619892212559, rel=1e-12, abs=0)
    half = 2.7764451051977943578 * 0.10301575072754255123  # t_{0.975, 4} (mpmath) x se
    assert (fit.ci_low, fit.ci_high) == (pytest.approx(0.8 - half, rel=1e-13), pytest.approx(0.8 + half, rel=1e-13))


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5])
def test_rate_fit_band_refuses_a_level_outside_0_1_by_name(level):
    """Oracle: the message typed out, naming the argument ``level`` and the value received.

    Kills `lfverify.simulations._rates.x_rate_fit_band__mutmut_15` (the argument misnamed in the message)."""
    with pytest.raises(ValueError) as raised:
        rate_fit_band(_N, _ERRORS, [10.0], level=level)
    assert str(raised.value) == f"level must lie in (0.0, 1.0); got {level}"


@pytest.mark.parametrize("log_n, low, high", [
    (0.0, 0.81778360865992138728, 1.7065791125026823394),
    (0.5, 1.3427871279769526951, 2.3130937939665971056),
    (2.0, 4.0505087298314362304, 8.4527416790212240851),
])
def test_rate_fit_band_is_the_hc3_t_band_worked_exactly(log_n, low, high):
    """Oracle: the HC3 covariance of the data above in fractions, [[43/2450, -13/1225], [-13/1225, 13/1225]],
    the variance of 1/6 + 4/5 x at x = log n, t_{0.975, 4} = 2.7764451051977943578 (mpmath), and the band
    exp(1/6 + 4/5 x -+ t sqrt(var)) to 40 digits: the band of the geometric mean error, on the error scale."""
    band_low, band_high = rate_fit_band(_N, _ERRORS, [math.exp(log_n)])
    assert (band_low[0], band_high[0]) == (pytest.approx(low, rel=1e-13, abs=0), pytest.approx(high, rel=1e-13, abs=0))
