"""The paper's claims as printed, executable (:data:`PRINTED_STATEMENTS_AS_CODE`): the printed hypotheses and
conclusion of Thms. 1, 2, 7, Lemma 1, Props. 5, 8 and App. C's lemma as predicates on the instances of
:mod:`lfverify.proofs._executable`.  Where every printed hypothesis holds and the conclusion fails, the instance
witnesses the registry's verdict "fails as stated"; :func:`evaluate_printed` evaluates one claim on one instance.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath as mp

from lfverify.proofs._exact_numbers import exact_mpf
from lfverify.proofs._executable_evaluation import (
    Evaluation,
    Undecidable,
    _common,
    _num,
    _undecidable,
    _vacuous,
    _verdict,
    compare,
)
from lfverify.proofs._executable_formulas import _threshold
from lfverify.proofs._executable_hypotheses import HYPOTHESIS_PREDICATES, _definition1


@dataclass(frozen=True)
class PrintedStatement:
    """A claim of the paper as printed, executable: its printed hypotheses and its conclusion as predicates on the
    instances of ``kinds``.  Where every printed hypothesis holds and the conclusion fails, the instance witnesses
    the registry's verdict "fails as stated"; a claim the registry says holds must have no such instance."""

    label: str  #: the registry's LaTeX label
    kinds: tuple
    hypotheses: tuple  #: (name, predicate) - the printed hypotheses
    conclusion: Callable  #: case -> Evaluation
    note: str = ""  #: what of the printed conclusion the predicate evaluates


def _tau_discrepant_with(case, bound_of_tau) -> bool:
    """Some tau in (0, top) with rho <= tau and U* >= bound(tau): the printed bound increases in tau, so tau = rho
    (or any tau > 0 when rho = 0) is the one to try."""
    rho = case.loss.rho
    if rho is None:
        return False
    rho, u = _common(rho, case.u_star)
    tau = rho if compare(rho, 0) > 0 else (rho + 1) * mp.mpf(10) ** -30 if not isinstance(rho, Fraction) else \
        Fraction(1, 10**30)
    bound = bound_of_tau(tau)
    return bound is not None and compare(u, bound) >= 0


def _printed_loss(case) -> bool:
    """phi: R -> R_{>= 0}, convex, non-increasing (differentiable almost everywhere: convexity gives it)."""
    return case.loss.nonnegative and case.loss.convex and case.loss.nonincreasing


def _fbeta_printed_tau(case) -> bool:
    beta2 = case.metric.beta2

    def bound(tau):
        tau, b2 = _common(tau, beta2)
        return (1 + b2) * tau / (b2 - tau) if tau < b2 else None
    return _tau_discrepant_with(case, bound)


def _jaccard_printed_tau(case) -> bool:
    return _tau_discrepant_with(case, lambda tau: tau if tau < 1 else None)


def _canonical_utility(case):
    """U(sgn f*_0), the utility of a maximiser's sign with sgn(0) = -1 (Thm. 7's U(f*))."""
    m, lab = case.metric, case.canonical_labelling
    tp = sum(w * e for w, e, s in zip(case.weights, case.eta, lab) if s > 0)
    fp = sum(w * (1 - e) for w, e, s in zip(case.weights, case.eta, lab) if s > 0)
    return m.value(tp, fp, case.prior)


def _thm7_printed_conditions(case) -> bool:
    """Thm. 7's printed (1)-(6) and, for tau = rho, (a)-(c) with U(f*) = U(sgn f*_0)."""
    m = case.metric
    a0p, a0n, a1p, a1n = m.a0p, m.a0n, m.a1p, m.a1n
    uf = _canonical_utility(case)
    if not (a0p - a0n > 0 and a1p - a1n <= 0 and (a0n != 0 or a1n != 0) and a1n + a0n != 0
            and a0p * a1n + a0n * a1p > 0 and (a1n <= 0 or uf > -a0n / a1n)):
        return False
    rho = case.loss.rho
    if rho is None or not compare(rho, 1) < 0:
        return False
    rho, u, uf, a0p, a0n, a1p, a1n = _common(rho, case.u_star, uf, a0p, a0n, a1p, a1n)
    if a0p + a1p * u == 0 or -a0n + a1n * u == 0 or a1p * uf - a0p == 0:
        return False  # (a)-(c) divide by zero here: undefined, so not satisfied (the necessity witnesses' c = 0)
    b = (a0p - a1p) / (a1n + a0n) * (-a0n + a1n * u) / (a0p + a1p * u)
    c = (a0n - a1n * uf) / (a1p * uf - a0p) * (a0p + a1p * u) / (-a0n + a1n * u)
    tau = rho if compare(rho, 0) > 0 else mp.mpf(10) ** -30
    return compare(tau, b) <= 0 and compare(tau, c) <= 0


def _calibrated(case) -> Evaluation:
    return _verdict(case.calibrated, "U_phi is not U-calibrated here (a maximising sequence's limit misses U-dagger)",
                    "calibrated")


def _lemma1_printed(case) -> Evaluation:
    return _verdict(compare(case.u_star, case.u_dagger) <= 0, f"U_phi* = {_num(case.u_star)} > U-dagger = "
                                                              f"{_num(case.u_dagger)}")


def _prop5_printed(case) -> Evaluation:
    """The Bayes-optimal labellings are exactly those predicting +1 on the atoms with eta > delta and -1 on those
    with eta < delta (free on eta = delta)."""
    delta = _threshold(case.metric, case.u_dagger)
    predicted = {lab for lab in itertools.product((-1, 1), repeat=len(case.eta))
                 if all((compare(e, delta) <= 0 or s > 0) and (compare(e, delta) >= 0 or s < 0)
                        for e, s in zip(case.eta, lab))}
    return _verdict(predicted == set(case.optimal), f"optimal {sorted(case.optimal)}, predicted {sorted(predicted)}")


def _appc_printed(case) -> Evaluation:
    """R_S(W~'_k o F) <= 2 (gamma_+ + gamma_-) R_S(F) with the paper's multipliers (kappa = 1)."""
    if compare(case.kappa, 1) != 0:
        return _vacuous("the printed lemma's multipliers have kappa = 1")
    with mp.workdps(40):
        rhs = 2 * (exact_mpf(case.loss.gamma_plus) + exact_mpf(case.loss.gamma_minus)) * exact_mpf(
            case.rademacher_class)
        return _verdict(exact_mpf(case.lhs) <= rhs, f"R_S = {mp.nstr(exact_mpf(case.lhs), 10)} > {mp.nstr(rhs, 10)}")


PRINTED_STATEMENTS_AS_CODE: dict = {
    "thm:f-measure-calibration": PrintedStatement(
        "thm:f-measure-calibration", ("finite",),
        (("F_beta", lambda c: c.metric.family == "F_beta"), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("tau-discrepant, U* >= (1 + beta^2) tau/(beta^2 - tau)", _fbeta_printed_tau),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated),
    "thm:jaccard-calibration": PrintedStatement(
        "thm:jaccard-calibration", ("finite",),
        (("Jaccard", lambda c: c.metric.family == "Jaccard"), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("tau-discrepant, U* >= tau, tau < 1", _jaccard_printed_tau),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated),
    "thm:general-calibration": PrintedStatement(
        "thm:general-calibration", ("finite",),
        (("Definition 1", _definition1), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("(1)-(6), tau-discrepant with (b), (c)", _thm7_printed_conditions)), _calibrated,
        note="U(f*) read as U(sgn f*_0)"),
    "lem:utility-lower-bound": PrintedStatement(
        "lem:utility-lower-bound", ("finite",),
        (("Definition 1", _definition1), ("phi >= 1{t <= 0}", lambda c: c.loss.dominates)), _lemma1_printed,
        note="through its consequence sup U_phi <= sup U"),
    "prop:bayes-optimal-set": PrintedStatement(
        "prop:bayes-optimal-set", ("finite",),
        (("Definition 1", _definition1), ("Da0 - Da1 U-dagger > 0", HYPOTHESIS_PREDICATES["u_dagger_attained"])),
        _prop5_printed),
    "prop:accuracy-calibration": PrintedStatement(
        "prop:accuracy-calibration", ("finite",),
        (("accuracy", lambda c: c.metric.family == "accuracy"), ("phi convex", lambda c: c.loss.convex),
         ("phi differentiable at 0 with phi'(0) < 0",
          lambda c: compare(c.loss.left_slope, 0) < 0 and c.loss.rho is not None and compare(c.loss.rho, 1) == 0),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated,
        note="the 'if' direction, on each population (the 'only if' quantifies over populations)"),
    "lem:non-smooth-rademacher": PrintedStatement(
        "lem:non-smooth-rademacher", ("rademacher",),
        (("phi convex, in two smooth pieces", lambda c: c.loss.convex and c.loss.two_pieces),), _appc_printed),
}


def evaluate_printed(printed: PrintedStatement, case):
    """(hypotheses hold, Evaluation of the conclusion) of a printed claim on ``case`` (None, None out of scope)."""
    if case.kind not in printed.kinds:
        return None, None
    try:
        holds = all(bool(p(case)) for _, p in printed.hypotheses)
    except Undecidable as exc:
        return None, _undecidable(str(exc))
    if not holds:
        return False, None
    try:
        return True, printed.conclusion(case)
    except Undecidable as exc:
        return True, _undecidable(str(exc))
