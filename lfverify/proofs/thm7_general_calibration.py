"""Thm. 7 (thm:general-calibration): U-calibration for general linear-fractional utilities (App. A.4).

Claims checked here:

* the equivalence chain eq:supp:calibration:contradiction:1 (and :2): eta_OPT from Prop. 5's Bayes set,
  rewritten as 1/(1 + H(U(f*))), and the stationary eta_STA (derived from Eq. (3)) as 1/(1 + K r);
* the partial-fraction form of H when a_{1,-1} != 0;
* when H is decreasing and on which interval, against conditions (5) and (6);
* H(1) against condition (b)'s factor and the underbrace "= H(1)" (and condition (4));
* the case a_{1,-1} = 0;
* the sign claims of cases 1 and 2;
* conditions (b), (c) for Table 1's F_beta and Jaccard coefficients against Thms. 1 and 2, and for accuracy;
* the theorem itself (the counterexample of :mod:`.thm1_fbeta_calibration` satisfies (1)-(6), (a)-(c)).

Notation: a0p, a0n, a1p, a1n are a_{0,+1}, a_{0,-1}, a_{1,+1}, a_{1,-1}; Da0 = a0p - a0n, Da1 = a1p - a1n;
S = U*_phi, U = U(f*); p = phi'(f*(x)), q = phi'(-f*(x)), r = p/q; K = (a0p + a1p S)/(-a0n + a1n S).
Test metrics with a0n != 0: accuracy (lfverify.core.accuracy), Gower-Legendre (outside Definition 1 for
alpha != 1) and two admissible custom metrics built below.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp

from lfverify.core import (
    DEFAULT_SEED,
    FiniteSupportPopulation,
    LinearFractionalMetric,
    accuracy,
    f_beta,
    general_calibration,
    gower_legendre,
    logistic,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._thm1_counterexamples import F1_COEFFICIENTS, _nstr, _witness_populations
from lfverify.proofs.thm1_fbeta_calibration import library_counterexample, stationary_eta, surrogate_scores

__all__ = ["CLAIMS"]

a0p = sp.Symbol("a0p", positive=True)
a0n = sp.Symbol("a0n", nonpositive=True)
a1p, a1n = sp.symbols("a1p a1n", nonnegative=True)
t = sp.Symbol("t", real=True)
S, U = sp.symbols("S U", positive=True)
p, q = sp.symbols("p q", negative=True)
r, H_, K_ = sp.symbols("r H K", positive=True)
tau = sp.Symbol("tau", positive=True)
beta = sp.Symbol("beta", positive=True)
DA0, DA1 = a0p - a0n, a1p - a1n

# ---- printed forms, transcribed from the LaTeX source ---------------------------------------------------------
# Prop. 5 (prop:bayes-optimal-set): B = {f | f(x){(Da0 - Da1 U(f)) eta(x) - (a1n U(f) - a0n)} > 0}.
PRINTED_BAYES_CONDITION = lambda eta, u: (DA0 - DA1 * u) * eta - (a1n * u - a0n)  # noqa: E731
# eq:supp:calibration:contradiction:1, underbrace: H(U(f*)) = (a1p U - a0p)/(a0n - a1n U).
PRINTED_H = (a1p * t - a0p) / (a0n - a1n * t)
# The "> 0" underbrace in the same chain: K = (a0p + a1p U*)/(-a0n + a1n U*).
PRINTED_K = (a0p + a1p * S) / (-a0n + a1n * S)
# eq:supp:stationary-condition (eta_STA), as printed: note (a0p - a1p U*) in the denominator.
PRINTED_ETA_STA = (-a0n + a1n * S) * q / ((a0p - a1p * S) * p + (-a0n + a1n * S) * q)
# "If a1n != 0, H(t) = ((a0p a1n + a0n a1p)/a1n^2)/(t + a0n/a1n) - a1p/a1n."
PRINTED_H_PARTIAL = ((a0p * a1n + a0n * a1p) / a1n**2) / (t + a0n / a1n) - a1p / a1n
# Condition (5) and condition (6) / the interval of monotonicity.
PRINTED_CONDITION_5 = a0p * a1n + a0n * a1p  # > 0
PRINTED_MONOTONE_LEFT_END = -a0n / a1n  # "H is monotonically decreasing on -a0n/a1n < t <= 1"; (6): U(f*) > this
# Text: "H(U(f*)) >= H(1) = (a0p - a1p)/(a1n - a0n)".
PRINTED_H1_TEXT = (a0p - a1p) / (a1n - a0n)
# Condition (b) and the underbrace "= H(1)" in case 1: (a0p - a1p)/(a1n + a0n).
PRINTED_H1_CONDITION_B = (a0p - a1p) / (a1n + a0n)
PRINTED_CONDITION_B = PRINTED_H1_CONDITION_B * (-a0n + a1n * S) / (a0p + a1p * S)  # tau <= this
# Condition (c): tau <= (a0n - a1n U)/(a1p U - a0p) * (a0p + a1p U*)/(-a0n + a1n U*).
PRINTED_CONDITION_C = (a0n - a1n * U) / (a1p * U - a0p) * (a0p + a1p * S) / (-a0n + a1n * S)
# "If a1n = 0, H(t) = (a1p/a0n) t - a0p/a0n."
PRINTED_H_A1N_ZERO = (a1p / a0n) * t - a0p / a0n
# Case 1: "a0n - a1n U(f*) < 0 and -a0n + a1n U* > 0"; case 2: "a1p U(f*) - a0p > 0".
PRINTED_CASE1_NEGATIVE = a0n - a1n * U
PRINTED_CASE1_POSITIVE = -a0n + a1n * S
PRINTED_CASE2_POSITIVE = a1p * U - a0p
# ----------------------------------------------------------------------------------------------------------------

ACCURACY = dict(a0p=1, a0n=-1, a1p=0, a1n=0)
# Two metrics satisfying Definition 1 with a0n != 0 and a1n > 0 (checked with admissibility() below):
#   M1 = (2 TP - FP + 1 - pi)/(TP + FP + 1),   M2 = (TP - FP + 1 - pi)/(TP + FP/2 + 1).
M1 = dict(a0p=2, a0n=-1, a1p=1, a1n=1)
M2 = dict(a0p=1, a0n=-1, a1p=1, a1n=Fraction(1, 2))


def _at(expr, coefficients, **more):
    values = {a0p: coefficients["a0p"], a0n: coefficients["a0n"], a1p: coefficients["a1p"], a1n: coefficients["a1n"]}
    values = {k: sp.nsimplify(v) for k, v in values.items()}
    values.update({sp.Symbol(k, positive=True): sp.nsimplify(v) for k, v in more.items()})
    return sp.nsimplify(expr.subs(values))


def _library_metric(coefficients, **offsets):
    return LinearFractionalMetric(**{k: float(v) for k, v in coefficients.items()}, **offsets)


def _derived_h():
    """H with eta_OPT = 1/(1 + H): eta_OPT solves Prop. 5's boundary equation, then H = 1/eta_OPT - 1."""
    eta = sp.Symbol("eta", real=True)
    (eta_opt,) = sp.solve(PRINTED_BAYES_CONDITION(eta, t), eta)
    return eta_opt, sp.factor(sp.cancel(1 / eta_opt - 1))


def _derived_eta_sta():
    w0, w1, xi, eta, phi = surrogate_scores(a0p=a0p, a0n=a0n, a1p=a1p, a1n=a1n, b0=sp.Symbol("b0"), b1=sp.Symbol("b1"))
    return stationary_eta(w0=w0, w1=w1, xi=xi, eta=eta, phi=phi)


def check_equivalence_chain() -> Outcome:
    """eq:supp:calibration:contradiction:1 and :2 from eta_OPT (Prop. 5) and eta_STA (Eq. (3), G'(0) = 0).

    Derives H = 1/eta_OPT - 1 and K = (1/eta_STA - 1)/r (p = r q), compares them with the printed H and the
    printed factor K, and checks each equivalence: eta_OPT - eta_STA = (K r - H)/((1+H)(1+K r)), so with
    1 + H > 0 and 1 + K r > 0, eta_OPT <= eta_STA <=> H >= K r <=> H/K >= r (K > 0); and for case 2
    K/H - 1/r = (K r - H)/(H r), which needs H > 0.
    """
    eta_opt, h = _derived_h()
    h_ok = sp.cancel(h - PRINTED_H) == 0
    eta_sta = _derived_eta_sta()
    k = sp.factor(sp.cancel((1 / eta_sta.subs(p, r * q) - 1) / r))
    k_ok = sp.cancel(k - PRINTED_K) == 0
    printed_sta_ok = sp.cancel(eta_sta - PRINTED_ETA_STA) == 0
    one_over = lambda x: 1 / (1 + x)  # noqa: E731
    step1 = sp.cancel(one_over(H_) - one_over(K_ * r) - (K_ * r - H_) / ((1 + H_) * (1 + K_ * r))) == 0
    step2 = sp.cancel((H_ / K_ - r) - (H_ - K_ * r) / K_) == 0
    step3 = sp.cancel((K_ / H_ - 1 / r) - (K_ * r - H_) / (H_ * r)) == 0
    k_positive = (a0p + a1p * S).is_positive  # numerator of K; its denominator: see sign_claims
    if not (h_ok and k_ok and step1 and step2 and step3 and k_positive):
        return Outcome("undecided", f"H {h_ok}, K {k_ok}, steps {step1, step2, step3}")
    return Outcome(
        "verified",
        "eta_OPT = (a1n U - a0n)/(Da0 - Da1 U) = 1/(1 + H(U)) with H(t) = (a1p t - a0p)/(a0n - a1n t), and eta_STA "
        "(derived from Eq. (3)) = 1/(1 + K r) with K = (a0p + a1p U*)/(-a0n + a1n U*), both as in the chain; each "
        "<=> holds given 1 + H > 0, K > 0 (case 1) and H > 0 (case 2's reciprocal).  "
        + (
            ""
            if printed_sta_ok
            else (
                "Not used by the chain: eq:supp:stationary-condition prints (a0p - a1p U*) p where "
                "Eq. (3) gives (a0p + a1p U*) p (see the stationary_conditions module).  "
            )
        )
        + "Typographical: the proof's closing line cites "
        "Prop. 5 (prop:bayes-optimal-set) where Prop. 6 (prop:calibration) is meant.  (The proof's display of "
        "W_{k,phi}, with phi(xi) and phi(-xi) swapped relative to Eq. (3), is checked in stationary_conditions.)",
    )


def _threshold_evidence(coefficients, offsets, atoms_eta, weights):
    """Core-library evidence that eta_OPT(U-dagger) is the Bayes threshold: the exact Bayes rule of a finite
    population predicts +1 exactly above metric.bayes_optimal_threshold(U-dagger).  Returns (U-dagger, H)."""

    metric = _library_metric(coefficients, **offsets)
    pop = FiniteSupportPopulation(np.eye(len(weights)), np.array(weights), np.array(atoms_eta))
    best = pop.bayes_optimal(metric)
    brute = pop._reference_bayes_optimal(metric)
    threshold = float(metric.bayes_optimal_threshold(best.utility))
    agrees = np.array_equal(best.classifier, np.array(atoms_eta) > threshold) and abs(brute - best.utility) < 1e-12
    return best.utility, 1.0 / threshold - 1.0, agrees


M1_OFFSETS = dict(b0_const=1.0, b0_prior=-1.0, b1_const=1.0)
M2_OFFSETS = dict(b0_const=1.0, b0_prior=-1.0, b1_const=1.0)
EVIDENCE_ETA = [0.95, 0.8, 0.6, 0.45, 0.3, 0.1]
EVIDENCE_WEIGHTS = [0.1, 0.15, 0.2, 0.25, 0.2, 0.1]


def check_partial_fraction() -> Outcome:
    """The partial-fraction form of H (a1n != 0): sympy.apart of the derived H versus the printed form."""
    _, h = _derived_h()
    derived = sp.apart(h, t)
    expected = ((a0p * a1n - a0n * a1p) / a1n**2) / (t - a0n / a1n) - a1p / a1n
    if sp.cancel(derived - expected) != 0:
        return Outcome("undecided", f"apart gave {derived}")
    gap = sp.factor(sp.cancel(PRINTED_H_PARTIAL - h))
    if gap == 0:
        return Outcome("verified", "the printed partial fraction equals H")
    coeffs = M1
    printed_half = _at(PRINTED_H_PARTIAL, coeffs).subs(t, sp.Rational(1, 2))
    derived_half = _at(h, coeffs).subs(t, sp.Rational(1, 2))
    admissible = _library_metric(coeffs, **M1_OFFSETS).admissibility().admissible
    u_dagger, h_lib, agrees = _threshold_evidence(coeffs, M1_OFFSETS, EVIDENCE_ETA, EVIDENCE_WEIGHTS)
    h_at_u = float(_at(h, coeffs).subs(t, sp.nsimplify(u_dagger)))
    printed_at_u = float(_at(PRINTED_H_PARTIAL, coeffs).subs(t, sp.nsimplify(u_dagger)))
    if not (admissible and agrees and abs(h_lib - h_at_u) < 1e-9 and printed_half != derived_half):
        return Outcome("undecided", "the witness / library evidence did not reproduce")
    erratum = Erratum(
        location="App. A.4, proof of thm:general-calibration, case 1, 'If a_{1,-1} != 0, we have H(t) = ...'",
        printed="H(t) = ((a0p a1n + a0n a1p)/a1n^2)/(t + a0n/a1n) - a1p/a1n",
        derived=(
            "H(t) = ((a0p a1n - a0n a1p)/a1n^2)/(t - a0n/a1n) - a1p/a1n  (sympy.apart of (a1p t - a0p)/(a0n - a1n t))"
        ),
        consequence=(
            "The pole's sign is wrong whenever a0n != 0, the numerator's as well when also a1p != 0; they agree for "
            "a0n = "
            "0 (F_beta, Jaccard).  The "
            "errors propagate to condition (5) and to the interval of monotonicity / condition (6) (see those claims)."
        ),
        witness=(
            "M1 = (2TP - FP + 1 - pi)/(TP + FP + 1) (a0 = (2, -1), a1 = (1, 1); Definition 1 holds), t = 1/2: derived "
            f"H = {derived_half}, printed {printed_half}"
        ),
        evidence=(
            f"Core library, 6-atom population (weights {EVIDENCE_WEIGHTS}, eta = {EVIDENCE_ETA}; M1 with b_0 = 1 - pi, "
            f"b_1 = 1): the exact Bayes rule (checked against brute force"
            f" over all labelings) predicts +1 exactly above eta_OPT(U-dagger), U-dagger = {u_dagger:.12g}, and"
            f" 1/eta_OPT - 1 = {h_lib:.12g} = derived H(U-dagger) = {h_at_u:.12g}, while the printed form gives"
            f" {printed_at_u:.12g}; printed - derived = {gap}"
        ),
    )
    return Outcome(
        "erratum",
        "The printed partial fraction of H has the wrong sign in its pole when a0n != 0 (and in its numerator when "
        "also "
        "a1p != 0).",
        errata=(erratum,),
        method="symbolic (sympy.apart); core library Bayes rule on a 6-atom population",
    )


def _condition_5_erratum(*, slope, implied, m2_printed_5, m2_derived_5, m2_decreasing, acc_printed_5) -> Erratum:
    """The erratum of Thm. 7's condition (5) (App. A.4, thm:general-calibration): H'(t) = ``slope`` is negative iff
    a0p a1n - a0n a1p > 0, which the printed (5) implies with room ``implied``; the witnesses M2 (printed (5)
    ``m2_printed_5`` < 0 < ``m2_derived_5``, H decreasing: ``m2_decreasing``) and accuracy (``acc_printed_5``)."""
    return Erratum(
        location=(
            "App. A.4, thm:general-calibration, condition (5), and 'Since (a0p a1n + a0n a1p)/a1n^2 > 0, H is"
            " decreasing'"
        ),
        printed="(5) a0p a1n + a0n a1p > 0",
        derived=(
            "H'(t) = (a0n a1p - a0p a1n)/(a0n - a1n t)^2, so H is decreasing iff a0p a1n - a0n a1p > 0, which holds"
            " automatically when a1n > 0 (a0p > 0, a0n <= 0, a1p >= 0); when a1n = 0, H is linear with slope a1p/a0n"
            " <= 0"
        ),
        consequence=(
            "Condition (5) is not needed.  As printed it is a stronger hypothesis that wrongly excludes admissible "
            "metrics, and it fails for every metric with a1n = 0 (a0n a1p <= 0), e.g. accuracy, making the proof's "
            "a1n = 0 branch unreachable."
        ),
        witness=(
            f"M2 = (TP - FP + 1 - pi)/(TP + FP/2 + 1) (Definition 1 holds): printed (5) = {m2_printed_5} < 0, derived"
            f" a0p a1n - a0n a1p = {m2_derived_5} > 0 and H'(1/2) < 0: {m2_decreasing}; accuracy: printed (5) ="
            f" {acc_printed_5}"
        ),
        evidence=f"sympy: H'(t) = {slope}; derived minus printed condition = {implied} >= 0",
    )


def _condition_6_erratum(*, slope, pole, m1_left_printed, m1_pole) -> Erratum:
    """The erratum of Thm. 7's condition (6) (App. A.4, thm:general-calibration): H's only pole is t = ``pole``
    (a0n/a1n <= 0), where H' = ``slope`` keeps its sign on either side; the witness M1 (printed left end
    ``m1_left_printed``, pole ``m1_pole``)."""
    return Erratum(
        location=(
            "App. A.4, thm:general-calibration, condition (6), and 'H is monotonically decreasing on -a0n/a1n < t <= 1'"
        ),
        printed="(6) if a1n > 0 then U(f*) > -a0n/a1n; H decreasing on (-a0n/a1n, 1]",
        derived=(
            "the only pole of H is t = a0n/a1n <= 0, so H is decreasing on (a0n/a1n, infinity), which contains (0, 1]: "
            "U(f*) > a0n/a1n holds automatically for U(f*) > 0 (and for U(f*) >= 0 when a0n < 0)"
        ),
        consequence=(
            "Condition (6) is not needed (it coincides with the harmless U(f*) > 0 when a0n = 0: F_beta, Jaccard); for "
            "a0n < 0 it demands U(f*) > |a0n|/a1n, which can be impossible, so the printed theorem never applies to "
            "such admissible metrics."
        ),
        witness=(
            f"M1 (a0 = (2, -1), a1 = (1, 1)): printed (6) requires U(f*) > {m1_left_printed} (impossible, U <= 1); the"
            f" pole is at t = {m1_pole}"
        ),
        evidence=(
            f"sympy: the denominator of H vanishes only at t = {pole}; H' = {slope} has the sign of a0n a1p - a0p"
            " a1n on either side"
        ),
    )


def check_monotonicity() -> Outcome:
    """When H is decreasing, and on which interval: H'(t) from the derived H, versus conditions (5) and (6)."""
    _, h = _derived_h()
    slope = sp.factor(sp.diff(h, t))
    expected_slope = (a0n * a1p - a0p * a1n) / (a0n - a1n * t) ** 2
    if sp.cancel(slope - expected_slope) != 0:
        return Outcome("undecided", f"H'(t) = {slope}")
    derived_5 = a0p * a1n - a0n * a1p  # H decreasing iff this is > 0
    pole = sp.solve(sp.denom(sp.together(h)), t)
    # (5) as printed implies the derived condition (difference -2 a0n a1p >= 0) ...
    implied = sp.expand(derived_5 - PRINTED_CONDITION_5)
    # ... and the derived condition holds automatically when a1n > 0 (a0p > 0, -a0n a1p >= 0)
    a1n_pos = sp.Symbol("a1n", positive=True)
    automatic = derived_5.subs(a1n, a1n_pos).is_positive
    # witnesses: (5) printed fails for M2 (admissible, a1n > 0) and for accuracy (a1n = 0), where H is monotone anyway
    m2_printed_5 = _at(PRINTED_CONDITION_5, M2)
    m2_derived_5 = _at(derived_5, M2)
    acc_printed_5 = _at(PRINTED_CONDITION_5, ACCURACY)
    m1_left_printed = _at(PRINTED_MONOTONE_LEFT_END, M1)
    m1_pole = _at(pole[0], M1)
    m2_admissible = _library_metric(M2, **M2_OFFSETS).admissibility().admissible
    m1_admissible = _library_metric(M1, **M1_OFFSETS).admissibility().admissible
    if not (
        implied.is_nonnegative
        and automatic
        and len(pole) == 1
        and sp.cancel(pole[0] - a0n / a1n) == 0
        and m2_printed_5 < 0 < m2_derived_5
        and acc_printed_5 == 0
        and m1_left_printed == 1
        and m1_pole == -1
        and m1_admissible
        and m2_admissible
    ):
        return Outcome("undecided", "could not confirm the monotonicity analysis")
    h_m2 = _at(h, M2)
    m2_decreasing = sp.diff(h_m2, t).subs(t, sp.Rational(1, 2)) < 0
    erratum_5 = _condition_5_erratum(slope=slope, implied=implied, m2_printed_5=m2_printed_5,
                                     m2_derived_5=m2_derived_5, m2_decreasing=m2_decreasing,
                                     acc_printed_5=acc_printed_5)
    erratum_6 = _condition_6_erratum(slope=slope, pole=pole[0], m1_left_printed=m1_left_printed, m1_pole=m1_pole)
    return Outcome(
        "erratum",
        "H is decreasing iff a0p a1n - a0n a1p > 0, on (a0n/a1n, inf): conditions (5) and (6) are "
        "misderived and unnecessary.",
        errata=(erratum_5, erratum_6),
    )


def check_h_at_one() -> Outcome:
    """H(1) from the derived H, against the text, condition (b) and the underbrace "= H(1)", and condition (4)."""

    _, h = _derived_h()
    h1 = sp.factor(h.subs(t, 1))
    text_ok = sp.cancel(h1 - PRINTED_H1_TEXT) == 0
    gap = sp.factor(sp.cancel(PRINTED_H1_CONDITION_B - h1))
    agree_when_a0n_zero = sp.cancel(gap.subs(a0n, 0)) == 0
    # the derived denominator a1n - a0n is > 0 whenever (3) holds: condition (4) is not needed
    denominator_positive = sp.Add(a1n, -a0n).subs(a0n, -sp.Symbol("c", positive=True)).is_positive
    acc_printed, acc_derived = _at(PRINTED_H1_CONDITION_B, ACCURACY), _at(h1, ACCURACY)
    gl = dict(a0p=1, a0n=-1, a1p=Fraction(1, 2), a1n=Fraction(-1, 2))  # Gower-Legendre alpha = 1/2 (outside Def. 1)
    gl_printed, gl_derived = _at(PRINTED_H1_CONDITION_B, gl), _at(h1, gl)
    m1_printed_den, m1_derived = _at(a1n + a0n, M1), _at(h1, M1)
    # library: accuracy's threshold at U = 1 and Thm. 7's (b) as transcribed in lfverify.core
    acc_threshold = float(accuracy().bayes_optimal_threshold(1.0))
    gl_threshold = float(gower_legendre(0.5).bayes_optimal_threshold(1.0))
    report = general_calibration(accuracy(), logistic(), surrogate_optimum=0.8, true_utility_at_optimum=0.9, tau=0.5)
    b_fails = not next(c.holds for c in report.conditions if c.label == "(b)")
    derived_b_acc = _at(h1 * (-a0n + a1n * S) / (a0p + a1p * S), ACCURACY, S=Fraction(4, 5))
    if not (
        text_ok
        and gap != 0
        and agree_when_a0n_zero
        and denominator_positive
        and acc_printed == -1
        and acc_derived == 1
        and abs(1 / acc_threshold - 1 - 1) < 1e-12
        and abs(1 / gl_threshold - 1 - float(gl_derived)) < 1e-12
        and b_fails
        and m1_printed_den == 0
    ):
        return Outcome("undecided", "could not confirm the H(1) analysis")
    erratum = Erratum(
        location=(
            "App. A.4, thm:general-calibration, condition (b), and the underbrace '= H(1)' in case 1; condition (4)"
        ),
        printed="H(1) = (a0p - a1p)/(a1n + a0n) in (b) and in the proof's underbrace; (4) a1n + a0n != 0",
        derived=(
            "H(1) = (a0p - a1p)/(a1n - a0n), as the proof's own text states ('H(U(f*)) >= H(1) = (a0p - a1p)/(a1n -"
            " a0n)'); its denominator is > 0 under (3), so condition (4), which only keeps the misprinted denominator"
            f" nonzero, is not needed; printed - derived = {gap}"
        ),
        consequence=(
            "Condition (b)'s H(1) is wrong whenever a0n != 0 and a0p != a1p (where a0p = a1p the derived H(1) is 0, "
            "and so is the printed one unless a1n + a0n = 0, where it is 0/0; it agrees for F_beta and Jaccard, "
            "a0n = 0), and so is (b) itself except where its factor -a0n + a1n U* is 0 (U* = a0n/a1n, where both "
            "read tau <= 0): for accuracy it"
            " reads tau <= -1, so the printed theorem excludes accuracy (its bound on tau is negative), whereas the "
            "derived (b) reads"
            " tau <= 1, consistent with Prop. 8; lfverify.core.general_calibration transcribes the printed (b)"
            " and should use a1n - a0n."
        ),
        witness=(
            f"accuracy (a0 = (1, -1), a1 = (0, 0)): printed {acc_printed}, derived {acc_derived}; Gower-Legendre alpha"
            f" = 1/2: printed {gl_printed}, derived {gl_derived}; M1 (a0 = (2, -1), a1 = (1, 1), admissible): printed"
            f" denominator a1n + a0n = {m1_printed_den} (undefined, (4) fails), derived H(1) = {m1_derived}"
        ),
        evidence=(
            f"H(1) = 1/eta_OPT(1) - 1 from the core library's Prop. 5 threshold: accuracy {1 / acc_threshold - 1:.12g},"
            f" Gower-Legendre(1/2) {1 / gl_threshold - 1:.12g}; general_calibration(accuracy, logistic, tau = 1/2)"
            f" reports (b) as failing, while the derived (b) bound at U* = 4/5 is {derived_b_acc}"
        ),
    )
    return Outcome(
        "erratum",
        "H(1) = (a0p - a1p)/(a1n - a0n) (as in the text); condition (b) and the underbrace print (a1n + a0n).",
        errata=(erratum,),
    )


def check_a1n_zero() -> Outcome:
    """The case a1n = 0: H from the derived form, its slope, and H(U(f*)) >= H(1) for U(f*) <= 1."""
    _, h = _derived_h()
    h0 = sp.cancel(h.subs(a1n, 0))
    matches = sp.cancel(h0 - PRINTED_H_A1N_ZERO) == 0
    a0n_neg = sp.Symbol("a0n", negative=True)  # (3) with a1n = 0 forces a0n != 0, i.e. a0n < 0
    slope = sp.diff(h0, t).subs(a0n, a0n_neg)
    u_gap = sp.Symbol("g", nonnegative=True)  # U = 1 - g
    step = sp.factor(sp.cancel((h0.subs(t, 1 - u_gap) - h0.subs(t, 1)).subs(a0n, a0n_neg)))
    if not (matches and slope.is_nonpositive and step.is_nonnegative):
        return Outcome("undecided", f"H = {h0}, slope {slope}, step {step}")
    return Outcome(
        "verified",
        "a1n = 0: H(t) = (a1p/a0n) t - a0p/a0n as printed; (3) forces a0n < 0, so the slope a1p/a0n <= 0"
        " (non-increasing, constant when a1p = 0) and H(U(f*)) >= H(1) for U(f*) <= 1.  Typographical: 'a_{a,-1}' for"
        " a_{1,-1}.",
    )


def check_sign_claims() -> Outcome:
    """The sign claims of case 1 (a0n - a1n U < 0, -a0n + a1n U* > 0) and case 2 (a1p U - a0p > 0).

    Case 2 is non-vacuous only if eta_OPT < 1 (eta(x) > eta_OPT and eta(x) <= 1); SymPy shows
    1 - eta_OPT = (a0p - a1p U)/(Da0 - Da1 U), so eta_OPT < 1 <=> a1p U - a0p < 0.
    """

    eta_opt, h = _derived_h()
    one_minus = sp.factor(sp.cancel(1 - eta_opt))
    one_minus_ok = sp.cancel(one_minus - (a0p - a1p * t) / (DA0 - DA1 * t)) == 0
    # case 1 with U, U* > 0 (Definition 1 signs and (3)): a0n - a1n U < 0 unless a0n = a1n = 0
    c = sp.Symbol("c", positive=True)
    case1_a = [
        PRINTED_CASE1_NEGATIVE.subs(a0n, -c).is_negative,
        PRINTED_CASE1_NEGATIVE.subs({a0n: 0, a1n: c}).is_negative,
    ]
    case1_b = [
        PRINTED_CASE1_POSITIVE.subs(a0n, -c).is_positive,
        PRINTED_CASE1_POSITIVE.subs({a0n: 0, a1n: c}).is_positive,
    ]
    # F_beta: a1p U - a0p = U - (1 + beta^2) < 0 for U <= 1
    fb = dict(a0p=1 + beta**2, a0n=0, a1p=1, a1n=1)
    fb_value = sp.expand(
        PRINTED_CASE2_POSITIVE.subs({a0p: fb["a0p"], a1p: 1}).subs(U, 1 - sp.Symbol("g", nonnegative=True))
    )
    f1_half = PRINTED_CASE2_POSITIVE.subs({a0p: 2, a1p: 1, U: sp.Rational(1, 2)})
    threshold = float(f_beta(1.0).bayes_optimal_threshold(0.5))
    h_lib = 1 / threshold - 1
    if not (
        one_minus_ok
        and all(case1_a)
        and all(case1_b)
        and fb_value.is_negative
        and f1_half == sp.Rational(-3, 2)
        and abs(h_lib - 3) < 1e-12
    ):
        return Outcome("undecided", "could not confirm the sign analysis")
    erratum = Erratum(
        location="App. A.4, proof of thm:general-calibration, case 2, 'Note that a_{1,+1} U(f*) - a_{0,+1} > 0'",
        printed="a1p U(f*) - a0p > 0 (since a0p >= 0, a0n <= 0, a1p >= 0, a1n >= 0)",
        derived=(
            "1 - eta_OPT = (a0p - a1p U(f*))/(Da0 - Da1 U(f*)), so case 2 (eta_OPT < eta(x) <= 1) needs a1p U(f*) - a0p"
            " < 0; with a0n - a1n U(f*) < 0 this makes H(U(f*)) > 0, which is what the reciprocal step to"
            " eq:supp:calibration:contradiction:2 needs"
        ),
        consequence=(
            "The stated sign is false (for every Table 1 metric) and its justification cannot give it; with the true"
            " sign H > 0 and the step is valid, so no conclusion changes.  (Case 1's signs hold for U(f*), U* > 0; at"
            " U(f*) = 0 with a0n = 0 case 1 is vacuous.)"
        ),
        witness=(
            f"F_1 (a0p = 2, a1p = 1), U(f*) = 1/2: a1p U - a0p = {f1_half}; F_beta: U - (1 + beta^2) < 0 for all U <= 1"
        ),
        evidence=(
            f"Core library: f_beta(1).bayes_optimal_threshold(0.5) = {threshold:.12g}, so H(1/2) = 1/eta_OPT - 1 = "
            f"{h_lib:.12g} > 0 = (a1p U - a0p)/(a0n - a1n U) = (-3/2)/(-1/2)"
        ),
    )
    return Outcome(
        "erratum",
        "Case 2's 'a1p U(f*) - a0p > 0' has the wrong sign (it is < 0 whenever case 2 is non-vacuous); "
        "case 1's sign claims hold for U(f*), U* > 0.",
        errata=(erratum,),
    )


def _show(expr):
    """Print an expression with S = U*_phi and U = U(f*) shown as U_star and U_f."""
    return sp.sstr(expr.subs({S: sp.Symbol("U_star"), U: sp.Symbol("U_f")}))


def check_reduction() -> Outcome:
    """Conditions (b), (c) with Table 1's F_beta and Jaccard coefficients, against Thms. 1 and 2.

    (b): substitutes the coefficients into the derived tau <= H(1)/K and shows it is equivalent to Thm. 1's
    U* >= (1+beta^2)tau/(beta^2-tau) (tau < beta^2) and to Thm. 2's U* >= tau.  (c): substitutes and shows its
    bound is >= 1 (> tau) when U* <= U(f*) <= 1 (Lemma 1), and 0 when U(f*) = 0.
    """
    import random

    _, h = _derived_h()
    derived_b = h.subs(t, 1) * (-a0n + a1n * S) / (a0p + a1p * S)
    fb = {a0p: 1 + beta**2, a0n: 0, a1p: 1, a1n: 1}
    jac = {a0p: 1, a0n: 0, a1p: 0, a1n: 1}
    b_fb, b_jac = sp.factor(derived_b.subs(fb)), sp.factor(derived_b.subs(jac))
    printed_agrees = (
        sp.cancel(PRINTED_CONDITION_B.subs(fb) - b_fb) == 0 and sp.cancel(PRINTED_CONDITION_B.subs(jac) - b_jac) == 0
    )
    # Thm. 1: (b_fb - tau)(1 + beta^2 + S) = S (beta^2 - tau) - (1 + beta^2) tau, a positive multiple of
    # S - (1 + beta^2) tau/(beta^2 - tau)
    thm1 = sp.cancel((b_fb - tau) * (1 + beta**2 + S) - ((beta**2 - tau) * S - (1 + beta**2) * tau)) == 0
    thm2 = sp.cancel(b_jac - S) == 0
    c_fb, c_jac = sp.factor(PRINTED_CONDITION_C.subs(fb)), sp.factor(PRINTED_CONDITION_C.subs(jac))
    g, h_ = sp.symbols("g h", nonnegative=True)  # U = S + g (Lemma 1); U = 1 - h (U <= 1)
    # c_fb >= 1  <=>  numerator - denominator >= 0 with a positive denominator (both written with nonnegative slacks)
    c_num, c_den = sp.fraction(sp.cancel(c_fb))
    if sp.expand(c_den.subs(U, 1 - h_)).is_negative:
        c_num, c_den = -c_num, -c_den
    implied_fb = (
        sp.expand((c_num - c_den).subs(U, S + g)).is_nonnegative and sp.expand(c_den.subs(U, 1 - h_)).is_positive
    )
    implied_jac = sp.factor(sp.cancel(c_jac.subs(U, S + g) - 1)).is_nonnegative
    c_at_zero = (c_fb.subs(U, 0), c_jac.subs(U, 0))
    if not (printed_agrees and thm1 and thm2 and implied_fb and implied_jac and c_at_zero == (0, 0)):
        return Outcome("undecided", f"(b): {b_fb}, {b_jac}; (c): {c_fb}, {c_jac}")
    # F_beta's (c) bound >= 1 also at 300 exact rational points with 0 < S <= U <= 1
    rng = random.Random(DEFAULT_SEED)
    fb_c = sp.lambdify((beta, S, U), c_fb, modules=[])
    values = []
    for _ in range(300):
        s_ = Fraction(rng.randint(1, 1000), 1000)
        values.append(
            fb_c(Fraction(rng.randint(1, 400), 100), s_, s_ + (1 - s_) * Fraction(rng.randint(0, 1000), 1000))
        )
    acc_b = _at(derived_b, ACCURACY, S=Fraction(1, 2))
    acc_c = _at(PRINTED_CONDITION_C, ACCURACY, S=Fraction(1, 2), U=Fraction(3, 4))
    if not all(isinstance(v, Fraction) and v >= 1 for v in values):
        return Outcome("undecided", "F_beta's (c) bound fell below 1 or was not exact")
    return Outcome(
        "verified",
        f"With U_star = U*_phi and U_f = U(f*): (b) with F_beta: tau <= {_show(b_fb)} <=> Thm. 1's U* >="
        f" (1+beta^2)tau/(beta^2-tau); with Jaccard: tau <= {_show(b_jac)} <=> Thm. 2's U* >= tau (printed and derived"
        f" H(1) agree as a0n = 0).  (c) becomes tau <= {_show(c_fb)} (F_beta) and tau <= {_show(c_jac)} (Jaccard); both"
        " are >= 1 > tau when U* <= U(f*) <= 1, so (c) follows from Thms. 1/2's hypotheses plus Lemma 1's domination"
        " phi >= 1{t <= 0}, not from them alone (at U(f*) = 0 it reads tau <= 0).  Accuracy: the derived (b) is tau"
        f" <= {acc_b} and (c) tau <= {acc_c} (Prop. 8 does not use tau).",
        method="symbolic (slack variables); F_beta's (c) >= 1 also at 300 exact rational points",
    )


def check_theorem() -> Outcome:
    """Thm. 7 on the exact counterexample of Thm. 1 (F_1, tau-logistic(1/20), three atoms).

    lfverify.core.general_calibration evaluates conditions (1)-(6), (a)-(c) as printed (for F_beta the
    misprints in (b), (5), (6) are immaterial since a0n = 0) at the exact surrogate maximiser.
    """

    (kw, ke, kt, kb), _ = _witness_populations()
    metric = f_beta(1.0)

    def report(loss, value, tau_value, utility):
        return general_calibration(
            metric, loss, surrogate_optimum=value, true_utility_at_optimum=utility, tau=tau_value
        )

    k = library_counterexample(metric, coefficients=F1_COEFFICIENTS, weights=kw, eta=ke, tau_value=kt, base=kb,
                               report=report)
    conditions = k["hypotheses"]
    if not (conditions.holds and k["utility"] < k["bayes"] - 1e-3 and 1 in k["opt"].zero_atoms):
        return Outcome("undecided", f"the counterexample did not reproduce: failed conditions {conditions.failed}, "
                                    f"U(f*) = {k['utility']:.6g}, U-dagger = {k['bayes']:.6g}, atoms with f* = 0: "
                                    f"{k['opt'].zero_atoms}")
    erratum = Erratum(
        location=(
            "App. A.4, thm:general-calibration; case 2 at f*(x) = 0 (the stationary eta eq:supp:stationary-condition)"
        ),
        printed="under (1)-(6) and (a)-(c), U_phi is U-calibrated; case 2 uses phi'(-f*)/phi'(f*) <= tau at f*(x) <= 0",
        derived=(
            "(b) forces tau < 1 for F_beta, hence, for a loss with phi'(0-) < 0, a kink of phi at 0; at f*(x) = 0 only "
            "one-sided stationarity holds"
            " and phi'(-f*)/phi'(f*) is undefined; the surrogate maximiser can vanish on an atom the Bayes rule"
            " labels +1"
        ),
        consequence="Thm. 7 is false as stated (same counterexample as Thm. 1; see thm1_fbeta_calibration.theorem).",
        witness=(
            "F_1, tau-logistic(1/20), weights (3/10, 1/5, 1/2), eta = (19/20, 3/5, 1/20): U*_phi ="
            f" {_nstr(k['opt'].value)}, U(f*) = {k['utility']:.12g} < U-dagger = {k['bayes']:.12g}; every condition of"
            " Thm. 7 holds"
        ),
        evidence=(
            "lfverify.core.general_calibration at (U*_phi, U(f*), tau = 1/20) reports all of (1)-(6), (a)-(c)"
            " as holding; the maximiser is certified by Dinkelbach's method at 50 digits and evaluated with the core"
            " library"
        ),
    )
    return Outcome(
        "erratum",
        "Thm. 7's conditions hold for F_1 with the tau-logistic loss on a three-atom distribution whose "
        "surrogate maximiser is not Bayes optimal.",
        errata=(erratum,),
        method="mpmath 50 digits (Dinkelbach); core library; lfverify.core.general_calibration",
    )


CLAIMS = (
    Claim(
        key="thm7_general_calibration.equivalence_chain",
        title=(
            "Thm. 7 proof: eta_OPT = 1/(1+H), eta_STA = 1/(1+K r) and the chain eq:supp:calibration:contradiction:1/2"
        ),
        label="eq:supp:calibration:contradiction:1",
        expected="verified",
        check=check_equivalence_chain,
    ),
    Claim(
        key="thm7_general_calibration.partial_fraction",
        title="Thm. 7 proof: the partial-fraction form of H (a_{1,-1} != 0)",
        label="thm:general-calibration",
        expected="erratum",
        check=check_partial_fraction,
    ),
    Claim(
        key="thm7_general_calibration.monotonicity",
        title="Thm. 7: when and where H is decreasing (conditions (5), (6))",
        label="thm:general-calibration",
        expected="erratum",
        check=check_monotonicity,
    ),
    Claim(
        key="thm7_general_calibration.h_at_one",
        title="Thm. 7: H(1) in condition (b) and condition (4)",
        label="enum:supp:tau:surrogate",
        expected="erratum",
        check=check_h_at_one,
    ),
    Claim(
        key="thm7_general_calibration.a1n_zero",
        title="Thm. 7 proof: the case a_{1,-1} = 0",
        label="thm:general-calibration",
        expected="verified",
        check=check_a1n_zero,
    ),
    Claim(
        key="thm7_general_calibration.sign_claims",
        title="Thm. 7 proof: the sign claims of cases 1 and 2",
        label="eq:supp:calibration:contradiction:2",
        expected="erratum",
        check=check_sign_claims,
    ),
    Claim(
        key="thm7_general_calibration.reduction",
        title="Thm. 7: conditions (b), (c) for F_beta and Jaccard versus Thms. 1 and 2",
        label="enum:supp:tau:true",
        expected="verified",
        check=check_reduction,
    ),
    Claim(
        key="thm7_general_calibration.theorem",
        title="Thm. 7: the conditions imply U-calibration",
        label="thm:general-calibration",
        expected="erratum",
        check=check_theorem,
    ),
)
