"""Distributions with exactly known eta and exactly computable population quantities.

For the linear model f_theta(x) = theta^T x every population quantity of the paper reduces to a few joint
moments per class y in {-1, +1} (index 0 for y = -1, 1 for y = +1):

    mass[c]      = P(Y = y)
    TP, FP       = P(Y = +1, theta^T X > 0), P(Y = -1, theta^T X > 0)            (Definition "confusion matrix")
    A[:, c]      = E[phi(y theta^T X) 1{Y = y}]
    G[:, c, :]   = E[phi'(y theta^T X) y X 1{Y = y}]

from which U (Eq. (1)), U_phi (Eq. (4)), V_phi (Sec. 3.3) and grad U_phi follow through the same score algebra
as the empirical estimators (:mod:`lfverify.scores`).  Subclasses supply the moments:

* :class:`FiniteSupportPopulation` - atoms with weights and eta per atom; everything is a finite sum, and
  the Bayes-optimal utility U-dagger is found exactly (Prop. 5: a threshold on eta).
"""

from __future__ import annotations

import abc
from typing import NamedTuple

import numpy as np

from .metrics import LinearFractionalMetric
from .scores import RatioDirection, ratio_and_direction, score_coefficients
from .validation import check_features, check_parameters, check_real

__all__ = ["Population", "LossMoments", "BayesOptimal", "FiniteSupportPopulation"]


class LossMoments(NamedTuple):
    """Joint loss moments per class: ``value[:, c] = E[phi(y theta^T X) 1{Y=y}]`` and
    ``gradient[:, c, :] = E[phi'(y theta^T X) y X 1{Y=y}]`` (None if not requested)."""

    value: np.ndarray
    gradient: np.ndarray | None


class BayesOptimal(NamedTuple):
    """The Bayes-optimal utility U-dagger = sup_f U(f) and a classifier attaining it."""

    utility: float
    classifier: object  # population-specific description (mask over atoms, or a parameter vector)


def _rng(seed):
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


class Population(abc.ABC):
    """A distribution P over X x {-1, +1} with population quantities for the linear model."""

    #: Dimension d of X (including an intercept column where the population adds one).
    n_features: int
    #: pi = P(Y = +1).
    prior: float

    # ------------------------------------------------------------------ to be supplied by subclasses
    @abc.abstractmethod
    def positive_rates(self, theta) -> tuple[np.ndarray, np.ndarray]:
        """(TP, FP) = (P(Y=+1, theta^T X > 0), P(Y=-1, theta^T X > 0)) for a batch Theta of shape (K, d)."""

    @abc.abstractmethod
    def loss_moments(self, theta, loss, *, gradient: bool, side: str = "right") -> LossMoments:
        """Joint loss moments for a batch Theta of shape (K, d); see :class:`LossMoments`."""

    @abc.abstractmethod
    def bayes_optimal(self, metric: LinearFractionalMetric) -> BayesOptimal:
        """U-dagger over all measurable classifiers and a classifier attaining it."""

    @abc.abstractmethod
    def sample(self, n_samples: int, seed=None) -> tuple[np.ndarray, np.ndarray]:
        """Draw (X, y) with X of shape (n, d) and y in {-1, +1}, using ``numpy.random.default_rng(seed)``."""

    # ------------------------------------------------------------------ shared algebra
    @property
    def class_masses(self) -> np.ndarray:
        """(P(Y = -1), P(Y = +1))."""
        return np.array([1.0 - self.prior, self.prior])

    def _theta(self, theta):
        return check_parameters(theta, self.n_features, "theta")

    def utility(self, metric: LinearFractionalMetric, theta, *, zero_division="warn"):
        """The true utility U(f_theta) of Eq. (1) with sgn(0) = -1; float or (K,)."""
        th, single = self._theta(theta)
        tp, fp = self.positive_rates(th)
        out = np.atleast_1d(metric.value(tp, fp, self.prior, zero_division=zero_division))
        return float(out[0]) if single else out

    def evaluate(self, metric: LinearFractionalMetric, loss, theta, *, side: str = "right") -> RatioDirection:
        """U_phi (Eq. (4)) with its numerator, denominator, V_phi and grad U_phi = V_phi / E[W_1,phi]^2.

        Always batched: fields have shape (K,) / (K, d) (a single theta is treated as K = 1).
        """
        th, _ = self._theta(theta)
        moments = self.loss_moments(th, loss, gradient=True, side=side)
        coef = score_coefficients(metric)  # per-class form: E over Y recovers b_k = c_k + d_k pi exactly
        mass = self.class_masses
        num = coef.offset0 @ mass + moments.value @ coef.slope0
        den = coef.offset1 @ mass + moments.value @ coef.slope1
        gnum = np.einsum("kcd,c->kd", moments.gradient, coef.slope0)
        gden = np.einsum("kcd,c->kd", moments.gradient, coef.slope1)
        return ratio_and_direction(num, den, gnum, gden, what="U_phi")

    def surrogate_utility(self, metric: LinearFractionalMetric, loss, theta):
        """U_phi(f_theta) = E[W_{0,phi}] / E[W_{1,phi}] (Eq. (4)); float or (K,)."""
        th, single = self._theta(theta)
        value = self.evaluate(metric, loss, th).value
        return float(value[0]) if single else value

    def gradient_direction(self, metric: LinearFractionalMetric, loss, theta):
        """V_phi(theta) = E[W_1,phi] E[grad W_0,phi] - E[W_0,phi] E[grad W_1,phi] (Sec. 3.3); (d,) or (K, d)."""
        th, single = self._theta(theta)
        v = self.evaluate(metric, loss, th).gradient_direction
        return v[0] if single else v

    def bayes_optimal_utility(self, metric: LinearFractionalMetric) -> float:
        """U-dagger = sup over all measurable f of U(f)."""
        return self.bayes_optimal(metric).utility


class FiniteSupportPopulation(Population):
    """X takes finitely many values ("atoms") x_j with probabilities w_j, and P(Y=+1 | X=x_j) = eta_j.

    All quantities are finite sums, exact up to floating-point rounding.  Besides the linear model, the
    utilities of *arbitrary* classifiers (one real score per atom: all measurable functions) are available,
    which is what the calibration theorems quantify over.

    Parameters
    ----------
    atoms : array_like of shape (J, d)
    weights : array_like of shape (J,)
        Positive probabilities summing to 1 (within 1e-12).
    eta : array_like of shape (J,)
        Class-posterior probabilities in [0, 1]; both classes must have positive mass.
    """

    def __init__(self, atoms, weights, eta):
        atoms = check_features(atoms, "atoms")
        J = atoms.shape[0]
        weights = np.asarray(weights, dtype=np.float64)
        eta = np.asarray(eta, dtype=np.float64)
        if weights.shape != (J,) or eta.shape != (J,):
            raise ValueError(f"weights and eta must have shape ({J},) (one per atom); got {weights.shape} and {eta.shape}")
        if not np.all(np.isfinite(weights)) or np.any(weights <= 0):
            raise ValueError("weights must be positive and finite")
        if abs(weights.sum() - 1.0) > 1e-12:
            raise ValueError(f"weights must sum to 1; got {weights.sum()!r}")
        if not np.all(np.isfinite(eta)) or np.any((eta < 0) | (eta > 1)):
            raise ValueError("eta must lie in [0, 1]")
        prior = float(weights @ eta)
        if not 0 < prior < 1:
            raise ValueError(f"both classes need positive mass; got prior {prior!r}")
        self.atoms, self.weights, self.eta = atoms, weights, eta
        self.n_features = atoms.shape[1]
        self.prior = prior
        # joint masses of (atom, class): column 0 for y = -1, column 1 for y = +1
        self._joint = np.stack([weights * (1.0 - eta), weights * eta], axis=1)

    # ------------------------------------------------------------------ arbitrary classifiers (all functions)
    def _check_scores(self, scores):
        s = np.asarray(scores, dtype=np.float64)
        single = s.ndim == 1
        s2 = s[np.newaxis, :] if single else s
        J = self.atoms.shape[0]
        if s2.ndim != 2 or s2.shape[1] != J:
            raise ValueError(f"scores must have shape ({J},) or (K, {J}) (one score per atom); got {s.shape}")
        if np.isnan(s2).any():
            raise ValueError("scores must not contain NaN")
        return s2, single

    def positive_rates_of_scores(self, scores):
        """(TP, FP) of the classifier sgn(scores) (one score per atom, sgn(0) = -1)."""
        s, _ = self._check_scores(scores)
        predicted = (s > 0).astype(np.float64)
        return predicted @ self._joint[:, 1], predicted @ self._joint[:, 0]

    def loss_moments_of_scores(self, scores, loss, *, gradient: bool = False, side: str = "right") -> LossMoments:
        """Joint loss moments of arbitrary per-atom scores; ``gradient`` is d/d(score_j), shape (K, 2, J)."""
        s, _ = self._check_scores(scores)
        neg, pos = self._joint[:, 0], self._joint[:, 1]
        if gradient:
            phi_pos, dphi_pos = loss.value_and_derivative(s, side=side)
            phi_neg, dphi_neg = loss.value_and_derivative(-s, side=side)
            grad = np.stack([-neg * dphi_neg, pos * dphi_pos], axis=1)  # d/ds of phi(-s) is -phi'(-s)
        else:
            phi_pos, phi_neg, grad = loss.value(s), loss.value(-s), None
        return LossMoments(np.stack([phi_neg @ neg, phi_pos @ pos], axis=1), grad)

    def utility_of_scores(self, metric: LinearFractionalMetric, scores, *, zero_division="warn"):
        """U(f) for the classifier with the given per-atom scores; float or (K,)."""
        s, single = self._check_scores(scores)
        tp, fp = self.positive_rates_of_scores(s)
        out = np.atleast_1d(metric.value(tp, fp, self.prior, zero_division=zero_division))
        return float(out[0]) if single else out

    def surrogate_utility_of_scores(self, metric: LinearFractionalMetric, loss, scores):
        """U_phi(f) (Eq. (4)) for arbitrary per-atom scores; float or (K,)."""
        s, single = self._check_scores(scores)
        moments = self.loss_moments_of_scores(s, loss)
        coef = score_coefficients(metric)
        num = coef.offset0 @ self.class_masses + moments.value @ coef.slope0
        den = coef.offset1 @ self.class_masses + moments.value @ coef.slope1
        zeros = np.zeros((s.shape[0], 1))
        value = ratio_and_direction(num, den, zeros, zeros, what="U_phi").value
        return float(value[0]) if single else value

    # ------------------------------------------------------------------ linear model
    def positive_rates(self, theta):
        th, _ = self._theta(theta)
        return self.positive_rates_of_scores(th @ self.atoms.T)

    def loss_moments(self, theta, loss, *, gradient: bool, side: str = "right") -> LossMoments:
        th, _ = self._theta(theta)
        moments = self.loss_moments_of_scores(th @ self.atoms.T, loss, gradient=gradient, side=side)
        if not gradient:
            return moments
        # chain rule: d score_j / d theta = x_j
        return LossMoments(moments.value, moments.gradient @ self.atoms)

    # ------------------------------------------------------------------ Prop. 5
    def bayes_optimal(self, metric: LinearFractionalMetric) -> BayesOptimal:
        """Exact U-dagger: by Prop. 5 an optimal classifier predicts +1 on {eta > delta} (or {eta < delta}
        when Da0 - Da1 U < 0), and on {eta = delta} the utility is indifferent, so it suffices to try every
        set of atoms that is an upper or a lower set in eta (tie groups kept together).

        The classifier is returned as a boolean mask over atoms (True = predict +1).
        """
        levels = np.unique(self.eta)
        masks = [self.eta > level for level in levels] + [self.eta >= levels[0]]
        masks += [self.eta < level for level in levels] + [self.eta <= levels[-1]]
        candidates = np.array(masks)
        values = self.utility_of_scores(metric, np.where(candidates, 1.0, -1.0), zero_division=0.0)
        best = int(np.argmax(values))
        return BayesOptimal(float(values[best]), candidates[best].copy())

    def _reference_bayes_optimal(self, metric: LinearFractionalMetric) -> float:
        """U-dagger by brute force over all 2^J labelings of the atoms (test oracle; J <= 16)."""
        J = self.atoms.shape[0]
        if J > 16:
            raise ValueError(f"brute force is limited to 16 atoms; got {J}")
        codes = np.arange(2 ** J)[:, None] >> np.arange(J)[None, :] & 1
        return float(np.max(self.utility_of_scores(metric, np.where(codes == 1, 1.0, -1.0), zero_division=0.0)))

    def sample(self, n_samples: int, seed=None):
        if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
            raise ValueError(f"n_samples must be a positive int; got {n_samples!r}")
        rng = _rng(seed)
        idx = rng.choice(self.atoms.shape[0], size=n_samples, p=self.weights)
        y = np.where(rng.random(n_samples) < self.eta[idx], 1, -1).astype(np.int8)
        return self.atoms[idx].copy(), y
