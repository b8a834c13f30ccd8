"""Tests of the calibration predicates (Thms. 1, 2, 7 and Prop. 8) in lfverify.calibration.

Oracles: the theorem statements transcribed independently in the tests, bisection for the largest tau,
and hand-evaluated coefficient expressions for Table 1 metrics.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lfverify.calibration import (
    accuracy_calibration,
    fbeta_calibration,
    fbeta_max_tau,
    general_calibration,
    jaccard_calibration,
    jaccard_max_tau,
)
from lfverify.losses import hinge, logistic, sigmoid, tau_logistic
from lfverify.metrics import accuracy, f1, f_beta, jaccard


def _bisect_largest_tau(beta, u):
    """Largest tau in (0, beta^2) with (1 + beta^2) tau / (beta^2 - tau) <= u, by bisection (independent of
    the closed form; the left side increases in tau)."""
    b2 = beta * beta
    lo, hi = 0.0, b2
    for _ in range(200):
        mid = (lo + hi) / 2
        if (1 + b2) * mid / (b2 - mid) <= u:
            lo = mid
        else:
            hi = mid
    return lo


@given(beta=st.floats(0.1, 10), u=st.floats(0.0, 1.0))
def test_fbeta_max_tau_is_the_largest_tau_meeting_theorem_1(beta, u):
    """Thm. 1: tau_max(beta, U*) solves (1 + beta^2) tau / (beta^2 - tau) = U* (oracle: bisection)."""
    assert fbeta_max_tau(beta, u) == pytest.approx(_bisect_largest_tau(beta, u), rel=1e-9, abs=1e-12)


def test_fbeta_tau_range_stated_after_theorem_1():
    """'tau ranges over (0, beta^2/(2 + beta^2)]': at U* = 1 the largest tau is 1/3 for F_1, 4/6 for F_2."""
    assert fbeta_max_tau(1.0) == pytest.approx(1 / 3, rel=1e-15)
    assert fbeta_max_tau(2.0) == pytest.approx(4 / 6, rel=1e-15)


def test_theorem_1_hypotheses_for_the_papers_choice_tau_033():
    """Sec. 6 uses tau = 0.33 for F_1: the bound (1 + 1) 0.33 / (1 - 0.33) = 0.98507... must not exceed U*."""
    loss = tau_logistic(0.33)
    bound = 2 * 0.33 / 0.67
    assert fbeta_calibration(1.0, loss, surrogate_optimum=bound + 1e-9).holds
    report = fbeta_calibration(1.0, loss, surrogate_optimum=bound - 1e-9)
    assert not report.holds and report.failed == [f"U* bound {report.conditions[-1].statement}"]
    assert report.tau == pytest.approx(0.33)  # tau taken from the loss's discrepancy


def test_theorem_1_rejects_a_tau_outside_the_loss_discrepancy_and_nonconvex_losses():
    # tau = 0.2 < discrepancy 0.33: phi is not 0.2-discrepant
    report = fbeta_calibration(1.0, tau_logistic(0.33), surrogate_optimum=1.0, tau=0.2)
    assert [c.label for c in report.conditions if not c.holds] == ["(a) tau-discrepant"]
    # the plain logistic loss has discrepancy 1 = beta^2: outside (0, beta^2)
    report = fbeta_calibration(1.0, logistic(), surrogate_optimum=1.0)
    assert "tau in (0, beta^2)" in [c.label for c in report.conditions if not c.holds]
    report = fbeta_calibration(2.0, sigmoid(), surrogate_optimum=1.0)
    assert "phi convex" in [c.label for c in report.conditions if not c.holds]


def test_theorem_2_hypotheses():
    """Thm. 2: tau in (0, 1), tau-discrepant, U* >= tau (Sec. 6 uses tau = 0.75 for Jaccard)."""
    loss = tau_logistic(0.75)
    assert jaccard_calibration(loss, surrogate_optimum=0.75).holds
    assert not jaccard_calibration(loss, surrogate_optimum=0.7499).holds
    assert not jaccard_calibration(logistic(), surrogate_optimum=1.0).holds  # tau = 1 is excluded
    assert jaccard_max_tau(0.6) == 0.6


def test_proposition_8_accuracy_needs_no_discrepancy_but_differentiability_at_zero():
    for loss in (logistic(), hinge()):  # the hinge's kink is at 1, not 0
        assert accuracy_calibration(loss).holds
    assert not accuracy_calibration(sigmoid()).holds  # not convex
    # a kink at 0 is excluded by "phi'(0) < 0"; with it the surrogate maximiser can sit at f = 0
    assert not accuracy_calibration(tau_logistic(0.1)).holds


def test_accuracy_kink_counterexample_behind_the_differentiability_reading():
    """Why Prop. 8 needs phi differentiable at 0 (oracle: one-sided derivatives of the pointwise surrogate
    score written by hand): for the tau-logistic with tau = 1/2 and eta = 3/5 > 1/2 the pointwise objective
    (1 - phi(f)) eta - phi(-f)(1 - eta) increases up to f = 0 and decreases after it, so its maximiser is
    f = 0, which sgn(0) = -1 predicts negative although the Bayes classifier predicts +1."""
    import math

    tau, eta = 0.5, 0.6
    slope_left, slope_right = -1 / (2 * math.log(2)), -tau / (2 * math.log(2))  # phi'(0-), phi'(0+)
    right_derivative = -slope_right * eta + slope_left * (1 - eta)  # d/df at 0+: phi(-f) is on its left piece
    left_derivative = -slope_left * eta + slope_right * (1 - eta)  # d/df at 0-
    assert right_derivative < 0 < left_derivative
    loss = tau_logistic(tau)
    assert right_derivative == pytest.approx(-float(loss.derivative(0.0, side="right")) * eta
                                             + float(loss.derivative(0.0, side="left")) * (1 - eta), rel=1e-15)


def test_theorem_reports_carry_the_proven_caveats():
    report = fbeta_calibration(1.0, tau_logistic(0.05), surrogate_optimum=0.189394)
    assert report.holds and any("kink at 0" in c for c in report.caveats)
    assert fbeta_calibration(1.0, tau_logistic(0.05, base=3.0), surrogate_optimum=0.19).caveats[-1].startswith(
        "phi does not dominate")
    assert general_calibration(accuracy(), logistic(), surrogate_optimum=0.8, true_utility_at_optimum=0.8,
                               tau=0.5).caveats[-1].startswith("condition (b) as printed")


@given(beta=st.floats(0.2, 5), tau_fraction=st.floats(0.01, 0.99), u=st.floats(0.01, 1.0),
       u_true=st.floats(0.01, 1.0))
def test_theorem_7_condition_b_reduces_to_theorem_1_for_f_beta(beta, tau_fraction, u, u_true):
    """For F_beta (a_{0,-1} = 0) condition (b) of Thm. 7 is exactly Thm. 1's bound on U*.

    Oracle: (b) written out for F_beta by hand: tau <= beta^2 U* / (1 + beta^2 + U*).
    """
    b2 = beta * beta
    tau = tau_fraction * min(b2, 1.0)
    report = general_calibration(f_beta(beta), tau_logistic(min(tau, 1.0)), surrogate_optimum=u,
                                 true_utility_at_optimum=u_true, tau=tau)
    cond_b = next(c for c in report.conditions if c.label == "(b)")
    by_hand = tau <= b2 * u / (1 + b2 + u)
    if abs(tau - b2 * u / (1 + b2 + u)) > 1e-12:  # away from the boundary, where rounding may differ
        assert cond_b.holds == by_hand


def test_theorem_7_structural_conditions_for_table_1_metrics():
    """Conditions (1)-(5) evaluated by hand: F_1 and Jaccard satisfy them; accuracy fails (5)
    (a_{0,+1} a_{1,-1} + a_{0,-1} a_{1,+1} = 1*0 + (-1)*0 = 0), so Thm. 7 does not cover accuracy."""
    loss = tau_logistic(0.3)
    for metric in (f1(), jaccard()):
        report = general_calibration(metric, loss, surrogate_optimum=0.9, true_utility_at_optimum=0.9)
        structural = {c.label: c.holds for c in report.conditions if c.label in {"(1)", "(2)", "(3)", "(4)", "(5)"}}
        assert structural == {"(1)": True, "(2)": True, "(3)": True, "(4)": True, "(5)": True}
    report = general_calibration(accuracy(), loss, surrogate_optimum=0.9, true_utility_at_optimum=0.9)
    assert {c.label for c in report.conditions if not c.holds} >= {"(5)"}


def test_theorem_7_condition_b_as_printed_is_negative_for_accuracy():
    """Pins the printed form of (b): for accuracy it is (1 - 0)/(0 + (-1)) * (1 + 0)/(1 + 0) = -1, so no tau > 0
    satisfies it; the proof's H(1) with (a_{1,-1} - a_{0,-1}) would give +1.  Issue 3 decides which is right."""
    report = general_calibration(accuracy(), logistic(), surrogate_optimum=0.8, true_utility_at_optimum=0.8,
                                 tau=0.5)
    cond_b = next(c for c in report.conditions if c.label == "(b)")
    assert not cond_b.holds and "-1" in cond_b.statement


def test_theorem_7_reports_a_metric_outside_definition_1():
    """Gower-Legendre(2) violates a_{1,+1} >= 0: Thm. 7's report must say so instead of assuming Definition 1."""
    from lfverify.metrics import gower_legendre

    report = general_calibration(gower_legendre(2.0), tau_logistic(0.3), surrogate_optimum=0.8,
                                 true_utility_at_optimum=0.8)
    failed = [c for c in report.conditions if not c.holds]
    assert failed[0].label == "Def. 1" and "a_{1,+1} >= 0" in failed[0].statement and not report.holds


def test_metric_calibration_report_dispatches_by_family():
    reports = f1().calibration_report(tau_logistic(0.33), surrogate_optimum=0.99, true_utility_at_optimum=0.9)
    assert [r.theorem.split(" ")[1] for r in reports] == ["1", "7"]
    reports = jaccard().calibration_report(tau_logistic(0.75), surrogate_optimum=0.8)
    assert [r.theorem for r in reports] == ["Thm. 2 (Jaccard-calibration)"]
    assert "hypotheses hold" in str(reports[0])


def test_bad_input():
    with pytest.raises(ValueError, match="tau must lie in"):
        fbeta_calibration(1.0, tau_logistic(0.33), surrogate_optimum=0.9, tau=0.0)
    with pytest.raises(ValueError, match="surrogate_optimum must lie in"):
        jaccard_calibration(tau_logistic(0.5), surrogate_optimum=1.5)
    with pytest.raises(ValueError, match="beta must lie in"):
        fbeta_max_tau(-1.0)
    with pytest.raises(TypeError, match="surrogate_optimum must be a real number"):
        fbeta_calibration(1.0, tau_logistic(0.33), surrogate_optimum="high")
    assert math.isfinite(fbeta_max_tau(1.0, 0.0))


def test_metric_calibration_report_passes_an_explicit_tau_through():
    """An explicit tau reaches every report (a surviving mutant once dropped it in the dispatch)."""
    reports = f1().calibration_report(tau_logistic(0.33), surrogate_optimum=0.99, true_utility_at_optimum=0.9,
                                      tau=0.5)
    assert [r.tau for r in reports] == [0.5, 0.5]
    assert not reports[0].holds  # 2 * 0.5 / (1 - 0.5) = 2 > 0.99
