"""Property tests of Lemmas 1-3, Prop. 5 and the loss hypotheses on generated metrics, losses, data and
populations (strategies in lfverify.testing.strategies).

Every expected value is computed here from the paper's definitions, independently of the code under test:
exact rational arithmetic (fractions.Fraction) wherever the loss is rational at rational margins (hinge,
squared hinge) and the data are exact binary fractions, mpmath at 50 digits otherwise, brute force over all
2^J classifiers of a J-atom population, and exact enumeration of every sample of size n.  What the other test
files already check is not repeated: the fixed Table 1 metrics and fixed tau values of test_losses.py,
test_metrics.py and test_empirical.py are extended here to generated admissible metrics, generated tau and
exact arithmetic.

Floating-point tolerances are derived from the operations the library performs (each comment says how);
eps = 2^-52.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, event, example, given
from hypothesis import strategies as st

from lfverify.core import (
    EmpiricalSurrogateUtility,
    ExponentialLoss,
    FiniteSupportPopulation,
    HingeLoss,
    LinearFractionalMetric,
    SigmoidLoss,
    SquaredHingeLoss,
    TauDiscrepantLogisticLoss,
    accuracy,
    f1,
    f_beta,
    hinge,
    logistic,
    sigmoid,
    squared_hinge,
    tau_logistic,
)
from lfverify.testing.strategies import (
    FinitePopulationCase,
    admissible_metrics,
    convex_dominating_losses,
    convex_losses,
    corner_values,
    datasets,
    definition1_by_corners,
    dominating_losses,
    dyadic_datasets,
    dyadic_parameters,
    dyadic_scores,
    f_beta_metrics,
    finite_populations,
    float_scores,
    general_admissible_metrics,
    parameter_batches,
    parameters,
    perturbed_metrics,
    rational_phi_losses,
    tau_discrepant_losses,
    taus,
)

EPS = float(np.finfo(np.float64).eps)
F = Fraction
DPS = 50
REPORT_FLAGS = ("a0p_positive", "a0n_nonpositive", "a1p_nonnegative", "a1n_nonnegative", "denominator_positive",
                "utility_nonnegative", "utility_at_most_one")


# ============================================================================ independent references
class Coef:
    """Definition 1's coefficients as exact rationals of the stored doubles: b_k = c_k + d_k pi."""

    def __init__(self, metric: LinearFractionalMetric):
        self.a0p, self.a0n, self.a1p, self.a1n = (F(getattr(metric, k)) for k in ("a0p", "a0n", "a1p", "a1n"))
        self.c0, self.d0, self.c1, self.d1 = (F(getattr(metric, k)) for k in
                                              ("b0_const", "b0_prior", "b1_const", "b1_prior"))

    def b0(self, pi):
        return self.c0 + self.d0 * pi

    def b1(self, pi):
        return self.c1 + self.d1 * pi


def exact_phi(loss, t: Fraction) -> Fraction:
    """phi(t) of the hinge max(0, 1 - t) and squared hinge max(0, 1 - t)^2, exactly."""
    if isinstance(loss, HingeLoss):
        return max(F(0), 1 - t)
    if isinstance(loss, SquaredHingeLoss):
        return max(F(0), 1 - t) ** 2
    raise TypeError(f"no exact form for {loss!r}")


def exact_dphi(loss, t: Fraction) -> Fraction:
    """Right derivative phi'(t+) (the library's default side) of the hinge and squared hinge, exactly."""
    if isinstance(loss, HingeLoss):
        return F(-1) if t < 1 else F(0)
    if isinstance(loss, SquaredHingeLoss):
        return -2 * max(F(0), 1 - t)
    raise TypeError(f"no exact form for {loss!r}")


def mp_phi(loss, t):
    """phi(t) at the current mpmath precision, from the formula of each loss (parameters read from the object)."""
    t = mpmath.mpf(t)
    if isinstance(loss, TauDiscrepantLogisticLoss):
        s = mpmath.mpf(1) if t <= 0 else mpmath.mpf(loss.tau)
        return mpmath.log(1 + mpmath.exp(-s * t)) / mpmath.log(mpmath.mpf(loss.base))
    if isinstance(loss, HingeLoss):
        return max(mpmath.mpf(0), 1 - t)
    if isinstance(loss, SquaredHingeLoss):
        return max(mpmath.mpf(0), 1 - t) ** 2
    if isinstance(loss, ExponentialLoss):
        return mpmath.exp(-t)
    if isinstance(loss, SigmoidLoss):
        return mpmath.mpf(loss.scale) / (1 + mpmath.exp(t))
    raise TypeError(f"no mpmath form for {loss!r}")


def kinks_of(loss):
    """Where phi is not differentiable, from the formulas above (not read from the library)."""
    if isinstance(loss, TauDiscrepantLogisticLoss):
        return (0.0,) if loss.tau != 1.0 else ()
    if isinstance(loss, (HingeLoss, SquaredHingeLoss)):
        return (1.0,)
    return ()


# ---------------------------------------------------------------- population references (Eq. (1), (3), (4))
def exact_confusion(case: FinitePopulationCase, positive):
    """(TP, FP) of the classifier predicting +1 on the atoms where ``positive`` is true."""
    tp = sum((w * q for w, q, p in zip(case.weights, case.eta, positive) if p), F(0))
    fp = sum((w * (1 - q) for w, q, p in zip(case.weights, case.eta, positive) if p), F(0))
    return tp, fp


def exact_true_parts(k: Coef, case, positive):
    """(N, D) = (E[W_0], E[W_1]) of Definition 1 for the classifier given by ``positive``."""
    pi = case.prior
    tp, fp = exact_confusion(case, positive)
    return k.a0p * tp + k.a0n * fp + k.b0(pi), k.a1p * tp + k.a1n * fp + k.b1(pi)


def surrogate_parts(k: Coef, case, scores, phi, zero):
    """(E[W_0,phi], E[W_1,phi]) of Eq. (3) summed over atoms; ``phi`` maps a margin to its loss (exact or mp)."""
    pi = case.prior
    num, den = zero, zero
    for w, q, s in zip(case.weights, case.eta, scores):
        num += w * (k.a0p * (1 - phi(s)) * q + k.a0n * phi(-s) * (1 - q))
        den += w * (k.a1p * (1 + phi(s)) * q + k.a1n * phi(-s) * (1 - q))
    return num + k.b0(pi), den + k.b1(pi)


def surrogate_abs_scale(k: Coef, case, scores, phi):
    """Sum of the absolute values of the terms of E[W_0,phi] and E[W_1,phi] (floats): the size that rounding in
    the library's sums is relative to."""
    pi = float(case.prior)
    a_n = abs(float(k.b0(F(pi))))
    a_d = abs(float(k.b1(F(pi))))
    for w, q, s in zip(case.weights, case.eta, scores):
        w, q = float(w), float(q)
        a_n += w * (abs(float(k.a0p)) * (1 + phi(s)) * q + abs(float(k.a0n)) * phi(-s) * (1 - q))
        a_d += w * (abs(float(k.a1p)) * (1 + phi(s)) * q + abs(float(k.a1n)) * phi(-s) * (1 - q))
    return a_n, a_d


# ---------------------------------------------------------------- empirical references (Eq. (6), (7))
def exact_sample_scores(k: Coef, loss, x, y, theta, *, prior=None):
    """Eq. (6) for one sample, exactly: (W~_0,phi, W~_1,phi, grad W~_0,phi, grad W~_1,phi, W~_0, W~_1) where
    W~_k is Definition 1's score with q = 1{y = +1} and the positive prediction 1{xi > 0} (sgn(0) = -1).
    Offsets: per sample c_k + d_k 1{y = +1} (the library's default), or b_k(prior) when ``prior`` is given."""
    x = [F(v) for v in x]
    xi = sum((F(t) * v for t, v in zip(theta, x)), F(0))
    pos = y == 1
    b0 = k.c0 + k.d0 * (1 if pos else 0) if prior is None else k.b0(prior)
    b1 = k.c1 + k.d1 * (1 if pos else 0) if prior is None else k.b1(prior)
    predicted = 1 if xi > 0 else 0
    if pos:
        phi, dphi = exact_phi(loss, xi), exact_dphi(loss, xi)
        w0, w1 = k.a0p * (1 - phi) + b0, k.a1p * (1 + phi) + b1
        g0, g1 = [-k.a0p * dphi * v for v in x], [k.a1p * dphi * v for v in x]
        t0, t1 = k.a0p * predicted + b0, k.a1p * predicted + b1
    else:
        phi, dphi = exact_phi(loss, -xi), exact_dphi(loss, -xi)  # d/dtheta phi(-xi) = -phi'(-xi) x
        w0, w1 = k.a0n * phi + b0, k.a1n * phi + b1
        g0, g1 = [-k.a0n * dphi * v for v in x], [-k.a1n * dphi * v for v in x]
        t0, t1 = k.a0n * predicted + b0, k.a1n * predicted + b1
    return w0, w1, g0, g1, t0, t1


def exact_halves(k, loss, X, y, theta):
    """Means over S_0 (first floor(n/2) samples) and S_1 (the rest): N_hat, D_hat (surrogate, Eq. (6)) and the
    true-score counterparts N_true(S_0), D_true(S_1), exactly."""
    n = X.shape[0]
    m = n // 2
    s0 = [exact_sample_scores(k, loss, X[i], int(y[i]), theta) for i in range(m)]
    s1 = [exact_sample_scores(k, loss, X[j], int(y[j]), theta) for j in range(m, n)]
    n_hat = sum((s[0] for s in s0), F(0)) / m
    d_hat = sum((s[1] for s in s1), F(0)) / (n - m)
    n_true = sum((s[4] for s in s0), F(0)) / m
    d_true = sum((s[5] for s in s1), F(0)) / (n - m)
    return n_hat, d_hat, n_true, d_true


# ================================================================================ the generators
@pytest.mark.claims("Definition 1")
@given(metric=admissible_metrics(), data=st.data())
def test_generated_metrics_satisfy_definition_1_and_admissibility_agrees(metric, data):
    """Definition 1 (generator check): every metric from admissible_metrics() has D > 0 and 0 <= U <= 1 on the
    whole feasible region, and LinearFractionalMetric.admissibility() says so.

    Oracle: exact rational evaluation of N, D at the four vertices of the (TP, FP) rectangle for priors near
    0 and 1 (pi = 2^-30, 1 - 2^-30) and at 20 random rational feasible points; the corner derivation of
    lfverify.testing.strategies is not used here.
    """
    k = Coef(metric)
    points = []
    for pi in (F(1, 2 ** 30), 1 - F(1, 2 ** 30), F(1, 2)):
        points += [(F(0), F(0), pi), (pi, F(0), pi), (F(0), 1 - pi, pi), (pi, 1 - pi, pi)]
    for _ in range(20):
        pi = F(data.draw(st.integers(1, 999)), 1000)
        u, v = (F(data.draw(st.integers(0, 64)), 64) for _ in range(2))
        points.append((u * pi, v * (1 - pi), pi))
    for tp, fp, pi in points:
        num = k.a0p * tp + k.a0n * fp + k.b0(pi)
        den = k.a1p * tp + k.a1n * fp + k.b1(pi)
        assert den > 0 and 0 <= num <= den, (metric, tp, fp, pi, num, den)
    report = metric.admissibility()
    assert report.admissible, str(report)
    assert metric.admissibility(prior=0.5).admissible


def _exact_witness(metric, flag):
    """A feasible point (TP, FP, pi) with 0 < pi < 1 where the range condition ``flag`` visibly fails
    (D <= 0, N < 0 or N > D), searched over the vertices at pi in {2^-40, 1/2, 1 - 2^-40}; None if none."""
    k = Coef(metric)
    for pi in (F(1, 2 ** 40), F(1, 2), 1 - F(1, 2 ** 40)):
        for tp, fp in ((0, 0), (pi, 0), (0, 1 - pi), (pi, 1 - pi)):
            num = k.a0p * tp + k.a0n * fp + k.b0(pi)
            den = k.a1p * tp + k.a1n * fp + k.b1(pi)
            if {"denominator_positive": den <= 0, "utility_nonnegative": num < 0,
                    "utility_at_most_one": num > den}[flag]:
                return tp, fp, pi
    return None


@pytest.mark.claims("Definition 1")
@given(metric=perturbed_metrics())
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=-0.125, a1p=0.0, a1n=0.0, b0_const=0.0, b1_const=1.0))  # N01 < 0
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=1.0, b0_prior=-0.125, b1_prior=1.0))  # N10 < 0
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.875, a1n=1.0, b1_prior=0.0,
                                       b1_const=0.0))  # D00 = D10 = 0
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=1.0, b1_prior=0.875))  # N11 > D11
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=0.125, a1p=1.0, a1n=1.0, b0_const=0.0, b1_prior=1.0))  # a0n > 0
def test_admissibility_agrees_with_the_corner_derivation_near_the_boundary(metric):
    """Definition 1: admissibility() equals the hand-derived corner conditions (lfverify.testing.strategies) on metrics
    pushed across one boundary, and every failing range condition has an exact witness point.

    Oracle: exact rational arithmetic (corner values; witness vertices at pi = 2^-40, 1/2, 1 - 2^-40).  The
    pinned examples make each kind of violation occur deterministically.
    """
    expected = definition1_by_corners(metric)
    report = metric.admissibility()
    assert {f: getattr(report, f) for f in REPORT_FLAGS} == expected
    for flag in ("denominator_positive", "utility_nonnegative", "utility_at_most_one"):
        if not expected[flag]:
            assert _exact_witness(metric, flag) is not None, (flag, corner_values(metric))


@pytest.mark.claims("Definition 1")
@given(metric=f_beta_metrics())
@example(metric=f_beta(2.770888466262316))
def test_f_beta_with_any_float_beta_is_judged_on_its_rounded_coefficients(metric):
    """Table 1 / Definition 1: F_beta's coefficients 1 + beta^2 and beta^2 are rounded to doubles, and
    admissibility() (exact on the stored doubles) must say exactly what the corner conditions say.

    Oracle: exact rational arithmetic on the stored coefficients.  Regression, pinned: beta = 2.770888466262316,
    where fl(1 + beta^2) > 1 + fl(beta^2) (about 7% of beta in [0.1, 10]); storing b1 = fl(1 + beta^2) - 1 made
    a0p = a1p + b1 exact, so U(pi, 0) = 1 exactly and the metric is admissible (it used to exceed 1 by an ulp).
    """
    expected = definition1_by_corners(metric)
    report = metric.admissibility()
    assert {f: getattr(report, f) for f in REPORT_FLAGS} == expected
    c = corner_values(metric)
    assert expected["utility_at_most_one"] == (c["D11"] >= c["N11"])  # the only corner rounding can break
    if metric.parameter == 2.770888466262316:
        beta2 = F(2.770888466262316) ** 2
        assert F(1.0 + 2.770888466262316 ** 2) > 1 + F(2.770888466262316 ** 2)  # the rounding that used to bite
        assert F(metric.a0p) == 1 + F(metric.b1_prior) and report.admissible
        # b1 is still beta^2 to within an ulp of 1 + beta^2
        assert abs(F(metric.b1_prior) - beta2) <= F(2) ** -50 * beta2


# ================================================================================ Lemma 1, population
@pytest.mark.claims("Lemma 1")
@given(metric=admissible_metrics(), loss=rational_phi_losses(), case=finite_populations(), data=st.data())
def test_lemma1_exact_on_finite_support_populations(metric, loss, case, data):
    """Lemma 1: U_phi(f) <= U(f) for every classifier f (one score per atom), every admissible metric and the
    hinge / squared hinge (phi >= 1{t <= 0}); also the proof's steps E[W_0,phi] <= E[W_0] and
    E[W_1,phi] >= E[W_1] > 0, under both readings of a positive prediction at f = 0 (sgn(0) = -1, and
    Definition 1's l(-f), ERRATA E2).

    Oracle: exact rational arithmetic from Eq. (1) and Eq. (3) (scores are multiples of 1/4, so 0 and the kinks
    +-1 occur often).  The library's utility_of_scores / surrogate_utility_of_scores must agree with it.
    """
    scores = data.draw(dyadic_scores(case.n_atoms))
    k = Coef(metric)
    fs = [F(s) for s in scores]
    num_phi, den_phi = surrogate_parts(k, case, fs, lambda t: exact_phi(loss, t), F(0))
    for positive in ([s > 0 for s in fs], [s >= 0 for s in fs]):  # sgn(0) = -1, and l(-f) = 1{f >= 0}
        num, den = exact_true_parts(k, case, positive)
        assert num_phi <= num and den_phi >= den > 0
        assert num_phi / den_phi <= num / den
    # the library: U exactly up to the rounding of weights/eta (~1e-16); U_phi up to the rounding of J-term sums
    num, den = exact_true_parts(k, case, [s > 0 for s in fs])
    pop = case.population
    assert pop.utility_of_scores(metric, scores) == pytest.approx(float(num / den), rel=1e-12, abs=1e-14)
    a_n, a_d = surrogate_abs_scale(k, case, scores, lambda t: float(loss.value(t)))
    u_phi = num_phi / den_phi
    # J <= 6 terms of size <= a_n: rounding <= ~ (J + 8) eps (a_n + |U_phi| a_d) / D_phi; 1e-13 is ~450 eps
    tol = 1e-13 * (a_n + abs(float(u_phi)) * a_d) / float(den_phi)
    assert abs(pop.surrogate_utility_of_scores(metric, loss, scores) - float(u_phi)) <= tol


def _mp_lemma1(metric, loss, case, scores):
    """(U exact as Fraction, U_phi at 50 digits, library U, library U_phi, rounding scale of U_phi)."""
    k = Coef(metric)
    num, den = exact_true_parts(k, case, [s > 0 for s in scores])
    with mpmath.workdps(DPS):
        mp_case = [mpmath.mpf(w.numerator) / w.denominator for w in case.weights]
        mp_eta = [mpmath.mpf(q.numerator) / q.denominator for q in case.eta]
        pi = mpmath.fsum(w * q for w, q in zip(mp_case, mp_eta))
        nphi = mpmath.mpf(k.c0.numerator) / k.c0.denominator + mpmath.mpf(k.d0.numerator) / k.d0.denominator * pi
        dphi = mpmath.mpf(k.c1.numerator) / k.c1.denominator + mpmath.mpf(k.d1.numerator) / k.d1.denominator * pi
        a0p, a0n, a1p, a1n = (mpmath.mpf(v.numerator) / v.denominator for v in (k.a0p, k.a0n, k.a1p, k.a1n))
        for w, q, s in zip(mp_case, mp_eta, scores):
            p, pm = mp_phi(loss, s), mp_phi(loss, -s)
            nphi += w * (a0p * (1 - p) * q + a0n * pm * (1 - q))
            dphi += w * (a1p * (1 + p) * q + a1n * pm * (1 - q))
        u_phi = nphi / dphi
    a_n, a_d = surrogate_abs_scale(k, case, scores, lambda t: float(loss.value(t)))
    scale = (a_n + abs(float(u_phi)) * a_d) / float(dphi)
    pop = case.population
    return (num / den, u_phi, pop.utility_of_scores(metric, scores),
            pop.surrogate_utility_of_scores(metric, loss, scores), scale)


@pytest.mark.claims("Lemma 1")
@given(metric=admissible_metrics(), loss=dominating_losses(), case=finite_populations(), data=st.data())
def test_lemma1_mpmath_for_every_dominating_loss(metric, loss, case, data):
    """Lemma 1: U_phi(f) <= U(f) for arbitrary per-atom scores (any float in [-40, 40], 0, +-1, +-tiny), every
    admissible metric and every loss with phi >= 1{t <= 0} (tau-logistic with tau in (0, 1), logistic, hinge,
    squared hinge, exponential, sigmoid with scale >= 2: Lemma 1 needs no convexity).

    Oracle: U in exact rational arithmetic, U_phi from Eq. (3) in mpmath at 50 digits; the inequality is decided
    on the references (slack 1e-40 for mpmath's own rounding), and the library's U_phi must agree with the
    mpmath value to 1e-13 of its rounding scale (see the exact test) and satisfy the inequality up to it.
    """
    scores = data.draw(float_scores(case.n_atoms))
    u, u_phi, lib_u, lib_u_phi, scale = _mp_lemma1(metric, loss, case, scores)
    with mpmath.workdps(DPS):
        assert u_phi <= mpmath.mpf(u.numerator) / u.denominator + mpmath.mpf(10) ** -40 * (1 + scale)
    assert abs(lib_u_phi - float(u_phi)) <= 1e-13 * scale
    assert lib_u_phi <= lib_u + 1e-13 * scale + 1e-15


@pytest.mark.claims("Lemma 1")
def test_lemma1_check_fails_without_domination():
    """Companion of the Lemma 1 tests: with a convex loss that does NOT dominate the 0/1 loss (natural-log
    logistic, phi(0) = ln 2 < 1) the same check fails: F_1, one atom with eta = 1/2, score 0 (predicted -1):
    U = 0, while E[W_0,phi] = 2 (1 - ln 2) / 2 and E[W_1,phi] = (1 + ln 2) / 2 + (ln 2) / 2 + pi with pi = 1/2,
    so U_phi = (1 - ln 2) / (1 + ln 2) = 0.181 > 0.  Oracle: exact U, mpmath U_phi."""
    pop = FiniteSupportPopulation([[0.0]], [1.0], [0.5])
    case = FinitePopulationCase(np.zeros((1, 1)), (F(1),), (F(1, 2),), pop)
    u, u_phi, lib_u, lib_u_phi, _ = _mp_lemma1(f1(), logistic(base=math.e), case, [0.0])
    assert u == 0
    with mpmath.workdps(DPS):
        p0 = mpmath.log(2) / mpmath.log(mpmath.mpf(math.e))  # phi(0) in the base fl(e) the loss really uses
        expected = (1 - p0) / (1 + p0)
        assert abs(u_phi - expected) < mpmath.mpf(10) ** -45
    assert u_phi > 0.18 and lib_u_phi > lib_u + 0.18


# ================================================================================ Lemma 1, empirical
@pytest.mark.claims("Lemma 1")
@given(metric=admissible_metrics(), loss=rational_phi_losses(), data=dyadic_datasets(), draw=st.data())
@example(metric=f1(), loss=hinge(), data=(np.array([[1.0], [-0.25]]), np.array([1, -1], dtype=np.int8)),
         draw=None)
def test_lemma1_empirical_split_statement_exact(metric, loss, data, draw):
    """Lemma 1, empirical form.  Pointwise W~_0,phi(z) <= W~_0(z) and W~_1,phi(z) >= W~_1(z) for every sample
    z, so with the paper's split N_hat <= N_true(S_0) and D_hat >= D_true(S_1), where N_true(S_0) and
    D_true(S_1) are the true scores averaged over the SAME halves; hence U_hat <= N_true(S_0) / D_true(S_1)
    whenever D_true(S_1) > 0.  (Against the whole-sample empirical utility there is no such bound; see the next
    test.)

    Oracle: exact rational arithmetic of Eq. (6) and Definition 1 per sample (dyadic data and theta); the
    library's numerator()/denominator() must agree to 1e-12 of the sum of absolute per-sample terms.
    """
    X, y = data
    theta = np.array([4.0]) if draw is None else draw.draw(dyadic_parameters(X.shape[1]))
    k = Coef(metric)
    n_hat, d_hat, n_true, d_true = exact_halves(k, loss, X, y, theta)
    assert n_hat <= n_true and d_hat >= d_true >= 0
    event(f"D_true(S_1) > 0: {d_true > 0}")
    if d_true > 0:
        assert n_hat / d_hat <= n_true / d_true
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    m = X.shape[0] // 2
    scale_n = max(abs(float(exact_sample_scores(k, loss, X[i], int(y[i]), theta)[0])) for i in range(m)) + 1.0
    scale_d = max(abs(float(exact_sample_scores(k, loss, X[j], int(y[j]), theta)[1]))
                  for j in range(m, X.shape[0])) + 1.0
    # means of <= 20 exact-input terms: rounding <= ~30 eps of the largest term; 1e-12 leaves a wide margin
    assert abs(est.numerator(theta) - float(n_hat)) <= 1e-12 * scale_n
    assert abs(est.denominator(theta) - float(d_hat)) <= 1e-12 * scale_d


@pytest.mark.claims("Lemma 1")
@given(metric=admissible_metrics(), loss=dominating_losses(), data=datasets(), draw=st.data())
def test_lemma1_empirical_split_statement_for_every_dominating_loss(metric, loss, data, draw):
    """Lemma 1, empirical form (as in the exact test above) for float data, a batch of parameters and every loss
    with phi >= 1{t <= 0}: N_hat(theta) <= N_true(S_0) and D_hat(theta) >= D_true(S_1) for every row of Theta.

    Oracle: N_true(S_0), D_true(S_1) from Definition 1 per sample (counts of sgn(theta^T x) = +1 with
    sgn(0) = -1, times the coefficients), against the library's numerator()/denominator() on the batch, up to
    the rounding bound of _mean_score_error_bound (a margin that rounds across 0 moves the surrogate score by
    at most |slope| |phi'| times the margin's rounding, which that bound contains).
    """
    X, y = data
    Theta = draw.draw(parameter_batches(X.shape[1]))
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    num, den = est.numerator(Theta), est.denominator(Theta)
    reach = np.abs(Theta).max(axis=0)
    err_n = _numerator_error_bound(metric, loss, X, y, Theta, reach)
    err_d = _denominator_error_bound(metric, loss, X, y, Theta, reach)
    m = X.shape[0] // 2
    pos = y == 1
    for row, theta in enumerate(Theta):
        predicted = (X @ theta) > 0
        w0 = np.where(pos, metric.a0p * predicted + metric.b0_const + metric.b0_prior,
                      metric.a0n * predicted + metric.b0_const)
        w1 = np.where(pos, metric.a1p * predicted + metric.b1_const + metric.b1_prior,
                      metric.a1n * predicted + metric.b1_const)
        n_true, d_true = w0[:m].mean(), w1[m:].mean()
        assert num[row] <= n_true + err_n[row] + 8 * EPS * abs(n_true)
        assert den[row] >= d_true - err_d[row] - 8 * EPS * abs(d_true)


@pytest.mark.claims("Lemma 1")
def test_u_hat_is_not_bounded_by_the_whole_sample_empirical_utility():
    """Lemma 1 has no whole-sample empirical analogue (and U_hat is not bounded by 1): F_1, hinge loss,
    S_0 = {(x, y) = (1, +1)}, S_1 = {(-1/4, -1)}, theta = 2.  By hand: N_hat = 2 (1 - hinge(2)) = 2 and
    D_hat = a1n hinge(1/2) = 1/2, so U_hat = 4, while sgn(theta x) classifies both samples correctly and the
    whole-sample empirical F_1 is 1; the split bound of the previous test is vacuous here (D_true(S_1) = 0).
    Oracle: the hand computation, and the exact Eq. (6) helper."""
    X = np.array([[1.0], [-0.25]])
    y = np.array([1, -1])
    theta = np.array([2.0])
    k = Coef(f1())
    n_hat, d_hat, n_true, d_true = exact_halves(k, hinge(), X, y, theta)
    assert (n_hat, d_hat, n_true, d_true) == (2, F(1, 2), 2, 0)  # D_true(S_1) = 0: the split bound is vacuous
    est = EmpiricalSurrogateUtility(f1(), hinge(), X, y)
    assert est.value(theta) == 4.0
    assert est.true_utility(theta) == 1.0
    assert est.value(theta) > 1.0 >= est.true_utility(theta)


# ================================================================================ Lemma 2
def _segment(t1, t2, lams):
    return [[lam * a + (1 - lam) * b for a, b in zip(t1, t2)] for lam in lams]


EXACT_LAMBDAS = [F(1, 4), F(1, 3), F(1, 2), F(2, 3), F(7, 8)]


@pytest.mark.claims("Lemma 2")
@given(metric=admissible_metrics(), loss=rational_phi_losses(), data=dyadic_datasets(), draw=st.data())
@example(metric=f1(), loss=hinge(), data=(np.array([[1.0, 0.5], [0.5, -1.0], [-1.0, 1.0], [0.25, 0.25]]),
                                           np.array([1, 1, -1, 1], dtype=np.int8)), draw=None)
def test_lemma2_exact_concavity_superlevel_set_and_quasi_concavity(metric, loss, data, draw):
    """Lemma 2 (and App. B), exactly: along any segment theta_l = l theta_1 + (1 - l) theta_2,
    (a) N_hat is concave: N_hat(theta_l) >= l N_hat(theta_1) + (1 - l) N_hat(theta_2);
    (b) D_hat is convex (the other half of App. B's argument);
    (c) if N_hat(theta_1), N_hat(theta_2) >= 0 then N_hat(theta_l) >= 0 (F-bar is convex);
    (d) and if also D_hat > 0 on the segment, U_hat(theta_l) >= min(U_hat(theta_1), U_hat(theta_2)).

    Oracle: exact rational arithmetic of Eq. (6) at the exact rational points theta_l (no tolerance).  The
    pinned example has both end points in F-bar.
    """
    X, y = data
    d = X.shape[1]
    if draw is None:
        t1, t2 = np.array([2.0, 0.5]), np.array([1.0, -1.0])
    else:
        # theta_2 = 0 is in F-bar for phi(0) = 1 (N_hat(0) averages the corner values N10, N01 >= 0), so drawing it
        # often exercises (c) and (d) without rejection
        t1 = draw.draw(dyadic_parameters(d))
        t2 = draw.draw(st.one_of(st.just(np.zeros(d)), dyadic_parameters(d)))
    k = Coef(metric)
    T1, T2 = [F(v) for v in t1], [F(v) for v in t2]
    ends = [exact_halves(k, loss, X, y, t)[:2] for t in (T1, T2)]
    inner = [exact_halves(k, loss, X, y, t)[:2] for t in _segment(T1, T2, EXACT_LAMBDAS)]
    (n1, d1), (n2, d2) = ends
    event(f"both end points in F-bar: {n1 >= 0 and n2 >= 0}")
    for lam, (nl, dl) in zip(EXACT_LAMBDAS, inner):
        assert nl >= lam * n1 + (1 - lam) * n2
        assert dl <= lam * d1 + (1 - lam) * d2
        if n1 >= 0 and n2 >= 0:
            assert nl >= 0
            if d1 > 0 and d2 > 0 and dl > 0:
                assert nl / dl >= min(n1 / d1, n2 / d2)
    if draw is None:  # the pinned example exercises (c) and (d)
        assert n1 >= 0 and n2 >= 0 and d1 > 0 and d2 > 0


def _mean_score_error_bound(Xh, yh, slope_pos, slope_neg, offset_abs, loss, thetas, theta_abs):
    """Upper bound on the rounding error of the library's mean score over one half (Xh, yh) at each row of
    ``thetas``: mean = offset + (1/h) sum_i slope_i phi(y_i theta^T x_i).

    The margin theta^T x_i has absolute error <= (d + 2) eps sum_k |x_ik| |theta_k| (dot product, plus up to
    2 eps |theta| for a rounded convex combination; ``theta_abs`` = |theta_1| + |theta_2| bounds |theta|), which
    moves phi by |phi'| times that; phi itself is accurate to a few eps relative; the sum over h terms adds
    <= h eps of the sum of absolute terms.  So |error| <= (h + d + 16) eps [(1/h) sum_i |slope_i|
    (phi_i + |phi'_i| sum_k |x_ik| theta_abs_k) + |offset|].
    """
    h, d = Xh.shape
    sign = np.where(yh == 1, 1.0, -1.0)
    slope = np.abs(np.where(yh == 1, slope_pos, slope_neg))
    reach = np.abs(Xh) @ theta_abs
    out = []
    for theta in thetas:
        t = sign * (Xh @ theta)
        phi = np.abs(loss.value(t))
        dphi = np.maximum(np.abs(loss.derivative(t, side="left")), np.abs(loss.derivative(t, side="right")))
        out.append((h + d + 16) * EPS * (np.mean(slope * (phi + dphi * reach)) + offset_abs))
    return np.array(out)


def _numerator_error_bound(metric, loss, X, y, thetas, theta_abs):
    m = X.shape[0] // 2
    return _mean_score_error_bound(X[:m], y[:m], -metric.a0p, metric.a0n,
                                   abs(metric.b0_const) + abs(metric.b0_prior) + abs(metric.a0p),
                                   loss, thetas, theta_abs)


def _denominator_error_bound(metric, loss, X, y, thetas, theta_abs):
    m = X.shape[0] // 2
    return _mean_score_error_bound(X[m:], y[m:], metric.a1p, metric.a1n,
                                   abs(metric.b1_const) + abs(metric.b1_prior) + abs(metric.a1p),
                                   loss, thetas, theta_abs)


FLOAT_LAMBDAS = np.array([0.5, 0.25, 0.75, 0.1, 1.0 / 3.0])


def _concavity_defect(metric, loss, X, y, t1, t2):
    """max over the segment points of [chord - N_hat(theta_l) - error bound] (> 0 means concavity fails)."""
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    thetas = np.vstack([t1, t2, FLOAT_LAMBDAS[:, None] * t1 + (1 - FLOAT_LAMBDAS[:, None]) * t2])
    values = est.numerator(thetas)
    err = _numerator_error_bound(metric, loss, X, y, thetas, np.abs(t1) + np.abs(t2))
    chord = FLOAT_LAMBDAS * values[0] + (1 - FLOAT_LAMBDAS) * values[1]
    slack = (err[2:] + FLOAT_LAMBDAS * err[0] + (1 - FLOAT_LAMBDAS) * err[1]
             + 2 * EPS * (abs(values[0]) + abs(values[1])))
    return float(np.max(chord - values[2:] - slack)), est, thetas, values, err


@pytest.mark.claims("Lemma 2")
@given(metric=admissible_metrics(), loss=convex_losses(), data=datasets(), draw=st.data())
def test_lemma2_numerator_is_concave_along_segments(metric, loss, data, draw):
    """Lemma 2: for convex phi, N_hat(theta) (EmpiricalSurrogateUtility.numerator) is concave: at five points of
    every segment it lies above the chord, up to a rounding bound derived in _numerator_error_bound (~1e-13 of
    the size of the terms; a non-convex loss violates it by O(1e-1), see the companion test).

    Oracle: the chord of the library's own values at the end points (a three-point inequality), with the
    derived floating-point bound; the exact-arithmetic test above is the rounding-free version.
    """
    X, y = data
    t1, t2 = draw.draw(parameters(X.shape[1])), draw.draw(parameters(X.shape[1]))
    defect = _concavity_defect(metric, loss, X, y, t1, t2)[0]
    assert defect <= 0.0


@pytest.mark.claims("Lemma 2")
def test_concavity_check_fails_for_a_nonconvex_loss():
    """Companion of the concavity test: with the non-convex sigmoid loss 2 sigma(-m) (concave for m < 0) the
    same check reports a defect: F_1, S_0 = {(1, +1)}, theta from -4 to -1.  Oracle: by hand, N_hat(theta) =
    2 (1 - 2 sigma(-theta)), whose midpoint value at -2.5 lies 0.27 below the chord."""
    X = np.array([[1.0], [1.0]])
    y = np.array([1, -1])
    defect = _concavity_defect(f1(), sigmoid(), X, y, np.array([-4.0]), np.array([-1.0]))[0]
    expected_midpoint_gap = 2 * (2 / (1 + math.exp(-2.5)) - (1 / (1 + math.exp(-4.0)) + 1 / (1 + math.exp(-1.0))))
    assert expected_midpoint_gap > 0.25
    assert defect > 0.1


@pytest.mark.claims("Lemma 2")
@given(metric=admissible_metrics(), loss=convex_dominating_losses(), data=datasets(max_n=120), draw=st.data())
@example(metric=f1(), loss=tau_logistic(0.33),
         data=(np.array([[1.0, 0.5], [0.5, -1.0], [-1.0, 1.0], [0.25, 0.25]]), np.array([1, 1, -1, 1], dtype=np.int8)),
         draw=None)
def test_lemma2_superlevel_set_and_quasi_concavity_in_floats(metric, loss, data, draw):
    """Lemma 2: F-bar = {theta : N_hat >= 0} is convex, and U_hat is quasi-concave on it: for theta_1, theta_2
    in F-bar (with D_hat > 0 on the segment), every theta_l has N_hat >= 0 and
    U_hat(theta_l) >= min(U_hat(theta_1), U_hat(theta_2)), up to the derived rounding bound.

    End points: theta_1 is drawn, theta_2 = 0, which lies in F-bar for every admissible metric and every loss
    with phi(0) = 1 (N_hat(0) averages c0 + d0 >= 0 and c0 + a0n >= 0, corner values N10 and N01), so the
    hypothesis needs no rejection sampling beyond theta_1; a second drawn end point is used when it is in F-bar.

    Oracle: three-point inequalities on the library's values with the derived rounding bound (see
    _numerator_error_bound; the denominator's bound is the same expression with its own slopes).
    """
    X, y = data
    d = X.shape[1]
    if draw is None:
        t1, t2 = np.array([2.0, 0.5]), np.array([1.0, -1.0])
    else:
        t1 = draw.draw(parameters(d))
        t2 = draw.draw(st.one_of(st.just(np.zeros(d)), parameters(d)))
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    thetas = np.vstack([t1, t2, FLOAT_LAMBDAS[:, None] * t1 + (1 - FLOAT_LAMBDAS[:, None]) * t2])
    num, den = est.numerator(thetas), est.denominator(thetas)
    reach = np.abs(t1) + np.abs(t2)
    err_n = _numerator_error_bound(metric, loss, X, y, thetas, reach)
    err_d = _denominator_error_bound(metric, loss, X, y, thetas, reach)
    assume(num[0] >= 0 and num[1] >= 0)  # both end points in F-bar (as computed)
    # the exact end values may be below the computed ones by err: concavity then guarantees the exact inner
    # value >= -(lam err_1 + (1 - lam) err_2), and the computed one is within err_l of it
    carried = FLOAT_LAMBDAS * err_n[0] + (1 - FLOAT_LAMBDAS) * err_n[1]
    assert np.all(num[2:] >= -(err_n[2:] + carried))
    assume(np.all(den > 4 * err_d))  # D_hat > 0 on the segment points, with room for its rounding
    u = num / den
    u_err = (err_n + np.abs(u) * err_d) / (den - err_d)
    floor = min(u[0] - u_err[0], u[1] - u_err[1])
    assert np.all(u[2:] + u_err[2:] + carried / (den[2:] - err_d[2:]) >= floor)


# ================================================================================ Lemma 3
def _exact_population_direction(k, loss, case, theta):
    """V_phi = E[W_1,phi] E[grad W_0,phi] - E[W_0,phi] E[grad W_1,phi] from Eq. (3) with b_k(pi), exactly
    (right derivatives at kinks, in the margin variable, as everywhere in the library)."""
    pi = case.prior
    d = len(theta)
    e0, e1 = k.b0(pi), k.b1(pi)
    g0, g1 = [F(0)] * d, [F(0)] * d
    for x, w, q in zip(case.atoms, case.weights, case.eta):
        xs = [F(v) for v in x]
        xi = sum((F(t) * v for t, v in zip(theta, xs)), F(0))
        p, pm = exact_phi(loss, xi), exact_phi(loss, -xi)
        dp, dpm = exact_dphi(loss, xi), exact_dphi(loss, -xi)
        e0 += w * (k.a0p * (1 - p) * q + k.a0n * pm * (1 - q))
        e1 += w * (k.a1p * (1 + p) * q + k.a1n * pm * (1 - q))
        dw0 = -k.a0p * dp * q - k.a0n * dpm * (1 - q)  # d/dxi of Eq. (3)'s W_0,phi (d/dxi phi(-xi) = -phi'(-xi))
        dw1 = k.a1p * dp * q - k.a1n * dpm * (1 - q)
        for c in range(d):
            g0[c] += w * dw0 * xs[c]
            g1[c] += w * dw1 * xs[c]
    return [e1 * a - e0 * b for a, b in zip(g0, g1)]


def _expected_direction_by_enumeration(k, loss, case, theta, n, prior):
    """E_S[V_hat] by enumerating every ordered sample of n (atom, label) outcomes, with the literal double sum
    of Eq. (7) over S_0 = first floor(n/2) and S_1 = the rest, exactly."""
    d = len(theta)
    outcomes = []
    for j, (w, q) in enumerate(zip(case.weights, case.eta)):
        for label, p in ((1, w * q), (-1, w * (1 - q))):
            if p:
                outcomes.append((p, exact_sample_scores(k, loss, case.atoms[j], label, theta, prior=prior)))
    m = n // 2
    total = [F(0)] * d
    for sample in itertools.product(outcomes, repeat=n):
        prob = math.prod((o[0] for o in sample), start=F(1))
        first, second = sample[:m], sample[m:]
        acc = [F(0)] * d
        for _, (w0i, _, g0i, _, _, _) in first:
            for _, (_, w1j, _, g1j, _, _) in second:
                for c in range(d):
                    acc[c] += w1j * g0i[c] - w0i * g1j[c]
        scale = prob / (m * (n - m))
        for c in range(d):
            total[c] += scale * acc[c]
    return total


@pytest.mark.claims("Lemma 3")
@given(metric=admissible_metrics(), loss=rational_phi_losses(),
       case=finite_populations(min_atoms=2, max_atoms=3, max_d=2), n=st.sampled_from([4, 3, 2]),
       known_prior=st.booleans(), draw=st.data())
@example(metric=f1(), loss=hinge(), n=3, known_prior=False, draw=None,  # margins exactly at the hinge's kink 1
         case=FinitePopulationCase(np.array([[1.0], [-1.0], [0.5]]), (F(1, 4), F(1, 4), F(1, 2)),
                                   (F(3, 4), F(1, 4), F(1, 2)),
                                   FiniteSupportPopulation([[1.0], [-1.0], [0.5]], [0.25, 0.25, 0.5],
                                                           [0.75, 0.25, 0.5])))
def test_lemma3_unbiased_direction_by_exact_enumeration(metric, loss, case, n, known_prior, draw):
    """Lemma 3: E_S[V_hat] = V_phi exactly, for generated admissible metrics and finite-support populations,
    sample sizes n = 2, 3, 4, with the per-sample offsets c_k + d_k 1{y = +1} (the library's default) and with
    the paper's literal b_k(pi) (known prior).

    Oracle: exact enumeration of all (2J)^n samples with fractions.Fraction (hinge / squared hinge at rational
    margins, right derivatives at kinks, which dyadic atoms and theta hit often), against V_phi from Eq. (3).
    The library's population V_phi and its V_hat on individual enumerated samples must agree with the exact
    values (float tolerance 1e-12 of the size of the terms).
    """
    theta = np.array([1.0]) if draw is None else draw.draw(dyadic_parameters(case.atoms.shape[1]))
    k = Coef(metric)
    prior = case.prior if known_prior else None
    event(f"n = {n}, outcomes with positive probability = {sum(1 for q in case.eta for p in (q, 1 - q) if p)}")
    expected = _expected_direction_by_enumeration(k, loss, case, theta, n, prior)
    exact_v = _exact_population_direction(k, loss, case, theta)
    assert expected == exact_v
    # library: population V_phi, and V_hat on one enumerated sample per draw
    # size of the terms of V: |W| <= size (1 + phi), |grad W| <= size |phi'| |x|, with |xi| <= R, phi <= (1 + R)^2,
    # |phi'| <= 2 (1 + R); the float sums have a few terms each, so 1e-12 of that size is ~4500 eps
    size = 1.0 + sum(abs(float(v)) for v in (k.a0p, k.a0n, k.a1p, k.a1n, k.c0, k.d0, k.c1, k.d1))
    xmax = float(np.abs(case.atoms).max())
    R = xmax * float(np.abs(theta).sum())
    big = 2 * size * size * (2 + (1 + R) ** 2) * 2 * (1 + R) * xmax
    lib_v = case.population.gradient_direction(metric, loss, theta)
    np.testing.assert_allclose(lib_v, [float(v) for v in exact_v], rtol=0, atol=1e-12 * big)
    if draw is None:
        idx, labels = [0, 1, 2], [1, -1, 1]
    else:
        idx = draw.draw(st.lists(st.integers(0, case.n_atoms - 1), min_size=n, max_size=n))
        labels = [1, -1] + draw.draw(st.lists(st.sampled_from([-1, 1]), min_size=n - 2, max_size=n - 2))  # both classes
    X = case.atoms[idx]
    scores = [exact_sample_scores(k, loss, X[i], labels[i], theta, prior=prior) for i in range(n)]
    m = n // 2
    v_hat = [sum((scores[j][1] * scores[i][2][c] - scores[i][0] * scores[j][3][c]
                  for i in range(m) for j in range(m, n)), F(0)) / (m * (n - m)) for c in range(len(theta))]
    est = EmpiricalSurrogateUtility(metric, loss, X, np.array(labels), prior=None if prior is None else float(prior))
    np.testing.assert_allclose(est.gradient_direction(theta), [float(v) for v in v_hat], rtol=0, atol=1e-12 * big)


def _mp_u_hat(metric, loss, X, y, theta, v):
    """h -> U_hat(theta + h v) from Eq. (6) per sample (per-sample offsets), at the current mpmath precision."""
    m = X.shape[0] // 2
    k = Coef(metric)
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (mpmath.mpf(x.numerator) / x.denominator for x in
                                          (k.a0p, k.a0n, k.a1p, k.a1n, k.c0, k.d0, k.c1, k.d1))
    rows = [[mpmath.mpf(float(a)) for a in row] for row in X]

    def u(h):
        t = [mpmath.mpf(float(a)) + h * mpmath.mpf(float(b)) for a, b in zip(theta, v)]
        num = den = mpmath.mpf(0)
        for i, row in enumerate(rows):
            xi = mpmath.fsum(a * b for a, b in zip(t, row))
            if y[i] == 1:
                w0, w1 = a0p * (1 - mp_phi(loss, xi)) + c0 + d0, a1p * (1 + mp_phi(loss, xi)) + c1 + d1
            else:
                w0, w1 = a0n * mp_phi(loss, -xi) + c0, a1n * mp_phi(loss, -xi) + c1
            if i < m:
                num += w0
            else:
                den += w1
        return (num / m) / (den / (X.shape[0] - m))

    return u


@pytest.mark.claims("Lemma 3")
@given(metric=general_admissible_metrics(), loss=convex_dominating_losses(),
       data=datasets(max_n=30, max_d=4), draw=st.data())
def test_gradient_of_u_hat_is_direction_over_squared_denominator(metric, loss, data, draw):
    """Sec. 3.3 / Lemma 3: grad U_hat = V_hat / D_hat^2, so V_hat is the gradient direction; checked as
    directional derivatives d/dh U_hat(theta + h v) at h = 0 for generated admissible metrics (beyond Table 1,
    which test_empirical.py covers through the library only).

    Oracle: a central difference of U_hat written from Eq. (6), in mpmath at 80 digits with a step that moves
    each margin by at most 1e-25 (away from kinks of phi: every margin is at least 1e-20 from a kink, or the
    sample's x is 0).  Tolerance: the library's V_hat and gradient are sums of
    n terms, accurate to ~(n + d) eps of (sum of absolute terms) / D_hat^2; 1e-11 of that scale.
    """
    X, y = data
    d = X.shape[1]
    theta = draw.draw(parameters(d, bound=2.0))
    v = draw.draw(parameters(d, bound=1.0))
    assume(np.linalg.norm(v) > 0)
    v = v / np.linalg.norm(v)  # unit direction: mpmath.diff's absolute step then resolves the derivative
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    margins = np.where(y == 1, 1.0, -1.0) * (X @ theta)
    for kink in kinks_of(loss):
        near = np.abs(margins - kink) <= 1e-20
        assume(not np.any(near & np.any(X != 0, axis=1)))
    den = est.denominator(theta)
    assume(den > 1e-3)
    reach = float(np.max(np.abs(X @ v)))  # largest change of a margin per unit h
    if reach == 0:
        ref = 0.0  # no margin moves: U_hat is constant along v
    else:
        # central difference at 80 digits with the margins moving by +-1e-25: truncation ~ (1e-25)^2 relative,
        # cancellation costs 25 of the 80 digits; valid because no kink is within 1e-20 of a moving margin
        with mpmath.workdps(80):
            step = mpmath.mpf(10) ** -25 / mpmath.mpf(reach)
            u = _mp_u_hat(metric, loss, X, y, theta, v)
            ref = (u(step) - u(-step)) / (2 * step)
    ev = est.evaluate(theta)
    m = X.shape[0] // 2
    t = margins
    absphi = np.abs(loss.value(t)) + 1.0
    absd = np.maximum(np.abs(loss.derivative(t, side="left")), np.abs(loss.derivative(t, side="right")))
    size = 1.0 + max(abs(metric.a0p), abs(metric.a0n), abs(metric.a1p), abs(metric.a1n),
                     abs(metric.b0_const) + abs(metric.b0_prior), abs(metric.b1_const) + abs(metric.b1_prior))
    proj = np.abs(X) @ np.abs(v)
    s_n, s_d = size * absphi[:m].mean(), size * absphi[m:].mean()
    s_gn, s_gd = size * (absd[:m] * proj[:m]).mean(), size * (absd[m:] * proj[m:]).mean()
    scale = (s_d * s_gn + s_n * s_gd) / den ** 2
    # plus the oracle's own resolution: U_hat's terms rounded at 80 digits (1e-80 of s_n, s_d, relative to D_hat)
    # divided by the step 1e-25 / reach (matters only when the derivative is below 1e-50, e.g. subnormal tau)
    resolution = 1e-50 * (s_n + s_d) / den * reach
    tol = 1e-11 * scale + resolution
    assert abs(float(ev.gradient @ v) - float(ref)) <= tol
    assert abs(float(ev.gradient_direction @ v) / den ** 2 - float(ref)) <= tol


# ================================================================================ Prop. 5
def _brute_force(k, case):
    """All 2^J classifiers (lambda_j = 1: predict +1 on atom j) with their exact U; (U-dagger, optimal set)."""
    values = {}
    for lam in itertools.product((0, 1), repeat=case.n_atoms):
        num, den = exact_true_parts(k, case, lam)
        values[lam] = num / den
    best = max(values.values())
    return best, {lam for lam, u in values.items() if u == best}


@pytest.mark.claims("Proposition 5")
@given(metric=admissible_metrics(), case=finite_populations(max_atoms=7))
@example(metric=LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=4.0, a1n=0.0, b0_const=1.0, b0_prior=-1.0, b1_const=1.0),
         case=FinitePopulationCase(np.array([[1.0], [-1.0]]), (F(1, 2), F(1, 2)), (F(1), F(0)),
                                   FiniteSupportPopulation([[1.0], [-1.0]], [0.5, 0.5], [1.0, 0.0])))  # c < 0
@example(metric=accuracy(), case=FinitePopulationCase(
    np.array([[0.0], [1.0], [2.0]]), (F(1, 4), F(1, 4), F(1, 2)), (F(1, 2), F(9, 10), F(1, 10)),
    FiniteSupportPopulation([[0.0], [1.0], [2.0]], [0.25, 0.25, 0.5], [0.5, 0.9, 0.1])))
def test_prop5_threshold_characterisation_by_brute_force(metric, case):
    """Prop. 5: with c = Da0 - Da1 U-dagger and e = a1n U-dagger - a0n, a classifier is Bayes optimal iff it
    predicts +1 on every atom with c eta - e > 0 and -1 on every atom with c eta - e < 0 (atoms with
    c eta = e are free: ties, cf. the 'P-a.e.' reading in ERRATA); when c > 0 this is the threshold
    eta > delta(U-dagger) -> +1, eta < delta -> -1 with delta = e / c; when c <= 0 the always-negative
    classifier is optimal (e >= 0 for U-dagger >= 0).  The library's bayes_optimal attains U-dagger.

    Oracle: brute force over all 2^J sign patterns with U computed exactly from Definition 1 (Fractions); the
    set of optimal patterns must equal the set the characterisation predicts.  The pinned example (accuracy,
    an atom with eta = 1/2 = delta) has a tie.
    """
    k = Coef(metric)
    u_dagger, optimal = _brute_force(k, case)
    c = (k.a0p - k.a0n) - (k.a1p - k.a1n) * u_dagger
    e = k.a1n * u_dagger - k.a0n
    g = [c * q - e for q in case.eta]
    predicted = {lam for lam in itertools.product((0, 1), repeat=case.n_atoms)
                 if all((lj == 1) if gj > 0 else (lj == 0) if gj < 0 else True for lj, gj in zip(lam, g))}
    assert optimal == predicted
    event(f"sign of Da0 - Da1 U-dagger: {'+' if c > 0 else '0' if c == 0 else '-'}")
    event(f"atoms on the threshold (c eta = e): {any(gj == 0 for gj in g)}")
    if c > 0:
        delta = e / c
        for lam in optimal:
            for lj, q in zip(lam, case.eta):
                if q > delta:
                    assert lj == 1
                elif q < delta:
                    assert lj == 0
        assert metric.bayes_optimal_threshold(float(u_dagger)) == pytest.approx(float(delta), rel=1e-12, abs=1e-15)
    else:
        assert tuple([0] * case.n_atoms) in optimal
    # the library: U-dagger to rounding (float weights/eta: ~1e-16 relative), and a mask whose exact U is
    # U-dagger up to that rounding (two patterns closer than rounding may be confused)
    result = case.population.bayes_optimal(metric)
    assert result.utility == pytest.approx(float(u_dagger), rel=1e-12, abs=1e-15)
    num, den = exact_true_parts(k, case, [bool(b) for b in result.classifier])
    assert float(u_dagger - num / den) <= 1e-12 * (1 + abs(float(u_dagger)))
    if metric.name == "accuracy" and case.eta[0] == F(1, 2):  # the pinned tie: both labels of atom 0 optimal
        assert {lam[0] for lam in optimal} == {0, 1}


@pytest.mark.claims("Theorem 7")
def test_remark_after_thm7_pathologies_are_swapped():
    """App. A.4, after Thm. 7: 'the Bayes optimal rule would be a classifier that always outputs positive values
    without the conditions (1) and (2); ... always outputs negative values without the condition (3)'.  The
    witnesses show the reverse for Definition 1 metrics (claim counterexamples_prop5.thm7_pathology_remark in
    lfverify/proofs/counterexamples_prop5.py; found by the Prop. 5 test above, where c = Da0 - Da1 U-dagger < 0
    occurs for about 2% of generated cases):

    * (1), (3), (4) hold, (2) fails: U = (TP + TN) / (1 + 4 TP) (a0 = (1, -1), b0 = 1 - pi, a1 = (4, 0), b1 = 1,
      admissible) on atoms eta = (1, 0) with weights (1/2, 1/2): the UNIQUE Bayes rule is always negative
      (U-dagger = 1/2), although predicting +1 on the eta = 1 atom makes every prediction correct; likewise
      U = (2 TP + pi) / (4 TP + FP + pi), for which (1), (3), (4), (5) all hold (printed and corrected (5)) and
      only (2) fails: U = 1 at TP = FP = 0, so always negative is optimal on every population;
    * (1), (2) hold, (3) fails: recall U = TP / pi (a0 = (1, 0), a1 = (0, 0), b1 = pi): every Bayes rule is +1 on
      every atom with eta > 0 (always positive).

    Oracle: brute force over all labelings in exact arithmetic; the library's bayes_optimal agrees.
    """
    pop = FiniteSupportPopulation([[1.0], [-1.0]], [0.5, 0.5], [1.0, 0.0])
    case = FinitePopulationCase(np.array([[1.0], [-1.0]]), (F(1, 2), F(1, 2)), (F(1), F(0)), pop)
    m2 = LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=4.0, a1n=0.0, b0_const=1.0, b0_prior=-1.0, b1_const=1.0)
    assert definition1_by_corners(m2) == dict.fromkeys(REPORT_FLAGS, True) and m2.admissibility().admissible
    assert m2.delta_a0 > 0 and not m2.delta_a1 <= 0 and m2.a0n != 0 and m2.a0n + m2.a1n != 0  # (1), not (2), (3), (4)
    u, optimal = _brute_force(Coef(m2), case)
    assert u == F(1, 2) and optimal == {(0, 0)}
    assert pop.bayes_optimal(m2).utility == 0.5 and not pop.bayes_optimal(m2).classifier.any()
    m5 = LinearFractionalMetric(a0p=2.0, a0n=0.0, a1p=4.0, a1n=1.0, b0_prior=1.0, b1_prior=1.0)
    assert m5.admissibility().admissible and m5.a0p * m5.a1n + m5.a0n * m5.a1p > 0 and m5.a1n + m5.a0n != 0
    assert m5.delta_a0 > 0 and m5.delta_a1 > 0 and m5.a1n != 0  # only (2) fails among (1)-(5)
    values = {lam: exact_true_parts(Coef(m5), case, lam) for lam in itertools.product((0, 1), repeat=2)}
    assert {lam: nd[0] / nd[1] for lam, nd in values.items()} == {(0, 0): 1, (0, 1): F(1, 2), (1, 0): F(3, 5),
                                                                 (1, 1): F(1, 2)}
    recall = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=0.0, b1_prior=1.0)
    assert recall.admissibility().admissible
    assert recall.delta_a0 > 0 and recall.delta_a1 <= 0 and recall.a0n == 0 and recall.a1n == 0  # (1), (2), not (3)
    case3 = FinitePopulationCase(np.array([[0.0], [1.0], [2.0]]), (F(1, 3), F(1, 3), F(1, 3)),
                                 (F(1, 10), F(0), F(3, 5)),
                                 FiniteSupportPopulation([[0.0], [1.0], [2.0]], [1 / 3, 1 / 3, 1 / 3], [0.1, 0.0, 0.6]))
    u, optimal = _brute_force(Coef(recall), case3)
    assert u == 1 and optimal == {(1, 0, 1), (1, 1, 1)}  # +1 wherever eta > 0; the eta = 0 atom is free


# ================================================================================ losses
# Only what tests/core/test_losses.py does not cover: generated tau (it uses tau in {0.1, 0.33, 0.75, 1}), triples
# and tangent lines placed across the kinks, and the subgradient inequality with the one-sided derivatives.
def _kink_straddling_triples(kink, width=50.0):
    """(a, b, lam) with a < kink < b (a and b at any distance from the kink, down to 1e-12) and lam in (0, 1)."""
    offsets = st.one_of(st.floats(1e-12, 1e-6), st.floats(1e-6, width))
    return st.tuples(offsets.map(lambda o: kink - o), offsets.map(lambda o: kink + o),
                     st.floats(0.0, 1.0, exclude_min=True, exclude_max=True))


def _chord_excess(loss, a, b, lam):
    c = lam * a + (1 - lam) * b
    w = (c - b) / (a - b)  # exact position of the rounded c between a and b (up to one rounding)
    fa, fb, fc = (float(loss.value(x)) for x in (a, b, c))
    return fc - (w * fa + (1 - w) * fb) - 16 * EPS * (abs(fa) + abs(fb) + abs(fc))


@pytest.mark.claims("Definition 2")
@given(tau=taus(), t=_kink_straddling_triples(0.0))
def test_tau_logistic_convex_across_its_kink_for_generated_tau(tau, t):
    """Lemma 2 / Fig. 2 hypothesis: tau_logistic(tau) is convex on the whole line for every tau in (0, 1), checked
    by chords whose ends straddle the kink at 0.  Oracle: the chord inequality phi(c) <= chord(c) with a
    rounding slack of 16 eps of the values (a concave kink, tau > 1, violates it by O(|a| + |b|) (1 - tau)/ln 4)."""
    assert _chord_excess(tau_logistic(tau), *t) <= 0.0


@pytest.mark.claims("Definition 2")
@pytest.mark.parametrize("loss", [hinge(), squared_hinge()], ids=str)
@given(t=_kink_straddling_triples(1.0))
def test_hinge_losses_convex_across_their_kink(loss, t):
    """Convexity of the hinge and squared hinge across their kink at m = 1 (chords straddling it).
    Oracle: the chord inequality with a 16 eps slack."""
    assert _chord_excess(loss, *t) <= 0.0


@pytest.mark.claims("Definition 2")
def test_chord_check_detects_a_concave_kink():
    """Companion: the chord check fails for tau-logistic with tau = 2 (constructed bypassing the library's
    tau <= 1 check via a subclass; a concave kink, ERRATA E4)."""

    class Steep(TauDiscrepantLogisticLoss):
        def __post_init__(self):
            pass

    steep = Steep(tau=2.0)
    # ERRATA E4's witness: phi(-h) + phi(h) - 2 phi(0) = -0.0631 at h = 1/10, so the chord is 0.0316 below phi(0)
    assert _chord_excess(steep, -0.1, 0.1, 0.5) > 0.03


def _subgradient_violation(loss, a, b):
    """max over side of phi(a) + phi'(a, side) (b - a) - phi(b) - slack (> 0: the tangent lies above phi)."""
    fa, fb = float(loss.value(a)), float(loss.value(b))
    worst = -math.inf
    for side in ("left", "right"):
        g = float(loss.derivative(a, side=side))
        slack = 8 * EPS * (abs(fa) + abs(fb) + abs(g * (b - a)))
        worst = max(worst, fa + g * (b - a) - fb - slack)
    return worst


points = st.one_of(st.floats(-30.0, 30.0), st.sampled_from([0.0, 1.0, -1.0, 1e-12, -1e-12, 1 + 1e-12, 1 - 1e-12]))


@pytest.mark.claims("Definition 2")
@given(loss=convex_dominating_losses(), a=points, b=points)
@example(loss=tau_logistic(0.2), a=0.0, b=5.0)
@example(loss=tau_logistic(0.2), a=0.0, b=-5.0)
@example(loss=hinge(), a=1.0, b=3.0)
@example(loss=hinge(), a=1.0, b=-3.0)
def test_one_sided_derivatives_are_subgradients(loss, a, b):
    """Convexity through the derivatives: for convex phi both one-sided derivatives at a are subgradients,
    phi(b) >= phi(a) + phi'(a+-) (b - a) for all b, in particular at the kinks (0 for tau-logistic, 1 for the
    hinges), where the left and right tangents differ.  Oracle: the subgradient inequality with an 8 eps
    rounding slack; the pinned examples place a exactly at the kinks."""
    assert _subgradient_violation(loss, a, b) <= 0.0


@pytest.mark.claims("Definition 2")
def test_subgradient_check_detects_a_wrong_one_sided_derivative():
    """Companion: a right derivative of 0 at the kink (instead of -tau/(2 ln 2)) is not a subgradient:
    phi(5) = log2(1 + e^{-1}) < phi(0) + 0 * 5 = 1."""

    class Flat(TauDiscrepantLogisticLoss):
        def _derivative(self, m, right):
            out = super()._derivative(m, right)
            return np.where((m == 0) & right, 0.0, out)

    assert _subgradient_violation(Flat(tau=0.2), 0.0, 5.0) > 0.1


@pytest.mark.claims("Definition 2")
@given(tau=taus(), a=points, b=points)
def test_tau_logistic_monotone_and_dominating_for_generated_tau(tau, a, b):
    """Thms. 1, 2 / Lemma 1 hypotheses for every tau in (0, 1): phi is non-increasing (phi(a) >= phi(b) for
    a <= b, one-sided derivatives <= 0) and phi(m) >= 1{m <= 0}.  Oracle: the definitions; a 4 eps slack on the
    value comparison (one rounding of log1p/exp per value)."""
    loss = tau_logistic(tau)
    lo, hi = min(a, b), max(a, b)
    assert float(loss.value(lo)) >= float(loss.value(hi)) * (1 - 4 * EPS)
    for m in (a, b):
        assert float(loss.derivative(m, side="left")) <= 0 and float(loss.derivative(m, side="right")) <= 0
        assert float(loss.value(m)) >= (1.0 if m <= 0 else 0.0)


@pytest.mark.claims("Definition 2")
@given(case=tau_discrepant_losses())
@example(case=(tau_logistic(5e-324), 5e-324))
def test_tau_logistic_discrepancy_for_generated_tau(case):
    """Definition of tau-discrepancy: phi'(0+) = -tau/(2 ln 2) = tau phi'(0-), so tau_logistic(tau) is
    tau-discrepant and not tau'-discrepant for any tau' < tau.

    Oracle: mpmath one-sided difference quotients of the formula at 50 digits with step 1e-30, written without
    cancellation (phi(+-h) - phi(0) = log1p(expm1(-+s h) / 2) / ln 2), so that they are accurate to ~1e-30
    relative even for tau = 5e-324.  The library's doubles must agree to 4 eps relative, or to a few units of
    the subnormal spacing 2^-1074 when tau is subnormal (phi'(0+) = -tau / (2 ln 2) is then itself subnormal).
    """
    loss, tau = case
    with mpmath.workdps(DPS):
        h, ln2 = mpmath.mpf(10) ** -30, mpmath.log(2)
        right = mpmath.log1p(mpmath.expm1(-mpmath.mpf(tau) * h) / 2) / ln2 / h
        left = -mpmath.log1p(mpmath.expm1(h) / 2) / ln2 / h
        assert abs(right / (-mpmath.mpf(tau) / (2 * ln2)) - 1) < mpmath.mpf(10) ** -25
    tiny = 8 * 5e-324
    assert float(loss.derivative(0.0, side="right")) == pytest.approx(float(right), rel=4 * EPS, abs=tiny)
    assert float(loss.derivative(0.0, side="left")) == pytest.approx(float(left), rel=4 * EPS, abs=0)
    assert loss.discrepancy == tau
    assert loss.is_tau_discrepant(tau)
    below = float(np.nextafter(tau, 0.0))
    if below > 0:
        assert not loss.is_tau_discrepant(below)
