"""Executable statements: every hypothesis and every conclusion of a corrected statement as a predicate that is
evaluated on concrete instances (issue 40).

A statement of :mod:`lfverify.proofs._corrected_statements` is text; this module is what the text says, as code,
for one instance at a time:

* the instances - :class:`FiniteCase` (a metric of Definition 1, a loss described by its properties and one-sided
  slopes at 0, a population of atoms with rational weights and posteriors, and the *facts* about it that an oracle
  computed from the definitions: U_phi*, U-dagger, which signs a maximiser of U_phi takes at each atom, every
  optimal labelling), :class:`ContinuousCase` (a distribution of eta with a density: the facts are utilities
  computed by quadrature), :class:`RademacherCase` (a sample, a finite function class and a two-piece loss: both
  sides of the corrected contraction bound by exact enumeration) and :class:`RateCase` (the parameters of Lemma 4's
  bound, for its displayed order);
* the predicates - one per hypothesis key (:data:`HYPOTHESIS_PREDICATES`: does the instance satisfy it?) and one per
  conclusion (:data:`CONCLUSION_PREDICATES`, keyed ``(statement key, conclusion key)``), each returning an
  :class:`Evaluation`: ``holds``, ``fails`` (a contradiction: the conclusion is false on an instance whose
  hypotheses hold), ``vacuous`` (the conclusion's own condition is not met there, so the instance does not exercise
  it) or ``undecidable`` (a tie the instance's precision cannot resolve, or a quantity the statement leaves
  undefined there - named, never counted as agreement).

The facts come from outside: the tests compute them with an oracle that shares no code with the proofs
(tests/proofs/adversary.py), the predicates compare them with what the statement predicts from its closed forms - the
functions below (:func:`kink_band`, :func:`bayes_threshold`, :func:`weak_form_rho_bound`, :func:`dinkelbach_weights`),
which are the corrected statements' formulas as code and are compared with the derived SymPy closed forms by the
``sign_pattern`` and ``criterion`` proofs.  ``tests/proofs/test_executable_statements.py`` evaluates every conclusion on
every instance the project owns and fails on a contradiction or on a conclusion no instance exercises.

This module reads a calibration case (the band, delta, the mass conditions), holds the conclusions of the calibration
statements and the registries, and is the one door to the executable statements: its parts live in
:mod:`~lfverify.proofs._executable_evaluation` (:class:`Evaluation` and exact comparison),
:mod:`~lfverify.proofs._executable_formulas` (the closed forms), :mod:`~lfverify.proofs._executable_instances` (the
instance kinds), :mod:`~lfverify.proofs._executable_hypotheses` (the hypotheses),
:mod:`~lfverify.proofs._executable_rademacher` (App. C's lemma and Lemma 4's rate) and
:mod:`~lfverify.proofs._executable_printed` (the printed claims), and every name of ``__all__`` is importable from here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

from lfverify.proofs._executable_evaluation import (
    STATUSES,
    Evaluation,
    Undecidable,
    _common,
    _defined,
    _fails,
    _holds,
    _le,
    _lt,
    _num,
    _undecidable,
    _Undefined,
    _vacuous,
    _verdict,
    compare,
)
from lfverify.proofs._executable_formulas import (
    _band,
    _h_of,
    _threshold,
    bayes_threshold,
    dinkelbach_weights,
    kink_band,
    weak_form_rho_bound,
)
from lfverify.proofs._executable_hypotheses import HYPOTHESIS_PREDICATES, evaluate_hypotheses
from lfverify.proofs._executable_instances import (
    ContinuousCase,
    FiniteCase,
    Loss,
    Metric,
    RademacherCase,
    RateCase,
)
from lfverify.proofs._executable_printed import (  # noqa: F401 - _canonical_utility: tests read Thm. 7's U(f*)
    PRINTED_STATEMENTS_AS_CODE,
    PrintedStatement,
    _canonical_utility,
    evaluate_printed,
)
from lfverify.proofs._executable_rademacher import (
    _rademacher_bound,
    _rademacher_printed,
    _rademacher_rates,
    _rate_deviation,
    _rate_expectation,
    _rate_order,
)

__all__ = [
    "STATUSES", "Evaluation", "Metric", "Loss", "FiniteCase", "ContinuousCase", "RademacherCase", "RateCase",
    "HYPOTHESIS_PREDICATES", "CONCLUSION_PREDICATES", "SCOPES", "in_scope", "evaluate_hypotheses",
    "evaluate_statement", "dinkelbach_weights", "kink_band", "bayes_threshold", "weak_form_rho_bound",
    "PrintedStatement", "PRINTED_STATEMENTS_AS_CODE", "evaluate_printed",
]


# ---------------------------------------------------------------------------------------------- reading a case
@dataclass(frozen=True)
class _Reading:
    """What the statements predict on a calibration case: the band, delta, the loss-level bounds, and the mass
    conditions (each True when the distribution puts no mass where the condition forbids it)."""

    rho: object
    a: object
    c: object
    alpha: object
    gamma: object
    delta: object
    eta_lo: object
    eta_hi: object
    bound: object  #: c alpha / (a gamma)
    no_gap: bool  #: no mass in (eta_hi, delta) or (delta, eta_lo)
    no_band_off_delta: bool  #: no mass in [eta_lo, eta_hi] off delta
    no_sign_gap: bool  #: no mass in (eta_hi, delta) or (delta, eta_hi]


def _read(case) -> _Reading:
    """The statement's quantities on ``case``; one whose closed form divides by zero there is :class:`_Undefined`
    (with the mass conditions that use it), so that a predicate reading it is undecidable and the others are not."""
    m, rho = case.metric, case.loss.rho
    if rho is None:
        raise Undecidable("rho = phi'(0+)/phi'(0-) is undefined (phi'(0-) = 0)")
    band = _defined(lambda: _band(m, rho, case.u_star), "the band's closed forms divide by zero here "
                                                         "(rho c + a = 0 or c + rho a = 0)")
    eta_lo, eta_hi = (band, band) if isinstance(band, _Undefined) else band
    delta = _defined(lambda: _threshold(m, case.u_dagger), "delta = gamma/(alpha + gamma) divides by zero here")
    bound = _defined(lambda: weak_form_rho_bound(m, case.u_star, case.u_dagger),
                     "c alpha/(a gamma) divides by zero here (a gamma = 0)")
    a, c = dinkelbach_weights(m, case.u_star)
    p0, n0, p1, n1, ud = _common(m.a0p, m.a0n, m.a1p, m.a1n, case.u_dagger)
    alpha, gamma = p0 - p1 * ud, n1 * ud - n0
    try:
        no_gap, no_band_off_delta, no_sign_gap = _mass_conditions(case, eta_lo, eta_hi, delta)
    except Undecidable as exc:
        no_gap = no_band_off_delta = no_sign_gap = _Undefined(str(exc))
    return _Reading(rho, a=a, c=c, alpha=alpha, gamma=gamma, delta=delta, eta_lo=eta_lo, eta_hi=eta_hi, bound=bound,
                    no_gap=no_gap, no_band_off_delta=no_band_off_delta, no_sign_gap=no_sign_gap)


def _mass_conditions(case, eta_lo, eta_hi, delta) -> tuple:
    """(no mass in (eta_hi, delta) or (delta, eta_lo), none in [eta_lo, eta_hi] off delta, none in (eta_hi, delta)
    or (delta, eta_hi])."""
    if case.kind == "finite":
        def mass_open(lo, hi):
            return any(_lt(lo, e) and _lt(e, hi) for e in case.eta)

        def mass_left_open(lo, hi):  # (lo, hi]
            return any(_lt(lo, e) and _le(e, hi) for e in case.eta)

        band_off = any(_le(eta_lo, e) and _le(e, eta_hi) and compare(e, delta) != 0 for e in case.eta)
    else:
        tol = case.tolerance

        def mass_open(lo, hi):
            return bool(_lt(lo, hi)) and case.mass(lo, hi) > tol

        mass_left_open = mass_open  # no atoms: the end point carries no mass
        band_off = case.mass(eta_lo, eta_hi) > tol
    no_gap = not (mass_open(eta_hi, delta) or mass_open(delta, eta_lo))
    no_sign_gap = not (mass_open(eta_hi, delta) or mass_left_open(delta, eta_hi))
    return no_gap, not band_off, no_sign_gap


def _side(case, r, j) -> int:
    """+1 above the closed band, -1 below, 0 in it (atom j)."""
    e = case.eta[j]
    return 1 if _lt(r.eta_hi, e) else -1 if _lt(e, r.eta_lo) else 0


def _bayes_label(r, e) -> int:
    return 1 if _lt(r.delta, e) else -1


# ---------------------------------------------------------------------------------------------- conclusions
def _separable(case) -> Evaluation:
    """A maximiser's values at an atom are the minimisers of g = a eta phi(xi) + c (1 - eta) phi(-xi): 0 is one iff
    g'(0-) <= 0 <= g'(0+); a positive one exists only if g'(0+) <= 0 and must if g'(0+) < 0 (and likewise below)."""
    if case.kind != "finite":
        return _vacuous("the facts of a continuous case are computed from the pointwise problem itself")
    a, c = dinkelbach_weights(case.metric, case.u_star)
    dm, dp = case.loss.left_slope, case.loss.right_slope
    if not case.attained:
        return _fails("U_phi does not attain its supremum: no f maximises it, while every g_eta has minimisers")
    for j, e in enumerate(case.eta):
        a, c, e, dp, dm = _common(a, c, e, dp, dm)
        right = a * e * dp - c * (1 - e) * dm  # g'(0+)
        left = a * e * dm - c * (1 - e) * dp  # g'(0-)
        zero = _le(left, 0) and _le(0, right)
        if case.can_zero[j] != zero:
            return _fails(f"atom {j} (eta = {_num(e)}): 0 is {'' if case.can_zero[j] else 'not '}a maximiser value "
                          f"but g'(0-) = {_num(left)}, g'(0+) = {_num(right)}")
        if (case.can_pos[j] and compare(right, 0) > 0) or (compare(right, 0) < 0 and not case.can_pos[j]):
            return _fails(f"atom {j}: positive maximiser values {case.can_pos[j]} against g'(0+) = {_num(right)}")
        if (case.can_neg[j] and compare(left, 0) < 0) or (compare(left, 0) > 0 and not case.can_neg[j]):
            return _fails(f"atom {j}: negative maximiser values {case.can_neg[j]} against g'(0-) = {_num(left)}")
    return _holds(f"{len(case.eta)} atoms")


def _band_interior(case) -> Evaluation:
    """eta_lo < eta_hi exactly when rho < 1."""
    r = _read(case)
    ok = (compare(r.eta_lo, r.eta_hi) < 0) == (compare(r.rho, 1) < 0)
    return _verdict(ok, f"band [{_num(r.eta_lo)}, {_num(r.eta_hi)}] with rho = {_num(r.rho)}")


def _signs(case) -> Evaluation:
    """For P-almost every x: every maximiser > 0 above eta_hi, < 0 below eta_lo, = 0 strictly inside; 0 a minimiser
    at the end points."""
    r = _read(case)
    if case.kind == "continuous":
        lo, hi = case.zero_interval
        tol = max(case.tolerance, 1e-9)
        ok = abs(float(lo) - float(r.eta_lo)) <= tol and abs(float(hi) - float(r.eta_hi)) <= tol
        return _verdict(ok, f"0 minimises the pointwise problem on [{lo:.10g}, {hi:.10g}], the band is "
                            f"[{_num(r.eta_lo)}, {_num(r.eta_hi)}]")
    for j in range(len(case.eta)):
        s = _side(case, r, j)
        got = (case.can_pos[j], case.can_neg[j], case.can_zero[j])
        if s > 0 and got != (True, False, False):
            return _fails(f"atom {j} above eta_hi: maximiser signs (pos, neg, zero) = {got}")
        if s < 0 and got != (False, True, False):
            return _fails(f"atom {j} below eta_lo: maximiser signs (pos, neg, zero) = {got}")
        strictly = _lt(r.eta_lo, case.eta[j]) and _lt(case.eta[j], r.eta_hi)
        if s == 0 and (not case.can_zero[j] or (strictly and got != (False, False, True))):
            return _fails(f"atom {j} in the band: maximiser signs (pos, neg, zero) = {got}")
    return _holds(f"{len(case.eta)} atoms against [{_num(r.eta_lo)}, {_num(r.eta_hi)}]")


def _truth(case) -> dict:
    """The facts the calibration conclusions are about, from the instance: calibrated, the sign rule for f*_0, and
    whether the Bayes labelling of the zero set attains U-dagger (the weak form's labelling)."""
    if case.kind == "finite":
        r = _read(case)
        bayes_on_zero = tuple(_bayes_label(r, e) if z else (1 if p else -1)
                              for e, p, z in zip(case.eta, case.can_pos, case.can_zero))
        return {"calibrated": case.calibrated, "sign_rule": case.canonical_labelling in case.optimal,
                "kink_set": bayes_on_zero in case.optimal}
    tol = case.tolerance

    def attains(u):
        return abs(float(u) - float(case.u_dagger)) <= tol

    return {"calibrated": attains(case.u_minus_on_zero) and attains(case.u_plus_on_zero),
            "sign_rule": attains(case.u_minus_on_zero), "kink_set": attains(case.u_bayes_on_zero)}


def _weak_form_truth(case, r) -> bool:
    """Every maximiser's non-zero values carry a Bayes label (almost everywhere) and every labelling equal to
    sgn f* off {f* = 0} and to the Bayes rule on it attains U-dagger."""
    if case.kind == "continuous":
        return _truth(case)["kink_set"]
    options = []
    for j, (e, p, n, z) in enumerate(zip(case.eta, case.can_pos, case.can_neg, case.can_zero)):
        allowed = case.bayes_labels[j]
        if (p and 1 not in allowed) or (n and -1 not in allowed):
            return False
        o = ({1} if p else set()) | ({-1} if n else set()) | ({_bayes_label(r, e)} if z else set())
        options.append(sorted(o))
    return all(lab in case.optimal for lab in itertools.product(*options))


def _calibration(case) -> Evaluation:
    r, t = _read(case), _truth(case)
    predicted = r.no_gap and r.no_band_off_delta
    return _verdict(t["calibrated"] == predicted, f"calibrated {t['calibrated']}, the mass condition {predicted}",
                    f"calibrated {t['calibrated']}")


def _sign_rule(case) -> Evaluation:
    r, t = _read(case), _truth(case)
    return _verdict(t["sign_rule"] == r.no_sign_gap, f"sgn f*_0 Bayes optimal {t['sign_rule']}, the mass condition "
                                                     f"{r.no_sign_gap}", f"sgn f*_0 Bayes optimal {t['sign_rule']}")


def _kink_set(case) -> Evaluation:
    """The limits of U are the labellings that follow sgn f* off the closed band and are arbitrary on it; U-dagger
    is among them iff no mass between the band and delta, and then the Bayes labelling of the band attains it."""
    r, t = _read(case), _truth(case)
    if case.kind == "finite":
        predicted = tuple({1 if _side(case, r, j) > 0 else -1} if _side(case, r, j) else {1, -1}
                          for j in range(len(case.eta)))
        if predicted != case.limit_labels:
            return _fails(f"limit labels {case.limit_labels}, predicted {predicted}")
        attained = any(lab in case.optimal for lab in itertools.product(*[sorted(s) for s in predicted]))
        if attained != r.no_gap:
            return _fails(f"U-dagger among the limits {attained}, the mass condition {r.no_gap}")
    if r.no_gap and not t["kink_set"]:
        return _fails("no mass between the band and delta, but the Bayes labelling of the band misses U-dagger")
    if not r.no_gap and t["kink_set"]:
        return _fails("mass between the band and delta, but the Bayes labelling of the band attains U-dagger")
    return _holds(f"U-dagger among the limits: {r.no_gap}")


def _loss_condition(case) -> Evaluation:
    """If U* <= U-dagger and rho <= c alpha / (a gamma), the Bayes labelling of the band attains U-dagger."""
    r = _read(case)
    if compare(case.u_star, case.u_dagger) > 0:
        return _vacuous("U* <= U-dagger does not hold")
    if not _le(r.rho, r.bound):
        return _vacuous(f"rho = {_num(r.rho)} > c alpha/(a gamma) = {_num(r.bound)}")
    if not (_le(r.eta_lo, r.delta) and _le(r.delta, r.eta_hi)):
        return _fails(f"delta = {_num(r.delta)} outside the band [{_num(r.eta_lo)}, {_num(r.eta_hi)}]")
    return _verdict(_truth(case)["kink_set"], "the Bayes labelling of the band misses U-dagger")


def _mass_on_both_sides_of_delta(case, r) -> bool:
    """Every neighbourhood of delta has positive probability on both sides of it (never for atoms)."""
    if case.kind == "finite":
        return False
    eps = 1e-6
    return case.mass(r.delta - eps, r.delta) > 0 and case.mass(r.delta, r.delta + eps) > 0


def _continuous(case) -> Evaluation:
    """With mass on both sides of delta in every neighbourhood: calibration only if eta_lo = eta_hi = delta."""
    r = _read(case)
    if not _mass_on_both_sides_of_delta(case, r):
        return _vacuous("no mass on both sides of delta in every neighbourhood (atoms only)")
    calibrated = _truth(case)["calibrated"]
    degenerate = abs(float(r.eta_lo) - float(r.delta)) < 1e-12 and abs(float(r.eta_hi) - float(r.delta)) < 1e-12
    return _verdict(not calibrated or degenerate, "calibrated although the band is not {delta}",
                    f"calibrated {calibrated}")


def _continuous_metric(family: str) -> Callable:
    """Thms. 1 (F_beta, never calibrated) and 2 (Jaccard: only rho = 1 and U* = U-dagger) on eta-continuous P."""
    def predicate(case) -> Evaluation:
        r = _read(case)
        if not _mass_on_both_sides_of_delta(case, r):
            return _vacuous("no mass on both sides of delta in every neighbourhood (atoms only)")
        calibrated = _truth(case)["calibrated"]
        if family == "F_beta":
            return _verdict(not calibrated, "an F_beta case is calibrated on an eta-continuous population")
        allowed = abs(float(r.rho) - 1) < 1e-12 and abs(float(case.u_star) - float(case.u_dagger)) < 1e-12
        return _verdict(not calibrated or allowed, "calibrated with rho < 1 or U* < U-dagger")
    return predicate


def _weak_form(bound_name: str) -> Callable:
    """If rho <= the statement's bound, the weak form holds (and the printed hypothesis implies the bound)."""
    def predicate(case) -> Evaluation:
        r = _read(case)
        if bound_name == "H(1) c/a":
            h1 = _defined(lambda: _h_of(case.metric, 1), "H(1) = (a0p - a1p)/(a1n - a0n) divides by zero here")
            h1, c, a = _common(h1, r.c, r.a)
            bound = h1 * c / a
            if not _le(bound, r.bound):  # H(1) <= H(U-dagger) since U-dagger <= 1
                return _fails(f"H(1) c/a = {_num(bound)} > c alpha/(a gamma) = {_num(r.bound)}")
        else:
            bound = r.bound
        if not _le(r.rho, bound):
            return _vacuous(f"rho = {_num(r.rho)} > {bound_name} = {_num(bound)}")
        return _verdict(_weak_form_truth(case, r), f"rho = {_num(r.rho)} <= {bound_name} = {_num(bound)}, but a "
                                                   "maximiser's sign or the Bayes labelling of its zero set fails")
    return predicate


def _calibration_under_bound(case) -> Evaluation:
    """Calibration iff the mass conditions; if rho <= the bound, iff the band carries no mass except at delta."""
    first = _calibration(case)
    if first.status != "holds":
        return first
    r, t = _read(case), _truth(case)
    if not _le(r.rho, r.bound):
        return _holds(first.detail + " (rho above the bound: the second clause is not exercised)")
    return _verdict(t["calibrated"] == r.no_band_off_delta, f"rho <= the bound: calibrated {t['calibrated']}, no "
                                                            f"band mass off delta {r.no_band_off_delta}")


def _printed_implies(case) -> Evaluation:
    """The printed hypothesis (rho <= tau, U* >= (1 + beta^2) tau / (beta^2 - tau) for some tau in (0, beta^2)) implies
    rho <= tau_printed <= tau_F; evaluated with tau = rho, the smallest tau the loss allows."""
    r = _read(case)
    rho, beta2, u = _common(r.rho, case.metric.beta2, case.u_star)
    if not (compare(rho, 0) > 0 and _lt(rho, beta2)) or _lt(u, (1 + beta2) * rho / (beta2 - rho)):
        return _vacuous("the printed hypothesis does not hold for any tau >= rho")
    tau_printed = u * beta2 / (u + beta2 + 1)
    return _verdict(_le(rho, tau_printed) and _le(tau_printed, r.bound),
                    f"rho = {_num(rho)}, tau_printed = {_num(tau_printed)}, tau_F = {_num(r.bound)}")


def _fbeta_weak_form(case) -> Evaluation:
    first = _weak_form("tau_F")(case)
    if first.status == "fails":
        return first
    second = _printed_implies(case)
    return second if second.status == "fails" else first


def _tau_range_fbeta(case) -> Evaluation:
    r, beta2 = _read(case), case.metric.beta2
    top = (1 + beta2 - case.u_dagger) / (1 + beta2 + case.u_dagger)
    ok = _le(r.bound, top) and _lt(top, 1) and not (compare(r.rho, 1) == 0 and _le(r.rho, r.bound))
    return _verdict(ok, f"tau_F = {_num(r.bound)}, (1 + beta^2 - U-dagger)/(1 + beta^2 + U-dagger) = {_num(top)}")


def _tau_range_jaccard(case) -> Evaluation:
    r = _read(case)
    ok = _le(r.bound, 1) and (compare(r.bound, 1) < 0 or compare(case.u_star, case.u_dagger) == 0)
    return _verdict(ok, f"U*/U-dagger = {_num(r.bound)}")


def _sign_rule_remark(case) -> Evaluation:
    """Sign rule for f*_0, and: maximisers' signs differ only on the band's end points."""
    first = _sign_rule(case)
    if first.status != "holds" or case.kind != "finite":
        return first
    r = _read(case)
    for j, e in enumerate(case.eta):
        several = case.can_pos[j] + case.can_neg[j] + case.can_zero[j] > 1
        if several and compare(e, r.eta_lo) != 0 and compare(e, r.eta_hi) != 0:
            return _fails(f"atom {j} (eta = {_num(e)}) off the band's end points has maximisers of several signs")
    return first


def _criterion_all(case) -> Evaluation:
    for predicate in (_calibration, _sign_rule, _kink_set):
        result = predicate(case)
        if result.status != "holds":
            return result
    return _holds("calibration, sign rule and kink set")


CONCLUSION_PREDICATES: dict = {
    ("corrected_calibration.sign_pattern", "separable"): _separable,
    ("corrected_calibration.sign_pattern", "signs"): _signs,
    ("corrected_calibration.sign_pattern", "interior"): _band_interior,
    ("corrected_calibration.criterion", "calibration"): _calibration,
    ("corrected_calibration.criterion", "sign_rule"): _sign_rule,
    ("corrected_calibration.criterion", "kink_set"): _kink_set,
    ("corrected_calibration.criterion", "loss_condition"): _loss_condition,
    ("corrected_calibration.criterion", "continuous"): _continuous,
    ("corrected_calibration.fbeta", "weak_form"): _fbeta_weak_form,
    ("corrected_calibration.fbeta", "calibration"): _calibration_under_bound,
    ("corrected_calibration.fbeta", "sign_rule"): _sign_rule_remark,
    ("corrected_calibration.fbeta", "continuous"): _continuous_metric("F_beta"),
    ("corrected_calibration.fbeta", "tau_range"): _tau_range_fbeta,
    ("corrected_calibration.jaccard", "weak_form"): _weak_form("U*/U-dagger"),
    ("corrected_calibration.jaccard", "calibration"): _calibration_under_bound,
    ("corrected_calibration.jaccard", "continuous"): _continuous_metric("Jaccard"),
    ("corrected_calibration.jaccard", "tau_range"): _tau_range_jaccard,
    ("corrected_calibration.general", "condition_b"): _weak_form("H(1) c/a"),
    ("corrected_calibration.general", "criterion"): _criterion_all,
    ("corrected_calibration.general", "continuous"): _continuous,
    ("corrected_rademacher.lemma", "bound"): _rademacher_bound,
    ("corrected_rademacher.lemma", "rates"): _rademacher_rates,
    ("corrected_rademacher.lemma", "printed"): _rademacher_printed,
    ("corrected_rademacher.rate", "expectation"): _rate_expectation,
    ("corrected_rademacher.rate", "deviation"): _rate_deviation,
    ("corrected_rademacher.rate", "order"): _rate_order,
}

#: statement key -> (instance kinds it speaks of, the metric family it is about or "" for any)
SCOPES: dict = {
    "corrected_calibration.sign_pattern": (("finite", "continuous"), ""),
    "corrected_calibration.criterion": (("finite", "continuous"), ""),
    "corrected_calibration.fbeta": (("finite", "continuous"), "F_beta"),
    "corrected_calibration.jaccard": (("finite", "continuous"), "Jaccard"),
    "corrected_calibration.general": (("finite", "continuous"), ""),
    "corrected_rademacher.lemma": (("rademacher",), ""),
    "corrected_rademacher.rate": (("rate",), ""),
}


def in_scope(statement, case) -> bool:
    """Whether ``case`` is an instance ``statement`` speaks of (its kind, and its metric for Thms. 1 and 2)."""
    kinds, family = SCOPES[statement.key]
    if case.kind not in kinds:
        return False
    return not family or case.metric.family == family


def evaluate_statement(statement, case) -> dict:
    """{conclusion key: Evaluation} of every conclusion of ``statement`` on ``case`` (whose hypotheses the caller
    has found to hold).  A predicate that cannot decide says so (``undecidable``, with the reason)."""
    out = {}
    for c in statement.conclusions:
        predicate = CONCLUSION_PREDICATES.get((statement.key, c.key))
        if predicate is None:
            out[c.key] = _undecidable("no predicate for this conclusion")
            continue
        try:
            out[c.key] = predicate(case)
        except Undecidable as exc:
            out[c.key] = _undecidable(str(exc))
    return out
