"""Tests of the calibration predicates (Thms. 1, 2, 7 and Prop. 8) in lfverify.core._calibration_conditions.

Oracles: the theorem statements transcribed independently in the tests, bisection for the largest tau,
and hand-evaluated coefficient expressions for Table 1 metrics.  At the comparison rules' boundaries (issue 45,
item 3): dyadic data whose bounds are exact in binary (checked with Fractions), the hypotheses evaluated at the
bound, one double below and one above (``np.nextafter``).  Dinkelbach's stopping rule (item 5): the iterates
computed step by step with the module's own pointwise maximiser, and the rule "new <= u + tol" of the docstring at
tol equal to the observed increase, at the largest tol that stops short of it, and at 0.  Each boundary check has a
companion on a planted variant (tests/planted.py, a comparison swapped) that fails it.

Private: lfverify.core._calibration_conditions and lfverify.core._pointwise_optimum, whose fbeta_calibration,
jaccard_calibration, general_calibration and pointwise_surrogate_optimum the companions replace by planted
variants, and whose _maximiser gives the Dinkelbach iterates step by step.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lfverify.core import (
    accuracy,
    accuracy_calibration,
    calibration_reports,
    f1,
    f_beta,
    fbeta_calibration,
    fbeta_max_tau,
    general_calibration,
    hinge,
    jaccard,
    jaccard_calibration,
    jaccard_max_tau,
    logistic,
    sigmoid,
    tau_logistic,
)


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


@pytest.mark.claims("Theorem 1")
@given(beta=st.floats(0.1, 10), u=st.floats(0.0, 1.0))
def test_fbeta_max_tau_is_the_largest_tau_meeting_theorem_1(beta, u):
    """Thm. 1: tau_max(beta, U*) solves (1 + beta^2) tau / (beta^2 - tau) = U* (oracle: bisection)."""
    assert fbeta_max_tau(beta, u) == pytest.approx(_bisect_largest_tau(beta, u), rel=1e-9, abs=1e-12)


@pytest.mark.claims("Theorem 1")
def test_fbeta_tau_range_stated_after_theorem_1():
    """'tau ranges over (0, beta^2/(2 + beta^2)]': at U* = 1 the largest tau is 1/3 for F_1, 4/6 for F_2."""
    assert fbeta_max_tau(1.0) == pytest.approx(1 / 3, rel=1e-15, abs=0)
    assert fbeta_max_tau(2.0) == pytest.approx(4 / 6, rel=1e-15, abs=0)


@pytest.mark.claims("Theorem 1")
def test_theorem_1_hypotheses_for_the_papers_choice_tau_033():
    """Sec. 6 uses tau = 0.33 for F_1: the bound (1 + 1) 0.33 / (1 - 0.33) = 0.98507... must not exceed U*."""
    loss = tau_logistic(0.33)
    bound = 2 * 0.33 / 0.67
    assert fbeta_calibration(1.0, loss, surrogate_optimum=bound + 1e-9).holds
    report = fbeta_calibration(1.0, loss, surrogate_optimum=bound - 1e-9)
    assert not report.holds and report.failed == [f"U* bound {report.conditions[-1].statement}"]
    assert report.tau == pytest.approx(0.33)  # tau taken from the loss's discrepancy


@pytest.mark.claims("Theorem 1")
def test_theorem_1_rejects_a_tau_outside_the_loss_discrepancy_and_nonconvex_losses():
    # tau = 0.2 < discrepancy 0.33: phi is not 0.2-discrepant
    report = fbeta_calibration(1.0, tau_logistic(0.33), surrogate_optimum=1.0, tau=0.2)
    assert [c.label for c in report.conditions if not c.holds] == ["(a) tau-discrepant"]
    # the plain logistic loss has discrepancy 1 = beta^2: outside (0, beta^2)
    report = fbeta_calibration(1.0, logistic(), surrogate_optimum=1.0)
    assert "tau in (0, beta^2)" in [c.label for c in report.conditions if not c.holds]
    report = fbeta_calibration(2.0, sigmoid(), surrogate_optimum=1.0)
    assert "phi convex" in [c.label for c in report.conditions if not c.holds]


@pytest.mark.claims("Theorem 2")
def test_theorem_2_hypotheses():
    """Thm. 2: tau in (0, 1), tau-discrepant, U* >= tau (Sec. 6 uses tau = 0.75 for Jaccard)."""
    loss = tau_logistic(0.75)
    assert jaccard_calibration(loss, surrogate_optimum=0.75).holds
    assert not jaccard_calibration(loss, surrogate_optimum=0.7499).holds
    assert not jaccard_calibration(logistic(), surrogate_optimum=1.0).holds  # tau = 1 is excluded
    assert jaccard_max_tau(0.6) == 0.6


@pytest.mark.claims("Proposition 8")
def test_proposition_8_accuracy_needs_no_discrepancy_but_differentiability_at_zero():
    for loss in (logistic(), hinge()):  # the hinge's kink is at 1, not 0
        assert accuracy_calibration(loss).holds
    assert not accuracy_calibration(sigmoid()).holds  # not convex
    # a kink at 0 is excluded by "phi'(0) < 0"; with it the surrogate maximiser can sit at f = 0
    assert not accuracy_calibration(tau_logistic(0.1)).holds


@pytest.mark.claims("Proposition 8")
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


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7", "Proposition 8")
def test_theorem_reports_carry_the_proven_caveats():
    report = fbeta_calibration(1.0, tau_logistic(0.05), surrogate_optimum=0.189394)
    assert report.holds and any("kink at 0" in c for c in report.caveats)
    assert fbeta_calibration(1.0, tau_logistic(0.05, base=3.0), surrogate_optimum=0.19).caveats[-1].startswith(
        "phi does not dominate")
    assert general_calibration(accuracy(), logistic(), surrogate_optimum=0.8, true_utility_at_optimum=0.8,
                               tau=0.5).caveats[-1].startswith("condition (b) as printed")


@pytest.mark.claims("Theorem 7", "Theorem 1")
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


@pytest.mark.claims("Theorem 7")
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


@pytest.mark.claims("Theorem 7")
def test_theorem_7_condition_b_as_printed_is_negative_for_accuracy():
    """Pins the printed form of (b): for accuracy it is (1 - 0)/(0 + (-1)) * (1 + 0)/(1 + 0) = -1, so no tau > 0
    satisfies it; the proof's H(1) with (a_{1,-1} - a_{0,-1}) would give +1.  Issue 3 decides which is right."""
    report = general_calibration(accuracy(), logistic(), surrogate_optimum=0.8, true_utility_at_optimum=0.8,
                                 tau=0.5)
    cond_b = next(c for c in report.conditions if c.label == "(b)")
    assert not cond_b.holds and "-1" in cond_b.statement


@pytest.mark.claims("Theorem 7")
def test_theorem_7_reports_a_metric_outside_definition_1():
    """Gower-Legendre(2) violates a_{1,+1} >= 0: Thm. 7's report must say so instead of assuming Definition 1."""
    from lfverify.core import gower_legendre

    report = general_calibration(gower_legendre(2.0), tau_logistic(0.3), surrogate_optimum=0.8,
                                 true_utility_at_optimum=0.8)
    failed = [c for c in report.conditions if not c.holds]
    assert failed[0].label == "Def. 1" and "a_{1,+1} >= 0" in failed[0].statement and not report.holds


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7", "Proposition 8")
def test_metric_calibration_report_dispatches_by_family():
    reports = calibration_reports(f1(), tau_logistic(0.33), surrogate_optimum=0.99, true_utility_at_optimum=0.9)
    assert [r.theorem.split(" ")[1] for r in reports] == ["1", "7"]
    reports = calibration_reports(jaccard(), tau_logistic(0.75), surrogate_optimum=0.8)
    assert [r.theorem for r in reports] == ["Thm. 2 (Jaccard-calibration)"]
    assert "hypotheses hold" in str(reports[0])


@pytest.mark.claims("package:numerics")  # input errors: the messages, not the theorems
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


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7", "Proposition 8")
def test_metric_calibration_report_passes_an_explicit_tau_through():
    """An explicit tau reaches every report (a surviving mutant once dropped it in the dispatch)."""
    reports = calibration_reports(f1(), tau_logistic(0.33), surrogate_optimum=0.99, true_utility_at_optimum=0.9,
                                  tau=0.5)
    assert [r.tau for r in reports] == [0.5, 0.5]
    assert not reports[0].holds  # 2 * 0.5 / (1 - 0.5) = 2 > 0.99


# ---------------------------------------------------------------------------------------------------------
# The reports as the user reads them.  Expected texts are written out here from the theorem statements; the
# numbers are evaluated by hand in exact rational arithmetic (comments) and formatted as the report does.
# ---------------------------------------------------------------------------------------------------------
import re  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402

from lfverify.core import LinearFractionalMetric, SurrogateLoss, gower_legendre, squared_hinge  # noqa: E402

KINK_CAVEAT = ("phi has a kink at 0: the surrogate maximiser can take f*(x) = 0 (predicted -1) where eta is above the "
               "Bayes threshold, so the printed hypotheses do not guarantee calibration (ERRATA.md, the 'theorem' "
               "entries of Thms. 1, 2, 7)")
DOMINATION_CAVEAT = "phi does not dominate the 0/1 loss: the proof's use of Lemma 1 (U_phi <= U) fails"


def exactly(text):
    return "^" + re.escape(text) + "$"


class _ShiftedLoss(SurrogateLoss):
    """A test loss phi(m) = max(0, -m)^p: p = 1 has phi'(0-) = -1, phi'(0+) = 0 (discrepancy 0); p = 2 is
    differentiable at 0 with phi'(0) = 0."""

    is_convex = True
    is_nonincreasing = True
    kinks = (0.0,)
    dominates_zero_one = False
    lipschitz = 1.0
    smoothness = (0.0, 0.0)

    def __init__(self, power):
        self.power = power
        self.name = f"max(0, -m)^{power}"

    def _value(self, m):
        return np.maximum(0.0, -m) ** self.power

    def _derivative(self, m, right):
        if self.power == 2:
            return -2.0 * np.maximum(0.0, -m)
        return np.where((m < 0) | ((m == 0) & (not right)), -1.0, 0.0)

    def _second_derivative(self, m, right):
        return np.zeros_like(m)


@pytest.mark.claims("Theorem 1")
def test_theorem_1_report_text_at_the_boundary_of_the_u_star_bound():
    """beta = 1.5, tau = 1/4: (1 + 9/4)(1/4) / (9/4 - 1/4) = 13/32 = 0.40625 exactly, and U* = 13/32 meets the bound
    with equality, which Thm. 1's '>=' admits; the largest tau is beta^2 U* / (1 + beta^2 + U*) = 1/4."""
    report = fbeta_calibration(1.5, tau_logistic(0.25), surrogate_optimum=0.40625)
    assert str(report) == "\n".join([
        "Thm. 1 (F_1.5-calibration): hypotheses hold (tau = 0.25)",
        "  [x] phi convex: the surrogate loss is convex",
        "  [x] phi non-increasing: the surrogate loss is non-increasing",
        "  [x] (a) tau-discrepant: phi'(0+) >= tau phi'(0-) with tau = 0.25",
        "  [x] tau in (0, beta^2): 0 < 0.25 < 2.25",
        "  [x] U* bound: U*_phi = 0.40625 >= (1 + beta^2) tau / (beta^2 - tau) = 0.40625",
        "  largest admissible tau: 0.25",
        f"  caveat: {KINK_CAVEAT}",
    ])
    assert report.holds and report.max_tau == 0.25 and report.tau == 0.25
    below = fbeta_calibration(1.5, tau_logistic(0.25), surrogate_optimum=0.40625 - 2 ** -20)
    assert below.failed == [f"U* bound U*_phi = {0.40625 - 2 ** -20:.6g} >= (1 + beta^2) tau / (beta^2 - tau) "
                            "= 0.40625"]


@pytest.mark.claims("Theorem 1")
@pytest.mark.parametrize("u, max_tau", [(0.5, 2.25 * 0.5 / 3.75), (1.0, 2.25 / 4.25), (-0.5, 0.0), (0.0, 0.0)])
def test_theorem_1_report_largest_tau_uses_beta_and_the_clipped_optimum(u, max_tau):
    """tau_max = beta^2 U* / (1 + beta^2 + U*) at beta = 1.5, with U* clipped to [0, 1] (a negative U* admits none)."""
    report = fbeta_calibration(1.5, tau_logistic(0.25), surrogate_optimum=u)
    assert report.max_tau == pytest.approx(max_tau, rel=1e-15, abs=0.0)


@pytest.mark.claims("Theorem 1")
def test_theorem_1_report_text_when_hypotheses_fail():
    """The plain logistic loss (tau = discrepancy = 1 = beta^2): tau is outside (0, beta^2), the bound is infinite."""
    report = fbeta_calibration(1.0, logistic(), surrogate_optimum=0.5)
    assert str(report) == "\n".join([
        "Thm. 1 (F_1-calibration): hypotheses FAIL (tau = 1.0)",
        "  [x] phi convex: the surrogate loss is convex",
        "  [x] phi non-increasing: the surrogate loss is non-increasing",
        "  [x] (a) tau-discrepant: phi'(0+) >= tau phi'(0-) with tau = 1",
        "  [ ] tau in (0, beta^2): 0 < 1 < 1",
        "  [ ] U* bound: U*_phi = 0.5 >= (1 + beta^2) tau / (beta^2 - tau) = inf",
        "  largest admissible tau: 0.2",  # 1 * 0.5 / (1 + 1 + 0.5)
    ])


@pytest.mark.claims("Theorem 2")
def test_theorem_2_report_text_and_its_largest_tau():
    report = jaccard_calibration(tau_logistic(0.75), surrogate_optimum=0.5, tau=0.8)
    assert str(report) == "\n".join([
        "Thm. 2 (Jaccard-calibration): hypotheses FAIL (tau = 0.8)",
        "  [x] phi convex: the surrogate loss is convex",
        "  [x] phi non-increasing: the surrogate loss is non-increasing",
        "  [x] (a) tau-discrepant: phi'(0+) >= tau phi'(0-) with tau = 0.8",
        "  [x] tau in (0, 1): 0 < 0.8 < 1",
        "  [ ] U* bound: U*_phi = 0.5 >= tau = 0.8",
        "  largest admissible tau: 0.5",
        f"  caveat: {KINK_CAVEAT}",
    ])
    assert report.max_tau == 0.5
    assert jaccard_calibration(tau_logistic(0.75), surrogate_optimum=-0.25).max_tau == 0.0  # clipped at 0
    assert jaccard_calibration(tau_logistic(0.75), surrogate_optimum=0.75).holds  # U* = tau: '>=' admits it
    assert jaccard_max_tau() == 1.0


@pytest.mark.claims("Proposition 8")
def test_proposition_8_report_text_lists_only_its_own_hypotheses():
    """Prop. 8 assumes neither monotonicity nor tau-discrepancy: no such conditions appear."""
    report = accuracy_calibration(logistic())
    assert str(report) == "\n".join([
        "Prop. 8 (accuracy-calibration): hypotheses hold (tau = None)",
        "  [x] phi convex: the surrogate loss is convex",
        "  [x] phi'(0) < 0: phi differentiable at 0 with phi'(0) < 0: phi'(0-) = -0.721348, phi'(0+) = -0.721348",
    ])  # phi'(0) = -1 / (2 ln 2) = -0.7213475...
    assert report.tau is None and report.max_tau is None and report.caveats == ()
    kinked = accuracy_calibration(tau_logistic(0.5))
    assert kinked.failed == ["phi'(0) < 0 phi differentiable at 0 with phi'(0) < 0: phi'(0-) = -0.721348, "
                             "phi'(0+) = -0.360674"]


@pytest.mark.claims("Proposition 8")
def test_proposition_8_needs_a_strictly_negative_derivative_at_zero():
    """max(0, -m)^2 is convex and differentiable with phi'(0) = 0: 'phi'(0) < 0' fails."""
    report = accuracy_calibration(_ShiftedLoss(2))
    assert [c.label for c in report.conditions if not c.holds] == ["phi'(0) < 0"]


@pytest.mark.claims("package:numerics")  # input errors: the messages, not the theorems
def test_loss_without_a_usable_discrepancy_needs_an_explicit_tau():
    """max(0, -m) has phi'(0+) / phi'(0-) = 0 / -1 = -0.0, which is no admissible tau; pass tau explicitly."""
    loss = _ShiftedLoss(1)
    with pytest.raises(ValueError, match=exactly(f"tau: the loss {loss} has discrepancy -0.0; pass tau explicitly")):
        jaccard_calibration(loss, surrogate_optimum=0.5)
    report = jaccard_calibration(loss, surrogate_optimum=0.5, tau=0.25)
    assert report.tau == 0.25 and report.caveats == (KINK_CAVEAT, DOMINATION_CAVEAT)


@pytest.mark.claims("package:numerics")  # input errors: the messages, not the theorems
@pytest.mark.parametrize("tau, interval", [(0.0, "(0.0, inf)"), (-0.5, "(0.0, inf)")])
def test_explicit_tau_must_be_positive(tau, interval):
    with pytest.raises(ValueError, match=exactly(f"tau must lie in {interval}; got {tau!r}")):
        jaccard_calibration(tau_logistic(0.5), surrogate_optimum=0.5, tau=tau)


@pytest.mark.claims("package:numerics")  # input errors: the messages, not the theorems
def test_calibration_argument_messages():
    with pytest.raises(ValueError, match=exactly("beta must lie in (0.0, inf); got 0.0")):
        fbeta_calibration(0.0, tau_logistic(0.3), surrogate_optimum=0.5)
    with pytest.raises(ValueError, match=exactly("beta must lie in (0.0, inf); got 0.0")):
        fbeta_max_tau(0.0)
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [0.0, 1.0]; got -0.25")):
        fbeta_max_tau(1.0, -0.25)
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [0.0, 1.0]; got 1.5")):
        fbeta_max_tau(1.0, 1.5)
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [0.0, 1.0]; got -0.25")):
        jaccard_max_tau(-0.25)
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [0.0, 1.0]; got 1.5")):
        jaccard_max_tau(1.5)
    # the theorems' optima may be negative (U_phi can be), but not above 1
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [-inf, 1.0]; got 1.5")):
        general_calibration(f1(), tau_logistic(0.3), surrogate_optimum=1.5, true_utility_at_optimum=0.5)
    with pytest.raises(ValueError, match=exactly("true_utility_at_optimum must lie in [-inf, 1.0]; got 1.25")):
        general_calibration(f1(), tau_logistic(0.3), surrogate_optimum=0.5, true_utility_at_optimum=1.25)
    with pytest.raises(ValueError, match=exactly("surrogate_optimum must lie in [-inf, 1.0]; got 2.0")):
        jaccard_calibration(tau_logistic(0.5), surrogate_optimum=2.0)
    report = general_calibration(f1(), tau_logistic(0.3), surrogate_optimum=-3.0, true_utility_at_optimum=-2.0)
    assert report.tau == pytest.approx(0.3)


# Thm. 7 for M: a0p = 2, a0n = -1/2, a1p = 1, a1n = 2 (b = 0), U* = 3/4, U(f*) = 5/8, tau = 0.3:
#   (b) as printed: (a0p - a1p)/(a1n + a0n) * (-a0n + a1n U*)/(a0p + a1p U*) = (1 / (3/2)) (2 / (11/4)) = 16/33
#   (c): (a0n - a1n U(f*))/(a1p U(f*) - a0p) * (a0p + a1p U*)/(-a0n + a1n U*) = (14/11)(11/8) = 7/4
#   the proof's H(1): (a0p - a1p)/(a1n - a0n) * 8/11 = (2/5)(8/11) = 16/55
M = LinearFractionalMetric(a0p=2.0, a0n=-0.5, a1p=1.0, a1n=2.0, name="M")


@pytest.mark.claims("Theorem 7")
def test_theorem_7_report_text_for_a_general_metric():
    assert Fraction(16, 33) == Fraction(1) / Fraction(3, 2) * Fraction(2) / Fraction(11, 4)  # the comment above
    report = general_calibration(M, tau_logistic(0.3), surrogate_optimum=0.75, true_utility_at_optimum=0.625, tau=0.3)
    assert str(report) == "\n".join([
        "Thm. 7 (general U-calibration): hypotheses FAIL (tau = 0.3)",
        "  [ ] Def. 1: M is a linear-fractional utility in the sense of Definition 1 (violates denominator > 0 on "
        "the feasible region; U >= 0 on the feasible region; U <= 1 on the feasible region)",
        "  [x] (1): Delta a_0 = 2.5 > 0",
        "  [x] (2): Delta a_1 = -1 <= 0",
        "  [x] (3): a_{0,-1} != 0 or a_{1,-1} != 0",
        "  [x] (4): a_{1,-1} + a_{0,-1} = 1.5 != 0",
        "  [x] (5): a_{0,+1} a_{1,-1} + a_{0,-1} a_{1,+1} = 3.5 > 0",
        "  [x] (6): if a_{1,-1} > 0 then U(f*) > -a_{0,-1}/a_{1,-1}",
        "  [x] phi convex: the surrogate loss is convex",
        "  [x] phi non-increasing: the surrogate loss is non-increasing",
        "  [x] (a) tau-discrepant: phi'(0+) >= tau phi'(0-) with tau = 0.3",
        f"  [x] (b): tau <= {16 / 33:.6g} (as printed)",
        "  [x] (c): tau <= 1.75",
        f"  caveat: {KINK_CAVEAT}",
        "  caveat: condition (b) as printed uses a_{1,-1} + a_{0,-1}; with the proof's H(1) (a_{1,-1} - a_{0,-1}) "
        f"the bound is {16 / 55:.6g}",
    ])
    assert report.max_tau is None


@pytest.mark.claims("Theorem 7")
def test_theorem_7_bounds_admit_equality():
    """(b) and (c) are 'tau <= bound': with exact dyadic data the bounds are hit exactly.
    M, U* = 1: (b) = (1 / (3/2)) * (5/2) / 3 = 5/9 is not dyadic, so use N: a0p = 2, a0n = -1/2, a1p = 1, a1n = 1:
    (b) = (1 / (1/2)) * (3/2) / 3 = 1 at U* = 1; (c) at U(f*) = 1: (-3/2)/(-1) * 3 / (3/2) = 3."""
    N = LinearFractionalMetric(a0p=2.0, a0n=-0.5, a1p=1.0, a1n=1.0, name="N")
    at_b = general_calibration(N, logistic(), surrogate_optimum=1.0, true_utility_at_optimum=1.0, tau=1.0)
    assert {c.label: c.holds for c in at_b.conditions}["(b)"] is True
    at_c = general_calibration(N, logistic(), surrogate_optimum=1.0, true_utility_at_optimum=1.0, tau=3.0)
    assert {c.label: c.holds for c in at_c.conditions}["(c)"] is True
    above = general_calibration(N, logistic(), surrogate_optimum=1.0, true_utility_at_optimum=1.0, tau=3.0 + 2 ** -50)
    assert {c.label: c.holds for c in above.conditions}["(c)"] is False


# (1) Delta a_0 > 0, (2) Delta a_1 <= 0, (3) a0n != 0 or a1n != 0, (4) a1n + a0n != 0, (5) a0p a1n + a0n a1p > 0,
# (6) a1n > 0 => U(f*) > -a0n / a1n; evaluated by hand for each metric at U(f*) = 1/2.
STRUCTURAL = [
    (LinearFractionalMetric(a0p=0.0, a0n=0.0, a1p=1.0, a1n=1.0, b1_const=1.0, name="zero-a0"),
     {"(1)": False, "(2)": True, "(3)": True, "(4)": True, "(5)": False, "(6)": True}),  # -0/1 = 0 < 1/2
    (LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.5, a1n=1.0, name="da1=1/2"),
     {"(1)": True, "(2)": False, "(3)": True, "(4)": True, "(5)": True, "(6)": True}),
    (accuracy(), {"(1)": True, "(2)": True, "(3)": True, "(4)": True, "(5)": False, "(6)": True}),  # a1n = 0
    (LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=0.0, b1_const=1.0, name="TP/(TP+1)"),
     {"(1)": True, "(2)": False, "(3)": False, "(4)": False, "(5)": False, "(6)": True}),
    # a1p = 1 - 2 = -1, a1n = 1: Delta a_1 = -2; (5): 1*1 + (-1)*(-1) = 2 > 0; (6): 1/2 > -(-1)/1 = 1 fails
    (gower_legendre(2.0), {"(1)": True, "(2)": True, "(3)": True, "(4)": False, "(5)": True, "(6)": False}),
    (LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=1.0, a1n=0.5, name="a0n*a1p=-1"),
     {"(1)": True, "(2)": False, "(3)": True, "(4)": True, "(5)": False, "(6)": False}),  # 0.5 - 1 < 0; 1/2 > 2 no
    (LinearFractionalMetric(a0p=1.0, a0n=-0.25, a1p=0.5, a1n=0.5, name="six-boundary"),
     {"(1)": True, "(2)": True, "(3)": True, "(4)": True, "(5)": True, "(6)": False}),  # U(f*) = 1/2 = 0.25/0.5
    (LinearFractionalMetric(a0p=1.0, a0n=-0.125, a1p=1.0, a1n=4.0, name="six-product"),
     {"(1)": True, "(2)": True, "(3)": True, "(4)": True, "(5)": True, "(6)": True}),  # 1/2 > 1/32 (not 1/2)
]


@pytest.mark.claims("Theorem 7")
@pytest.mark.parametrize("metric, expected", STRUCTURAL, ids=[m.name for m, _ in STRUCTURAL])
def test_theorem_7_structural_conditions_by_hand(metric, expected):
    report = general_calibration(metric, logistic(), surrogate_optimum=0.5, true_utility_at_optimum=0.5, tau=0.5)
    got = {c.label: c.holds for c in report.conditions if c.label in expected}
    assert got == expected
    assert all(type(c.holds) is bool for c in report.conditions)


@pytest.mark.claims("Theorem 7")
def test_theorem_7_report_for_f1_lists_the_condition_labels_in_order_and_no_condition_b_caveat():
    report = general_calibration(f1(), logistic(), surrogate_optimum=0.9, true_utility_at_optimum=0.9, tau=0.3)
    assert [c.label for c in report.conditions] == [
        "Def. 1", "(1)", "(2)", "(3)", "(4)", "(5)", "(6)", "phi convex", "phi non-increasing", "(a) tau-discrepant",
        "(b)", "(c)"]
    assert report.conditions[0].holds is True
    assert report.conditions[0].statement == "F_1 is a linear-fractional utility in the sense of Definition 1"
    assert report.caveats == ()  # no kink at 0, dominates the 0/1 loss, a_{0,-1} = 0


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7", "Proposition 8")
def test_kink_caveat_only_for_a_loss_with_a_kink_at_zero():
    assert fbeta_calibration(1.0, logistic(), surrogate_optimum=0.9, tau=0.5).caveats == ()
    assert fbeta_calibration(1.0, hinge(), surrogate_optimum=0.9, tau=0.5).caveats == ()  # kink at 1, not at 0
    assert fbeta_calibration(1.0, squared_hinge(), surrogate_optimum=0.9, tau=0.5).caveats == ()
    assert fbeta_calibration(1.0, tau_logistic(0.5), surrogate_optimum=0.9).caveats == (KINK_CAVEAT,)
    assert fbeta_calibration(1.0, logistic(base=3.0), surrogate_optimum=0.9, tau=0.5).caveats == (DOMINATION_CAVEAT,)


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7", "Proposition 8")
def test_calibration_reports_dispatch_for_every_family_and_pass_tau():
    loss = tau_logistic(0.33)
    reports = calibration_reports(jaccard(), loss, surrogate_optimum=0.8, true_utility_at_optimum=0.7, tau=0.5)
    assert [(r.theorem, r.tau) for r in reports] == [("Thm. 2 (Jaccard-calibration)", 0.5),
                                                      ("Thm. 7 (general U-calibration)", 0.5)]
    reports = calibration_reports(accuracy(), logistic(), surrogate_optimum=0.8)
    assert [r.theorem for r in reports] == ["Prop. 8 (accuracy-calibration)"] and reports[0].holds
    assert calibration_reports(gower_legendre(0.5), loss, surrogate_optimum=0.8) == []


# ------------------------------------------------------------------ issue 45: comparison rules at the boundary
import lfverify.core._calibration_conditions as conditions_module  # noqa: E402
import lfverify.core._pointwise_optimum as pointwise_module  # noqa: E402
from lfverify.core import FiniteEta, pointwise_surrogate_optimum, surrogate_utility_of_eta  # noqa: E402
from planted import planting  # noqa: E402


def _holds(report, label):
    return {c.label: c.holds for c in report.conditions}[label]


def _down(x):
    return float(np.nextafter(x, -np.inf))


def _up(x):
    return float(np.nextafter(x, np.inf))


def check_theorem_boundaries():
    """Thm. 1 (beta = 1/2): 'tau in (0, beta^2)' is open at beta^2 = 1/4, and 'U* >= (1 + beta^2) tau / (beta^2 -
    tau)' at tau = 3/32 has the bound 3/4 exactly (1.25 * 3/32 = 15/128, 1/4 - 3/32 = 5/32, ratio 3/4, each step
    exact in binary) and admits equality.  Thm. 2: 'tau in (0, 1)' open at 1, 'U* >= tau' closed.  Thm. 7: (b)
    'tau <= 1' and (c) 'tau <= 3' for N = (2, -1/2, 1, 1) at U* = U(f*) = 1 (test_theorem_7_bounds_admit_equality),
    (6) 'U(f*) > -a0n / a1n = 1/2' open, for the metric six-boundary = (1, -1/4, 1/2, 1/2)."""
    assert Fraction(5, 4) * Fraction(3, 32) / (Fraction(1, 4) - Fraction(3, 32)) == Fraction(3, 4)
    loss = tau_logistic(0.09375)
    for u, expected in ((0.75, True), (_up(0.75), True), (_down(0.75), False)):
        assert _holds(fbeta_calibration(0.5, loss, surrogate_optimum=u, tau=0.09375), "U* bound") is expected, u
    for tau, expected in ((0.25, False), (_down(0.25), True), (_up(0.25), False), (_up(0.0), True)):
        try:
            report = fbeta_calibration(0.5, loss, surrogate_optimum=1.0, tau=tau)
        except ZeroDivisionError as exc:  # a range rule closed at beta^2 divides by beta^2 - tau = 0
            raise AssertionError(f"tau = {tau}: {exc}") from exc
        assert _holds(report, "tau in (0, beta^2)") is expected, tau
    jac = tau_logistic(0.75)
    for u, expected in ((0.75, True), (_up(0.75), True), (_down(0.75), False)):
        assert _holds(jaccard_calibration(jac, surrogate_optimum=u, tau=0.75), "U* bound") is expected, u
    for tau, expected in ((1.0, False), (_down(1.0), True), (_up(1.0), False)):
        assert _holds(jaccard_calibration(jac, surrogate_optimum=1.0, tau=tau), "tau in (0, 1)") is expected, tau
    N = LinearFractionalMetric(a0p=2.0, a0n=-0.5, a1p=1.0, a1n=1.0, name="N")
    for label, bound in (("(b)", 1.0), ("(c)", 3.0)):
        for tau, expected in ((bound, True), (_down(bound), True), (_up(bound), False)):
            report = general_calibration(N, logistic(), surrogate_optimum=1.0, true_utility_at_optimum=1.0, tau=tau)
            assert _holds(report, label) is expected, (label, tau)
    six = LinearFractionalMetric(a0p=1.0, a0n=-0.25, a1p=0.5, a1n=0.5, name="six-boundary")
    for u_f, expected in ((0.5, False), (_up(0.5), True), (_down(0.5), False)):
        report = general_calibration(six, logistic(), surrogate_optimum=0.5, true_utility_at_optimum=u_f, tau=0.5)
        assert _holds(report, "(6)") is expected, u_f


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7")
def test_calibration_hypotheses_at_their_boundaries_and_one_double_either_side():
    """Oracle: the printed hypotheses' strictness ('<' / '>' open, '<=' / '>=' closed) on bounds exact in binary
    (a Fraction computation confirms Thm. 1's)."""
    check_theorem_boundaries()


@pytest.mark.claims("Theorem 1", "Theorem 2", "Theorem 7")
@pytest.mark.parametrize("function, old, new", [
    ("fbeta_calibration", "bool(u >= bound)", "bool(u > bound)"),
    ("fbeta_calibration", "in_range = 0 < tau < b2", "in_range = 0 < tau <= b2"),
    ("jaccard_calibration", "bool(u >= tau)", "bool(u > tau)"),
    ("jaccard_calibration", "0 < tau < 1)", "0 < tau <= 1)"),
    ("general_calibration", "bool(tau <= bound_b)", "bool(tau < bound_b)"),
    ("general_calibration", "bool(tau <= bound_c)", "bool(tau < bound_c)"),
    ("general_calibration", "(u_f > -a0n / a1n)", "(u_f >= -a0n / a1n)"),
])
def test_companion_each_swapped_comparison_fails_the_boundary_check(monkeypatch, function, old, new):
    """Companions: each rule with its strictness swapped (a planted variant of the predicate)."""
    planting(monkeypatch, conditions_module, function, old, new)
    monkeypatch.setitem(globals(), function, getattr(conditions_module, function))
    with pytest.raises(AssertionError):
        check_theorem_boundaries()


def _dinkelbach_iterates(count):
    """u_1, u_2, ...: Dinkelbach's values from start 0.1 on the witness of Thm. 1's failure (F_1, tau = 0.05, eta
    (0.95, 0.6, 0.05), weights (0.3, 0.2, 0.5)), step by step as the docstring states the iteration."""
    from scipy.special import logit

    metric, loss = f1(), tau_logistic(0.05)
    distribution = FiniteEta([0.95, 0.6, 0.05], [0.3, 0.2, 0.5])
    u, values = 0.1, []
    for k in range(count):
        f_star, lo, hi = pointwise_module._maximiser(metric, 0.05, u)
        new = float(surrogate_utility_of_eta(metric, loss, distribution, f_star, breakpoints=(logit(lo), logit(hi)))[0])
        values.append(new)
        u = new if k == 0 else max(u, new)
    return values


def check_dinkelbach_stops_at_equality(optimum=pointwise_surrogate_optimum):
    """tol = u_3 - u_2 (exact: Sterbenz) stops at iteration 3 (u_3 <= u_2 + tol); tol = pred(u_3) - u_2, the largest
    tol with u_2 + tol < u_3, goes on; tol = 0 stops at the first repeated value (iteration 6 here: u_5 = u_6)."""
    u = _dinkelbach_iterates(6)
    assert u[0] < u[1] < u[2] < u[3] < u[4] == u[5]  # the observed sequence the rule is driven to

    def run(tol):
        return optimum(f1(), tau_logistic(0.05), FiniteEta([0.95, 0.6, 0.05], [0.3, 0.2, 0.5]),
                       bayes_utility=27 / 31, start=0.1, tol=tol)

    at = run(u[2] - u[1])
    assert u[1] + (u[2] - u[1]) == u[2] and (at.iterations, at.surrogate_optimum) == (3, u[2])
    short = _down(u[2]) - u[1]
    assert u[1] + short < u[2]
    assert run(short).iterations > 3
    zero = run(0.0)
    assert (zero.iterations, zero.surrogate_optimum) == (6, u[5])


@pytest.mark.claims("package:numerics")
def test_dinkelbach_stops_when_the_increase_equals_tol():
    """Oracle: the docstring's rule (new <= u + tol from the second iteration on) on iterates computed step by
    step; tol = 0 ends at a repeated value."""
    check_dinkelbach_stops_at_equality()
    with pytest.raises(ValueError, match=r"^tol must lie in \[0\.0, inf\); got -1e-13$"):
        pointwise_surrogate_optimum(f1(), tau_logistic(0.05), FiniteEta([0.5], [1.0]), bayes_utility=0.5,
                                    start=0.1, tol=-1e-13)


@pytest.mark.claims("package:numerics")
def test_companion_a_strict_dinkelbach_test_fails(monkeypatch):
    """Companion: 'new < u + tol' (a planted pointwise_surrogate_optimum) goes on at equality and never stops at
    tol = 0 (RuntimeError after max_iterations counts as a failed check)."""
    variant = planting(monkeypatch, pointwise_module, "pointwise_surrogate_optimum",
                       "done = iteration > 1 and new <= u + tol", "done = iteration > 1 and new < u + tol")

    def strict(*args, **kwargs):
        try:
            return variant(*args, **kwargs)
        except RuntimeError as exc:
            raise AssertionError(str(exc)) from exc

    with pytest.raises(AssertionError):
        check_dinkelbach_stops_at_equality(strict)


@pytest.mark.claims("package:numerics")
def test_dinkelbach_raises_after_exactly_max_iterations():
    """Oracle: the docstring: RuntimeError when the rule has not stopped the iteration after ``max_iterations``.
    Thm. 1's witness (the docstring's example) stops at iteration k (read from the run): max_iterations = k returns
    that result, k - 1 raises.

    Kills `lfverify.core._pointwise_optimum.x_pointwise_surrogate_optimum__mutmut_31` (one iteration more)."""
    def run(**kwargs):
        return pointwise_surrogate_optimum(f1(), tau_logistic(0.05), FiniteEta([0.95, 0.6, 0.05], [0.3, 0.2, 0.5]),
                                           bayes_utility=27 / 31, start=0.1, **kwargs)

    k = run().iterations
    assert k >= 3
    assert run(max_iterations=k).iterations == k
    with pytest.raises(RuntimeError, match="^Dinkelbach's iteration did not converge$"):
        run(max_iterations=k - 1)


@pytest.mark.claims("Theorem 1")
@pytest.mark.parametrize("beta", [0.0, -1.0])
def test_fbeta_calibration_refuses_a_beta_that_is_not_positive(beta):
    """F_beta needs beta > 0 (Thm. 1): beta = 0 is refused like a negative one (message typed out).

    Kills `lfverify.core._calibration_conditions.x_fbeta_calibration__mutmut_9` (beta = 0 let through)."""
    from lfverify.core import fbeta_calibration

    with pytest.raises(ValueError) as raised:
        fbeta_calibration(beta, tau_logistic(0.33), surrogate_optimum=0.5)
    assert str(raised.value) == f"beta must lie in (0.0, inf); got {beta}"


@pytest.mark.claims("package:numerics")
def test_gaussian_eta_mass_is_the_probability_of_eta_in_the_closed_interval():
    """P(low <= eta <= high) for z = logit(eta) | Y ~ N(m_Y, s^2): oracle, the mixture density of z integrated by
    SciPy's quad between logit(low) and logit(high) (absolute error below 1e-12, its estimate).

    Kills `lfverify.core._pointwise_optimum.xǁGaussianEtaǁmass__lfv_dist_4` (the lower end's tail mirrored)."""
    from scipy import integrate, stats
    from scipy.special import logit

    from lfverify.core import GaussianEta, GaussianPopulation

    pop = GaussianPopulation([1.0, 0.5], [-0.5, -0.25], [[1.0, 0.3], [0.3, 1.0]], 0.3)
    dist = GaussianEta(pop)

    def density(z):
        return (pop.prior * stats.norm.pdf(z, dist.means[1], dist.std)
                + (1 - pop.prior) * stats.norm.pdf(z, dist.means[0], dist.std))

    for low, high in ((0.2, 0.6), (0.05, 0.3), (0.5, 0.95)):
        expected, error = integrate.quad(density, logit(low), logit(high), epsabs=1e-14, epsrel=1e-13)
        assert error < 1e-12
        assert dist.mass(low, high) == pytest.approx(expected, rel=0, abs=1e-12)
