"""Exact references ("oracles") for testing implementations of the paper's objects: slow on purpose.

Each oracle is written as the paper prints its object - a literal sum, a loop over atoms, a brute force over every
classifier or every sample - so that a fast implementation can be compared with it.  Each states its cost.  They
are what :mod:`lfverify.testing`'s checks compare with, and what a user's own tests can compare with directly.

Empirical objects (Eqs. (6)-(7)), for one sample (X, y) and one theta:

* :func:`surrogate_utility_double_sum` - U_hat = N_hat / D_hat by per-sample loops, O(n d);
* :func:`gradient_direction_double_sum` - the literal double sum of Eq. (7), O(m (n - m) d);
* :func:`best_threshold_by_brute_force` - the metric-maximising threshold, every candidate counted, O(n^2).

Population objects (Eqs. (1), (3), (4), Sec. 3.3, Prop. 5):

* :func:`population_utility`, :func:`population_surrogate_utility`, :func:`population_gradient_direction` -
  U, U_phi and V_phi of the linear model: for a :class:`~lfverify.core.FiniteSupportPopulation` a loop over atoms
  and labels summed with ``math.fsum`` (O(J d)); for the continuous populations their own quadrature (accurate to
  about 1e-15 relative; :mod:`lfverify.core`);
* :func:`bayes_optimal_by_enumeration` - U-dagger and every Bayes-optimal classifier of a finite population, by
  all 2^J labelings in exact rational arithmetic (on the stored doubles), O(2^J J);
* :func:`population_utility_of_classifier` - U of *any* classifier (a ``predict`` function): exact on a finite
  population (its predictions on the atoms), and on a one-dimensional :class:`~lfverify.core.GaussianPopulation`
  from its decision boundaries (located by bisection) and the normal CDF;
* :func:`ordered_samples`, :func:`expectation_by_enumeration` - every ordered sample of size n from a finite
  population with its probability, and the exact expectation of a statistic over them ((2J)^n evaluations):
  Lemma 3's E[V_hat] = V_phi, checked with no Monte-Carlo error at all.

Every ``metric`` argument is a :class:`~lfverify.core.LinearFractionalMetric` or its name ("f1", "f<beta>",
"jaccard", "accuracy").  The populations the checks run on are exported too (:data:`REFERENCE_FINITE_POPULATION`,
:data:`REFERENCE_GAUSSIAN_POPULATION`, :data:`CLASSIFIER_FINITE_POPULATION`, :data:`CLASSIFIER_GAUSSIAN_POPULATION`).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
from fractions import Fraction

import numpy as np
from scipy.special import ndtr

from lfverify.core import (
    FINITE_POPULATION,
    GAUSSIAN_POPULATION,
    FiniteSupportPopulation,
    GaussianPopulation,
    LinearFractionalMetric,
    SampleSplit,
    check_features,
    check_labels,
    reference_gradient_direction,
    reference_scores,
    reference_surrogate_utility,
    resolve_metric,
)
from lfverify.learn import reference_best_threshold

__all__ = [
    "surrogate_utility_double_sum",
    "gradient_direction_double_sum",
    "best_threshold_by_brute_force",
    "population_utility",
    "population_surrogate_utility",
    "population_gradient_direction",
    "bayes_optimal_by_enumeration",
    "population_utility_of_classifier",
    "ordered_samples",
    "expectation_by_enumeration",
    "REFERENCE_FINITE_POPULATION",
    "REFERENCE_GAUSSIAN_POPULATION",
    "CLASSIFIER_FINITE_POPULATION",
    "CLASSIFIER_GAUSSIAN_POPULATION",
]

#: lfverify's 5-atom reference population in R^2 (:data:`lfverify.core.FINITE_POPULATION`).
REFERENCE_FINITE_POPULATION = FINITE_POPULATION
#: lfverify's two-Gaussian reference population in R^2 with an intercept (:data:`lfverify.core.GAUSSIAN_POPULATION`).
REFERENCE_GAUSSIAN_POPULATION = GAUSSIAN_POPULATION
#: The finite population of ``check_metric_classifier``: atoms x = -2, ..., 2 on a line, weights 0.4, 0.3, 0.15,
#: 0.1, 0.05 and eta = sigmoid(1.5 x - 2) (a logistic model holds exactly; prior 0.104).  The F_1- and
#: Jaccard-optimal classifiers predict +1 on x >= 1, where eta(1) = 0.378 < 1/2, so thresholding the true posterior
#: at 1/2 loses 0.10 of F_1; every other cut loses at least 0.10 too.
CLASSIFIER_FINITE_POPULATION = FiniteSupportPopulation(
    atoms=[[-2.0], [-1.0], [0.0], [1.0], [2.0]], weights=[0.4, 0.3, 0.15, 0.1, 0.05],
    eta=[1.0 / (1.0 + math.exp(-(1.5 * x - 2.0))) for x in (-2.0, -1.0, 0.0, 1.0, 2.0)])
#: The Gaussian population of ``check_metric_classifier``: X | Y = +-1 ~ N(+-0.75, 1) on the line, prior 0.1, no
#: intercept column (the classifier under test fits its own).  U-dagger(F_1) = 0.477; the posterior thresholded at
#: 1/2 loses 0.127 of F_1 and 0.101 of Jaccard.
CLASSIFIER_GAUSSIAN_POPULATION = GaussianPopulation([0.75], [-0.75], [[1.0]], 0.1, intercept=False)


# ---------------------------------------------------------------------------------------------- empirical

def _resolves_metric(function):
    """Let ``function`` take its ``metric`` argument as a LinearFractionalMetric or a name ("f1", "jaccard", ...)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        metric = bound.arguments.get("metric")
        if isinstance(metric, str):
            bound.arguments["metric"] = resolve_metric(metric)
        return function(*bound.args, **bound.kwargs)
    return wrapper


def _split(split, n: int) -> SampleSplit:
    if split is None:
        m = n // 2
        return SampleSplit(np.arange(m), np.arange(m, n))
    first, second = (np.asarray(part, dtype=np.intp) for part in split)
    both = np.sort(np.concatenate([first, second]))
    if first.size == 0 or second.size == 0 or not np.array_equal(both, np.arange(n)):
        raise ValueError(f"split must be two non-empty index arrays partitioning range({n}); got sizes "
                         f"{first.size} and {second.size}")
    return SampleSplit(first, second)


def _checked_sample(metric, X, y, theta):
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    X = check_features(X, "X", min_samples=2)
    y = check_labels(y, "y", n_samples=X.shape[0], require_both_classes=False)
    theta = np.asarray(theta, dtype=np.float64)
    if theta.shape != (X.shape[1],) or not np.isfinite(theta).all():
        raise ValueError(f"theta must be a finite vector of shape ({X.shape[1]},); got shape {theta.shape}")
    return X, y, theta


@_resolves_metric
def surrogate_utility_double_sum(metric, loss, X, y, theta, *, split=None) -> float:
    """U_hat(theta) = N_hat / D_hat of Eq. (6), by per-sample loops (cost O(n d), Python-level).

    N_hat averages W~_{0,phi} over S_0 and D_hat averages W~_{1,phi} over S_1; prior-dependent offsets
    b_k = c_k + d_k pi enter per sample as c_k + d_k 1{y = +1} (their expectation is b_k, so no prior is needed).

    Parameters
    ----------
    metric : LinearFractionalMetric
    loss : object with ``value(m)`` and ``derivative(m, side=...)``
    X : array_like of shape (n, d)
    y : array_like of shape (n,), labels in {-1, +1} or {0, 1}
    theta : array_like of shape (d,)
    split : (first, second) index arrays or None, keyword-only
        S_0 and S_1; ``None`` is the paper's: S_0 = the first floor(n/2) rows.
    """
    X, y, theta = _checked_sample(metric, X, y, theta)
    return float(reference_surrogate_utility(metric, loss, X, y, theta=theta, split=_split(split, X.shape[0])))


@_resolves_metric
def gradient_direction_double_sum(metric, loss, X, y, theta, *, split=None, side: str = "right") -> np.ndarray:
    """V_hat(theta) of Eq. (7), the literal double sum over (i, j) in S_0 x S_1 (cost O(m (n - m) d)).

    Every term W~_1(z_j) grad W~_0(z_i) - W~_0(z_i) grad W~_1(z_j) is formed explicitly and the sum is divided by
    m (n - m).  Parameters as :func:`surrogate_utility_double_sum`; ``side`` is the one-sided derivative of phi at a
    kink.  Returns an array of shape (d,).
    """
    X, y, theta = _checked_sample(metric, X, y, theta)
    return reference_gradient_direction(metric, loss, X, y, theta=theta, split=_split(split, X.shape[0]), side=side)


@_resolves_metric
def best_threshold_by_brute_force(scores, y, metric):
    """The best empirical metric value of "predict +1 iff score > t" over every t, and every prediction vector
    attaining it: each distinct score and one threshold below all are tried and counted directly (cost O(n^2)).

    Returns
    -------
    (float, set of tuples)
        The best value (0/0 counted as 0) and the set of optimal prediction vectors (entries +-1).
    """
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.size < 1 or not np.isfinite(s).all():
        raise ValueError(f"scores must be a non-empty 1-D array of finite numbers; got shape {s.shape}")
    labels = check_labels(y, "y", n_samples=s.size, require_both_classes=False)
    return reference_best_threshold(s, labels, metric)


# ---------------------------------------------------------------------------------------------- populations
def _finite(population) -> bool:
    return isinstance(population, FiniteSupportPopulation)


def _check_population(population):
    if not hasattr(population, "gradient_direction") or not hasattr(population, "prior"):
        raise TypeError(f"population must be a population of lfverify.core (FiniteSupportPopulation, "
                        f"GaussianPopulation, BoundedLogisticPopulation); got {type(population).__name__}")


def _atom_terms(population, metric, loss, theta, side):
    """Per (atom, label): probability and the per-sample scores (W~_0, W~_1, dW~_0/dxi, dW~_1/dxi) of Eq. (6)."""
    for x, w, q in zip(population.atoms, population.weights, population.eta):
        xi = float(x @ theta)
        for label, p in ((1, w * q), (-1, w * (1.0 - q))):
            if p > 0:
                yield x, float(p), reference_scores(metric, loss, xi, label, prior=None, side=side)


@_resolves_metric
def population_utility(population, metric, theta) -> float:
    """U(f_theta) of Eq. (1) for the linear model with sgn(0) = -1: on a finite population the atoms where
    theta^T x > 0 are summed with ``math.fsum`` (cost O(J d)); otherwise the population's closed form."""
    _check_population(population)
    theta = np.asarray(theta, dtype=np.float64)
    if not _finite(population):
        return float(population.utility(metric, theta))
    positive = [float(x @ theta) > 0 for x in population.atoms]
    return _utility_of_positive_atoms(population, metric, positive)


def _utility_of_positive_atoms(population, metric, positive) -> float:
    tp = math.fsum(w * q for w, q, p in zip(population.weights, population.eta, positive) if p)
    fp = math.fsum(w * (1.0 - q) for w, q, p in zip(population.weights, population.eta, positive) if p)
    return float(metric.value(tp, fp, population.prior, zero_division=0.0))


@_resolves_metric
def population_surrogate_utility(population, metric, loss, theta) -> float:
    """U_phi(f_theta) = E[W_{0,phi}] / E[W_{1,phi}] of Eq. (4): on a finite population a loop over atoms and labels
    (``math.fsum``, cost O(J d)); otherwise the population's quadrature."""
    _check_population(population)
    theta = np.asarray(theta, dtype=np.float64)
    if not _finite(population):
        return float(population.surrogate_utility(metric, loss, theta))
    terms = list(_atom_terms(population, metric, loss, theta=theta, side="right"))
    num = math.fsum(p * s[0] for _, p, s in terms)
    den = math.fsum(p * s[1] for _, p, s in terms)
    if not den > 0:
        raise ValueError(f"U_phi is undefined at theta = {theta.tolist()}: E[W_1,phi] = {den}")
    return num / den


@_resolves_metric
def population_gradient_direction(population, metric, loss, theta, *, side: str = "right") -> np.ndarray:
    """V_phi(theta) = E[W_1,phi] E[grad W_0,phi] - E[W_0,phi] E[grad W_1,phi] (Sec. 3.3): on a finite population a
    loop over atoms and labels (``math.fsum``, cost O(J d)); otherwise the population's quadrature.  Shape (d,)."""
    _check_population(population)
    theta = np.asarray(theta, dtype=np.float64)
    if not _finite(population):
        return np.asarray(population.gradient_direction(metric, loss, theta), dtype=np.float64)
    terms = list(_atom_terms(population, metric, loss, theta=theta, side=side))
    w0 = math.fsum(p * s[0] for _, p, s in terms)
    w1 = math.fsum(p * s[1] for _, p, s in terms)
    g0 = np.array([math.fsum(p * s[2] * x[c] for x, p, s in terms) for c in range(theta.size)])
    g1 = np.array([math.fsum(p * s[3] * x[c] for x, p, s in terms) for c in range(theta.size)])
    return w1 * g0 - w0 * g1


@_resolves_metric
def bayes_optimal_by_enumeration(population, metric):
    """U-dagger = max over all 2^J labelings of the atoms of U (Eq. (1)), in exact rational arithmetic on the stored
    doubles, and every labeling attaining it (cost O(2^J J); J <= 20).

    Returns
    -------
    (float, list of boolean arrays)
        U-dagger (0/0 counted as 0) and the optimal classifiers as masks over the atoms (True = predict +1).
    """
    if not _finite(population):
        raise TypeError(f"population must be a FiniteSupportPopulation; got {type(population).__name__}")
    J = population.atoms.shape[0]
    if J > 20:
        raise ValueError(f"population: brute force is limited to 20 atoms; got {J}")
    weights = [Fraction(float(w)) for w in population.weights]
    eta = [Fraction(float(q)) for q in population.eta]
    prior = sum((w * q for w, q in zip(weights, eta)), Fraction(0))
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (Fraction(getattr(metric, k)) for k in (
        "a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior"))
    values = {}
    for mask in itertools.product((False, True), repeat=J):
        tp = sum((w * q for w, q, m in zip(weights, eta, mask) if m), Fraction(0))
        fp = sum((w * (1 - q) for w, q, m in zip(weights, eta, mask) if m), Fraction(0))
        num = a0p * tp + a0n * fp + c0 + d0 * prior
        den = a1p * tp + a1n * fp + c1 + d1 * prior
        values[mask] = Fraction(0) if den == 0 and num == 0 else num / den
    best = max(values.values())
    return float(best), [np.array(mask) for mask, value in values.items() if value == best]


@_resolves_metric
def population_utility_of_classifier(population, metric, predict, *, grid_points: int = 4001) -> float:
    """U of an arbitrary classifier, given as ``predict(X) -> boolean array`` (True = predicted positive).

    * :class:`~lfverify.core.FiniteSupportPopulation`: ``predict`` on the atoms gives TP and FP exactly (one call,
      cost O(J)).
    * one-dimensional :class:`~lfverify.core.GaussianPopulation` (``intercept=False``): the positive set is read
      as a union of intervals; ``predict`` is evaluated on ``grid_points`` points spanning both class means +- 12
      standard deviations, each change of prediction is located by bisection to 1e-12 of the span (about 45
      calls of ``predict`` on all the boundaries at once), and TP = pi P(X in set | +1), FP = (1 - pi) P(X in set
      | -1) follow from the normal CDF.  A positive piece narrower than the grid spacing (0.006 standard
      deviations) may be missed; the mass beyond 12 standard deviations (1e-33) is not counted.
    """
    if not callable(predict):
        raise TypeError(f"predict must be callable (X -> boolean array); got {type(predict).__name__}")

    def positive(X):
        out = np.asarray(predict(X))
        if out.shape != (X.shape[0],):
            raise ValueError(f"predict must return one prediction per row ({X.shape[0]}); got shape {out.shape}")
        return out.astype(bool)

    if _finite(population):
        return _utility_of_positive_atoms(population, metric, positive(population.atoms).tolist())
    if not (isinstance(population, GaussianPopulation) and population.n_features == 1):
        raise TypeError("population must be a FiniteSupportPopulation or a one-dimensional GaussianPopulation "
                        f"with intercept=False; got {type(population).__name__}")
    sd = math.sqrt(float(population.covariance[0, 0]))
    means = (float(population.mean_negative[0]), float(population.mean_positive[0]))
    low, high = min(means) - 12 * sd, max(means) + 12 * sd
    grid = np.linspace(low, high, grid_points)
    inside = positive(grid[:, None])
    changes = np.flatnonzero(inside[1:] != inside[:-1])
    a, b = grid[changes].copy(), grid[changes + 1].copy()
    left_value = inside[changes]
    for _ in range(60):
        if not changes.size or np.max(b - a) <= 1e-12 * (high - low):
            break
        middle = 0.5 * (a + b)
        at_middle = positive(middle[:, None])
        same = at_middle == left_value
        a = np.where(same, middle, a)
        b = np.where(same, b, middle)
    boundaries = np.concatenate([[-np.inf], 0.5 * (a + b), [np.inf]])
    # piece k lies between boundaries[k] and boundaries[k + 1]; its prediction is the grid's there
    piece_values = np.concatenate([inside[:1], inside[changes + 1]])
    tp = fp = 0.0
    for k, value in enumerate(piece_values):
        if value:
            lo, hi = boundaries[k], boundaries[k + 1]
            tp += population.prior * (ndtr((hi - means[1]) / sd) - ndtr((lo - means[1]) / sd))
            fp += (1.0 - population.prior) * (ndtr((hi - means[0]) / sd) - ndtr((lo - means[0]) / sd))
    return float(metric.value(tp, fp, population.prior, zero_division=0.0))


def ordered_samples(population, n: int):
    """Every ordered sample ((x_1, y_1), ..., (x_n, y_n)) of n i.i.d. draws from a finite population, with its
    probability: yields ``(probability, X, y)`` for the (2J)^n outcomes of positive probability (at most (2J)^n;
    an atom with eta = 0 or 1 contributes one label).  The probabilities sum to 1 up to rounding."""
    if not _finite(population):
        raise TypeError(f"population must be a FiniteSupportPopulation; got {type(population).__name__}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an int >= 1; got {n!r}")
    outcomes = [(float(w * q), j, 1) for j, (w, q) in enumerate(zip(population.weights, population.eta)) if w * q > 0]
    outcomes += [(float(w * (1 - q)), j, -1) for j, (w, q) in enumerate(zip(population.weights, population.eta))
                 if w * (1 - q) > 0]
    for draw in itertools.product(outcomes, repeat=int(n)):
        probability = math.prod(o[0] for o in draw)
        X = population.atoms[[o[1] for o in draw]]
        y = np.array([o[2] for o in draw], dtype=np.int8)
        yield probability, X, y


def expectation_by_enumeration(population, statistic, n: int) -> np.ndarray:
    """E[statistic(X, y)] over samples of n i.i.d. draws from a finite population, exactly: the sum over every
    ordered sample (:func:`ordered_samples`) of its probability times the statistic, with ``math.fsum`` per
    component (cost: (2J)^n calls of ``statistic``).  Returns a float or an array of the statistic's shape."""
    values, probabilities = [], []
    for probability, X, y in ordered_samples(population, n):
        values.append(np.asarray(statistic(X, y), dtype=np.float64))
        probabilities.append(probability)
    stacked = np.stack(values)
    flat = stacked.reshape(len(values), -1)
    out = np.array([math.fsum(p * v for p, v in zip(probabilities, flat[:, c])) for c in range(flat.shape[1])])
    return float(out[0]) if stacked.ndim == 1 else out.reshape(stacked.shape[1:])
