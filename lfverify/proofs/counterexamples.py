"""Counterexamples found by the property tests (tests/), re-derived and confirmed here.

Claims checked here:

* Tab. 1 (tab:generalized-performance-metrics) presents the Gower-Legendre index with alpha >= 0 as an example
  of Definition 1, and Lemma 2 (lem:quasi-concavity) / App. B (sec:supp:quasi-concavity) then make U_hat
  quasi-concave over F-bar = {N_hat >= 0}.  For 0 < alpha < 1, a_{1,-1} = alpha - 1 < 0 and quasi-concavity
  fails (a witness at a known prior, with Eq. (6)'s constants b_k, evaluated here at 50 digits; referee round 25),
  while Lemma 1 (U_phi <= U) still holds where D_phi > 0 (a monotonicity argument checked with SymPy, and seeded
  random cases evaluated with the core library) and fails where D_phi < 0 (an exact one-atom witness).
* Thms. 1 and 2 (thm:f-measure-calibration, thm:jaccard-calibration) with Definition 1's reading of U at
  f(x) = 0, TP = E_X[l(-f(X)) eta(X)] (a score 0 counted as a positive prediction): the surrogate maximiser can
  sit at the kink f*(x) = 0 on an atom *below* the Bayes threshold, so approaching f* from above does not reach
  U-dagger even where sgn(0) = -1 happens to give a Bayes-optimal classifier
  (tests/proofs/test_calibration_properties.py).

Every figure is recomputed by the checks: the surrogate maximiser by Dinkelbach's method at 50 digits
(:func:`.thm1_fbeta_calibration.tau_logistic_surrogate_maximiser`), the one-sided optimality conditions at the
kink in mpmath, every true utility in exact rational arithmetic (fractions.Fraction; U-dagger by brute force over
all 2^J classifiers), and the hypotheses / values with the core library (:mod:`lfverify.core`: populations, metrics,
losses, calibration conditions, U_hat).  The output is deterministic (fixed seeds, fixed
numbers of significant digits).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath as mp
import numpy as np
import sympy as sp

from lfverify.core import (
    DEFAULT_SEED,
    EmpiricalSurrogateUtility,
    FiniteSupportPopulation,
    f_beta,
    fbeta_calibration,
    general_calibration,
    gower_legendre,
    jaccard,
    jaccard_calibration,
    tau_logistic,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._corrected_statements import FBETA, JACCARD
from lfverify.proofs._exact_numbers import exact_mpf
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp
from lfverify.proofs.thm1_fbeta_calibration import tau_logistic_surrogate_maximiser

__all__ = ["CLAIMS"]

F = Fraction
SEED = DEFAULT_SEED
DPS = 50

# (a0p, a0n, a1p, a1n, b0_const, b0_prior, b1_const, b1_prior), b_k = const + prior pi (Table 1)
F1_COEFFICIENTS = tuple(F(v) for v in (2, 0, 1, 1, 0, 0, 0, 1))  # F_1 = 2 TP / (TP + FP + pi)
JACCARD_COEFFICIENTS = tuple(F(v) for v in (1, 0, 0, 1, 0, 0, 0, 1))  # TP / (FP + pi)


def gower_legendre_coefficients(alpha):
    """Tab. 1: (TP + TN) / (TP + alpha (FP + FN) + TN): a0 = (1, -1), b0 = 1 - pi, a1 = (1 - alpha, alpha - 1),
    b1 = 1 + (alpha - 1) pi.  ``alpha`` may be a Fraction or a SymPy expression."""
    one = F(1) if isinstance(alpha, (int, F)) else sp.Integer(1)
    return (one, -one, 1 - alpha, alpha - 1, one, -one, one, alpha - 1)


# ---- witnesses (tests/proofs/test_necessity.py, tests/proofs/test_calibration_properties.py) ----------------------
# Gower-Legendre(1/2), tau-logistic(1/2): the first hit of test_gower_legendre_alpha_below_one_needs_a1n_for_lemma2
# (samples (x, y), theta_1, theta_2, and the grid point k/40 of the segment).
GL_ALPHA = F(1, 2)
GL_TAU = F(1, 2)
# Lemma 2's witness with Eq. (6)'s constants b_0 = 1 - pi, b_1 = 1 + (alpha - 1) pi at a known prior (referee round 25;
# the earlier witness used lfverify's per-sample b_k = c_k + d_k 1{y = +1}, which is not Eq. (6) at one pi)
GL_PI = F(3, 4)
GL_X = ((F(0), F(-1)), (F(-1), F(1)), (F(1), F(1)))
GL_Y = (1, -1, -1)
GL_THETA1 = (F(3), F(-5, 2))
GL_THETA2 = (F(-3), F(-2))
GL_K = F(1, 2)
LEMMA1_CASES = 300

# f = 0 counted positive: (weights, eta, tau) for F_1 and Jaccard, and the 'theorem' entries' own witnesses
THM1_PLUS_WITNESS = ((F(1, 10), F(9, 10)), (F(19, 20), F(1, 20)), F(1, 20))
THM2_PLUS_WITNESS = ((F(1, 10), F(9, 10)), (F(19, 20), F(1, 5)), F(1, 20))
THM1_THEOREM_WITNESS = ((F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 20))
THM2_THEOREM_WITNESS = ((F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 10))
SHIFT = 1e-12  # f* + SHIFT: a maximising sequence approaching f* from above, evaluated with the core library


# ------------------------------------------------------------------------------------------------ helpers
def _nstr(x, digits=12) -> str:
    return mp.nstr(mp.mpf(x), digits)


def _score(x) -> str:
    return "0" if x == 0 else mp.nstr(x, 10)


def _tuple(values) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _exact_utility(coef, weights, eta, positive) -> Fraction:
    """U of the classifier predicting +1 exactly on the atoms with ``positive[j]`` (exact rationals)."""
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = coef
    prior = sum(w * e for w, e in zip(weights, eta))
    tp = sum(w * e for w, e, p in zip(weights, eta, positive) if p)
    fp = sum(w * (1 - e) for w, e, p in zip(weights, eta, positive) if p)
    num = a0p * tp + a0n * fp + c0 + d0 * prior
    den = a1p * tp + a1n * fp + c1 + d1 * prior
    if den == 0:  # 0/0 (nothing predicted): 0, as lfverify's brute-force oracle
        if num == 0:
            return F(0)
        raise ZeroDivisionError("U has a zero denominator and a non-zero numerator")
    return num / den


def _exact_bayes(coef, weights, eta):
    """(U-dagger, optimal masks) by brute force over all 2^J classifiers, exact rationals."""
    values = {m: _exact_utility(coef, weights, eta, m) for m in itertools.product((False, True), repeat=len(weights))}
    best = max(values.values())
    return best, sorted(m for m, v in values.items() if v == best)


def _bayes_threshold(coef, utility) -> Fraction:
    """Prop. 5: delta(U) = (a1n U - a0n) / (Da0 - Da1 U) (the Bayes rule predicts +1 where eta > delta)."""
    a0p, a0n, a1p, a1n = coef[:4]
    slope = (a0p - a0n) - (a1p - a1n) * utility
    if slope <= 0:
        raise ValueError("Prop. 5's threshold form needs Da0 - Da1 U > 0")
    return (a1n * utility - a0n) / slope


# ======================================================================= Gower-Legendre with 0 < alpha < 1
def _empirical_mp(coef, phi, X, y, theta, prior=None):
    """(N_hat, D_hat) of Eq. (6) from the per-sample definitions: S_0 = the first floor(n/2) samples, S_1 = the
    rest; b_k = c_k + d_k pi with a known ``prior`` (Eq. (6)'s constants), or, without one, per sample as
    c_k + d_k 1{y = +1} (lfverify's default, unbiased for b_k(pi))."""
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (exact_mpf(v) for v in coef)
    m = len(X) // 2

    def scores(x, label):
        xi = sum(exact_mpf(t) * exact_mpf(v) for t, v in zip(theta, x))
        pi = (1 if label == 1 else 0) if prior is None else exact_mpf(prior)
        b0, b1 = c0 + d0 * pi, c1 + d1 * pi
        if label == 1:
            return a0p * (1 - phi(xi)) + b0, a1p * (1 + phi(xi)) + b1
        return a0n * phi(-xi) + b0, a1n * phi(-xi) + b1

    num = sum(scores(X[i], y[i])[0] for i in range(m)) / m
    den = sum(scores(X[j], y[j])[1] for j in range(m, len(X))) / (len(X) - m)
    return num, den


def _lemma1_random_cases(count, seed):
    """max (U_phi - U) over ``count`` seeded random finite-support cases of Gower-Legendre(alpha), tau-logistic(tau),
    alpha, tau in (0, 1), evaluated with the core library (cases with D_phi <= 0, where U_phi is undefined and
    the library refuses it, are skipped)."""

    rng = random.Random(seed)
    worst, done, skipped = -np.inf, 0, 0
    while done < count:
        J = rng.randint(1, 5)
        w = [rng.randint(1, 20) for _ in range(J)]
        eta = [rng.randint(1, 999) / 1000 for _ in range(J)]
        alpha, tau_value = rng.randint(1, 99) / 100, rng.randint(1, 99) / 100
        scores = np.array([rng.randint(-40, 40) / 8 for _ in range(J)])
        pop = FiniteSupportPopulation(np.eye(J), np.array(w, dtype=float) / sum(w), np.array(eta))
        metric, loss = gower_legendre(alpha), tau_logistic(tau_value)
        try:
            u_phi = pop.surrogate_utility_of_scores(metric, loss, scores)
        except ValueError:  # D_phi <= 0: U_phi undefined
            skipped += 1
            continue
        worst = max(worst, u_phi - pop.utility_of_scores(metric, scores, zero_division=0.0))
        done += 1
    return float(worst), skipped


def _gower_legendre_app_b_term():
    """App. B's argument (sec:supp:quasi-concavity) for Gower-Legendre with 0 < alpha < 1 (Tab. 1): the S_1 score of a
    negative sample, W~_1(xi, -1) = a_{1,-1} phi(-xi) + b_1, is concave for convex phi, so N_hat - alpha' D_hat gains
    the convex term alpha' (1 - alpha) phi(-xi).  Returns (concave, the added term matches)."""
    alpha, xi, alpha_p = sp.symbols("alpha xi alpha'", real=True)
    phi = sp.Function("phi")
    gl = gower_legendre_coefficients(alpha)  # symbolic Table 1 row
    w1_negative = gl[3] * phi(-xi) + gl[6]  # per negative sample: a_{1,-1} phi(-xi) + c_1
    # d^2/dxi^2 W~_1(xi, -1) = (alpha - 1) phi''(-xi): concave for convex phi when alpha < 1
    concave = sp.simplify(sp.diff(w1_negative, xi, 2) - (alpha - 1) * sp.diff(phi(-xi), xi, 2)) == 0
    added = sp.expand(-alpha_p * w1_negative + alpha_p)  # the phi-term of -alpha' D_hat from that sample
    added_matches = sp.simplify(added - alpha_p * (1 - alpha) * phi(-xi)) == 0
    return concave, added_matches


def _gower_legendre_witness():
    """The witness against Lemma 2 (lem:quasi-concavity) for Gower-Legendre(GL_ALPHA): U_hat of Eq. (6) at 50 digits
    at both ends of a segment in F-bar and at a point between them, the same with the core library (and with
    alpha = 1, where Lemma 2 holds), and the library's admissibility violations of the metric.  Returns (all three
    in F-bar, the three values, the dip, the library's values, whether they agree, alpha = 1's values, violations)."""
    coef = gower_legendre_coefficients(GL_ALPHA)
    point = tuple(a + (b - a) * GL_K for a, b in zip(GL_THETA1, GL_THETA2))
    thetas = (GL_THETA1, GL_THETA2, point)
    with mp.workdps(DPS):
        phi_mp = tau_logistic_mp(GL_TAU)
        nd = [_empirical_mp(coef, phi_mp, GL_X, GL_Y, theta=t, prior=GL_PI) for t in thetas]
        in_fbar = all(n >= 0 and d > 0 for n, d in nd)
        values = [n / d for n, d in nd]
        dip = min(values[0], values[1]) - values[2]
    est = EmpiricalSurrogateUtility(gower_legendre(float(GL_ALPHA)), tau_logistic(float(GL_TAU)),
                                    np.array(GL_X, dtype=float), np.array(GL_Y), prior=float(GL_PI))
    lib = [float(est.value(np.array([float(v) for v in t]))) for t in thetas]
    lib_agrees = all(abs(a - float(b)) <= 1e-12 * abs(float(b)) for a, b in zip(lib, values))
    accuracy_est = EmpiricalSurrogateUtility(gower_legendre(1.0), tau_logistic(float(GL_TAU)),
                                             np.array(GL_X, dtype=float), np.array(GL_Y), prior=float(GL_PI))
    acc = [float(accuracy_est.value(np.array([float(v) for v in t]))) for t in thetas]
    violations = gower_legendre(float(GL_ALPHA)).admissibility().violations
    return in_fbar, values, dip, lib, lib_agrees, acc, violations


def _gower_legendre_lemma1():
    """Lemma 1 (U_phi <= U, lem:utility-lower-bound) for Gower-Legendre with 0 < alpha < 1: U = h(S) with S = TP - FP,
    c = 1 - alpha, h increasing; Eq. (3)'s N_phi and D_phi in terms of S_phi; and N_phi < 0 where D_0 <= 0.
    Returns (h'(S), h' > 0, the N_phi identity, the D_phi identity, the negative numerator)."""
    S, c, pi_ = sp.symbols("S c pi", real=True)
    S_phi = sp.Symbol("S_phi", real=True)
    h = (1 - pi_ + S) / (1 - c * pi_ + c * S)
    dh = sp.factor(sp.diff(h, S))
    dh_positive = sp.simplify(dh * (1 - c * pi_ + c * S) ** 2 - (1 - c)) == 0  # = (1 - c)/(...)^2, 1 - c = alpha > 0
    # one atom suffices for the identities (they are linear in the atoms): scores W_{0,phi}, W_{1,phi} of Eq. (3)
    eta_, p_, q_ = sp.symbols("eta phi_f phi_mf", real=True)  # phi(f), phi(-f)
    a0p, a0n, a1p, a1n, c0, dd0, c1, d1 = gower_legendre_coefficients(1 - c)
    tp_phi, fp_phi = (1 - p_) * eta_, q_ * (1 - eta_)
    n_phi = a0p * (1 - p_) * eta_ + a0n * q_ * (1 - eta_) + c0 + dd0 * pi_
    d_phi = a1p * (1 + p_) * eta_ + a1n * q_ * (1 - eta_) + c1 + d1 * pi_
    n_identity = sp.expand(n_phi - (1 - pi_ + (tp_phi - fp_phi))) == 0
    d_identity = sp.expand(d_phi - (1 - c * pi_ + c * (tp_phi - fp_phi) + 2 * c * eta_ * p_)) == 0
    # if D_0 = 1 - c pi + c S_phi <= 0 then N_phi = 1 - pi + S_phi = D_0 / c - (1 - c)/c < 0 (0 < c < 1)
    negative_numerator = sp.simplify((1 - pi_ + S_phi) - ((1 - c * pi_ + c * S_phi) / c - (1 - c) / c)) == 0
    # where D_phi < 0 as well the ratio N_phi / D_phi is positive and the bound can fail (referee round 24): the
    # hinge loss (>= 1{t <= 0}), alpha = 1/2, one atom eta = 1/10 (pi = eta), f = 2: phi(f) = 0, phi(-f) = 3
    at = {c: sp.Rational(1, 2), pi_: sp.Rational(1, 10), eta_: sp.Rational(1, 10), p_: 0, q_: 3}
    n_w, d_w = n_phi.subs(at), d_phi.subs(at)
    tp, fp = sp.Rational(1, 10), sp.Rational(9, 10)  # f > 0 on the atom: TP = eta, FP = 1 - eta, TN = FN = 0
    u_w = tp / (tp + (1 - at[c]) * fp)  # (TP + TN) / (TP + alpha (FP + FN) + TN)
    negative_denominator = (n_w, d_w, n_w / d_w, u_w)
    return dh, dh_positive, n_identity, d_identity, negative_numerator, negative_denominator


def check_gower_legendre_below_one() -> Outcome:
    """Gower-Legendre with 0 < alpha < 1: Lemma 2's quasi-concavity fails (50-digit witness), Lemma 1 holds."""
    concave, added_matches = _gower_legendre_app_b_term()
    in_fbar, values, dip, lib, lib_agrees, acc, violations = _gower_legendre_witness()
    dh, dh_positive, n_identity, d_identity, negative_numerator, below = _gower_legendre_lemma1()
    worst, skipped = _lemma1_random_cases(LEMMA1_CASES, SEED)
    n_w, d_w, u_phi_w, u_w = below

    ok = (added_matches and concave and in_fbar and dip > 0 and lib_agrees and violations == ["a_{1,-1} >= 0"]
          and min(acc[0], acc[1]) <= acc[2] + 1e-12 and dh_positive and n_identity and d_identity
          and negative_numerator and worst < 0 and d_w < 0 and u_phi_w > u_w)
    if not ok:
        return Outcome("undecided", f"Gower-Legendre(1/2) did not reproduce: W1 term {added_matches}, concave "
                                    f"{concave}, F-bar {in_fbar}, dip {_nstr(dip)}, library {lib_agrees}, "
                                    f"violations {violations}, Lemma 1 {dh_positive, n_identity, d_identity, worst}")
    samples = "; ".join(f"({_tuple(x)}, {'+1' if label == 1 else '-1'})" for x, label in zip(GL_X, GL_Y))
    erratum = Erratum(
        location=("Tab. 1 (tab:generalized-performance-metrics), Gower-Legendre with 0 < alpha < 1, and Lemma 2 "
                  "(lem:quasi-concavity) / App. B (sec:supp:quasi-concavity)"),
        printed=("Gower-Legendre (alpha >= 0) is an example of Definition 1; Lemma 2: for convex phi, U_hat is "
                 "quasi-concave over F-bar = {N_hat >= 0}"),
        derived=("for 0 < alpha < 1, a_{1,-1} = alpha - 1 < 0: W~_1(xi, -1) = (alpha - 1) phi(-xi) + 1 is concave, "
                 "so App. B's N_hat - alpha' D_hat gains the convex term alpha' (1 - alpha) phi(-xi) on negative "
                 "samples of S_1 and U_hat is not quasi-concave over F-bar.  Lemma 1 (U_phi <= U, phi >= 1{t <= 0}) "
                 "still holds for 0 < alpha < 1 at every f with D_phi(f) > 0: with S = TP - FP, c = 1 - alpha, "
                 f"U = h(S) = (1 - pi + S) / (1 - c pi + c S), h'(S) = {dh} > 0, S_phi <= S, and D_phi = 1 - c pi "
                 "+ c S_phi + 2c E[eta phi(f)] only adds a non-negative term (if 1 - c pi + c S_phi <= 0 then "
                 "N_phi < 0, so U_phi < 0 <= U where D_phi > 0)"),
        consequence=("ERRATA's Tab. 1 entry says Lemmas 1 and 2 'do not apply' for alpha != 1; in fact, for "
                     "0 < alpha < 1 Lemma 2's quasi-concavity is false (Algorithm 1's second phase loses its "
                     "guarantee) while Lemma 1's bound holds at every f with D_phi(f) > 0 and fails where D_phi(f) "
                     f"< 0 (hinge, alpha = 1/2, one atom eta = 1/10, f = 2: N_phi = {n_w}, D_phi = {d_w}, U_phi = "
                     f"{u_phi_w} > U = {u_w}); for alpha > 1 it is false even with D_phi > 0 (the Tab. 1 entry's "
                     "witness, alpha = 2)."),
        witness=(f"Gower-Legendre({GL_ALPHA}), tau-logistic({GL_TAU}), pi = {GL_PI} known (Eq. (6)'s constants b_0 "
                 f"= 1 - pi, b_1 = 1 + (alpha - 1) pi), n = {len(GL_X)} samples (x, y): {samples}; "
                 f"S_0 = the first {_WORDS.get(len(GL_X) // 2, len(GL_X) // 2)}; theta_1 = {_tuple(GL_THETA1)}, "
                 f"theta_2 = {_tuple(GL_THETA2)} and the point {GL_K} of the way: N_hat >= 0, D_hat > 0 at all "
                 f"three, U_hat = {_nstr(values[0])}, {_nstr(values[1])} at the ends and {_nstr(values[2])} in "
                 f"between ({_nstr(dip, 6)} below both)"),
        evidence=(f"mpmath {DPS} digits from Eq. (6) per sample; lfverify's EmpiricalSurrogateUtility gives "
                  f"{lib[0]:.12g}, {lib[1]:.12g}, {lib[2]:.12g}; admissibility of gower_legendre({float(GL_ALPHA)}) "
                  f"reports exactly {violations}; Lemma 1: SymPy derivative of h, and max (U_phi - U) = "
                  f"{worst:.3g} < 0 over {LEMMA1_CASES} seeded random finite-support cases with D_phi > 0 (alpha, "
                  f"tau in (0, 1), core library; {skipped} drawn cases with D_phi <= 0 skipped: the library refuses "
                  "them); the D_phi < 0 witness in exact rationals from Eq. (3)"),
    )
    return Outcome(
        "erratum",
        f"Gower-Legendre({GL_ALPHA}): U_hat dips {_nstr(dip, 6)} below both ends of a segment in F-bar (Lemma 2's "
        "quasi-concavity fails: a_{1,-1} < 0), while Lemma 1 (U_phi <= U) still holds for 0 < alpha < 1 at every f "
        "with D_phi(f) > 0 (not where D_phi(f) < 0).",
        errata=(erratum,),
        method=(f"symbolic; mpmath {DPS} digits from Eq. (6); core library ({LEMMA1_CASES} seeded random cases)"),
    )


# ======================================================================= f = 0 counted positive (Thms. 1, 2)
def _signs(opt):
    return tuple(0 if j in opt.zero_atoms else (1 if x > 0 else -1) for j, x in enumerate(opt.scores))


def _exact_analysis(coef, weights, eta, tau_value):
    """The 50-digit maximiser and every exact utility of its completions."""
    opt = tau_logistic_surrogate_maximiser(coef, weights, eta, tau_value, base=2, dps=DPS)
    signs = _signs(opt)
    u_dagger, optimal = _exact_bayes(coef, weights, eta)
    delta = _bayes_threshold(coef, u_dagger)
    bayes = tuple(e > delta for e in eta)
    kink = [j for j, s in enumerate(signs) if s == 0]
    sign_mask = tuple(s > 0 for s in signs)  # sgn(f*), sgn(0) = -1
    plus_mask = tuple(s >= 0 for s in signs)  # f* + 0: Definition 1's l(-f*), 0 counted positive
    bayes_completion = tuple(bayes[j] if s == 0 else s > 0 for j, s in enumerate(signs))
    return dict(
        opt=opt, signs=signs, kink=kink, u_dagger=u_dagger, optimal=optimal, delta=delta, bayes=bayes,
        sign=_exact_utility(coef, weights, eta, sign_mask),
        plus=_exact_utility(coef, weights, eta, plus_mask),
        bayes_completion=_exact_utility(coef, weights, eta, bayes_completion),
        nonkink_agree=all(s == 0 or (s > 0) == b for s, b in zip(signs, bayes)),
    )


def _one_sided(coef, e, u, tau_value):
    """At the atom's Dinkelbach objective g = A phi(xi) + B phi(-xi) (Eq. (3); A = (a0p + u a1p) eta,
    B = (u a1n - a0n)(1 - eta)): the decisive margins (tau A - B)/(A + B), (tau B - A)/(A + B) and the one-sided
    derivatives g'(0-), g'(0+) by numerical one-sided differentiation (mpmath.diff) of the loss formula."""
    with mp.workdps(DPS):
        a0p, a0n, a1p, a1n = (exact_mpf(v) for v in coef[:4])
        t, e = exact_mpf(tau_value), exact_mpf(e)
        A, B = (a0p + u * a1p) * e, (u * a1n - a0n) * (1 - e)
        phi = tau_logistic_mp(tau_value)

        def g(z):
            return A * phi(z) + B * phi(-z)

        left, right = mp.diff(g, 0, direction=-1), mp.diff(g, 0, direction=1)
        return (t * A - B) / (A + B), (t * B - A) / (A + B), left, right


def _zero_counted_positive(theorem, coef, metric, witness, theorem_witness, report):
    """Shared body of the two checks; returns (Outcome-or-None, figures)."""

    weights, eta, tau_value = witness
    ex = _exact_analysis(coef, weights, eta, tau_value)
    opt = ex["opt"]
    margins = {j: _one_sided(coef, eta[j], opt.value, tau_value) for j in ex["kink"]}
    # the core library
    loss = tau_logistic(float(tau_value))
    pop = FiniteSupportPopulation(np.eye(len(weights)), np.array([float(w) for w in weights]),
                                  np.array([float(e) for e in eta]))
    scores = np.array([float(x) for x in opt.scores])
    lib = dict(
        value=pop.surrogate_utility_of_scores(metric, loss, scores),
        shifted_value=pop.surrogate_utility_of_scores(metric, loss, scores + SHIFT),
        shifted_utility=pop.utility_of_scores(metric, scores + SHIFT),
        utility=pop.utility_of_scores(metric, scores),
        bayes=pop.bayes_optimal(metric).utility,
        reference_bayes=pop._reference_bayes_optimal(metric),
    )
    hypotheses = report(loss, float(opt.value), float(tau_value))
    thm7 = general_calibration(metric, loss, surrogate_optimum=float(opt.value),
                               true_utility_at_optimum=float(ex["plus"]), tau=float(tau_value))
    # the 'theorem' entry's own witness: approach both kink atoms from above
    tw, te, tt = theorem_witness
    th = _exact_analysis(coef, tw, te, tt)
    ok = (
        hypotheses.holds and thm7.holds and loss.dominates_zero_one
        and len(ex["kink"]) == 1 and not ex["bayes"][ex["kink"][0]]  # the kink atom is Bayes-NEGATIVE
        and ex["sign"] == ex["u_dagger"] and ex["plus"] < ex["u_dagger"]
        and ex["nonkink_agree"] and ex["bayes_completion"] == ex["u_dagger"]
        and all(r < 0 and s < 0 and left < 0 < right for r, s, left, right in margins.values())
        and abs(lib["value"] - float(opt.value)) <= 1e-12 and abs(lib["shifted_value"] - float(opt.value)) <= 1e-9
        and abs(lib["shifted_utility"] - float(ex["plus"])) <= 1e-12
        and abs(lib["utility"] - float(ex["sign"])) <= 1e-12
        and abs(lib["bayes"] - float(ex["u_dagger"])) <= 1e-12 and lib["bayes"] == lib["reference_bayes"]
        and len(th["kink"]) == 2 and th["plus"] < th["u_dagger"] and th["sign"] < th["u_dagger"]
        and th["bayes_completion"] == th["u_dagger"] and th["nonkink_agree"]
        and sum(th["bayes"][j] for j in th["kink"]) == 1
    )
    if not ok:
        return Outcome("undecided", f"{theorem}: the f* + 0 counterexample did not reproduce (hypotheses "
                                    f"{hypotheses.holds}, Thm. 7 {thm7.holds}, signs {ex['signs']}, U-dagger "
                                    f"{ex['u_dagger']}, U(sgn f*) {ex['sign']}, U(f* + 0) {ex['plus']}, library {lib}, "
                                    f"'theorem' witness {th['signs']} {th['plus']} {th['u_dagger']})"), None
    return None, dict(ex=ex, margins=margins, lib=lib, th=th)


def _survives(theorem: str) -> str:
    """The weak form of the corrected theorem (Thm. 1 or 2), quoted from its statement."""
    statement = {"Thm. 1": FBETA, "Thm. 2": JACCARD}[theorem]
    return f"{statement.summary(('weak_form',))} (`{statement.key}`)"


def _erratum(theorem, label_metric, metric_name, bound_text, witness, fig):
    ex, lib, th = fig["ex"], fig["lib"], fig["th"]
    weights, eta, tau_value = witness
    opt = ex["opt"]
    j = ex["kink"][0]
    ratio_ab, ratio_ba, left, right = fig["margins"][j]
    tw, te, _ = (THM1_THEOREM_WITNESS if theorem == "Thm. 1" else THM2_THEOREM_WITNESS)
    common_derived = (
        "the surrogate maximiser also sits at the kink f*(x) = 0 on atoms with eta BELOW the Bayes threshold (the "
        "kink band of the one-sided optimality conditions extends on both sides of it), which l(-f*) counts as "
        "positive: reading U at f = 0 as Definition 1 does (l(-0) = 1) instead of sgn(0) = -1 does not repair the "
        "theorem, and every maximising sequence approaching f* from above (f* + 1/l) has U -> U(f* + 0) < U-dagger"
    )
    scores = ", ".join(_score(x) for x in opt.scores)
    return Erratum(
        location=(f"{theorem} ({label_metric}) with Definition 1 (def:metric): U(f) through l(-f(X)) = 1{{f(X) >= 0}}, "
                  "i.e. a score f(x) = 0 counted as a positive prediction"),
        printed=(f"under the hypotheses of {theorem}, U_phi is U-calibrated; Definition 1 (and Sec. 2's TP = "
                 "E_X[l(-f(X)) eta(X)]) count f(x) = 0 as a positive prediction"),
        derived=common_derived,
        consequence=(
            f"{theorem} is false under both conventions for f = 0 (sgn(0) = -1: the 'theorem' entry of this theorem; "
            "l(-0) = 1: here), and so is Thm. 7 for this metric.  On this witness sgn(0) = -1 happens to give a "
            "Bayes-optimal classifier, yet calibration fails, since it quantifies over all maximising sequences.  "
            f"On the 'theorem' entry's own witness (weights {_tuple(tw)}, eta = {_tuple(te)}) both kink atoms "
            f"approached from above give U = {th['plus']} < U-dagger = {th['u_dagger']}: only the Bayes-positive "
            "kink atom may be approached from above.  What survives is the weak form of the corrected theorem: "
            + _survives(theorem)
        ),
        witness=(
            f"{metric_name}, tau-logistic(tau = {tau_value}) (base 2, dominates the 0/1 loss), weights "
            f"{_tuple(weights)}, eta = {_tuple(eta)}: U*_phi = {_nstr(opt.value)} >= {bound_text}, f* = ({scores}); "
            f"U-dagger = {ex['u_dagger']} = U(sgn f*) (sgn(0) = -1), but with l(-f*) (atom {j}, eta = {eta[j]}, "
            f"counted positive) U = {ex['plus']} < U-dagger"
        ),
        evidence=(
            f"Dinkelbach at {DPS} digits (tau_logistic_surrogate_maximiser); at the eta = {eta[j]} atom the "
            "one-sided derivatives of the atom's convex objective g = A phi(xi) + B phi(-xi) at 0 have opposite "
            f"signs: g'(0-) = {_nstr(left, 6)} < 0 < g'(0+) = {_nstr(right, 6)} (equivalently (tau A - B)/(A + B) "
            f"= {_nstr(ratio_ab, 6)} and (tau B - A)/(A + B) = {_nstr(ratio_ba, 6)} are both < 0: they are "
            "-g'(0+) and g'(0-) over |phi'(0-)| (A + B)); utilities exact (brute force over all 2^J classifiers); core "
            f"library: U_phi(f*) = {lib['value']:.12g}, U_phi(f* + {SHIFT:g}) = {lib['shifted_value']:.12g}, "
            f"U(f* + {SHIFT:g}) = {lib['shifted_utility']:.12g}, U-dagger = {lib['bayes']:.12g}; lfverify.core's "
            "calibration "
            f"conditions report the hypotheses of {theorem} and conditions (1)-(6), (a)-(c) of Thm. 7 (at U(f*) = U(f* "
            "+ 0)) "
            "as holding"
        ),
    )


METHOD_PLUS = (f"mpmath {DPS} digits (Dinkelbach, one-sided derivatives at the kink); exact rational utilities "
               "(brute force over all 2^J classifiers); core library")


def check_thm1_zero_counted_positive() -> Outcome:
    """Thm. 1 with l(-f) (f = 0 counted positive): a hypotheses-holding F_1 population where sgn(f*) is
    Bayes-optimal but f* + 0 is not."""

    def report(loss, value, t):
        return fbeta_calibration(1.0, loss, surrogate_optimum=value, tau=t)

    failed, fig = _zero_counted_positive("Thm. 1", coef=F1_COEFFICIENTS, metric=f_beta(1.0), witness=THM1_PLUS_WITNESS,
                                         theorem_witness=THM1_THEOREM_WITNESS, report=report)
    if failed:
        return failed
    t = THM1_PLUS_WITNESS[2]
    bound = 2 * t / (1 - t)  # (1 + beta^2) tau / (beta^2 - tau), beta = 1
    erratum = _erratum("Thm. 1", label_metric="thm:f-measure-calibration", metric_name="F_1",
                       bound_text=f"2 tau / (1 - tau) = {bound}", witness=THM1_PLUS_WITNESS, fig=fig)
    ex = fig["ex"]
    return Outcome(
        "erratum",
        f"F_1: the hypotheses of Thm. 1 hold and U(sgn f*) = U-dagger = {ex['u_dagger']}, but f* sits at the kink on "
        f"a Bayes-negative atom, so f* + 0 (Definition 1's l(-f)) has U = {ex['plus']} < U-dagger.",
        errata=(erratum,),
        method=METHOD_PLUS,
    )


def check_thm2_zero_counted_positive() -> Outcome:
    """Thm. 2 with l(-f) (f = 0 counted positive): a hypotheses-holding Jaccard population where sgn(f*) is
    Bayes-optimal but f* + 0 is not."""

    def report(loss, value, t):
        return jaccard_calibration(loss, surrogate_optimum=value, tau=t)

    failed, fig = _zero_counted_positive("Thm. 2", coef=JACCARD_COEFFICIENTS, metric=jaccard(),
                                         witness=THM2_PLUS_WITNESS, theorem_witness=THM2_THEOREM_WITNESS, report=report)
    if failed:
        return failed
    erratum = _erratum("Thm. 2", label_metric="thm:jaccard-calibration", metric_name="Jaccard",
                       bound_text=f"tau = {THM2_PLUS_WITNESS[2]}", witness=THM2_PLUS_WITNESS, fig=fig)
    ex = fig["ex"]
    return Outcome(
        "erratum",
        f"Jaccard: the hypotheses of Thm. 2 hold and U(sgn f*) = U-dagger = {ex['u_dagger']}, but f* sits at the "
        f"kink on a Bayes-negative atom, so f* + 0 (Definition 1's l(-f)) has U = {ex['plus']} < U-dagger.",
        errata=(erratum,),
        method=METHOD_PLUS,
    )


CLAIMS = (
    Claim(
        key="counterexamples.gower_legendre_below_one",
        title="Tab. 1 / Lemma 2: U_hat is quasi-concave over F-bar for Gower-Legendre with 0 < alpha < 1",
        label="lem:quasi-concavity",
        expected="erratum",
        check=check_gower_legendre_below_one,
    ),
    Claim(
        key="counterexamples.thm1_zero_counted_positive",
        title=("Thm. 1 with Definition 1's l(-f) (f = 0 counted positive): the hypotheses imply "
               "F_beta-calibration"),
        label="thm:f-measure-calibration",
        expected="erratum",
        check=check_thm1_zero_counted_positive,
    ),
    Claim(
        key="counterexamples.thm2_zero_counted_positive",
        title=("Thm. 2 with Definition 1's l(-f) (f = 0 counted positive): the hypotheses imply "
               "Jaccard-calibration"),
        label="thm:jaccard-calibration",
        expected="erratum",
        check=check_thm2_zero_counted_positive,
    ),
)
