"""Prop. 5 (``prop:bayes-optimal-set``, App. A): the Bayes-optimal set of a linear-fractional utility.

The proof restates U as a functional of lambda = l(-f) in [0, 1]:

    U-bar(lambda) = E[a0p lambda eta + a0n lambda (1 - eta) + b0] / E[a1p lambda eta + a1n lambda (1 - eta) + b1],

prints its Frechet derivative [grad U-bar]_x in three lines, and concludes that a Bayes-optimal f satisfies
f(x) {(Da0 - Da1 U) eta(x) - (a1n U - a0n)} > 0, a threshold on eta.  Here X is modelled as finitely many
atoms x_1..x_J with probabilities p_j; U-bar is differentiated in lambda_1 with SymPy (the paper's
[grad]_x is the derivative against the measure dx of its integral, so it carries the factor p(x) and equals
d U-bar / d lambda_1 with p(x) = p_1), and the result is compared with each printed line, with the
threshold eta_OPT written in App. A.4, and with the specialisations B^{F_beta}, B^{Jac} and B^{Acc}, whose
coefficients are derived from the metrics' definitions in TP, FN, FP, TN.  Independent evidence: on random
finite-support populations the optimum found by enumerating all 2^J classifiers satisfies the derived
characterisation, and the classifiers satisfying it are exactly the optimal ones.

Claims (all ``prop:bayes-optimal-set``): the Frechet derivative; the threshold characterisation; the
F_beta / Jaccard specialisations; the accuracy coefficients quoted after the proof.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import sympy as sp

from lfverify.core import (
    DEFAULT_SEED,
    FiniteSupportPopulation,
    LinearFractionalMetric,
    accuracy,
    f_beta,
    gower_legendre,
    jaccard,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome

__all__ = ["Coefficients", "COEFFICIENT_SYMBOLS", "metric_coefficients", "F_BETA", "JACCARD", "ACCURACY",
           "BETA", "PI", "CLAIMS"]

# ---------------------------------------------------------------------------------------------- symbols
BETA = sp.Symbol("beta", positive=True)
PI = sp.Symbol("pi", positive=True)  # the class prior P(Y = +1), in (0, 1)
TP, FN, FP, TN = sp.symbols("TP FN FP TN", nonnegative=True)
U = sp.Symbol("U", real=True)  # a utility value U(f) = U-bar(lambda)
ETA = sp.Symbol("eta", positive=True)  # eta(x) in (0, 1)


class Coefficients(NamedTuple):
    """The constants of Definition 1: U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1)."""

    a0p: sp.Expr
    a0n: sp.Expr
    b0: sp.Expr
    a1p: sp.Expr
    a1n: sp.Expr
    b1: sp.Expr

    @property
    def da0(self):
        """Delta a_0 = a_{0,+1} - a_{0,-1} (Prop. 5)."""
        return self.a0p - self.a0n

    @property
    def da1(self):
        """Delta a_1 = a_{1,+1} - a_{1,-1} (Prop. 5)."""
        return self.a1p - self.a1n


#: Generic coefficients carrying Definition 1's sign constraints as assumptions.
COEFFICIENT_SYMBOLS = Coefficients(
    a0p=sp.Symbol("a0p", positive=True),
    a0n=sp.Symbol("a0n", nonpositive=True),
    b0=sp.Symbol("b0", real=True),
    a1p=sp.Symbol("a1p", nonnegative=True),
    a1n=sp.Symbol("a1n", nonnegative=True),
    b1=sp.Symbol("b1", real=True),
)


def metric_coefficients(metric: sp.Expr) -> Coefficients:
    """Definition 1's coefficients of a metric written as a ratio in TP, FN, FP, TN.

    FN = pi - TP and TN = (1 - pi) - FP are eliminated (Sec. 2); numerator and denominator are then affine
    in (TP, FP) and their coefficients are read off.
    """
    numerator, denominator = sp.fraction(sp.together(metric))
    eliminate = {FN: PI - TP, TN: 1 - PI - FP}

    def affine(expr):
        poly = sp.Poly(sp.expand(expr.subs(eliminate)), TP, FP)
        if poly.total_degree() > 1:
            raise ValueError(f"not affine in (TP, FP): {expr}")
        return poly.coeff_monomial(TP), poly.coeff_monomial(FP), sp.factor(poly.coeff_monomial(1))

    (a0p, a0n, b0), (a1p, a1n, b1) = affine(numerator), affine(denominator)
    return Coefficients(a0p=a0p, a0n=a0n, b0=b0, a1p=a1p, a1n=a1n, b1=b1)


# ------------------------------------------------------------------ definitions of the metrics (inputs)
# Table 1 "Definition" row / Sec. 4 (F_beta, Jaccard) and App. A.3's U^Acc = TP - FP + (1 - pi) = TP + TN.
F_BETA = metric_coefficients((1 + BETA**2) * TP / ((1 + BETA**2) * TP + BETA**2 * FN + FP))
JACCARD = metric_coefficients(TP / (TP + FN + FP))
ACCURACY = metric_coefficients(TP + TN)


# ---- printed forms, transcribed from the LaTeX source
def printed_gradient_lines(p, eta, ew0, ew1, ubar, c: Coefficients):
    """App. A, proof of Prop. 5 (prop:bayes-optimal-set): the three printed lines of [grad U-bar(lambda)]_x."""
    line1 = ((c.da0 * eta + c.a0n) * ew1 - (c.da1 * eta + c.a1n) * ew0) / ew1**2 * p
    line2 = p / ew1 * ((c.da0 - c.da1 * ew0 / ew1) * eta - (c.a1n * ew0 / ew1 - c.a0n))
    line3 = p / ew1 * ((c.da0 - c.da1 * ubar) * eta - (c.a1n * ubar - c.a0n))
    return line1, line2, line3


def printed_bayes_bracket(eta, u, c: Coefficients):
    """Prop. 5 (prop:bayes-optimal-set): B = {f | f(x) {(Da0 - Da1 U(f)) eta(x) - (a1n U(f) - a0n)} > 0 for all x}."""
    return (c.da0 - c.da1 * u) * eta - (c.a1n * u - c.a0n)


def printed_eta_opt(u, c: Coefficients):
    """App. A.4, proof of Thm. 7: eta_OPT = (a1n U(f*) - a0n) / (Da0 - Da1 U(f*)), the threshold on eta."""
    return (c.a1n * u - c.a0n) / (c.da0 - c.da1 * u)


#: App. A.1 (proof of Thm. 1): B^{F_beta} = {f | f(x) ((1 + beta^2) eta(x) - U^{F_beta}(f)) > 0 for all x}.
PRINTED_FBETA_BRACKET = (1 + BETA**2) * ETA - U
#: App. A.2 (proof of Thm. 2): B^{Jac} = {f | f(x) {(1 + U^{Jac}(f)) eta(x) - U^{Jac}(f)} > 0 for all x}.
PRINTED_JACCARD_BRACKET = (1 + U) * ETA - U
#: App. A after the proof of Prop. 5, and App. A.3's B^{Acc}: f(x) (2 eta(x) - 1) > 0 for all x.
PRINTED_ACCURACY_BRACKET = 2 * ETA - 1
#: App. A.3: U^Acc(f) = int {l(-f) eta - l(-f)(1 - eta) + (1 - pi)} p dx, with lambda = l(-f) (integrand; denominator
#: 1).
LAMBDA = sp.Symbol("lambda", real=True)
PRINTED_U_ACC_INTEGRAND = LAMBDA * ETA - LAMBDA * (1 - ETA) + (1 - PI)
#: App. A after the proof of Prop. 5: "a_{0,+1} = 1, a_{0,-1} = -1, a_{1,+1} = a_{1,-1} = b_0 = b_1 = 0".
PRINTED_ACCURACY_COEFFICIENTS = Coefficients(a0p=sp.Integer(1), a0n=sp.Integer(-1), b0=sp.Integer(0),
                                             a1p=sp.Integer(0), a1n=sp.Integer(0), b1=sp.Integer(0))


# ------------------------------------------------------------------ U-bar on J atoms
N_ATOMS = 3
_P = sp.symbols(f"p1:{N_ATOMS}", positive=True)
PROBS = (*_P, 1 - sum(_P))  # P(X = x_j); the last one makes them sum to 1
ETAS = sp.symbols(f"eta1:{N_ATOMS + 1}", positive=True)
LAMBDAS = sp.symbols(f"lambda1:{N_ATOMS + 1}", real=True)


def expectations(c: Coefficients, lambdas=LAMBDAS):
    """E[W_0], E[W_1] of U-bar(lambda) on the atoms: sum_j p_j (a_{k,+1} l_j eta_j + a_{k,-1} l_j (1 - eta_j) + b_k)."""
    ew0 = sum(p * (c.a0p * l * e + c.a0n * l * (1 - e) + c.b0) for p, e, l in zip(PROBS, ETAS, lambdas))
    ew1 = sum(p * (c.a1p * l * e + c.a1n * l * (1 - e) + c.b1) for p, e, l in zip(PROBS, ETAS, lambdas))
    return ew0, ew1


def derived_bracket(c: Coefficients = COEFFICIENT_SYMBOLS, u=U, eta=ETA):
    """(d U-bar / d lambda_1) * E[W_1] / p_1 with U-bar(lambda) = u and eta_1 = eta, for symbolic coefficients.

    U-bar(lambda) = u is imposed by solving E[W_0] = u E[W_1] for b_0 (E[W_0] is b_0 plus terms free of
    b_0, since the p_j sum to 1), which leaves every other quantity free.
    """
    if not isinstance(c.b0, sp.Symbol):
        raise TypeError("derived_bracket needs a symbolic b0; use bracket_for for given coefficients")
    ew0, ew1 = expectations(c)
    gradient = sp.diff(ew0 / ew1, LAMBDAS[0])
    b0_value = sp.solve(sp.Eq(ew0, u * ew1), c.b0)[0]
    scaled = (gradient * ew1 / PROBS[0]).subs(c.b0, b0_value)
    return sp.expand(sp.cancel(scaled)).subs(ETAS[0], eta)


def bracket_for(c: Coefficients, u=U, eta=ETA):
    """The derived bracket for given coefficients: the generic one with the coefficients substituted."""
    generic = derived_bracket(COEFFICIENT_SYMBOLS, u, eta)
    return sp.expand(generic.subs(dict(zip(COEFFICIENT_SYMBOLS, c)), simultaneous=True))


# ------------------------------------------------------------------ claim 1: the derivative
def check_frechet_derivative() -> Outcome:
    """Derive d U-bar / d lambda_1 on three atoms from the definition of U-bar (proof of Prop. 5) and compare
    it with each of the three printed lines (p(x) = p_1, E[W_k] the atom sums, U-bar = E[W_0] / E[W_1])."""
    c = COEFFICIENT_SYMBOLS
    ew0, ew1 = expectations(c)
    gradient = sp.diff(ew0 / ew1, LAMBDAS[0])
    lines = printed_gradient_lines(p=PROBS[0], eta=ETAS[0], ew0=ew0, ew1=ew1, ubar=ew0 / ew1, c=c)
    differences = [sp.cancel(gradient - line) for line in lines]
    if any(d != 0 for d in differences):
        bad = [i + 1 for i, d in enumerate(differences) if d != 0]
        return Outcome("undecided", f"d U-bar / d lambda_1 differs from printed line(s) {bad}; not classified")
    return Outcome(
        "verified",
        "d U-bar / d lambda_1 on 3 atoms equals all three printed lines of [grad U-bar]_x exactly (with p(x) = "
        "P(X = x_1); the paper's derivative is taken against dx, hence its factor p(x)).",
    )


# ------------------------------------------------------------------ claim 2: the threshold
_SEED = DEFAULT_SEED
_N_POPULATIONS = 30
_ATOMS_PER_POPULATION = 8


def _evidence_metrics():
    return [f_beta(1.0), f_beta(2.0), jaccard(), accuracy(), gower_legendre(0.5), gower_legendre(2.0),
            LinearFractionalMetric(a0p=2.0, a0n=-1.0, a1p=1.0, a1n=1.0, b0_const=1.0, b1_const=1.0, name="custom")]


def _brute_force_evidence(bracket_fn, threshold_fn):
    """Enumerate all 2^J classifiers of random finite-support populations (as in
    ``FiniteSupportPopulation._reference_bayes_optimal``) and compare the optimal ones with the classifiers
    satisfying the derived condition sign(f(x_j)) = sign(bracket(eta_j, U(f)))."""
    rng = np.random.default_rng(_SEED)
    J = _ATOMS_PER_POPULATION
    codes = (np.arange(2**J)[:, None] >> np.arange(J)[None, :]) & 1
    scores = np.where(codes == 1, 1.0, -1.0)
    cases = agree = threshold_agree = threshold_cases = 0
    for _ in range(_N_POPULATIONS):
        weights = rng.dirichlet(np.ones(J))
        weights = weights / weights.sum()
        eta = rng.uniform(0.02, 0.98, J)
        population = FiniteSupportPopulation(np.arange(J, dtype=float)[:, None], weights, eta)
        for metric in _evidence_metrics():
            values = population.utility_of_scores(metric, scores, zero_division=0.0)
            best = values.max()
            optimal = values >= best - 1e-12
            # the derived first-order characterisation, with each classifier's own utility
            brackets = bracket_fn(metric, eta[None, :], values[:, None])
            clear = np.all(np.abs(brackets) > 1e-9, axis=1)
            consistent = clear & np.all((brackets > 0) == (codes == 1), axis=1)
            cases += 1
            agree += bool(np.array_equal(consistent, optimal))
            slope = metric.delta_a0 - metric.delta_a1 * best
            if slope > 0:
                threshold_cases += 1
                delta = threshold_fn(metric, best)
                predicted = eta > delta
                threshold_agree += bool(np.all(codes[optimal] == predicted[None, :]))
    return cases, agree, threshold_cases, threshold_agree


def check_threshold() -> Outcome:
    """Derive the sign-determining bracket of [grad U-bar]_x (proof of Prop. 5), solve it for eta (the
    threshold delta(U)), prove that the first-order condition is necessary and sufficient through the
    identity E[W_0](lambda) - U E[W_1](lambda) = sum_j p_j c_j(U) lambda_j + b0 - U b1, and confirm on random
    finite-support populations by enumeration of all classifiers."""
    c = COEFFICIENT_SYMBOLS
    bracket = derived_bracket(c)
    if sp.expand(bracket - printed_bayes_bracket(ETA, U, c)) != 0:
        return Outcome("undecided", "the derived bracket differs from Prop. 5's printed one; not classified")
    delta = sp.solve(sp.Eq(bracket, 0), ETA)
    if len(delta) != 1 or sp.cancel(delta[0] - printed_eta_opt(U, c)) != 0:
        return Outcome("undecided", f"solving the bracket for eta gave {delta}; not classified")
    # Dinkelbach identity: with U = U(lambda-dagger), U(lambda) >= U(lambda-dagger) iff
    # sum_j p_j c_j(U) (lambda_j - lambda-dagger_j) >= 0 (E[W_1] > 0), so lambda-dagger is optimal iff it is 1
    # where c_j > 0 and 0 where c_j < 0: the first-order condition is necessary AND sufficient.
    ew0, ew1 = expectations(c)
    # the bracket is free of b0, b1 and of the other atoms, so c_j(U) is the bracket at eta_j
    linear = sum(p * bracket.subs(ETA, e) * l for p, e, l in zip(PROBS, ETAS, LAMBDAS)) + c.b0 - U * c.b1
    if sp.expand(ew0 - U * ew1 - linear) != 0:
        return Outcome("undecided", "the linearisation identity E[W0] - U E[W1] = sum p_j c_j lambda_j + b0 - U b1 "
                                    "failed")

    bracket_numeric = sp.lambdify((c.a0p, c.a0n, c.a1p, c.a1n, ETA, U), bracket, "numpy")
    delta_numeric = sp.lambdify((c.a0p, c.a0n, c.a1p, c.a1n, U), delta[0], "numpy")

    def bracket_fn(metric, eta, u):
        return bracket_numeric(metric.a0p, metric.a0n, metric.a1p, metric.a1n, eta, u)

    def threshold_fn(metric, u):
        return delta_numeric(metric.a0p, metric.a0n, metric.a1p, metric.a1n, u)

    cases, agree, threshold_cases, threshold_agree = _brute_force_evidence(bracket_fn, threshold_fn)
    if agree != cases or threshold_agree != threshold_cases:
        return Outcome("undecided", f"enumeration disagrees with the derived characterisation in "
                                    f"{cases - agree} of {cases} and {threshold_cases - threshold_agree} of "
                                    f"{threshold_cases} cases; not classified")
    return Outcome(
        "verified",
        "[grad U-bar]_x = p(x)/E[W1] {(Da0 - Da1 U) eta - (a1n U - a0n)} gives the threshold delta(U) = "
        "(a1n U - a0n)/(Da0 - Da1 U) (= App. A.4's eta_OPT); E[W0] - U E[W1] = sum_j p_j c_j(U) lambda_j + b0 - "
        "U b1 makes 'lambda = 1 where the bracket is > 0, 0 where < 0' necessary and sufficient; enumerating all "
        f"2^{_ATOMS_PER_POPULATION} classifiers of {_N_POPULATIONS} random populations x "
        f"{len(_evidence_metrics())} metrics ({cases} cases), the classifiers with sign(f) = sign(bracket at "
        f"their own U) are exactly the optimal ones, and the optimum is {{eta > delta(U-dagger)}} in all "
        f"{threshold_cases} cases with Da0 - Da1 U-dagger > 0.  Notes: the printed 'sgn(lambda) = sgn(grad)' "
        "is meaningful only with the paper's convention sgn(0) = -1 (lambda in {0, 1}); it then says lambda = 1 "
        "=> grad > 0 and lambda = 0 => grad <= 0, the correct first-order condition (grad >= 0 / <= 0) except "
        "on the critical set {grad = 0}; 'sgn(l(-f)) = sgn(f)' fails at f = 0 (l(-0) = 1 while sgn(0) = -1); "
        "and 'for all x' is a condition on the prediction lambda = l(-f(x)) for P-a.e. x, not on the product "
        "f(x) * bracket (E41: as printed, B is empty as soon as some x has eta(x) = delta(U-dagger)).",
        method=f"symbolic; enumeration of 2^{_ATOMS_PER_POPULATION} classifiers on {cases} population/metric cases",
    )


# ------------------------------------------------------------------ claim 3: F_beta and Jaccard
def check_fbeta_jaccard_sets() -> Outcome:
    """Derive the Table-1 coefficients of F_beta and Jaccard from their definitions in TP, FN, FP, substitute
    them into the derived bracket of Prop. 5 and compare with the printed B^{F_beta} and B^{Jac} brackets."""
    fbeta = bracket_for(F_BETA)
    jac = bracket_for(JACCARD)
    if sp.expand(fbeta - PRINTED_FBETA_BRACKET) != 0 or sp.expand(jac - PRINTED_JACCARD_BRACKET) != 0:
        return Outcome("undecided", f"derived brackets {fbeta}, {jac} differ from the printed ones; not classified")
    return Outcome(
        "verified",
        f"From F_beta's definition (a0p, a0n, a1p, a1n, b1) = ({F_BETA.a0p}, {F_BETA.a0n}, {F_BETA.a1p}, "
        f"{F_BETA.a1n}, {F_BETA.b1}) the bracket is exactly (1 + beta^2) eta - U (B^Fbeta); from Jaccard's "
        f"({JACCARD.a0p}, {JACCARD.a0n}, {JACCARD.a1p}, {JACCARD.a1n}, {JACCARD.b1}) it is exactly (1 + U) eta - U "
        "(B^Jac).",
    )


# ------------------------------------------------------------------ claim 4: accuracy coefficients
def check_accuracy_coefficients() -> Outcome:
    """Derive accuracy's coefficients from TP + TN (App. A.3's U^Acc), compare them with the ones quoted after
    the proof of Prop. 5, and derive B^Acc's bracket from both."""
    printed = PRINTED_ACCURACY_COEFFICIENTS
    derived = ACCURACY
    bracket_derived = bracket_for(derived)
    bracket_printed = bracket_for(printed)  # the bracket does not involve b0, b1
    if sp.expand(bracket_derived - PRINTED_ACCURACY_BRACKET) != 0 or sp.expand(bracket_printed - bracket_derived) != 0:
        return Outcome("undecided", f"accuracy brackets {bracket_derived} (derived coefficients), {bracket_printed} "
                                    f"(printed coefficients) and the printed {PRINTED_ACCURACY_BRACKET} differ; "
                                    "not classified")
    # App. A.3 writes U^Acc out: its integrand must be W_0 = a0p lambda eta + a0n lambda (1 - eta) + b0 with W_1 = 1
    w0 = derived.a0p * LAMBDA * ETA + derived.a0n * LAMBDA * (1 - ETA) + derived.b0
    if sp.expand(w0 - PRINTED_U_ACC_INTEGRAND) != 0 or derived.b1 != 1 or derived.a1p != 0 or derived.a1n != 0:
        return Outcome("undecided", "accuracy's derived coefficients disagree with App. A.3's U^Acc; not classified")
    if tuple(printed) == tuple(derived):
        return Outcome("verified", "the printed accuracy coefficients equal the derived ones")
    # the printed coefficients make E[W_1] = a1p TP + a1n FP + b1 vanish identically
    printed_denominator = printed.a1p * TP + printed.a1n * FP + printed.b1
    tp, fp, prior = 0.3, 0.1, 0.4
    reference = accuracy()
    value = float(reference.value(tp, fp, prior))
    literal = LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=0.0, a1n=0.0, name="accuracy as printed after Prop. 5")
    try:
        literal.value(tp, fp, prior)
        literal_result = "a finite value"
    except ValueError as exc:
        literal_result = f"ValueError ({exc})"
    erratum = Erratum(
        location="App. A, paragraph after the proof of Prop. 5 (prop:bayes-optimal-set)",
        printed="accuracy has a_{0,+1} = 1, a_{0,-1} = -1, a_{1,+1} = a_{1,-1} = b_0 = b_1 = 0",
        derived=(f"accuracy = TP + TN = TP - FP + (1 - pi) has a_{{0,+1}} = {derived.a0p}, a_{{0,-1}} = {derived.a0n}, "
                 f"b_0 = {derived.b0}, a_{{1,+1}} = {derived.a1p}, a_{{1,-1}} = {derived.a1n}, b_1 = {derived.b1}, "
                 "exactly "
                 "the U^Acc written out in App. A.3 (and Table 1's Gower-Legendre row at alpha = 1)"),
        consequence=("None for the conclusion: the bracket (Da0 - Da1 U) eta - (a1n U - a0n) does not involve b_0, "
                     "b_1, so "
                     f"both coefficient sets give {bracket_derived} and B^Acc = {{f(2 eta - 1) > 0}}; but with the "
                     "printed "
                     f"b_1 = 0 the denominator E[W_1] = {printed_denominator} vanishes for every f, so they do not "
                     "define "
                     "a utility (and p(x)/E[W_1] > 0, used in the proof, fails)."),
        witness=(f"TP = {tp}, FP = {fp}, pi = {prior}: printed coefficients give U = (0.3 - 0.1 + 0)/0, undefined; "
                 f"derived give U = 0.3 - 0.1 + 0.6 = {value:.12g} = TP + TN"),
        evidence=(f"lfverify.core.LinearFractionalMetric with the printed coefficients: value(TP={tp}, FP={fp}, "
                  f"pi={prior}) raises {literal_result}; lfverify.core.accuracy() (the derived coefficients) "
                  f"returns {value:.12g}, the accuracy TP + TN."),
    )
    return Outcome(
        "erratum",
        "Accuracy's coefficients quoted after Prop. 5 have b_0 = b_1 = 0, which makes E[W_1] = 0; the derived "
        "ones (b_0 = 1 - pi, b_1 = 1) give the same B^Acc bracket 2 eta - 1.",
        errata=(erratum,),
    )


# ------------------------------------------------------------------ claim 5: 'for all x'
def check_for_all_x() -> Outcome:
    """Prop. 5's set B asks f(x) times the bracket to be > 0 'for all x'; where the bracket vanishes at some x
    (eta(x) = delta(U-dagger)) no f qualifies, though U-dagger is attained.  Referee round 16 of issue 40: accuracy on
    X uniform on [0, 1] with eta(x) = x, exactly (SymPy integrals), and the core library on a fine grid."""
    x = sp.Symbol("x", real=True)
    eta = x  # P_X uniform on [0, 1]
    # accuracy of the threshold rule f = x - 1/2 (+1 where x > 1/2), and U-dagger = E[max(eta, 1 - eta)]
    u_rule = sp.integrate(eta, (x, sp.Rational(1, 2), 1)) + sp.integrate(1 - eta, (x, 0, sp.Rational(1, 2)))
    u_dagger = sp.integrate(sp.Max(eta, 1 - eta), (x, 0, 1))
    bracket_at_half = (2 * eta - 1).subs(x, sp.Rational(1, 2))  # accuracy's bracket (App. A after Prop. 5)
    # every f has f(1/2) * 0 = 0, not > 0: the printed B is empty
    if not (sp.simplify(u_rule - u_dagger) == 0 and bracket_at_half == 0):
        return Outcome("verified", "no population found where the printed 'for all x' empties B")
    grid = (np.arange(20000) + 0.5) / 20000
    pop = FiniteSupportPopulation(grid[:, None], np.full(grid.size, 1 / grid.size), grid)
    lib_u = pop.utility_of_scores(accuracy(), grid - 0.5)
    erratum = Erratum(
        location="Prop. 5 (prop:bayes-optimal-set): 'for all x' in the set B (and App. A's B^Acc)",
        printed="B = {f | f(x) {(Da0 - Da1 U(f)) eta(x) - (a1n U(f) - a0n)} > 0 for all x}",
        derived="the characterisation is a condition on the prediction l(-f(x)) = 1{f(x) >= 0}: l(-f(x)) = 1 where "
                "the bracket is > 0 and 0 where it is < 0, for P-a.e. x (the claim prop5_bayes_optimal_set.threshold "
                "works with lambda = l(-f)); the printed product f(x) * bracket > 0 cannot hold where the bracket "
                "vanishes (eta(x) = delta(U-dagger)), so B is then empty, and even read for P-a.e. x it excludes a "
                "Bayes-optimal f that is 0 on a set of positive mass (l(-0) = 1 counts it positive)",
        consequence="yes for Prop. 5 as printed: its set is empty on a population where eta takes the value "
                    "delta(U-dagger) at some x, though U-dagger is attained there, and read 'for all x' it also "
                    "excludes a Bayes-optimal f changed on a P-null set (referee round 19: X uniform on [0, 1], eta "
                    "= x/3, f = -1 but f(1/2) = +1); stated through the prediction "
                    "(l(-f(x)) = 1 where the bracket is > 0, 0 where it is < 0, for P-a.e. x) the characterisation "
                    "holds (prop5_bayes_optimal_set.threshold)",
        witness=f"accuracy, X uniform on [0, 1], eta(x) = x: delta = 1/2, the bracket 2 eta(1/2) - 1 = "
                f"{bracket_at_half}, so f(1/2) * 0 > 0 fails for every f and the printed B is empty; yet f = x - 1/2 "
                f"attains U = {u_rule} = U-dagger = E[max(eta, 1 - eta)] = {u_dagger} (exact integrals); f_0 = 0 on "
                f"[1/2, 1] and -1 on [0, 1/2) has the same predictions (l(-0) = 1), so U(f_0) = {u_rule} too, while "
                "f_0(x)(2 eta(x) - 1) = 0 on a set of mass 1/2 (referee round 17)",
        evidence=f"core library (FiniteSupportPopulation on the midpoints of 20000 equal cells, eta = x): the rule "
                 f"x > 1/2 has accuracy {lib_u:.9f} (3/4 up to the grid)",
    )
    return Outcome("erratum", "As printed, B is empty wherever eta takes the value delta(U-dagger) at some x; stated "
                              "through the prediction l(-f), for P-a.e. x, the characterisation holds.",
                   errata=(erratum,),
                   method="SymPy exact integrals; core library on a grid")


CLAIMS = (
    Claim(key="prop5_bayes_optimal_set.frechet_derivative",
          title="Prop. 5: the Frechet derivative of U-bar (three printed lines)",
          label="prop:bayes-optimal-set", expected="verified", check=check_frechet_derivative),
    Claim(key="prop5_bayes_optimal_set.threshold",
          title="Prop. 5: the Bayes-optimal set is a threshold on eta, delta(U) = (a1n U - a0n)/(Da0 - Da1 U)",
          label="prop:bayes-optimal-set", expected="verified", check=check_threshold),
    Claim(key="prop5_bayes_optimal_set.fbeta_jaccard_sets",
          title="Prop. 5: the Bayes-optimal sets B^{F_beta} and B^{Jac}",
          label="prop:bayes-optimal-set", expected="verified", check=check_fbeta_jaccard_sets),
    Claim(key="prop5_bayes_optimal_set.accuracy_coefficients",
          title="Prop. 5: accuracy's coefficients and B^{Acc} (text after the proof)",
          label="prop:bayes-optimal-set", expected="erratum", check=check_accuracy_coefficients),
    Claim(key="prop5_bayes_optimal_set.for_all_x",
          title="Prop. 5: the set B 'for all x' is empty wherever eta(x) = delta(U-dagger) at some x",
          label="prop:bayes-optimal-set", expected="erratum", check=check_for_all_x),
)
