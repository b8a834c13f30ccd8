"""lfverify/simulations/_replicated.py (V_hat for R replications x K parameters from per-class sums) against
EmpiricalSurrogateUtility, the core estimator (itself tested against the literal double sum of Eq. (7)).

The same-sample estimator is checked against EmpiricalSurrogateUtility on the doubled sample (X, X): its first-half
split puts the whole sample in both S_0 and S_1.  Tolerance 1e-12 relative to the scale of the products in
V = D grad N - N grad D (the two computations sum the same terms in different orders).

Private: lfverify.simulations._replicated, the replicated-sample estimator behind the studies (class_sums, estimates,
its chunking), tested against the public estimator.
"""

import numpy as np
import pytest

import lfverify.simulations._replicated as replicated
from lfverify.core import (
    BoundedLogisticPopulation,
    EmpiricalSurrogateUtility,
    FiniteSupportPopulation,
    f1,
    gower_legendre,
    hinge,
    jaccard,
    tau_logistic,
)
from lfverify.simulations._replicated import class_sums, estimates

pytestmark = pytest.mark.claims("package:simulation-engine")  # the vectorised V_hat against the core estimator


def _samples(population, R, n, seed):
    """R samples of size n, each with both classes (the core estimator requires them)."""
    rng = np.random.default_rng(seed)
    draws = []
    while len(draws) < R:
        X, y = population.sample(n, seed=rng)
        if np.unique(y).size == 2:
            draws.append((X, y))
    return np.stack([d[0] for d in draws]), np.stack([d[1] for d in draws]).astype(int)


def _assert_close(actual, ev, atol_scale):
    np.testing.assert_allclose(actual, ev, rtol=1e-12, atol=1e-12 * atol_scale)


POP = BoundedLogisticPopulation(slope=3.0, offset=-0.5)
FINITE = FiniteSupportPopulation(atoms=[[1.0, 0.5], [-0.7, 1.2], [0.3, -1.1]], weights=[0.5, 0.3, 0.2],
                                 eta=[0.8, 0.35, 0.1])


@pytest.mark.parametrize("population", [POP, FINITE], ids=["bounded-logistic", "finite"])
@pytest.mark.parametrize("metric", [f1(), jaccard(), gower_legendre(0.5)], ids=lambda m: m.name)
@pytest.mark.parametrize("n", [2, 7, 1001])
def test_split_estimates_match_the_core_estimator(population, metric, n):
    X, y = _samples(population, 4, n, seed=n)
    theta = np.random.default_rng(1).normal(scale=1.5, size=(6, 2))
    loss = tau_logistic(0.33)
    est = estimates(class_sums(X, y, theta, loss), metric)
    for r in range(4):
        core = EmpiricalSurrogateUtility(metric, loss, X[r], y[r])
        den, gnum = core.denominator(theta), core.numerator_gradient(theta)
        scale = np.max(np.abs(den[:, None] * gnum)) + 1.0
        _assert_close(est.numerator[r], core.numerator(theta), 1.0)
        _assert_close(est.denominator[r], den, 1.0)
        _assert_close(est.numerator_gradient[r], gnum, 1.0)
        _assert_close(est.denominator_gradient[r], core.denominator_gradient(theta), 1.0)
        _assert_close(est.gradient_direction[r], core.gradient_direction(theta), scale)


def test_same_sample_estimator_matches_the_core_on_the_doubled_sample():
    X, y = _samples(POP, 3, 50, seed=3)
    theta = np.random.default_rng(2).normal(size=(5, 2))
    loss = tau_logistic(0.75)
    sums = class_sums(X, y, theta, loss)
    for metric in (f1(), jaccard()):
        same = estimates(sums, metric, estimator="same-sample").gradient_direction
        split = estimates(sums, metric, estimator="split").gradient_direction
        for r in range(3):
            doubled = EmpiricalSurrogateUtility(metric, loss, np.vstack([X[r], X[r]]), np.concatenate([y[r], y[r]]))
            _assert_close(same[r], doubled.gradient_direction(theta), 10.0)
        assert np.max(np.abs(same - split)) > 1e-3  # a different estimator (the wrong input of this check)


def test_per_replication_parameters_and_chunking():
    """Theta of shape (R, K, d), and samples split over many chunks and replication blocks."""
    X, y = _samples(POP, 5, 3000, seed=4)
    theta = np.random.default_rng(3).normal(size=(5, 40, 2))
    loss = tau_logistic(0.33)
    old = replicated.CHUNK_ELEMENTS
    try:
        replicated.CHUNK_ELEMENTS = 1 << 11  # 51-sample chunks: 59 chunks per replication
        small = estimates(class_sums(X, y, theta, loss), f1()).gradient_direction
    finally:
        replicated.CHUNK_ELEMENTS = old
    big = estimates(class_sums(X, y, theta, loss), f1()).gradient_direction
    for r in range(5):
        ref = EmpiricalSurrogateUtility(f1(), loss, X[r], y[r]).gradient_direction(theta[r])
        _assert_close(small[r], ref, 10.0)
        _assert_close(big[r], ref, 10.0)


def test_counts_and_other_losses():
    X, y = _samples(FINITE, 2, 9, seed=5)
    sums = class_sums(X, y, np.ones((1, 2)), hinge())
    for r in range(2):
        first, second = y[r, :4], y[r, 4:]
        assert sums.counts[r].tolist() == [[int(np.sum(first == -1)), int(np.sum(first == 1))],
                                           [int(np.sum(second == -1)), int(np.sum(second == 1))]]
        ref = EmpiricalSurrogateUtility(f1(), hinge(), X[r], y[r]).gradient_direction(np.ones(2))
        _assert_close(estimates(sums, f1()).gradient_direction[r, 0], ref, 10.0)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(X=np.zeros((5, 2))), ValueError, "shape \\(R, n, d\\)"),
    (dict(y=np.zeros((2, 6), dtype=int)), ValueError, "labels -1 and \\+1"),
    (dict(y=np.ones((2, 5), dtype=int)), ValueError, "y must have shape \\(2, 6\\)"),
    (dict(theta=np.zeros((3, 3))), ValueError, "theta must have shape"),
    (dict(theta=np.full((1, 2), np.nan)), ValueError, "finite"),
    (dict(loss="logistic"), TypeError, "SurrogateLoss"),
])
def test_class_sums_rejects_bad_input(kwargs, error, match):
    args = dict(X=np.zeros((2, 6, 2)), y=np.ones((2, 6), dtype=int), theta=np.zeros((1, 2)), loss=tau_logistic(0.5))
    args.update(kwargs)
    with pytest.raises(error, match=match):
        class_sums(args["X"], args["y"], args["theta"], args["loss"])


def test_estimates_rejects_bad_arguments_and_overflow_is_reported():
    X, y = _samples(POP, 1, 10, seed=6)
    sums = class_sums(X, y, np.zeros((1, 2)), tau_logistic(0.5))
    with pytest.raises(ValueError, match="estimator must be one of"):
        estimates(sums, f1(), estimator="pooled")
    with pytest.raises(TypeError, match="LinearFractionalMetric"):
        estimates(sums, "F1")
    from lfverify.core import exponential

    with pytest.raises(ValueError, match="overflow"):
        class_sums(X, y, np.full((1, 2), 1e300), exponential())


def test_one_sided_derivative_at_the_kink_follows_side():
    """Oracle: EmpiricalSurrogateUtility with the same ``side``.  theta = (0.5, -1) puts the atom (1, 0.5) exactly
    on the kink of the tau-logistic phi (margin 0), where phi' jumps, so the right and left derivatives give
    different V_hat; each must match the core estimator's, through class_sums and ReplicatedSamples.class_sums.

    Kills `lfverify.simulations._replicated.xǁReplicatedSamplesǁclass_sums__mutmut_9` ("left" refused)."""
    X, y = _samples(FINITE, 2, 12, seed=7)
    assert np.any(np.all(X == [1.0, 0.5], axis=2))  # some sample sits on the kink
    theta = np.array([[0.5, -1.0], [0.3, 0.2]])
    loss = tau_logistic(0.33)
    directions = {}
    for side in ("right", "left"):
        for sums in (class_sums(X, y, theta, loss, side=side),
                     replicated.ReplicatedSamples(X, y).class_sums(theta, loss, side=side)):
            est = estimates(sums, f1())
            for r in range(2):
                core = EmpiricalSurrogateUtility(f1(), loss, X[r], y[r], side=side)
                _assert_close(est.numerator_gradient[r], core.numerator_gradient(theta), 1.0)
                _assert_close(est.gradient_direction[r], core.gradient_direction(theta), 10.0)
        directions[side] = est.gradient_direction
    assert np.max(np.abs(directions["right"][:, 0] - directions["left"][:, 0])) > 1e-3


def test_replicated_samples_class_sums_messages():
    """Oracle: the documented messages, in full, of ReplicatedSamples.class_sums (called directly, not through
    class_sums, which checks the loss first): a loss that is not a SurrogateLoss names its type, an unknown side
    is quoted.

    Kills `lfverify.simulations._replicated.xǁReplicatedSamplesǁclass_sums__mutmut_5` (type(None) in the message)
    and `xǁReplicatedSamplesǁclass_sums__mutmut_9`."""
    import re

    samples = replicated.ReplicatedSamples(np.zeros((2, 6, 2)), np.ones((2, 6), dtype=int))
    with pytest.raises(TypeError, match=re.escape("loss must be a SurrogateLoss (lfverify.core); got str") + "$"):
        samples.class_sums(np.zeros((1, 2)), "logistic")
    with pytest.raises(ValueError, match=re.escape("side must be 'right' or 'left'; got 'middle'") + "$"):
        samples.class_sums(np.zeros((1, 2)), tau_logistic(0.5), side="middle")
    samples.class_sums(np.zeros((1, 2)), tau_logistic(0.5), side="left")  # accepted
