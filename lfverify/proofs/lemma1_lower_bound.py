"""Lemma 1 (lem:utility-lower-bound): the surrogate utility lower-bounds the true utility, U_phi <= U.

The proof has two steps, checked separately:

1. pointwise, W_0(xi, q) >= W_{0,phi}(xi, q) and W_1(xi, q) <= W_{1,phi}(xi, q), with Definition 1's (def:metric)
   W_k and the 0/1 loss l(t) = 1{t <= 0}, and Eq. (3)'s (eq:surrogate-scores) surrogate scores.  Case by case
   (xi > 0, xi < 0, xi = 0) the 0/1 losses are constants; writing phi(+-xi) = l(+-xi) + s with s >= 0 (the
   hypothesis phi >= l) and the coefficients through non-negative symbols, each difference expands to a
   polynomial with positive coefficients in non-negative symbols, and every monomial names the assumption it
   uses.  The proof's identity l(-xi) = 1 - l(xi) is checked too (it fails at xi = 0).
2. the ratio step: N_phi <= N and D_phi >= D imply N_phi / D_phi <= N / D exactly when D > 0 and N >= 0
   (N_phi may be negative).  Definition 1 gives N >= 0 only when D > 0, and does not require D > 0: a
   metric satisfying every stated constraint with D < 0 breaks the lemma.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from lfverify.core import (
    DEFAULT_SEED,
    FiniteSupportPopulation,
    LinearFractionalMetric,
    accuracy,
    f1,
    f_beta,
    jaccard,
    logistic,
    tau_logistic,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp

# non-negative stand-ins: a0p = A, a0n = -B, a1p = C, a1n = E; q and r = 1 - q; phi(xi) = l(xi) + S1,
# phi(-xi) = l(-xi) + S2 (the hypothesis phi >= l); phi itself is a free non-negative symbol where only
# phi >= 0 is assumed
A, B, C, E = sp.symbols("A B C E", nonnegative=True)
Q, R = sp.symbols("q r", nonnegative=True)
S1, S2 = sp.symbols("s1 s2", nonnegative=True)

ASSUMPTION_OF = {
    A: "a_{0,+1} >= 0", B: "a_{0,-1} <= 0", C: "a_{1,+1} >= 0", E: "a_{1,-1} >= 0",
    S1: "phi(xi) >= l(xi)", S2: "phi(-xi) >= l(-xi)",
}


def zero_one(t):
    """l(t) = 1{t <= 0} (Sec. 2)."""
    return sp.Integer(1) if t <= 0 else sp.Integer(0)


# ---- printed forms, transcribed from the LaTeX source
# Definition 1 (def:metric): W_k(xi, q) = a_{k,+1} l(-xi) q + a_{k,-1} l(-xi) (1 - q) + b_k, written with the
# positive-prediction indicator P = l(-xi)
def printed_w(ap, an, b, pos, q, r):
    return ap * pos * q + an * pos * r + b


# Eq. (3) (eq:surrogate-scores)
def printed_w0_phi(a0p, a0n, b0, phi_xi, phi_mxi, q, r):
    return a0p * (1 - phi_xi) * q + a0n * phi_mxi * r + b0


def printed_w1_phi(a1p, a1n, b1, phi_xi, phi_mxi, q, r):
    return a1p * (1 + phi_xi) * q + a1n * phi_mxi * r + b1


# Proof of Lemma 1: "Since l(-xi) = 1 - l(xi)"
def printed_identity_holds(xi):
    return zero_one(-xi) == 1 - zero_one(xi)


# Lemma 1's conclusion: U_phi(f) <= U(f) for all f, under Definition 1's constraints (a_{0,+1} > 0,
# a_{0,-1} <= 0, a_{1,+1} >= 0, a_{1,-1} >= 0, 0 <= U <= 1) and phi >= l
# ---- end of printed forms

CASES = (("xi > 0", sp.Integer(1)), ("xi < 0", sp.Integer(-1)), ("xi = 0", sp.Integer(0)))


def _positive_prediction_readings(xi):
    """The indicator of a positive prediction: Definition 1's l(-xi), and 1{xi > 0} = 1 - l(xi) (sgn(0) = -1)."""
    return {"l(-xi)": zero_one(-xi), "1 - l(xi)": 1 - zero_one(xi)}


def _certify(diff):
    """Expand ``diff`` (polynomial in non-negative symbols); return (ok, sorted list of monomials)."""
    poly = sp.Poly(sp.expand(diff), A, B, C, E, Q, R, S1, S2)
    terms = poly.terms()
    ok = all(coeff > 0 for _, coeff in terms)
    monomials = [sp.Mul(*(g**k for g, k in zip(poly.gens, exps))) * coeff for exps, coeff in terms]
    return ok, monomials


def _uses(monomials):
    used = set()
    for mono in monomials:
        used |= {ASSUMPTION_OF[s] for s in mono.free_symbols if s in ASSUMPTION_OF}
    return sorted(used)


def _pointwise(which):
    lines, all_ok, used = [], True, set()
    for name, xi in CASES:
        l_xi, l_mxi = zero_one(xi), zero_one(-xi)
        phi_xi, phi_mxi = l_xi + S1, l_mxi + S2  # phi >= l
        for reading, pos in _positive_prediction_readings(xi).items():
            if which == 0:
                diff = (printed_w(ap=A, an=-B, b=0, pos=pos, q=Q, r=R)
                        - printed_w0_phi(a0p=A, a0n=-B, b0=0, phi_xi=phi_xi, phi_mxi=phi_mxi, q=Q, r=R))
            else:
                diff = (printed_w1_phi(a1p=C, a1n=E, b1=0, phi_xi=phi_xi, phi_mxi=phi_mxi, q=Q, r=R)
                        - printed_w(ap=C, an=E, b=0, pos=pos, q=Q, r=R))
            ok, monomials = _certify(diff)
            all_ok &= ok
            used |= set(_uses(monomials))
            if reading == "l(-xi)" or pos != zero_one(-xi):
                lines.append(f"{name} [{reading}]: {' + '.join(map(str, monomials)) or '0'}")
    return all_ok, lines, sorted(used)


def check_w0_pointwise() -> Outcome:
    """W_0(xi, q) - W_{0,phi}(xi, q) >= 0 by cases, from Definition 1 and Eq. (3) (b_0 cancels)."""
    ok, lines, used = _pointwise(0)
    if not ok:
        return Outcome("erratum", "W_0 >= W_{0,phi} has a monomial of unknown sign", errata=(Erratum(
            location="Lemma 1 proof", printed="W_0 >= W_{0,phi}", derived="; ".join(lines),
            consequence="Lemma 1 unproved", witness="see derived", evidence="symbolic"),))
    return Outcome("verified", "W_0 - W_{0,phi} with a0p = A, a0n = -B, q, r = 1 - q, phi(+-xi) = l(+-xi) + s "
                               "expands to non-negative monomials: " + "; ".join(lines)
                               + f" (uses {', '.join(used)}; b_0 cancels).")


def check_w1_pointwise() -> Outcome:
    """W_{1,phi}(xi, q) - W_1(xi, q) >= 0 by cases, from Definition 1 and Eq. (3) (b_1 cancels)."""
    ok, lines, used = _pointwise(1)
    if not ok:
        return Outcome("erratum", "W_1 <= W_{1,phi} has a monomial of unknown sign", errata=(Erratum(
            location="Lemma 1 proof", printed="W_1 <= W_{1,phi}", derived="; ".join(lines),
            consequence="Lemma 1 unproved", witness="see derived", evidence="symbolic"),))
    return Outcome("verified", "W_{1,phi} - W_1 with a1p = C, a1n = E expands to non-negative monomials: "
                               + "; ".join(lines) + f" (uses {', '.join(used)}; the a_{{1,+1}} term "
                               "needs only phi >= 0 since 1 + phi(xi) - P >= 0 for P <= 1).")


def check_zero_one_identity() -> Outcome:
    """Evaluates the proof's identity l(-xi) = 1 - l(xi) on the three cases (l(t) = 1{t <= 0}, Sec. 2)."""
    failing = [name for name, xi in CASES if not printed_identity_holds(xi)]
    if not failing:
        return Outcome("verified", "l(-xi) = 1 - l(xi) for every xi.")

    # F_1 of f = 0 on a single atom with eta = 1/2 (pi = 1/2): U = 2 TP / (TP + FP + pi)
    half = sp.Rational(1, 2)
    def f1_value(tp, fp):
        return 2 * tp / (tp + fp + half)

    with_l = f1_value(half * zero_one(0), half * zero_one(0))  # positive prediction l(-0) = 1
    with_sgn = f1_value(half * (1 - zero_one(0)), half * (1 - zero_one(0)))  # sgn(0) = -1
    pop = FiniteSupportPopulation([[1.0]], [1.0], [0.5])
    lib = pop.utility_of_scores(f1(), np.array([0.0]), zero_division=0.0)
    return Outcome(
        "erratum",
        f"l(-xi) = 1 - l(xi) fails for {failing} (l(0) = 1 on both sides); Lemma 1 is unaffected, but Def. 1's "
        "W_k and Sec. 2's TP = E[l(-f) eta] count f(x) = 0 as a positive prediction, against sgn(0) = -1.",
        errata=(Erratum(
            location="Proof of Lemma 1 (lem:utility-lower-bound), and Sec. 2 / Definition 1 (def:metric)",
            printed="l(-xi) = 1 - l(xi) (proof of Lemma 1); TP(f) = E_X[l(-f(X)) eta(X)] (Sec. 2) with the "
                    "convention sgn(0) = -1",
            derived="with l(t) = 1{t <= 0}: l(-xi) = 1{xi >= 0} and 1 - l(xi) = 1{xi > 0}; they differ at xi = 0 "
                    "(1 vs 0). Under sgn(0) = -1 the positive-prediction indicator is 1 - l(xi), not l(-xi).",
            consequence="no for Lemma 1: the pointwise inequalities W_0 >= W_{0,phi}, W_1 <= W_{1,phi} hold at "
                        "xi = 0 under both readings (the W_0 / W_1 claims check both), because phi(0) >= l(0) = 1. "
                        "Definition 1's U (with l(-f)) and the confusion matrix (with sgn) disagree on {f = 0}.",
            witness=f"f = 0, single atom with eta = 1/2 (pi = 1/2), F_1: with l(-f) TP = FP = 1/2 and U = {with_l}; "
                    f"with sgn(0) = -1 TP = FP = 0 and U = {with_sgn}",
            evidence=f"core library (which follows sgn(0) = -1): FiniteSupportPopulation.utility_of_scores(f1(), "
                     f"[0]) = {lib:.12g}",
        ),),
    )


def check_ratio_step() -> Outcome:
    """Derives N/D - N_phi/D_phi over a common denominator and decides its sign from N_phi <= N, D_phi >= D.

    Substituting N_phi = N - dN, D_phi = D + dD (dN, dD >= 0), the numerator of the difference is
    N dD + D dN: non-negative when D > 0 and N >= 0, whatever the sign of N_phi.  Without N >= 0 it fails.
    """
    n, d, dn, dd = sp.symbols("N D dN dD", real=True)
    diff = sp.together(n / d - (n - dn) / (d + dd))
    num, den = sp.fraction(diff)
    num = sp.expand(num)
    # under D > 0, N >= 0 and dN, dD >= 0 every monomial is non-negative
    np_, dp_ = sp.symbols("N D", positive=True)
    dnp, ddp = sp.symbols("dN dD", nonnegative=True)
    certified = sp.Poly(num.subs({n: np_, d: dp_, dn: dnp, dd: ddp}), np_, dp_, dnp, ddp)
    ok = all(c > 0 for c in certified.coeffs()) and sp.expand(den - d * (d + dd)) == 0
    # N_phi < 0 is allowed: N = 1, D = 1, dN = 2 (N_phi = -1), dD = 1 -> U_phi = -1/2 <= U = 1
    neg_surrogate = {n: 1, d: 1, dn: 2, dd: 1}
    u_neg, u_phi_neg = n / d, (n - dn) / (d + dd)
    # N < 0 (excluded by Definition 1 when D > 0): N = -1, D = 1, dN = 1/4, dD = 1
    wit = {n: -1, d: 1, dn: sp.Rational(1, 4), dd: 1}
    u_w, u_phi_w = (n / d).subs(wit), ((n - dn) / (d + dd)).subs(wit)
    if not ok or not u_phi_neg.subs(neg_surrogate) <= u_neg.subs(neg_surrogate) or not u_phi_w > u_w:
        return Outcome("undecided", f"ratio step: numerator {num} over {den} not certified")
    return Outcome(
        "verified",
        f"N/D - N_phi/D_phi = ({num}) / ({sp.factor(den)}) with N_phi = N - dN, D_phi = D + dD: non-negative "
        f"for D > 0, N >= 0, dN, dD >= 0 (D_phi >= D > 0), any sign of N_phi (e.g. N_phi = -1: U_phi = "
        f"{u_phi_neg.subs(neg_surrogate)} <= U = 1); N >= 0 is needed: N = -1, D = 1, N_phi = -5/4, D_phi = 2 "
        f"gives U_phi = {u_phi_w} > U = {u_w}. Definition 1's 0 <= U gives N >= 0 once D > 0 (see the "
        "positive-denominator claim).",
    )


# a metric meeting every constraint Definition 1 states, with D = -1: U = (TP - 1) / (-1) = 1 - TP
NEGATIVE_DENOMINATOR_METRIC = dict(a0p=1, a0n=0, b0=-1, a1p=0, a1n=0, b1=-1)


def _negative_denominator_lemma2() -> dict:
    """Referee round 16 of issue 40: Lemma 2's quasi-concavity with D_hat < 0, exactly (fractions).  U = (TP - pi)
    / (-1) (a0p = 1, a0n = 0, b0 = -pi, a1 = 0, b1 = -1) meets Definition 1's signs and 0 <= U <= pi; with the
    hinge loss and two positive samples at e_1, e_2, N_hat(theta) = mean(1 - phi(theta_i)) - pi and D_hat = -1."""
    from fractions import Fraction as Q

    pi = Q(1, 2)

    def hinge(t):
        return max(Q(0), 1 - t)

    def n_hat(theta):
        return sum(1 - hinge(t) for t in theta) / len(theta) - pi

    ends, mid = ((Q(2), Q(1, 2)), (Q(1, 2), Q(2))), (Q(5, 4), Q(5, 4))
    n_end = {n_hat(t) for t in ends}
    u_end, u_mid = {n / -1 for n in n_end}, n_hat(mid) / -1
    fails = len(n_end) == 1 and min(n_end) >= 0 and n_hat(mid) >= 0 and u_mid < min(u_end)
    return dict(fails=fails, n_end=min(n_end), u_end=min(u_end), n_mid=n_hat(mid), u_mid=u_mid)


def _negative_denominator_prop5() -> dict:
    """Referee round 16 of issue 40: Prop. 5 with D < 0, exactly.  U = (TP - 1)/(-1) = 1 - TP, one atom with
    eta = 1/2 (pi = 1/2): Prop. 5's bracket (Da0 - Da1 U-dagger) eta - (a1n U-dagger - a0n) is eta = 1/2 > 0, so
    the printed set is {f > 0}; there TP = 1/2 and U = 1/2, while f <= 0 gives TP = 0 and U = 1 = U-dagger."""
    from fractions import Fraction as Q

    eta, a0p, a0n, a1p, a1n = Q(1, 2), 1, 0, 0, 0

    def utility(positive):
        tp = eta if positive else Q(0)
        return (a0p * tp - 1) / -1

    u_dagger = max(utility(True), utility(False))
    bracket = ((a0p - a0n) - (a1p - a1n) * u_dagger) * eta - (a1n * u_dagger - a0n)
    printed_positive = bracket > 0  # the printed set: f(x) * bracket > 0, i.e. f > 0
    fails = printed_positive and utility(True) < u_dagger
    return dict(fails=fails, u_printed=utility(True), u_dagger=u_dagger)


def check_positive_denominator() -> Outcome:
    """Lemma 1 under Definition 1 as stated: builds a metric with D < 0 meeting all stated constraints.

    The sign constraints hold; U = 1 - TP lies in [1 - pi, 1] (checked at the corners of the feasible
    rectangle, where it is affine in pi).  Then W_1 = W_{1,phi} = -1 and U_phi = -N_phi >= -N = U.
    """
    import mpmath as mp


    k = NEGATIVE_DENOMINATOR_METRIC
    tp, fp, pi = sp.symbols("TP FP pi", nonnegative=True)
    num = k["a0p"] * tp + k["a0n"] * fp + k["b0"]
    den = k["a1p"] * tp + k["a1n"] * fp + k["b1"]
    signs = k["a0p"] > 0 and k["a0n"] <= 0 and k["a1p"] >= 0 and k["a1n"] >= 0
    corners = [(t, f) for t in (0, pi) for f in (0, 1 - pi)]
    in_range = all(v.subs(pi, end) >= 0 for t, f in corners for end in (0, 1)
                   for v in (sp.expand(num / den).subs({tp: t, fp: f}), sp.expand(1 - num / den).subs({tp: t, fp: f})))
    # single atom with eta = 1/2, f = 1, logistic loss (phi >= l)
    with mp.workdps(50):
        phi = tau_logistic_mp(1)  # the logistic loss log2(1 + e^-t)
        q, f = mp.mpf(1) / 2, 1
        n_phi = k["a0p"] * (1 - phi(f)) * q + k["a0n"] * phi(-f) * (1 - q) + k["b0"]  # Eq. (3)
        d_phi = k["a1p"] * (1 + phi(f)) * q + k["a1n"] * phi(-f) * (1 - q) + k["b1"]
        u_phi = n_phi / d_phi
        u = (k["a0p"] * q + k["b0"]) / k["b1"]  # f > 0: TP = 1/2, FP = 1/2
    lemma2, prop5 = _negative_denominator_lemma2(), _negative_denominator_prop5()
    if not (signs and in_range and u_phi > u and lemma2["fails"] and prop5["fails"]):
        return Outcome("verified", "no violation of Lemma 1, 2 or Prop. 5 with a negative denominator")
    metric = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=0.0, b0_const=-1.0, b1_const=-1.0)
    pop = FiniteSupportPopulation([[1.0]], [1.0], [0.5])
    num, den = pop.surrogate_score_expectations(metric, logistic(), np.array([1.0]))
    lib_u_phi = float(num[0] / den[0])
    lib_u = pop.utility_of_scores(metric, np.array([1.0]))
    report = metric.admissibility()
    return Outcome(
        "erratum",
        "Definition 1 does not require E[W_1] > 0; with a0p = 1, a0n = 0, b0 = -1, a1p = a1n = 0, b1 = -1 "
        "(U = 1 - TP in [1 - pi, 1]) every stated constraint holds and U_phi > U. Lemma 1 needs E[W_1(f)] > 0.",
        errata=(Erratum(
            location="Lemma 1 (lem:utility-lower-bound) with Definition 1 (def:metric)",
            printed="U_phi(f) <= U(f) for all f, for every utility of Definition 1 (a_{0,+1} > 0, a_{0,-1} <= 0, "
                    "a_{1,+1} >= 0, a_{1,-1} >= 0, 0 <= U <= 1) and phi >= l",
            derived="the ratio step needs D = E[W_1] > 0 (then 0 <= U gives N >= 0 and D_phi >= D > 0); "
                    "Definition 1 does not state D > 0, and for D < 0 the step breaks: where D_phi = D < 0 the "
                    "inequality reverses, U_phi = N_phi / D >= N / D = U (in general it can go either way: "
                    "referee round 25)",
            consequence="yes for metrics with a negative denominator: Lemma 1 is false for them, and so are Lemma 2 "
                        "(U_hat quasi-concave on {N_hat >= 0}) and Prop. 5 (the Bayes-optimal set), whose proofs also "
                        "divide by the denominator (witnesses below); none for Tab. 1's F_beta, Jaccard and accuracy, "
                        "whose denominators are positive. Fix: add E[W_1(f)] > 0 for all f to Definition 1 "
                        "(lfverify.core.LinearFractionalMetric.admissibility already checks it).",
            witness=f"U = (TP - 1) / (-1) = 1 - TP (a0p = 1, a0n = 0, b0 = -1, a1p = a1n = 0, b1 = -1); single atom "
                    f"with eta = 1/2, f = 1, phi = log2(1 + e^-t): U = {mp.nstr(u, 12)}, U_phi = 1/2 + phi(1)/2 = "
                    f"{mp.nstr(u_phi, 12)}.  Lemma 2: U = (TP - pi)/(-1) = pi - TP at pi = 1/2, hinge loss, S_0 = two "
                    f"positive samples at e_1, e_2, f_theta(x) = theta^T x: D_hat = -1, and theta = (2, 1/2), (1/2, 2) "
                    f"give N_hat = {lemma2['n_end']}, U_hat = {lemma2['u_end']} while their midpoint (5/4, 5/4) gives "
                    f"N_hat = {lemma2['n_mid']} (in {{N_hat >= 0}}), U_hat = {lemma2['u_mid']} < {lemma2['u_end']} "
                    f"(exact rationals).  Prop. 5: U = 1 - TP, one atom with eta = 1/2: the printed set is "
                    f"{{f > 0}}, where U = {prop5['u_printed']}, while U-dagger = {prop5['u_dagger']} is attained only "
                    "by f < 0 (by f <= 0 where a score of 0 counts as negative, the paper's sgn(0) = -1)",
            evidence=f"core library (FiniteSupportPopulation, logistic(), per-sample score coefficients): U = "
                     f"{lib_u:.12g}, U_phi = {lib_u_phi:.12g}; LinearFractionalMetric.admissibility() has "
                     f"denominator_positive = {report.denominator_positive} (its range checks N >= 0, D - N >= 0 "
                     "presuppose D > 0); FiniteSupportPopulation.surrogate_utility_of_scores refuses D <= 0.",
        ),),
        method="symbolic (corners of the feasible region), witness in mpmath 50 digits",
    )


def check_populations() -> Outcome:
    """Independent evidence: U_phi <= U for F_1, F_2, Jaccard and accuracy with the tau-logistic loss on seeded
    random finite-support populations and random per-atom scores (all measurable functions), core library.
    """

    rng = np.random.default_rng(DEFAULT_SEED)
    metrics = (f_beta(1.0), f_beta(2.0), jaccard(), accuracy())
    checked, worst = 0, -np.inf
    for _ in range(10):
        J = int(rng.integers(2, 6))
        weights = rng.dirichlet(np.ones(J))
        weights = weights / weights.sum()
        pop = FiniteSupportPopulation(rng.normal(size=(J, 2)), weights, rng.uniform(0.05, 0.95, size=J))
        scores = rng.normal(scale=3.0, size=(50, J))
        scores[:5] = 0.0  # the boundary xi = 0
        for metric in metrics:
            for tau in (0.33, 1.0):
                gap = pop.surrogate_utility_of_scores(metric, tau_logistic(tau), scores) - \
                    pop.utility_of_scores(metric, scores, zero_division=0.0)
                worst = max(worst, float(np.max(gap)))
                checked += gap.size
    if worst > 1e-12:
        return Outcome("erratum", "U_phi > U found", errata=(Erratum(
            location="Lemma 1", printed="U_phi <= U", derived="violated", consequence="Lemma 1 false",
            witness=f"max gap {worst:.3g}", evidence="core library"),))
    return Outcome("verified", f"U_phi <= U in {checked} of {checked} (population, metric, tau, score vector) cases: "
                               "10 "
                               "seeded random finite-support populations x 50 score vectors (5 of them f = 0) x "
                               "{F_1, F_2, Jaccard, accuracy} x tau in {0.33, 1}.",
                   method=f"core library, {checked} seeded random cases (numpy.random.default_rng({DEFAULT_SEED}))")


CLAIMS = (
    Claim(key="lemma1_lower_bound.w0_pointwise", title="Lemma 1: W_0(xi, q) >= W_{0,phi}(xi, q) pointwise",
          label="lem:utility-lower-bound", expected="verified", check=check_w0_pointwise),
    Claim(key="lemma1_lower_bound.w1_pointwise", title="Lemma 1: W_1(xi, q) <= W_{1,phi}(xi, q) pointwise",
          label="lem:utility-lower-bound", expected="verified", check=check_w1_pointwise),
    Claim(key="lemma1_lower_bound.zero_one_identity", title="Lemma 1 proof: l(-xi) = 1 - l(xi)",
          label="lem:utility-lower-bound", expected="erratum", check=check_zero_one_identity),
    Claim(key="lemma1_lower_bound.ratio_step",
          title="Lemma 1: N_phi <= N, D_phi >= D imply N_phi/D_phi <= N/D (D > 0, N >= 0)",
          label="lem:utility-lower-bound", expected="verified", check=check_ratio_step),
    Claim(key="lemma1_lower_bound.positive_denominator", title="Lemma 1 / Def. 1: U_phi <= U needs E[W_1] > 0",
          label="lem:utility-lower-bound", expected="erratum", check=check_positive_denominator),
    Claim(key="lemma1_lower_bound.populations", title="Lemma 1: U_phi <= U on random finite-support populations",
          label="lem:utility-lower-bound", expected="verified", check=check_populations),
)
