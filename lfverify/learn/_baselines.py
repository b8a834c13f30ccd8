"""The paper's baselines (App. C.2, "Details of Baseline Methods"), built from scikit-learn, plus a modern peer.

* ``"erm"`` -- Baseline 1: "the vanilla empirical risk minimization, which does not optimize the metric of our
  interest but accuracy.  The hinge loss and l2-regularization are employed with the regularization parameter
  1e-2."  (:class:`HingeERMClassifier`)
* ``"w-erm"`` -- Baseline 2: "Find a cost parameter from a given cost parameter space, which gives the maximum
  validation performance of a classifier trained by the cost-sensitive empirical risk minimization.  The
  training dataset is split to 4 to 1 at random, and the latter is saved for validation of a regularization
  parameter.  The former set is further split to 9 to 1 at random, and the former 90% is used for training the
  base classifier, while the latter 10% is used for the validation.  As the base cost-sensitive learner, we use
  the hinge loss minimizer with l2-regularization (a regularization parameter is chosen from {1e-1, 1e-3,
  1e-5} by cross validation).  The cost parameter is chosen from the range [1e-3, 1 - 1e-3] evenly split to
  20 ranges, that is, {1e-3 + (1 - 2 * 1e-3) / 20 * i | i = 1, ..., 20}."  (:class:`WeightedERMClassifier`)
* ``"plug-in"`` -- Baseline 3: "To estimate the class posterior probability eta(x) = p(y = +1 | x) first, and
  then to decide the optimal threshold delta.  The classifier is constructed as x -> sign(eta(x) - delta).
  The training dataset is split to 4 to 1 at random, and the latter is saved for validation of a
  regularization parameter.  The former set is further split to 9 to 1 at random, and they are independently
  used for the first and second step.  For estimating p(y = +1 | x) (the first step), the logistic regression
  is used, with l2-regularization (a regularization parameter is chosen from {1e-1, 1e-3, 1e-5} by cross
  validation).  For deciding delta, we pick a threshold with the highest validation metric from
  {1e-3 + (1 - 2 * 1e-3) / 20 * i | i = 1, ..., 20}."  (:class:`PlugInClassifier`)
* ``"tuned-threshold"`` -- not in the paper: scikit-learn's ``TunedThresholdClassifierCV`` around a
  ``LogisticRegression``, scoring the metric by 5-fold cross-validation over 100 thresholds, as a modern
  plug-in peer.  (:class:`TunedThresholdBaseline`)
* ``"logistic-regression"`` -- not in the paper: scikit-learn's ``LogisticRegression()`` with its defaults, what a
  user fits first; the benchmark's ``compare`` experiment measures every fit time against it.
  (:class:`LogisticRegressionBaseline`)

Conventions that App. C.2 leaves open, decided here:

* **Regularization parameter.**  Decided by measurement, not by the text (which does not say):
  - ERM's fixed lambda = 1e-2 weighs the penalty against the *summed* loss, ``sum_i hinge_i + (lambda / 2)
    ||w||^2`` (liblinear's own form, ``C = 1 / lambda``): of four readings it alone reproduces the paper's ERM
    column on the large data sets (phoneme, spambase, madelon, mushrooms; FINDINGS.md has the table).
  - W-ERM's and Plug-in's validated lambda in {1e-1, 1e-3, 1e-5} weighs it against the *mean* loss,
    ``mean_i loss_i + (lambda / 2) ||w||^2`` (scikit-learn's ``SGDClassifier(alpha=lambda)`` convention), so
    ``C = 1 / (lambda n)`` with n the training samples of that fit: this reading reproduces their columns on the
    nine small data sets (W-ERM 17 of 18 cells within 3 combined standard errors, Plug-in 18 of 18), and the
    sum form would ask liblinear for C = 10^5.
  The intercept is fitted (liblinear penalises it too, as its default).
* **"Chosen by cross validation"** is read as the 4:1 hold-out the same paragraph describes: for every
  lambda the cost (threshold) is chosen on the 10 % split, then lambda is chosen by the metric on the 20 %
  hold-out; the final classifier is the one trained on the 90 % split with the chosen pair (no refit).
* **Cost-sensitive weights.**  Cost c weighs positives by 2 (1 - c) and negatives by 2 c (Scott, 2012: the
  Bayes classifier of this risk is sign(eta(x) - c), so the cost grid plays the threshold grid's role; the
  factor 2 makes c = 1/2 plain ERM).
* **Splits** are random and stratified (each part keeps both classes whenever the class has two members, so
  the protocol also runs on the paper's smallest samples, n = 20); they are drawn with
  ``numpy.random.Generator`` from ``SeedSequence(random_state)``, which also gives scikit-learn its integer
  seeds.  Ties in a validation score go to the first grid value (the larger lambda, the smaller cost).
* **Predictions** follow the paper's sgn(0) = -1: ``predict`` is +1 exactly where ``decision_function > 0``.
  Validation scores use ``zero_division=0``.

Labels are {-1, +1} (or {0, 1}, read as {-1, +1}); ``predict`` returns {-1, +1}.  ``score`` is the chosen
metric, not accuracy, so the classifiers rank correctly in ``GridSearchCV``.

This module needs scikit-learn (the ``bench`` extra); importing it without scikit-learn raises an ImportError
that says so.
"""

from __future__ import annotations

import copy
import warnings
from typing import NamedTuple

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer
from sklearn.model_selection import StratifiedKFold, TunedThresholdClassifierCV
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from lfverify.core import (
    LinearFractionalMetric,
    as_seed_sequence,
    check_features,
    check_labels,
    check_seed,
    child,
    int_seed,
    resolve_metric,
)
from lfverify.learn._estimator import ERM_REGULARIZATION, hinge_erm_svm

__all__ = [
    "BASELINES",
    "REGULARIZATION_GRID",
    "COST_GRID",
    "THRESHOLD_GRID",
    "make_baseline",
    "HingeERMClassifier",
    "WeightedERMClassifier",
    "PlugInClassifier",
    "TunedThresholdBaseline",
    "LogisticRegressionBaseline",
    "NONLINEAR_PEERS",
    "make_nonlinear_peer",
]

#: Names accepted by :func:`make_baseline`.
BASELINES = ("erm", "w-erm", "plug-in", "tuned-threshold", "logistic-regression")
#: Names accepted by :func:`make_nonlinear_peer`: scikit-learn's tree ensembles, alone, with a tuned threshold
#: (``+tuned``) and inside the remedy (``+remedy``, :class:`~lfverify.learn.MetricOptimalClassifier`).
NONLINEAR_PEERS = tuple(f"{base}{wrapper}" for base in ("hist-gradient-boosting", "random-forest")
                        for wrapper in ("", "+tuned", "+remedy"))
#: The regularization parameters validated by W-ERM and Plug-in (App. C.2).
REGULARIZATION_GRID = (1e-1, 1e-3, 1e-5)
#: {1e-3 + (1 - 2e-3) / 20 * i | i = 1, ..., 20} (App. C.2): W-ERM's costs and Plug-in's thresholds.
COST_GRID = tuple(1e-3 + (1 - 2e-3) / 20 * i for i in range(1, 21))
THRESHOLD_GRID = COST_GRID

def _generators(random_state):
    """(Generator for the splits, int seed for scikit-learn), both from SeedSequence(random_state)."""
    base = as_seed_sequence(random_state, "random_state")
    split_seq, sklearn_seq = child(base, 0), child(base, 1)
    return np.random.default_rng(split_seq), int_seed(sklearn_seq)


def _stratified_holdout(y, fraction, rng):
    """Indices (kept, held out) with about ``fraction`` of each class held out (sorted).

    Each class with at least two members keeps one and holds out one, so both parts hold both classes.
    """
    kept, held = [], []
    for label in (-1, 1):
        members = rng.permutation(np.flatnonzero(y == label))
        count = members.size
        n_held = int(round(fraction * count))
        if count >= 2:
            n_held = min(max(n_held, 1), count - 1)
        else:
            n_held = 0
        held.append(members[:n_held])
        kept.append(members[n_held:])
    return np.sort(np.concatenate(kept)), np.sort(np.concatenate(held))


def _penalty_to_C(regularization, n_samples):
    """scikit-learn's C for mean loss + (lambda / 2) ||w||^2 over n samples (module docstring)."""
    return 1.0 / (regularization * n_samples)


def _check_grid(grid, name, *, low, high):
    values = np.asarray(grid, dtype=np.float64)
    if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)) \
            or np.any(values <= low) or np.any(values >= high):
        raise ValueError(f"{name} must be a non-empty sequence of numbers in ({low}, {high}); got {grid!r}")
    return values


def _fit_counting_unconverged(model, X, y) -> int:
    """Fit ``model``; return 1 if it stopped at ``max_iter`` (its ConvergenceWarning is counted, not shown)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    return int(np.max(model.n_iter_) >= model.max_iter)


def _warn_unconverged(count, total, what, max_iter):
    """One summary ConvergenceWarning for a grid instead of one per fit."""
    if count:
        warnings.warn(f"{what}: {count} of {total} fits stopped at max_iter={max_iter} before converging",
                      ConvergenceWarning, stacklevel=3)


class _ValidatedGrid(NamedTuple):
    """A fitted grid of candidate classifiers (i: lambda, j: cost or threshold) and their decision values on
    the two validation splits: everything the selection needs, and none of it depends on the metric."""

    regularizations: np.ndarray  #: (n_lambda,): the lambdas
    grid_values: np.ndarray  #: (n_grid,): the costs (W-ERM) or thresholds (Plug-in)
    coefs: np.ndarray  #: (n_lambda, d)  or  (n_lambda, n_grid, d)
    intercepts: np.ndarray  #: (n_lambda,)  or  (n_lambda, n_grid)
    first_decisions: np.ndarray  #: (n_lambda, n_grid, n_first): decisions on the 10 % split
    first_labels: np.ndarray
    second_decisions: np.ndarray  #: (n_lambda, n_grid, n_second): decisions on the 20 % hold-out
    second_labels: np.ndarray


def _two_stage_selection(metric, grid: _ValidatedGrid):
    """App. C.2's validation: per lambda the grid value (cost / threshold) with the best metric on the 10 %
    split, then the lambda whose chosen classifier has the best metric on the 20 % hold-out (first of equals).

    Returns (best lambda index, best grid index per lambda, first-stage scores (n_lambda, n_grid), second-stage
    scores (n_lambda,)).
    """
    n_lambda, n_grid, _ = grid.first_decisions.shape
    first = np.asarray(metric.score_decision(grid.first_labels, grid.first_decisions.reshape(n_lambda * n_grid, -1),
                                             zero_division=0.0)).reshape(n_lambda, n_grid)
    best_grid = np.argmax(first, axis=1)
    chosen = grid.second_decisions[np.arange(n_lambda), best_grid]  # (n_lambda, n_second)
    second = np.atleast_1d(metric.score_decision(grid.second_labels, chosen, zero_division=0.0))
    return int(np.argmax(second)), best_grid, first, second


class _LinearBaseline(ClassifierMixin, BaseEstimator):
    """Shared validation, prediction (sgn(0) = -1) and metric scoring of the baselines."""

    def __sklearn_is_fitted__(self):
        # fitted means coefficients: a fit that fails on an argument checked after the data has set classes_
        return hasattr(self, "coef_")

    def _validate_training_data(self, X, y):
        X = check_features(X, "X", min_samples=2)
        y = check_labels(y, "y", n_samples=X.shape[0]).astype(np.int64)
        self.metric_ = resolve_metric(self.metric)
        self.classes_ = np.array([-1, 1])
        self.n_features_in_ = X.shape[1]
        return X, y

    def _validate_features(self, X):
        check_is_fitted(self)
        X = check_features(X, "X")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X must have {self.n_features_in_} features, as in fit; got {X.shape[1]}")
        return X

    def predict(self, X):
        """Labels in {-1, +1}: +1 exactly where ``decision_function(X) > 0`` (the paper's sgn(0) = -1)."""
        return np.where(self.decision_function(X) > 0, 1, -1)

    def score(self, X, y):
        """The metric (``self.metric``) of ``predict(X)`` against ``y``; 0/0 counts as 0."""
        return float(resolve_metric(self.metric).score(y, self.predict(X), zero_division=0.0))

    def _linear_decision(self, X):
        X = self._validate_features(X)
        return X @ self.coef_ + self.intercept_


class _MetricIndependentFit(_LinearBaseline):
    """Baselines whose fits do not depend on the metric: ERM (it minimises the hinge loss) and W-ERM / Plug-in
    (their grid of fits; only the selection on the validation splits, ``_select``, uses the metric)."""

    def _select(self):
        return self  # ERM: nothing is chosen by the metric

    def for_metric(self, metric):
        """A copy of this fitted classifier for ``metric``, with App. C.2's selection redone and nothing refitted.

        The splits and fits do not depend on the metric, so this equals ``set_params(metric=metric).fit(X, y)``
        with the same ``random_state`` (tested) at the cost of the validation scores only; the benchmark fits
        each of these baselines once per trial and uses it for F_1 and for Jaccard.
        """
        check_is_fitted(self)
        other = copy.copy(self)
        other.metric = metric
        other.metric_ = resolve_metric(metric)
        return other._select()


class _GridValidatedFit(_MetricIndependentFit):
    """W-ERM / Plug-in: a metric-independent grid of fits (``grid_``, a :class:`_ValidatedGrid`) from which App.
    C.2's two-stage validation picks one classifier for the metric.  ``_GRID_NAME`` names the second grid
    ("cost" / "threshold"): the choice is stored as ``<name>_`` and its scores as ``<name>_validation_scores_``."""

    _GRID_NAME: str

    def _select(self):
        best, best_grid, grid_scores, reg_scores = _two_stage_selection(self.metric_, self.grid_)
        grid, j = self.grid_, best_grid[best]
        chosen = (best, j) if grid.coefs.ndim == 3 else best  # W-ERM fits per (lambda, cost), Plug-in per lambda
        self.coef_, self.intercept_ = grid.coefs[chosen].copy(), float(grid.intercepts[chosen])
        self.regularization_ = float(grid.regularizations[best])
        setattr(self, f"{self._GRID_NAME}_", float(grid.grid_values[j]))
        setattr(self, f"{self._GRID_NAME}_validation_scores_", grid_scores)
        self.regularization_validation_scores_ = reg_scores
        return self


class HingeERMClassifier(_MetricIndependentFit):
    """Baseline 1 (ERM, App. C.2): hinge loss with l2 regularization, ``LinearSVC`` (liblinear).

    lambda = 1e-2, C = 1/lambda.

    Parameters
    ----------
    metric : LinearFractionalMetric or a metric name of :func:`lfverify.core.resolve_metric`
        Used only by :meth:`score` (ERM itself optimises accuracy).
    regularization : float
        lambda of ``sum_i hinge_i + (lambda / 2) ||w||^2``; ``C = 1 / lambda`` (see ``ERM_REGULARIZATION``).
    max_iter : int
        liblinear's iteration limit.
    random_state : None, int or SeedSequence
        Seeds liblinear's coordinate order.

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_unconverged_fits_ : int, 0 or 1
    """

    def __init__(self, metric="f1", *, regularization=ERM_REGULARIZATION, max_iter=10_000, random_state=None):
        self.metric = metric
        self.regularization = regularization
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X, y = self._validate_training_data(X, y)
        _, sklearn_seed = _generators(self.random_state)
        svm = hinge_erm_svm(regularization=self.regularization, max_iter=self.max_iter, random_state=sklearn_seed)
        self.n_unconverged_fits_ = _fit_counting_unconverged(svm, X, y)
        _warn_unconverged(self.n_unconverged_fits_, 1, "ERM (LinearSVC)", self.max_iter)
        self.coef_, self.intercept_ = svm.coef_[0].copy(), float(svm.intercept_[0])
        return self

    def decision_function(self, X):
        """theta^T x + b of the fitted hinge-loss minimiser."""
        return self._linear_decision(X)


class WeightedERMClassifier(_GridValidatedFit):
    """Baseline 2 (W-ERM, App. C.2): cost-sensitive hinge ERM, cost and lambda chosen on validation splits.

    For every lambda in ``regularization_grid`` and cost c in ``cost_grid`` (20 values), a ``LinearSVC`` with
    class weights 2 (1 - c) (positives) and 2 c (negatives) is fitted on 90 % of 80 % of the training data; the
    cost maximising the metric on the other 10 % is kept for that lambda, and the lambda whose classifier
    maximises the metric on the 20 % hold-out wins (module docstring).

    Parameters
    ----------
    metric : LinearFractionalMetric or a metric name of :func:`lfverify.core.resolve_metric`
    regularization_grid : sequence of float
    cost_grid : sequence of float in (0, 1)
    max_iter : int
    random_state : None, int or SeedSequence

    Attributes
    ----------
    coef_, intercept_ : the chosen classifier
    regularization_, cost_ : float, the chosen pair
    cost_validation_scores_ : ndarray of shape (len(regularization_grid), len(cost_grid))
        The metric on the 10 % cost-validation split.
    regularization_validation_scores_ : ndarray of shape (len(regularization_grid),)
        The metric on the 20 % hold-out of each lambda's best-cost classifier.
    split_ : dict of index arrays ``fit``, ``cost_validation``, ``regularization_validation``
    grid_ : the 3 x 20 fitted classifiers and their validation decisions (see :meth:`for_metric`)
    n_unconverged_fits_ : int
        How many of the grid's fits stopped at ``max_iter`` (one summary ConvergenceWarning is issued).
    """

    _GRID_NAME = "cost"

    def __init__(self, metric="f1", *, regularization_grid=REGULARIZATION_GRID, cost_grid=COST_GRID,
                 max_iter=10_000, random_state=None):
        self.metric = metric
        self.regularization_grid = regularization_grid
        self.cost_grid = cost_grid
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X, y = self._validate_training_data(X, y)
        lambdas = _check_grid(self.regularization_grid, "regularization_grid", low=0.0, high=np.inf)
        costs = _check_grid(self.cost_grid, "cost_grid", low=0.0, high=1.0)
        rng, sklearn_seed = _generators(self.random_state)
        outer, reg_val = _stratified_holdout(y, 0.2, rng)           # 4 : 1
        inner, cost_val = _stratified_holdout(y[outer], 0.1, rng)   # 9 : 1 of the former
        fit_idx, cost_val = outer[inner], outer[cost_val]
        X_fit, y_fit = X[fit_idx], y[fit_idx]
        coefs = np.empty((lambdas.size, costs.size, X.shape[1]))
        intercepts = np.empty((lambdas.size, costs.size))
        unconverged = 0
        for i, lam in enumerate(lambdas):
            C = _penalty_to_C(lam, fit_idx.size)
            for j, cost in enumerate(costs):
                svm = LinearSVC(loss="hinge", dual=True, C=C, class_weight={1: 2 * (1 - cost), -1: 2 * cost},
                                max_iter=self.max_iter, random_state=sklearn_seed)
                unconverged += _fit_counting_unconverged(svm, X_fit, y_fit)
                coefs[i, j], intercepts[i, j] = svm.coef_[0], svm.intercept_[0]
        self.n_unconverged_fits_ = unconverged
        _warn_unconverged(unconverged, lambdas.size * costs.size, "W-ERM (LinearSVC)", self.max_iter)

        def decisions(rows):  # theta^T x + b of every (lambda, cost) classifier: (n_lambda, n_cost, n)
            flat = X[rows] @ coefs.reshape(-1, X.shape[1]).T + intercepts.reshape(-1)
            return flat.T.reshape(lambdas.size, costs.size, -1)

        self.grid_ = _ValidatedGrid(lambdas, grid_values=costs, coefs=coefs, intercepts=intercepts,
                                    first_decisions=decisions(cost_val), first_labels=y[cost_val],
                                    second_decisions=decisions(reg_val), second_labels=y[reg_val])
        self.split_ = {"fit": fit_idx, "cost_validation": cost_val, "regularization_validation": reg_val}
        return self._select()

    def decision_function(self, X):
        """theta^T x + b of the chosen cost-sensitive hinge-loss minimiser."""
        return self._linear_decision(X)


class PlugInClassifier(_GridValidatedFit):
    """Baseline 3 (Plug-in, App. C.2): logistic-regression eta_hat, threshold delta from a grid of 20.

    For every lambda, ``LogisticRegression`` is fitted on 90 % of 80 % of the training data (step 1); the
    threshold maximising the metric of sign(eta_hat(x) - delta) on the other 10 % is kept (step 2); the lambda
    whose classifier maximises the metric on the 20 % hold-out wins.

    Parameters
    ----------
    metric : LinearFractionalMetric or a metric name of :func:`lfverify.core.resolve_metric`
    regularization_grid : sequence of float
    threshold_grid : sequence of float in (0, 1)
    max_iter : int
        lbfgs iteration limit.
    random_state : None, int or SeedSequence

    Attributes
    ----------
    coef_, intercept_ : the chosen logistic regression (``eta_hat(x) = expit(coef_ . x + intercept_)``)
    regularization_, threshold_ : float
    threshold_validation_scores_ : ndarray of shape (len(regularization_grid), len(threshold_grid))
    regularization_validation_scores_ : ndarray of shape (len(regularization_grid),)
    split_ : dict of index arrays ``fit``, ``threshold_validation``, ``regularization_validation``
    grid_ : the 3 fitted logistic regressions and their validation decisions (see :meth:`for_metric`)
    n_unconverged_fits_ : int
    """

    _GRID_NAME = "threshold"

    def __init__(self, metric="f1", *, regularization_grid=REGULARIZATION_GRID, threshold_grid=THRESHOLD_GRID,
                 max_iter=1000, random_state=None):
        self.metric = metric
        self.regularization_grid = regularization_grid
        self.threshold_grid = threshold_grid
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X, y = self._validate_training_data(X, y)
        lambdas = _check_grid(self.regularization_grid, "regularization_grid", low=0.0, high=np.inf)
        thresholds = _check_grid(self.threshold_grid, "threshold_grid", low=0.0, high=1.0)
        rng, _ = _generators(self.random_state)
        outer, reg_val = _stratified_holdout(y, 0.2, rng)
        inner, thr_val = _stratified_holdout(y[outer], 0.1, rng)
        fit_idx, thr_val = outer[inner], outer[thr_val]
        coefs = np.empty((lambdas.size, X.shape[1]))
        intercepts = np.empty(lambdas.size)
        unconverged = 0
        for i, lam in enumerate(lambdas):
            model = LogisticRegression(C=_penalty_to_C(lam, fit_idx.size), max_iter=self.max_iter)
            unconverged += _fit_counting_unconverged(model, X[fit_idx], y[fit_idx])
            coefs[i], intercepts[i] = model.coef_[0], model.intercept_[0]
        self.n_unconverged_fits_ = unconverged
        _warn_unconverged(unconverged, lambdas.size, "Plug-in (LogisticRegression)", self.max_iter)

        def decisions(rows):  # eta_hat(x) - delta for every (lambda, threshold): (n_lambda, n_threshold, n)
            eta = expit(coefs @ X[rows].T + intercepts[:, None])
            return eta[:, None, :] - thresholds[None, :, None]

        self.grid_ = _ValidatedGrid(lambdas, grid_values=thresholds, coefs=coefs, intercepts=intercepts,
                                    first_decisions=decisions(thr_val), first_labels=y[thr_val],
                                    second_decisions=decisions(reg_val), second_labels=y[reg_val])
        self.split_ = {"fit": fit_idx, "threshold_validation": thr_val, "regularization_validation": reg_val}
        return self._select()

    def predict_proba(self, X):
        """Columns P(y = -1 | x), P(y = +1 | x) of the chosen logistic regression."""
        eta = expit(self._linear_decision(X))
        return np.column_stack([1.0 - eta, eta])

    def decision_function(self, X):
        """eta_hat(x) - delta: positive exactly where the plug-in rule predicts +1."""
        return expit(self._linear_decision(X)) - self.threshold_


class _MetricScore:
    """A picklable score function y_true, y_pred -> metric value (0/0 counts as 0)."""

    def __init__(self, metric: LinearFractionalMetric):
        self.metric = metric

    def __call__(self, y_true, y_pred):
        return float(self.metric.score(y_true, y_pred, zero_division=0.0))


class _CountScore:
    """scikit-learn's ``fbeta_score`` / ``jaccard_score`` of the positive label 1 at ``zero_division=0``, computed
    from the three counts with scikit-learn's own operations in its order, so the value is the same float.

    Why not scikit-learn's function: ``TunedThresholdClassifierCV`` calls its scorer once per threshold and fold
    (500 calls per fit at its defaults), and the function's input checks cost about 1 ms a call against 2 us here
    (measured on 120 labels); they were about a fifth of ``lfverify verify --quick``'s CPU time.  The labels of
    these peers are always {-1, +1} or {0, 1}.  Oracle: tests/learn/test_baselines.py compares it with
    scikit-learn's functions bit for bit.
    """

    def __init__(self, family: str, beta: float = 1.0):
        self.family = family
        self.beta = beta

    def __call__(self, y_true, y_pred, pos_label=1):
        # pos_label in the signature: scikit-learn's threshold scorer reads its default to label the predictions
        truth, predicted = np.asarray(y_true) == pos_label, np.asarray(y_pred) == pos_label
        tp = np.count_nonzero(truth & predicted)
        true_sum, pred_sum = np.count_nonzero(truth), np.count_nonzero(predicted)
        if self.family == "jaccard":
            numerator, denominator = float(tp), float(true_sum + pred_sum - tp)
        else:
            beta2 = self.beta**2
            numerator, denominator = (1 + beta2) * float(tp), beta2 * float(true_sum) + float(pred_sum)
        return 0.0 if denominator == 0 else numerator / denominator


def _scorer_for(metric: LinearFractionalMetric):
    """The tuned peers' scorer: scikit-learn's F-beta / Jaccard value (:class:`_CountScore`) where the metric is one
    of those, else the metric's ``score``."""
    if metric.family in ("f_beta", "jaccard"):
        return make_scorer(_CountScore(metric.family, metric.parameter if metric.family == "f_beta" else 1.0))
    return make_scorer(_MetricScore(metric))


class TunedThresholdBaseline(_LinearBaseline):
    """Modern plug-in peer: ``TunedThresholdClassifierCV(LogisticRegression(C), scoring=<metric>)``.

    The decision threshold on P(y = +1 | x) is tuned by stratified ``cv``-fold cross-validation over
    ``thresholds`` candidates (scikit-learn's defaults: 5 folds, 100 thresholds), scoring with the value of
    scikit-learn's ``f1_score`` / ``fbeta_score`` / ``jaccard_score`` where the metric is one of those (the same
    floats, computed without their input checks: ``_CountScore``), then the model is refit
    on all the training data.  ``cv`` is lowered to the minority-class count (at least 2) on tiny samples.

    Attributes
    ----------
    coef_, intercept_ : the refit logistic regression
    threshold_ : float, the tuned threshold on P(y = +1 | x)
    tuned_ : the fitted ``TunedThresholdClassifierCV``
    """

    def __init__(self, metric="f1", *, C=1.0, cv=5, thresholds=100, max_iter=1000, random_state=None):
        self.metric = metric
        self.C = C
        self.cv = cv
        self.thresholds = thresholds
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X, y = self._validate_training_data(X, y)
        _, sklearn_seed = _generators(self.random_state)
        minority = int(min(np.count_nonzero(y == 1), np.count_nonzero(y == -1)))
        folds = StratifiedKFold(n_splits=max(2, min(int(self.cv), minority)), shuffle=True, random_state=sklearn_seed)
        tuned = TunedThresholdClassifierCV(
            LogisticRegression(C=self.C, max_iter=self.max_iter), scoring=_scorer_for(self.metric_),
            response_method="predict_proba", thresholds=self.thresholds, cv=folds, random_state=sklearn_seed)
        tuned.fit(X, y)
        self.tuned_ = tuned
        self.coef_, self.intercept_ = tuned.estimator_.coef_[0].copy(), float(tuned.estimator_.intercept_[0])
        self.threshold_ = float(tuned.best_threshold_)
        return self

    def decision_function(self, X):
        """``P(y = +1 | x) - threshold_`` (positive where +1 is predicted; sgn(0) = -1, where scikit-learn's
        own ``predict`` uses >=: the two differ only on exact ties)."""
        return expit(self._linear_decision(X)) - self.threshold_


class LogisticRegressionBaseline(_LinearBaseline):
    """``LogisticRegression()`` with scikit-learn's defaults (C = 1, lbfgs, 100 iterations), predicting +1 where
    its decision function is > 0 (P(y = +1 | x) > 1/2; sgn(0) = -1).  ``metric`` is used by :meth:`score` only.

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
    intercept_ : float
    n_unconverged_fits_ : int, 0 or 1
    """

    def __init__(self, metric="f1", *, C=1.0, max_iter=100, random_state=None):
        self.metric = metric
        self.C = C
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        X, y = self._validate_training_data(X, y)
        model = LogisticRegression(C=self.C, max_iter=self.max_iter)
        self.n_unconverged_fits_ = _fit_counting_unconverged(model, X, y)
        _warn_unconverged(self.n_unconverged_fits_, 1, "LogisticRegression", self.max_iter)
        self.coef_, self.intercept_ = model.coef_[0].copy(), float(model.intercept_[0])
        return self

    def decision_function(self, X):
        """theta^T x + b, the log-odds of the fitted logistic regression."""
        return self._linear_decision(X)


def _tree_ensemble(name: str, seed: int):
    """The nonlinear peers' base learners (scikit-learn's defaults; the forest with leaves of >= 5 samples)."""
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

    if name == "hist-gradient-boosting":
        return HistGradientBoostingClassifier(random_state=seed)
    return RandomForestClassifier(n_estimators=100, min_samples_leaf=5, random_state=seed, n_jobs=1)


def make_nonlinear_peer(name, metric, *, seed=None):
    """An unfitted tree ensemble as a user would fit it for ``metric`` (the compare experiment's nonlinear peers).

    Parameters
    ----------
    name : one of :data:`NONLINEAR_PEERS`
        ``"hist-gradient-boosting"`` (``HistGradientBoostingClassifier()``) or ``"random-forest"``
        (``RandomForestClassifier(n_estimators=100, min_samples_leaf=5)``), alone, ``+tuned`` (inside
        ``TunedThresholdClassifierCV`` scoring the metric: 5 folds, 100 thresholds) or ``+remedy`` (inside
        :class:`~lfverify.learn.MetricOptimalClassifier`).
    metric : LinearFractionalMetric or a metric name of :func:`lfverify.core.resolve_metric`
    seed : None, int or SeedSequence, keyword-only
        ``random_state`` of the ensemble and of the wrapper's folds.

    Returns
    -------
    a scikit-learn classifier (labels as given to its ``fit``; +1 the positive class).
    """
    from lfverify.learn._metric_optimal import MetricOptimalClassifier

    if not isinstance(name, str) or name not in NONLINEAR_PEERS:
        raise ValueError(f"name must be one of the nonlinear peers {NONLINEAR_PEERS}; got {name!r}")
    metric = resolve_metric(metric)
    seed = int_seed(as_seed_sequence(check_seed(seed, "seed"), "seed"))
    base, _, wrapper = name.partition("+")
    learner = _tree_ensemble(base, seed)
    if wrapper == "tuned":
        return TunedThresholdClassifierCV(learner, scoring=_scorer_for(metric), random_state=seed)
    if wrapper == "remedy":
        return MetricOptimalClassifier(learner, metric, random_state=seed)
    return learner


_CLASSES = {"erm": HingeERMClassifier, "w-erm": WeightedERMClassifier, "plug-in": PlugInClassifier,
            "tuned-threshold": TunedThresholdBaseline, "logistic-regression": LogisticRegressionBaseline}


def make_baseline(name, metric, *, seed=None):
    """An unfitted baseline of App. C.2 (or the tuned-threshold peer) for ``metric``.

    Parameters
    ----------
    name : {"erm", "w-erm", "plug-in", "tuned-threshold", "logistic-regression"}
    metric : LinearFractionalMetric or a metric name of :func:`lfverify.core.resolve_metric`
        The metric its validation maximises (ERM ignores it except in ``score``).
    seed : None, int or SeedSequence, keyword-only
        ``random_state`` of the classifier (its validation splits and scikit-learn's seeds).

    Returns
    -------
    a scikit-learn classifier with ``fit``, ``predict``, ``decision_function`` and ``score`` (in the metric).
    """
    if not isinstance(name, str) or name not in _CLASSES:
        raise ValueError(f"name must be one of the baselines {BASELINES}; got {name!r}")
    resolve_metric(metric)
    check_seed(seed, "seed")
    return _CLASSES[name](metric, random_state=seed)
