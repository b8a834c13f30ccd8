"""Tests of the empirical estimators U_hat (Eq. (6)) and V_hat (Eq. (7)) in lfverify.core._empirical.

Oracles: the literal double sum of Eq. (7) (``reference_gradient_direction``), per-sample loops of Eq. (6),
central finite differences, scikit-learn's metrics, and exact enumeration of all samples of a finite-support
population (Lemma 3).

Private: lfverify.core._empirical, imported to patch its chunk size _CHUNK_ELEMENTS small, so that the chunked sums are
tested against the unchunked ones on small samples.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from sklearn.metrics import f1_score

import lfverify.core._empirical as empirical
from lfverify.core import (
    EmpiricalSurrogateUtility,
    FiniteSupportPopulation,
    SampleSplit,
    accuracy,
    exponential,
    f1,
    f_beta,
    gower_legendre,
    hinge,
    jaccard,
    logistic,
    reference_gradient_direction,
    reference_surrogate_utility,
    sample_split,
    sigmoid,
    squared_hinge,
    tau_logistic,
)

#: The default: the estimators as implementations of Eqs. (6) and (7), their batches, splits and errors; the two tests
#: whose oracle is Lemma 3 (E_S[V_hat] = V_phi, and its failure without independent halves) name it.
pytestmark = pytest.mark.claims("package:numerics")

METRICS = [f1(), f_beta(2.0), f_beta(0.5), jaccard(), accuracy(), gower_legendre(1.0)]
LOSSES = [tau_logistic(0.33), tau_logistic(0.75), logistic(), hinge(), squared_hinge(), sigmoid()]


def _data(seed, n, d, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * scale
    y = np.where(rng.random(n) < 0.4, 1, -1)
    y[0], y[-1] = 1, -1  # both classes present
    theta = rng.normal(size=d)
    return X, y, theta


def _direction_scale(est, theta):
    """|D| ||grad N|| + |N| ||grad D||: the size of the two terms whose difference is V_hat; rounding in either
    is relative to this, so it is the honest denominator of a relative error when V_hat itself is small."""
    return abs(est.denominator(theta)) * np.linalg.norm(est.numerator_gradient(theta)) + abs(
        est.numerator(theta)) * np.linalg.norm(est.denominator_gradient(theta))


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 60), d=st.integers(1, 5),
       metric=st.sampled_from(METRICS), loss=st.sampled_from(LOSSES), shuffle=st.booleans(),
       prior=st.sampled_from([None, 0.3]))
def test_fast_gradient_direction_equals_literal_double_sum(seed, n, d, metric, loss, shuffle, prior):
    """Eq. (7): the O(n d) factorised V_hat equals the literal double sum (oracle) to 1e-10 relative."""
    X, y, theta = _data(seed, n, d)
    split = sample_split(n, shuffle=shuffle, seed=seed)
    est = EmpiricalSurrogateUtility(metric, loss, X, y, split=split, prior=prior)
    ref = reference_gradient_direction(metric, loss, X, y, theta, split=split, prior=prior)
    fast = est.gradient_direction(theta)
    scale = max(_direction_scale(est, theta), np.linalg.norm(ref))
    assert np.linalg.norm(fast - ref) <= 1e-10 * scale


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 60), d=st.integers(1, 5),
       metric=st.sampled_from(METRICS), loss=st.sampled_from(LOSSES), prior=st.sampled_from([None, 0.3]))
def test_surrogate_utility_equals_per_sample_loops(seed, n, d, metric, loss, prior):
    """Eq. (6): U_hat equals the ratio of the two per-sample averages written case by case (oracle)."""
    X, y, theta = _data(seed, n, d)
    est = EmpiricalSurrogateUtility(metric, loss, X, y, prior=prior)
    den = est.denominator(theta)
    assume(den > 1e-8)
    ref = reference_surrogate_utility(metric, loss, X, y, theta, prior=prior)
    assert est.value(theta) == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_reference_double_sum_detects_a_wrong_estimator():
    """The oracle can fail: a V_hat computed from the same sample for both halves differs from Eq. (7)."""
    X, y, theta = _data(7, 40, 3)
    metric, loss = f1(), tau_logistic(0.33)
    ref = reference_gradient_direction(metric, loss, X, y, theta)
    same_sample = SampleSplit(np.arange(40), np.arange(40))  # not a partition: built by hand
    wrong = reference_gradient_direction(metric, loss, X, y, theta, split=same_sample)
    assert np.linalg.norm(wrong - ref) > 1e-3 * np.linalg.norm(ref)


def _has_kink_within(loss, X, y, theta, h):
    t = np.where(np.asarray(y) == 1, 1.0, -1.0) * (X @ theta)
    reach = h * np.abs(X).sum(axis=1)
    return any(np.any(np.abs(t - k) <= reach) for k in loss.kinks)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 50), d=st.integers(1, 4),
       metric=st.sampled_from(METRICS), loss=st.sampled_from(LOSSES))
def test_gradient_matches_central_finite_differences(seed, n, d, metric, loss):
    """grad U_hat and grad N_hat against central differences (oracle) away from kinks of phi.

    Step h = 1e-5: truncation error ~ h^2 |U'''| ~ 1e-10 and rounding ~ eps |U| / h ~ 1e-11 for these O(1)
    data, so a 1e-6 relative tolerance (to the gradient's scale plus 1e-8 absolute) is generous yet able to
    fail: a wrong sign or factor shows up at order 1.
    """
    X, y, theta = _data(seed, n, d)
    h = 1e-5
    assume(not _has_kink_within(loss, X, y, theta, 2 * h))
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    assume(est.denominator(theta) > 1e-3)
    ev = est.evaluate(theta)
    eye = np.eye(d)
    fd_u = np.array([(est.value(theta + h * e) - est.value(theta - h * e)) / (2 * h) for e in eye])
    fd_n = np.array([(est.numerator(theta + h * e) - est.numerator(theta - h * e)) / (2 * h) for e in eye])
    fd_d = np.array([(est.denominator(theta + h * e) - est.denominator(theta - h * e)) / (2 * h) for e in eye])
    for got, fd in [(ev.gradient, fd_u), (ev.numerator_gradient, fd_n), (ev.denominator_gradient, fd_d)]:
        assert np.linalg.norm(got - fd) <= 1e-6 * np.linalg.norm(fd) + 1e-8


@given(seed=st.integers(0, 2**32 - 1), metric=st.sampled_from(METRICS), loss=st.sampled_from(LOSSES))
def test_gradient_is_direction_over_squared_denominator(seed, metric, loss):
    """grad U_hat = V_hat / D_hat^2 (Sec. 3.3), through separate public calls; exact up to one rounding."""
    X, y, theta = _data(seed, 30, 3)
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    assume(est.denominator(theta) > 1e-8)
    expected = est.gradient_direction(theta) / est.denominator(theta) ** 2
    np.testing.assert_allclose(est.gradient(theta), expected, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("loss", LOSSES, ids=str)
def test_batch_equals_single_evaluations_and_chunking_is_invisible(loss, monkeypatch):
    """A batch Theta of shape (K, d) gives row by row what K single calls give, also when chunked."""
    X, y, _ = _data(3, 5000, 4)
    rng = np.random.default_rng(4)
    Theta = rng.normal(size=(7, 4))
    est = EmpiricalSurrogateUtility(jaccard(), loss, X, y)
    batch = est.evaluate(Theta, true_utility=True)
    for k in range(7):
        single = est.evaluate(Theta[k], true_utility=True)
        for field in batch._fields:
            np.testing.assert_allclose(getattr(batch, field)[k], getattr(single, field), rtol=1e-13, atol=1e-15)
    monkeypatch.setattr(empirical, "_CHUNK_ELEMENTS", 64)  # forces chunks of 1024 rows: 3 chunks per half
    chunked = est.evaluate(Theta, true_utility=True)
    for field in batch._fields:
        np.testing.assert_allclose(getattr(chunked, field), getattr(batch, field), rtol=1e-12, atol=1e-15)
    assert est.value(Theta).shape == (7,)
    assert est.gradient_direction(Theta).shape == (7, 4)
    assert np.ndim(est.value(Theta[0])) == 0 and est.gradient(Theta[0]).shape == (4,)


def test_true_utility_agrees_with_scikit_learn_and_uses_sign_zero_minus_one():
    """Empirical true utility on the whole sample = sklearn's f1_score of sgn(theta^T x) with sgn(0) = -1."""
    X, y, theta = _data(11, 301, 3)
    est = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y)
    predicted = np.where(X @ theta > 0, 1, -1)
    assert est.true_utility(theta) == pytest.approx(f1_score(y, predicted), rel=1e-12, abs=0)
    # theta = 0 scores every sample 0, which sgn maps to -1: nothing predicted positive, F1 = 0
    assert est.true_utility(np.zeros(3)) == 0.0
    # a zero score counts as negative even when theta != 0
    X0 = X.copy()
    X0[:, 0] = 0.0
    est0 = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X0, y)
    assert est0.true_utility(np.array([1.0, 0.0, 0.0])) == 0.0


@pytest.mark.claims("Lemma 3")
def test_expected_gradient_direction_is_unbiased_by_exact_enumeration():
    """Lemma 3: E_S[V_hat] = V_phi exactly, enumerating every sample of size n = 4 from a 3-atom population.

    Oracle: exact enumeration (probability-weighted sum over all (atom, label)^4 samples) against the
    population's V_phi; with the per-sample form of the prior-dependent offsets no knowledge of pi enters.
    """
    atoms = np.array([[1.0, 0.5], [-0.7, 1.2], [0.3, -1.1]])
    weights = np.array([0.5, 0.3, 0.2])
    eta = np.array([0.8, 0.35, 0.1])
    pop = FiniteSupportPopulation(atoms, weights, eta)
    theta = np.array([0.6, -0.4])
    outcomes = [(j, lab, weights[j] * (eta[j] if lab == 1 else 1 - eta[j])) for j in range(3) for lab in (1, -1)]
    for metric in (f1(), jaccard(), f_beta(2.0)):
        loss = tau_logistic(0.33)
        expected = np.zeros(2)
        total_prob = 0.0
        for sample in itertools.product(outcomes, repeat=4):
            prob = math.prod(o[2] for o in sample)
            X = atoms[[o[0] for o in sample]]
            y = np.array([o[1] for o in sample])
            expected += prob * reference_gradient_direction(metric, loss, X, y, theta)
            total_prob += prob
        assert total_prob == pytest.approx(1.0, abs=1e-14)
        np.testing.assert_allclose(expected, pop.gradient_direction(metric, loss, theta), rtol=1e-12, atol=1e-15)


@pytest.mark.claims("Lemma 3")
def test_same_sample_estimator_is_biased():
    """The companion of the unbiasedness check can fail: using one sample for both averages (dropping the
    independence of S_0 and S_1) gives E[V] != V_phi for n = 2 (exact enumeration)."""
    atoms = np.array([[1.0, 0.5], [-0.7, 1.2]])
    weights = np.array([0.6, 0.4])
    eta = np.array([0.8, 0.2])
    pop = FiniteSupportPopulation(atoms, weights, eta)
    theta = np.array([0.6, -0.4])
    metric, loss = f1(), tau_logistic(0.33)
    outcomes = [(j, lab, weights[j] * (eta[j] if lab == 1 else 1 - eta[j])) for j in range(2) for lab in (1, -1)]
    biased = np.zeros(2)
    for sample in itertools.product(outcomes, repeat=2):
        prob = math.prod(o[2] for o in sample)
        X = atoms[[o[0] for o in sample]]
        y = np.array([o[1] for o in sample])
        same = SampleSplit(np.arange(2), np.arange(2))
        biased += prob * reference_gradient_direction(metric, loss, X, y, theta, split=same)
    assert np.linalg.norm(biased - pop.gradient_direction(metric, loss, theta)) > 1e-3


def test_sample_split_sizes_partition_and_seeds():
    for n in (2, 3, 10, 11):
        s = sample_split(n)
        assert len(s.first) == n // 2 and np.array_equal(np.concatenate(s), np.arange(n))
    a = sample_split(50, shuffle=True, seed=123)
    b = sample_split(50, shuffle=True, seed=123)
    c = sample_split(50, shuffle=True, seed=124)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert not np.array_equal(a.first, c.first)
    assert np.array_equal(np.sort(np.concatenate(a)), np.arange(50)) and len(a.first) == 25


def test_random_split_uses_the_given_partition():
    X, y, theta = _data(5, 40, 3)
    est = EmpiricalSurrogateUtility(f1(), logistic(), X, y, split="random", seed=9)
    split = sample_split(40, shuffle=True, seed=9)
    ref = reference_surrogate_utility(f1(), logistic(), X, y, theta, split=split)
    assert est.value(theta) == pytest.approx(ref, rel=1e-12, abs=0)


def test_zero_one_labels_are_mapped_to_minus_one():
    X, y, theta = _data(6, 30, 2)
    a = EmpiricalSurrogateUtility(jaccard(), logistic(), X, y).evaluate(theta)
    b = EmpiricalSurrogateUtility(jaccard(), logistic(), X, (y == 1).astype(int)).evaluate(theta)
    for field in a._fields:
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


# ---------------------------------------------------------------------- bad input
def test_bad_input_is_rejected_with_named_arguments():
    X, y, theta = _data(1, 20, 3)
    metric, loss = f1(), logistic()
    bad_X = X.copy()
    bad_X[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"X must contain only finite values.*\(2, 1\)"):
        EmpiricalSurrogateUtility(metric, loss, bad_X, y)
    with pytest.raises(ValueError, match="y must hold labels"):
        EmpiricalSurrogateUtility(metric, loss, X, np.full(20, 2))
    with pytest.raises(ValueError, match="y must contain both classes; got only class -1"):
        EmpiricalSurrogateUtility(metric, loss, X, -np.ones(20))
    with pytest.raises(ValueError, match="y must have 20 entries"):
        EmpiricalSurrogateUtility(metric, loss, X, y[:-1])
    with pytest.raises(ValueError, match="X must have at least 2 rows"):
        EmpiricalSurrogateUtility(metric, loss, X[:1], y[:1])
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        EmpiricalSurrogateUtility(metric, loss, X[:, 0], y)
    with pytest.raises(ValueError, match="n_samples must be at least 2"):
        sample_split(1)
    with pytest.raises(ValueError, match="split must partition"):
        EmpiricalSurrogateUtility(metric, loss, X, y, split=SampleSplit(np.arange(5), np.arange(5, 19)))
    with pytest.raises(TypeError, match="metric must be a LinearFractionalMetric"):
        EmpiricalSurrogateUtility("f1", loss, X, y)
    with pytest.raises(TypeError, match="loss must be a SurrogateLoss"):
        EmpiricalSurrogateUtility(metric, lambda m: m, X, y)
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    with pytest.raises(ValueError, match=r"theta must have shape \(3,\) or \(K, 3\)"):
        est.value(np.ones(4))
    with pytest.raises(ValueError, match="theta must contain only finite values"):
        est.value(np.array([1.0, np.inf, 0.0]))
    with pytest.raises(ValueError, match="prior must lie in"):
        EmpiricalSurrogateUtility(metric, loss, X, y, prior=1.5)


def test_nonpositive_denominator_is_reported_not_returned_as_nan():
    """Jaccard with the hinge loss: if S_1 holds only negatives with margins >= 1, D_hat = 0 exactly."""
    X = np.array([[1.0], [2.0], [-1.0], [-2.0]])
    y = np.array([1, 1, -1, -1])  # S_0 = both positives, S_1 = both negatives
    est = EmpiricalSurrogateUtility(jaccard(), hinge(), X, y)
    theta = np.array([[1.0], [0.1]])  # row 0: margins -theta x = 1, 2 -> hinge 0 -> D = 0; row 1 fine
    with pytest.raises(ValueError, match=r"denominator must be positive.*rows \[0\].*\[0\.0\]"):
        est.evaluate(theta)
    assert est.denominator(theta)[0] == 0.0  # the parts themselves are still available
    assert est.value(theta[1]) > -np.inf


def test_overflowing_scores_raise_instead_of_returning_inf_or_nan():
    X, y, _ = _data(2, 20, 2)
    est = EmpiricalSurrogateUtility(f1(), exponential(), X, y)
    with pytest.raises(ValueError, match="overflow"):
        est.evaluate(np.array([1e3, 1e3]))


@given(seed=st.integers(0, 2**32 - 1), metric=st.sampled_from(METRICS), loss=st.sampled_from(LOSSES),
       prior=st.sampled_from([None, 0.3]), side=st.sampled_from(["right", "left"]))
@example(seed=690, metric=METRICS[1], loss=LOSSES[0], prior=None, side="right")  # the cancellation below
def test_per_sample_surrogate_scores_match_the_cases_of_eq6(seed, metric, loss, prior, side):
    """scores.surrogate_scores (the offset + slope * phi(y xi) form) equals Eq. (6) written case by case
    (oracle: ``reference_scores``), values and xi-derivatives, including margins exactly at 0 and at kinks.
    Tolerance: 1e-14 relative, and 1e-14 of the largest of the four values absolute - a score is a difference of
    terms of about that size and can cancel (seed 690, F_2, tau = 0.33: W_0 = -0.0111 from terms near 6, off by
    1.6e-15 = 7 ulp of 6, which a tolerance relative to -0.0111 alone failed)."""
    from lfverify.core import reference_scores, surrogate_scores

    rng = np.random.default_rng(seed)
    xi = np.concatenate([rng.normal(scale=3, size=20), [0.0, 1.0, -1.0]])
    y = np.where(rng.random(xi.size) < 0.5, 1, -1)
    w0, w1, dw0, dw1 = surrogate_scores(metric, loss, xi, y, prior=prior, side=side)
    for k in range(xi.size):
        ref = reference_scores(metric, loss, float(xi[k]), int(y[k]), prior, side)
        scale = max(1.0, float(np.max(np.abs(ref))))
        np.testing.assert_allclose([w0[k], w1[k], dw0[k], dw1[k]], ref, rtol=1e-14, atol=1e-14 * scale)


# ---------------------------------------------------------------------- the public methods one by one
def exactly(text):
    import re

    return "^" + re.escape(text) + "$"


@pytest.mark.parametrize("metric, loss", [(f1(), tau_logistic(0.33)), (gower_legendre(1.0), squared_hinge())],
                         ids=["F1-tau-logistic", "accuracy-squared-hinge"])
def test_numerator_and_denominator_gradients_are_their_own_derivatives(metric, loss):
    """grad N_hat and grad D_hat (Alg. 1's phase-1 direction) are the derivatives of N_hat and D_hat, not of each
    other (oracle: central differences, h = 1e-6; error O(h^2 phi''') + rounding ~ 1e-9 relative)."""
    X, y, theta = _data(11, 40, 3)
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    h = 1e-6
    for method, gradient_method in ((est.numerator, est.numerator_gradient),
                                    (est.denominator, est.denominator_gradient)):
        fd = np.array([(method(theta + h * e) - method(theta - h * e)) / (2 * h) for e in np.eye(3)])
        got = gradient_method(theta)
        assert got.shape == (3,)
        np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-9)
    ev = est.evaluate(theta)
    np.testing.assert_array_equal(est.numerator_gradient(theta), ev.numerator_gradient)
    np.testing.assert_array_equal(est.denominator_gradient(theta), ev.denominator_gradient)
    assert not np.allclose(ev.numerator_gradient, ev.denominator_gradient)  # the check above can tell them apart


def test_single_theta_gives_scalars_and_a_batch_gives_arrays():
    X, y, theta = _data(12, 30, 2)
    est = EmpiricalSurrogateUtility(f1(), logistic(), X, y)
    ev = est.evaluate(theta, true_utility=True)
    for field in ("numerator", "denominator", "value", "true_utility"):
        assert np.ndim(getattr(ev, field)) == 0, field
    for field in ("gradient_direction", "gradient", "numerator_gradient", "denominator_gradient"):
        assert np.shape(getattr(ev, field)) == (2,), field
    assert np.ndim(est.true_utility(theta)) == 0 and np.ndim(est.value(theta)) == 0
    batch = est.evaluate(np.stack([theta, -theta]), true_utility=True)
    assert batch.value.shape == (2,) and batch.true_utility.shape == (2,) and batch.gradient.shape == (2, 2)
    assert est.evaluate(theta).true_utility is None  # only on request


def test_true_utility_passes_zero_division_through():
    """Precision TP / (TP + FP) (b = 0): theta = 0 predicts every sample negative (sgn(0) = -1), which is 0/0."""
    import warnings

    from lfverify.core import LinearFractionalMetric

    precision = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, name="precision")
    X, y, _ = _data(13, 20, 2)
    est = EmpiricalSurrogateUtility(precision, logistic(), X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an explicit zero_division neither warns nor is replaced by "warn"
        assert est.true_utility(np.zeros(2), zero_division=0.0) == 0.0
        assert est.true_utility(np.zeros(2), zero_division=1.0) == 1.0
    with pytest.raises(ValueError, match="0/0"):
        est.true_utility(np.zeros(2), zero_division="raise")


def test_true_utility_counts_every_chunk(monkeypatch):
    """With chunks of 1024 samples, 5000 samples span several chunks in both halves (oracle: score_decision)."""
    monkeypatch.setattr(empirical, "_CHUNK_ELEMENTS", 1)
    X, y, theta = _data(14, 5000, 2)
    est = EmpiricalSurrogateUtility(f1(), logistic(), X, y)
    assert est.true_utility(theta) == f1().score_decision(y, X @ theta)
    assert est.evaluate(theta, true_utility=True).true_utility == f1().score_decision(y, X @ theta)


def test_true_utility_is_defined_where_the_surrogate_overflows():
    """The true utility needs only the signs of theta^T x; exp(-margin) overflowing must not stop it."""
    X, y, _ = _data(15, 20, 2)
    est = EmpiricalSurrogateUtility(f1(), exponential(), X, y)
    theta = np.array([1e3, 1e3])
    assert est.true_utility(theta) == f1().score_decision(y, X @ theta)
    with pytest.raises(ValueError, match="overflow"):
        est.numerator(theta)


def test_values_are_defined_where_only_the_gradient_overflows():
    """Features near the largest double: the hinge scores are finite, their gradient sum is not.  N_hat, D_hat and
    U_hat do not need the gradient and are returned; evaluate() raises the overflow error (oracle: hand values)."""
    big = 1.5e308
    X = np.full((4, 1), big)
    y = np.array([1, 1, 1, -1])  # S_0 = samples 0, 1; S_1 = samples 2, 3
    est = EmpiricalSurrogateUtility(jaccard(), hinge(), X, y)
    theta = np.array([-1e-308])  # xi = -1.5: margins y xi = -1.5 (samples 0, 1, 2) and +1.5 (sample 3)
    # Jaccard (a0 = (1, 0), a1 = (0, 1), b1 = pi, per sample 1{y = +1}): W~_0(+1) = 1 - phi(-1.5) = -1.5 for both of
    # S_0; W~_1(+1) = 0 + 1 and W~_1(-1) = phi(1.5) = 0 for S_1.  grad W~_0 = -phi'(y xi) y x = big per sample of S_0.
    assert est.numerator(theta) == -1.5
    assert est.denominator(theta) == 0.5
    assert est.value(theta) == -3.0
    message = ("theta: the surrogate scores overflow (phi or phi' of some margin y theta^T x exceeds the largest "
               "double); use a loss with linear growth or a smaller theta")
    with pytest.raises(ValueError, match=exactly(message)):
        est.evaluate(theta)
    with pytest.raises(ValueError, match=exactly(message)):
        est.numerator_gradient(theta)


def test_denominator_is_defined_where_only_its_gradient_overflows():
    """The same for the second half S_1 (F_1, hinge, features near the largest double, xi = -1.5 everywhere):
    W~_0(+1) = 2 (1 - phi(-1.5)) = -3, W~_0(-1) = 0, so N_hat = -6/3; W~_1(+1) = (1 + 2.5) + 1 = 4.5 (b1 = pi per
    sample), W~_1(-1) = phi(1.5) = 0, so D_hat = 9/3; both halves' gradient sums overflow."""
    X = np.full((6, 1), 1.5e308)
    y = np.array([1, 1, -1, 1, 1, -1])  # S_0 = samples 0-2, S_1 = samples 3-5
    est = EmpiricalSurrogateUtility(f1(), hinge(), X, y)
    theta = np.array([-1e-308])
    assert est.numerator(theta) == -2.0 and est.denominator(theta) == 3.0
    assert est.value(theta) == pytest.approx(-2.0 / 3.0, rel=1e-15, abs=0)
    with pytest.raises(ValueError, match=r"^theta: the surrogate scores overflow"):
        est.denominator_gradient(theta)


def test_derivative_overflow_is_reported_without_a_runtime_warning():
    """phi'(m) = -exp(-m) is finite at m = -709.7 but times the score slope 2 (F_1's a_{0,+1}) it overflows;
    the estimator reports that as its ValueError, not as numpy's RuntimeWarning."""
    X = np.array([[-709.7], [1.0], [1.0], [-1.0]])
    y = np.array([1, -1, 1, -1])
    est = EmpiricalSurrogateUtility(f1(), exponential(), X, y)
    with pytest.raises(ValueError, match=r"^theta: the surrogate scores overflow"):
        est.evaluate(np.array([1.0]))


def test_u_hat_errors_name_u_hat():
    X = np.array([[1.0], [2.0], [-1.0], [-2.0]])
    est = EmpiricalSurrogateUtility(jaccard(), hinge(), X, np.array([1, 1, -1, -1]))
    for method in (est.value, est.evaluate, est.gradient):
        with pytest.raises(ValueError, match=r"^U_hat: the denominator must be positive and finite, but for parameter "
                                             r"rows \[0\] it is \[0\.0\]"):
            method(np.array([1.0]))


def test_first_half_split_halves_are_views_of_x():
    """Notes of EmpiricalSurrogateUtility: with the "first-half" split the halves are views of X (no copy)."""
    X, y, _ = _data(16, 31, 3)
    est = EmpiricalSurrogateUtility(f1(), logistic(), X, y)
    assert np.shares_memory(est._parts[0].X, X) and np.shares_memory(est._parts[1].X, X)
    assert est._parts[0].X.shape == (15, 3) and est._parts[1].X.shape == (16, 3)


def test_constructor_keeps_its_arguments_as_attributes():
    X, y, _ = _data(17, 10, 2)
    split = sample_split(10, shuffle=True, seed=3)
    est = EmpiricalSurrogateUtility(f1(), logistic(), X, (y == 1).astype(int), split=split, prior=0.25, side="left")
    assert est.prior == 0.25 and est.side == "left" and est.split is split
    assert est.y.dtype == np.int8 and est.y.tolist() == y.tolist()
    assert (est.n_samples, est.n_features) == (10, 2)


def test_left_side_uses_the_left_derivative_at_the_kink():
    """tau-logistic: phi'(0-) = -1/(2 ln 2), phi'(0+) = -tau/(2 ln 2).  All margins at 0 (theta = 0)."""
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([1, 1, 1, -1])
    tau = 0.25
    left = EmpiricalSurrogateUtility(f1(), tau_logistic(tau), X, y, side="left").numerator_gradient(np.zeros(1))
    right = EmpiricalSurrogateUtility(f1(), tau_logistic(tau), X, y, side="right").numerator_gradient(np.zeros(1))
    # S_0 = samples 0, 1 (both positive): grad W~_0 = -a0p phi'(0) x, a0p = 2; mean x = 1.5
    assert left[0] == pytest.approx(2 * 1.5 / (2 * math.log(2)), rel=1e-15, abs=0)
    assert right[0] == pytest.approx(2 * 1.5 * tau / (2 * math.log(2)), rel=1e-15, abs=0)


@pytest.mark.parametrize("split", [
    SampleSplit(np.arange(0), np.arange(6)), SampleSplit(np.arange(6), np.arange(0)),
    SampleSplit(np.arange(3), np.arange(3, 7)), SampleSplit(np.array([0, 1, 1]), np.array([3, 4, 5])),
    SampleSplit(np.array([0, 1, 2]), np.array([3, 4])),
])
def test_split_must_partition_the_sample(split):
    X, y, _ = _data(18, 6, 2)
    with pytest.raises(ValueError, match=exactly("split must partition range(6) into two non-empty parts")):
        EmpiricalSurrogateUtility(f1(), logistic(), X, y, split=split)


@pytest.mark.parametrize("prior", [0.0, 1.0, -0.5])
def test_known_prior_must_lie_in_the_open_unit_interval(prior):
    X, y, _ = _data(19, 6, 2)
    with pytest.raises(ValueError, match=exactly(f"prior must lie in (0.0, 1.0); got {prior!r}")):
        EmpiricalSurrogateUtility(f1(), logistic(), X, y, prior=prior)


def test_constructor_messages_name_argument_and_received_value():
    X, y, _ = _data(20, 6, 2)
    cases = [
        (TypeError, "metric must be a LinearFractionalMetric; got str", dict(metric="f1")),
        (TypeError, "loss must be a SurrogateLoss (lfverify.core); got function", dict(loss=lambda m: m)),
        (ValueError, "split must be 'first-half', 'random' or a SampleSplit; got 'halves'", dict(split="halves")),
        (TypeError, "split must be 'first-half', 'random' or a SampleSplit; got tuple", dict(split=(0, 1))),
        (ValueError, "side must be 'right' or 'left'; got 'both'", dict(side="both")),
        (ValueError, "X must have at least 2 rows (samples); got 1", dict(X=X[:1], y=y[:1])),
    ]
    for error, message, changes in cases:
        args = {"metric": f1(), "loss": logistic(), "X": X, "y": y, **changes}
        with pytest.raises(error, match=exactly(message)):
            EmpiricalSurrogateUtility(args.pop("metric"), args.pop("loss"), args.pop("X"), args.pop("y"), **args)


@pytest.mark.parametrize("n, message", [(2.5, "n_samples must be an int; got 2.5"),
                                        (True, "n_samples must be an int; got True")])
def test_sample_split_needs_an_int(n, message):
    with pytest.raises(TypeError, match=exactly(message)):
        sample_split(n)


def test_reference_oracles_default_to_the_papers_split():
    """The oracles' default split is the paper's first-half split, like the estimator's (n != d on purpose)."""
    X, y, theta = _data(21, 9, 2)
    est = EmpiricalSurrogateUtility(f_beta(2.0), tau_logistic(0.5), X, y)
    np.testing.assert_allclose(reference_gradient_direction(f_beta(2.0), tau_logistic(0.5), X, y, theta),
                               est.gradient_direction(theta), rtol=1e-12, atol=1e-14)
    assert reference_surrogate_utility(f_beta(2.0), tau_logistic(0.5), X, y, theta) == pytest.approx(
        est.value(theta), rel=1e-12, abs=0)
