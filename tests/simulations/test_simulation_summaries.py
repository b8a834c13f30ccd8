"""The studies' summaries and rows built from tiny hand-made inputs, checked against values computed by hand.

Oracles: hand arithmetic on the rows given (means, standard errors s / sqrt(R)), scipy's Student-t and normal
quantiles for the intervals and the Bonferroni quantile, truth tables at the ends of an interval, and spies that
record what each step of a study receives (the fit of the limit, the maximisers, the pointwise optimum).

Private: lfverify.simulations._study_calibration, _study_consistency and _study_unbiasedness (their _summarize, with
what they call patched), _maximisers.PopulationMaximiser and _rates.LimitFit, the studies' summaries tested on planted
results.
"""

import math

import numpy as np
import pytest
from scipy import stats

import lfverify.simulations._study_calibration as cal
import lfverify.simulations._study_consistency as con
import lfverify.simulations._study_unbiasedness as ub
from lfverify.core import GaussianEta, PointwiseOptimum, fbeta_calibration, tau_logistic
from lfverify.simulations import replication_blocks
from lfverify.simulations._maximisers import PopulationMaximiser
from lfverify.simulations._rates import LimitFit

pytestmark = pytest.mark.claims("package:simulation-engine")  # the summaries' arithmetic on hand-made rows


# ---------------------------------------------------------------------------------------------- unbiasedness
#: one block of 101 replications per key; M2 = 2525 gives s^2 = 2525 / 100 and se = sqrt(25.25 / 101) = 0.5
_COUNT, _M2, _SE = 101, 2525.0, 0.5
_SPLIT_MEANS = [0.1, -0.2, 0.3, -0.4, 0.5, -0.6]
_SAME_MEANS = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2]
#: B of every (population, metric); at n = 4, B / n = (0.1, ..., 0.6)
_B = np.array([[0.4, 0.8], [1.2, 1.6], [2.0, 2.4]])


def _unbiasedness_rows(sizes):
    rows = []
    for pop_name in ("finite", "bounded-logistic"):
        for metric_name in ("F1", "Jaccard"):
            for n in sizes:
                for estimator, means, projection in (("split", _SPLIT_MEANS, 0.05), ("same-sample", _SAME_MEANS, 0.3)):
                    row = {"population": pop_name, "metric": metric_name, "n": n, "first": 0, "count": _COUNT,
                           "estimator": estimator, "projection_mean": projection, "projection_m2": _M2}
                    for i, (k, j) in enumerate([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]):
                        row[f"mean_{k}_{j}"] = means[i]
                        row[f"m2_{k}_{j}"] = _M2
                    rows.append(row)
    return rows


def test_unbiasedness_summary_of_hand_made_rows():
    """Oracle: by hand, for one block of 101 replications with M2 = 2525 per entry (se = 0.5): the split table
    reports the means and z = mean / se (max |z| = 0.6 / 0.5 = 1.2); the same-sample table the means, se, the exact
    bias B / n, z against (B / n, 1/n) and the projection's z against 0, 0.3 / 0.5 = 0.6 (the projection, not the
    last entry 1.2); the Bonferroni quantile is scipy's normal quantile at 1 - 0.05 / (16 keys x 7 entries) two-
    sided.  Two sample sizes are too few for the power-law fit: the rate is the documented "no fit" dict.

    Kills `lfverify.simulations._study_unbiasedness.x__summarize__mutmut_115` (the key same_sample_standard_error
    misspelt), `x__summarize__mutmut_159` (mean[-2] in the projection's z), `x__summarize__mutmut_187` (the key
    holds of the no-fit rate misspelt)."""
    context = {(p, m): {"bias_coefficient": _B} for p in ("finite", "bounded-logistic") for m in ("F1", "Jaccard")}
    summary = ub._summarize(_unbiasedness_rows([4, 16]), {"sample_sizes": [16, 4]}, context)
    per_entry = 1.0 - (1.0 - 0.95) / 112
    q = stats.norm.ppf(0.5 + per_entry / 2)
    assert summary["family_level"] == 0.95
    assert summary["per_entry_level"] == pytest.approx(per_entry, rel=1e-15, abs=0)
    assert summary["per_entry_quantile"] == pytest.approx(q, rel=1e-12, abs=0)
    assert summary["verdicts"] == {"split_unbiased": True, "same_sample_bias_matches": True,
                                   "same_sample_bias_visible": False, "same_sample_rate": False}
    assert summary["lemma3_unbiased"] is True
    assert list(summary["settings"]) == ["finite/F1", "finite/Jaccard", "bounded-logistic/F1",
                                         "bounded-logistic/Jaccard"]
    s = summary["settings"]["bounded-logistic/Jaccard"]
    assert s["same_sample_rate"] == {"verdict": "no fit: a fit needs at least 3 sample sizes; got 2", "holds": False}
    assert (s["split_unbiased"], s["same_sample_bias_matches"], s["same_sample_bias_visible"]) == (True, True, False)
    assert s["same_sample_bias_coefficient"] == [[0.4, 0.8], [1.2, 1.6], [2.0, 2.4]]
    assert [row["n"] for row in s["table"]] == [4, 16]
    first = s["table"][0]
    assert set(first) == {
        "n", "replications", "split_mean", "split_standard_error", "split_max_abs_z", "split_covers_zero",
        "split_projection", "split_projection_standard_error", "same_sample_mean", "same_sample_standard_error",
        "same_sample_exact_bias", "same_sample_projection", "same_sample_projection_standard_error",
        "same_sample_max_abs_z_vs_exact", "same_sample_covers_exact", "same_sample_projection_z_vs_zero"}
    assert first["replications"] == 101
    assert first["split_mean"] == _SPLIT_MEANS and first["same_sample_mean"] == _SAME_MEANS
    assert first["split_standard_error"] == pytest.approx([0.5] * 6, rel=1e-15, abs=0)
    assert first["same_sample_standard_error"] == pytest.approx([0.5] * 6, rel=1e-15, abs=0)
    assert first["split_max_abs_z"] == pytest.approx(1.2, rel=1e-14, abs=0)
    assert first["split_projection"] == 0.05
    assert first["split_projection_standard_error"] == pytest.approx(0.5, rel=1e-15, abs=0)
    assert first["same_sample_exact_bias"] == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], rel=1e-15, abs=0)
    assert first["same_sample_projection"] == 0.3
    assert first["same_sample_projection_standard_error"] == pytest.approx(0.5, rel=1e-15, abs=0)
    # z against (B / 4, 1/4): (0.1, ..., 0.6) / 0.5 and (0.3 - 0.25) / 0.5
    assert first["same_sample_max_abs_z_vs_exact"] == pytest.approx(1.2, rel=1e-14, abs=0)
    assert first["same_sample_projection_z_vs_zero"] == pytest.approx(0.6, rel=1e-14, abs=0)
    assert first["split_covers_zero"] is True and first["same_sample_covers_exact"] is True
    # at n = 16, B / 16 = (0.025, ..., 0.15): z = (0.2 - 0.025, ..., 1.2 - 0.15) / 0.5, largest 2.1
    second = s["table"][1]
    assert second["same_sample_exact_bias"] == pytest.approx([0.025, 0.05, 0.075, 0.1, 0.125, 0.15], rel=1e-15)
    assert second["same_sample_max_abs_z_vs_exact"] == pytest.approx(2.1, rel=1e-14, abs=0)


def test_unbiasedness_summary_visible_bias_truth_table():
    """Oracle: "visible" is z_vs_zero > q at the smallest n (strict), with q scipy's normal quantile; the
    projection's mean is set to q * se exactly (not visible) and to the next double above it (visible).

    Kills `lfverify.simulations._study_unbiasedness.x__summarize__mutmut_159` too (the projection's z read from the last
    entry, 1.2 / 0.5, would not straddle q)."""
    context = {(p, m): {"bias_coefficient": _B} for p in ("finite", "bounded-logistic") for m in ("F1", "Jaccard")}
    q = stats.norm.ppf(0.5 + (1.0 - (1.0 - 0.95) / 112) / 2)
    for projection, visible in ((q * _SE, False), (np.nextafter(q * _SE, np.inf), True)):
        rows = _unbiasedness_rows([4, 16])
        for row in rows:
            if row["estimator"] == "same-sample" and row["n"] == 4:
                row["projection_mean"] = projection
        summary = ub._summarize(rows, {"sample_sizes": [4, 16]}, context)
        assert summary["verdicts"]["same_sample_bias_visible"] is visible
        assert all(s["same_sample_bias_visible"] is visible for s in summary["settings"].values())


# ---------------------------------------------------------------------------------------------- calibration
def _population_row(metric, tau, *, max_tau, hold=False):
    row = {"kind": "population", "metric": metric, "tau": tau, "bayes_utility": 0.8, "linear_true_utility": 0.78,
           "linear_surrogate_utility": 0.6, "linear_gap": 0.02, "surrogate_optimum": 0.65, "kink_low": 0.3,
           "kink_high": 0.6, "kink_mass": 0.1, "bayes_threshold": 0.4, "sign_utility": 0.8, "sign_gap": 0.0,
           "kink_by_bayes_gap": 0.0, "hypotheses_hold": hold, "failed_hypotheses": "" if hold else "tau too small",
           "max_tau": max_tau, "gradient_direction_norm": 1e-14, "max_hessian_eigenvalue": -0.5,
           "start_spread": 1e-9, "theta_1": 1.5, "theta_2": 0.75, "theta_3": -0.25}
    return row


def _calibration_rows():
    rows = []
    for metric in ("F1", "Jaccard"):
        rows.append(_population_row(metric, 0.33, max_tau=0.44, hold=metric == "F1"))
        rows.append(_population_row(metric, 0.75, max_tau=0.77))
        tau = 0.33 if metric == "F1" else 0.75
        for n, true in ((100, (0.5, 0.6)), (400, (0.7, 0.74)), (1600, (0.76, 0.78))):
            rows += [{"kind": "sample", "metric": metric, "tau": tau, "n": n, "replication": i, "true_utility": t}
                     for i, t in enumerate(true)]
        for tau, true in ((0.33, (0.79, 0.77, 0.78)), (0.75, (0.7, 0.72, 0.74))):
            rows += [{"kind": "sweep", "metric": metric, "tau": tau, "n": 5000, "replication": i, "true_utility": t}
                     for i, t in enumerate(true)]
    return rows


class _LimitSpy:
    """Stands in for fit_limit: records its arguments and returns a fit with the given interval."""

    def __init__(self, ci_low, ci_high):
        self.calls, self.ci = [], (ci_low, ci_high)

    def __call__(self, sample_sizes, means, standard_errors):
        self.calls.append((list(sample_sizes), list(means), list(standard_errors)))
        return LimitFit(0.01, 0.005, self.ci[0], self.ci[1], 0.5, -0.5, 0.95, 3, 0.4)


def test_calibration_summary_of_hand_made_rows(monkeypatch):
    """Oracle: by hand from the rows (U-dagger = 0.8): per n the gaps 0.8 - U, their mean, se = s / sqrt(2)
    (|difference| / 2 for two values) and the Student-t interval with 1 degree of freedom (scipy); the sweep's
    measured gap over 3 replications with t at 2 degrees of freedom; the fit of the limit receives the table (a
    spy); max_admissible_tau_at_tau_max is the max_tau of the last tau of the sweep (0.75 -> 0.77, not 0.44).

    Kills `lfverify.simulations._study_calibration.x__summarize__mutmut_222` (entries[-2])."""
    spy = _LimitSpy(-0.01, 0.03)
    monkeypatch.setattr(cal, "fit_limit", spy)
    summary = cal._summarize(_calibration_rows(), {"taus": ["0.33", "0.75"], "sweep_n": 5000}, {})
    t1 = stats.t.ppf(0.975, 1)
    gaps = {100: (0.3, 0.2), 400: (0.1, 0.06), 1600: (0.04, 0.02)}
    for metric in ("F1", "Jaccard"):
        table = summary["main"][metric]["table"]
        assert [t["n"] for t in table] == [100, 400, 1600] and [t["replications"] for t in table] == [2, 2, 2]
        for t, (a, b) in zip(table, gaps.values()):
            mean, se = (a + b) / 2, abs(a - b) / 2
            assert t["mean_gap"] == pytest.approx(mean, rel=1e-13, abs=0)
            assert t["standard_error"] == pytest.approx(se, rel=1e-12, abs=0)
            assert [t["ci_low"], t["ci_high"]] == pytest.approx([mean - t1 * se, mean + t1 * se], rel=1e-12, abs=0)
        assert summary["main"][metric]["limit_fit"] == {
            "limit": 0.01, "limit_standard_error": 0.005, "ci_low": -0.01, "ci_high": 0.03, "coefficient": 0.5,
            "exponent": -0.5, "level": 0.95, "points": 3, "lack_of_fit_p": 0.4}
    assert len(spy.calls) == 2
    for n, means, ses in spy.calls:
        assert n == [100, 400, 1600]
        assert means == pytest.approx([0.25, 0.08, 0.03], rel=1e-13, abs=0)
        assert ses == pytest.approx([0.05, 0.02, 0.01], rel=1e-12, abs=0)
    f1_main = summary["main"]["F1"]
    assert f1_main["tau"] == 0.33 and summary["main"]["Jaccard"]["tau"] == 0.75
    assert f1_main["verdict"] == ("U-dagger - U(theta_hat_n) -> 0.01000 [-0.01000, 0.03000] (fit a + b n^-1/2); "
                                  "exact U-dagger - U(theta*) = 0.02000; hypotheses of Thm. 1 hold")
    assert summary["main"]["Jaccard"]["verdict"] == (
        "U-dagger - U(theta_hat_n) -> 0.01000 [-0.01000, 0.03000] (fit a + b n^-1/2); exact U-dagger - U(theta*) = "
        "0.02000; hypotheses of Thm. 2 fail: tau too small")
    assert f1_main["population"]["theta_star"] == [1.5, 0.75, -0.25]
    t2 = stats.t.ppf(0.975, 2)
    for metric in ("F1", "Jaccard"):
        s = summary["sweep"][metric]
        assert [e["tau"] for e in s["entries"]] == [0.33, 0.75]
        assert s["max_admissible_tau_at_tau_max"] == 0.77
        assert s["proven_taus"] == ([0.33] if metric == "F1" else [])
        last = s["entries"][-1]
        assert (last["n"], last["replications"]) == (5000, 3)
        # gaps 0.1, 0.08, 0.06: mean 0.08, s = 0.02, se = 0.02 / sqrt(3)
        assert last["measured_gap"] == pytest.approx(0.08, rel=1e-13, abs=0)
        se = 0.02 / math.sqrt(3)
        assert last["measured_gap_ci"] == pytest.approx([0.08 - t2 * se, 0.08 + t2 * se], rel=1e-12, abs=0)
    # F_1 at tau = 0.33 meets the hypotheses with a linear gap of 0.02 > GAP_ZERO (and a sign gap of 0)
    assert summary["findings"] == ["F1, tau = 0.33: linear model (contains the Bayes classifier): U(theta*) = "
                                   "0.78000 < U-dagger by 0.02000 although the hypotheses hold"]
    assert summary["verdicts"] == {
        "calibrated_where_hypotheses_hold_all_f": True, "weak_form_holds_all_f": True,
        "F1/linear_theta_star_attains_bayes": False, "F1/linear_limit_matches_theta_star": True,
        "F1/linear_limit_ci_covers_zero": True,
        "Jaccard/linear_theta_star_attains_bayes": False, "Jaccard/linear_limit_matches_theta_star": True,
        "Jaccard/linear_limit_ci_covers_zero": True}


@pytest.mark.parametrize("ci_low, ci_high, covers_zero, covers_gap", [
    (0.0, 0.01, True, False),  # 0 at the lower end is covered
    (-0.01, 0.0, True, False),  # 0 at the upper end is covered
    (5e-324, 0.01, False, False),  # the smallest double above 0: 0 is outside
    (-0.01, -5e-324, False, False),
    (0.02, 0.03, False, True),  # the linear gap 0.02 at the lower end is covered
    (-0.01, 0.02, True, True),  # ... and at the upper end
    (np.nextafter(0.02, 1.0), 0.03, False, False),  # the next double above 0.02
    (0.01, np.nextafter(0.02, 0.0), False, False),  # the next double below 0.02
])
def test_calibration_limit_interval_truth_table(monkeypatch, ci_low, ci_high, covers_zero, covers_gap):
    """Oracle: a truth table for the closed intervals [ci_low, ci_high] of the fitted limit (a spy for fit_limit)
    against 0 and the exact linear gap 0.02 of the hand-made rows, at both ends and one double outside them.

    Kills `lfverify.simulations._study_calibration.x__summarize__mutmut_92` (ci_low < 0 in limit_covers_zero)."""
    monkeypatch.setattr(cal, "fit_limit", _LimitSpy(ci_low, ci_high))
    summary = cal._summarize(_calibration_rows(), {"taus": ["0.33", "0.75"], "sweep_n": 5000}, {})
    for metric in ("F1", "Jaccard"):
        assert summary["main"][metric]["limit_covers_zero"] is covers_zero
        assert summary["main"][metric]["limit_covers_linear_gap"] is covers_gap
        assert summary["verdicts"][f"{metric}/linear_limit_ci_covers_zero"] is covers_zero
        assert summary["verdicts"][f"{metric}/linear_limit_matches_theta_star"] is covers_gap


@pytest.mark.parametrize("R, n, samples_per_task, blocks", [
    (10, 100, 300, [(0, 3), (3, 3), (6, 3), (9, 1)]),  # 3 replications per task, the last block short
    (5, 100, 50, [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]),  # fewer samples than n: one replication per task
    (4, 100, 10**6, [(0, 4)]),  # all replications fit in one task
    (7, 10, 35, [(0, 3), (3, 3), (6, 1)]),
])
def test_replication_blocks_cover_every_replication_once(R, n, samples_per_task, blocks):
    """Oracle: the (first, count) blocks typed out by hand: per_task = max(1, min(R, samples_per_task // n))
    replications per task, consecutive, covering 0..R-1 exactly once.

    Kills a range(0, per_task, R) in lfverify.simulations._replications.replication_blocks."""
    assert replication_blocks(R, n, samples_per_task) == blocks


def test_calibration_population_row_forwards_each_step_and_names_every_component(monkeypatch):
    """Oracle: spies for the two maximisers return hand-typed results (theta* = (1.5, 0.75, -0.25), U_phi(theta*) =
    0.625); the pointwise optimum must start Dinkelbach's iteration from U_phi(theta*) (0.625), not from another
    field of the linear maximiser, and the row must hold every value, theta* as theta_1, theta_2, theta_3, and
    the printed hypotheses of Thm. 1 (lfverify.core._calibration_conditions.fbeta_calibration called here).

    Kills `lfverify.simulations._study_calibration.x__population_row__mutmut_88` (theta_{j + 2}) and
    `x__population_row__lfv_start_1` (start=opt.start_spread)."""
    bayes = cal.POPULATION.bayes_optimal_utility(cal.METRICS["F1"])
    received = {}

    def linear(population, metric, loss, *, starts):
        received["linear"] = (population, metric.name, loss.tau, np.array(starts))
        return PopulationMaximiser(np.array([1.5, 0.75, -0.25]), 0.625, 0.7, 1e-13, 2e-14,
                                   np.array([-3.0, -1.0, -0.5]), 1e-9)

    def pointwise(metric, loss, distribution, *, bayes_utility, start):
        received["pointwise"] = (metric.name, loss.tau, type(distribution), bayes_utility, start)
        return PointwiseOptimum(0.65, 0.3, 0.6, 0.1, 0.4, bayes_utility, 0.75, 0.79, 5)

    monkeypatch.setattr(cal, "population_maximiser", linear)
    monkeypatch.setattr(cal, "pointwise_surrogate_optimum", pointwise)
    row = cal._population_row("F1", "0.33")
    assert received["linear"][0] is cal.POPULATION and received["linear"][1:3] == ("F_1", 0.33)
    np.testing.assert_array_equal(received["linear"][3], [[1.0, 0.5, 0.0], [3.0, 1.0, 0.5], [0.5, 0.5, -0.5],
                                                          [6.0, 2.0, 1.0]])
    assert received["pointwise"] == ("F_1", 0.33, GaussianEta, bayes, 0.625)
    report = fbeta_calibration(1.0, tau_logistic(0.33), surrogate_optimum=0.65, tau=0.33)
    assert row == {
        "kind": "population", "metric": "F1", "tau": 0.33, "bayes_utility": bayes,
        "linear_surrogate_utility": 0.625, "linear_true_utility": 0.7, "linear_gap": bayes - 0.7,
        "gradient_direction_norm": 2e-14, "max_hessian_eigenvalue": -0.5, "start_spread": 1e-9,
        "surrogate_optimum": 0.65, "kink_low": 0.3, "kink_high": 0.6, "kink_mass": 0.1, "bayes_threshold": 0.4,
        "sign_utility": 0.75, "sign_gap": bayes - 0.75, "kink_by_bayes_gap": bayes - 0.79,
        "hypotheses_hold": report.holds, "failed_hypotheses": "; ".join(report.failed), "max_tau": report.max_tau,
        "theta_1": 1.5, "theta_2": 0.75, "theta_3": -0.25}


# ---------------------------------------------------------------------------------------------- consistency
def _consistency_rows():
    """theta* = (1, 0) with U_phi = 0.5, U = 0.6; each sample row at distance d along theta_1, surrogate gap g and
    true gap t (negative for one row: |t| differs from t)."""
    rows = []
    for metric, tau in (("F1", 0.33), ("Jaccard", 0.75)):
        rows.append({"kind": "population", "metric": metric, "tau": tau, "surrogate_utility": 0.5,
                     "true_utility": 0.6, "gradient_norm": 1e-13, "gradient_direction_norm": 1e-12,
                     "max_hessian_eigenvalue": -0.5, "start_spread": 1e-8, "bayes_utility": 0.7,
                     "theta_1": 1.0, "theta_2": 0.0})
        for n, values in ((100, ((0.4, 0.2, 0.1), (0.2, 0.1, -0.02))), (400, ((0.2, 0.05, 0.04), (0.1, 0.03, 0.02))),
                          (1600, ((0.1, 0.01, 0.02), (0.05, 0.008, 0.01)))):
            for i, (d, g, t) in enumerate(values):
                rows.append({"kind": "sample", "metric": metric, "tau": tau, "n": n, "replication": i,
                             "empirical_surrogate_utility": 0.55, "converged": i == 0, "iterations": 7,
                             "surrogate_utility": 0.5 - g, "true_utility": 0.6 - t, "theta_1": 1.0 + d,
                             "theta_2": 0.0})
    return rows


def test_consistency_summary_table_of_hand_made_rows():
    """Oracle: by hand, per n, two replications (a, b): mean (a + b) / 2 and se |a - b| / 2 of the distance, the
    surrogate gap, the true gap and its absolute value (at n = 100 the true gaps 0.1 and -0.02: mean 0.04, mean
    of |.| 0.06), and the fraction converged 1/2.

    Kills `lfverify.simulations._study_consistency.x__summarize__mutmut_62` (the true_gap columns misnamed)."""
    summary = con._summarize(_consistency_rows(), {}, {})
    values = {100: ((0.4, 0.2, 0.1), (0.2, 0.1, -0.02)), 400: ((0.2, 0.05, 0.04), (0.1, 0.03, 0.02)),
              1600: ((0.1, 0.01, 0.02), (0.05, 0.008, 0.01))}
    for metric in ("F1", "Jaccard"):
        s = summary["settings"][metric]
        assert s["theta_star"] == [1.0, 0.0]
        assert s["theta_star_certificates"] == {"gradient_norm": 1e-13, "gradient_direction_norm": 1e-12,
                                                "max_hessian_eigenvalue": -0.5, "start_spread": 1e-8}
        for row, (n, (first, second)) in zip(s["table"], values.items()):
            assert set(row) == {"n", "replications", "converged_fraction"} | {
                f"{stat}_{name}" for stat in ("mean", "standard_error")
                for name in ("distance", "surrogate_gap", "true_gap", "true_gap_abs")}
            assert (row["n"], row["replications"], row["converged_fraction"]) == (n, 2, 0.5)
            for k, name in enumerate(("distance", "surrogate_gap", "true_gap")):
                a, b = first[k], second[k]
                assert row[f"mean_{name}"] == pytest.approx((a + b) / 2, rel=1e-12, abs=1e-15)
                assert row[f"standard_error_{name}"] == pytest.approx(abs(a - b) / 2, rel=1e-10, abs=1e-15)
            a, b = abs(first[2]), abs(second[2])
            assert row["mean_true_gap_abs"] == pytest.approx((a + b) / 2, rel=1e-12, abs=1e-15)
            assert row["standard_error_true_gap_abs"] == pytest.approx(abs(a - b) / 2, rel=1e-10, abs=1e-15)
        assert summary["settings"][metric]["table"][0]["mean_true_gap"] == pytest.approx(0.04, rel=1e-12)
        assert summary["settings"][metric]["table"][0]["mean_true_gap_abs"] == pytest.approx(0.06, rel=1e-12)
