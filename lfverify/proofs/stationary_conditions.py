"""Stationary conditions of the surrogate utility (App. A.1-A.4): ``eq:supp:fbeta-stationary-condition``,
``eq:supp:fbeta-stationary-eta``, ``eq:supp:jaccard-stationary-eta``, ``eq:supp:accuracy-stationary-condition``
and ``eq:supp:stationary-condition``, with the Gateaux derivatives G'(0) printed before them.

The proofs of Thms. 1, 2, 7 and Prop. 8 perturb a surrogate maximiser f* at one point x-bar,
G(gamma) = U_phi(f* + gamma delta f) with delta f the indicator of x-bar, and set G'(0) = 0.  Here this is
derived from the surrogate scores of Eq. (3) (``eq:surrogate-scores``):

    W_{0,phi}(xi, q) = a0p (1 - phi(xi)) q + a0n phi(-xi) (1 - q) + b0,
    W_{1,phi}(xi, q) = a1p (1 + phi(xi)) q + a1n phi(-xi) (1 - q) + b1,

with X finite: x-bar is an atom of probability p(x-bar), and the other atoms contribute R_0, R_1 to
E[W_{0,phi}], E[W_{1,phi}] (free of gamma).  phi is a SymPy Function; d/dgamma at 0 produces phi'(f*(x-bar))
and phi'(-f*(x-bar)), renamed to symbols.  U_phi(f*) = U* is imposed by solving E[W_0] = U* E[W_1] for R_0;
then G'(0) E[W_1] / p(x-bar) is the stationary bracket, solved for eta(x-bar) with sympy.solve and compared
with each printed form (equations "... = 0" up to a nonzero overall factor).  The coefficients of F_beta,
Jaccard and accuracy are derived from their definitions (:mod:`.prop5_bayes_optimal_set`).

App. A.4 (proof of Thm. 7) re-defines W_{0,phi}, W_{1,phi} with phi(xi) and phi(-xi) swapped; that
re-definition is compared with Eq. (3), and the printed G'(0) integrands are checked against the derivative
of each.  Disagreements carry exact rational witnesses and evidence from the core library: a maximiser of
U_phi on a finite-support population (found with :meth:`~lfverify.core.Population.evaluate`'s exact gradient,
one-hot atoms so that theta is the vector of per-atom scores), at which central finite differences of
``FiniteSupportPopulation.surrogate_utility_of_scores`` vanish and the eta of every atom is reproduced by the
derived stationary condition but not by the printed one.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from lfverify.core import FiniteSupportPopulation, LinearFractionalMetric, f1, hinge, logistic
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs.prop5_bayes_optimal_set import (
    ACCURACY,
    BETA,
    COEFFICIENT_SYMBOLS,
    F_BETA,
    JACCARD,
    Coefficients,
)

__all__ = ["ETA", "USTAR", "DPOS", "DNEG", "PHI", "XI", "scores_eq3", "gateaux_derivative", "stationary_bracket",
           "stationary_eta", "CLAIMS"]

# ---------------------------------------------------------------------------------------------- symbols
PHI = sp.Function("phi")
XI = sp.Symbol("xi", real=True)  # f*(x-bar)
# the perturbation f* + gamma delta f: a Dummy, unique by construction (SymPy 1.14 with its cache on returns
# phi's derivative at another module's same-named "gamma" of other assumptions; see thm1_fbeta_calibration)
GAMMA = sp.Dummy("gamma", real=True)
ETA = sp.Symbol("eta", positive=True)  # eta(x-bar), in (0, 1)
PBAR = sp.Symbol("p_bar", positive=True)  # p(x-bar) = P(X = x-bar)
R0, R1 = sp.symbols("R0 R1", real=True)  # contributions of the other atoms to E[W_0,phi], E[W_1,phi]
USTAR = sp.Symbol("U_star", real=True)  # U_phi(f*) = U_phi^*
DPOS = sp.Symbol("dphi_pos", real=True)  # phi'(f*(x-bar))
DNEG = sp.Symbol("dphi_neg", real=True)  # phi'(-f*(x-bar))
EW0, EW1 = sp.symbols("EW0 EW1", real=True)  # E[W_0,phi(f*)], E[W_1,phi(f*)] as printed


# ------------------------------------------------------------------ the definition (Eq. (3))
def scores_eq3(xi, q, c: Coefficients):
    """The surrogate class-conditional scores of Eq. (3) (eq:surrogate-scores)."""
    w0 = c.a0p * (1 - PHI(xi)) * q + c.a0n * PHI(-xi) * (1 - q) + c.b0
    w1 = c.a1p * (1 + PHI(xi)) * q + c.a1n * PHI(-xi) * (1 - q) + c.b1
    return w0, w1


# ---- printed forms, transcribed from the LaTeX source
def printed_fbeta_gateaux_lines(p, eta, dpos, dneg, ew0, ew1, ustar, beta=BETA):
    """App. A.1 (proof of Thm. 1): the three printed lines of G'(0); the integral of g(x) delta f(x) p(x) dx
    is g(x-bar) p(x-bar)."""
    line1 = (ew1 * (-(1 + beta**2) * dpos * eta * p) - ew0 * (dpos * eta - dneg * (1 - eta)) * p) / ew1**2
    line2 = ((-(1 + beta**2) * dpos * eta * p) - ustar * (dpos * eta - dneg * (1 - eta)) * p) / ew1
    line3 = (-(1 + beta**2) * dpos * eta - dpos * ustar * eta + dneg * ustar * (1 - eta)) * p / ew1
    return line1, line2, line3


def printed_fbeta_stationary_condition(eta, dpos, dneg, ustar, beta=BETA):
    """App. A.1, eq:supp:fbeta-stationary-condition: the left-hand sides of its two lines (each "= 0")."""
    first = -(1 + beta**2) * dpos * eta - dpos * ustar * eta + dneg * ustar * (1 - eta)
    second = (-(1 + beta**2) * dpos - dpos * ustar - dneg * ustar) * eta + dneg * ustar
    return first, second


def printed_fbeta_stationary_eta(dpos, dneg, ustar, beta=BETA):
    """App. A.1, eq:supp:fbeta-stationary-eta."""
    return dneg * ustar / ((1 + beta**2) * dpos + (dpos + dneg) * ustar)


def printed_jaccard_stationary_eta(dpos, dneg, ustar):
    """App. A.2, eq:supp:jaccard-stationary-eta."""
    return dneg * ustar / (dpos + dneg * ustar)


def printed_accuracy_stationary_condition(eta, dpos, dneg):
    """App. A.3, eq:supp:accuracy-stationary-condition: left-hand side of "... = 0"."""
    return (dpos + dneg) * eta - dneg


def printed_scores_a4(xi, q, c: Coefficients):
    """App. A.4 (proof of Thm. 7): the re-defined W_{0,phi}, W_{1,phi} (also in the displayed U_phi there)."""
    w0 = c.a0p * (1 - PHI(-xi)) * q + c.a0n * PHI(xi) * (1 - q) + c.b0
    w1 = c.a1p * (1 + PHI(-xi)) * q + c.a1n * PHI(xi) * (1 - q) + c.b1
    return w0, w1


def printed_general_integrands(eta, dpos, dneg, c: Coefficients):
    """App. A.4: the integrands (per unit delta f p) of the first line of G'(0), for E[W_0,phi] and E[W_1,phi]."""
    return (-c.a0p * dpos * eta - c.a0n * dneg * (1 - eta),
            c.a1p * dpos * eta - c.a1n * dneg * (1 - eta))


def printed_general_gateaux_lines(p, eta, dpos, dneg, ew0, ew1, ustar, c: Coefficients):
    """App. A.4: the three printed lines of G'(0)."""
    i0, i1 = printed_general_integrands(eta, dpos, dneg, c)
    line1 = (ew1 * i0 * p - ew0 * i1 * p) / ew1**2
    line2 = (i0 * p - ustar * i1 * p) / ew1
    line3 = ((-c.a0p * dpos * eta - c.a0n * dneg * (1 - eta))
             - ustar * (c.a1p * dpos * eta - c.a1n * dneg * (1 - eta))) / ew1
    return line1, line2, line3


def printed_general_stationary_condition(eta, dpos, dneg, ustar, c: Coefficients):
    """App. A.4, "Thus, the stationary condition is" (left-hand side of "... = 0")."""
    return (-c.a0p * dpos * eta - c.a0n * dneg * (1 - eta)
            - c.a1p * dpos * eta * ustar + c.a1n * dneg * (1 - eta))


def printed_general_stationary_eta(dpos, dneg, ustar, c: Coefficients):
    """App. A.4, eq:supp:stationary-condition (eta-bar_STA)."""
    return ((-c.a0n + c.a1n * ustar) * dneg
            / ((c.a0p - c.a1p * ustar) * dpos + (-c.a0n + c.a1n * ustar) * dneg))


# ------------------------------------------------------------------ the derivation
def _name_phi_derivatives(expr):
    """Replace phi'(xi) and phi'(-xi) (SymPy Derivative / Subs objects) by the symbols DPOS and DNEG."""
    def rename(subs):
        point = subs.point[0]
        if point == XI:
            return DPOS
        if point == -XI:
            return DNEG
        raise ValueError(f"unexpected derivative point {point}")

    expr = expr.subs(sp.Derivative(PHI(XI), XI), DPOS)
    renamed = expr.replace(lambda e: isinstance(e, sp.Subs), rename)
    if renamed.has(sp.Derivative):
        raise ValueError(f"unrenamed derivative in {renamed}")
    return renamed


def gateaux_derivative(c: Coefficients, scores=scores_eq3):
    """G'(0) for G(gamma) = U_phi(f* + gamma delta f) on a finite X, with E[W_0,phi], E[W_1,phi] at f*."""
    w0, w1 = scores(XI + GAMMA, ETA, c)
    ew0, ew1 = PBAR * w0 + R0, PBAR * w1 + R1
    derivative = sp.diff(ew0 / ew1, GAMMA).subs(GAMMA, 0)
    return _name_phi_derivatives(derivative), ew0.subs(GAMMA, 0), ew1.subs(GAMMA, 0)


def stationary_bracket(c: Coefficients, scores=scores_eq3):
    """G'(0) E[W_1,phi(f*)] / p(x-bar) with U_phi(f*) = U* imposed (solving E[W_0] = U* E[W_1] for R_0):
    the stationary condition is "this = 0"."""
    derivative, ew0, ew1 = gateaux_derivative(c, scores)
    r0 = sp.solve(sp.Eq(ew0, USTAR * ew1), R0)[0]
    return sp.expand(sp.cancel((derivative * ew1 / PBAR).subs(R0, r0)))


def stationary_eta(c: Coefficients, scores=scores_eq3):
    """The eta(x-bar) solving the stationary condition (sympy.solve; the bracket is affine in eta)."""
    solutions = sp.solve(sp.Eq(stationary_bracket(c, scores), 0), ETA)
    if len(solutions) != 1:
        raise ValueError(f"expected one solution for eta; got {solutions}")
    return sp.factor(solutions[0])


def _same_equation(derived, printed) -> bool:
    """derived = 0 and printed = 0 are the same equation: their ratio is a nonzero factor free of eta,
    phi', U*."""
    ratio = sp.cancel(derived / printed)
    return ratio != 0 and not ratio.has(ETA, DPOS, DNEG, USTAR)


def _is_zero(expr) -> bool:
    return sp.cancel(expr) == 0


def _undecided(what: str) -> Outcome:
    return Outcome("undecided", f"{what}: the derivation disagrees with the printed form; not classified")


# ------------------------------------------------------------------ F_beta, Jaccard, accuracy
def check_fbeta_condition() -> Outcome:
    """Derive G'(0) from Eq. (3) with F_beta's coefficients (derived from its definition) and compare with the
    three printed lines of G'(0) in App. A.1 and with both lines of eq:supp:fbeta-stationary-condition."""
    derivative, ew0, ew1 = gateaux_derivative(F_BETA)
    lines = printed_fbeta_gateaux_lines(p=PBAR, eta=ETA, dpos=DPOS, dneg=DNEG, ew0=ew0, ew1=ew1, ustar=ew0 / ew1)
    if not all(_is_zero(derivative - line) for line in lines):
        return _undecided("F_beta G'(0)")
    bracket = stationary_bracket(F_BETA)
    if not all(_same_equation(bracket, lhs) for lhs in printed_fbeta_stationary_condition(ETA, DPOS, DNEG, USTAR)):
        return _undecided("eq:supp:fbeta-stationary-condition")
    return Outcome(
        "verified",
        "G'(0) of U_phi^Fbeta(f* + gamma delta f), derived from Eq. (3) on a finite X, equals the three printed lines, "
        f"and G'(0) E[W1]/p(x-bar) = {bracket} is both printed lines of the condition (factor 1).  Note: the "
        "indicator delta f of one point changes U_phi only if x-bar is an atom (P(X = x-bar) = p(x-bar) > 0); "
        "for a continuous X the integrals are 0 and the argument needs the pointwise functional derivative instead.",
    )


def check_fbeta_eta() -> Outcome:
    """Solve the derived F_beta stationary condition for eta(x-bar) and compare with eq:supp:fbeta-stationary-eta."""
    derived = stationary_eta(F_BETA)
    if not _is_zero(derived - printed_fbeta_stationary_eta(DPOS, DNEG, USTAR)):
        return _undecided("eq:supp:fbeta-stationary-eta")
    # the step before it: "since phi'(+-f*) < 0, -(1 + beta^2) phi'(f*) - phi'(f*) U* - phi'(-f*) U* > 0"
    # (the coefficient of eta in the derived condition), with U* >= 0 (App. A.5)
    coefficient = sp.Poly(stationary_bracket(F_BETA), ETA).coeff_monomial(ETA)
    negative = {DPOS: sp.Symbol("dpos_", negative=True), DNEG: sp.Symbol("dneg_", negative=True),
                USTAR: sp.Symbol("ustar_", nonnegative=True)}
    if coefficient.subs(negative).is_positive is not True:
        return _undecided("the sign of the coefficient of eta in eq:supp:fbeta-stationary-condition")
    return Outcome("verified", f"sympy.solve of the derived F_beta stationary condition gives eta(x-bar) = {derived}, "
                               "the printed eq:supp:fbeta-stationary-eta; the coefficient of eta, -(1 + beta^2) "
                               "phi'(f*) - "
                               "(phi'(f*) + phi'(-f*)) U*, is positive for phi'(+-f*) < 0 and U* >= 0, as the proof "
                               "says (SymPy sign inference).")


def check_jaccard_eta() -> Outcome:
    """Derive G'(0) with Jaccard's coefficients, solve for eta(x-bar), compare with eq:supp:jaccard-stationary-eta."""
    derived = stationary_eta(JACCARD)
    if not _is_zero(derived - printed_jaccard_stationary_eta(DPOS, DNEG, USTAR)):
        return _undecided("eq:supp:jaccard-stationary-eta")
    return Outcome("verified", f"sympy.solve of the derived Jaccard stationary condition gives eta(x-bar) = {derived}, "
                               "the printed eq:supp:jaccard-stationary-eta.")


def check_accuracy_condition() -> Outcome:
    """Derive G'(0) with accuracy's coefficients (b0 = 1 - pi, b1 = 1, from TP + TN) and compare the
    condition with eq:supp:accuracy-stationary-condition."""
    bracket = stationary_bracket(ACCURACY)
    printed = printed_accuracy_stationary_condition(ETA, DPOS, DNEG)
    if not _same_equation(bracket, printed):
        return _undecided("eq:supp:accuracy-stationary-condition")
    factor = sp.cancel(bracket / printed)
    return Outcome("verified", f"G'(0) E[W1]/p(x-bar) for accuracy (E[W1] = 1) is {bracket} = ({factor}) x the printed "
                               "left-hand side of eq:supp:accuracy-stationary-condition; eta(x-bar) = "
                               f"{stationary_eta(ACCURACY)}.")


# ------------------------------------------------------------------ evidence on a finite population
_GENERAL_METRIC = dict(a0p=2, a0n=-1, a1p=1, a1n=1)  # the general metric of the witnesses
_EVIDENCE_ETA = (0.15, 0.35, 0.55, 0.8, 0.9)
_EVIDENCE_WEIGHTS = (0.1, 0.3, 0.2, 0.25, 0.15)


def _evidence_metric() -> LinearFractionalMetric:
    return LinearFractionalMetric(**{k: float(v) for k, v in _GENERAL_METRIC.items()}, b0_const=1.0, b1_const=1.0,
                                  name="a0p=2, a0n=-1, a1p=1, a1n=1, b0=1, b1=1")


@lru_cache(maxsize=1)
def surrogate_maximiser():
    """A maximiser of U_phi (logistic loss) over all per-atom scores of a 5-atom population.

    One-hot atoms make theta the vector of per-atom scores, so :meth:`~lfverify.core.Population.evaluate` gives
    the exact gradient of U_phi in the scores; BFGS from 0.  Returns (population, metric, loss, scores, U*)."""
    population = FiniteSupportPopulation(np.eye(len(_EVIDENCE_ETA)), np.array(_EVIDENCE_WEIGHTS),
                                         np.array(_EVIDENCE_ETA))
    metric, loss = _evidence_metric(), logistic()

    def objective(theta):
        result = population.evaluate(metric, loss, theta)
        return -float(result.value[0]), -result.gradient[0]

    found = minimize(objective, np.zeros(len(_EVIDENCE_ETA)), jac=True, method="BFGS",
                     options={"gtol": 1e-13, "maxiter": 500})
    scores = found.x
    return population, metric, loss, scores, float(population.surrogate_utility_of_scores(metric, loss, scores))


def _central_differences(population, metric, loss, scores, h=1e-6):
    """d U_phi / d score_j by central differences of FiniteSupportPopulation.surrogate_utility_of_scores."""
    out = []
    for j in range(scores.size):
        up, down = scores.copy(), scores.copy()
        up[j] += h
        down[j] -= h
        out.append((population.surrogate_utility_of_scores(metric, loss, up)
                    - population.surrogate_utility_of_scores(metric, loss, down)) / (2 * h))
    return np.array(out)


def _maximiser_evidence(printed_eta_fn, derived_eta_fn):
    """At the surrogate maximiser: max |FD derivative|, max |eta_j - derived eta_j|, and the printed etas."""
    population, metric, loss, scores, ustar = surrogate_maximiser()
    fd = _central_differences(population, metric, loss, scores)
    dpos, dneg = loss.derivative(scores), loss.derivative(-scores)
    derived = np.array([derived_eta_fn(a, b, ustar) for a, b in zip(dpos, dneg)])
    printed = np.array([printed_eta_fn(a, b, ustar) for a, b in zip(dpos, dneg)])
    return dict(ustar=ustar, fd=float(np.max(np.abs(fd))),
                derived_error=float(np.max(np.abs(derived - population.eta))),
                printed=printed, eta=population.eta)


def _fmt(values) -> str:
    return "(" + ", ".join(f"{v:.6g}" for v in values) + ")"


# ------------------------------------------------------------------ App. A.4 (Thm. 7)
def check_general_scores() -> Outcome:
    """Compare App. A.4's re-definition of W_{0,phi}, W_{1,phi} with Eq. (3), and check which of the two the
    printed G'(0) integrands of App. A.4 are the xi-derivative of."""
    c = COEFFICIENT_SYMBOLS
    q = ETA
    eq3, a4 = scores_eq3(XI, q, c), printed_scores_a4(XI, q, c)
    if all(_is_zero(x - y) for x, y in zip(eq3, a4)):
        return Outcome("verified", "App. A.4's W_{k,phi} equal Eq. (3)'s")
    mirrored = all(_is_zero(y - x.subs(XI, -XI)) for x, y in zip(eq3, a4))
    integrands = printed_general_integrands(q, DPOS, DNEG, c)
    d_eq3 = [_name_phi_derivatives(sp.diff(w, XI)) for w in eq3]
    d_a4 = [_name_phi_derivatives(sp.diff(w, XI)) for w in a4]
    from_eq3 = all(_is_zero(d - i) for d, i in zip(d_eq3, integrands))
    from_a4 = all(_is_zero(d - i) for d, i in zip(d_a4, integrands))
    if not (mirrored and from_eq3 and not from_a4):
        return _undecided("App. A.4's W_{k,phi}")

    # witness: hinge loss, xi = 1, q = 1, F_1's a0p = 2, b0 = 0
    hinge_phi = sp.Lambda(sp.Symbol("m"), sp.Max(0, 1 - sp.Symbol("m")))
    witness_c = Coefficients(a0p=2, a0n=0, b0=0, a1p=1, a1n=1, b1=0)
    w0_eq3 = scores_eq3(XI, q, witness_c)[0].subs(PHI, hinge_phi).subs({XI: 1, q: 1})
    w0_a4 = printed_scores_a4(XI, q, witness_c)[0].subs(PHI, hinge_phi).subs({XI: 1, q: 1})
    # evidence: Lemma 1 (U_phi <= U for phi >= l) fails for A.4's definition, which is U_phi(-f) of Eq. (3)
    population = FiniteSupportPopulation(np.eye(3), np.array([0.3, 0.3, 0.4]), np.array([0.2, 0.5, 0.9]))
    metric, loss = f1(), hinge()
    scores = np.full(3, -5.0)
    true_utility = float(population.utility_of_scores(metric, scores, zero_division=0.0))
    a4_surrogate = float(population.surrogate_utility_of_scores(metric, loss, -scores))
    eq3_surrogate = float(population.surrogate_utility_of_scores(metric, loss, scores))
    erratum = Erratum(
        location="App. A.4, proof of Thm. 7 (thm:general-calibration): the displayed U_phi and the re-definition of "
                 "W_{0,phi}, W_{1,phi}",
        printed=("W_{0,phi}(xi, q) = a_{0,+1}(1 - phi(-xi)) q + a_{0,-1} phi(xi)(1 - q) + b_0, "
                 "W_{1,phi}(xi, q) = a_{1,+1}(1 + phi(-xi)) q + a_{1,-1} phi(xi)(1 - q) + b_1"),
        derived=("Eq. (3): W_{0,phi}(xi, q) = a_{0,+1}(1 - phi(xi)) q + a_{0,-1} phi(-xi)(1 - q) + b_0, "
                 "W_{1,phi}(xi, q) = a_{1,+1}(1 + phi(xi)) q + a_{1,-1} phi(-xi)(1 - q) + b_1 (the printed ones are "
                 "Eq. (3)'s at -xi, i.e. they define U_phi(-f))"),
        consequence=("None for Thm. 7's argument: the G'(0) integrands printed next (-a_{0,+1} phi'(f) eta - a_{0,-1} "
                     "phi'(-f)(1 - eta) and a_{1,+1} phi'(f) eta - a_{1,-1} phi'(-f)(1 - eta)) are the xi-derivatives "
                     "of "
                     "Eq. (3)'s scores, not of the re-defined ones, and the rest of the proof uses them; the "
                     "re-defined "
                     "U_phi is not a lower bound of U (Lemma 1 fails for it)."),
        witness=(f"hinge loss, xi = 1, q = 1, a_{{0,+1}} = 2, b_0 = 0: Eq. (3) gives W_0,phi = 2(1 - phi(1)) = "
                 f"{w0_eq3}, "
                 f"the re-definition 2(1 - phi(-1)) = {w0_a4}"),
        evidence=("FiniteSupportPopulation (3 atoms, weights (0.3, 0.3, 0.4), eta = (0.2, 0.5, 0.9)), F_1, hinge "
                  "loss, "
                  f"all scores -5: "
                  f"U(f) = {true_utility:.12g}, Eq. (3)'s U_phi(f) = {eq3_surrogate:.12g} <= U(f) as Lemma 1 says, but "
                  f"the re-defined U_phi(f) = Eq. (3)'s U_phi(-f) = {a4_surrogate:.12g} > U(f); symbolically the "
                  "printed G'(0) integrands equal d/dxi of Eq. (3)'s W_k,phi and differ from d/dxi of the re-defined "
                  "ones."),
    )
    return Outcome(
        "erratum",
        "App. A.4 re-defines W_{k,phi} with phi(xi) and phi(-xi) swapped (= Eq. (3) at -xi); its own G'(0) "
        "integrands are the derivative of Eq. (3)'s scores.",
        errata=(erratum,),
    )


_WITNESS = dict(a0p=sp.Integer(2), a0n=sp.Integer(-1), a1p=sp.Integer(1), a1n=sp.Integer(1),
                ustar=sp.Rational(2, 5), dpos=sp.Rational(-3, 10), dneg=sp.Rational(-3, 5))


def _witness_coefficients() -> Coefficients:
    w = _WITNESS
    return Coefficients(a0p=w["a0p"], a0n=w["a0n"], b0=sp.Integer(0), a1p=w["a1p"], a1n=w["a1n"], b1=sp.Integer(1))


def _witness_text() -> str:
    w = _WITNESS
    return (f"a_{{0,+1}} = {w['a0p']}, a_{{0,-1}} = {w['a0n']}, a_{{1,+1}} = {w['a1p']}, a_{{1,-1}} = {w['a1n']}, "
            f"U* = {w['ustar']}, phi'(f*(x-bar)) = {w['dpos']}, phi'(-f*(x-bar)) = {w['dneg']}")


def _third_line_finite_differences(population, metric, loss, wc):
    """Library evidence for App. A.4's third line of G'(0) (thm:general-calibration): at a non-stationary point (all
    scores 0) the central difference of U_phi in atom 1's score, against p(x-bar)/E[W1] times the derived bracket
    and against the printed third line; returns (finite difference, derived, printed)."""
    line3_fn = sp.lambdify((ETA, DPOS, DNEG, USTAR, EW1),
                           printed_general_gateaux_lines(p=PBAR, eta=ETA, dpos=DPOS, dneg=DNEG, ew0=EW0, ew1=EW1,
                                                         ustar=USTAR, c=wc)[2], "numpy")
    # evidence: central differences of U_phi in one atom's score at a non-stationary point (all scores 0)
    scores = np.zeros(population.eta.size)
    state = population.evaluate(metric, loss, scores)
    value, denominator = float(state.value[0]), float(state.denominator[0])
    fd = _central_differences(population, metric, loss, scores)[0]
    p0, eta0 = float(population.weights[0]), float(population.eta[0])
    dpos0, dneg0 = float(loss.derivative(0.0)), float(loss.derivative(-0.0))
    bracket_fn = sp.lambdify((ETA, DPOS, DNEG, USTAR), stationary_bracket(wc), "numpy")
    derived_fd = p0 * bracket_fn(eta0, dpos0, dneg0, value) / denominator
    printed_fd = line3_fn(eta0, dpos0, dneg0, value, denominator)
    return fd, derived_fd, printed_fd


def _third_line_erratum(*, derived_value, printed_value, population, metric, fd, derived_fd, printed_fd) -> Erratum:
    """The erratum of App. A.4's third line of G'(0) (thm:general-calibration), which drops the factor p(x-bar): the
    exact witness's derived and printed values, and the evidence of :func:`_third_line_finite_differences`."""
    return Erratum(
        location="App. A.4, proof of Thm. 7 (thm:general-calibration): third line of G'(0)",
        printed=("G'(0) = 1/E[W_{1,phi}(f*)] {(-a_{0,+1} phi'(f*) eta - a_{0,-1} phi'(-f*)(1 - eta)) "
                 "- U_phi^* (a_{1,+1} phi'(f*) eta - a_{1,-1} phi'(-f*)(1 - eta))}  (at x-bar)"),
        derived=("G'(0) = p(x-bar)/E[W_{1,phi}(f*)] {...}: the integral of (...) delta f(x) p(x) dx leaves the "
                 "factor "
                 "p(x-bar) (as in App. A.1's F_beta version); derived / printed = p(x-bar)"),
        consequence="None where x-bar is an atom of P: p(x-bar) > 0, so G'(0) = 0 is the same stationary "
                    "condition (for a density, the one-point perturbation gives G'(0) = 0 identically: the "
                    "argument needs an atom, as proofs/theorem-1.md says).",
        witness=(f"{_witness_text()}, eta(x-bar) = 1/2, p(x-bar) = 1/10, E[W_1,phi(f*)] = 1: derived G'(0) = "
                 f"{derived_value}, printed {printed_value}"),
        evidence=(f"FiniteSupportPopulation (5 atoms, eta = {_fmt(population.eta)}, weights "
                  f"{_fmt(population.weights)}), metric {metric.name}, logistic loss, all scores 0: the central "
                  f"finite difference of surrogate_utility_of_scores in atom 1's score is {fd:.6g}; "
                  f"p(x-bar)/E[W1] x bracket gives {derived_fd:.6g}, the printed third line {printed_fd:.6g}."),
    )


def _stationary_condition_evidence(*, population, metric, loss, maximiser, ustar, wc):
    """Library evidence for App. A.4's stationary condition (thm:general-calibration): at a maximiser of U_phi, the
    largest central difference (stationarity) and the derived and printed left-hand sides at each atom."""
    # evidence: at a maximiser of U_phi the derived left-hand side vanishes at every atom, the printed one not
    fd = float(np.max(np.abs(_central_differences(population, metric, loss, maximiser))))
    bracket_fn = sp.lambdify((ETA, DPOS, DNEG, USTAR), stationary_bracket(wc), "numpy")
    printed_fn = sp.lambdify((ETA, DPOS, DNEG, USTAR),
                             printed_general_stationary_condition(eta=ETA, dpos=DPOS, dneg=DNEG, ustar=USTAR, c=wc),
                             "numpy")
    dpos, dneg = loss.derivative(maximiser), loss.derivative(-maximiser)
    derived_values = bracket_fn(population.eta, dpos, dneg, ustar)
    printed_values = printed_fn(population.eta, dpos, dneg, ustar)
    return fd, derived_values, printed_values


def _stationary_condition_erratum(*, bracket, difference, eta_derived, eta_printed, population, metric, ustar,
                                  printed_values) -> Erratum:
    """The erratum of App. A.4's line 'Thus, the stationary condition is' (thm:general-calibration), which misses the
    factor U_phi^*: the derived ``bracket``, its ``difference`` from the printed one, the exact witness's etas and
    the printed left-hand sides at the maximiser of :func:`_stationary_condition_evidence`."""
    return Erratum(
        location="App. A.4, proof of Thm. 7 (thm:general-calibration): the line 'Thus, the stationary condition "
                 "is' before eq:supp:stationary-condition",
        printed=("-a_{0,+1} phi'(f*) eta - a_{0,-1} phi'(-f*)(1 - eta) - a_{1,+1} phi'(f*) eta U_phi^* "
                 "+ a_{1,-1} phi'(-f*)(1 - eta) = 0"),
        derived=(f"{sp.sstr(bracket)} = 0, i.e. the last term is + a_{{1,-1}} U_phi^* phi'(-f*)(1 - eta): the "
                 "printed "
                 f"line misses the factor U_phi^* (derived - printed = {sp.sstr(difference)})"),
        consequence=("None: eq:supp:stationary-condition and the case analysis after it carry the factor "
                     "(-a_{0,-1} + a_{1,-1} U_phi^*), i.e. they continue from the correct condition (the printed "
                     "line "
                     "agrees with it as an identity in eta and phi' only when a_{1,-1} = 0 or U_phi^* = 1)."),
        witness=f"{_witness_text()}: the derived condition gives eta(x-bar) = {eta_derived}, the printed one "
                f"{eta_printed}",
        evidence=(f"Maximiser of U_phi (logistic loss) over the score vectors (one score per atom) of a 5-atom "
                  f"FiniteSupportPopulation (weights {_fmt(_EVIDENCE_WEIGHTS)}), metric "
                  f"{metric.name}: U_phi^* = {ustar:.6g}, central finite differences of "
                  "surrogate_utility_of_scores "
                  "< 1e-8 at each of its 5 atoms (stationary); there the derived left-hand side is < 1e-7 at each "
                  "of them, "
                  f"the printed one is {_fmt(printed_values)} at eta = {_fmt(population.eta)}."),
    )


def check_general_gateaux() -> Outcome:
    """Derive G'(0) from Eq. (3) with generic coefficients, compare with the three printed lines of App. A.4 and
    with the stationary condition written after them ("Thus, the stationary condition is ...")."""
    c = COEFFICIENT_SYMBOLS
    derivative, ew0, ew1 = gateaux_derivative(c)
    lines = printed_general_gateaux_lines(p=PBAR, eta=ETA, dpos=DPOS, dneg=DNEG, ew0=ew0, ew1=ew1, ustar=ew0 / ew1, c=c)
    if not (_is_zero(derivative - lines[0]) and _is_zero(derivative - lines[1])):
        return _undecided("App. A.4 G'(0), first two lines")
    # the third line, compared with the derived G'(0) at U_phi(f*) = U* (eliminating R0 as in stationary_bracket)
    r0 = sp.solve(sp.Eq(ew0, USTAR * ew1), R0)[0]
    derived_at_ustar = sp.cancel(derivative.subs(R0, r0))
    printed_line3 = printed_general_gateaux_lines(p=PBAR, eta=ETA, dpos=DPOS, dneg=DNEG, ew0=EW0, ew1=ew1, ustar=USTAR,
                                                  c=c)[2]
    line3_ratio = sp.cancel(derived_at_ustar / printed_line3)
    bracket = stationary_bracket(c)
    printed = printed_general_stationary_condition(eta=ETA, dpos=DPOS, dneg=DNEG, ustar=USTAR, c=c)
    errata = []
    population, metric, loss, maximiser, ustar = surrogate_maximiser()
    w, wc = _WITNESS, _witness_coefficients()
    subs = {DPOS: w["dpos"], DNEG: w["dneg"], USTAR: w["ustar"]}

    if line3_ratio != 1:
        if line3_ratio != PBAR:
            return _undecided("App. A.4 G'(0), third line")
        # witness at exact rationals; E[W_1,phi(f*)] = 1, eta = 1/2, p(x-bar) = 1/10
        point = {**subs, ETA: sp.Rational(1, 2), PBAR: sp.Rational(1, 10)}
        unit = {R1: 1 - PBAR * scores_eq3(XI, ETA, wc)[1]}  # makes E[W_1,phi(f*)] = 1
        derived_value = sp.cancel(derived_at_ustar.subs(dict(zip(c, wc))).subs(unit)).subs(point)
        printed_value = printed_general_gateaux_lines(p=PBAR, eta=ETA, dpos=DPOS, dneg=DNEG, ew0=EW0, ew1=EW1,
                                                      ustar=USTAR, c=wc)[2].subs(
            {**point, EW1: 1})
        fd, derived_fd, printed_fd = _third_line_finite_differences(population, metric, loss, wc)
        if not abs(fd - derived_fd) < 1e-8 * max(1.0, abs(fd)):
            return _undecided("App. A.4 G'(0), third line: finite differences disagree with the derivation")
        errata.append(_third_line_erratum(derived_value=derived_value, printed_value=printed_value,
                                          population=population, metric=metric, fd=fd, derived_fd=derived_fd,
                                          printed_fd=printed_fd))

    if not _same_equation(bracket, printed):
        difference = sp.factor(bracket - printed)
        eta_derived = sp.solve(stationary_bracket(wc).subs(subs), ETA)[0]
        eta_printed = sp.solve(printed_general_stationary_condition(eta=ETA, dpos=DPOS, dneg=DNEG, ustar=USTAR,
                                                                    c=wc).subs(subs), ETA)[0]
        fd, derived_values, printed_values = _stationary_condition_evidence(
            population=population, metric=metric, loss=loss, maximiser=maximiser, ustar=ustar, wc=wc)
        if not (fd < 1e-8 and float(np.max(np.abs(derived_values))) < 1e-7):
            return _undecided("App. A.4 stationary condition: the maximiser does not satisfy the derived condition")
        errata.append(_stationary_condition_erratum(
            bracket=bracket, difference=difference, eta_derived=eta_derived, eta_printed=eta_printed,
            population=population, metric=metric, ustar=ustar, printed_values=printed_values))
    if not errata:
        return Outcome("verified", "App. A.4's G'(0) lines and stationary condition agree with the derivation")
    return Outcome(
        "erratum",
        "The first two G'(0) lines of App. A.4 are the derivative of Eq. (3)'s U_phi; "
        + ("the third drops the factor p(x-bar); " if line3_ratio != 1 else "the third line matches; ")
        + ("the stationary condition written after them drops the factor U_phi^* on the a_{1,-1} phi'(-f*)(1 - eta) "
           "term." if len(errata) == 2 or line3_ratio == 1 else "the stationary condition after them matches."),
        errata=tuple(errata),
    )


def check_general_eta() -> Outcome:
    """Solve the derived stationary condition (generic coefficients, Eq. (3)) for eta(x-bar) and compare with
    eq:supp:stationary-condition (eta-bar_STA)."""
    c = COEFFICIENT_SYMBOLS
    derived = stationary_eta(c)
    printed = printed_general_stationary_eta(DPOS, DNEG, USTAR, c)
    if _is_zero(derived - printed):
        return Outcome("verified", f"eta(x-bar) = {derived} as printed")
    # the derived form, written like the printed one
    written = ((-c.a0n + c.a1n * USTAR) * DNEG / ((c.a0p + c.a1p * USTAR) * DPOS + (-c.a0n + c.a1n * USTAR) * DNEG))
    if not _is_zero(derived - written):
        return _undecided("eq:supp:stationary-condition")

    w, wc = _WITNESS, _witness_coefficients()
    subs = {DPOS: w["dpos"], DNEG: w["dneg"], USTAR: w["ustar"]}
    eta_derived = stationary_eta(wc).subs(subs)
    eta_printed = printed_general_stationary_eta(DPOS, DNEG, USTAR, wc).subs(subs)

    derived_fn = sp.lambdify((DPOS, DNEG, USTAR), stationary_eta(wc), "numpy")
    printed_fn = sp.lambdify((DPOS, DNEG, USTAR), printed_general_stationary_eta(DPOS, DNEG, USTAR, wc), "numpy")
    ev = _maximiser_evidence(printed_fn, derived_fn)
    if not (ev["fd"] < 1e-8 and ev["derived_error"] < 1e-7):
        return _undecided("eq:supp:stationary-condition: the maximiser does not satisfy the derived condition")
    erratum = Erratum(
        location="App. A.4, proof of Thm. 7 (thm:general-calibration), eq:supp:stationary-condition",
        printed=("eta-bar_STA = (-a_{0,-1} + a_{1,-1} U_phi^*) phi'(-f*) / [(a_{0,+1} - a_{1,+1} U_phi^*) phi'(f*) "
                 "+ (-a_{0,-1} + a_{1,-1} U_phi^*) phi'(-f*)]"),
        derived=("eta-bar_STA = (-a_{0,-1} + a_{1,-1} U_phi^*) phi'(-f*) / [(a_{0,+1} + a_{1,+1} U_phi^*) phi'(f*) "
                 "+ (-a_{0,-1} + a_{1,-1} U_phi^*) phi'(-f*)]  (sympy.solve of G'(0) = 0 from Eq. (3))"),
        consequence=("None for Thm. 7: the next display (eq:supp:calibration:contradiction:1) rewrites eta-bar_STA "
                     "with "
                     "(a_{0,+1} + a_{1,+1} U_phi^*), the derived sign, and the case analysis uses that; the printed "
                     "formula itself is wrong as an identity in phi' whenever a_{1,+1} U_phi^* != 0 and -a_{0,-1} + "
                     "a_{1,-1} U_phi^* != 0 (where the latter is 0 both give eta = 0; it is right for "
                     "Jaccard and accuracy, "
                     "where a_{1,+1} = 0)."),
        witness=f"{_witness_text()}: derived eta(x-bar) = {eta_derived}, printed {eta_printed}",
        evidence=(f"Maximiser of U_phi (logistic loss) over the score vectors (one score per atom) of a 5-atom "
                  f"FiniteSupportPopulation "
                  f"(weights {_fmt(_EVIDENCE_WEIGHTS)}, eta = {_fmt(ev['eta'])}), metric with a_{{0,+1}} = 2, "
                  "a_{0,-1} = -1, a_{1,+1} = 1, a_{1,-1} "
                  "= 1, "
                  f"b_0 = 1, b_1 = 1: U_phi^* = {ev['ustar']:.6g}, central finite differences of "
                  "surrogate_utility_of_scores < 1e-8 at each of its 5 atoms; the derived eta-bar_STA at each atom's "
                  "phi'(+-f*) "
                  f"reproduces its eta to < 1e-7, the printed one gives {_fmt(ev['printed'])}."),
    )
    return Outcome(
        "erratum",
        "sympy.solve of the derived condition gives the denominator (a0p + a1p U*) phi'(f*) + (-a0n + a1n U*) "
        "phi'(-f*); eq:supp:stationary-condition prints (a0p - a1p U*).",
        errata=(erratum,),
    )


CLAIMS = (
    Claim(key="stationary_conditions.fbeta_condition",
          title="Thm. 1 proof: G'(0) and the F_beta stationary condition",
          label="eq:supp:fbeta-stationary-condition", expected="verified", check=check_fbeta_condition),
    Claim(key="stationary_conditions.fbeta_eta",
          title="Thm. 1 proof: eta(x-bar) at an F_beta stationary point",
          label="eq:supp:fbeta-stationary-eta", expected="verified", check=check_fbeta_eta),
    Claim(key="stationary_conditions.jaccard_eta",
          title="Thm. 2 proof: eta(x-bar) at a Jaccard stationary point",
          label="eq:supp:jaccard-stationary-eta", expected="verified", check=check_jaccard_eta),
    Claim(key="stationary_conditions.accuracy_condition",
          title="Prop. 8 proof: the accuracy stationary condition",
          label="eq:supp:accuracy-stationary-condition", expected="verified", check=check_accuracy_condition),
    Claim(key="stationary_conditions.general_scores",
          title="Thm. 7 proof: the surrogate scores W_{k,phi} re-defined in App. A.4",
          label="thm:general-calibration", expected="erratum", check=check_general_scores),
    Claim(key="stationary_conditions.general_gateaux",
          title="Thm. 7 proof: G'(0) and the general stationary condition",
          label="thm:general-calibration", expected="erratum", check=check_general_gateaux),
    Claim(key="stationary_conditions.general_eta",
          title="Thm. 7 proof: eta-bar_STA, the eta(x-bar) at a stationary point",
          label="eq:supp:stationary-condition", expected="erratum", check=check_general_eta),
)
