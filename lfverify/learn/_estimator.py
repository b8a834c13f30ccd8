"""A scikit-learn estimator for linear-fractional metrics: the paper's method and the remedies its findings suggest.

:class:`LinearFractionalClassifier` fits a linear model f(x) = theta^T x (plus an intercept) for a linear-fractional
metric (F_beta, Jaccard, ...) and predicts sgn(f(x)) with sgn(0) = -1 (Sec. 2).  Two objectives:

* ``objective="surrogate-utility"`` - **the paper's method**: Algorithm 1 (:func:`lfverify.learn.
  maximize_surrogate_utility`, U-BFGS or U-GD) on the empirical surrogate utility U_hat of Eq. (6) with the
  tau-discrepant logistic loss of Sec. 6 (Fig. 2); tau = 0.33 for F_1 and 0.75 for Jaccard.  With
  ``threshold="zero", init="erm"`` it is exactly the paper's configuration (Sec. 6, App. C), which ``lfverify
  bench`` runs as U-GD / U-BFGS.
* ``objective="cost-sensitive"`` (default) - **an extension**: the surrogate risk weighted so that its boundary
  is the Bayes threshold of the metric's current value, iterated (:mod:`lfverify.learn`).  Alg. 1's
  maximiser fits the direction for the level set of eta at u = U_phi* (Dinkelbach's separation), and U_phi* is
  only Lemma 1's lower bound of the metric, so the direction is fitted for the wrong level set.

and two thresholds:

* ``threshold="zero"``: predict sgn(theta^T x) (the paper);
* ``threshold="refit"`` (default) - **an extension**: after the fit, the offset that maximises the empirical metric,
  found exactly (:func:`lfverify.learn.best_threshold`, one sort) on the training sample, or - with
  ``threshold_cv=K`` - the fraction of positives chosen on K held-out folds and applied to the training scores
  (:func:`lfverify.learn.positive_rate_from_folds`; K more fits, worth it where the training scores are
  optimistic: the default ``threshold_cv="auto"`` takes 5 folds when n_samples < 10 n_features, e.g. madelon's
  d = 500 with n = 2,080).  ERRATA.md explains why the paper's threshold 0 is not the Bayes one (Thms. 1, 2, 7
  fail at the kink).

The defaults (cost-sensitive, refit, zeros start) are what docs/estimators.md ("Which estimator?") measured against
scikit-learn's ``TunedThresholdClassifierCV(LogisticRegression())``; the paper's ERM start (``init="erm"``, a linear
SVM at C = 100) stays available, but costs seconds on adult and does not change Alg. 1's end point.

It follows scikit-learn's conventions (``fit`` / ``predict`` / ``decision_function`` / ``score``,
``get_params`` / ``set_params``, ``clone``; parameters are validated in ``fit``), accepts ``scipy.sparse`` input
(CSR, as scikit-learn's linear models), and works in ``GridSearchCV``, ``cross_val_score``,
``TunedThresholdClassifierCV`` and ``FixedThresholdClassifier`` (through ``decision_function``); ``score`` is the
chosen metric, not accuracy.

Metric names
------------
``"f1"``, ``"f<beta>"`` for F_beta (``"f2"``, ``"f0.5"``, also ``"f_2"``), ``"jaccard"``, ``"accuracy"``, or a
:class:`~lfverify.core.LinearFractionalMetric` (then ``tau`` is required for the surrogate utility unless it
is an F_beta, Jaccard or accuracy metric).  Default tau for the surrogate utility (:func:`default_tau`): 0.33 for
F_1 and 0.99 beta^2 / (2 + beta^2) for F_beta in general (slightly below the bound beta^2 / (2 + beta^2) stated
after Thm. 1, as the paper's 0.33 is for F_1), 0.75 for Jaccard (Sec. 6), and 1 (the plain logistic loss) for
accuracy, whose Prop. 8 needs phi differentiable at 0; for the cost-sensitive objective tau = 1 (a boundary at the
Bayes threshold needs phi differentiable at 0).
"""

from __future__ import annotations

import numbers
import re
import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from lfverify.core._empirical import EmpiricalSurrogateUtility
from lfverify.core._losses import tau_logistic
from lfverify.core._metrics import LinearFractionalMetric, accuracy, f_beta, jaccard
from lfverify.core._seeding import as_seed_sequence, child, int_seed
from lfverify.core._validation import check_real
from lfverify.learn._cost_sensitive import (
    LEVEL_TOL,
    MAX_LEVEL_ITER,
    _fit_at_weights,
    _fit_cost_sensitive,
)
from lfverify.learn._optimize import METHODS, maximize_surrogate_utility
from lfverify.learn._thresholds import (
    _best_threshold,
    _positive_rate_from_folds,
    threshold_for_positive_rate,
)

__all__ = ["LinearFractionalClassifier", "resolve_metric", "default_tau", "ERM_REGULARIZATION",
           "hinge_erm_svm", "erm_initial_parameters", "OBJECTIVES", "THRESHOLDS"]

#: The l2-regularization parameter lambda of the ERM baseline / initializer (App. C.2, "Baseline 1 (ERM)":
#: "the hinge loss and l2-regularization are employed with the regularization parameter 10^-2").  It is read as
#: the lambda of  (lambda / 2) ||w||^2 + sum_i hinge_i  (liblinear's own form, LinearSVC's C = 1 / lambda = 100):
#: of four readings this one reproduces the paper's ERM column (10 trials on 15 data sets: sum of z^2 55 against
#: the printed F1 means; the mean-loss reading C = 1 / (n lambda) gives 1,764 and F1 = 0 on phoneme, whose printed
#: ERM F1 is 0.530; benchmarks/results/erm_regularization.md).  The measurement and its command are in FINDINGS.md.
ERM_REGULARIZATION = 1e-2


def hinge_erm_svm(*, regularization: float = ERM_REGULARIZATION, fit_intercept: bool = True,
                  max_iter: int = 10_000, random_state=0) -> LinearSVC:
    """The unfitted linear SVM of App. C.2's Baseline 1 and Sec. 6's initializer: hinge loss + l2, C = 1 / lambda.

    Parameters
    ----------
    regularization : float > 0, keyword-only
        lambda of  (lambda / 2) ||w||^2 + sum_i max(0, 1 - y_i f(x_i))  (see :data:`ERM_REGULARIZATION`).
    fit_intercept : bool, keyword-only
    max_iter : int, keyword-only
        liblinear's iteration limit.
    random_state : int or None, keyword-only
        liblinear's coordinate-order seed.
    """
    regularization = check_real(regularization, "regularization", low=0.0, low_inclusive=False)
    # sum form: (lambda / 2) ||w||^2 + sum_i hinge_i  =  lambda * (0.5 ||w||^2 + (1 / lambda) sum_i hinge_i)
    return LinearSVC(loss="hinge", dual=True, C=1.0 / regularization, fit_intercept=fit_intercept,
                     max_iter=max_iter, random_state=random_state)

_INITS = ("erm", "zeros", "random")
_SPLITS = ("random", "first-half")
#: ``objective``: Alg. 1 on U_hat (the paper) or the cost-sensitive surrogate risk at the Bayes level (extension).
OBJECTIVES = ("cost-sensitive", "surrogate-utility")
#: ``threshold``: sgn(theta^T x) (the paper) or the exact metric-maximising offset (extension).
THRESHOLDS = ("refit", "zero")
#: threshold_cv="auto": this many folds when n_samples < _AUTO_SAMPLES_PER_FEATURE * n_features.
_AUTO_THRESHOLD_FOLDS = 5
_AUTO_SAMPLES_PER_FEATURE = 10
#: Default gradient tolerance of each objective's optimizer (``gtol=None``).
_DEFAULT_GTOL = {"surrogate-utility": 1e-8, "cost-sensitive": 1e-4}
_F_BETA_NAME = re.compile(r"^f_?(\d+(?:\.\d*)?|\.\d+)$")


def resolve_metric(metric) -> LinearFractionalMetric:
    """The :class:`~lfverify.core.LinearFractionalMetric` named by ``metric`` (see the module docstring for the names).

    Raises
    ------
    ValueError
        For an unknown name.
    TypeError
        For anything that is neither a str nor a LinearFractionalMetric.
    """
    if isinstance(metric, LinearFractionalMetric):
        return metric
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name (str) or a LinearFractionalMetric; got {metric!r}")
    name = metric.strip().lower()
    if name == "jaccard":
        return jaccard()
    if name == "accuracy":
        return accuracy()
    match = _F_BETA_NAME.match(name)
    if match and float(match.group(1)) > 0:
        return f_beta(float(match.group(1)))
    raise ValueError(f"metric must be 'f1', 'f<beta>' (e.g. 'f2', 'f0.5'), 'jaccard', 'accuracy' or a "
                     f"LinearFractionalMetric; got {metric!r}")


def default_tau(metric) -> float:
    """The default discrepancy tau of the loss for a metric (module docstring; Sec. 6 for F_1 and Jaccard).

    Raises
    ------
    ValueError
        For a metric outside the F_beta, Jaccard and accuracy families (pass tau explicitly).
    """
    metric = resolve_metric(metric)
    if metric.family == "f_beta":
        if metric.parameter == 1.0:
            return 0.33  # Sec. 6: "tau was set to 0.33 in the F1-measure case"
        b2 = metric.parameter ** 2
        return round(0.99 * b2 / (2.0 + b2), 6)
    if metric.family == "jaccard":
        return 0.75  # Sec. 6: "0.75 in the Jaccard index case"
    if metric.family == "accuracy":
        return 1.0
    raise ValueError(f"tau: no default for the metric {metric.name!r} (family {metric.family!r}); pass tau "
                     "explicitly (Thm. 7 gives the admissible range)")


def erm_initial_parameters(X, y, *, fit_intercept: bool = True, regularization: float = ERM_REGULARIZATION):
    """The ERM minimizer trained by SVM (Sec. 6's initializer): hinge loss + l2 (:func:`hinge_erm_svm`, C = 1/lambda).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,) in {-1, +1}
    fit_intercept : bool, keyword-only
        Append the SVM's intercept as the last coordinate (the estimator's intercept column).
    regularization : float > 0, keyword-only
        lambda of  (lambda / 2) ||w||^2 + sum_i max(0, 1 - y_i f(x_i)).

    Returns
    -------
    ndarray of shape (d,) or (d + 1,)
    """
    svm = hinge_erm_svm(regularization=regularization, fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        # liblinear's dual solver may stop at max_iter on hard data; any SVM solution is a valid start.
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(X, y)
    theta = svm.coef_[0]
    return np.append(theta, svm.intercept_[0]) if fit_intercept else theta.copy()


def _minority_count(y_signed) -> int:
    """The number of samples of the smaller class of +-1 labels."""
    return int(min(np.count_nonzero(y_signed == 1), np.count_nonzero(y_signed == -1)))


class LinearFractionalClassifier(ClassifierMixin, BaseEstimator):
    """Linear classifier for a linear-fractional metric: the paper's Alg. 1 or the remedies (module docstring).

    Parameters
    ----------
    metric : str or LinearFractionalMetric, default "f1"
        The metric to maximise and that :meth:`score` reports (names in the module docstring).
    objective : {"cost-sensitive", "surrogate-utility"}, default "cost-sensitive"
        "surrogate-utility": Alg. 1 on U_hat of Eq. (6) (the paper).  "cost-sensitive": the surrogate risk
        weighted at the Bayes threshold of the metric, iterated (:func:`~lfverify.learn.fit_cost_sensitive`;
        an extension).
    threshold : {"refit", "zero"}, default "refit"
        "zero": predict sgn(theta^T x) (Sec. 2).  "refit": shift the intercept by the threshold that maximises the
        metric (an extension; see ``threshold_cv``).
    threshold_cv : "auto", int >= 2 or None, default "auto"
        With ``threshold="refit"``: ``None`` chooses the threshold exactly on the training sample; K chooses the
        fraction of positives on K stratified held-out folds (K more fits of the same objective) and applies it
        to the training scores (K is lowered to the smaller class count where that is below K).  ``"auto"``: 5
        folds when n_samples < 10 n_features, where the training scores' optimism (of order d / n) moves the
        threshold (madelon, d = 500, n = 2,080: test F_1 0.611 on the training sample, 0.663 with 5 folds), else
        the training sample (one fit; adult: no difference).  Ignored with ``threshold="zero"``.
    tau : float in (0, 1] or None, default None
        Discrepancy of the tau-logistic loss phi (Sec. 6, Fig. 2); ``None`` = :func:`default_tau` (0.33 for
        F_1, 0.75 for Jaccard) for the surrogate utility and 1 for the cost-sensitive objective.
    C : float > 0, default 1.0
        Cost-sensitive objective only: inverse l2-penalty strength, as ``LogisticRegression(C)``.
    method : {"bfgs", "gd"}, default "bfgs"
        Surrogate utility only: phase 2 of Alg. 1, U-BFGS or U-GD (Alg. 2, normalized gradient ascent).
    learning_rate : float > 0, default 0.1
        Surrogate utility only: gamma of Alg. 2 / first step of phase 1 and of BFGS (the paper picks it from
        {10, 0.1, 1e-3, 1e-5}).
    max_iter : int >= 0, default 100
        Alg. 1's phase-2 iterations (App. C.4's tables: 100; Sec. 6: 300), or the L-BFGS-B iterations of each
        cost-sensitive fit (>= 1).
    max_phase1_iter : int >= 0, default 1000
        Surrogate utility only: numerator-ascent steps allowed in Alg. 1's first loop.
    gtol : float >= 0 or None, default None
        Gradient tolerance: Alg. 1 stops when ||grad U_hat|| <= gtol (None: 1e-8); each cost-sensitive fit stops
        when L-BFGS-B's projected gradient is <= gtol (None: 1e-4, ``LogisticRegression``'s tol).
    init : {"zeros", "erm", "random"} or array-like, default "zeros"
        Initial parameters: zeros, the linear SVM (hinge + l2, :func:`erm_initial_parameters`, as Sec. 6; seconds
        on adult), N(0, I) drawn from ``random_state`` (Sec. 6's convergence study), or an explicit vector of
        length n_features (+ 1 with ``fit_intercept``, the intercept last).  For the cost-sensitive objective it
        starts the first fit.
    fit_intercept : bool, default True
        Append a constant-1 feature, so f(x) = w^T x + b.
    pos_label : label or None, default None
        The class treated as positive (+1) by the metric; ``None`` = the larger of the two labels
        (``classes_[1]``, scikit-learn's convention).
    split : {"random", "first-half"}, default "random"
        Surrogate utility only: how the training sample is divided into S_0 (numerator) and S_1 (denominator) of
        Eq. (6): a random half drawn from ``random_state``, or the paper's first floor(n/2) rows (right when the
        rows are already in random order).
    random_state : None, int >= 0, SeedSequence or Generator, default None
        Seeds the random split, the "random" init and the folds of ``threshold_cv`` (a SeedSequence is used;
        same seed, same fit).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
        The final intercept: the fitted one minus ``threshold_``.
    threshold_ : float
        The threshold on the fitted theta^T x + b (0 for ``threshold="zero"``).
    threshold_cv_ : int or None
        The folds the threshold was chosen on (``threshold_cv`` with "auto" resolved), None for the training sample.
    positive_rate_ : float or None
        The fraction of positives chosen on held-out folds (``threshold_cv``), else None.
    n_features_in_ : int
    metric_ : LinearFractionalMetric
    tau_ : float
    optimization_result_ : lfverify.learn.OptimizationResult or lfverify.learn.CostSensitiveFit
        Everything the objective's optimizer returned.
    n_iter_ : int
        Alg. 1's phase-2 iterations, or the L-BFGS-B iterations summed over the cost-sensitive fits.
    converged_ : bool

    Notes
    -----
    ``decision_function`` follows scikit-learn's convention that positive values mean ``classes_[1]``: it is
    f(x) when ``pos_label`` is ``classes_[1]`` and -f(x) otherwise.  ``predict`` applies sgn(f(x)) with
    sgn(0) = -1 to the positive class ``pos_label`` (Sec. 2).  Only binary problems are supported.
    A ``ConvergenceWarning`` is issued when Alg. 1's first phase cannot make the numerator positive, or when a
    cost-sensitive fit stops at ``max_iter``.
    """

    def __init__(self, metric="f1", objective="cost-sensitive", threshold="refit", threshold_cv="auto", tau=None,
                 C=1.0, method="bfgs", learning_rate=0.1, max_iter=100, max_phase1_iter=1000, gtol=None,
                 init="zeros", fit_intercept=True, pos_label=None, split="random", random_state=None):
        self.metric = metric
        self.objective = objective
        self.threshold = threshold
        self.threshold_cv = threshold_cv
        self.tau = tau
        self.C = C
        self.method = method
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_phase1_iter = max_phase1_iter
        self.gtol = gtol
        self.init = init
        self.fit_intercept = fit_intercept
        self.pos_label = pos_label
        self.split = split
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ fitting
    def _validated_options(self):
        metric = resolve_metric(self.metric)
        if not isinstance(self.objective, str) or self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}; got {self.objective!r}")
        if not isinstance(self.threshold, str) or self.threshold not in THRESHOLDS:
            raise ValueError(f"threshold must be one of {THRESHOLDS}; got {self.threshold!r}")
        if self.threshold_cv is not None and not (isinstance(self.threshold_cv, str) and self.threshold_cv == "auto"):
            if (isinstance(self.threshold_cv, bool) or not isinstance(self.threshold_cv, numbers.Integral)
                    or self.threshold_cv < 2):
                raise ValueError(f"threshold_cv must be 'auto', None or an int >= 2; got {self.threshold_cv!r}")
            if self.threshold != "refit":
                raise ValueError(f"threshold_cv needs threshold='refit'; got threshold={self.threshold!r}")
        if self.tau is not None:
            tau = check_real(self.tau, "tau", low=0.0, high=1.0, low_inclusive=False)
        else:
            tau = 1.0 if self.objective == "cost-sensitive" else default_tau(metric)
        check_real(self.C, "C", low=0.0, low_inclusive=False)
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}; got {self.method!r}")
        if not isinstance(self.split, str) or self.split not in _SPLITS:
            raise ValueError(f"split must be one of {_SPLITS}; got {self.split!r}")
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise TypeError(f"fit_intercept must be a bool; got {self.fit_intercept!r}")
        if isinstance(self.init, str) and self.init not in _INITS:
            raise ValueError(f"init must be one of {_INITS} or an array of initial parameters; got {self.init!r}")
        if self.objective == "cost-sensitive" and (isinstance(self.max_iter, bool) or
                                                   not isinstance(self.max_iter, numbers.Integral)
                                                   or self.max_iter < 1):
            raise ValueError(f"max_iter must be an int >= 1 for the cost-sensitive objective; got {self.max_iter!r}")
        gtol = _DEFAULT_GTOL[self.objective] if self.gtol is None else check_real(self.gtol, "gtol", low=0.0)
        return metric, tau, gtol

    def _initial_theta(self, X, y_signed, seq):
        n_params = X.shape[1] + int(bool(self.fit_intercept))
        if isinstance(self.init, str):
            if self.init == "erm":
                return erm_initial_parameters(X, y_signed, fit_intercept=bool(self.fit_intercept))
            if self.init == "zeros":
                return np.zeros(n_params)
            return np.random.default_rng(child(seq, 1)).standard_normal(n_params)
        theta = np.asarray(self.init, dtype=np.float64)
        if theta.shape != (n_params,):
            raise ValueError(f"init must have shape ({n_params},) (n_features{' + 1 for the intercept' if self.fit_intercept else ''}); "
                             f"got shape {theta.shape}")
        return theta.copy()

    def _design(self, X):
        """X with the intercept's column of ones appended (kept sparse for sparse X)."""
        if not self.fit_intercept:
            return X
        ones = np.ones((X.shape[0], 1))
        return sparse.hstack([X, ones], format="csr") if sparse.issparse(X) else np.hstack([X, ones])

    def _fit_direction(self, Z, y_signed, theta0, metric, tau, gtol, seq):
        """theta of the chosen objective on (Z, y) from theta0: (theta, result, iterations, converged)."""
        if self.objective == "cost-sensitive":
            # X was validated by validate_data and y mapped to {-1, +1}: the unchecked path (X checked once per fit)
            result = _fit_cost_sensitive(metric, tau_logistic(tau), Z, y_signed, C=float(self.C),
                                         fit_intercept_column=bool(self.fit_intercept),
                                         max_level_iter=MAX_LEVEL_ITER, tol=LEVEL_TOL,
                                         max_iter=int(self.max_iter), gtol=gtol,
                                         theta=np.array(theta0, dtype=np.float64))
            return result.theta, result, int(sum(result.inner_iterations)), bool(result.converged)
        objective = EmpiricalSurrogateUtility._unchecked(metric, tau_logistic(tau), Z, y_signed, split=self.split,
                                                         seed=child(seq, 0))
        result = maximize_surrogate_utility(objective, theta0, method=self.method,
                                            learning_rate=self.learning_rate, max_iter=self.max_iter,
                                            max_phase1_iter=self.max_phase1_iter, gtol=gtol, history=True)
        if not np.isfinite(result.surrogate_utility):
            warnings.warn(f"LinearFractionalClassifier: {result.message}; the parameters are those reached by "
                          "Alg. 1's first phase", ConvergenceWarning, stacklevel=3)
        return np.asarray(result.theta, dtype=np.float64), result, int(result.iterations), bool(result.converged)

    def _resolved_threshold_cv(self, n_samples: int, n_features: int, minority: int):
        """threshold_cv with "auto" resolved (5 folds when n < 10 d and each class has >= 2 samples, else None);
        None for threshold="zero"."""
        if self.threshold != "refit":
            return None
        if isinstance(self.threshold_cv, str):  # "auto": the training scores are optimistic when d / n is large
            folds = n_samples < _AUTO_SAMPLES_PER_FEATURE * n_features and minority >= 2
            return _AUTO_THRESHOLD_FOLDS if folds else None
        return None if self.threshold_cv is None else int(self.threshold_cv)

    def _cross_fitted_rate(self, X, Z, y_signed, theta0, theta, metric, tau, gtol, seq, n_folds):
        """The fraction of positives chosen on ``threshold_cv`` stratified held-out folds.

        Each fold is fitted as the whole sample was: Alg. 1 from the same start (an ERM start is refitted on the
        fold), or one cost-sensitive fit at the final weights starting from the final theta.
        """
        minority = _minority_count(y_signed)
        if minority < 2:
            raise ValueError(f"threshold_cv needs at least 2 samples of each class (one per held-out fold); the "
                             f"smaller class has {minority}")
        folds = StratifiedKFold(n_splits=max(2, min(n_folds, minority)), shuffle=True,
                                random_state=int_seed(child(seq, 2)))
        scores, labels = [], []
        for k, (rows, held) in enumerate(folds.split(np.zeros((y_signed.shape[0], 1)), y_signed)):
            if self.objective == "cost-sensitive":
                fold_theta = _fit_at_weights(tau_logistic(tau), Z[rows], y_signed[rows],
                                             self.optimization_result_.weights, float(self.C),
                                             bool(self.fit_intercept), int(self.max_iter), gtol, theta.copy())[0]
            else:
                start = (erm_initial_parameters(X[rows], y_signed[rows], fit_intercept=bool(self.fit_intercept))
                         if isinstance(self.init, str) and self.init == "erm" else theta0)
                fold_theta = self._fit_direction(Z[rows], y_signed[rows], start, metric, tau, gtol,
                                                 child(seq, 3 + k))[0]
            scores.append(np.asarray(Z[held] @ fold_theta, dtype=np.float64).ravel())
            labels.append(y_signed[held])
        return _positive_rate_from_folds(scores, labels, metric)

    def fit(self, X, y):
        """Fit theta by the chosen objective, then the threshold.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features), finite
        y : array-like of shape (n_samples,) with exactly two distinct labels

        Returns
        -------
        self

        Raises
        ------
        ValueError
            Unknown metric, objective, threshold or method, tau outside (0, 1], y with other than two classes,
            empty or non-finite X.
        """
        metric, tau, gtol = self._validated_options()
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse="csr")
        check_classification_targets(y)
        classes = np.unique(y)
        if classes.size != 2:
            # The wording "Only binary classification is supported." is what scikit-learn's estimator checks
            # expect from a binary-only classifier.
            raise ValueError(f"Only binary classification is supported. y must contain exactly two classes; got "
                             f"{classes.size} class(es): {classes.tolist()[:10]}")
        pos_label = classes[1] if self.pos_label is None else self.pos_label
        if pos_label not in classes:
            raise ValueError(f"pos_label must be one of the classes {classes.tolist()}; got {self.pos_label!r}")
        if X.shape[0] < 2:
            raise ValueError(f"X must have at least 2 samples (one for each half S_0, S_1); got {X.shape[0]}")
        y_signed = np.where(y == pos_label, 1, -1).astype(np.int8)
        seq = as_seed_sequence(self.random_state, "random_state")
        Z = self._design(X)
        theta0 = self._initial_theta(X, y_signed, seq)
        theta, result, iterations, converged = self._fit_direction(Z, y_signed, theta0, metric, tau, gtol, seq)
        self.optimization_result_ = result
        shift, rate = 0.0, None
        minority = _minority_count(y_signed)
        n_folds = self._resolved_threshold_cv(X.shape[0], X.shape[1], minority)
        if self.threshold == "refit":
            scores = np.asarray(Z @ theta).ravel()
            if n_folds is None:
                shift = _best_threshold(scores, y_signed, metric, 0.0).threshold
            else:
                rate = self._cross_fitted_rate(X, Z, y_signed, theta0, theta, metric, tau, gtol, seq, n_folds)
                shift = threshold_for_positive_rate(scores, rate)
        self.classes_ = classes
        self.pos_label_ = pos_label
        self.metric_ = metric
        self.tau_ = tau
        self.threshold_ = float(shift)
        self.threshold_cv_ = n_folds
        self.positive_rate_ = rate
        self.coef_ = theta[:X.shape[1]].reshape(1, -1).copy()
        self.intercept_ = np.array([(theta[-1] if self.fit_intercept else 0.0) - float(shift)])
        self.n_iter_ = iterations
        self.converged_ = converged
        return self

    # ------------------------------------------------------------------ prediction
    def _scores(self, X) -> np.ndarray:
        """f(x) = w^T x + b, the score of the positive class pos_label_."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, accept_sparse="csr")
        return np.asarray(X @ self.coef_[0]).ravel() + self.intercept_[0]

    def decision_function(self, X):
        """Confidence scores, positive for ``classes_[1]`` (scikit-learn's convention; see Notes)."""
        f = self._scores(X)
        return f if self.pos_label_ == self.classes_[1] else -f

    def predict(self, X):
        """``pos_label_`` where f(x) > 0, the other class where f(x) <= 0 (sgn(0) = -1, Sec. 2)."""
        f = self._scores(X)
        negative = self.classes_[0] if self.pos_label_ == self.classes_[1] else self.classes_[1]
        return np.where(f > 0, self.pos_label_, negative)

    def score(self, X, y, sample_weight=None):
        """The chosen metric (not accuracy) of ``predict(X)`` against ``y`` (Eq. (1) on the empirical confusion).

        With ``sample_weight`` the confusion-matrix fractions TP, FP and the prior are weighted averages.
        0/0 (no positive label and no positive prediction, for F_beta / Jaccard) gives 0.0 with an
        UndefinedMetricWarning, as scikit-learn's f1_score does.
        """
        y = np.asarray(y)
        if y.ndim != 1:
            raise ValueError(f"y must be a 1-D array of labels; got shape {y.shape}")
        predicted = self.predict(X)
        if predicted.shape[0] != y.shape[0]:
            raise ValueError(f"y must have one label per row of X ({predicted.shape[0]}); got {y.shape[0]}")
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise ValueError(f"y holds labels {np.unique(y[unknown]).tolist()[:5]} that are not among the fitted "
                             f"classes {self.classes_.tolist()}")
        positive = y == self.pos_label_
        predicted_positive = predicted == self.pos_label_
        if sample_weight is None:  # exact integer counts (LinearFractionalMetric.value_from_counts)
            return float(self.metric_.value_from_counts(np.count_nonzero(positive & predicted_positive),
                                                        np.count_nonzero(~positive & predicted_positive),
                                                        np.count_nonzero(positive), y.shape[0]))
        weights = np.asarray(sample_weight, dtype=np.float64)
        if weights.shape != y.shape or not np.isfinite(weights).all() or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError("sample_weight must hold one finite non-negative weight per sample with a positive "
                             f"sum; got {sample_weight!r}")
        weights = weights / weights.sum()
        tp = float(weights @ (positive & predicted_positive))
        fp = float(weights @ (~positive & predicted_positive))
        return float(self.metric_.value(tp, fp, float(weights @ positive)))
