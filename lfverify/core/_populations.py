"""Distributions with exactly known eta and exactly computable population quantities.

For the linear model f_theta(x) = theta^T x every population quantity of the paper reduces to a few joint
moments per class y in {-1, +1} (index 0 for y = -1, 1 for y = +1):

    mass[c]      = P(Y = y)
    TP, FP       = P(Y = +1, theta^T X > 0), P(Y = -1, theta^T X > 0)            (Definition "confusion matrix")
    A[:, c]      = E[phi(y theta^T X) 1{Y = y}]
    G[:, c, :]   = E[phi'(y theta^T X) y X 1{Y = y}]

from which U (Eq. (1)), U_phi (Eq. (4)), V_phi (Sec. 3.3) and grad U_phi follow through the same score algebra
as the empirical estimators (:mod:`lfverify.core`).  Subclasses supply the moments:

* :class:`FiniteSupportPopulation` - atoms with weights and eta per atom; everything is a finite sum, and
  the Bayes-optimal utility U-dagger is found exactly (Prop. 5: a threshold on eta).
* :class:`GaussianPopulation` - two Gaussian classes with a shared covariance, so eta is a sigmoid of an
  affine function of x (the linear model with an intercept contains the Bayes classifier).  Given y,
  theta^T X is Gaussian: TP/FP are normal CDFs, the loss moments are 1-D Gaussian expectations
  (:func:`lfverify.core.gaussian_expectation`, split at the kinks of phi) and the gradient moment
  follows from Gaussian conditioning.  U-dagger maximizes U over thresholds of w^T x (Prop. 5).
* :class:`BoundedLogisticPopulation` - x = (u, 1) with u ~ Uniform[-1, 1] and eta(u) = sigmoid(a u + b):
  ||x|| <= sqrt 2, the bounded-input assumption of Lemma 4.  TP/FP and U-dagger are closed forms in
  softplus; the loss moments are composite Gauss-Legendre integrals over u
  (:func:`lfverify.core.interval_expectation`).

Both continuous populations are deterministic to about 1e-15 relative (no Monte Carlo): the tests pin their
values against mpmath references at 40 digits.
"""

from __future__ import annotations

import abc
import math
from typing import NamedTuple

import numpy as np
from scipy.linalg import LinAlgError, cho_solve, cholesky
from scipy.optimize import brentq, minimize_scalar
from scipy.special import expit, ndtr

from lfverify.core._metrics import LinearFractionalMetric
from lfverify.core._quadrature import gaussian_expectation, interval_expectation
from lfverify.core._scores import (
    RatioDirection,
    ratio_and_direction,
    score_coefficients,
)
from lfverify.core._seeding import as_generator
from lfverify.core._validation import check_features, check_parameters, check_real

__all__ = [
    "Population",
    "LossMoments",
    "BayesOptimal",
    "FiniteSupportPopulation",
    "GaussianPopulation",
    "BoundedLogisticPopulation",
]


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
    return as_generator(seed, "seed")


def _check_n_samples(n_samples) -> int:
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive int; got {n_samples!r}")
    return int(n_samples)


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
        coef = score_coefficients(metric)
        num, den = self._expected_scores(coef, moments)
        gnum = np.einsum("kcd,c->kd", moments.gradient, coef.slope0)
        gden = np.einsum("kcd,c->kd", moments.gradient, coef.slope1)
        return ratio_and_direction(num, den, gnum, gden, what="U_phi")

    def _expected_scores(self, coef, moments: LossMoments):
        """(E[W_{0,phi}], E[W_{1,phi}]) of Eq. (3) from the per-class joint loss moments; the per-class offsets
        recover b_k = c_k + d_k pi exactly once averaged over Y."""
        mass = self.class_masses
        return (coef.offset0 @ mass + moments.value @ coef.slope0,
                coef.offset1 @ mass + moments.value @ coef.slope1)

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
            raise ValueError(f"weights and eta must have shape ({J},) (one per atom); got {weights.shape} and "
                             f"{eta.shape}")
        if not np.all(np.isfinite(weights)) or np.any(weights <= 0):
            raise ValueError("weights must be positive and finite")
        if abs(weights.sum() - 1.0) > 1e-12:
            raise ValueError(f"weights must sum to 1; got {float(weights.sum())!r}")
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

    def surrogate_score_expectations(self, metric: LinearFractionalMetric, loss, scores):
        """(E[W_{0,phi}], E[W_{1,phi}]) (Eq. (3)) of arbitrary per-atom scores, each of shape (K,), with no
        condition on their signs (U_phi itself needs E[W_{1,phi}] > 0)."""
        s, _ = self._check_scores(scores)
        return self._expected_scores(score_coefficients(metric), self.loss_moments_of_scores(s, loss))

    def surrogate_utility_of_scores(self, metric: LinearFractionalMetric, loss, scores):
        """U_phi(f) (Eq. (4)) for arbitrary per-atom scores; float or (K,)."""
        s, single = self._check_scores(scores)
        num, den = self.surrogate_score_expectations(metric, loss, s)
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
        n_samples = _check_n_samples(n_samples)
        rng = _rng(seed)
        idx = rng.choice(self.atoms.shape[0], size=n_samples, p=self.weights)
        y = np.where(rng.random(n_samples) < self.eta[idx], 1, -1).astype(np.int8)
        return self.atoms[idx].copy(), y


# ---------------------------------------------------------------------- Prop. 5 on a one-parameter family
class _ThresholdOptimum(NamedTuple):
    utility: float
    threshold: float  # +-inf for the trivial classifiers
    direction: int  # +1: predict +1 on {score > threshold}; -1: on {score < threshold}


def _maximize_over_thresholds(metric: LinearFractionalMetric, prior: float, *, rates=None, rate_slopes=None,
                              grid=None) -> _ThresholdOptimum:
    """U-dagger when eta is a strictly monotone function of a real score s(x) (Prop. 5).

    Prop. 5: a Bayes-optimal classifier predicts +1 on an upper level set of eta (or a lower one when
    Da0 - Da1 U < 0), i.e. on {s > t} or {s < t}.  U is maximized over both families (t on ``grid``, then
    refined to a root of dU/dt in the bracket around the best grid point) and over the trivial classifiers.

    Parameters
    ----------
    rates : callable, keyword-only
        t -> (TP(t), FP(t)) of the classifier {s > t}, vectorized.
    rate_slopes : callable, keyword-only
        t -> (dTP/dt, dFP/dt), vectorized.
    grid : ndarray or None, keyword-only
        Strictly increasing thresholds (ValueError otherwise), fine enough that U is unimodal between neighbours;
        ``None`` (eta constant) compares the trivial classifiers only.
    """
    def family(t, direction):
        tp, fp = rates(t)
        return (tp, fp) if direction > 0 else (prior - tp, 1.0 - prior - fp)

    def utility(t, direction):
        tp, fp = family(t, direction)
        return metric.value(np.clip(tp, 0.0, prior), np.clip(fp, 0.0, 1.0 - prior), prior, zero_division=0.0)

    def ascent(t, direction):
        # sign of dU/dt: N' D - N D' with N, D the numerator and denominator of Eq. (1)
        tp, fp = family(t, direction)
        dtp, dfp = rate_slopes(t)
        dtp, dfp = direction * dtp, direction * dfp
        num, den = metric.numerator(tp, fp, prior), metric.denominator(tp, fp, prior)
        return float((metric.a0p * dtp + metric.a0n * dfp) * den - num * (metric.a1p * dtp + metric.a1n * dfp))

    best = _ThresholdOptimum(float(metric.value(0.0, 0.0, prior, zero_division=0.0)), math.inf, 1)
    everything = float(metric.value(prior, 1.0 - prior, prior, zero_division=0.0))
    if everything > best.utility:
        best = _ThresholdOptimum(everything, -math.inf, 1)
    if grid is None:
        return best
    grid = np.asarray(grid, dtype=np.float64)
    if grid.ndim != 1 or grid.size < 2:
        raise ValueError(f"grid must be a 1-D array of at least 2 strictly increasing thresholds; got shape "
                         f"{grid.shape}")
    if not np.all(np.diff(grid) > 0):
        i = int(np.argmax(~(np.diff(grid) > 0)))
        raise ValueError(f"grid must be a 1-D array of at least 2 strictly increasing thresholds; got grid[{i}] = "
                         f"{float(grid[i])!r} followed by {float(grid[i + 1])!r}")
    scale = float(grid[-1] - grid[0])
    for direction in (1, -1):
        values = utility(grid, direction)
        i = int(np.argmax(values))
        t_best, u_best = float(grid[i]), float(values[i])
        if 0 < i < grid.size - 1:
            lo, hi = float(grid[i - 1]), float(grid[i + 1])
            if ascent(lo, direction) > 0 > ascent(hi, direction):
                t_star = brentq(ascent, lo, hi, args=(direction,), xtol=1e-15 * scale)
            else:  # flat or non-smooth optimum: bounded Brent on U itself
                t_star = minimize_scalar(lambda t, direction=direction: -float(utility(t, direction)), bounds=(lo, hi),
                                         method="bounded", options={"xatol": 1e-13 * scale}).x
            u_star = float(utility(t_star, direction))
            if u_star >= u_best:
                t_best, u_best = float(t_star), u_star
        if u_best > best.utility:
            best = _ThresholdOptimum(u_best, t_best, direction)
    return best


def _threshold_parameters(optimum: _ThresholdOptimum, direction_vector: np.ndarray) -> np.ndarray:
    """theta = (direction * v, -direction * t) so that theta^T (x, 1) > 0 iff direction * (v^T x - t) > 0;
    (0, +1) / (0, -1) for the all-positive / all-negative classifier."""
    if math.isinf(optimum.threshold):
        return np.append(np.zeros_like(direction_vector), 1.0 if optimum.threshold < 0 else -1.0)
    return optimum.direction * np.append(direction_vector, -optimum.threshold)


# ---------------------------------------------------------------------- Gaussian classes
class GaussianPopulation(Population):
    """``X | Y=+1 ~ N(mu_+, Sigma)``, ``X | Y=-1 ~ N(mu_-, Sigma)``, P(Y=+1) = pi.

    Then eta(x) = sigmoid(w^T x + b) with ``w = Sigma^{-1} (mu_+ - mu_-)`` and
    ``b = -1/2 (mu_+^T Sigma^{-1} mu_+ - mu_-^T Sigma^{-1} mu_-) + log(pi / (1 - pi))``.

    For the linear model, given Y = y the output xi = theta^T x is N(m_y, s^2) with m_y = theta_x^T mu_y
    (+ theta_0 with an intercept) and s^2 = theta_x^T Sigma theta_x, so

    * ``TP = pi Phi(m_+ / s)``, ``FP = (1 - pi) Phi(m_- / s)`` (exact; s = 0 gives the indicator of m_y > 0);
    * E[phi(y xi) | y] is a 1-D Gaussian expectation in the margin t = y xi ~ N(y m_y, s^2), computed by
      composite Gauss-Legendre split at the kinks of phi (:func:`~lfverify.core.gaussian_expectation`);
    * E[phi'(y xi) y x | y] uses E[x | xi, y] = mu_y + Sigma theta_x (xi - m_y) / s^2, which with
      z = (t - y m_y) / s gives y mu_y E[phi'(t)] + Sigma theta_x E[phi'(t) z] / s; the intercept component
      is y E[phi'(t)].

    Parameters
    ----------
    mean_positive, mean_negative : array_like of shape (d,)
    covariance : array_like of shape (d, d)
        Symmetric positive definite.
    prior : float in (0, 1)
    intercept : bool, keyword-only, default True
        Use the feature vector (x, 1) (``n_features = d + 1``), so that the linear model contains the Bayes
        classifier sgn(w^T x + b).
    """

    def __init__(self, mean_positive, mean_negative, covariance, prior, *, intercept: bool = True):
        mu_pos = self._check_mean(mean_positive, "mean_positive")
        d = mu_pos.size
        mu_neg = self._check_mean(mean_negative, "mean_negative", d)
        sigma = np.asarray(covariance, dtype=np.float64)
        if sigma.shape != (d, d):
            raise ValueError(f"covariance must have shape ({d}, {d}) to match the means; got shape {sigma.shape}")
        if not np.isfinite(sigma).all():
            raise ValueError("covariance must contain only finite values; got a non-finite entry")
        asym = float(np.max(np.abs(sigma - sigma.T)))
        if asym > 1e-12 * float(np.max(np.abs(sigma))):
            raise ValueError(f"covariance must be symmetric; got max |Sigma - Sigma^T| = {asym!r}")
        sigma = 0.5 * (sigma + sigma.T)
        try:
            chol = cholesky(sigma, lower=True)
        except LinAlgError:
            chol = None
        if chol is None:  # LAPACK's potrf fails unless every pivot is > 0, so a returned factor is valid
            raise ValueError(
                "covariance must be positive definite; got smallest eigenvalue "
                f"{float(np.linalg.eigvalsh(sigma)[0])!r}"
            )
        if not isinstance(intercept, (bool, np.bool_)):
            raise TypeError(f"intercept must be a bool; got {intercept!r}")
        self.prior = check_real(prior, "prior", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        self.mean_positive, self.mean_negative, self.covariance = mu_pos, mu_neg, sigma
        self.intercept = bool(intercept)
        self.n_features = d + 1 if self.intercept else d
        self._chol = chol
        self._class_means = np.stack([mu_neg, mu_pos])  # row c: class index c (0: y = -1, 1: y = +1)
        w = cho_solve((chol, True), mu_pos - mu_neg)
        #: Direction ``w = Sigma^{-1} (mu_+ - mu_-)`` of the Bayes classifier.
        self.bayes_direction = w
        #: Intercept b of eta(x) = sigmoid(w^T x + b); ``-1/2 w^T (mu_+ + mu_-)`` is the difference of quadratic forms.
        self.bayes_intercept = float(-0.5 * w @ (mu_pos + mu_neg) + math.log(self.prior / (1.0 - self.prior)))

    @staticmethod
    def _check_mean(value, name, d=None):
        arr = np.asarray(value, dtype=np.float64)
        if arr.ndim != 1 or arr.size < 1 or (d is not None and arr.size != d):
            want = "(d,) with d >= 1" if d is None else f"({d},) like mean_positive"
            raise ValueError(f"{name} must be a 1-D array of shape {want}; got shape {arr.shape}")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} must contain only finite values; got {arr.tolist()!r}")
        return arr.copy()

    def posterior(self, X):
        """eta(x) = P(Y = +1 | x) for rows of X of shape (n, n_features) (the intercept column is ignored)."""
        X = check_features(X, "X")
        if X.shape[1] != self.n_features:
            raise ValueError(f"X must have {self.n_features} columns; got {X.shape[1]}")
        d = self.mean_positive.size
        return expit(X[:, :d] @ self.bayes_direction + self.bayes_intercept)

    def _output_moments(self, th):
        """Class-conditional mean m_y (K, 2) and standard deviation s (K,) of xi = theta^T x."""
        d = self.mean_positive.size
        tx = th[:, :d]
        means = tx @ self._class_means.T
        if self.intercept:
            means = means + th[:, d:]
        return tx, means, np.linalg.norm(tx @ self._chol, axis=1)  # s^2 = theta_x^T L L^T theta_x

    def positive_rates(self, theta):
        th, _ = self._theta(theta)
        _, means, s = self._output_moments(th)
        positive = s > 0
        with np.errstate(over="ignore"):  # a subnormal s gives m / s = +-inf, and ndtr(+-inf) = 1 or 0 exactly
            ratio = np.divide(means, s[:, None], out=np.zeros_like(means), where=positive[:, None])
        prob = np.where(positive[:, None], ndtr(ratio), (means > 0).astype(np.float64))  # sgn(0) = -1
        joint = prob * self.class_masses
        return joint[:, 1], joint[:, 0]

    def loss_moments(self, theta, loss, *, gradient: bool, side: str = "right") -> LossMoments:
        th, _ = self._theta(theta)
        tx, means, s = self._output_moments(th)
        K, d = th.shape[0], self.mean_positive.size
        value = np.empty((K, 2))
        grad = np.empty((K, 2, self.n_features)) if gradient else None
        sigma_theta = tx @ self.covariance  # (Sigma theta_x)^T, Sigma symmetric
        s_safe = np.where(s > 0, s, 1.0)

        def phi_and_derivative(t):
            return np.stack(loss.value_and_derivative(t, side=side), axis=-1)

        for c, y in enumerate((-1.0, 1.0)):
            mass = self.class_masses[c]
            # the margin t = y xi ~ N(y m_y, s^2); kinks of phi are breakpoints in t directly
            if not gradient:
                e = gaussian_expectation(loss.value, y * means[:, c], s, breakpoints=loss.kinks,
                                         tail_rate=loss.tail_rate)
                value[:, c] = mass * e
                continue
            e, ez = gaussian_expectation(phi_and_derivative, y * means[:, c], s, breakpoints=loss.kinks,
                                         tail_rate=loss.tail_rate, first_moment=True)
            value[:, c] = mass * e[:, 0]
            # E[phi'(t) y x] = y mu_y E[phi'(t)] + Sigma theta_x E[phi'(t) z] / s   (0 when s = 0: theta_x = 0)
            conditional = np.where(s > 0, ez[:, 1] / s_safe, 0.0)
            grad[:, c, :d] = mass * (y * e[:, 1:2] * self._class_means[c] + conditional[:, None] * sigma_theta)
            if self.intercept:
                grad[:, c, d] = mass * y * e[:, 1]
        return LossMoments(value, grad)

    def bayes_optimal(self, metric: LinearFractionalMetric) -> BayesOptimal:
        """U-dagger over all measurable classifiers.

        eta is increasing in the score z = w^T x, so by Prop. 5 an optimal classifier is {z > t} (or
        {z < t}); with sigma_w = sqrt(w^T Sigma w)::

            TP(t) = pi Phi((w^T mu_+ - t) / sigma_w),   FP(t) = (1 - pi) Phi((w^T mu_- - t) / sigma_w),

        and U is maximized over t (a dense grid, then the root of dU/dt) and the trivial classifiers.

        Returns
        -------
        BayesOptimal
            ``classifier`` is theta = (w, -t) in the augmented parameterisation (x, 1), i.e. predict +1 iff
            w^T x > t ((-w, t) for {z < t}; (0, +-1) for the trivial classifiers).  With ``intercept=True``
            this is a parameter vector of the model; with ``intercept=False`` it has d + 1 entries.
        """
        w = self.bayes_direction
        sigma_w = float(np.linalg.norm(w @ self._chol))
        center_pos, center_neg = float(w @ self.mean_positive), float(w @ self.mean_negative)
        pi = self.prior
        if sigma_w == 0.0:  # mu_+ = mu_-: eta is constant, only the trivial classifiers matter
            optimum = _maximize_over_thresholds(metric, pi)
            return BayesOptimal(optimum.utility, _threshold_parameters(optimum, w))

        def rates(t):
            return pi * ndtr((center_pos - t) / sigma_w), (1.0 - pi) * ndtr((center_neg - t) / sigma_w)

        def rate_slopes(t):
            density = lambda c: np.exp(-0.5 * ((c - t) / sigma_w) ** 2) / (math.sqrt(2 * math.pi) * sigma_w)  # noqa: E731
            return -pi * density(center_pos), -(1.0 - pi) * density(center_neg)

        # center_pos - center_neg = sigma_w^2; cover both class means +- 12 sigma_w
        grid = np.linspace(center_neg - 12.0 * sigma_w, center_pos + 12.0 * sigma_w, 4001)
        optimum = _maximize_over_thresholds(metric, pi, rates=rates, rate_slopes=rate_slopes, grid=grid)
        return BayesOptimal(optimum.utility, _threshold_parameters(optimum, w))

    def sample(self, n_samples: int, seed=None):
        n_samples = _check_n_samples(n_samples)
        rng = _rng(seed)
        y = np.where(rng.random(n_samples) < self.prior, 1, -1).astype(np.int8)
        noise = rng.standard_normal((n_samples, self.mean_positive.size))
        X = self._class_means[(y == 1).astype(np.intp)] + noise @ self._chol.T
        if self.intercept:
            X = np.column_stack([X, np.ones(n_samples)])
        return X, y


# ---------------------------------------------------------------------- bounded features (Lemma 4)
def _sigmoid_integral(slope, offset, low, high):
    """Integral of sigmoid(slope * u + offset) over [low, high] (low <= high), elementwise, without
    cancellation: with x = the smaller end value of slope * u + offset and D = |slope| (high - low),

        integral = log(1 + expm1(D) sigmoid(x)) / |slope|     (softplus(x + D) - softplus(x), stably)

    and for D > 30 the equal form logaddexp(-softplus(x), D - softplus(-x)) / |slope|; the midpoint rule
    (high - low) sigmoid(slope (low + high) / 2 + offset) when D <= 1e-150 (slope = 0 included).
    """
    slope, offset, low, high = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (slope, offset, low, high)))
    length = high - low
    a = np.abs(slope)
    x = np.minimum(slope * low, slope * high) + offset
    spread = a * length
    near = np.log1p(np.expm1(np.minimum(spread, 30.0)) * expit(x))
    far = np.logaddexp(-np.logaddexp(0.0, x), spread - np.logaddexp(0.0, -x))
    increment = np.where(spread <= 30.0, near, far)
    # (nearly) constant integrand: the midpoint rule, exact up to O(spread^2) relative
    flat = spread <= 1e-150
    midpoint = length * expit(offset + slope * (0.5 * (low + high)))
    return np.where(flat, midpoint, increment / np.where(flat, 1.0, a))


class BoundedLogisticPopulation(Population):
    """u ~ Uniform[-1, 1], x = (u, 1) and eta(u) = sigmoid(slope * u + offset).

    ||x|| <= sqrt 2, so the bounded-input assumption of Lemma 4 holds, and the linear model with the
    intercept column contains the Bayes classifier.  pi = (1/2) integral_{-1}^{1} eta(u) du in closed form
    (integral sigmoid(a u + b) du = softplus(a u + b) / a).

    * TP / FP: {theta^T x > 0} is an interval of u, so TP = (1/2) integral of eta over it and FP that of
      1 - eta = sigmoid(-slope u - offset), both in closed form.
    * Loss moments: (1/2) integral_{-1}^{1} phi(y theta^T x) P(Y=y | u) du and the gradient analogue, by
      composite Gauss-Legendre (:func:`~lfverify.core.interval_expectation`) split where the margin
      y (theta_1 u + theta_2) hits a kink of phi, with panels of width <= ``min(0.25, 1/|theta_1|, 1/|slope|)``:
      the logistic pieces of phi and eta have their complex poles at distance >= ``pi / |theta_1|`` and
      ``pi / |slope|`` from the real u-axis, so every panel sees rho >= 12 (error ~1e-35 with 16 nodes).

    Parameters
    ----------
    slope, offset : float
        eta(u) = sigmoid(slope * u + offset); ``slope = 0`` gives a constant eta.
    """

    n_features = 2

    def __init__(self, slope: float, offset: float):
        self.slope = check_real(slope, "slope")
        self.offset = check_real(offset, "offset")
        prior = 0.5 * float(_sigmoid_integral(self.slope, self.offset, -1.0, 1.0))
        if not 0.0 < prior < 1.0:
            raise ValueError(f"both classes need positive mass; got prior {prior!r} for slope={slope!r}, "
                             f"offset={offset!r}")
        self.prior = prior

    def posterior(self, X):
        """eta(u) = P(Y = +1 | x) for rows x = (u, 1) of X of shape (n, 2)."""
        X = check_features(X, "X")
        if X.shape[1] != 2:
            raise ValueError(f"X must have 2 columns (u, 1); got {X.shape[1]}")
        return expit(self.slope * X[:, 0] + self.offset)

    def _interval_rates(self, low, high):
        """(TP, FP) of the classifier {low < u < high}: (1/2) integral_low^high eta(u) du and
        (1/2) integral_low^high (1 - eta(u)) du, with 1 - eta(u) = sigmoid(-slope u - offset) integrated in
        closed form too (not as |interval| / 2 - TP, which cancels where eta ~ 1)."""
        return (0.5 * _sigmoid_integral(self.slope, self.offset, low, high),
                0.5 * _sigmoid_integral(-self.slope, -self.offset, low, high))

    def positive_rates(self, theta):
        th, _ = self._theta(theta)
        a, b = th[:, 0], th[:, 1]
        # the predicted-positive set {a u + b > 0} within [-1, 1] is [low, high] (or empty)
        inside = (np.abs(b) <= np.abs(a)) & (a != 0)
        root = np.divide(-b, a, out=2.0 * np.sign(-b) * np.sign(a), where=inside)  # |root| > 1 when outside
        root = np.clip(root, -1.0, 1.0)
        low = np.where(a > 0, root, -1.0)
        high = np.where(a < 0, root, np.where((a == 0) & (b <= 0), -1.0, 1.0))
        return self._interval_rates(low, np.maximum(high, low))

    def loss_moments(self, theta, loss, *, gradient: bool, side: str = "right") -> LossMoments:
        th, _ = self._theta(theta)
        a, b = th[:, 0], th[:, 1]
        K = th.shape[0]
        # breakpoints: y (a u + b) = k  <=>  u = (y k - b) / a; those outside [-1, 1] are parked at -1
        targets = np.array([y * k for y in (-1.0, 1.0) for k in loss.kinks])
        numer = targets[None, :] - b[:, None]
        inside = (np.abs(numer) <= np.abs(a)[:, None]) & (a != 0)[:, None]
        breakpoints = np.divide(numer, a[:, None], out=np.full((K, targets.size), -1.0), where=inside)
        width = 1.0 / np.maximum(np.maximum(np.abs(a), abs(self.slope)), 4.0)

        def integrands(u):
            xi = a[:, None] * u + b[:, None]
            score = self.slope * u + self.offset
            p_pos, p_neg = expit(score), expit(-score)  # P(Y = +1 | u), P(Y = -1 | u)
            phi_neg, dphi_neg = loss.value_and_derivative(-xi, side=side)
            phi_pos, dphi_pos = loss.value_and_derivative(xi, side=side)
            parts = [p_neg * phi_neg, p_pos * phi_pos]
            if gradient:  # phi'(y xi) y x with x = (u, 1)
                parts += [-p_neg * dphi_neg * u, -p_neg * dphi_neg, p_pos * dphi_pos * u, p_pos * dphi_pos]
            return np.stack(parts, axis=-1)

        # density of u is 1/2 on [-1, 1] (the default uniform density)
        moments = interval_expectation(integrands, -1.0, 1.0, breakpoints=breakpoints, max_panel_width=width)
        grad = moments[:, 2:].reshape(K, 2, 2) if gradient else None
        return LossMoments(moments[:, :2], grad)

    def bayes_optimal(self, metric: LinearFractionalMetric) -> BayesOptimal:
        """U-dagger over all measurable classifiers.

        eta is monotone in u, so by Prop. 5 an optimal classifier is {u > t} or {u < t} with t in [-1, 1]:
        TP(t) = (1/2) integral_t^1 eta du and FP(t) = (1/2) integral_t^1 (1 - eta) du (closed forms) for {u > t}; the
        complements give the other family and t = +-1 the trivial classifiers.

        Returns
        -------
        BayesOptimal
            ``classifier`` is theta = (1, -t) (predict +1 iff u > t), (-1, t) for {u < t}.
        """
        def rates(t):
            return self._interval_rates(t, 1.0)

        def rate_slopes(t):
            eta = expit(self.slope * t + self.offset)
            return -0.5 * eta, -0.5 * (1.0 - eta)

        optimum = _maximize_over_thresholds(metric, self.prior, rates=rates, rate_slopes=rate_slopes,
                                             grid=np.linspace(-1.0, 1.0, 2001))
        return BayesOptimal(optimum.utility, _threshold_parameters(optimum, np.ones(1)))

    def sample(self, n_samples: int, seed=None):
        n_samples = _check_n_samples(n_samples)
        rng = _rng(seed)
        u = rng.uniform(-1.0, 1.0, n_samples)
        y = np.where(rng.random(n_samples) < expit(self.slope * u + self.offset), 1, -1).astype(np.int8)
        return np.column_stack([u, np.ones(n_samples)]), y
