"""Thm. 1 (thm:f-measure-calibration): F_beta-calibration of the surrogate utility, and its proof (App. A.1).

Claims checked here:

* the range of tau stated after Thm. 1, (0, beta^2 / (2 + beta^2)], and the largest tau as a function of
  U*_phi (compared with :func:`lfverify.core.fbeta_max_tau`);
* case 1 of the proof (f*(x) > 0, eta(x) < U(f*)/(1 + beta^2)): the difference of eq:supp:f-case1-contradiction
  over a common denominator, the printed factorisation, and each inequality (Figs. 5 and 6, the product
  step, the sign step from tau-discrepancy and convexity);
* case 2 (f*(x) <= 0, eta(x) > U(f*)/(1 + beta^2)): the first bound on eta, the second one, and the Fig. 7
  caption;
* the theorem itself: whether the hypotheses imply F_beta-calibration.

Notation used throughout: S = U*_phi = sup_f U_phi(f) (the paper's (U_phi^{F_beta})*), U = U(f*) (true
utility of the surrogate maximiser), p = phi'(f*(x)), q = phi'(-f*(x)) at the point x = x-bar of the proof,
r = p / q.

The stationary condition is derived here, from Eq. (3)'s surrogate scores, by differentiating
G(gamma) = U_phi(f* + gamma delta f) on a distribution with an atom at x-bar (:func:`stationary_eta`); the
generic helpers of this module (:func:`surrogate_scores`, :func:`stationary_eta`,
:func:`tau_logistic_surrogate_maximiser`) are reused by the modules of Thms. 2 and 7.  The counterexamples to the
theorem (witness populations, the predicates that they reproduce, the errata records) are in
``lfverify.proofs._thm1_counterexamples``, below this module.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath as mp
import numpy as np
import sympy as sp
from scipy.optimize import brentq

from lfverify.core import (
    DEFAULT_SEED,
    FiniteSupportPopulation,
    f_beta,
    fbeta_calibration,
    fbeta_max_tau,
    logistic,
    tau_logistic,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._exact_numbers import exact_mpf, random_fraction
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp
from lfverify.proofs._thm1_counterexamples import (
    F1_COEFFICIENTS,
    _dominance_erratum,
    _footnote_erratum,
    _kink_erratum,
    _nstr,
    _witness_populations,
    kink_counterexample_reproduced,
    nondominating_counterexample_reproduced,
    thm7_conditions,
)

__all__ = [
    "CLAIMS",
    "surrogate_scores",
    "stationary_eta",
    "SurrogateMaximiser",
    "tau_logistic_surrogate_maximiser",
]

beta, tau = sp.symbols("beta tau", positive=True)
S, U = sp.symbols("S U", positive=True)  # S = U*_phi, U = U(f*)
p, q = sp.symbols("p q", negative=True)  # phi'(f*(x)), phi'(-f*(x)) (phi non-increasing; the proof assumes < 0)
r = sp.Symbol("r", positive=True)  # phi'(f*(x)) / phi'(-f*(x))
B2 = beta**2

# ---- printed forms, transcribed from the LaTeX source ---------------------------------------------------------
# Text after Thm. 1: "tau ranges over (0, beta^2/(2 + beta^2)]".
PRINTED_TAU_SUP = B2 / (2 + B2)
# Thm. 1 hypothesis: (U_phi^{F_beta})* >= (1 + beta^2) tau / (beta^2 - tau), tau in (0, beta^2).
PRINTED_U_STAR_LOWER = (1 + B2) * tau / (B2 - tau)
# eq:supp:fbeta-stationary-eta.
PRINTED_ETA_STATIONARY = q * S / ((1 + B2) * p + (p + q) * S)
# Display after eq:supp:f-case1-contradiction: numerator and denominator of LHS - RHS.  The numerator's third
# term is printed "(phi'(f*) + phi'(-f*)(U_phi)* U(f*)" with a missing ")" (read as (p + q) S U).
PRINTED_CASE1_NUMERATOR = (1 + B2) * q * S - (1 + B2) * p * U - (p + q) * S * U
PRINTED_CASE1_DENOMINATOR = (1 + B2) * ((1 + B2) * p + (p + q) * S)
# Its factorisation, with the two underbraced factors A (>= tau/beta^2, Fig. 5) and B (>= beta^2, Fig. 6).
PRINTED_FACTOR_A = S / ((1 + B2) + S)
PRINTED_FACTOR_B = ((1 + B2) - U) / U
PRINTED_CASE1_FACTORISED = U * ((1 + B2) + S) * (PRINTED_FACTOR_A * PRINTED_FACTOR_B * q - p)
PRINTED_FACTOR_A_LOWER = tau / B2
PRINTED_FACTOR_B_LOWER = B2
# The line after the first inequality.
PRINTED_CASE1_AFTER_FIRST = U * ((1 + B2) + S) * (tau * q - p)
# Case 2 chain: second line (r = phi'(f*)/phi'(-f*)), the first bound, the second bound.
PRINTED_CASE2_LINE2 = S / ((1 + B2) * r + (r + 1) * S)
PRINTED_CASE2_FIRST_BOUND = S / ((1 + B2) * (1 + S))
PRINTED_CASE2_SECOND_BOUND = U / (1 + B2)
# Case 2 text: "(U_phi)*/(1 + (U_phi)*) <= U(f*)"; Fig. 7 caption (fig:supp:f1-calibration-3):
# "(U_phi)* / (1 + (U_phi)^2) <= U(f*)" -- the LaTeX is \frac{(\UFb_\phi)^*}{1 + (\UFb_\phi)^2}.
PRINTED_CASE2_TEXT_LHS = S / (1 + S)
PRINTED_FIG7_CAPTION_LHS = S / (1 + S**2)
# ----------------------------------------------------------------------------------------------------------------

SEED = DEFAULT_SEED


# ------------------------------------------------------------------------------ shared derivation helpers
_PHI = sp.Function("phi")


def surrogate_scores(a0p, a0n, a1p, a1n, b0, b1, phi=_PHI):
    """W_{0,phi}(xi, q), W_{1,phi}(xi, q) of Eq. (3) as SymPy expressions in (xi, eta), with phi a function."""
    xi, eta = sp.symbols("xi eta", real=True)
    w0 = a0p * (1 - phi(xi)) * eta + a0n * phi(-xi) * (1 - eta) + b0
    w1 = a1p * (1 + phi(xi)) * eta + a1n * phi(-xi) * (1 - eta) + b1
    return w0, w1, xi, eta, phi


def stationary_eta(w0, w1, xi, eta, phi, value=S, dphi_at_f=p, dphi_at_minus_f=q):
    """eta(x-bar) solving G'(0) = 0, G(gamma) = U_phi(f* + gamma delta f) (the proofs' stationary condition).

    Derived on a distribution with an atom of mass w at x-bar: the numerator and denominator of U_phi are
    N(gamma) = N_rest + w W0(xi + gamma, eta), D(gamma) = D_rest + w W1(xi + gamma, eta), and G(0) = value.
    SymPy differentiates G, imposes N(0) = value * D(0), and solves G'(0) = 0 for eta; phi'(xi) and
    phi'(-xi) are then renamed p and q.
    """
    # gamma is a Dummy: with SymPy 1.14's cache on, diff(phi(xi + gamma), gamma) after the same derivative with
    # a Symbol("gamma") of other assumptions (stationary_conditions had one) returned phi's derivative at the
    # *other* gamma, which .subs(gamma, 0) then left in place: the derivation raised or not depending on what
    # ran before it in the process (SYMPY_USE_CACHE=no: always right).  A Dummy is never equal to another symbol.
    gamma = sp.Dummy("gamma", positive=True)
    w, n_rest, d_rest = sp.symbols("w N_rest D_rest", positive=True)
    G = (n_rest + w * w0.subs(xi, xi + gamma)) / (d_rest + w * w1.subs(xi, xi + gamma))
    dG = sp.diff(G, gamma).subs(gamma, 0)
    dG = dG.subs(n_rest, value * (d_rest + w * w1) - w * w0)
    numerator = sp.numer(sp.together(dG))

    def derivative_at(expr):  # phi'(point) appears as Subs(Derivative(phi(_x), _x), _x, point)
        return isinstance(expr, sp.Subs) and isinstance(expr.expr, sp.Derivative) and expr.expr.expr.func == phi

    def rename(expr):
        expr = expr.replace(lambda e: derivative_at(e) and sp.expand(e.point[0] + xi) == 0, lambda e: dphi_at_minus_f)
        expr = expr.replace(lambda e: derivative_at(e) and sp.expand(e.point[0] - xi) == 0, lambda e: dphi_at_f)
        if expr.has(sp.Derivative) or expr.has(sp.Subs):
            raise RuntimeError(f"unrenamed derivative in {expr}")
        return expr

    numerator = sp.expand(rename(numerator))
    solution = sp.solve(numerator, eta)
    if len(solution) != 1:
        raise RuntimeError(f"the stationary condition is not linear in eta: {solution}")
    return sp.factor(solution[0])


def _rational_points(count, seed, draw):
    rng = random.Random(seed)
    return [draw(rng) for _ in range(count)]


# ------------------------------------------------------------------ exact surrogate maximiser (witnesses)
class SurrogateMaximiser:
    """The maximiser of U_phi over *all* functions on a finite-support distribution, to 50 digits.

    Attributes: ``value`` (U*_phi), ``scores`` (f*(x_j)), ``zero_atoms`` (atoms where f* = 0, certified by
    the one-sided derivatives), ``iterations``.
    """

    def __init__(self, value, scores, zero_atoms, iterations):
        self.value, self.scores, self.zero_atoms, self.iterations = value, scores, zero_atoms, iterations


def tau_logistic_surrogate_maximiser(coefficients, weights, eta, tau_value, base=2, dps=50) -> SurrogateMaximiser:
    """sup_f U_phi(f) and its maximiser for phi = tau-logistic (base ``base``) on atoms with weights and eta.

    ``coefficients`` = (a0p, a0n, a1p, a1n, b0_const, b0_prior, b1_const, b1_prior) (b_k = const + prior pi).
    Dinkelbach's method: S* = sup U_phi iff max_f E[W0 - S* W1] = 0.  For fixed S the maximisation is
    pointwise: at an atom with posterior e it minimises A phi(xi) + B phi(-xi) with A = (a0p + S a1p) e and
    B = (S a1n - a0n)(1 - e) (Eq. (3)), a convex problem whose minimiser is 0 exactly when the one-sided
    derivatives at 0 have opposite signs (tau A <= B and A >= tau B), and otherwise the root of the
    derivative on the side it points to (bisection to 2^-200).  The iteration S <- U_phi(f(S)) increases to S*.
    """
    with mp.workdps(dps):
        a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (exact_mpf(c) for c in coefficients)
        w = [exact_mpf(v) for v in weights]
        e = [exact_mpf(v) for v in eta]
        t = exact_mpf(tau_value)
        prior = sum(wi * ei for wi, ei in zip(w, e))
        phi = tau_logistic_mp(t, base)

        def u_phi(xs):
            num = sum(wi * (a0p * (1 - phi(x)) * ei + a0n * phi(-x) * (1 - ei)) for wi, ei, x in zip(w, e, xs))
            den = sum(wi * (a1p * (1 + phi(x)) * ei + a1n * phi(-x) * (1 - ei)) for wi, ei, x in zip(w, e, xs))
            return (num + c0 + d0 * prior) / (den + c1 + d1 * prior)

        def argmin(A, B):
            # g(xi) = A phi(xi) + B phi(-xi); ln(base) g'(0+) = B - tau A, ln(base) g'(0-) = tau B - A
            if t * A <= B and A >= t * B:
                return mp.mpf(0), True
            if t * A > B:  # minimiser > 0: -A tau sigma(-tau xi) + B sigma(xi) = 0 (increasing in xi)
                def dg(x):
                    return -A * t / (1 + mp.exp(t * x)) + B / (1 + mp.exp(-x))

                lo, hi = mp.mpf(0), mp.mpf(1)
                while dg(hi) < 0:
                    hi *= 2
            else:  # minimiser < 0: -A sigma(-xi) + B tau sigma(tau xi) = 0
                def dg(x):
                    return -A / (1 + mp.exp(x)) + B * t / (1 + mp.exp(-t * x))

                lo, hi = mp.mpf(-1), mp.mpf(0)
                while dg(lo) > 0:
                    lo *= 2
            for _ in range(200 + int(mp.log(hi - lo, 2))):
                mid = (lo + hi) / 2
                if dg(mid) < 0:
                    lo = mid
                else:
                    hi = mid
            return (lo + hi) / 2, False

        value = u_phi([mp.mpf(10) if ei > mp.mpf(1) / 2 else mp.mpf(0) for ei in e])
        for iteration in range(1, 60):  # noqa: B007 (read after the loop: the count returned)
            weights_ab = [((a0p + value * a1p) * ei, (value * a1n - a0n) * (1 - ei)) for ei in e]
            if any(A < 0 or B < 0 for A, B in weights_ab):
                raise ValueError("a pointwise problem is not convex at this value; choose another population")
            pairs = [argmin(A, B) for A, B in weights_ab]
            scores = [x for x, _ in pairs]
            new = u_phi(scores)
            if abs(new - value) < mp.mpf(10) ** (-(dps - 5)):
                value = new
                break
            value = new
        else:
            raise RuntimeError("Dinkelbach's iteration did not converge")
        zero_atoms = tuple(j for j, (_, zero) in enumerate(pairs) if zero)
        return SurrogateMaximiser(+value, [+x for x in scores], zero_atoms, iteration)


# ------------------------------------------------------------------------------------------------ derivations
def _fbeta_stationary_eta():
    w0, w1, xi, eta, phi = surrogate_scores(a0p=1 + B2, a0n=0, a1p=1, a1n=1, b0=0,
                                            b1=B2 * sp.Symbol("pi", positive=True))
    return stationary_eta(w0=w0, w1=w1, xi=xi, eta=eta, phi=phi)


def check_tau_range() -> Outcome:
    """Solve Thm. 1's hypothesis U* >= (1 + beta^2) tau / (beta^2 - tau), tau in (0, beta^2), for tau.

    Multiplying by beta^2 - tau > 0 gives a linear inequality in tau; SymPy solves it, shows the solution is
    increasing in U* and below beta^2, evaluates it at U* = 1 (U*_phi <= U <= 1) and compares the
    supremum with the printed beta^2/(2 + beta^2); fbeta_max_tau is compared at 200 rational points.
    """

    linear = sp.expand((B2 - tau) * S - (1 + B2) * tau)  # >= 0  <=>  hypothesis (beta^2 - tau > 0)
    (tau_max,) = sp.solve(linear, tau)
    if sp.diff(linear, tau).is_negative is not True:
        return Outcome("undecided", "could not show the hypothesis is decreasing in tau")
    increasing = sp.factor(sp.diff(tau_max, S))
    below = sp.factor(B2 - tau_max)
    sup_matches = sp.cancel(tau_max.subs(S, 1) - PRINTED_TAU_SUP) == 0
    # the printed hypothesis at tau = tau_max(S) holds with equality: S - (1 + beta^2) tau / (beta^2 - tau) = 0
    boundary = sp.cancel(S - PRINTED_U_STAR_LOWER.subs(tau, tau_max)) == 0
    if not (increasing.is_positive and below.is_positive and sup_matches and boundary):
        return Outcome("undecided", f"tau_max = {tau_max}: increasing={increasing}, beta^2 - tau_max={below}")
    worst = 0.0
    for b, u in _rational_points(
        200, SEED,
        lambda g: (random_fraction(g, Fraction(1, 10), Fraction(5)), random_fraction(g, Fraction(0), Fraction(1))),
    ):
        exact = tau_max.subs(
            {beta: sp.Rational(b.numerator, b.denominator), S: sp.Rational(u.numerator, u.denominator)}
        )
        worst = max(worst, abs(float(exact) - fbeta_max_tau(float(b), float(u))))
    if worst > 1e-12:
        return Outcome("undecided", f"fbeta_max_tau differs from the derived tau_max by up to {worst:.3g}")
    return Outcome(
        "verified",
        "Thm. 1's hypothesis <=> tau <= beta^2 U*/(1 + beta^2 + U*) (< beta^2, increasing in U*); with "
        "0 < U* <= 1 the admissible tau fill (0, beta^2/(2 + beta^2)], as printed; lfverify.core."
        "fbeta_max_tau agrees at 200 rational points.",
        method="symbolic; fbeta_max_tau compared at 200 exact rational points (float tolerance 1e-12)",
    )


def _case1_symbolic_steps(num, den) -> dict:
    """Each symbolic step of case 1 (App. A.1, eq:supp:f-case1-contradiction), by name: whether it holds.

    ``num``/``den`` is eta_STA - U/(1 + beta^2) over a common denominator, compared with the printed numerator and
    denominator; then the printed factorisation, the sign of the denominator, Fig. 5 (an identity with positive
    multipliers), Fig. 6 (U = 1/(1 + v)), the product step (A = tau/beta^2 + a, B = beta^2 + c with a, c >= 0) and
    the sign step (the derivative ordering from convexity and tau-discrepancy).
    """
    same_fraction = sp.expand(num * PRINTED_CASE1_DENOMINATOR - PRINTED_CASE1_NUMERATOR * den) == 0
    same_denominator = sp.cancel(den / PRINTED_CASE1_DENOMINATOR)  # a constant when the representations match
    factorised = sp.cancel(PRINTED_CASE1_FACTORISED - PRINTED_CASE1_NUMERATOR) == 0
    denominator_negative = PRINTED_CASE1_DENOMINATOR.is_negative  # p < 0 (<= 0 suffices), q < 0, S > 0
    # Fig. 5: beta^2 (1 + beta^2 + S) (A - tau/beta^2) = (beta^2 - tau)(S - (1 + beta^2) tau/(beta^2 - tau))
    fig5 = (
        sp.cancel(
            B2 * ((1 + B2) + S) * (PRINTED_FACTOR_A - PRINTED_FACTOR_A_LOWER) - (B2 - tau) * (S - PRINTED_U_STAR_LOWER)
        )
        == 0
    )
    # Fig. 6: B - beta^2 at U = 1/(1 + v), v >= 0
    v = sp.Symbol("v", nonnegative=True)
    fig6 = sp.factor(sp.cancel((PRINTED_FACTOR_B - PRINTED_FACTOR_B_LOWER).subs(U, 1 / (1 + v))))
    # product step: A B q <= tau q, i.e. A B - tau >= 0 when A >= tau/beta^2 >= 0 and B >= beta^2
    a, c = sp.symbols("a c", nonnegative=True)
    product_gap = sp.expand((tau / B2 + a) * (B2 + c) - tau)
    # factorised - (line after the first inequality) = U (1 + beta^2 + U*) q (A B - tau): <= 0 as q < 0
    after_first_ok = (
        sp.cancel(
            PRINTED_CASE1_FACTORISED
            - PRINTED_CASE1_AFTER_FIRST
            - U * ((1 + B2) + S) * q * (PRINTED_FACTOR_A * PRINTED_FACTOR_B - tau)
        )
        == 0
    )
    # sign step: m > 0.  Convexity: phi'(-m) <= phi'(0-) and phi'(m) >= phi'(0+); tau-discrepancy:
    # phi'(0+) >= tau phi'(0-).  Write phi'(0-) = d < 0, phi'(-m) = d - s1, phi'(0+) = tau d + s2,
    # phi'(m) = tau d + s2 + s3 with s_i >= 0.
    d = sp.Symbol("d", negative=True)
    s1, s2, s3 = sp.symbols("s1:4", nonnegative=True)
    sign_step = sp.expand(tau * (d - s1) - (tau * d + s2 + s3))
    checks = {
        "difference over the common denominator": same_fraction and same_denominator.is_constant(),
        "printed factorisation": factorised,
        "denominator negative": denominator_negative is True,
        "Fig. 5 equivalence": fig5,
        "Fig. 6 bound": fig6 == (1 + B2) * v,
        "product step": product_gap.is_nonnegative is True and after_first_ok,
        "sign step": sign_step.is_nonpositive is True,
    }
    return checks


def _case1_sign_step_on_tau_logistic() -> str | None:
    """Case 1's sign step tau phi'(-m) - phi'(m) <= 0 (m > 0, App. A.1) with the tau-logistic loss of Fig. 2 from the
    core library, at 301 margins for five tau: what fails, or None."""
    # the sign step with the paper's tau-logistic loss (library derivatives), tau in a grid
    margins = np.linspace(1e-6, 30.0, 301)
    for t in (0.05, 0.2, 1 / 3, 0.5, 1.0):
        loss = tau_logistic(t)
        if np.any(t * loss.derivative(-margins) - loss.derivative(margins) > 1e-15):
            return f"tau phi'(-m) - phi'(m) > 0 for tau-logistic({t})"
    return None


def _case1_end_to_end(num, den) -> str | None:
    """Case 1's chain end to end (App. A.1, eq:supp:f-case1-contradiction): eta_STA - U/(1 + beta^2) =
    ``num``/``den`` >= 0 at 300 exact rational points satisfying the case's hypotheses: what fails, or None."""
    # end to end at exact rational points satisfying case 1's hypotheses (including boundary points)
    # exact rational evaluation: the expression has integer coefficients only, so lambdify's plain-Python code
    # evaluates it in Fraction arithmetic (checked by the isinstance test below)
    difference = sp.lambdify((beta, tau, S, U, p, q), num / den, modules=[])

    def draw(g):
        b = random_fraction(g, Fraction(1, 5), Fraction(4))
        t = random_fraction(g, Fraction(1, 1000), b * b / (2 + b * b))
        s_min = (1 + b * b) * t / (b * b - t)
        s = s_min if g.random() < 0.2 else random_fraction(g, s_min, Fraction(1))
        u = Fraction(1) if g.random() < 0.2 else random_fraction(g, Fraction(1, 997), Fraction(1))
        qq = -random_fraction(g, Fraction(1, 997), Fraction(3))
        pp = t * qq if g.random() < 0.2 else random_fraction(g, t * qq, Fraction(0))  # phi'(m) in [tau phi'(-m), 0]
        return b, t, s, u, pp, qq

    values = [difference(*point) for point in _rational_points(300, SEED + 1, draw)]
    if not all(isinstance(x, Fraction) for x in values):
        return "the end-to-end check did not run in exact arithmetic"
    violations = sum(x < 0 for x in values)
    if violations:
        return f"eta_STA < U/(1 + beta^2) at {violations} of 300 admissible points"
    return None


def check_case1() -> Outcome:
    """Case 1 of App. A.1: eq:supp:f-case1-contradiction from the stationary eta derived from Eq. (3).

    Derives eta_STA, forms eta_STA - U/(1 + beta^2) over a common denominator and compares numerator and
    denominator with the printed ones; expands the printed factorisation; proves each inequality
    symbolically (Fig. 5: an identity with positive multipliers; Fig. 6: substitution U = 1/(1 + v); the
    product step: A = tau/beta^2 + a, B = beta^2 + c with a, c >= 0; the sign step: the derivative ordering
    from convexity and tau-discrepancy) and checks the whole chain at 300 exact rational points.
    """

    eta_sta = _fbeta_stationary_eta()
    if sp.cancel(eta_sta - PRINTED_ETA_STATIONARY) != 0:
        return Outcome("undecided", f"the derived stationary eta {eta_sta} differs from eq:supp:fbeta-stationary-eta")
    num, den = sp.fraction(sp.together(eta_sta - U / (1 + B2)))
    checks = _case1_symbolic_steps(num, den)
    failed = [k for k, ok in checks.items() if not ok]
    if failed:
        return Outcome("undecided", f"could not confirm: {', '.join(failed)}")
    problem = _case1_sign_step_on_tau_logistic() or _case1_end_to_end(num, den)
    if problem:
        return Outcome("undecided", problem)
    return Outcome(
        "verified",
        "Case 1: the stationary eta derived from Eq. (3) equals eq:supp:fbeta-stationary-eta; eta_STA - "
        "U/(1+beta^2) = [(1+beta^2) q U* - (1+beta^2) p U - (p+q) U* U] / [(1+beta^2)((1+beta^2) p + (p+q) U*)] "
        "as printed (a ')' is missing in the printed numerator), its factorisation expands back, the denominator "
        "is negative, Fig. 5 (A >= tau/beta^2 <=> U* >= (1+beta^2)tau/(beta^2-tau)), Fig. 6 (B - beta^2 = "
        "(1+beta^2)(1-U)/U >= 0 for 0 < U <= 1; the text's '0 <= U' should be '0 < U'), the product step and "
        "tau phi'(-m) - phi'(m) <= 0 (m > 0) hold symbolically; the chain holds at 300 exact rational points.",
        method="symbolic; end-to-end at 300 exact rational points; sign step on tau-logistic at 301 margins",
    )


def _fd_stationary_eta_evidence():
    """Library evidence for the case-2 formula: find eta(x-bar) with G'(0) = 0 by central differences.

    Two atoms, F_3, logistic loss; x-bar has score -1/10 (so r = phi'(-0.1)/phi'(0.1) > 1).  Returns
    (eta found, derived S/((1+b^2) r + (r+1) S), printed first bound) with S = U_phi(f), r from the library.
    """

    metric, loss = f_beta(3.0), logistic()
    scores = np.array([-0.1, 3.0])

    def population(eta_bar):
        return FiniteSupportPopulation(np.eye(2), np.array([0.5, 0.5]), np.array([eta_bar, 0.9]))

    def g_prime(eta_bar, h=1e-5):
        pop = population(eta_bar)
        up = pop.surrogate_utility_of_scores(metric, loss, scores + np.array([h, 0.0]))
        down = pop.surrogate_utility_of_scores(metric, loss, scores - np.array([h, 0.0]))
        return (up - down) / (2 * h)

    eta_bar = brentq(g_prime, 1e-6, 1 - 1e-6, xtol=1e-15)
    s = population(eta_bar).surrogate_utility_of_scores(metric, loss, scores)
    rr = float(loss.derivative(-0.1)) / float(loss.derivative(0.1))
    derived = s / (10 * rr + (rr + 1) * s)
    printed = s / (10 * (1 + s))
    return eta_bar, derived, printed, s, rr


def _case2_exact_witnesses(eta_r):
    """Two exact rational witnesses against case 2's printed first bound (App. A.1, thm:f-measure-calibration):
    beta = 2, U* = 6/7 (above the lower bound at tau = 1/2), r = 1 against the printed reason r >= 1 alone (r = 1 is
    below 1/tau, so not a tau-discrepant loss's ratio at f* < 0), and beta = 3, tau = 3/4, U* = 21/22, r = 1/tau,
    which meets tau-discrepancy too.  ``eta_r`` is the stationary eta as a function of r.  Returns each witness's (U*
    lower bound, eta, printed bound) and whether both violate the printed bound with U* admissible.
    """

    def exact(expr, **vals):
        return sp.nsimplify(expr.subs({sp.Symbol(k, positive=True): sp.nsimplify(v) for k, v in vals.items()}))

    w1 = dict(beta=2, tau=sp.Rational(1, 2), S=sp.Rational(6, 7), r=1)
    w1_lower = exact(PRINTED_U_STAR_LOWER, beta=2, tau=sp.Rational(1, 2))
    w1_eta, w1_printed = exact(eta_r, **w1), exact(PRINTED_CASE2_FIRST_BOUND, **w1)
    w2 = dict(beta=3, tau=sp.Rational(3, 4), S=sp.Rational(21, 22), r=sp.Rational(4, 3))
    w2_lower = exact(PRINTED_U_STAR_LOWER, beta=3, tau=sp.Rational(3, 4))
    w2_eta, w2_printed = exact(eta_r, **w2), exact(PRINTED_CASE2_FIRST_BOUND, **w2)
    holds = (
        w1_lower <= w1["S"] <= 1
        and w1_eta > w1_printed
        and w2_lower <= w2["S"] <= 1
        and w2_eta > w2_printed
        and w2["r"] == 1 / w2["tau"]
    )
    return (w1_lower, w1_eta, w1_printed), (w2_lower, w2_eta, w2_printed), holds


def _printed_first_bound_failures() -> int:
    """How many of 300 rational points (beta in (1, 4], U* >= the lower bound at a drawn tau, r in [1, 1.1]: the
    printed reason r >= 1 only, r >= 1/tau not imposed) violate case 2's printed first bound
    eta <= U*/((1+beta^2)(1+U*)) (App. A.1, thm:f-measure-calibration)."""
    # search: fraction of rational points (beta > 1, U* admissible for some tau, r >= 1) where the printed bound fails
    rng = random.Random(SEED + 2)
    fails = 0
    for _ in range(300):
        b = random_fraction(rng, Fraction(1001, 1000), Fraction(4))
        t = random_fraction(rng, Fraction(1, 1000), b * b / (2 + b * b))
        s = random_fraction(rng, (1 + b * b) * t / (b * b - t), Fraction(1))
        rr = 1 + random_fraction(rng, Fraction(0), Fraction(1, 10))
        eta_val = s / ((1 + b * b) * rr + (rr + 1) * s)
        fails += eta_val > s / ((1 + b * b) * (1 + s))
    return fails


def _case2_first_bound_erratum(*, w1, w2, fails, fd) -> Erratum:
    """The erratum of case 2's first inequality (App. A.1, thm:f-measure-calibration): ``w1``, ``w2`` the witnesses of
    :func:`_case2_exact_witnesses` (U* lower bound, eta, printed bound), ``fails`` the count of
    :func:`_printed_first_bound_failures`, ``fd`` the evidence of :func:`_fd_stationary_eta_evidence`."""
    w1_lower, w1_eta, w1_printed = w1
    w2_lower, w2_eta, w2_printed = w2
    eta_fd, derived_fd, printed_fd, s_fd, r_fd = fd
    return Erratum(
        location="App. A.1, proof of thm:f-measure-calibration, case 2, first inequality of the eta chain",
        printed="eta(x) <= (1/(1+beta^2)) U*/(1 + U*)  'because phi'(-m)/phi'(m) >= 1'",
        derived=(
            "eta(x) = U*/((1+beta^2) r + (r+1) U*) with r = phi'(f*)/phi'(-f*) >= 1, so eta(x) <= "
            "U*/(1 + beta^2 + 2U*); printed - derived bound = U*^2 (1 - beta^2)/((1+beta^2)(1+U*)(1+beta^2+2U*)), "
            "negative for every beta > 1"
        ),
        consequence=(
            "The printed inequality is false for beta > 1; even with r >= 1/tau, which tau-discrepancy gives for f*(x)"
            " < 0, it fails for beta > 2 (at the largest admissible tau and U* = 1, the margin U*(beta^2 - r) -"
            " (1+beta^2)(r - 1) is (beta^2 - 4)(beta^2 + 1)/beta^2).  Where the stationary equation holds at x-bar"
            " (x-bar an atom of P, f*(x-bar) < 0 and phi differentiable at +-f*(x-bar); not at a kink f*(x-bar) = 0,"
            " ERRATA E12), the"
            " case-2 contradiction survives with the"
            " corrected bound: U*/(1+beta^2+2U*) <= U*/(1+beta^2) <= U(f*)/(1+beta^2) < eta(x), using U* <= U(f*)"
            " (Lemma 1)."
        ),
        witness=(
            f"against the printed reason r >= 1 alone: beta = 2, U* = 6/7 (>= {w1_lower}, the lower bound at tau = "
            f"1/2), r = 1 (below 1/tau: not a tau-discrepant loss's ratio at f* < 0): eta = {w1_eta} = "
            f"{_nstr(w1_eta)} > printed "
            f"bound {w1_printed} = {_nstr(w1_printed)}; meeting tau-discrepancy: beta = 3, tau = 3/4 (U* >= "
            f"{w2_lower}), U* = 21/22, "
            f"r = 1/tau = 4/3: eta = {w2_eta} = {_nstr(w2_eta)} > {w2_printed} = {_nstr(w2_printed)}; the printed "
            f"bound fails at {fails} of 300 rational points with beta in (1, 4], U* >= (1+beta^2)tau/(beta^2 - tau) "
            "for a drawn tau, and r in [1, 1.1] (the printed reason r >= 1 only: r >= 1/tau is not imposed there)"
        ),
        evidence=(
            "The printed second line of the chain is eta = U*/((1+beta^2) r + (r+1) U*) itself; independently, "
            "with the core library (F_3, logistic loss, two atoms of weights (1/2, 1/2), eta = (eta_bar, 0.9), "
            "scores (-0.1, 3)), the eta_bar "
            f"at which central differences of U_phi(f + gamma e_1) vanish is {eta_fd:.7f}, equal to the derived "
            f"U*/(10 r + (r+1) U*) = {derived_fd:.7f} (U* = U_phi(f) = {s_fd:.7f}, r = {r_fd:.7f}) and above the "
            f"printed bound {printed_fd:.7f}."
        ),
    )


def _fig7_caption_erratum(caption_minus_text, caption_true) -> Erratum:
    """The erratum of Fig. 7's caption (fig:supp:f1-calibration-3) against the case-2 text of App. A.1 it illustrates:
    ``caption_minus_text`` the difference of their left sides, ``caption_true`` whether the caption still holds."""
    return Erratum(
        location="App. A.1, caption of Fig. 7 (fig:supp:f1-calibration-3)",
        printed="(U_phi)* / (1 + (U_phi)^2) <= U(f*)",
        derived="the case-2 text (and the chain) need (U_phi)* / (1 + (U_phi)*) <= U(f*)",
        consequence=(
            "None where U* > -1 and Lemma 1's phi >= 1{t <= 0} holds: then both inequalities are true (for U* >= 0 "
            "each left side is <= U* <= U(f*) by Lemma 1, for -1 < U* < 0 both are negative while U(f*) >= 0; "
            "without phi >= 1{t <= 0} they can fail: E13's witness; with it but U* < -1 the text's can fail: "
            "review 31's constant-loss witness, FINDINGS.md).  The caption's extra condition (1+beta^2)tau/(beta^2-"
            "tau) <= U* <= 1 gives U* > 0, as Thm. 1's hypotheses do; the caption's exponent is a slip."
        ),
        witness=(
            f"U* = 1/2: caption {PRINTED_FIG7_CAPTION_LHS.subs(S, sp.Rational(1, 2))} vs text "
            f"{PRINTED_CASE2_TEXT_LHS.subs(S, sp.Rational(1, 2))}"
        ),
        evidence=(
            f"caption minus text = {caption_minus_text} (nonzero for 0 < U* != 1); U - U*/(1+U*^2) >= 0 "
            f"for U >= U*: {caption_true}"
        ),
    )


def check_case2() -> Outcome:
    """Case 2 of App. A.1 (f*(x) <= 0, eta(x) > U/(1 + beta^2)): the bounds on the stationary eta.

    Substitutes p = r q in the eta derived from Eq. (3), obtains eta(r) = U*/((1+beta^2) r + (r+1) U*),
    shows it decreases in r, so r >= 1 gives eta <= U*/(1 + beta^2 + 2U*), and compares with the printed
    first bound U*/((1+beta^2)(1+U*)) (their difference factors with the sign of 1 - beta^2).  Then checks
    the second step and the Fig. 7 caption.
    """
    eta_r = sp.factor(sp.cancel(_fbeta_stationary_eta().subs(p, r * q)))
    if sp.cancel(eta_r - PRINTED_CASE2_LINE2) != 0:
        return Outcome("undecided", f"eta(r) = {eta_r} differs from the printed second line")
    decreasing = sp.factor(sp.diff(eta_r, r)).is_negative
    derived_bound = eta_r.subs(r, 1)
    gap = sp.factor(sp.cancel(PRINTED_CASE2_FIRST_BOUND - derived_bound))  # >= 0 iff the printed bound holds
    expected_gap = S**2 * (1 - B2) / ((1 + B2) * (1 + S) * (1 + B2 + 2 * S))
    if not (decreasing and sp.cancel(gap - expected_gap) == 0):
        return Outcome("undecided", f"eta(r) decreasing: {decreasing}; printed - derived = {gap}")
    # the corrected chain: U*/(1 + beta^2 + 2U*) <= U*/(1 + beta^2) <= U/(1 + beta^2) (U* <= U by Lemma 1)
    u_gap = sp.Symbol("g", nonnegative=True)  # U = U* + g
    second = sp.factor(sp.cancel(PRINTED_CASE2_SECOND_BOUND.subs(U, S + u_gap) - derived_bound))
    printed_second = sp.factor(sp.cancel(PRINTED_CASE2_SECOND_BOUND.subs(U, S + u_gap) - PRINTED_CASE2_FIRST_BOUND))
    if not (second.is_nonnegative and printed_second.is_nonnegative):
        return Outcome("undecided", f"second step: {second}, {printed_second}")
    # Fig. 7 caption vs the text it illustrates
    caption_minus_text = sp.factor(PRINTED_FIG7_CAPTION_LHS - PRINTED_CASE2_TEXT_LHS)
    caption_true = sp.factor(S + u_gap - PRINTED_FIG7_CAPTION_LHS).is_nonnegative
    w1, w2, witnesses_hold = _case2_exact_witnesses(eta_r)
    if not witnesses_hold:
        return Outcome("undecided", "the witnesses do not violate the printed bound")
    fails = _printed_first_bound_failures()
    # with r >= 1/tau (tau-discrepancy, f*(x) < 0) at the largest admissible tau = beta^2 U*/(1 + beta^2 + U*):
    # the printed bound fails iff U* (beta^2 - r) > (1 + beta^2)(r - 1); at U* = 1 the margin factors as below
    r_kink = (1 + B2 + S) / (B2 * S)
    margin_at_one = sp.factor(sp.cancel((S * (B2 - r_kink) - (1 + B2) * (r_kink - 1)).subs(S, 1)))
    if sp.cancel(margin_at_one - (B2 - 4) * (B2 + 1) / B2) != 0:
        return Outcome("undecided", f"kink-aware margin at U* = 1: {margin_at_one}")
    fd = _fd_stationary_eta_evidence()
    eta_fd, derived_fd, printed_fd, _, _ = fd
    if not (abs(eta_fd - derived_fd) < 1e-8 and eta_fd > printed_fd):
        return Outcome("undecided", f"finite differences: eta = {eta_fd}, derived {derived_fd}, printed {printed_fd}")
    first = _case2_first_bound_erratum(w1=w1, w2=w2, fails=fails, fd=fd)
    caption = _fig7_caption_erratum(caption_minus_text, caption_true)
    return Outcome(
        "erratum",
        "Case 2: eta = U*/((1+beta^2) r + (r+1) U*) (matches the printed second line), decreasing in r, so eta <= "
        "U*/(1+beta^2+2U*) (r >= 1; r >= 1/tau when f*(x) < 0); the printed U*/((1+beta^2)(1+U*)) is wrong for "
        "beta > 1; where the stationary equation holds at x-bar (x-bar an atom of P, f*(x-bar) < 0, phi "
        "differentiable at +-f*(x-bar); not at a kink f*(x-bar) = 0, ERRATA E12) the contradiction survives with "
        "the corrected bound (given U* <= U(f*)).",
        errata=(first, caption),
        method="symbolic; exact rational witnesses and 300 rational points; central differences with the core library",
    )


def library_counterexample(metric, coefficients, weights, eta, tau_value, base, report):
    """Evaluate an exact surrogate maximiser with the core library; return a dict of the figures.

    ``report(loss, surrogate_optimum, tau, true_utility_at_optimum)`` is the library's check of the theorem's
    hypotheses.
    """

    opt = tau_logistic_surrogate_maximiser(coefficients=coefficients, weights=weights, eta=eta, tau_value=tau_value,
                                           base=base)
    loss = tau_logistic(float(tau_value), base=float(base))
    pop = FiniteSupportPopulation(
        np.eye(len(weights)), np.array([float(w) for w in weights]), np.array([float(e) for e in eta])
    )
    scores = np.array([float(x) for x in opt.scores])
    lib_value = pop.surrogate_utility_of_scores(metric, loss, scores)
    u_star_scores = pop.utility_of_scores(metric, scores)
    bayes = pop.bayes_optimal(metric)
    # no deterministic perturbation improves U_phi (local evidence; Dinkelbach's certificate is global)
    rng = np.random.default_rng(SEED)
    scales = np.repeat([1e-4, 1e-2, 1.0], 200)[:, None]
    best = float(
        np.max(pop.surrogate_utility_of_scores(metric, loss, scores + scales * rng.normal(size=(600, len(scores)))))
    )
    # a maximising sequence: the zero atoms that the Bayes rule labels +1 approached from the positive side
    shifted = scores.copy()
    for j in opt.zero_atoms:
        if bayes.classifier[j]:
            shifted[j] = 1e-9
    return dict(
        opt=opt,
        loss=loss,
        lib_value=lib_value,
        utility=u_star_scores,
        bayes=bayes.utility,
        bayes_mask=bayes.classifier,
        perturbation_best=best,
        shifted_value=pop.surrogate_utility_of_scores(metric, loss, shifted),
        shifted_utility=pop.utility_of_scores(metric, shifted),
        hypotheses=report(loss, float(opt.value), float(tau_value), u_star_scores),
    )

def _degenerate_losses() -> tuple:
    """Two losses meeting Thm. 1's shape hypotheses (convex, non-increasing, tau-discrepant) on F_beta (Eq. (3)).

    phi = 0 makes U_phi = 1 for every f (case 2's sub-case phi'(-f*) = 0 is no contradiction); the floor loss
    max(1, 1 - t) has W_0 <= 0 with equality for xi >= 0, so U* = 0, where no tau in (0, 1) meets the hypothesis
    U* >= 2 tau/(1 - tau) at beta = 1 (Thm. 1's footnote: 'such tau always exists').  Returns (U_phi constant for
    phi = 0, U* = 0 for the floor loss, no tau at U* = 0).
    """
    # phi = 0 (convex, non-increasing, differentiable, tau-discrepant for every tau): U_phi = 1 for every f
    w0, w1, xi, eta, _ = surrogate_scores(
        a0p=1 + B2, a0n=0, a1p=1, a1n=1, b0=0, b1=B2 * sp.Symbol("pi", positive=True), phi=sp.Lambda(sp.Symbol("u"), 0)
    )
    pi_ = sp.Symbol("pi", positive=True)
    zero_loss_constant = sp.cancel(w0.subs(eta, pi_) / w1.subs(eta, pi_)) == 1 and not (w0.has(xi) or w1.has(xi))

    # the footnote "U* is non-negative and therefore such tau always exists": at U* = 0 no tau does.  The floor loss
    # max(1, 1 - t) (convex, non-increasing, differentiable a.e., tau-discrepant for every tau: phi'(0+) = 0) has
    # W_0 = (1+beta^2) eta (1 - phi(xi)) <= 0 with equality for xi >= 0, so U_phi <= 0 = U_phi(f >= 0): U* = 0
    u_ = sp.Symbol("u")
    f0, _, fxi, feta, _ = surrogate_scores(a0p=1 + B2, a0n=0, a1p=1, a1n=1, b0=0, b1=B2 * pi_,
                                           phi=sp.Lambda(u_, sp.Max(1, 1 - u_)))
    xi_pos, xi_neg = sp.Symbol("x", nonnegative=True), sp.Symbol("x", negative=True)
    eta_ = sp.Symbol("eta", nonnegative=True)
    floor_u_star_zero = (sp.simplify(f0.subs({fxi: xi_pos, feta: eta_})) == 0
                         and sp.simplify(f0.subs({fxi: xi_neg, feta: eta_})).is_nonpositive is True)
    tau_ = sp.Symbol("tau", positive=True)
    bound_at_zero = sp.simplify(((1 + B2) * tau_ / (B2 - tau_)).subs(B2, 1))
    no_tau = sp.solve_univariate_inequality(bound_at_zero <= 0, tau_, relational=False).intersect(
        sp.Interval.open(0, 1)) == sp.S.EmptySet
    return zero_loss_constant, floor_u_star_zero, no_tau


def check_theorem() -> Outcome:
    """Do Thm. 1's hypotheses imply F_beta-calibration?  Exact surrogate maximisers on finite supports.

    (i) The hypotheses force tau <= beta^2/(2+beta^2) < 1, hence, where phi'(0-) < 0, phi'(0+)/phi'(0-) <= tau < 1:
    phi has a kink at 0, and at an x with f*(x) = 0 the stationary *equation* of case 2 does not hold (only the
    one-sided
    conditions do).  (ii) Case 2 uses U_phi <= U (Lemma 1), which needs phi(t) >= 1{t <= 0}, not a hypothesis
    of Thm. 1.  For both, an exact maximiser (:func:`tau_logistic_surrogate_maximiser`) on a three-/two-atom
    distribution is evaluated with the core library.
    """

    metric = f_beta(1.0)
    (kw, ke, kt, kb), (nw, ne, nt, nb) = _witness_populations()

    def report(loss, value, t, _utility):
        return fbeta_calibration(1.0, loss, surrogate_optimum=value, tau=t)

    zero_loss_constant, floor_u_star_zero, no_tau = _degenerate_losses()
    kink = library_counterexample(metric, coefficients=F1_COEFFICIENTS, weights=kw, eta=ke, tau_value=kt, base=kb,
                                  report=report)
    nond = library_counterexample(metric, coefficients=F1_COEFFICIENTS, weights=nw, eta=ne, tau_value=nt, base=nb,
                                  report=report)
    k_opt, n_opt = kink["opt"], nond["opt"]
    ok_kink = kink_counterexample_reproduced(kink, k_opt)
    ok_nond = nondominating_counterexample_reproduced(nond, n_opt)
    thm7 = thm7_conditions(metric, kink, kt)
    if not (ok_kink and ok_nond and zero_loss_constant and floor_u_star_zero and no_tau and thm7.holds):
        return Outcome(
            "undecided", f"the counterexamples did not reproduce (kink: {ok_kink}, non-dominating: {ok_nond})"
        )
    return Outcome(
        "erratum",
        "Thm. 1's hypotheses do not imply F_beta-calibration: for a loss with phi'(0-) < 0 they force a kink at 0 "
        "(rho <= tau < 1) and f* = 0 is not excluded; "
        "the domination phi >= 1{t <= 0} used in case 2 is missing.",
        errata=(_kink_erratum(kink), _dominance_erratum(nond), _footnote_erratum()),
        method=(
            "mpmath 50 digits (Dinkelbach, exact per-atom convex minimisation); core library evaluation and 600 seeded"
            " perturbations"
        ),
    )


CLAIMS = (
    Claim(
        key="thm1_fbeta_calibration.tau_range",
        title="Thm. 1: the admissible tau range (0, beta^2/(2+beta^2)] and the largest tau given U*_phi",
        label="thm:f-measure-calibration",
        expected="verified",
        check=check_tau_range,
    ),
    Claim(
        key="thm1_fbeta_calibration.case1",
        title="Thm. 1 proof, case 1: eq:supp:f-case1-contradiction, its factorisation and inequalities (Figs. 5, 6)",
        label="eq:supp:f-case1-contradiction",
        expected="verified",
        check=check_case1,
    ),
    Claim(
        key="thm1_fbeta_calibration.case2",
        title="Thm. 1 proof, case 2: the bounds on the stationary eta and the Fig. 7 caption",
        label="eq:supp:fbeta-stationary-eta",
        expected="erratum",
        check=check_case2,
    ),
    Claim(
        key="thm1_fbeta_calibration.theorem",
        title="Thm. 1: the hypotheses imply F_beta-calibration",
        label="thm:f-measure-calibration",
        expected="erratum",
        check=check_theorem,
    ),
)
