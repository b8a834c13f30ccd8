"""Sufficient conditions for U-calibration (Thms. 1, 2 and 7, Prop. 8) as checkable predicates.

Each function returns a :class:`CalibrationReport` listing every hypothesis of the theorem, as printed in the
paper, with whether it holds.  The theorems quantify over "some tau"; when ``tau`` is not given the loss's own
discrepancy phi'(0+)/phi'(0-) is used, which is the smallest tau for which phi is tau-discrepant and hence the
most favourable choice (every tau-dependent bound below is an upper bound on tau).

The hypotheses are transcribed literally, as printed.  The symbolic proofs (:mod:`lfverify.proofs`, ERRATA.md)
found that they are *not* sufficient as printed, and each report says so in ``caveats`` where it applies:

* a tau-discrepant loss with tau < 1 has a kink at 0, and the surrogate maximiser can sit exactly at f*(x) = 0,
  which sgn(0) = -1 predicts negative even where eta exceeds the Bayes threshold (confirmed counterexample to
  Thm. 1: F_1, tau = 0.05, atoms with weights (0.3, 0.2, 0.5) and eta (0.95, 0.6, 0.05); likewise Thms. 2, 7);
* the proofs use Lemma 1 (U_phi <= U), which needs phi >= 1{t <= 0}, a hypothesis the theorems do not state;
* Thm. 7's condition (b) prints the factor (a_{0,+1} - a_{1,+1}) / (a_{1,-1} + a_{0,-1}) where the proof's H(1) is
  (a_{0,+1} - a_{1,+1}) / (a_{1,-1} - a_{0,-1}).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lfverify.core._metrics import LinearFractionalMetric
from lfverify.core._validation import check_real

__all__ = [
    "CalibrationCondition",
    "CalibrationReport",
    "fbeta_max_tau",
    "fbeta_calibration",
    "jaccard_max_tau",
    "jaccard_calibration",
    "accuracy_calibration",
    "general_calibration",
    "calibration_reports",
]


@dataclass(frozen=True)
class CalibrationCondition:
    """One hypothesis of a calibration theorem."""

    label: str  #: the paper's label, e.g. "(b)" or "tau in (0, beta^2)"
    statement: str  #: the hypothesis in words / formula
    holds: bool


@dataclass(frozen=True)
class CalibrationReport:
    """The hypotheses of one theorem, checked; ``holds`` is True iff all of them hold."""

    theorem: str
    conditions: tuple[CalibrationCondition, ...]
    tau: float | None
    max_tau: float | None = None  #: the largest admissible tau where the paper states one
    #: Why the printed hypotheses may not suffice for this loss / metric (findings of lfverify.proofs).
    caveats: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.conditions)

    @property
    def failed(self) -> list[str]:
        return [f"{c.label} {c.statement}" for c in self.conditions if not c.holds]

    def __str__(self) -> str:
        lines = [f"{self.theorem}: {'hypotheses hold' if self.holds else 'hypotheses FAIL'} (tau = {self.tau})"]
        lines += [f"  [{'x' if c.holds else ' '}] {c.label}: {c.statement}" for c in self.conditions]
        if self.max_tau is not None:
            lines.append(f"  largest admissible tau: {self.max_tau:.6g}")
        lines += [f"  caveat: {c}" for c in self.caveats]
        return "\n".join(lines)


def _theorem_caveats(loss) -> tuple[str, ...]:
    """The findings of lfverify.proofs that apply to Thms. 1, 2 and 7 with this loss."""
    caveats = []
    if float(loss.derivative(0.0, side="left")) != float(loss.derivative(0.0, side="right")):
        caveats.append("phi has a kink at 0: the surrogate maximiser can take f*(x) = 0 (predicted -1) where eta is "
                       "above the Bayes threshold, so the printed hypotheses do not guarantee calibration "
                       "(ERRATA.md, the 'theorem' entries of Thms. 1, 2, 7)")
    if not loss.dominates_zero_one:
        caveats.append("phi does not dominate the 0/1 loss: the proof's use of Lemma 1 (U_phi <= U) fails")
    return tuple(caveats)


def _loss_conditions(loss, tau: float | None, *, needs_nonincreasing: bool = True):
    conds = [CalibrationCondition("phi convex", "the surrogate loss is convex", bool(loss.is_convex))]
    if needs_nonincreasing:
        conds.append(CalibrationCondition("phi non-increasing", "the surrogate loss is non-increasing",
                                          bool(loss.is_nonincreasing)))
    if tau is not None:
        conds.append(CalibrationCondition("(a) tau-discrepant", f"phi'(0+) >= tau phi'(0-) with tau = {tau:g}",
                                          bool(loss.is_tau_discrepant(tau))))
    return conds


def _resolve_tau(loss, tau):
    if tau is None:
        tau = float(loss.discrepancy)
        if not math.isfinite(tau) or tau <= 0:
            raise ValueError(f"tau: the loss {loss} has discrepancy {tau!r}; pass tau explicitly")
        return tau
    return check_real(tau, "tau", low=0.0, low_inclusive=False)


def _check_optimum(value, name):
    return check_real(value, name, low=-math.inf, high=1.0)


def fbeta_max_tau(beta: float, surrogate_optimum: float = 1.0) -> float:
    """Largest tau with U*_phi >= (1 + beta^2) tau / (beta^2 - tau), i.e. beta^2 U* / (1 + beta^2 + U*) (Thm. 1).

    With U*_phi <= 1 this is at most beta^2 / (2 + beta^2), the range (0, beta^2/(2+beta^2)] stated after
    Thm. 1 (1/3 for F_1).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thm. 1 and the remark after it (tau <= beta^2 / (2 + beta^2)).

    Examples
    --------
    >>> from lfverify.core import fbeta_max_tau
    >>> round(fbeta_max_tau(1.0), 12)                          # U*_phi = 1: 1 / 3
    0.333333333333
    >>> round(fbeta_max_tau(1.0, surrogate_optimum=0.5), 12)   # 0.5 / (2 + 0.5)
    0.2
    """
    beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
    u = check_real(surrogate_optimum, "surrogate_optimum", low=0.0, high=1.0)
    b2 = beta * beta
    return b2 * u / (1.0 + b2 + u)


def fbeta_calibration(beta: float, loss, *, surrogate_optimum: float, tau: float | None = None) -> CalibrationReport:
    """Hypotheses of Thm. 1 (F_beta-calibration).

    phi differentiable a.e., convex and non-increasing; tau in (0, beta^2); phi tau-discrepant;
    (U^{F_beta}_phi)* >= (1 + beta^2) tau / (beta^2 - tau).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thm. 1 (as printed; its failure and correction: ERRATA.md, proofs/theorem-1.md).

    Examples
    --------
    The printed hypotheses hold on the witness of Thm. 1's failure (F_1, tau = 0.05, U*_phi = 0.189394; the
    surrogate maximiser's sign is not Bayes optimal there, :func:`pointwise_surrogate_optimum`):

    >>> from lfverify.core import fbeta_calibration, tau_logistic
    >>> report = fbeta_calibration(1.0, tau_logistic(0.05), surrogate_optimum=0.18939416566403233)
    >>> report.holds, round(report.max_tau, 6)
    (True, 0.086505)
    """
    beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
    u = _check_optimum(surrogate_optimum, "surrogate_optimum")
    tau = _resolve_tau(loss, tau)
    b2 = beta * beta
    in_range = 0 < tau < b2
    bound = (1 + b2) * tau / (b2 - tau) if in_range else math.inf
    conds = _loss_conditions(loss, tau) + [
        CalibrationCondition("tau in (0, beta^2)", f"0 < {tau:g} < {b2:g}", in_range),
        CalibrationCondition("U* bound", f"U*_phi = {u:.6g} >= (1 + beta^2) tau / (beta^2 - tau) = {bound:.6g}",
                             bool(u >= bound)),
    ]
    max_tau = fbeta_max_tau(beta, min(max(u, 0.0), 1.0))
    return CalibrationReport(f"Thm. 1 (F_{beta:g}-calibration)", conditions=tuple(conds), tau=tau, max_tau=max_tau,
                             caveats=_theorem_caveats(loss))


def jaccard_max_tau(surrogate_optimum: float = 1.0) -> float:
    """Supremum of admissible tau in Thm. 2: min(U*_phi, 1) (tau < 1 strictly, U*_phi >= tau).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thm. 2 (tau <= U*_phi, tau < 1).

    Examples
    --------
    >>> from lfverify.core import jaccard_max_tau
    >>> jaccard_max_tau(0.8), jaccard_max_tau(1.0)
    (0.8, 1.0)
    """
    u = check_real(surrogate_optimum, "surrogate_optimum", low=0.0, high=1.0)
    return u


def jaccard_calibration(loss, *, surrogate_optimum: float, tau: float | None = None) -> CalibrationReport:
    """Hypotheses of Thm. 2 (Jaccard-calibration): phi convex, non-increasing; tau in (0, 1); phi
    tau-discrepant; (U^{Jac}_phi)* >= tau.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thm. 2 (as printed; its failure and correction: ERRATA.md, proofs/theorem-2.md).

    Examples
    --------
    >>> from lfverify.core import jaccard_calibration, tau_logistic
    >>> jaccard_calibration(tau_logistic(0.75), surrogate_optimum=0.8).holds
    True
    >>> jaccard_calibration(tau_logistic(0.75), surrogate_optimum=0.5).holds   # U*_phi < tau
    False
    """
    u = _check_optimum(surrogate_optimum, "surrogate_optimum")
    tau = _resolve_tau(loss, tau)
    conds = _loss_conditions(loss, tau) + [
        CalibrationCondition("tau in (0, 1)", f"0 < {tau:g} < 1", 0 < tau < 1),
        CalibrationCondition("U* bound", f"U*_phi = {u:.6g} >= tau = {tau:g}", bool(u >= tau)),
    ]
    return CalibrationReport("Thm. 2 (Jaccard-calibration)", conditions=tuple(conds), tau=tau,
                             max_tau=jaccard_max_tau(min(max(u, 0.0), 1.0)), caveats=_theorem_caveats(loss))


def accuracy_calibration(loss) -> CalibrationReport:
    """Hypotheses of Prop. 8 (accuracy-calibration): phi convex, differentiable a.e., phi'(0) < 0.

    "phi'(0) < 0" presupposes that phi is differentiable at 0, as in Bartlett et al.'s Thm. 6 which Prop. 8
    recovers: with a kink at 0 (the tau-logistic with tau < 1) the surrogate maximiser can sit at f = 0 on
    points with eta != 1/2 (e.g. tau = 1/2, eta = 3/5), and calibration fails.  Both one-sided derivatives
    must therefore be equal and negative.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Prop. 8; Bartlett, Jordan & McAuliffe (2006), Convexity, classification, and risk
    bounds, JASA 101(473), Thm. 6 (the result Prop. 8 recovers).

    Examples
    --------
    >>> from lfverify.core import accuracy_calibration, logistic, tau_logistic
    >>> accuracy_calibration(logistic()).holds
    True
    >>> accuracy_calibration(tau_logistic(0.5)).holds   # a kink at 0: phi'(0) does not exist
    False
    """
    right = float(loss.derivative(0.0, side="right"))
    left = float(loss.derivative(0.0, side="left"))
    conds = _loss_conditions(loss, None, needs_nonincreasing=False) + [
        CalibrationCondition("phi'(0) < 0", f"phi differentiable at 0 with phi'(0) < 0: phi'(0-) = {left:.6g}, "
                             f"phi'(0+) = {right:.6g}", left == right < 0),
    ]
    return CalibrationReport("Prop. 8 (accuracy-calibration)", tuple(conds), None, None)


def general_calibration(metric: LinearFractionalMetric, loss, *, surrogate_optimum: float,
                        true_utility_at_optimum: float, tau: float | None = None) -> CalibrationReport:
    """Hypotheses (1)-(6) and (a)-(c) of Thm. 7 (U-calibration in the general case), as printed, plus the
    standing assumption that U satisfies Definition 1 (reported, never assumed).

    ``surrogate_optimum`` is U*_phi = sup_f U_phi(f); ``true_utility_at_optimum`` is U(f*) for the surrogate
    maximiser f*.

    Note: condition (b) is transcribed as printed, with the factor (a_{0,+1} - a_{1,+1}) / (a_{1,-1} + a_{0,-1}),
    which the proof labels H(1); evaluating the proof's own H(t) = (a_{1,+1} t - a_{0,+1}) / (a_{0,-1} - a_{1,-1} t)
    at t = 1 gives (a_{0,+1} - a_{1,+1}) / (a_{1,-1} - a_{0,-1}) instead.  The two agree when a_{0,-1} = 0
    (F_beta, Jaccard).  Which is right is decided by the symbolic derivation in ``proofs/``.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thm. 7, its conditions (a)-(c) and hypotheses (1)-(6) as printed (corrected:
    proofs/theorem-7.md); Definition 1.

    Examples
    --------
    >>> from lfverify.core import f1, general_calibration, tau_logistic
    >>> report = general_calibration(f1(), tau_logistic(0.05), surrogate_optimum=0.18939416566403233,
    ...                              true_utility_at_optimum=0.7808219178082191)
    >>> report.theorem
    'Thm. 7 (general U-calibration)'
    >>> [c.label for c in report.conditions if not c.holds]
    []
    """
    u_star = _check_optimum(surrogate_optimum, "surrogate_optimum")
    u_f = check_real(true_utility_at_optimum, "true_utility_at_optimum", low=-math.inf, high=1.0)
    tau = _resolve_tau(loss, tau)
    a0p, a0n, a1p, a1n = metric.a0p, metric.a0n, metric.a1p, metric.a1n

    def ratio(num, den):
        return num / den if den != 0 else math.nan

    bound_b = ratio(a0p - a1p, a1n + a0n) * ratio(-a0n + a1n * u_star, a0p + a1p * u_star)
    bound_c = ratio(a0n - a1n * u_f, a1p * u_f - a0p) * ratio(a0p + a1p * u_star, -a0n + a1n * u_star)
    six = (u_f > -a0n / a1n) if a1n > 0 else True
    admissibility = metric.admissibility()
    conds = [
        CalibrationCondition("Def. 1", f"{metric.name} is a linear-fractional utility in the sense of Definition 1"
                             + ("" if admissibility.admissible
                                else f" (violates {'; '.join(admissibility.violations)})"),
                             admissibility.admissible),
        CalibrationCondition("(1)", f"Delta a_0 = {metric.delta_a0:g} > 0", metric.delta_a0 > 0),
        CalibrationCondition("(2)", f"Delta a_1 = {metric.delta_a1:g} <= 0", metric.delta_a1 <= 0),
        CalibrationCondition("(3)", "a_{0,-1} != 0 or a_{1,-1} != 0", a0n != 0 or a1n != 0),
        CalibrationCondition("(4)", f"a_{{1,-1}} + a_{{0,-1}} = {a1n + a0n:g} != 0", a1n + a0n != 0),
        CalibrationCondition("(5)", f"a_{{0,+1}} a_{{1,-1}} + a_{{0,-1}} a_{{1,+1}} = {a0p * a1n + a0n * a1p:g} > 0",
                             a0p * a1n + a0n * a1p > 0),
        CalibrationCondition("(6)", "if a_{1,-1} > 0 then U(f*) > -a_{0,-1}/a_{1,-1}", bool(six)),
        *_loss_conditions(loss, tau),
        CalibrationCondition("(b)", f"tau <= {bound_b:.6g} (as printed)", bool(tau <= bound_b)),
        CalibrationCondition("(c)", f"tau <= {bound_c:.6g}", bool(tau <= bound_c)),
    ]
    caveats = _theorem_caveats(loss)
    if a0n != 0:
        caveats += (f"condition (b) as printed uses a_{{1,-1}} + a_{{0,-1}}; with the proof's H(1) "
                    f"(a_{{1,-1}} - a_{{0,-1}}) the bound is "
                    f"{ratio(a0p - a1p, a1n - a0n) * ratio(-a0n + a1n * u_star, a0p + a1p * u_star):.6g}",)
    return CalibrationReport("Thm. 7 (general U-calibration)", conditions=tuple(conds), tau=tau, max_tau=None,
                             caveats=caveats)


def calibration_reports(metric: LinearFractionalMetric, loss, *, surrogate_optimum: float,
                        true_utility_at_optimum: float | None = None,
                        tau: float | None = None) -> list[CalibrationReport]:
    """Every calibration result of the paper that applies to ``metric`` (by family), plus Thm. 7.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Thms. 1, 2 and 7, Prop. 8 (as printed).

    Examples
    --------
    >>> from lfverify.core import calibration_reports, f1, tau_logistic
    >>> [r.theorem for r in calibration_reports(f1(), tau_logistic(0.33), surrogate_optimum=0.9)]
    ['Thm. 1 (F_1-calibration)']
    >>> [r.theorem for r in calibration_reports(f1(), tau_logistic(0.33), surrogate_optimum=0.9,
    ...                                         true_utility_at_optimum=0.8)]   # Thm. 7 needs U(f*)
    ['Thm. 1 (F_1-calibration)', 'Thm. 7 (general U-calibration)']
    """
    reports = []
    if metric.family == "f_beta":
        reports.append(fbeta_calibration(metric.parameter, loss, surrogate_optimum=surrogate_optimum, tau=tau))
    elif metric.family == "jaccard":
        reports.append(jaccard_calibration(loss, surrogate_optimum=surrogate_optimum, tau=tau))
    elif metric.family == "accuracy":
        reports.append(accuracy_calibration(loss))
    if true_utility_at_optimum is not None:
        reports.append(general_calibration(metric, loss, surrogate_optimum=surrogate_optimum,
                                           true_utility_at_optimum=true_utility_at_optimum, tau=tau))
    return reports
