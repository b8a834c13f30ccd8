"""The surrogate risk weighted at the Bayes threshold of the metric: a remedy for the direction (an extension).

Not in the paper.  Why it is needed, in the paper's own terms (Dinkelbach's separation, which the calibration
findings of ERRATA.md use): for a level u >= 0,

    N(f) - u D(f) = const(u) - E[ a_u(Y) phi(Y f(X)) ],   a_u(+1) = a_{0,+1} + u a_{1,+1},
                                                            a_u(-1) = u a_{1,-1} - a_{0,-1}

(the scores of Eq. (3) are affine in phi, :mod:`lfverify.core`), so maximising U_phi = N / D is minimising the
class-weighted surrogate risk E[a_u(Y) phi(Y f)] at u = U_phi*, and with a differentiable phi (tau = 1) that risk's
pointwise minimiser changes sign at eta = a_u(-1) / (a_u(+1) + a_u(-1)).  Alg. 1 therefore fits the direction for
the level set of eta at u = U_phi*, the surrogate's optimum, which Lemma 1 only bounds *below* the metric: on adult
(F_1) U_phi* = 0.27 puts that level at eta = 0.106, while Prop. 5's Bayes classifier thresholds eta at
delta(U-dagger) = U-dagger / 2 = 0.345.  The exact threshold (:mod:`lfverify.learn`) corrects the offset but
not the direction, which was fitted for the wrong level set.

The remedy weighs the surrogate risk so that its pointwise minimiser changes sign at the Bayes threshold of the
metric's current value v, delta(v) (:meth:`lfverify.core.LinearFractionalMetric.bayes_optimal_threshold`):

    minimise over theta   sum_i w(y_i) phi(y_i theta^T x_i) / sum_i w(y_i)  +  (alpha / 2) ||w_theta||^2,
    w(+1) = 1 - delta(v),  w(-1) = delta(v),

(w(-1) / (w(+1) + w(-1)) = delta(v): the same weights as a_u up to a positive factor, at the level u whose boundary
is delta(v)), and iterates v <- the metric of the fitted classifier after the exact threshold, on the training
sample (Dinkelbach's outer update, applied to the metric itself instead of to U_hat).  The first fit weighs the
classes equally (delta = 1/2, accuracy's level); each later fit starts from the previous solution.  This is the
cost-sensitive
reduction of Parambath et al. (2014) and Koyejo et al. (2014), the paper's related-work family (iii), with the cost
found by the fixed-point iteration instead of a grid.  The penalty (l2 on the weights, not the intercept) is
scikit-learn's ``LogisticRegression(C)`` in these units: alpha = 1 / (C n ln 2) for phi in bits (Fig. 2's log2).

``_reference_weighted_risk`` is the deliberately simple twin of the objective and its gradient (test oracle).
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np

from lfverify.core import (
    LinearFractionalMetric,
    SurrogateLoss,
    check_features,
    check_labels,
    check_parameters,
    check_real,
)
from lfverify.learn._thresholds import _best_threshold, check_sample_weight

__all__ = ["CostSensitiveFit", "bayes_level_weights", "WeightedSurrogateRisk", "fit_at_weights", "fit_cost_sensitive"]


def bayes_level_weights(metric: LinearFractionalMetric, utility: float) -> tuple[float, float]:
    """(w(+1), w(-1)) = (1 - delta, delta), delta = the Bayes threshold on eta at the metric value ``utility``.

    The weighted surrogate risk's pointwise minimiser (phi differentiable and decreasing) is positive exactly where
    eta > w(-1) / (w(+1) + w(-1)) = delta (module docstring; Prop. 5 for delta).

    Raises
    ------
    ValueError
        If delta is not inside (0, 1) (then one class would carry no weight).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Prop. 5 (the Bayes-optimal threshold delta(U) on eta).

    Examples
    --------
    >>> from lfverify.core import f1
    >>> from lfverify.learn import bayes_level_weights
    >>> bayes_level_weights(f1(), 0.8)   # F_1's threshold delta(U) = U / 2 = 0.4
    (0.6, 0.4)
    """
    delta = float(metric.bayes_optimal_threshold(check_real(utility, "utility")))
    if not 0.0 < delta < 1.0:
        raise ValueError(f"utility: the Bayes threshold of {metric.name} at U = {utility:g} is {delta:g}, outside "
                         "(0, 1): no weighting of the two classes puts the boundary there")
    return 1.0 - delta, delta


#: The risks' errors at a theta where the margins or the risk are not finite doubles (the optimizer's step).
_NAN_MARGINS = "theta: the margins y theta^T x are not numbers (inf - inf); use a smaller theta"
_OVERFLOW = ("theta: the weighted surrogate risk overflows (a margin is too large for the loss); use a smaller theta "
             "or a larger penalty")


def _penalty_mask(mask: np.ndarray, fit_intercept: bool) -> np.ndarray:
    """The penalty's 0/1 weight of each coordinate of theta: ``mask`` over X's columns, and 0 for the intercept
    parameter (never penalised) where there is one."""
    return (np.append(mask, False) if fit_intercept else mask).astype(np.float64)


class WeightedSurrogateRisk:
    """sum_i s_i w(y_i) phi(y_i f(x_i)) / sum_i s_i w(y_i) + (alpha / 2) ||theta_penalized||^2 and its gradient.

    f(x) = theta^T x, or theta[:d]^T x + theta[d] with ``fit_intercept`` (the intercept as a parameter, so that X
    is never copied to append a column of ones).

    Parameters
    ----------
    loss : SurrogateLoss
    X : ndarray or scipy.sparse matrix of shape (n, d), finite
    y : array_like of shape (n,), labels in {-1, +1} or {0, 1}
    weights : (w_positive, w_negative), both > 0
        The class weights w(+1), w(-1).
    alpha : float >= 0
        l2 penalty.
    penalized : ndarray of bool, shape (d,), or None
        Which columns of X the penalty applies to (``None``: all); the intercept is never penalised.
    sample_weight : array_like of shape (n,) or None, keyword-only
        Per-sample weights s_i >= 0 with a positive sum (``None``: all 1); integer weights give the risk of the
        sample with each row repeated s_i times.
    fit_intercept : bool, keyword-only
        theta has d + 1 coordinates, the last the intercept.
    """

    def __init__(self, loss, X, y, weights, *, alpha=0.0, penalized=None, sample_weight=None, fit_intercept=False):
        if not isinstance(loss, SurrogateLoss):
            raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
        X = check_features(X, "X", accept_sparse=True)
        labels = check_labels(y, "y", n_samples=X.shape[0])
        weights = tuple(check_real(w, "weights", low=0.0, low_inclusive=False) for w in weights)
        alpha = check_real(alpha, "alpha", low=0.0)
        mask = np.ones(X.shape[1], dtype=bool) if penalized is None else np.asarray(penalized, dtype=bool)
        if mask.shape != (X.shape[1],):
            raise ValueError(f"penalized must be a boolean array of shape ({X.shape[1]},); got shape {mask.shape}")
        sample_weight = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
        if not isinstance(fit_intercept, (bool, np.bool_)):
            raise TypeError(f"fit_intercept must be a bool; got {fit_intercept!r}")
        self._set_data(loss, X, labels, weights, alpha=alpha, mask=mask, sample_weight=sample_weight,
                       fit_intercept=bool(fit_intercept))

    @classmethod
    def _unchecked(cls, loss, X, labels, weights, alpha, mask, sample_weight=None, fit_intercept=False):
        """The risk for inputs its caller has validated (X finite float64 or CSR, labels in {-1, +1}, weights > 0,
        alpha >= 0, mask of shape (d,), sample_weight None or checked): the path of :func:`fit_cost_sensitive`,
        which validates once."""
        risk = cls.__new__(cls)
        risk._set_data(loss, X, labels, weights, alpha=alpha, mask=mask, sample_weight=sample_weight,
                       fit_intercept=fit_intercept)
        return risk

    def _set_data(self, loss, X, labels, weights, alpha, mask, sample_weight, fit_intercept):
        # Two arrays of n elements are kept (the normalised weights and the sign of y), and each evaluation uses three
        # more (the margins, which the loss then takes as its scratch, and its two workspace rows): the fit's peak
        # memory, with no copy of X (issue 29).
        self.loss = loss
        self.X = X
        self._negative = np.asarray(labels) < 0
        sample_weights = np.where(self._negative, weights[1], weights[0])
        if sample_weight is not None:
            sample_weights *= sample_weight
        sample_weights /= sample_weights.sum()
        self._weights = sample_weights  # w_i / sum_j w_j
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self._penalized = _penalty_mask(mask, fit_intercept)
        self._d = X.shape[1]
        self.n_features = X.shape[1] + int(fit_intercept)  # the length of theta

    def scores(self, theta: np.ndarray) -> np.ndarray:
        """f(x_i) for every row of X at one validated theta of shape (n_features,) (a fresh array)."""
        f = np.asarray(self.X @ theta[:self._d], dtype=np.float64).ravel()
        if self.fit_intercept:
            f += theta[self._d]
        return f

    def value_and_gradient(self, theta) -> tuple[float, np.ndarray]:
        """The objective and its gradient at one theta of shape (n_features,)."""
        th, single = check_parameters(theta, self.n_features, "theta")
        if not single:
            raise ValueError(f"theta must have shape ({self.n_features},); got shape {np.shape(theta)}")
        return self._value_and_gradient(th[0])

    def _value_and_gradient(self, th: np.ndarray) -> tuple[float, np.ndarray]:
        """:meth:`value_and_gradient` at a finite float64 theta of shape (n_features,): the optimizer's calls,
        unchecked (at small n the check cost as much as the arithmetic; measured with cProfile at n = 500)."""
        margins = self.scores(th)
        np.negative(margins, out=margins, where=self._negative)  # y_i f(x_i)
        with np.errstate(over="ignore", invalid="ignore"):
            if np.isnan(margins).any():
                raise ValueError(_NAN_MARGINS)
            # the margins are not needed after the loss: they are its scratch (one array of n less at the peak)
            phi, dphi = self.loss._value_and_derivative(margins, True, np.empty((2, margins.size)), overwrite_m=True)
            # np.vdot, not @: matmul of two vectors went through a threaded BLAS path that cost 1-6 ms per call at
            # n = 20,000 on a loaded 2-core machine (vdot: 7 microseconds)
            value = float(np.vdot(self._weights, phi))
            # d/dtheta phi(y_i f(x_i)) = phi'(m_i) y_i (x_i, 1): the residual w_i y_i phi'(m_i), in place
            residual = np.multiply(dphi, self._weights, out=dphi)
            np.negative(residual, out=residual, where=self._negative)
            gradient = np.asarray(self.X.T @ residual).ravel()
            if self.fit_intercept:
                gradient = np.append(gradient, residual.sum())
        if not (math.isfinite(value) and np.isfinite(gradient).all()):
            raise ValueError(_OVERFLOW)
        shrunk = self._penalized * th
        return value + 0.5 * self.alpha * float(shrunk @ shrunk), gradient + self.alpha * shrunk


class CostSensitiveFit(NamedTuple):
    """The result of :func:`fit_cost_sensitive`: the inner fit with the best training metric (the earliest among
    equals)."""

    theta: np.ndarray  #: the direction (and intercept, if X has a column of ones)
    threshold: float  #: the exact threshold on theta^T x chosen on the training sample
    train_utility: float  #: the metric of sgn(theta^T x - threshold) on the training sample
    weights: tuple  #: (w(+1), w(-1)) of the kept inner fit
    utility_history: tuple  #: v_1, v_2, ...: the training metric after each inner fit (and its exact threshold)
    inner_iterations: tuple  #: L-BFGS iterations of each inner fit
    converged: bool  #: the metric changed by at most ``tol`` in the last step
    selected: int = 0  #: the index in ``utility_history`` of the kept inner fit


#: Defaults of :func:`fit_cost_sensitive`: inner fits at most, and the change of the training metric that stops them.
MAX_LEVEL_ITER, LEVEL_TOL = 5, 1e-4
#: The class weights (w(+1), w(-1)) of the first inner fit: equal weights (delta = 1/2).
FIRST_WEIGHTS = (0.5, 0.5)


def _penalty(C: float, n: float) -> float:
    """alpha = 1 / (C n ln 2): ``LogisticRegression(C)``'s penalty for the mean loss in bits (module docstring);
    n is the sample size, or the sum of the sample weights (so that integer weights act as repeated rows)."""
    return 1.0 / (C * n * math.log(2.0))


def _penalized_columns(d: int, fit_intercept_column: bool) -> np.ndarray:
    mask = np.ones(d, dtype=bool)
    if fit_intercept_column:
        mask[-1] = False  # the intercept's column of ones is not penalised
    return mask


class _Overflow(Exception):
    """The optimizer stepped to a theta whose risk or gradient is not a finite double."""


def _minimize(risk: WeightedSurrogateRisk, theta0, max_iter, gtol):
    from scipy.optimize import minimize

    def objective(theta):
        if not np.isfinite(theta).all():
            raise _Overflow
        try:
            return risk._value_and_gradient(theta)
        except ValueError as error:  # the risk overflowed at this theta
            raise _Overflow from error

    try:
        # ftol = 64 eps, as scikit-learn's lbfgs solver: the fit stops on gtol (or max_iter), not on a stalled
        # decrease
        result = minimize(objective, theta0, jac=True, method="L-BFGS-B",
                          options={"maxiter": max_iter, "gtol": gtol, "ftol": 64 * np.finfo(float).eps})
    except _Overflow:
        # What the user can change is X (the optimizer chose theta): name it, with its magnitude
        top = float(abs(risk.X).max()) if risk.X.shape[0] and risk.X.shape[1] else 0.0
        raise ValueError(f"X has entries up to {top:.3g} in magnitude: the surrogate risk or its gradient "
                         "overflows a double during the fit; rescale the features (e.g. scikit-learn's "
                         "StandardScaler) before fitting") from None
    return result.x, int(result.nit), bool(result.success)


def fit_at_weights(loss, X, y, weights, *, C: float = 1.0, fit_intercept_column: bool = True, max_iter: int = 500,
                   gtol: float = 1e-6, theta0=None, sample_weight=None) -> tuple[np.ndarray, int, bool]:
    """One inner fit: minimise :class:`WeightedSurrogateRisk` at fixed class ``weights`` by L-BFGS-B.

    Returns (theta, iterations, converged).  Parameters as in :func:`fit_cost_sensitive`.
    """
    if not isinstance(loss, SurrogateLoss):
        raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
    X = check_features(X, "X", min_samples=2, accept_sparse=True)
    labels = check_labels(y, "y", n_samples=X.shape[0])
    weights = tuple(check_real(w, "weights", low=0.0, low_inclusive=False) for w in weights)
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    sample_weight = None if sample_weight is None else check_sample_weight(sample_weight, X.shape[0])
    theta = np.zeros(X.shape[1]) if theta0 is None else check_parameters(theta0, X.shape[1], "theta0")[0][0].copy()
    return _fit_at_weights(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column,
                           max_iter=int(max_iter),
                           gtol=check_real(gtol, "gtol", low=0.0), theta=theta, sample_weight=sample_weight)


def _risk(loss, X, labels, weights, C, fit_intercept_column, sample_weight, fit_intercept):
    """The :class:`WeightedSurrogateRisk` of one inner fit, its penalty in ``LogisticRegression(C)``'s units."""
    n = X.shape[0] if sample_weight is None else float(sample_weight.sum())
    return WeightedSurrogateRisk._unchecked(loss, X, labels, weights, alpha=_penalty(C, n),
                                            mask=_penalized_columns(X.shape[1], fit_intercept_column),
                                            sample_weight=sample_weight, fit_intercept=fit_intercept)


def _fit_at_weights(loss, X, labels, weights, C, fit_intercept_column, max_iter, gtol, theta, sample_weight=None,
                    fit_intercept=False):
    """:func:`fit_at_weights` for validated inputs (labels in {-1, +1}, theta a fresh array of shape (d,), or
    (d + 1,) with ``fit_intercept``: the intercept as a parameter, X not copied)."""
    risk = _risk(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column, sample_weight=sample_weight,
                 fit_intercept=fit_intercept)
    return _minimize(risk, theta, max_iter, gtol)


class _FoldRisks:
    """The K folds' risks of one inner fit as one objective of the stacked parameters Theta (K rows of theta).

    Fold k's risk is :class:`WeightedSurrogateRisk` with sample weight 0 on the rows of fold k (its held-out rows)
    and its penalty counted on the other rows; the objective is the sum over k, so its gradient is the folds'
    gradients side by side and its minimiser is the K fold fits at once.  Why (issue 29, the fit time at d >= 200):
    one evaluation reads X once, in blocks of rows, for the K margins X Theta^T and the K gradients R^T X of the
    block while it is in cache - a product with K columns instead of 2K passes over X, which bound the time of K
    separate fits where X is larger than the cache (:func:`_joint_fold_fit_pays`).  The blocks' work arrays hold
    at most 0.8 n numbers (:func:`_block_rows`).
    """

    def __init__(self, loss, X, labels, weights, C, fit_intercept_column, fold_of, n_folds, sample_weight,
                 fit_intercept):
        self.loss = loss
        self.X = X
        n, d = X.shape
        self._negative = np.asarray(labels) < 0
        base = np.where(self._negative, weights[1], weights[0])
        if sample_weight is not None:
            base *= sample_weight
        self._base = base
        self._fold_of = fold_of
        self._folds = np.arange(n_folds)
        # fold k's normalised weights: base_i [fold_i != k] / sum_j base_j [fold_j != k] (WeightedSurrogateRisk's)
        self._scale = 1.0 / (base.sum() - np.bincount(fold_of, weights=base, minlength=n_folds))
        counted = np.ones(n) if sample_weight is None else sample_weight
        sizes = counted.sum() - np.bincount(fold_of, weights=counted, minlength=n_folds)
        self._alpha = np.array([_penalty(C, float(size)) for size in sizes])
        mask = _penalized_columns(d, fit_intercept_column)
        self._penalized = _penalty_mask(mask, fit_intercept)
        self.fit_intercept = fit_intercept
        self._d = d
        self.n_features = d + int(fit_intercept)
        self._rows = _block_rows(X, n_folds)

    def _value_and_gradient(self, flat: np.ndarray) -> tuple[float, np.ndarray]:
        """The sum of the folds' risks and its gradient at the stacked parameters (K x n_features, flattened)."""
        d, X, K = self._d, self.X, self._folds.size
        theta = flat.reshape(K, self.n_features)
        directions = np.ascontiguousarray(theta[:, :d].T)  # (d, K)
        intercepts = theta[:, d] if self.fit_intercept else 0.0
        gradient, intercept_gradient, value = np.zeros((K, d)), np.zeros(K), 0.0
        workspace = np.empty((4, min(self._rows, X.shape[0]), K))  # the loss's 2 rows, the margins, the weights
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, X.shape[0], self._rows):
                block = X[start:start + self._rows]
                size = block.shape[0]
                margins = workspace[2, :size]
                margins[...] = block @ directions
                margins += intercepts
                negative = self._negative[start:start + size, None]
                np.negative(margins, out=margins, where=negative)  # y_i f_k(x_i)
                if np.isnan(margins).any():
                    raise ValueError(_NAN_MARGINS)
                phi, dphi = self.loss._value_and_derivative(margins, True, workspace[:2, :size], overwrite_m=True)
                weight = workspace[3, :size]
                np.not_equal(self._fold_of[start:start + size, None], self._folds, out=weight, casting="unsafe")
                weight *= self._base[start:start + size, None]
                weight *= self._scale
                value += float(np.vdot(weight, phi))
                residual = np.multiply(dphi, weight, out=dphi)
                np.negative(residual, out=residual, where=negative)
                gradient += np.asarray(block.T @ residual).T
                intercept_gradient += residual.sum(axis=0)
        if self.fit_intercept:
            gradient = np.concatenate([gradient, intercept_gradient[:, None]], axis=1)
        if not (math.isfinite(value) and np.isfinite(gradient).all()):
            raise ValueError(_OVERFLOW)
        shrunk = self._penalized * theta
        value += 0.5 * float(np.sum(self._alpha * np.einsum("kj,kj->k", shrunk, shrunk)))
        gradient += self._alpha[:, None] * shrunk
        return value, gradient.ravel()


#: Bytes of X in one block of :class:`_FoldRisks` (a few L2 caches; 400-3,200 rows at d = 500 measured alike).
_BLOCK_BYTES = 2**21


def _block_rows(X, n_folds: int) -> int:
    """Rows per block of :class:`_FoldRisks`: about :data:`_BLOCK_BYTES` of X, and at most n / (5 K) rows (its
    four work arrays of rows x K numbers then hold at most 0.8 n numbers), but at least 256 (fewer rows cost more
    in per-block overhead than they save)."""
    n = X.shape[0]
    stored = (X.data.nbytes + X.indices.nbytes) / max(n, 1) if hasattr(X, "indices") else 8.0 * X.shape[1]
    return int(max(256, min(_BLOCK_BYTES // max(stored, 1.0), n // (5 * n_folds))))


#: Dense X of at least this many bytes has its folds fitted as one problem (:func:`_joint_fold_fit_pays`).
_JOINT_MIN_BYTES = 16 * 2**20


def _joint_fold_fit_pays(X, n_params: int) -> bool:
    """Whether :class:`_FoldRisks` is faster than K fits one after another, and no larger in memory.

    Time: the joint evaluation saves passes over X, which pay where X is larger than the cache (measured at
    n = 20,000, single-thread BLAS, 5 folds: d = 100, 16 MB, 0.19 s against 0.26 s; d = 500 0.42 s against 0.95 s;
    at d = 20, 3.2 MB, 0.12 s against 0.05 s, its 25 blocks' overhead and a few more iterations costing more than
    the passes saved; n = 10,000, d = 100, 8 MB, alike).  Memory: the joint L-BFGS-B keeps its 2 x 10 correction
    pairs for K x n_params parameters instead of n_params, which the one-by-one fits' arrays of n numbers outweigh
    only where n >= 20 n_params (at n = 20, d = 100 the joint fit's peak was 3.5x ``LogisticRegression``'s).
    C-ordered dense X only (a block of rows of sparse or Fortran-ordered X is not a contiguous slice)."""
    return (isinstance(X, np.ndarray) and X.flags.c_contiguous and X.nbytes >= _JOINT_MIN_BYTES
            and X.shape[0] >= 20 * n_params)


def _fit_folds_at_weights(loss, X, labels, weights, C, fit_intercept_column, max_iter, gtol, starts, fold_of,
                          sample_weight=None, fit_intercept=False, joint=None) -> np.ndarray:
    """The K fold fits of one inner fit: each fold's :func:`_fit_at_weights` with sample weight 0 on its held-out
    rows (``fold_of == k``, times ``sample_weight``), from ``starts`` (K x n_features).

    ``joint`` (None: :func:`_joint_fold_fit_pays` decides) minimises them as one problem, the sum of the folds'
    convex risks (:class:`_FoldRisks`), whose minimiser is theirs; L-BFGS-B's projected gradient test (the largest
    component at most ``gtol``) covers every fold's components, so where it stops on that test every fold is within
    ``gtol`` as it would be alone.  (Its other test, a relative decrease of the objective below 64 machine
    epsilons, applies to the sum; it ends fits only at a ``gtol`` near rounding.)  ``max_iter`` then counts the
    joint iterations.  Returns the (K, n_features) fold parameters."""
    n_folds = starts.shape[0]
    if joint is None:
        joint = _joint_fold_fit_pays(X, starts.shape[1])
    if not joint:
        return np.array([_fit_at_weights(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column,
                                         max_iter=max_iter, gtol=gtol,
                                         theta=np.array(starts[k], dtype=np.float64),
                                         sample_weight=fold_of != k if sample_weight is None else
                                         np.where(fold_of == k, 0.0, sample_weight), fit_intercept=fit_intercept)[0]
                         for k in range(n_folds)])
    risk = _FoldRisks(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column, fold_of=fold_of,
                      n_folds=n_folds, sample_weight=sample_weight, fit_intercept=fit_intercept)
    theta, _, _ = _minimize(risk, np.ascontiguousarray(starts, dtype=np.float64).ravel(), max_iter, gtol)
    return theta.reshape(starts.shape)


def fit_cost_sensitive(metric, loss, X, y, *, C: float = 1.0, fit_intercept_column: bool = True,
                       max_level_iter: int = MAX_LEVEL_ITER, tol: float = LEVEL_TOL, max_iter: int = 500,
                       gtol: float = 1e-6,
                       theta0=None, sample_weight=None) -> CostSensitiveFit:
    """Minimise the surrogate risk weighted at the Bayes threshold of the metric's value, iterated (module docstring).

    Parameters
    ----------
    metric : LinearFractionalMetric
    loss : SurrogateLoss
        Differentiable at 0 for the boundary to be exactly the Bayes threshold (the tau-logistic loss with tau = 1).
    X : ndarray or scipy.sparse matrix of shape (n, d)
        With an intercept, its last column is the constant 1 (``fit_intercept_column``); that column is not
        penalised.
    y : array_like of shape (n,), labels in {-1, +1} or {0, 1}, both classes present
    C : float > 0, keyword-only
        Inverse penalty strength, as scikit-learn's ``LogisticRegression(C)``: alpha = 1 / (C n ln 2).
    fit_intercept_column : bool, keyword-only
        Whether X's last column is the intercept's column of ones (left out of the penalty).
    max_level_iter : int >= 1, keyword-only
        Inner fits at most: the first with equal class weights, each later one at the Bayes level of the metric
        after the previous fit.
    tol : float >= 0, keyword-only
        Stop when the training metric changes by at most ``tol``.
    max_iter, gtol : keyword-only
        L-BFGS-B's iteration limit and projected-gradient tolerance for each inner fit.
    theta0 : array_like of shape (d,) or None, keyword-only
        Start of the first inner fit (zeros by default); each later fit starts from the previous solution.
    sample_weight : array_like of shape (n,) or None, keyword-only
        Non-negative per-sample weights with a positive sum, in the risk, the penalty's sample size and the
        training metric (integer weights act as repeated rows).

    Returns
    -------
    CostSensitiveFit
        The inner fit whose training metric is the largest (the earliest of equals): a later reweighting never
        makes the result worse on the training sample than an earlier one.  Where the training metric saturates
        (separable training scores, d >= n) all fits tie and the first - equal class weights - is kept.
    """
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    X = check_features(X, "X", min_samples=2, accept_sparse=True)
    n, d = X.shape
    labels = check_labels(y, "y", n_samples=n)
    C = check_real(C, "C", low=0.0, low_inclusive=False)
    tol = check_real(tol, "tol", low=0.0)
    gtol = check_real(gtol, "gtol", low=0.0)
    for name, value in (("max_level_iter", max_level_iter), ("max_iter", max_iter)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an int >= 1; got {value!r}")
    if not isinstance(loss, SurrogateLoss):
        raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
    theta = np.zeros(d) if theta0 is None else check_parameters(theta0, d, "theta0")[0][0].copy()
    sample_weight = None if sample_weight is None else check_sample_weight(sample_weight, n)
    return _fit_cost_sensitive(metric, loss, X, labels, C=C, fit_intercept_column=fit_intercept_column,
                               max_level_iter=int(max_level_iter), tol=tol, max_iter=int(max_iter), gtol=gtol,
                               theta=theta, sample_weight=sample_weight)


def _fit_cost_sensitive(metric, loss, X, labels, *, C, fit_intercept_column, max_level_iter, tol, max_iter, gtol,
                        theta, sample_weight=None, fit_intercept=False) -> CostSensitiveFit:
    """:func:`fit_cost_sensitive` for validated inputs (X finite float64 or CSR with at least 2 rows, labels in
    {-1, +1}, the numbers checked, theta a fresh array of shape (d,) - (d + 1,) with ``fit_intercept``, the
    intercept as a parameter -, sample_weight None or checked): the estimator's path after scikit-learn's
    ``validate_data``, so that X is checked once per fit and never copied."""
    weights = FIRST_WEIGHTS
    history, iterations, converged, all_ok = [], [], False, True
    best = None  # (choice, theta, weights, index) of the best training metric so far; ties keep the earlier
    for step in range(int(max_level_iter)):
        risk = _risk(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column,
                     sample_weight=sample_weight, fit_intercept=fit_intercept)
        theta, nit, ok = _minimize(risk, theta, max_iter, gtol)
        iterations.append(nit)
        all_ok &= ok
        scores = risk.scores(theta)
        del risk  # its arrays of n elements are not needed while the threshold is chosen (peak memory)
        choice = _best_threshold(scores, labels, metric, reference=0.0, weights=sample_weight)
        del scores
        converged = step > 0 and abs(choice.value - history[-1]) <= tol
        history.append(choice.value)
        if best is None or choice.value > best[0].value:
            best = (choice, theta, weights, step)
        if converged or step == max_level_iter - 1:
            break
        weights = bayes_level_weights(metric, choice.value)
    if not all_ok:
        from sklearn.exceptions import ConvergenceWarning

        warnings.warn(f"fit_cost_sensitive: L-BFGS-B stopped at max_iter = {max_iter} in some inner fit",
                      ConvergenceWarning, stacklevel=3)
    choice, theta, weights, index = best
    return CostSensitiveFit(theta, threshold=choice.threshold, train_utility=choice.value, weights=weights,
                            utility_history=tuple(history), inner_iterations=tuple(iterations),
                            converged=converged, selected=index)


# ---------------------------------------------------------------------- reference twin (test oracle)
def _reference_weighted_risk(loss, X, y, weights, theta, *, alpha=0.0, penalized=None):
    """The objective and gradient of :class:`WeightedSurrogateRisk` by explicit loops over samples (test oracle)."""
    X = np.asarray(X, dtype=np.float64)
    theta = np.asarray(theta, dtype=np.float64)
    labels = [1.0 if int(v) == 1 else -1.0 for v in y]
    w = [weights[0] if v > 0 else weights[1] for v in labels]
    total_weight = sum(w)
    value, gradient = 0.0, np.zeros(X.shape[1])
    for i, label in enumerate(labels):
        margin = label * float(X[i] @ theta)
        value += w[i] * float(loss.value(margin)) / total_weight
        gradient += w[i] * float(loss.derivative(margin, side="right")) * label * X[i] / total_weight
    mask = np.ones(X.shape[1]) if penalized is None else np.asarray(penalized, dtype=np.float64)
    value += 0.5 * alpha * float(np.sum((mask * theta) ** 2))
    gradient += alpha * mask * theta
    return value, gradient
