"""App. A, "Non-negativity of optimal surrogate utilities" (sec:supp:non-negativity-of-surrogate-utilities):
U_phi* = sup_f U_phi(f) >= 0 for F_beta, and "the same discussion holds for the Jaccard case".

The printed chain is

    U_phi(f*) >= U_phi(f_check) = sup_f' E[W_{0,phi}] / E[W_{1,phi}(f_check)] =(a) E[H_{0,phi}(eta)] / ...
              = (1 + beta^2) pi / E[W_{1,phi}(f_check)] >= 0,      H_{0,phi}(q) = sup_xi W_{0,phi}(xi, q).

With the tau-logistic loss of Fig. 2 (phi > 0, strictly decreasing, inf phi = 0 not attained) this module
derives H_{0,phi} (monotonicity in xi and the limit xi -> oo), the value E[H_{0,phi}(eta)], whether the
supremum defining f_check is attained (it is not), what happens to the chain along a maximizing sequence, and
a direct proof that U_phi* > 0 for F_beta and Jaccard.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import sympy as sp

from lfverify.core import DEFAULT_SEED, FiniteSupportPopulation, SurrogateLoss, f1, f_beta, jaccard, tau_logistic
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp

XI = sp.Symbol("xi", real=True)
Q = sp.Symbol("q", nonnegative=True)
PI = sp.Symbol("pi", positive=True)
BETA = sp.Symbol("beta", positive=True)
TAU = sp.Symbol("tau", positive=True)
LN2 = sp.log(2)


def phi_pieces(t):
    """Fig. 2's tau-logistic loss, as its two pieces (left: t <= 0, right: t > 0)."""
    return sp.log(1 + sp.exp(-t)) / LN2, sp.log(1 + sp.exp(-TAU * t)) / LN2


# ---- printed forms, transcribed from the LaTeX source
# App. A, sec:supp:non-negativity-of-surrogate-utilities (F_beta case)
def printed_fbeta_w0_phi(phi_xi, q):
    return (1 + BETA**2) * (1 - phi_xi) * q


def printed_fbeta_w1_phi(phi_xi, phi_mxi, q):
    return (1 + phi_xi) * q + phi_mxi * (1 - q) + BETA**2 * PI


PRINTED_FBETA_E_H0 = (1 + BETA**2) * PI  # "= (1 + beta^2) pi / E_X[W_{1,phi}(f_check(X), eta(X))]"
# "let f* and f_check be suprema of U_phi and E_X[W_0(f(X), eta(X))] in f within all measurable functions"
# -> f_check maximizes the *true* score W_0; for F_beta, W_0(xi, q) = (1 + beta^2) l(-xi) q (Def. 1, Tab. 1)
# "U_phi(f_check) = sup_f' E_X W_{0,phi}(f'(X), eta(X)) / E_X[W_{1,phi}(f_check(X), eta(X))]"


# Sec. 4, Jaccard surrogate utility U_phi^Jac (before thm:jaccard-calibration); App. A: "The same discussion
# holds for the Jaccard case", i.e. E[H_{0,phi}(eta)] = pi
def printed_jaccard_w0_phi(phi_xi, q):
    return (1 - phi_xi) * q


def printed_jaccard_w1_phi(phi_xi, phi_mxi, q):
    return phi_mxi * (1 - q) + PI


PRINTED_JACCARD_E_H0 = PI
# ---- end of printed forms

METRICS = {
    "F_beta": (printed_fbeta_w0_phi, printed_fbeta_w1_phi, PRINTED_FBETA_E_H0),
    "Jaccard": (printed_jaccard_w0_phi, printed_jaccard_w1_phi, PRINTED_JACCARD_E_H0),
}


def derive_h0(w0_phi):
    """H_{0,phi}(q) = sup_xi W_{0,phi}(xi, q) for the tau-logistic loss, and whether it is attained.

    Returns (H, nondecreasing on both pieces, attained anywhere).  W_{0,phi} is non-decreasing in xi when
    d/dxi W_{0,phi} = (coefficient) * phi'(xi) >= 0 with phi' < 0 on both pieces; then the supremum is the
    limit xi -> oo.  It is attained only if W_{0,phi}(xi, q) = H(q) for some xi, i.e. never when the
    difference H - W_{0,phi} = (coefficient) * phi(xi) with phi > 0.
    """
    left, right = phi_pieces(XI)
    q = sp.Symbol("q", positive=True)
    nondecreasing = all(sp.diff(w0_phi(piece, q), XI).is_nonnegative for piece in (left, right))
    h = sp.limit(w0_phi(right, q), XI, sp.oo)
    gaps = [sp.factor(sp.expand(h - w0_phi(piece, q))) for piece in (left, right)]  # = coefficient * phi(xi)
    attained = not all(g.is_positive for g in gaps)
    return h.subs(q, Q), nondecreasing, attained


def _expected_h0(h):
    """E_X[H(eta(X))] for H linear in q: H(q) = h1 q, so E = h1 E[eta] = h1 pi."""
    poly = sp.Poly(h, Q)
    if poly.degree() > 1 or poly.coeff_monomial(1) != 0:
        raise ValueError(f"H_0,phi is not linear in q: {h}")
    return poly.coeff_monomial(Q) * PI


def _check_h0(name) -> Outcome:
    w0_phi, _, printed = METRICS[name]
    h, nondecreasing, attained = derive_h0(w0_phi)
    e_h = _expected_h0(h)
    # (a): sup_f E[W_0,phi(f)] = E[H]: <= pointwise; >= along f_l = l (constant), E[W_0,phi(l, eta)] -> E[H]
    l = sp.Symbol("l", positive=True)
    along = sp.limit(w0_phi(phi_pieces(l)[1], PI), l, sp.oo)  # E over eta of a function linear in q: q -> pi
    if nondecreasing and sp.simplify(e_h - printed) == 0 and sp.simplify(along - e_h) == 0:
        return Outcome("verified", f"{name}: W_0,phi(xi, q) = {w0_phi(sp.Symbol('phi(xi)'), Q)} is non-decreasing in "
                                   f"xi (phi' < 0 on both pieces), so H_0,phi(q) = lim_(xi->oo) = {h} (a supremum; "
                                   f"attained: {attained}); E[H_0,phi(eta)] = {e_h} as printed; (a) holds: constant "
                                   f"f = l gives E[W_0,phi] -> {along}.")
    return Outcome("erratum", f"{name}: E[H_0,phi] = {e_h}", errata=(Erratum(
        location="App. A, sec:supp:non-negativity-of-surrogate-utilities", printed=str(printed), derived=str(e_h),
        consequence="see summary", witness="symbolic", evidence="symbolic"),))


def check_fbeta_h0() -> Outcome:
    """Derives H_{0,phi}(q) = sup_xi (1 + beta^2)(1 - phi(xi)) q and E[H_{0,phi}(eta)] for the tau-logistic loss."""
    return _check_h0("F_beta")


def check_jaccard_h0() -> Outcome:
    """Derives H_{0,phi}(q) = sup_xi (1 - phi(xi)) q and E[H_{0,phi}(eta)] (the Jaccard case)."""
    return _check_h0("Jaccard")


def check_fcheck_definition() -> Outcome:
    """The chain's first equality needs f_check to maximize E[W_{0,phi}]; App. A defines it by E[W_0] (true score).

    F_beta's true W_0(xi, q) = (1 + beta^2) l(-xi) q is maximized by any f > 0 (value (1 + beta^2) pi); at such
    an f, E[W_{0,phi}] = (1 + beta^2)(1 - phi(f)) pi < (1 + beta^2) pi = sup E[W_{0,phi}].
    """

    beta, eta, f, tau = 1, mp.mpf(1) / 2, 1, mp.mpf(1) / 3
    with mp.workdps(50):
        true_max = (1 + beta**2) * eta  # E[W_0(f, eta)] at f = 1 > 0: l(-1) = 1
        at_fcheck = (1 + beta**2) * (1 - tau_logistic_mp(tau)(f)) * eta  # printed F_beta W_0,phi
        sup_phi = (1 + beta**2) * eta  # E[H_0,phi] = (1 + beta^2) pi (check_fbeta_h0)
    pop = FiniteSupportPopulation([[1.0]], [1.0], [0.5])
    lib_num = float(pop.surrogate_score_expectations(f1(), tau_logistic(1 / 3), np.array([1.0]))[0][0])
    return Outcome(
        "erratum",
        "App. A defines f_check as a maximizer of E[W_0] (true score) but uses it as a maximizer of E[W_{0,phi}]; a "
        f"maximizer of E[W_0] (f = 1) has E[W_0,phi] = {mp.nstr(at_fcheck, 12)} < sup E[W_0,phi] = "
        f"{mp.nstr(sup_phi, 12)} "
        "(F_1, eta = 1/2, tau = 1/3). Subscript slip; conclusion unaffected.",
        errata=(Erratum(
            location="App. A, sec:supp:non-negativity-of-surrogate-utilities (definition of f_check)",
            printed="f_check: a supremum (maximizer) of E_X[W_0(f(X), eta(X))] in f, then U_phi(f_check) = "
                    "sup_f' E_X W_{0,phi}(f'(X), eta(X)) / E_X[W_{1,phi}(f_check(X), eta(X))]",
            derived="the equality needs E_X[W_{0,phi}(f_check)] = sup_f' E_X[W_{0,phi}(f')], i.e. f_check maximizing "
                    "the surrogate score E[W_{0,phi}]; a maximizer of the true E[W_0] (f > 0 on {eta > 0}, say) does "
                    "not "
                    "satisfy it, since phi(f) > 0",
            consequence="none: with the subscript phi restored the chain is as intended (up to the non-attainment, "
                        "see nonnegativity.supremum_attained) and U_phi* >= 0 holds",
            witness=f"F_1, single atom eta = 1/2, tau = 1/3, f = 1: E[W_0] = {mp.nstr(true_max, 12)} (maximal), "
                    f"E[W_0,phi] = 2 (1 - phi(1)) / 2 = {mp.nstr(at_fcheck, 12)} != sup E[W_0,phi] = "
                    f"{mp.nstr(sup_phi, 12)}",
            evidence="core library (FiniteSupportPopulation, f1(), tau_logistic(1/3)): E[W_0,phi](f = 1) = "
                     f"{lib_num:.12g}",
        ),),
        method="mpmath 50 digits; core library",
    )


def check_supremum_attained() -> Outcome:
    """Whether f_check (a maximizer of E[W_{0,phi}]) exists, and the chain along a maximizing sequence.

    Derived for F_beta and Jaccard with the tau-logistic loss: H_{0,phi}(q) - W_{0,phi}(xi, q) > 0 for q > 0
    and every xi, so no measurable f attains sup E[W_{0,phi}] = E[H_{0,phi}] when pi > 0.  Along the maximizing
    sequence f_l = l, E[W_{1,phi}(f_l)] contains E[phi(-l)(1 - eta)] -> oo when P(eta < 1) > 0, so the chain's
    right-hand side tends to 0.
    """
    lines = []
    attained_any = False
    for name, (w0_phi, w1_phi, _) in METRICS.items():
        _, _, attained = derive_h0(w0_phi)
        attained_any |= attained
        l = sp.Symbol("l", positive=True)
        left, right = phi_pieces(l)  # phi(l) (margin l > 0: right piece), phi(-l) (left piece)
        den = w1_phi(right, left.subs(l, -l), Q)
        den_limit = sp.limit(den.subs(Q, sp.Rational(1, 2)), l, sp.oo)  # eta = 1/2
        sup = "attained" if attained else "not attained (phi > 0)"
        lines.append(f"{name}: sup {sup}, E[W_1,phi(f_l = l)] -> {den_limit} at eta = 1/2")

    pop = FiniteSupportPopulation([[1.0]], [1.0], [0.5])
    cs = (2.0, 8.0, 32.0, 128.0)
    values = {nm: pop.surrogate_utility_of_scores(mt, tau_logistic(1 / 3), np.array(cs)[:, None])
              for nm, mt in (("F_1", f1()), ("Jaccard", jaccard()))}
    decreasing = all(np.all(np.diff(v) < 0) and v[-1] < 0.05 and np.all(v > 0) for v in values.values())
    with mp.workdps(50):
        # F_1 at eta = 1/2: U_phi(f = c) = (1 - phi(c)) / ((1 + phi(c)) / 2 + phi(-c) / 2 + 1 / 2)
        phi = tau_logistic_mp(mp.mpf(1) / 3)
        exact = [(1 - phi(c)) / ((1 + phi(c)) / 2 + phi(-c) / 2 + mp.mpf(1) / 2) for c in (2, 128)]
    def fmt(v):
        return ", ".join(f"{x:.12g}" for x in v)

    if attained_any:
        return Outcome("verified", "the supremum is attained: " + "; ".join(lines))
    if not decreasing:
        return Outcome("undecided", "not attained symbolically, but the core library's U_phi(f = c) at c = 2, 8, 32, "
                                    f"128 does not decrease to below 0.05: F_1 {fmt(values['F_1'])}; Jaccard "
                                    f"{fmt(values['Jaccard'])}")
    return Outcome(
        "erratum",
        "f_check does not exist for the tau-logistic loss (phi > 0, inf phi = 0 not attained); along f_l = l the "
        "surrogate denominator diverges and U_phi(f_l) -> 0, so the chain only yields U_phi* >= 0 in the limit. "
        "Conclusion U_phi* >= 0 still holds (for the tau-logistic loss indeed U_phi* > 0, see the conclusion claims). "
        + "; ".join(lines),
        errata=(Erratum(
            location="App. A, sec:supp:non-negativity-of-surrogate-utilities (f_check and the chain for F_beta; "
                     "'the same discussion holds for the Jaccard case')",
            printed="let f* and f_check be suprema of U_phi and E_X[W_0] in f within all measurable functions; "
                    "U_phi(f*) >= U_phi(f_check) = (1 + beta^2) pi / E_X[W_{1,phi}(f_check(X), eta(X))] >= 0",
            derived="H_{0,phi}(q) - W_{0,phi}(xi, q) = (1 + beta^2) q phi(xi) > 0 (Jaccard: q phi(xi)) for q > 0, so "
                    "sup_f E[W_{0,phi}] = E[H_{0,phi}(eta)] is not attained by any measurable f (f_check does not "
                    "exist; the sup is approached only by f -> +oo on {eta > 0}); along f_l = l, E[W_{1,phi}(f_l)] >= "
                    "E[phi(-l)(1 - eta)] -> oo whenever P(eta < 1) > 0, so the right-hand side of the chain tends "
                    "to 0. Read with sequences the chain gives U_phi* >= lim U_phi(f_l) = 0.",
            consequence="no, where the sequence applies (phi non-increasing, phi(-l) -> oo and P(eta < 1) > 0: every "
                        "non-constant convex non-increasing phi; the claim nonnegativity.loss_class has losses where "
                        "it does not): "
                        "U_phi* >= 0 holds via the sequence (and, for a loss with phi(c) < 1 at some c > 0 such as "
                        "the tau-logistic loss, directly U_phi* > 0: the constant f = c has positive numerator and "
                        "denominator; the floor loss max(1, 1 - t) has U_phi* = 0); the printed Thms. 1 and 2 both "
                        "need "
                        "U_phi* > 0 through their tau conditions (Thm. 1's footnote: its own erratum), and the "
                        "corrected ones assume it.",
            witness=f"single atom eta = 1/2, tau = 1/3, f = c: F_1's U_phi(c) at c = 2, 128 is "
                    f"{mp.nstr(exact[0], 12)}, {mp.nstr(exact[1], 12)} (mpmath 50 digits), decreasing to 0 while "
                    "E[W_0,phi](c) = 1 - phi(c) < 1 = E[H_0,phi]",
            evidence=f"core library (FiniteSupportPopulation.surrogate_utility_of_scores, tau_logistic(1/3)) at c = 2, "
                     f"8, 32, 128: F_1 {fmt(values['F_1'])}; Jaccard {fmt(values['Jaccard'])}",
        ),),
        method="symbolic (limits, signs); mpmath 50 digits; core library",
    )


def _check_conclusion(name, metric) -> Outcome:
    """U_phi* > 0 directly: a constant f = c > 0 gives W_0,phi > 0 where q > 0 (phi(c) < phi(0) = 1 because
    phi' < 0 on the right piece) and W_1,phi > 0; plus the library on random finite-support populations."""
    w0_phi, w1_phi, _ = METRICS[name]
    left, right = phi_pieces(XI)
    decreasing = sp.diff(right, XI).is_negative and sp.simplify(right.subs(XI, 0)) == 1
    # at f = c > 0: numerator (linear in q) has positive slope (1 - phi(c) > 0 by monotonicity), no constant term
    # 0 < phi(c) < 1 written as phi(c) = 1 / (1 + e) with e > 0; 0 < q < 1 as q = s / (1 + s) with s > 0
    e, s_ = sp.symbols("e s", positive=True)
    phi_c, phi_mc = 1 / (1 + e), sp.Symbol("phi_mc", positive=True)  # phi(c), phi(-c)
    num = sp.Poly(w0_phi(phi_c, Q), Q)
    num_ok = num.coeff_monomial(1) == 0 and sp.factor(num.coeff_monomial(Q)).is_positive
    den_ok = all(sp.factor(w1_phi(phi_c, phi_mc, q)).is_positive for q in (0, 1, s_ / (1 + s_)))
    # a negative numerator is possible: f = -1 at q = 1 (phi(-1) = log2(1 + e) > 1)
    neg = sp.N(w0_phi(left.subs(XI, -1), 1).subs(BETA, 1), 15)

    rng = np.random.default_rng(DEFAULT_SEED)
    smallest, count = np.inf, 0
    for _ in range(50):
        J = int(rng.integers(1, 6))
        pop = FiniteSupportPopulation(rng.normal(size=(J, 1)), rng.dirichlet(np.ones(J)),
                                      rng.uniform(0.05, 0.95, size=J))
        for tau in (0.33, 0.75, 1.0):
            smallest = min(smallest, pop.surrogate_utility_of_scores(metric, tau_logistic(tau), np.ones(J)))
            count += 1
    if decreasing and num_ok and den_ok and smallest > 0 and neg < 0:
        return Outcome("verified", f"{name}: U_phi* > 0 (so >= 0 as App. A states): f = c > 0 gives E[W_0,phi] = "
                                   f"{w0_phi(sp.Symbol('phi(c)'), PI)} > 0 (phi strictly decreasing, phi(0) = 1) and "
                                   "E[W_1,phi] > 0; the numerator can be negative: f = -1 gives E[W_0,phi] = "
                                   f"{w0_phi(sp.Symbol('phi(-1)'), PI)}, = {sp.Float(neg, 12)} pi"
                                   f"{' at beta = 1' if name == 'F_beta' else ''} < 0. Core library: U_phi(f = 1) > 0 "
                                   f"on {count} seeded random "
                                   "finite-support populations x tau.",
                       method=f"symbolic; core library on {count} seeded cases")
    return Outcome("undecided",
                   f"{name}: decreasing {decreasing}, num_ok {num_ok}, den_ok {den_ok}, smallest {smallest}")


def check_fbeta_conclusion() -> Outcome:
    """U_phi^{F_beta}* >= 0 (App. A's conclusion), shown directly and checked with the core library (F_1)."""

    return _check_conclusion("F_beta", f_beta(1.0))


def check_jaccard_conclusion() -> Outcome:
    """U_phi^{Jac}* >= 0 ("the same discussion holds"), shown directly and checked with the core library."""

    return _check_conclusion("Jaccard", jaccard())


class _ShiftedHinge(SurrogateLoss):
    """phi(m) = shift + slope max(0, 1 - m) (slope 0: the constant shift): convex, non-increasing, non-negative -
    inside Thm. 1's loss class - for the witnesses of :func:`check_loss_class`."""

    is_convex = True
    is_nonincreasing = True
    kinks = (1.0,)
    dominates_zero_one = True
    lipschitz = 1.0
    smoothness = (0.0, math.inf)

    def __init__(self, shift: float, slope: float):
        self.shift, self.slope, self.name = shift, slope, f"{shift:g} + {slope:g} hinge"

    def _value(self, m):
        return self.shift + self.slope * np.maximum(0.0, 1.0 - m)

    def _derivative(self, m, right):
        active = (m < 1.0) | ((m == 1.0) & (not right))
        return np.where(active, -self.slope, 0.0)

    def _second_derivative(self, m, right):
        return np.zeros_like(m)


def check_loss_class() -> Outcome:
    """App. A's conclusion read for every loss of Thm. 1's class (phi >= 0, convex, non-increasing), the class its
    footnote applies it to: U_phi* < 0 for a constant loss, and for a loss with inf phi > 1 where eta = 1 a.s.

    Exact, from the surrogate scores (the printed W_{k,phi}, which the derivations above check): phi = 2 on
    any population, and phi = 8 + hinge on one atom with eta = 1; the core library's surrogate utility agrees."""
    phi_c, phi_mc = sp.symbols("phi_c phi_mc", positive=True)
    found = {}
    for name, (w0_phi, w1_phi, _) in METRICS.items():
        beta_sq = {BETA: 1} if name == "F_beta" else {}
        # phi = 2 everywhere: U_phi does not depend on f; at eta = 1/2 a.s. (pi = 1/2)
        half = sp.Rational(1, 2)
        constant = sp.nsimplify(((w0_phi(2, half)) / w1_phi(2, 2, half)).subs(PI, half).subs(beta_sq))
        # phi = 8 + hinge, eta = 1 a.s. (pi = 1): U_phi(f) = W0(phi(f), 1) / W1(phi(f), phi(-f), 1), decreasing in
        # phi(f) >= 8, so the sup is at phi(f) = 8 (f >= 1), attained
        expr = sp.simplify((w0_phi(phi_c, 1) / w1_phi(phi_c, phi_mc, 1)).subs(PI, 1).subs(beta_sq))
        decreasing = sp.simplify(sp.diff(expr, phi_c)).is_negative if name == "F_beta" else None
        found[name] = (constant, expr.subs(phi_c, 8), expr)
    f_beta_expr = found["F_beta"][2]
    decreasing = bool(sp.simplify(sp.diff(f_beta_expr, phi_c) * (2 + phi_c) ** 2).is_negative)
    library = {}
    for name, metric in (("F_1", f1()), ("Jaccard", jaccard())):
        # (the library's populations need both classes, so eta = 1 a.s. is the exact formula's alone)
        half = FiniteSupportPopulation([[1.0]], [1.0], [0.5])
        library[name] = float(half.surrogate_utility_of_scores(metric, _ShiftedHinge(2.0, 0.0), np.array([0.3])))
    expected = {"F_beta": (sp.Rational(-1, 3), sp.Rational(-7, 5))}
    fbeta_ok = found["F_beta"][:2] == expected["F_beta"] and decreasing
    jaccard_negative = found["Jaccard"][0] < 0 and found["Jaccard"][1] < 0
    agree = (abs(library["F_1"] + 1 / 3) < 1e-12 and abs(library["Jaccard"] - float(found["Jaccard"][0])) < 1e-12)
    if not (fbeta_ok and jaccard_negative and agree):
        return Outcome("undecided", f"witnesses not confirmed: {found}, library {library}, decreasing {decreasing}")
    return Outcome(
        "erratum",
        "App. A's conclusion needs more than Thm. 1's loss class: a constant phi = 2 gives F_1's U_phi = "
        f"{found['F_beta'][0]} (Jaccard {found['Jaccard'][0]}) at eta = 1/2 (independent of f); phi = 8 + hinge where "
        "eta = 1 "
        f"a.s. gives U_phi* = {found['F_beta'][1]} (Jaccard {found['Jaccard'][1]}), attained for f >= 1.",
        errata=(Erratum(
            location="App. A, sec:supp:non-negativity-of-surrogate-utilities (the conclusion, as Thm. 1's footnote "
                     "applies it to its loss class)",
            printed="the optimal surrogate utilities are non-negative even though the numerator can be negative",
            derived="U_phi* >= 0 needs more than phi >= 0, convex, non-increasing: it holds when phi(c) <= 1 at some "
                    "c (the constant f = c has numerator >= 0), or when phi(t) -> oo as t -> -oo (every non-constant "
                    "convex non-increasing phi) and P(eta < 1) > 0 (the sequence f_l = l of E28 drives U_phi to 0); "
                    "a constant phi > 1, or inf phi > 1 with eta = 1 a.s., gives U_phi* < 0",
            consequence="the footnote's premise U_phi* >= 0 fails on these two losses of Thm. 1's class; the "
                        "corrected statements assume U_phi* > 0 explicitly (u_star_positive), so their conclusions do "
                        "not rest on App. A",
            witness=f"F_1: phi = 2, one atom eta = 1/2: U_phi = {found['F_beta'][0]} (independent of f); phi = 8 + "
                    "hinge, "
                    f"one atom eta = 1: U_phi(f) = {sp.sstr(f_beta_expr)} at phi(f) = phi_c, decreasing in phi_c >= 8, "
                    f"so U_phi* = {found['F_beta'][1]} (Jaccard: {found['Jaccard'][0]}, {found['Jaccard'][1]})",
            evidence=f"core library (FiniteSupportPopulation.surrogate_utility_of_scores, phi = 2, eta = 1/2): F_1 "
                     f"{library['F_1']:.12g}, Jaccard {library['Jaccard']:.12g} (its populations need both classes: "
                     "eta = 1 a.s. is checked by the exact formula alone)",
        ),),
        method="symbolic (SymPy, exact rationals); core library",
    )


CLAIMS = (
    Claim(key="nonnegativity.fbeta_h0",
          title="App. A: F_beta's H_0,phi(q) = sup_xi W_0,phi and E[H_0,phi(eta)] = (1 + beta^2) pi",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="verified", check=check_fbeta_h0),
    Claim(key="nonnegativity.jaccard_h0", title="App. A: Jaccard's H_0,phi(q) and E[H_0,phi(eta)] = pi",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="verified", check=check_jaccard_h0),
    Claim(key="nonnegativity.fcheck_definition",
          title="App. A: f_check maximizes E[W_0] (printed) vs E[W_0,phi] (used)",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="erratum", check=check_fcheck_definition),
    Claim(key="nonnegativity.supremum_attained", title="App. A: f_check (a maximizer of E[W_0,phi]) exists",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="erratum", check=check_supremum_attained),
    Claim(key="nonnegativity.fbeta_conclusion", title="App. A: U_phi* >= 0 for F_beta, with the tau-logistic loss",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="verified", check=check_fbeta_conclusion),
    Claim(key="nonnegativity.jaccard_conclusion", title="App. A: U_phi* >= 0 for Jaccard, with the tau-logistic loss",
          label="sec:supp:non-negativity-of-surrogate-utilities", expected="verified", check=check_jaccard_conclusion),
    Claim(key="nonnegativity.loss_class", title="App. A: U_phi* >= 0 read for Thm. 1's loss class (phi >= 0, convex, "
          "non-increasing)", label="sec:supp:non-negativity-of-surrogate-utilities", expected="erratum",
          check=check_loss_class),
)
