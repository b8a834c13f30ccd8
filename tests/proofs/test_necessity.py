"""Necessity of the paper's assumptions: drop one, and a search MUST find a violation of the claim it supports.

For each assumption there is a searching test (a deterministic, seeded search; it fails if it finds nothing,
and every hit is confirmed in exact or mpmath arithmetic) and a pinned test asserting the first hit (or a
hand-picked simpler witness) with an independent oracle, so the suite stays deterministic.  Where it is cheap,
the same search with the assumption restored finds nothing (the search can tell the two apart).

=============================================  ====================================================
assumption dropped                             claim violated
=============================================  ====================================================
phi >= 1{t <= 0} (Lemma 1)                     U_phi(f) <= U(f)
phi convex (Lemma 2)                           N_hat concave; U_hat quasi-concave on {N_hat >= 0}
a_{0,+1} > 0 (Definition 1)                    Lemma 1 (metric U = FN = pi - TP)
a_{0,-1} <= 0                                  Lemma 1 (metric U = TP + FP)
a_{1,+1} >= 0                                  Lemma 1 (Gower-Legendre, alpha > 1)
a_{1,-1} >= 0                                  Lemma 1 (metric U = TP / (1 - FP)); Lemma 2's
                                               quasi-concavity (Gower-Legendre, alpha < 1, for which
                                               Lemma 1 itself still holds)
tau-discrepancy (Thms. 1, 2)                   calibration (plain logistic loss, tau = 1)
S_0 independent of S_1 (Lemma 3)               E_S[V_hat] = V_phi
=============================================  ====================================================

Oracles: exact rational arithmetic (U of a classifier, U-dagger by brute force over all 2^J classifiers, the
Lemma 3 expectations by exact enumeration of all samples with a rational loss), mpmath at 40-50 digits (U_phi,
N_hat, U_hat from the definitions Eq. (3), (4), (6); the surrogate maximiser of calibration_search).
lfverify is the code under test.  Not repeated here: test_empirical.py's float check of the same-sample bias,
lfverify/proofs (the symbolic Lemmas 1-3 and Table 1's Gower-Legendre erratum,
table1.gower_legendre_definition1).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from corrected_statement_check import assert_corrected_statement_agrees
from hypothesis import assume, given
from hypothesis import strategies as st

from calibration_search import (
    JACCARD,
    Coefficients,
    ExactPopulation,
    analyse,
    exact_utility,
    fbeta_coefficients,
    maximise_surrogate,
    mpf,
    random_population,
    surrogate_utility_mp,
    tau_logistic_mp,
)
from lfverify.core import (
    EmpiricalSurrogateUtility,
    FiniteSupportPopulation,
    LinearFractionalMetric,
    SampleSplit,
    f1,
    f_beta,
    gower_legendre,
    jaccard,
    logistic,
    reference_gradient_direction,
    sigmoid,
    squared_hinge,
    tau_logistic,
)

F = Fraction
MARGIN = 1e-9  # a violation must exceed float rounding (~1e-15) by far; each hit is then confirmed exactly

ADMISSIBLE = {"F_1": (fbeta_coefficients(1), f1()), "F_2": (fbeta_coefficients(4), f_beta(2.0)),
              "Jaccard": (JACCARD, jaccard())}


def _gl_coefficients(alpha) -> Coefficients:
    """Gower-Legendre (TP + TN) / (TP + alpha (FP + FN) + TN) (Table 1): a0 = (1, -1), b0 = 1 - pi,
    a1 = (1 - alpha, alpha - 1), b1 = 1 + (alpha - 1) pi."""
    alpha = F(alpha)
    return Coefficients(1, -1, 1 - alpha, alpha - 1, 1, -1, 1, alpha - 1)


def _library_metric(coef: Coefficients, name="custom"):
    return LinearFractionalMetric(**coef.as_floats(), name=name)


def _limited(iterator, n):
    for _, item in zip(range(n), iterator):
        yield item


def _phi_mp(kind, parameter):
    """The loss formulas in mpmath: ("logistic", base) = log_base(1 + e^-m); ("tau", tau) = Fig. 2's loss in
    base 2; ("sigmoid", scale) = scale / (1 + e^m)."""
    if kind == "logistic":
        return tau_logistic_mp(1, base=parameter)
    if kind == "tau":
        return tau_logistic_mp(parameter)
    return lambda m: mpf(parameter) / (1 + mp.exp(m))


# ================================================================================== Lemma 1: phi >= 1{t <= 0}
NON_DOMINATING = {"logistic base e": (logistic(base=math.e), ("logistic", mp.e)),
                  "sigmoid scale 1": (sigmoid(scale=1.0), ("sigmoid", 1))}
DOMINATING = {"logistic base e": (logistic(), ("logistic", 2)),  # the same loss families with phi(0) = 1
              "sigmoid scale 1": (sigmoid(), ("sigmoid", 2))}


def _lemma1_candidates(seed):
    """(metric name, population, per-atom scores in {k/4 : |k| <= 16}) at random."""
    rng = random.Random(seed)
    while True:
        pop = random_population(rng, extreme=0.3)
        yield rng.choice(sorted(ADMISSIBLE)), pop, tuple(F(rng.randint(-16, 16), 4) for _ in range(pop.size))


def _lemma1_violation(coef, metric, loss, pop, scores):
    """Library U_phi - U (U_phi undefined, i.e. a non-positive denominator, counts as no violation)."""
    lib = pop.library()
    s = np.array([float(x) for x in scores])
    try:
        u_phi = lib.surrogate_utility_of_scores(metric, loss, s)
    except ValueError:
        return -math.inf
    return u_phi - lib.utility_of_scores(metric, s, zero_division=0.0)


def _confirm_lemma1_violation(coef, pop, scores, phi_spec, *, dps=40):
    """mpmath U_phi (Eq. (3)/(4) from the loss formula) minus exact U; positive = Lemma 1 violated."""
    with mp.workdps(dps):
        u_phi, _, den = surrogate_utility_mp(coef, pop, scores, _phi_mp(*phi_spec))
        assert den > 0
        return u_phi - mpf(exact_utility(coef, pop, [x > 0 for x in scores]))


@pytest.mark.claims("Lemma 1")
@pytest.mark.parametrize("loss_name", sorted(NON_DOMINATING))
def test_lemma1_needs_domination_search(loss_name):
    """Lemma 1 (U_phi <= U) without phi >= 1{t <= 0}: a seeded search over random populations, admissible
    metrics (F_1, F_2, Jaccard) and score vectors MUST find U_phi(f) > U(f) for a convex-or-not loss with
    phi(0) < 1 (logistic in base e, sigmoid of scale 1); each hit is confirmed with mpmath (40 digits) against
    the exact rational U.  The same candidates with the dominating members of the families (base 2, scale 2)
    give no violation.  Oracles: mpmath 40 digits, exact rational arithmetic."""
    loss, spec = NON_DOMINATING[loss_name]
    good_loss, good_spec = DOMINATING[loss_name]
    hits = []
    for name, pop, scores in _limited(_lemma1_candidates(1), 150):
        coef, metric = ADMISSIBLE[name]
        if _lemma1_violation(coef, metric, loss, pop, scores) > MARGIN:
            assert _confirm_lemma1_violation(coef, pop, scores, spec) > 0
            hits.append((name, pop, scores))
        assert _lemma1_violation(coef, metric, good_loss, pop, scores) <= 1e-12
        assert _confirm_lemma1_violation(coef, pop, scores, good_spec) <= mp.mpf("1e-30")
    assert hits, "no violation found"
    assert hits[0] == LEMMA1_FIRST_HITS[loss_name]


# The first hit of each search (pinned): (metric, population, scores).
LEMMA1_FIRST_HITS = {
    "logistic base e": ("F_2", ExactPopulation((F(1, 22), F(8, 11), F(5, 22)), (F(88, 125), F(197, 1000), F(2, 5))),
                        (F(1, 4), F(0), F(-1, 4))),
    "sigmoid scale 1": ("Jaccard", ExactPopulation((F(19, 65), F(16, 65), F(17, 65), F(1, 5)),
                                                   (F(9, 250), F(381, 500), F(17, 40), F(47, 125))),
                        (F(7, 4), F(-11, 4), F(3), F(4))),
}


@pytest.mark.claims("Lemma 1")
@pytest.mark.parametrize("loss_name", sorted(NON_DOMINATING))
def test_lemma1_needs_domination_pinned(loss_name):
    """Lemma 1 without phi >= 1{t <= 0}, the searches' first hits: U_phi(f) > U(f), by mpmath at 50 digits
    against the exact rational U (pinned to 1e-13), reproduced by FiniteSupportPopulation (rel 1e-12).
    logistic in base e: phi(0) = ln 2 < 1, so an atom scored 0 (predicted -1) adds (1 - ln 2) to the surrogate
    true positives; sigmoid of scale 1: phi(0) = 1/2.  Oracles: mpmath 50 digits, exact rational arithmetic."""
    loss, spec = NON_DOMINATING[loss_name]
    name, pop, scores = LEMMA1_FIRST_HITS[loss_name]
    coef, metric = ADMISSIBLE[name]
    expected_u = {"logistic base e": F(440, 3053), "sigmoid scale 1": F(12797, 61192)}[loss_name]
    expected_gap = {"logistic base e": "0.0376204772173689", "sigmoid scale 1": "0.0145858823986567"}[loss_name]
    assert exact_utility(coef, pop, [x > 0 for x in scores]) == expected_u
    gap = _confirm_lemma1_violation(coef, pop, scores, spec, dps=50)
    assert mp.almosteq(gap, mp.mpf(expected_gap), rel_eps=1e-13) and gap > 0.01
    assert float(loss.value(0.0)) < 1  # the dropped hypothesis fails at t = 0
    lib = pop.library()
    s = np.array([float(x) for x in scores])
    assert lib.surrogate_utility_of_scores(metric, loss, s) - lib.utility_of_scores(metric, s) == pytest.approx(
        float(gap), rel=1e-12)


# ================================================================================== Lemma 2: phi convex
def _sample_candidates(seed, *, metric_coef=None):
    """(X, y, theta_1, theta_2) with half-integer features, both classes, quarter-integer parameters."""
    rng = random.Random(seed)
    while True:
        n, d = rng.randint(4, 8), rng.randint(1, 2)
        X = tuple(tuple(F(rng.randint(-6, 6), 2) for _ in range(d)) for _ in range(n))
        y = tuple([1] + [rng.choice((-1, 1)) for _ in range(n - 2)] + [-1])
        thetas = [tuple(F(rng.randint(-12, 12), 4) for _ in range(d)) for _ in range(2)]
        yield X, y, thetas[0], thetas[1]


def _empirical_mp(coef, phi, X, y, theta):
    """(N_hat, D_hat) of Eq. (6) from the per-sample definitions in mpmath: S_0 = the first floor(n/2) samples,
    S_1 = the rest, b_k per sample as c_k + d_k 1{y = +1} (lfverify's default, unbiased for b_k(pi))."""
    m = len(X) // 2

    def scores(x, label):
        xi = sum(mpf(t) * mpf(v) for t, v in zip(theta, x))
        if label == 1:
            return (mpf(coef.a0p) * (1 - phi(xi)) + mpf(coef.c0 + coef.d0),
                    mpf(coef.a1p) * (1 + phi(xi)) + mpf(coef.c1 + coef.d1))
        return mpf(coef.a0n) * phi(-xi) + mpf(coef.c0), mpf(coef.a1n) * phi(-xi) + mpf(coef.c1)

    num = sum(scores(X[i], y[i])[0] for i in range(m)) / m
    den = sum(scores(X[j], y[j])[1] for j in range(m, len(X))) / (len(X) - m)
    return num, den


def _segment(theta1, theta2, k, K=40):
    return tuple(a + (b - a) * F(k, K) for a, b in zip(theta1, theta2))


def _concavity_defect(est, theta1, theta2):
    """(N(t1) + N(t2))/2 - N(midpoint) from the library (> 0: midpoint concavity fails)."""
    N = est.numerator(np.array([[float(v) for v in t] for t in (theta1, theta2, _segment(theta1, theta2, 20))]))
    return (N[0] + N[1]) / 2 - N[2]


def _quasi_concavity_defect(est, theta1, theta2):
    """(defect, k): min(U(t1), U(t2)) - min over the 39 interior grid points k/40 of U, restricted to points
    with N_hat >= 0 (all three points are in F-bar = {N_hat >= 0}); -inf if the ends are not in F-bar or some
    D_hat <= 0."""
    Th = np.array([[float(v) for v in _segment(theta1, theta2, k)] for k in range(41)])
    N, D = est.numerator(Th), est.denominator(Th)
    if np.any(D <= 0) or N[0] < 0 or N[-1] < 0:
        return -math.inf, None
    U = N / D
    inside = [k for k in range(1, 40) if N[k] >= 0]
    if not inside:
        return -math.inf, None
    k = min(inside, key=lambda j: U[j])
    return min(U[0], U[-1]) - U[k], k


def _estimator(coef_metric, loss, X, y):
    return EmpiricalSurrogateUtility(coef_metric, loss, np.array(X, dtype=float), np.array(y))


@pytest.mark.claims("Lemma 2")
def test_lemma2_needs_convexity_search():
    """Lemma 2 without convexity of phi: with the non-convex sigmoid loss (which dominates the 0/1 loss, so
    only convexity is dropped) a seeded search over small samples and parameter segments MUST find (a) a
    segment on which N_hat violates midpoint concavity and (b) one whose end points and an interior point lie
    in F-bar = {N_hat >= 0} with U_hat at the interior point below both end values (a super-level set of U_hat
    on F-bar is not convex).  Hits are confirmed with mpmath (40 digits) from Eq. (6); with the convex
    tau-logistic loss (tau = 1/3) the same candidates give neither.  Oracle: mpmath 40 digits."""
    coef = fbeta_coefficients(1)
    phi = _phi_mp("sigmoid", 2)
    hits = {"concavity": None, "quasi-concavity": None}
    for X, y, t1, t2 in _limited(_sample_candidates(3), 400):
        est, convex = _estimator(f1(), sigmoid(), X, y), _estimator(f1(), tau_logistic(1 / 3), X, y)
        assert _concavity_defect(convex, t1, t2) <= 1e-12
        assert _quasi_concavity_defect(convex, t1, t2)[0] <= 1e-12
        if hits["concavity"] is None and _concavity_defect(est, t1, t2) > MARGIN:
            with mp.workdps(40):
                ends = [_empirical_mp(coef, phi, X, y, t)[0] for t in (t1, t2)]
                assert (ends[0] + ends[1]) / 2 > _empirical_mp(coef, phi, X, y, _segment(t1, t2, 20))[0]
            hits["concavity"] = (X, y, t1, t2)
        defect, k = _quasi_concavity_defect(est, t1, t2)
        if hits["quasi-concavity"] is None and defect > MARGIN:
            assert _confirm_quasi_concavity_violation(coef, phi, X, y, t1, t2, k) > 0
            hits["quasi-concavity"] = (X, y, t1, t2, k)
    assert all(hits.values()), hits
    assert hits == LEMMA2_FIRST_HITS


def _confirm_quasi_concavity_violation(coef, phi, X, y, t1, t2, k, dps=40):
    """mpmath: N_hat >= 0 and D_hat > 0 at t1, t2 and the interior point k/40; returns
    min(U_hat(t1), U_hat(t2)) - U_hat(point) (> 0: quasi-concavity on F-bar fails)."""
    with mp.workdps(dps):
        values = []
        for t in (t1, t2, _segment(t1, t2, k)):
            num, den = _empirical_mp(coef, phi, X, y, t)
            assert num >= 0 and den > 0
            values.append(num / den)
        return min(values[0], values[1]) - values[2]


LEMMA2_FIRST_HITS = {  # the searches' first hits (X, y, theta_1, theta_2[, k]), pinned
    "concavity": (((F(-1, 2),), (F(3, 2),), (F(1, 2),), (F(2),), (F(3, 2),)), (1, -1, -1, 1, -1), (F(-1),), (F(5, 4),)),
    "quasi-concavity": (((F(-3, 2), F(-1, 2)), (F(1, 2), F(3)), (F(-2), F(0)), (F(5, 2), F(1, 2)), (F(5, 2), F(3, 2)),
                         (F(-3, 2), F(1, 2)), (F(3, 2), F(2)), (F(1), F(-3))), (1, 1, -1, 1, -1, 1, -1, -1),
                        (F(-5, 4), F(2)), (F(5, 2), F(3)), 4),
}


@pytest.mark.claims("Lemma 2")
def test_lemma2_needs_convexity_pinned():
    """Lemma 2 with the non-convex sigmoid loss 2 sigma(-m) (it dominates the 0/1 loss), the searches' first
    hits, at 50 digits from Eq. (6):
    (a) F_1, n = 5, d = 1: N_hat(theta) = 1 - phi(-theta/2) (S_0 = {(-1/2, +1), (3/2, -1)}) is convex for
    theta > 0; on [-1, 5/4] the midpoint lies below the chord (N_hat is not concave);
    (b) F_1, n = 8, d = 2: theta_1 = (-5/4, 2), theta_2 = (5/2, 3) and the point 4/40 of the way are all in
    F-bar, and U_hat there is below both end values (U_hat is not quasi-concave over F-bar).
    The library's N_hat and U_hat agree with mpmath to 1e-12.  Oracle: mpmath 50 digits."""
    coef, phi = fbeta_coefficients(1), _phi_mp("sigmoid", 2)
    X, y, t1, t2 = LEMMA2_FIRST_HITS["concavity"]
    mid = _segment(t1, t2, 20)
    with mp.workdps(50):
        n1, n2, nm = (_empirical_mp(coef, phi, X, y, t)[0] for t in (t1, t2, mid))
        chord_gap = (n1 + n2) / 2 - nm
        # by hand: N_hat = 1 - 2 sigma(theta / 2) (the y = -1 sample of S_0 contributes a0n phi = 0)
        assert mp.almosteq(nm, 1 - 2 / (1 + mp.exp(-mpf(mid[0]) / 2)), rel_eps=1e-45)
    assert mp.almosteq(chord_gap, mp.mpf("0.00234429798183158"), rel_eps=1e-12)
    est = _estimator(f1(), sigmoid(), X, y)
    assert est.numerator(np.array([float(mid[0])])) == pytest.approx(float(nm), rel=1e-12, abs=0)

    X, y, t1, t2, k = LEMMA2_FIRST_HITS["quasi-concavity"]
    dip = _confirm_quasi_concavity_violation(coef, phi, X, y, t1, t2, k, dps=50)
    assert mp.almosteq(dip, mp.mpf("0.0334929001245294"), rel_eps=1e-12)
    est = _estimator(f1(), sigmoid(), X, y)
    point = _segment(t1, t2, k)
    with mp.workdps(50):
        num, den = _empirical_mp(coef, phi, X, y, point)
    assert est.value(np.array([float(v) for v in point])) == pytest.approx(float(num / den), rel=1e-12, abs=0)


# ================================================================================== Definition 1's sign constraints
SIGN_CASES = {  # the constraint dropped -> (metric family, how to draw its coefficients)
    "a_{0,+1} > 0": ("U = FN = pi - TP", lambda rng: Coefficients(-1, 0, 0, 0, 0, 1, 1, 0)),
    "a_{0,-1} <= 0": ("U = TP + FP", lambda rng: Coefficients(1, 1, 0, 0, 0, 0, 1, 0)),
    "a_{1,+1} >= 0": ("Gower-Legendre, alpha in (1, 4]", lambda rng: _gl_coefficients(F(rng.randint(101, 400), 100))),
    "a_{1,-1} >= 0": ("U = TP / (1 - FP)", lambda rng: Coefficients(1, 0, 0, -1, 0, 0, 1, 0)),
}


def _definition1(coef: Coefficients):
    """Definition 1 checked by hand: the four sign constraints, and 0 <= U <= 1 with D > 0 for every
    classifier and prior pi in (0, 1).  With TP = u pi, FP = v (1 - pi) (u, v in [0, 1]) N, D and D - N are
    affine in (u, v) for fixed pi, so their extremes sit at u, v in {0, 1}; there they are affine in pi, so
    the open interval (0, 1) is decided by pi in {0, 1} (D > 0 inside iff >= 0 at both ends, not both 0)."""
    signs = {"a_{0,+1} > 0": coef.a0p > 0, "a_{0,-1} <= 0": coef.a0n <= 0,
             "a_{1,+1} >= 0": coef.a1p >= 0, "a_{1,-1} >= 0": coef.a1n >= 0}
    ranges = True
    for u, v in itertools.product((0, 1), repeat=2):
        ends = []
        for pi in (0, 1):
            tp, fp = u * pi, v * (1 - pi)
            num = coef.a0p * tp + coef.a0n * fp + coef.b0(pi)
            den = coef.a1p * tp + coef.a1n * fp + coef.b1(pi)
            ends.append((num, den))
        ranges &= all(n >= 0 and d - n >= 0 and d >= 0 for n, d in ends) and any(d > 0 for _, d in ends)
    return signs, ranges


def _sign_candidates(constraint, seed):
    rng = random.Random(seed)
    draw = SIGN_CASES[constraint][1]
    while True:
        pop = random_population(rng, extreme=0.3)
        yield (draw(rng), pop, tuple(F(rng.randint(-16, 16), 4) for _ in range(pop.size)), F(rng.randint(1, 100), 100))


def _check_exactly_one_violation(coef, constraint):
    """The metric violates exactly ``constraint`` among Definition 1's conditions (own check and lfverify's
    admissibility report agree)."""
    signs, ranges = _definition1(coef)
    assert ranges and [k for k, ok in signs.items() if not ok] == [constraint]
    assert _library_metric(coef).admissibility().violations == [constraint]


@pytest.mark.claims("Definition 1", "Lemma 1")
@pytest.mark.parametrize("constraint", sorted(SIGN_CASES))
def test_sign_constraints_are_needed_for_lemma1_search(constraint):
    """Definition 1's sign constraints, one at a time: for a metric violating exactly that constraint (every
    other condition of Definition 1, 0 <= U <= 1 with D > 0 included, holds), a seeded search over random
    populations, score vectors and the tau-logistic loss (convex, dominating the 0/1 loss, so Lemma 1's own
    hypothesis holds) MUST find U_phi(f) > U(f); each hit is confirmed with mpmath (40 digits) against the
    exact rational U.  Oracles: Definition 1 checked by hand (exact rationals), mpmath 40 digits."""
    hits = []
    for coef, pop, scores, tau in _limited(_sign_candidates(constraint, 5), 300):
        _check_exactly_one_violation(coef, constraint)
        metric = _library_metric(coef)
        if _lemma1_violation(coef, metric, tau_logistic(float(tau)), pop, scores) > MARGIN:
            assert _confirm_lemma1_violation(coef, pop, scores, ("tau", tau)) > 0
            hits.append((coef, pop, scores, tau))
    assert hits, f"no violation of Lemma 1 found for a metric violating {constraint}"
    assert hits[0] == SIGN_FIRST_HITS[constraint]


SIGN_FIRST_HITS = {  # the searches' first hits (coefficients, population, scores, tau), pinned
    "a_{0,+1} > 0": (Coefficients(-1, 0, 0, 0, 0, 1, 1, 0),
                     ExactPopulation((F(4, 15), F(17, 45), F(1, 45), F(1, 3)),
                                     (F(32, 125), F(923, 1000), F(963, 1000), F(253, 1000))),
                     (F(2), F(-5, 2), F(-1, 4), F(-4)), F(47, 50)),
    "a_{0,-1} <= 0": (Coefficients(1, 1, 0, 0, 0, 0, 1, 0),
                      ExactPopulation((F(1, 2), F(1, 2)), (F(17, 100), F(297, 1000))),
                      (F(1), F(-1)), F(7, 10)),
    "a_{1,+1} >= 0": (_gl_coefficients(F(347, 100)), ExactPopulation((F(1, 2), F(1, 2)), (F(119, 125), F(57, 1000))),
                      (F(3, 2), F(-4)), F(11, 20)),
    "a_{1,-1} >= 0": (Coefficients(1, 0, 0, -1, 0, 0, 1, 0),
                      ExactPopulation((F(9, 23), F(7, 23), F(13, 46), F(1, 46)),
                                      (F(97, 250), F(981, 1000), F(213, 1000), F(629, 1000))),
                      (F(1), F(2), F(1), F(-5, 2)), F(89, 100)),
}
SIGN_PINNED_VALUES = {  # exact U, mpmath U_phi - U
    "a_{0,+1} > 0": (F(20449, 45000), "1.37125632928378"),
    "a_{0,-1} <= 0": (F(1, 2), "0.393436784828371"),
    "a_{1,+1} >= 0": (F(37900, 45187), "0.68978364921416"),
    "a_{1,-1} >= 0": (F(23487, 24487), "1.88209639916087"),
}


@pytest.mark.claims("Definition 1", "Lemma 1")
@pytest.mark.parametrize("constraint", sorted(SIGN_CASES))
def test_sign_constraints_are_needed_for_lemma1_pinned(constraint):
    """The searches' first hits: a metric violating exactly one sign constraint of Definition 1, the convex
    dominating tau-logistic loss, and U_phi(f) > U(f) (Lemma 1 fails): mpmath at 50 digits against the exact
    rational U (both pinned), reproduced by FiniteSupportPopulation (rel 1e-12).  The a_{1,+1} case is
    Gower-Legendre with alpha = 347/100 (ERRATA.md's Tab. 1 Gower-Legendre entry has alpha = 2).
    Oracles: mpmath 50 digits, exact rational arithmetic, Definition 1 checked by hand."""
    coef, pop, scores, tau = SIGN_FIRST_HITS[constraint]
    expected_u, expected_gap = SIGN_PINNED_VALUES[constraint]
    _check_exactly_one_violation(coef, constraint)
    assert exact_utility(coef, pop, [x > 0 for x in scores]) == expected_u
    gap = _confirm_lemma1_violation(coef, pop, scores, ("tau", tau), dps=50)
    assert mp.almosteq(gap, mp.mpf(expected_gap), rel_eps=1e-12) and gap > 0.1
    metric, loss = _library_metric(coef), tau_logistic(float(tau))
    s = np.array([float(x) for x in scores])
    lib = pop.library()
    assert lib.surrogate_utility_of_scores(metric, loss, s) - lib.utility_of_scores(metric, s) == pytest.approx(
        float(gap), rel=1e-12)


@pytest.mark.claims("Lemma 2", "Definition 1")
def test_gower_legendre_alpha_below_one_needs_a1n_for_lemma2_search():
    """Gower-Legendre with alpha in (0, 1) violates exactly a_{1,-1} >= 0 (Table 1's caption presents it as an
    example of Definition 1; ERRATA.md's Tab. 1 Gower-Legendre entry).  Lemma 2 with the convex tau-logistic
    loss (tau = 1/2): a seeded search over small samples and segments MUST find a segment in F-bar along which
    U_hat dips below both end values (not quasi-concave over F-bar; App. B's N_hat - alpha' D_hat has the convex
    term alpha' (1 - alpha) phi(-xi) on negative samples of S_1); confirmed with mpmath (40 digits).  For accuracy
    (alpha = 1) the same candidates give none.  Recorded as an erratum in lfverify/proofs/counterexamples.py
    (that entry only says Lemma 2 "does not apply").  Oracles: Definition 1 by hand, mpmath 40 digits."""
    alpha = F(1, 2)
    coef = _gl_coefficients(alpha)
    _check_exactly_one_violation(coef, "a_{1,-1} >= 0")
    phi = _phi_mp("tau", F(1, 2))
    hit = None
    for X, y, t1, t2 in _limited(_negative_heavy_candidates(12), 400):
        est = _estimator(gower_legendre(float(alpha)), tau_logistic(0.5), X, y)
        assert _quasi_concavity_defect(_estimator(gower_legendre(1.0), tau_logistic(0.5), X, y), t1, t2)[0] <= 1e-12
        defect, k = _quasi_concavity_defect(est, t1, t2)
        if defect > MARGIN:
            assert _confirm_quasi_concavity_violation(coef, phi, X, y, t1, t2, k) > 0
            hit = (X, y, t1, t2, k)
            break
    assert hit is not None
    assert hit == GL_HALF_FIRST_HIT


def _negative_heavy_candidates(seed):
    """Like _sample_candidates with d = 2, but S_1 (the second half) holds only negatives, whose
    phi(-xi) terms enter D_hat with the negative coefficient a_{1,-1} (where a dip of U_hat can arise)."""
    rng = random.Random(seed)
    while True:
        n = rng.randint(4, 8)
        m = n // 2
        X = tuple(tuple(F(rng.randint(-6, 6), 2) for _ in range(2)) for _ in range(n))
        y = tuple([1] + [rng.choice((-1, 1)) for _ in range(m - 1)] + [-1] * (n - m))
        thetas = [tuple(F(rng.randint(-12, 12), 4) for _ in range(2)) for _ in range(2)]
        yield X, y, thetas[0], thetas[1]


GL_HALF_FIRST_HIT = (  # the search's first hit (X, y, theta_1, theta_2, k), pinned
    ((F(-1), F(-1, 2)), (F(3), F(3, 2)), (F(2), F(3, 2)), (F(-1), F(0)), (F(0), F(-5, 2)), (F(-1), F(-3, 2))),
    (1, 1, 1, -1, -1, -1), (F(-1, 2), F(3, 2)), (F(2), F(-5, 4)), 22)


@pytest.mark.claims("Lemma 2", "Definition 1")
def test_gower_legendre_alpha_below_one_needs_a1n_for_lemma2_pinned():
    """The search's first hit: Gower-Legendre(1/2), tau-logistic(1/2), n = 6 (S_1 = three negatives),
    theta_1 = (-1/2, 3/2), theta_2 = (2, -5/4): theta_1, theta_2 and the point 22/40 of the way lie in F-bar
    with D_hat > 0, and U_hat there is 0.0045208 below both end values (pinned at 50 digits; the library's
    U_hat agrees to 1e-12).  Oracle: mpmath 50 digits from Eq. (6)."""
    coef, phi = _gl_coefficients(F(1, 2)), _phi_mp("tau", F(1, 2))
    X, y, t1, t2, k = GL_HALF_FIRST_HIT
    dip = _confirm_quasi_concavity_violation(coef, phi, X, y, t1, t2, k, dps=50)
    assert mp.almosteq(dip, mp.mpf("0.00452079494097318"), rel_eps=1e-12)
    est = _estimator(gower_legendre(0.5), tau_logistic(0.5), X, y)
    for t in (t1, t2, _segment(t1, t2, k)):
        with mp.workdps(50):
            num, den = _empirical_mp(coef, phi, X, y, t)
        assert est.value(np.array([float(v) for v in t])) == pytest.approx(float(num / den), rel=1e-12, abs=0)


GL_POPULATIONS = st.builds(
    lambda w, e: ExactPopulation(tuple(F(v, sum(w)) for v in w), tuple(F(k, 1000) for k in e[:len(w)])),
    st.lists(st.integers(1, 20), min_size=1, max_size=5), st.lists(st.integers(1, 999), min_size=5, max_size=5))


@pytest.mark.claims("Lemma 1")
@given(pop=GL_POPULATIONS, alpha_k=st.integers(1, 99), tau_k=st.integers(1, 100),
       score_k=st.lists(st.integers(-40, 40), min_size=5, max_size=5))
def test_gower_legendre_alpha_below_one_still_satisfies_lemma1(pop, alpha_k, tau_k, score_k):
    """Lemma 1 for Gower-Legendre with alpha in (0, 1), where a_{1,-1} = alpha - 1 < 0 and the printed proof
    (W_1 <= W_{1,phi}) fails: the conclusion U_phi <= U still holds wherever U_phi is defined (D_phi > 0).  By
    hand: with S = TP - FP, c = 1 - alpha, U = h(S) = (1 - pi + S)/(1 - c pi + c S) is increasing (h' = (1 - c) /
    (...)^2 > 0), S_phi <= S, and D_phi = 1 - c pi + c S_phi + 2c E[eta phi(f)] only adds a non-negative term.  So
    a_{1,-1} >= 0 is not necessary for Lemma 1 within this family (the search above needs Lemma 2).
    Oracles: mpmath 40 digits (U_phi from Eq. (3)/(4)), exact rational U."""
    coef = _gl_coefficients(F(alpha_k, 100))
    scores = [F(k, 8) for k in score_k[:pop.size]]
    with mp.workdps(40):
        u_phi, _, den = surrogate_utility_mp(coef, pop, scores, tau_logistic_mp(F(tau_k, 100)))
        assume(den > 0)  # U_phi is undefined otherwise (lfverify refuses it)
        assert u_phi <= mpf(exact_utility(coef, pop, [x > 0 for x in scores])) + mp.mpf("1e-30")


# ================================================================================== Thms. 1, 2: tau-discrepancy
@pytest.mark.claims("Definition 2")
def test_plain_logistic_is_not_tau_discrepant_for_any_admissible_tau():
    """The plain logistic loss log2(1 + e^-m) is convex, non-increasing and dominates the 0/1 loss (every other
    hypothesis of Thms. 1 and 2 that does not involve tau), but phi'(0+) = phi'(0-) = -1/(2 ln 2), so it is
    tau-discrepant only for tau >= 1, outside Thm. 1's (0, beta^2) for beta <= 1 and Thm. 2's (0, 1).
    Oracle: the one-sided derivatives -sigma(0)/ln 2 written by hand."""
    loss = logistic()
    assert loss.is_convex and loss.is_nonincreasing and loss.dominates_zero_one
    slope = -0.5 / math.log(2)
    assert float(loss.derivative(0.0, side="left")) == pytest.approx(slope, rel=1e-15, abs=0)
    assert float(loss.derivative(0.0, side="right")) == pytest.approx(slope, rel=1e-15, abs=0)
    assert not any(loss.is_tau_discrepant(t) for t in np.linspace(0.001, 0.999, 999))


def _logistic_candidates(seed):
    rng = random.Random(seed)
    while True:
        yield (random_population(rng, extreme=0.3),)


@pytest.mark.claims("Definition 2")
@pytest.mark.parametrize("name", ["F_1", "Jaccard"])
def test_tau_discrepancy_is_needed_search(name):
    """Thms. 1 / 2 without tau-discrepancy: for the plain logistic loss (tau = 1) a seeded search over random
    populations MUST find one whose surrogate maximiser (certified by Dinkelbach at 40 digits; tau = 1 has no
    kink, so the failure is not the kink of ERRATA.md) has a sign pattern with U(sgn f*) < U-dagger.
    Oracles: exact rational arithmetic (brute force over all 2^J classifiers), mpmath 40 digits."""
    coef = ADMISSIBLE[name][0]
    hits = []
    for (pop,) in _limited(_logistic_candidates(3), 60):
        opt = maximise_surrogate(coef, pop, 1)
        assert not any(opt.kink)
        a = analyse(coef, pop, opt)
        assert_corrected_statement_agrees(coef, pop, 1, opt, a)  # the corrected Thms. 1-2 at rho = tau = 1
        if a.sign_utility < a.u_dagger:
            assert a.nonkink_disagreements
            hits.append(pop)
    assert hits
    assert hits[0] == TAU_FIRST_HITS[name]


_TAU_POPULATION = ExactPopulation((F(9, 58), F(9, 29), F(4, 29), F(7, 58), F(8, 29)),
                                  (F(563, 1000), F(131, 200), F(119, 500), F(889, 1000), F(2, 5)))
TAU_FIRST_HITS = {"F_1": _TAU_POPULATION, "Jaccard": _TAU_POPULATION}  # the searches' first hits, pinned


@pytest.mark.claims("Definition 2")
@pytest.mark.parametrize("name, u_star, u_dagger, u_sign", [
    ("F_1", "0.368399938543297", F(7370, 10173), F(7846, 11173)),
    ("Jaccard", "0.257245916306638", F(3685, 6488), F(3923, 7250)),
])
def test_tau_discrepancy_is_needed_pinned(name, u_star, u_dagger, u_sign):
    """The searches' first hit (5 atoms): with the plain logistic loss the surrogate maximiser is > 0 on every
    atom, including the eta = 119/500 atom below the Bayes threshold delta(U-dagger) = 3685/10173 (the same for
    F_1 and Jaccard, which are increasing functions of each other), so U(sgn f*) < U-dagger.  Certified at 50
    digits (Dinkelbach gap <= 1e-40; U*_phi pinned), exact U and U-dagger pinned, core library agrees.
    Oracles: mpmath 50 digits, exact rational arithmetic (brute force over all 32 classifiers)."""
    coef, metric = ADMISSIBLE[name]
    pop = TAU_FIRST_HITS[name]
    opt = maximise_surrogate(coef, pop, 1, dps=50)
    assert abs(opt.gap) <= mp.mpf("1e-40") and mp.almosteq(opt.value, mp.mpf(u_star), rel_eps=1e-14)
    a = analyse(coef, pop, opt)
    assert_corrected_statement_agrees(coef, pop, 1, opt, a)
    assert opt.signs == (1, 1, 1, 1, 1) and a.nonkink_disagreements == (2,) and a.threshold == F(3685, 10173)
    assert (a.u_dagger, a.sign_utility) == (u_dagger, u_sign) and not a.best_completion_is_optimal
    lib, loss = pop.library(), logistic()
    f_star = opt.float_scores()
    assert lib.surrogate_utility_of_scores(metric, loss, f_star) == pytest.approx(float(opt.value), rel=1e-12, abs=0)
    assert lib.utility_of_scores(metric, f_star) == pytest.approx(float(u_sign), rel=1e-12, abs=0)
    assert lib.bayes_optimal(metric).utility == pytest.approx(float(u_dagger), rel=1e-12, abs=0)


# ================================================================================== Lemma 3: S_0 independent of S_1
def _sq_hinge(m):
    """phi(m) = max(0, 1 - m)^2 and phi'(m) = -2 max(0, 1 - m), exact on rationals (Lemma 3 holds for any
    loss, so a rational one makes every expectation an exact rational)."""
    r = max(F(0), 1 - m)
    return r * r, -2 * r


def _tilde_scores(coef, x, label, theta):
    """Eq. (6) per sample with the per-sample offsets b_k = c_k + d_k 1{y = +1}: (W~_0, W~_1, grad W~_0,
    grad W~_1) in exact rationals; grad = dW~/dxi * x."""
    xi = sum(t * v for t, v in zip(theta, x))
    if label == 1:
        p, dp = _sq_hinge(xi)
        w0, w1 = coef.a0p * (1 - p) + coef.c0 + coef.d0, coef.a1p * (1 + p) + coef.c1 + coef.d1
        g0, g1 = -coef.a0p * dp, coef.a1p * dp
    else:
        p, dp = _sq_hinge(-xi)
        w0, w1 = coef.a0n * p + coef.c0, coef.a1n * p + coef.c1
        g0, g1 = -coef.a0n * dp, -coef.a1n * dp
    return w0, w1, tuple(g0 * v for v in x), tuple(g1 * v for v in x)


def _v_hat(coef, sample, theta, first, second):
    """V_hat = D_hat grad N_hat - N_hat grad D_hat with N_hat over the indices ``first`` and D_hat over
    ``second`` (Eq. (7) factorised; first == second is the same-sample variant)."""
    s = [_tilde_scores(coef, x, label, theta) for x, label in sample]
    n0 = sum(s[i][0] for i in first) / len(first)
    d1 = sum(s[j][1] for j in second) / len(second)
    g0 = [sum(s[i][2][k] for i in first) / len(first) for k in range(len(theta))]
    g1 = [sum(s[j][3][k] for j in second) / len(second) for k in range(len(theta))]
    return tuple(d1 * a - n0 * b for a, b in zip(g0, g1))


def _lemma3_expectations(coef, atoms, pop, theta, n=2):
    """(V_phi, E_S[V_hat split], E_S[V_hat same]) by exact enumeration of all (2J)^n samples."""
    outcomes = [((atoms[j], label), pop.weights[j] * (pop.eta[j] if label == 1 else 1 - pop.eta[j]))
                for j in range(pop.size) for label in (1, -1)]
    e = [sum(p * _tilde_scores(coef, x, label, theta)[k] for (x, label), p in outcomes) for k in (0, 1)]
    eg = [[sum(p * _tilde_scores(coef, x, label, theta)[k][c] for (x, label), p in outcomes)
           for c in range(len(theta))] for k in (2, 3)]
    v_phi = tuple(e[1] * a - e[0] * b for a, b in zip(*eg))
    m = n // 2
    split = [F(0)] * len(theta)
    same = [F(0)] * len(theta)
    for combo in itertools.product(outcomes, repeat=n):
        p = math.prod(q for _, q in combo)
        sample = [o for o, _ in combo]
        split = [a + p * b for a, b in zip(split, _v_hat(coef, sample, theta, range(m), range(m, n)))]
        same = [a + p * b for a, b in zip(same, _v_hat(coef, sample, theta, range(n), range(n)))]
    return v_phi, tuple(split), tuple(same)


def _lemma3_candidates(seed):
    rng = random.Random(seed)
    while True:
        pop = random_population(rng, min_atoms=2, max_atoms=3, extreme=0.0)
        atoms = tuple(tuple(F(rng.randint(-4, 4), 2) for _ in range(2)) for _ in range(pop.size))
        theta = tuple(F(rng.randint(-8, 8), 4) for _ in range(2))
        yield rng.choice(sorted(ADMISSIBLE)), pop, atoms, theta


@pytest.mark.claims("Lemma 3")
def test_lemma3_needs_independent_halves_search():
    """Lemma 3 (E_S[V_hat] = V_phi) needs S_0 and S_1 independent: a seeded search over random 2-3-atom
    populations in R^2, parameters and admissible metrics MUST find one where the same-sample estimator
    (S_0 = S_1 = S, n = 2) has E_S[V_same] != V_phi, while on every candidate the split estimator is exactly
    unbiased.  Oracle: exact enumeration of all (2J)^2 samples in exact rational arithmetic (squared hinge)."""
    hits = []
    for name, pop, atoms, theta in _limited(_lemma3_candidates(9), 20):
        v_phi, split, same = _lemma3_expectations(ADMISSIBLE[name][0], atoms, pop, theta)
        assert split == v_phi
        if same != v_phi:
            hits.append((name, pop, atoms, theta))
    assert hits
    assert hits[0] == LEMMA3_FIRST_HIT


LEMMA3_FIRST_HIT = (  # the search's first hit (metric, population, atoms, theta), pinned
    "F_1", ExactPopulation((F(20, 41), F(12, 41), F(9, 41)), (F(111, 125), F(347, 1000), F(23, 25))),
    ((F(-3, 2), F(1, 2)), (F(2), F(-2)), (F(1), F(-1))), (F(3, 2), F(5, 4)))


@pytest.mark.claims("Lemma 3")
def test_lemma3_needs_independent_halves_pinned():
    """The search's first hit: F_1, squared hinge, 3 atoms in R^2, theta = (3/2, 5/4), n = 2.  By exact
    enumeration E_S[V_same] - V_phi = (-100022724, 80162604) / 26265625 (pinned), which equals the closed form
    (1/2)(Cov(W~_1, grad W~_0) - Cov(W~_0, grad W~_1)) from the population moments alone (an independent
    route), while the split estimator's expectation is exactly V_phi.  lfverify agrees to 1e-12: the
    population's V_phi (FiniteSupportPopulation.gradient_direction) and the expectations of its literal Eq. (7)
    double sum (reference_gradient_direction) with the paper's split and with S_0 = S_1 = S.
    Oracle: exact enumeration in exact rational arithmetic."""
    name, pop, atoms, theta = LEMMA3_FIRST_HIT
    coef, metric = ADMISSIBLE[name]
    v_phi, split, same = _lemma3_expectations(coef, atoms, pop, theta)
    bias = tuple(a - b for a, b in zip(same, v_phi))
    assert split == v_phi and bias == (F(-100022724, 26265625), F(80162604, 26265625))
    # closed form from the population moments
    outcomes = [((atoms[j], label), pop.weights[j] * (pop.eta[j] if label == 1 else 1 - pop.eta[j]))
                for j in range(pop.size) for label in (1, -1)]

    def expect(fn):
        return sum(p * fn(_tilde_scores(coef, x, label, theta)) for (x, label), p in outcomes)

    for c in range(2):
        cov_10 = expect(lambda s, c=c: s[1] * s[2][c]) - expect(lambda s: s[1]) * expect(lambda s, c=c: s[2][c])
        cov_01 = expect(lambda s, c=c: s[0] * s[3][c]) - expect(lambda s: s[0]) * expect(lambda s, c=c: s[3][c])
        assert bias[c] == (cov_10 - cov_01) / 2
    # the library
    lib = FiniteSupportPopulation(np.array(atoms, dtype=float), np.array([float(w) for w in pop.weights]),
                                  np.array([float(e) for e in pop.eta]))
    theta_f = np.array([float(t) for t in theta])
    np.testing.assert_allclose(lib.gradient_direction(metric, squared_hinge(), theta_f), [float(v) for v in v_phi],
                               rtol=1e-12)
    lib_split, lib_same = np.zeros(2), np.zeros(2)
    for combo in itertools.product(outcomes, repeat=2):
        p = float(math.prod(q for _, q in combo))
        X = np.array([o[0][0] for o in combo], dtype=float)
        y = np.array([o[0][1] for o in combo])
        lib_split += p * reference_gradient_direction(metric, squared_hinge(), X, y, theta_f)
        lib_same += p * reference_gradient_direction(metric, squared_hinge(), X, y, theta_f,
                                                      split=SampleSplit(np.arange(2), np.arange(2)))
    np.testing.assert_allclose(lib_split, [float(v) for v in v_phi], rtol=1e-12)
    np.testing.assert_allclose(lib_same, [float(v) for v in same], rtol=1e-12)
