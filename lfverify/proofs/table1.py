"""Tab. 1 (tab:generalized-performance-metrics): the linear-fractional coefficients of F_beta, Jaccard and
Gower-Legendre, Definition 1's (def:metric) constraints on them, and the accuracy coefficients of App. A.

For every row the coefficients (a_{0,+1}, a_{0,-1}, b_0, a_{1,+1}, a_{1,-1}, b_1) are *derived* from the
metric's definition in TP, FN, FP, TN: FN = pi - TP and TN = 1 - pi - FP are substituted, the fraction is
brought to numerator / denominator, and both are read off as affine polynomials in (TP, FP).  A
linear-fractional representation is unique only up to a common factor c (possibly depending on pi), so a
printed row is compared by proportionality; the set of *all* representations is computed too (the solutions
of N' D - N D' = 0 as a polynomial identity in TP, FP), which is what decides whether *some* scaling satisfies
Definition 1's sign constraints.  Parameter ranges (beta > 0, alpha >= 0) on which Definition 1 holds are
solved symbolically with ``solve_univariate_inequality``.
"""

from __future__ import annotations

import sympy as sp

import lfverify.core as metrics
from lfverify.core import FiniteSupportPopulation, accuracy, gower_legendre, logistic
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._exact_numbers import exact_mpf
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp

TP, FN, FP, TN = sp.symbols("TP FN FP TN", nonnegative=True)
PI = sp.Symbol("pi", positive=True)  # class prior, 0 < pi < 1
BETA = sp.Symbol("beta", positive=True)
ALPHA = sp.Symbol("alpha", nonnegative=True)

# ---- printed forms, transcribed from the LaTeX source
# Tab. 1 (tab:generalized-performance-metrics), row "Definition" (the starting point of the derivations)
PRINTED_DEFINITION = {
    "F_beta": (1 + BETA**2) * TP / ((1 + BETA**2) * TP + BETA**2 * FN + FP),
    "Jaccard": TP / (TP + FN + FP),
    "Gower-Legendre": (TP + TN) / (TP + ALPHA * (FP + FN) + TN),
}
# Tab. 1, rows (a_{0,+1}, a_{0,-1}), b_0, (a_{1,+1}, a_{1,-1}), b_1, in the order (a0p, a0n, b0, a1p, a1n, b1)
PRINTED_COEFFICIENTS = {
    "F_beta": (1 + BETA**2, 0, 0, 1, 1, BETA**2 * PI),
    "Jaccard": (1, 0, 0, 0, 1, PI),
    "Gower-Legendre": (1, -1, 1 - PI, 1 - ALPHA, ALPHA - 1, 1 + (ALPHA - 1) * PI),
}
# Tab. 1 caption: "beta > 0 is a trade-off parameter for the F_beta-measure, while alpha >= 0 is for the
# Gower-Legendre index" (the table is introduced as "Examples of U", i.e. of Definition 1)
PRINTED_PARAMETER_RANGE = {
    "F_beta": sp.Interval.open(0, sp.oo),
    "Gower-Legendre": sp.Interval(0, sp.oo),
}
# App. A.3 (sec:supp:accuracy-calibration), U^Acc(f) = int {l(-f) eta - l(-f)(1 - eta) + (1 - pi)} p(x) dx,
# i.e. numerator TP - FP + (1 - pi) with denominator 1
PRINTED_ACCURACY_APP_A3 = (1, -1, 1 - PI, 0, 0, 1)
# ---- end of printed forms

ACCURACY_DEFINITION = TP + TN  # the accuracy: probability of a correct prediction (App. A)

NAMES = ("a0p", "a0n", "b0", "a1p", "a1n", "b1")
VERTICES = ((0, 0), (PI, 0), (0, 1 - PI), (PI, 1 - PI))  # corners of {0 <= TP <= pi, 0 <= FP <= 1 - pi}


def derive_coefficients(metric):
    """(a0p, a0n, b0, a1p, a1n, b1) of a metric given in TP, FN, FP, TN (Definition 1 / Tab. 1)."""
    expr = metric.subs({FN: PI - TP, TN: 1 - PI - FP})
    num, den = sp.fraction(sp.together(expr))
    out = []
    for part in (num, den):
        poly = sp.Poly(sp.expand(part), TP, FP)
        if poly.total_degree() > 1:
            raise ValueError(f"not affine in (TP, FP): {part}")
        out += [poly.coeff_monomial(TP), poly.coeff_monomial(FP), poly.coeff_monomial(1)]
    return tuple(sp.expand(c) for c in out)


def affine_forms(coeffs):
    a0p, a0n, b0, a1p, a1n, b1 = coeffs
    return a0p * TP + a0n * FP + b0, a1p * TP + a1n * FP + b1


def proportional(u, v):
    """The two coefficient vectors define the same utility: every 2x2 minor vanishes."""
    return all(sp.expand(u[i] * v[j] - u[j] * v[i]) == 0 for i in range(6) for j in range(i + 1, 6))


def all_representations(coeffs):
    """Every (N', D') with N'/D' = N/D: solve N' D - N D' = 0 identically in (TP, FP) for the six unknowns.

    Returns the common factor relating the general solution to ``coeffs`` (after checking that the general
    solution is exactly that multiple of ``coeffs``), renamed to the symbol ``c``.
    """
    unknown = sp.symbols("p0:6")
    n, d = affine_forms(coeffs)
    n2, d2 = affine_forms(unknown)
    identity = sp.Poly(sp.expand(n2 * d - n * d2), TP, FP)
    (solution,) = sp.linsolve(identity.coeffs(), unknown)
    free = sorted(set().union(*(s.free_symbols for s in solution)) & set(unknown), key=str)
    if len(free) != 1:
        raise ValueError(f"expected a one-parameter family of representations, got free symbols {free}")
    factor = sp.cancel(solution[0] / coeffs[0])  # a0p != 0 in every row of Tab. 1
    if any(sp.cancel(s - factor * k) != 0 for s, k in zip(solution, coeffs)):
        raise ValueError("the general representation is not a multiple of the derived one")
    return sp.Symbol("c", real=True, nonzero=True)


def mp_str(x):
    """A number rounded to 12 significant digits (deterministic text)."""
    import mpmath as mp

    return mp.nstr(mp.mpf(x), 12)


def _nonneg_on_unit_interval(g, param, domain):
    """Parameter values for which g (affine in pi) is >= 0 for every pi in (0, 1)."""
    g = sp.expand(g)
    if sp.Poly(g, PI).degree() > 1:
        raise ValueError(f"not affine in pi: {g}")
    out = domain
    for end in (0, 1):
        out = out.intersect(_solve(g.subs(PI, end) >= 0, param, domain))
    return out


def _solve(relation, param, domain):
    if param is None:
        return domain if bool(relation) else sp.S.EmptySet
    if relation in (sp.true, sp.false):
        return domain if relation == sp.true else sp.S.EmptySet
    return sp.solve_univariate_inequality(relation, param, relational=False, domain=domain)


def definition1_sets(coeffs, param, domain):
    """Parameter sets on which Definition 1 holds: (sign constraints, range constraints).

    Sign constraints: a0p > 0, a0n <= 0, a1p >= 0, a1n >= 0.  Range: for every pi in (0, 1) and every
    (TP, FP) in the feasible rectangle, D > 0 and 0 <= N / D <= 1, i.e. D > 0, N >= 0, D - N >= 0 (D > 0 is
    left implicit by Definition 1; see lemma1_lower_bound.positive_denominator).  N, D and
    D - N are affine in (TP, FP), so it suffices to check the four corners, where they are affine in pi, so
    (0, 1) is decided by its two end points (strict positivity: >= 0 at both ends and not zero at both).
    """
    a0p, a0n, _, a1p, a1n, _ = coeffs
    sign = domain
    for relation in (a0p > 0, a0n <= 0, a1p >= 0, a1n >= 0):
        sign = sign.intersect(_solve(relation, param, domain))
    rng = domain
    n, d = affine_forms(coeffs)
    for tp, fp in VERTICES:
        nv, dv = n.subs({TP: tp, FP: fp}), d.subs({TP: tp, FP: fp})
        for g in (nv, dv, dv - nv):
            rng = rng.intersect(_nonneg_on_unit_interval(g, param, domain))
        both_zero = domain
        for end in (0, 1):
            value = sp.expand(dv.subs(PI, end))
            both_zero = both_zero.intersect(domain if value == 0 else
                                            (sp.S.EmptySet if param is None else
                                             sp.solveset(sp.Eq(value, 0), param, domain)))
        rng = rng - both_zero
    return sign, rng


# ---------------------------------------------------------------------------------------------- row checks
def _check_row(name):
    derived = derive_coefficients(PRINTED_DEFINITION[name])
    printed = PRINTED_COEFFICIENTS[name]
    scale = [sp.cancel(p / d) for p, d in zip(printed, derived) if d != 0]
    text = ", ".join(f"{k}={v}" for k, v in zip(NAMES, derived))
    if proportional(derived, printed) and all(s == scale[0] for s in scale):
        return Outcome("verified", f"{name}: substituting FN = pi - TP, TN = 1 - pi - FP gives ({text}); "
                                   f"equal to the printed row (scale factor {scale[0]}).")
    return Outcome("erratum", f"{name}: derived ({text}) differs from the printed row", errata=(Erratum(
        location="Tab. 1 (tab:generalized-performance-metrics), row " + name,
        printed=str(printed), derived=str(derived), consequence="the printed coefficients define another metric",
        witness="symbolic", evidence="polynomial identity in TP, FP"),))


def check_f_beta_row() -> Outcome:
    """Derives F_beta's coefficients from (1+b^2)TP / ((1+b^2)TP + b^2 FN + FP) and compares with Tab. 1."""
    return _check_row("F_beta")


def check_jaccard_row() -> Outcome:
    """Derives Jaccard's coefficients from TP / (TP + FN + FP) and compares with Tab. 1."""
    return _check_row("Jaccard")


def check_gower_legendre_row() -> Outcome:
    """Derives Gower-Legendre's coefficients from (TP + TN) / (TP + alpha (FP + FN) + TN); compares with Tab. 1."""
    return _check_row("Gower-Legendre")


def check_library_coefficients() -> Outcome:
    """Compares the derived rows with lfverify.core's f_beta, jaccard, gower_legendre at exact float parameters.

    The library stores b_k = b_k_const + b_k_prior * pi; its floats are converted exactly to rationals.
    """

    def library_vector(metric):
        r = [sp.Rational(v) for v in (metric.a0p, metric.a0n, metric.b0_const, metric.b0_prior,
                                      metric.a1p, metric.a1n, metric.b1_const, metric.b1_prior)]
        return (r[0], r[1], r[2] + r[3] * PI, r[4], r[5], r[6] + r[7] * PI)

    cases = []
    for beta in (0.25, 0.5, 1.0, 2.0, 3.0):
        cases.append((f"f_beta({beta:g})", metrics.f_beta(beta),
                      derive_coefficients(PRINTED_DEFINITION["F_beta"]), {BETA: sp.Rational(beta)}))
    cases.append(("jaccard()", metrics.jaccard(), derive_coefficients(PRINTED_DEFINITION["Jaccard"]), {}))
    for alpha in (0.0, 0.5, 1.0, 2.0, 3.0):
        cases.append((f"gower_legendre({alpha:g})", metrics.gower_legendre(alpha),
                      derive_coefficients(PRINTED_DEFINITION["Gower-Legendre"]), {ALPHA: sp.Rational(alpha)}))
    cases.append(("accuracy()", metrics.accuracy(), derive_coefficients(ACCURACY_DEFINITION / 1), {}))
    bad = [name for name, metric, derived, subs in cases
           if any(sp.expand(lib - der.subs(subs)) != 0 for lib, der in zip(library_vector(metric), derived))]
    if bad:
        return Outcome("erratum", f"lfverify.core disagrees with the derived coefficients for {bad}", errata=(Erratum(
            location="lfverify.core (not the paper)", printed="library coefficients", derived="see summary",
            consequence="the library computes another metric", witness=", ".join(bad), evidence="exact comparison"),))
    return Outcome("verified", f"lfverify.core ships exactly the derived coefficients (scale 1, b_k as "
                               f"const + prior * pi) for {len(cases)} metrics: f_beta at beta in "
                               "{1/4, 1/2, 1, 2, 3}, jaccard, gower_legendre at alpha in {0, 1/2, 1, 2, 3}, accuracy.",
                   method="exact rational comparison at 12 parameter points")


# ---------------------------------------------------------------------------------------- Definition 1
def check_f_beta_definition1() -> Outcome:
    """Solves Definition 1's sign and range constraints for the derived F_beta coefficients in beta > 0."""
    coeffs = derive_coefficients(PRINTED_DEFINITION["F_beta"])
    domain = sp.Interval.open(0, sp.oo)
    sign, rng = definition1_sets(coeffs, BETA, domain)
    both = sign.intersect(rng)
    if both == PRINTED_PARAMETER_RANGE["F_beta"]:
        return Outcome("verified", f"F_beta satisfies Definition 1 for every beta in the searched domain {domain}: "
                                   f"{both} (sign constraints on {sign}, D > 0 and 0 <= U <= 1 on {rng}), the "
                                   "caption's beta > 0 (F_beta depends on beta only through beta^2, so beta < 0 "
                                   "gives the same metric).")
    return Outcome("erratum", f"F_beta satisfies Definition 1 for beta in {both}", errata=(Erratum(
        location="Tab. 1 caption", printed="beta > 0", derived=str(both), consequence="see summary",
        witness=str(both), evidence="symbolic"),))


def check_jaccard_definition1() -> Outcome:
    """Decides Definition 1's sign and range constraints for the derived (parameter-free) Jaccard coefficients."""
    coeffs = derive_coefficients(PRINTED_DEFINITION["Jaccard"])
    sign, rng = definition1_sets(coeffs, None, sp.FiniteSet(0))
    if sign == rng == sp.FiniteSet(0):
        return Outcome("verified", "Jaccard (1, 0, 0, 0, 1, pi): a0p = 1 > 0, a0n = 0, a1p = 0, a1n = 1; "
                                   "D = FP + pi > 0, N = TP >= 0, D - N = FP + pi - TP >= 0 on the feasible region.")
    return Outcome("erratum", "Jaccard violates Definition 1", errata=(Erratum(
        location="Tab. 1", printed="Jaccard row", derived="violates Definition 1", consequence="see summary",
        witness="symbolic", evidence="symbolic"),))


def _lemma1_gower_legendre_witness():
    """U_phi > U for Gower-Legendre(alpha = 2): single atom with eta = 1/10, f = -6, logistic loss.

    Exact value from Eq. (3) in mpmath (50 digits) and the same from the core library.
    """
    import mpmath as mp
    import numpy as np


    alpha, eta, f = 2, sp.Rational(1, 10), -6
    coeffs = [c.subs({ALPHA: alpha, PI: eta}) for c in derive_coefficients(PRINTED_DEFINITION["Gower-Legendre"])]
    a0p, a0n, b0, a1p, a1n, b1 = (exact_mpf(sp.Rational(c)) for c in coeffs)
    with mp.workdps(50):
        phi = tau_logistic_mp(1)  # the logistic loss log2(1 + e^-t)
        q = mp.mpf(1) / 10
        n_phi = a0p * (1 - phi(f)) * q + a0n * phi(-f) * (1 - q) + b0   # Eq. (3), W_{0,phi}
        d_phi = a1p * (1 + phi(f)) * q + a1n * phi(-f) * (1 - q) + b1   # Eq. (3), W_{1,phi}
        u_phi = n_phi / d_phi
    u_true = sp.Rational(9, 11)  # f < 0: TP = FP = 0, U = b0 / b1 = (1 - pi) / (1 + pi)
    pop = FiniteSupportPopulation([[1.0]], [1.0], [0.1])
    metric = gower_legendre(2.0)
    num, den = pop.surrogate_score_expectations(metric, logistic(), np.array([float(f)]))
    lib_u_phi = float(num[0] / den[0])
    lib_u = pop.utility_of_scores(metric, np.array([float(f)]))
    return u_phi, u_true, lib_u_phi, lib_u


def check_gower_legendre_definition1() -> Outcome:
    """Solves Definition 1's constraints for Gower-Legendre in alpha >= 0, over *all* representations.

    The caption presents alpha >= 0 as examples of Definition 1.  The sign constraints a1p >= 0 and a1n >= 0
    are decided for the general representation c * (derived row) (any common factor c), so no rescaling can
    repair them.
    """
    coeffs = derive_coefficients(PRINTED_DEFINITION["Gower-Legendre"])
    domain = sp.Interval(0, sp.oo)
    sign, rng = definition1_sets(coeffs, ALPHA, domain)
    c = all_representations(coeffs)
    # every representation is c * coeffs, so a1p * a1n = c^2 (1 - alpha)(alpha - 1) = -c^2 (alpha - 1)^2 and
    # a0p = c: a0p > 0 and a1p, a1n >= 0 together need alpha = 1
    product = sp.factor(c**2 * coeffs[3] * coeffs[4])
    any_scaling_ok = sp.solveset(sp.Eq(product, 0), ALPHA, domain)
    both = sign.intersect(rng)
    printed = PRINTED_PARAMETER_RANGE["Gower-Legendre"]
    if both == printed:
        return Outcome("verified", f"Gower-Legendre satisfies Definition 1 for alpha in {both}.")
    u_phi, u_true, lib_u_phi, lib_u = _lemma1_gower_legendre_witness()
    return Outcome(
        "erratum",
        f"Gower-Legendre: sign constraints hold only for alpha in {sign} (any scaling: a1p * a1n = {product}), "
        f"range constraints (D > 0, 0 <= U <= 1) for alpha in {rng}; Definition 1 holds only at alpha = 1 "
        "(accuracy), not for alpha >= 0 (with Table 1's coefficients).",
        errata=(Erratum(
            location="Tab. 1 (tab:generalized-performance-metrics), caption and Gower-Legendre column, "
                     "with Definition 1 (def:metric)",
            printed="Gower-Legendre index with alpha >= 0 as an example of Definition 1, coefficients "
                    "(a_{1,+1}, a_{1,-1}) = (1 - alpha, alpha - 1)",
            derived=f"a_{{1,+1}} = 1 - alpha and a_{{1,-1}} = alpha - 1 (unique up to a common factor c for "
                    f"alpha != 0: "
                    f"a_{{1,+1}} a_{{1,-1}} = {product}), so a_{{1,+1}} >= 0 and a_{{1,-1}} >= 0 hold together "
                    f"only for alpha in {any_scaling_ok}; 0 <= U <= 1 with D > 0 holds for alpha in {rng} "
                    "(alpha = 0: D = alpha = 0 at TP = 0, FP = 1 - pi). With these coefficients Definition 1 holds "
                    "exactly for alpha = 1; at alpha = 0 the index is the constant 1 wherever D > 0, so other "
                    "coefficients give the same function there (e.g. (TP + 1)/(TP + 1)).",
            consequence="yes for alpha != 1: the results that use the sign constraints (Lemma 1's lower bound "
                        "U_phi <= U, Lemma 2's concavity/convexity of the surrogate scores) do not apply to "
                        "Gower-Legendre with alpha != 1; the rows' coefficients themselves "
                        "are correct. F_beta, Jaccard and accuracy (alpha = 1) are unaffected.",
            witness=f"alpha = 2: (a_{{1,+1}}, a_{{1,-1}}) = (-1, 1); single atom with eta = 1/10, f = -6, "
                    f"logistic loss log2(1 + e^-t): U_phi = {mp_str(u_phi)} > U = 9/11 = {mp_str(float(u_true))}, "
                    "so Lemma 1's U_phi <= U fails",
            evidence=f"core library (FiniteSupportPopulation, gower_legendre(2), logistic()): U_phi = "
                     f"{lib_u_phi:.12g}, U = {lib_u:.12g}; the derived coefficients equal "
                     "lfverify.core.gower_legendre, whose docstring records the same restriction.",
        ),),
        method="symbolic (solve_univariate_inequality), witness in mpmath 50 digits",
    )


# ---------------------------------------------------------------------------------------------- accuracy
def check_accuracy_coefficients() -> Outcome:
    """Derives the accuracy's coefficients from TP + TN and compares them with App. A.3's U^Acc.

    The coefficients quoted in the sentence after Prop. 5 (b_0 = b_1 = 0) are checked, once, by
    ``prop5_bayes_optimal_set.accuracy_coefficients``, which records that misprint.
    """
    derived = derive_coefficients(ACCURACY_DEFINITION / 1)
    if not proportional(derived, PRINTED_ACCURACY_APP_A3):
        return Outcome("erratum", "accuracy: derived coefficients disagree with App. A.3's U^Acc", errata=(Erratum(
            location="App. A.3", printed=str(PRINTED_ACCURACY_APP_A3), derived=str(derived),
            consequence="see summary", witness="symbolic", evidence="symbolic"),))

    shipped = accuracy()
    library = (shipped.a0p, shipped.a0n, shipped.b0_const + shipped.b0_prior * PI, shipped.a1p, shipped.a1n,
               shipped.b1_const + shipped.b1_prior * PI)
    same_as_library = all(sp.simplify(sp.nsimplify(x) - y) == 0 for x, y in zip(library, derived))
    status = "verified" if same_as_library else "undecided"
    return Outcome(status, f"accuracy = TP + TN = TP - FP + (1 - pi): derived (a0p, a0n, b0, a1p, a1n, b1) = "
                           f"{derived}, as in App. A.3's U^Acc"
                           + (" and lfverify.core.accuracy()" if same_as_library else "; the library differs"))


CLAIMS = (
    Claim(key="table1.f_beta_row", title="Tab. 1: F_beta coefficients from its definition",
          label="tab:generalized-performance-metrics", expected="verified", check=check_f_beta_row),
    Claim(key="table1.jaccard_row", title="Tab. 1: Jaccard coefficients from its definition",
          label="tab:generalized-performance-metrics", expected="verified", check=check_jaccard_row),
    Claim(key="table1.gower_legendre_row", title="Tab. 1: Gower-Legendre coefficients from its definition",
          label="tab:generalized-performance-metrics", expected="verified", check=check_gower_legendre_row),
    Claim(key="table1.library_coefficients", title="Tab. 1: lfverify.core ships the derived coefficients",
          label="tab:generalized-performance-metrics", expected="verified", check=check_library_coefficients),
    Claim(key="table1.f_beta_definition1", title="Tab. 1 / Def. 1: F_beta satisfies Definition 1 for every beta > 0",
          label="def:metric", expected="verified", check=check_f_beta_definition1),
    Claim(key="table1.jaccard_definition1", title="Tab. 1 / Def. 1: Jaccard satisfies Definition 1",
          label="def:metric", expected="verified", check=check_jaccard_definition1),
    Claim(key="table1.gower_legendre_definition1",
          title="Tab. 1 / Def. 1: Gower-Legendre (alpha >= 0) as an example of "
                                               "Definition 1",
          label="tab:generalized-performance-metrics", expected="erratum", check=check_gower_legendre_definition1),
    Claim(key="table1.accuracy_coefficients",
          title="App. A.3: accuracy coefficients (a0p, a0n, b0, a1p, a1n, b1) from TP + TN",
          label="sec:supp:accuracy-calibration", expected="verified", check=check_accuracy_coefficients),
)
