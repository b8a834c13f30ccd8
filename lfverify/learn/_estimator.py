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
  ``threshold_cv=K`` - on the pooled held-out scores of K fold models (K more fits, worth it where the training
  scores are optimistic: the default ``threshold_cv="auto"`` takes 5 folds when the smaller class has fewer than
  20 samples per feature, e.g. madelon's d = 500 with n = 2,080, and every p > n problem).  ERRATA.md explains
  why the paper's threshold 0 is not the Bayes one (Thms. 1, 2, 7 fail at the kink).

The defaults (cost-sensitive, refit, zeros start) are what docs/estimators.md ("Which estimator?") measured against
scikit-learn's ``TunedThresholdClassifierCV(LogisticRegression())`` on the paper's data, and what
``benchmarks/estimator_regimes.py`` measures across regimes (n / d, prior, label noise, feature kinds, n to 10^6); the
paper's ERM start (``init="erm"``, a linear
SVM at C = 100) stays available, but costs seconds on adult and does not change Alg. 1's end point.

It follows scikit-learn's conventions (``fit`` / ``predict`` / ``decision_function`` / ``score``,
``get_params`` / ``set_params``, ``clone``; parameters are validated in ``fit``; ``fit(X, y, sample_weight)`` and
``class_weight`` as scikit-learn defines them, with metadata routing's ``set_fit_request``), accepts ``scipy.sparse``
input (CSR, as scikit-learn's linear models), and works in ``GridSearchCV``, ``cross_val_score``,
``TunedThresholdClassifierCV`` and ``FixedThresholdClassifier`` (through ``decision_function``); ``score`` is the
chosen metric, not accuracy.

Metric names
------------
``"f1"``, ``"f<beta>"`` for F_beta (``"f2"``, ``"f0.5"``, also ``"f_2"``), ``"jaccard"``, ``"accuracy"``, or a
:class:`~lfverify.core.LinearFractionalMetric` (then ``tau`` is required for the surrogate utility unless it
is an F_beta, Jaccard or accuracy metric).  Default tau for the surrogate utility
(:func:`~lfverify.core.default_tau`): 0.33 for F_1 and 0.99 beta^2 / (2 + beta^2) for F_beta in general (slightly
below the bound beta^2 / (2 + beta^2) stated after Thm. 1, as the paper's 0.33 is for F_1), 0.75 for Jaccard (Sec.
6), and 1 (the plain logistic loss) for accuracy, whose Prop. 8 needs phi differentiable at 0; for the
cost-sensitive objective tau = 1 (a boundary at the Bayes threshold needs phi differentiable at 0).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from lfverify.core import (
    EmpiricalSurrogateUtility,
    as_seed_sequence,
    check_real,
    check_sample_weight,
    child,
    default_tau,
    int_seed,
    resolve_metric,
    tau_logistic,
)
from lfverify.learn._constraints import (
    NONE,
    any_of,
    boolean,
    check_parameters,
    dict_of,
    integer,
    not_string,
    optional,
    options,
    real,
    unused,
)
from lfverify.learn._cost_sensitive import (
    FIRST_WEIGHTS,
    LEVEL_TOL,
    MAX_LEVEL_ITER,
    _fit_cost_sensitive,
    _fit_folds_at_weights,
)
from lfverify.learn._optimize import METHODS, maximize_surrogate_utility
from lfverify.learn._thresholds import _best_threshold

__all__ = ["LinearFractionalClassifier", "FitQualityWarning", "ERM_REGULARIZATION", "hinge_erm_svm",
           "erm_initial_parameters", "OBJECTIVES", "THRESHOLDS"]

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
#: threshold_cv="auto": this many folds where the training metric is optimistic (``_few_samples``).
_AUTO_THRESHOLD_FOLDS = 5
#: The folds' cost-sensitive fits stop at this multiple of gtol (``threshold_cv`` in the class docstring).
_FOLD_GTOL_FACTOR = 10.0
#: The surrogate utility's folds: n_samples < _AUTO_SAMPLES_PER_FEATURE * n_features.
_AUTO_SAMPLES_PER_FEATURE = 10
#: The cost-sensitive objective's regime of few samples: the smaller class has fewer than this many rows per feature
#: (``_few_samples``; benchmarks/results/estimator_regimes.md, FINDINGS.md).
_MINORITY_PER_FEATURE = 20
#: Default gradient tolerance of each objective's optimizer (``gtol=None``).
_DEFAULT_GTOL = {"surrogate-utility": 1e-8, "cost-sensitive": 1e-4}
#: The parameters that act under one objective only, with their defaults there (``None`` means "the default").
_OBJECTIVE_DEFAULTS = {
    "cost-sensitive": {"C": 1.0},
    "surrogate-utility": {"method": "bfgs", "learning_rate": 0.1, "max_phase1_iter": 1000, "split": "random"},
}
#: For each objective, the parameters that must stay None under it, and why.
_INAPPLICABLE = {
    "surrogate-utility": {"C": "Alg. 1 maximises U_hat without a penalty"},
    "cost-sensitive": {name: "it is a setting of Alg. 1 on U_hat" for name in _OBJECTIVE_DEFAULTS["surrogate-utility"]},
}
#: ``class_weight`` as scikit-learn defines it: None, "balanced" or a dict {label: weight >= 0}.
_CLASS_WEIGHT = any_of(NONE, options(("balanced",)), dict_of(real(low=0.0)),
                       expectation="None, 'balanced' or a dict {label: weight}")
#: The parameters that choose the fit, checked first (scikit-learn's ``_parameter_constraints`` is the model;
#: threshold_cv other than "auto" needs threshold="refit", a rule between two parameters checked next).
_CHOICE_CONSTRAINTS = {
    "objective": options(OBJECTIVES),
    "threshold": options(THRESHOLDS),
    "threshold_cv": any_of(options(("auto",)), NONE, integer(2), expectation="'auto', None or an int >= 2"),
}
_TAU = {"tau": optional(real(low=0.0, high=1.0, low_inclusive=False))}
_SHARED = {
    "class_weight": _CLASS_WEIGHT,
    "fit_intercept": boolean(),
    "init": any_of(not_string(), options(_INITS), expectation=f"one of {_INITS} or an array of initial parameters"),
}
#: Under each objective, the constraints of the parameters that act there, checked in this order after those
#: of :data:`_INAPPLICABLE` (which must stay None) and with :data:`_OBJECTIVE_DEFAULTS` filled in for None.
#: Under the surrogate utility, ``max_iter`` and ``max_phase1_iter`` are checked by
#: :func:`~lfverify.learn.maximize_surrogate_utility`.
_PARAMETER_CONSTRAINTS = {
    "cost-sensitive": {**_TAU, "C": real(low=0.0, low_inclusive=False), **_SHARED,
                       "max_iter": integer(1, expectation="an int >= 1 for the cost-sensitive objective"),
                       "gtol": optional(real(low=0.0))},
    "surrogate-utility": {**_TAU, "method": options(METHODS, strings_only=False), "split": options(_SPLITS),
                          "learning_rate": real(low=0.0, low_inclusive=False), **_SHARED,
                          "gtol": optional(real(low=0.0))},
}


def _check_both_classes_weighted(classes, y, weights, name) -> None:
    """Refuse weights that leave a class with total weight 0 (the fit would see one class)."""
    for label in classes:
        if not weights[y == label].sum() > 0:
            raise ValueError(f"{name} gives weight 0 to every sample of class {np.asarray(label).item()!r}; both "
                             "classes must carry "
                             "weight")


def _check_class_weight(class_weight) -> None:
    """``class_weight`` as scikit-learn defines it: None, "balanced" or a dict {label: weight > 0}."""
    _CLASS_WEIGHT.check(class_weight, "class_weight")


def combined_sample_weights(sample_weight, class_weight, classes, y):
    """The per-sample weights of a fit: ``sample_weight`` times the ``class_weight`` of each sample's class (None
    when neither is given, so that the unweighted fit keeps its exact integer counts)."""
    weights = None if sample_weight is None else check_sample_weight(sample_weight, y.shape[0])
    if weights is not None:
        _check_both_classes_weighted(classes, y, weights, "sample_weight")
    if class_weight is not None:
        # "balanced" counts the classes with the sample weights (as scikit-learn's linear models since 1.8), so
        # that an integer weight still acts as repeated rows
        per_class = compute_class_weight(class_weight, classes=classes, y=y, sample_weight=weights)
        factor = per_class[np.searchsorted(classes, y)]
        weights = factor if weights is None else weights * factor
        _check_both_classes_weighted(classes, y, weights, "class_weight")
    return weights


def binary_classes(y, pos_label):
    """(classes, the positive label) of labels ``y`` with exactly two classes; ``pos_label`` None means the larger.

    Raises
    ------
    ValueError
        Other than two classes (in the words scikit-learn's estimator checks expect from a binary-only
        classifier), or a ``pos_label`` that is not one of them.
    """
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"Only binary classification is supported. y must contain exactly two classes; got "
                         f"{classes.size} class(es): {classes.tolist()[:10]}")
    label = classes[1] if pos_label is None else pos_label
    if label not in classes:
        raise ValueError(f"pos_label must be one of the classes {classes.tolist()}; got {pos_label!r}")
    return classes, label


def oriented_scores(f, classes, pos_label):
    """Scores f of ``pos_label`` as scikit-learn's ``decision_function`` orients them: positive for classes[1]."""
    return f if pos_label == classes[1] else -f


def labels_from_scores(f, classes, pos_label):
    """``pos_label`` where the score f > 0, the other class where f <= 0 (sgn(0) = -1, Sec. 2)."""
    negative = classes[0] if pos_label == classes[1] else classes[1]
    return np.where(f > 0, pos_label, negative)


def metric_score(metric, pos_label, classes, predicted, y, sample_weight=None) -> float:
    """The ``metric`` of the predictions ``predicted`` against the labels ``y`` (Eq. (1) on the empirical
    confusion; with ``sample_weight`` TP, FP and the prior are weighted fractions): a fitted classifier's ``score``.

    0/0 (no positive label and no positive prediction, for F_beta / Jaccard) gives 0.0 with an
    UndefinedMetricWarning, as scikit-learn's f1_score does.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of labels; got shape {y.shape}")
    if predicted.shape[0] != y.shape[0]:
        raise ValueError(f"y must have one label per row of X ({predicted.shape[0]}); got {y.shape[0]}")
    unknown = ~np.isin(y, classes)
    if unknown.any():
        raise ValueError(f"y holds labels {np.unique(y[unknown]).tolist()[:5]} that are not among the fitted "
                         f"classes {classes.tolist()}")
    positive = y == pos_label
    predicted_positive = predicted == pos_label
    if sample_weight is None:  # exact integer counts (LinearFractionalMetric.value_from_counts)
        return float(metric.value_from_counts(np.count_nonzero(positive & predicted_positive),
                                              np.count_nonzero(~positive & predicted_positive),
                                              np.count_nonzero(positive), y.shape[0]))
    weights = np.asarray(sample_weight, dtype=np.float64)
    if weights.shape != y.shape or not np.isfinite(weights).all() or (weights < 0).any() or weights.sum() <= 0:
        raise ValueError("sample_weight must hold one finite non-negative weight per sample with a positive "
                         f"sum; got {sample_weight!r}")
    weights = weights / weights.sum()
    tp = float(weights @ (positive & predicted_positive))
    fp = float(weights @ (~positive & predicted_positive))
    return float(metric.value(tp, fp, float(weights @ positive)))


def erm_initial_parameters(X, y, *, fit_intercept: bool = True, regularization: float = ERM_REGULARIZATION,
                           sample_weight=None):
    """The ERM minimizer trained by SVM (Sec. 6's initializer): hinge loss + l2 (:func:`hinge_erm_svm`, C = 1/lambda).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,) in {-1, +1}
    fit_intercept : bool, keyword-only
        Append the SVM's intercept as the last coordinate (the estimator's intercept column).
    regularization : float > 0, keyword-only
        lambda of  (lambda / 2) ||w||^2 + sum_i max(0, 1 - y_i f(x_i)).
    sample_weight : array_like of shape (n,) or None, keyword-only
        Per-sample weights of the hinge terms (``LinearSVC.fit``'s).

    Returns
    -------
    ndarray of shape (d,) or (d + 1,)
    """
    svm = hinge_erm_svm(regularization=regularization, fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        # liblinear's dual solver may stop at max_iter on hard data; any SVM solution is a valid start.
        warnings.simplefilter("ignore", ConvergenceWarning)
        svm.fit(X, y, sample_weight=sample_weight)
    theta = svm.coef_[0]
    return np.append(theta, svm.intercept_[0]) if fit_intercept else theta.copy()


#: A fit whose training metric is at most this multiple of the all-positive classifier's is reported as collapsed.
_TRIVIAL_MARGIN = 1.05


class FitQualityWarning(UserWarning):
    """A fit that ended predicting a single class, or at most 5 % above the all-positive classifier on its training
    sample (:class:`LinearFractionalClassifier`'s Notes)."""


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
        With ``threshold="refit"``: ``None`` chooses the threshold exactly on the training sample; K chooses it on
        the pooled held-out scores of K stratified folds (K more fits of the same objective; K is lowered to the
        smaller class count where that is below K); ``"auto"``: 5 folds in the regime of few samples (Notes), else
        the training sample (one fit).  With ``threshold="zero"`` only "auto" is accepted.  The folds' fits start
        from the initial theta (the final theta has seen the held-out rows), the cost-sensitive ones stop at
        10 x ``gtol``, and where the cost-sensitive fit is a single inner fit (few samples) the folds come first
        and the whole sample's fit starts from the mean of their parameters.
    tau : float in (0, 1] or None, default None
        Discrepancy of the tau-logistic loss phi (Sec. 6, Fig. 2); ``None`` = :func:`~lfverify.core.default_tau`
        (0.33 for F_1, 0.75 for Jaccard) for the surrogate utility and 1 for the cost-sensitive objective.
    C : float > 0 or None, default None
        Cost-sensitive objective only (None: 1.0): inverse l2-penalty strength, as ``LogisticRegression(C)``.
        Set under the surrogate utility it is refused (Alg. 1 has no penalty), as is every parameter below marked
        "surrogate utility only" under the cost-sensitive objective.
    method : {"bfgs", "gd"} or None, default None
        Surrogate utility only (None: "bfgs"): phase 2 of Alg. 1, U-BFGS or U-GD (Alg. 2, normalized gradient
        ascent).
    learning_rate : float > 0 or None, default None
        Surrogate utility only (None: 0.1): gamma of Alg. 2 / first step of phase 1 and of BFGS (the paper picks
        it from {10, 0.1, 1e-3, 1e-5}).
    max_iter : int >= 0, default 100
        Alg. 1's phase-2 iterations (App. C.4's tables: 100; Sec. 6: 300), or the L-BFGS-B iterations of each
        cost-sensitive fit (>= 1).
    max_phase1_iter : int >= 0 or None, default None
        Surrogate utility only (None: 1000): numerator-ascent steps allowed in Alg. 1's first loop.
    gtol : float >= 0 or None, default None
        Gradient tolerance: Alg. 1 stops when ||grad U_hat|| <= gtol (None: 1e-8); each cost-sensitive fit stops
        when L-BFGS-B's projected gradient is <= gtol (None: 1e-4, ``LogisticRegression``'s tol).
    init : {"zeros", "erm", "random"} or array-like, default "zeros"
        Initial parameters: zeros, the linear SVM (hinge + l2, :func:`erm_initial_parameters`, as Sec. 6), N(0, I)
        drawn from ``random_state`` (Sec. 6's convergence study), or an explicit vector of length n_features (+ 1
        with ``fit_intercept``, the intercept last).  For the cost-sensitive objective it starts the first fit - in
        the regime of few samples, where that fit is the only one, the folds' fits (``threshold_cv``).
    fit_intercept : bool, default True
        Fit f(x) = w^T x + b (an unpenalised parameter; X is not copied, except by the surrogate utility, whose
        U_hat appends a constant-1 feature).
    pos_label : label or None, default None
        The class treated as positive (+1) by the metric; ``None`` = the larger of the two labels
        (``classes_[1]``, scikit-learn's convention).
    split : {"random", "first-half"} or None, default None
        Surrogate utility only (None: "random"): how the training sample is divided into S_0 (numerator) and S_1
        (denominator) of Eq. (6): a random half drawn from ``random_state``, or the paper's first floor(n/2) rows
        (right when the rows are already in random order).
    class_weight : dict, "balanced" or None, default None
        Weights of the classes, as scikit-learn defines them (``"balanced"``: n_samples / (2 * class count));
        multiplied into ``sample_weight`` and used in every step of ``fit``, so the metric maximised is that of
        the reweighted sample ("balanced" counts the classes with ``sample_weight``).
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
        The folds the threshold was chosen on (``threshold_cv`` with "auto" resolved and K lowered to the smaller
        class's count where that is below K), None for the training sample.
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
    cost-sensitive fit stops at ``max_iter``; a :class:`FitQualityWarning` when the fit predicts one class on its
    training sample or scores there at most 5 % above the all-positive classifier.

    Which regime each choice is for (cost-sensitive objective; m = the smaller class's count, or weight, d = the
    number of features):

    * m >= 20 d - the reweighting keeps its inner fit with the best *training* metric (the earliest of equals; a
      refit at a small prior can lower the training metric, so the last is not kept), and the threshold is chosen
      on the training sample: their optimism, of order d / m, is small there.
    * m < 20 d (few samples) - the equally weighted first fit only (no reweighting), and the threshold
      cross-fitted on 5 folds: there the training metric prefers reweighted fits that lose on new data, and where
      p > n the training scores separate the classes.

    The surrogate utility (Alg. 1) cross-fits the threshold when n < 10 d.  The measurements behind these rules
    and their history: docs/estimators.md ("How the defaults choose by regime") and FINDINGS.md ("The estimator
    across regimes").
    """

    def __init__(self, metric="f1", objective="cost-sensitive", threshold="refit", threshold_cv="auto", tau=None,
                 C=None, method=None, learning_rate=None, max_iter=100, max_phase1_iter=None, gtol=None,
                 init="zeros", fit_intercept=True, pos_label=None, split=None, class_weight=None,
                 random_state=None):
        self.metric = metric
        self.objective = objective
        self.threshold = threshold
        self.threshold_cv = threshold_cv
        self.tau = tau
        self.C = C
        self.class_weight = class_weight
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

    def __sklearn_is_fitted__(self):  # a fit that fails after validating X has set n_features_in_ already
        return hasattr(self, "coef_") and hasattr(self, "intercept_")

    # ------------------------------------------------------------------ fitting
    def _validated_options(self):
        """The checked options: (metric, tau, gtol, objective-specific settings with their defaults filled in).

        The parameters are checked against the declared tables :data:`_CHOICE_CONSTRAINTS` and
        :data:`_PARAMETER_CONSTRAINTS`.  A parameter that does not act under the chosen objective (or threshold) is
        refused when it is set, so that e.g. a grid search over ``C`` of the paper's objective fails loudly instead
        of fitting the same model."""
        metric = resolve_metric(self.metric)
        params = self.get_params(deep=False)
        check_parameters(params, _CHOICE_CONSTRAINTS)
        if not (isinstance(self.threshold_cv, str) and self.threshold_cv == "auto") and self.threshold != "refit":
            raise ValueError(f"threshold_cv applies only with threshold='refit' (threshold='zero' chooses no "
                             f"threshold); got threshold_cv={self.threshold_cv!r} with threshold={self.threshold!r}")
        objective = self.objective
        check_parameters(params, {name: unused(f"objective={objective!r}", reason)
                                  for name, reason in _INAPPLICABLE[objective].items()})
        defaults = _OBJECTIVE_DEFAULTS[objective]
        filled = {**params, **{name: default for name, default in defaults.items() if params[name] is None}}
        checked = check_parameters(filled, _PARAMETER_CONSTRAINTS[objective])
        if self.tau is not None:
            tau = checked["tau"]
        else:
            tau = 1.0 if objective == "cost-sensitive" else default_tau(metric)
        settings = {name: checked.get(name, filled[name]) for name in defaults}
        gtol = _DEFAULT_GTOL[objective] if self.gtol is None else checked["gtol"]
        return metric, tau, gtol, settings

    def _initial_theta(self, X, y_signed, weights, seq):
        n_params = X.shape[1] + int(bool(self.fit_intercept))
        if isinstance(self.init, str):
            if self.init == "erm":
                return erm_initial_parameters(X, y_signed, fit_intercept=bool(self.fit_intercept),
                                              sample_weight=weights)
            if self.init == "zeros":
                return np.zeros(n_params)
            return np.random.default_rng(child(seq, 1)).standard_normal(n_params)
        theta = np.asarray(self.init, dtype=np.float64)
        if theta.shape != (n_params,):
            raise ValueError(f"init must have shape ({n_params},) "
                             f"(n_features{' + 1 for the intercept' if self.fit_intercept else ''}); "
                             f"got shape {theta.shape}")
        return theta.copy()

    def _design(self, X):
        """X with the intercept's column of ones appended (kept sparse for sparse X): the surrogate-utility path
        only, whose U_hat (Eq. (6)) takes theta^T x; the cost-sensitive path takes the intercept as a parameter and
        never copies X."""
        if not self.fit_intercept:
            return X
        ones = np.ones((X.shape[0], 1))
        return sparse.hstack([X, ones], format="csr") if sparse.issparse(X) else np.hstack([X, ones])

    def _linear_scores(self, X, theta) -> np.ndarray:
        """theta[:d]^T x (+ theta[d], the intercept) for every row of X."""
        d = X.shape[1]
        f = np.asarray(X @ theta[:d], dtype=np.float64).ravel()
        return f + theta[d] if self.fit_intercept else f

    def _fit_direction(self, X, y_signed, weights, theta0, metric, tau, gtol, settings, seq,
                       level_iter=MAX_LEVEL_ITER):
        """theta (intercept last) of the chosen objective on (X, y) from theta0: (theta, result, iterations,
        converged)."""
        if self.objective == "cost-sensitive":
            # X was validated by validate_data and y mapped to {-1, +1}: the unchecked path (X checked once per fit)
            result = _fit_cost_sensitive(metric, tau_logistic(tau), X, y_signed, C=settings["C"],
                                         fit_intercept_column=False, max_level_iter=level_iter, tol=LEVEL_TOL,
                                         max_iter=int(self.max_iter), gtol=gtol,
                                         theta=np.array(theta0, dtype=np.float64), sample_weight=weights,
                                         fit_intercept=bool(self.fit_intercept))
            return result.theta, result, int(sum(result.inner_iterations)), bool(result.converged)
        objective = EmpiricalSurrogateUtility.from_validated(metric, tau_logistic(tau), self._design(X), y_signed,
                                                         split=settings["split"], seed=child(seq, 0),
                                                         sample_weight=weights)
        result = maximize_surrogate_utility(objective, theta0, method=settings["method"],
                                            learning_rate=settings["learning_rate"], max_iter=self.max_iter,
                                            max_phase1_iter=settings["max_phase1_iter"], gtol=gtol, history=True)
        if not np.isfinite(result.surrogate_utility):
            warnings.warn(f"LinearFractionalClassifier: {result.message}; the parameters are those reached by "
                          "Alg. 1's first phase", ConvergenceWarning, stacklevel=3)
        return np.asarray(result.theta, dtype=np.float64), result, int(result.iterations), bool(result.converged)

    def _few_samples(self, X, y_signed, sample_weight) -> bool:
        """Whether the training metric is too optimistic to choose by (the class docstring's regimes): for the
        cost-sensitive objective when the smaller class has fewer than 20 samples per feature (its weight, as the
        penalty's sample size is counted: an integer weight acts as repeated rows, and ``class_weight`` as the
        ``sample_weight`` it stands for), for the surrogate utility when n < 10 d."""
        n_samples, n_features = X.shape
        if self.objective != "cost-sensitive":
            return n_samples < _AUTO_SAMPLES_PER_FEATURE * n_features
        if sample_weight is None:
            minority = _minority_count(y_signed)
        else:
            # each class's weight summed on its own: "total - positive" rounds (40 + w - 40 is not w for every
            # double w), so the regime would depend on which label is the positive one
            positive = float(sample_weight[y_signed == 1].sum())
            minority = min(positive, float(sample_weight[y_signed != 1].sum()))
        return minority < _MINORITY_PER_FEATURE * n_features

    def _resolved_threshold_cv(self, few_samples: bool, minority: int):
        """The folds drawn: threshold_cv with "auto" resolved (5 folds where ``few_samples`` and each class has >= 2
        rows, else None) and K lowered to the smaller class's row count, at least 2 (one row of it per held-out
        fold); None for threshold="zero" or the training sample."""
        if self.threshold != "refit":
            return None
        if isinstance(self.threshold_cv, str):  # "auto": where the training scores are optimistic
            folds = _AUTO_THRESHOLD_FOLDS if few_samples and minority >= 2 else None
        else:
            folds = None if self.threshold_cv is None else int(self.threshold_cv)
        return None if folds is None else max(2, min(folds, minority))

    def _cross_fitted(self, X, y_signed, weights, theta0, metric, tau, gtol, settings, seq, n_folds, class_weights):
        """The held-out scores of models fitted on ``threshold_cv`` stratified folds, pooled in the rows' order,
        and the folds' parameters.

        Each fold is fitted as the whole sample was: Alg. 1 from the same start, or one cost-sensitive fit at
        ``class_weights`` (the whole sample's kept ones, or the first fit's where that is the only one) from the
        initial theta - with weight 0 on the held-out rows instead of a copy of the fold's rows; an ERM start is
        refitted on the fold (for the cost-sensitive fit with weight 0 on the held-out rows: the linear SVM on the
        fold's rows alone, as a test checks; before, the folds started from the whole sample's SVM, which has seen
        the held-out rows).  Where X is large the cost-sensitive folds are fitted as one problem, the sum of their
        risks (:func:`~lfverify.learn._cost_sensitive._fit_folds_at_weights`: one pass over X per evaluation for
        all K, each fold held to the same gradient test as alone).  Returns an array of n scores - row i's is that
        of the model whose fold held it out - and the list of the folds' parameters.  For memory (the fold path's
        peak was 2.4x ``LogisticRegression``'s at n = 10,000, d = 100, against 1.4x without folds): the folds are
        drawn once into one label per row, the scores fill one array, and a fold's rows are a mask.
        """
        minority = _minority_count(y_signed)
        if minority < 2:
            raise ValueError(f"threshold_cv needs at least 2 samples of each class (one per held-out fold); the "
                             f"smaller class has {minority}")
        # n_folds is already lowered to the smaller class's count (_resolved_threshold_cv)
        folds = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=int_seed(child(seq, 2)))
        fold_of = np.empty(y_signed.shape[0], dtype=np.min_scalar_type(n_folds - 1))
        # y stands in for X (StratifiedKFold reads only the number of rows of X): no placeholder array of n zeros
        for k, (_rows, held) in enumerate(folds.split(y_signed, y_signed)):
            fold_of[held] = k
        del _rows, held  # the last fold's index arrays (0.8 n int64 of training rows) would stay alive in the fits
        if self.objective == "cost-sensitive":
            # an ERM start is refitted with weight 0 on the held-out rows (the whole sample's has seen them)
            erm = isinstance(self.init, str) and self.init == "erm"
            # (a start shared by every fold is a broadcast view, not K copies)
            starts = (np.array([erm_initial_parameters(X, y_signed, fit_intercept=bool(self.fit_intercept),
                                                       sample_weight=np.where(fold_of == k, 0.0,
                                                                              1.0 if weights is None else weights))
                                for k in range(n_folds)]) if erm else
                      np.broadcast_to(np.asarray(theta0, dtype=np.float64), (n_folds, np.size(theta0))))
            # the K fold fits, as one problem where X is large (one pass over X per evaluation for all; _FoldRisks)
            thetas = list(_fit_folds_at_weights(tau_logistic(tau), X, y_signed, class_weights, C=settings["C"],
                                                fit_intercept_column=False, max_iter=int(self.max_iter),
                                                gtol=_FOLD_GTOL_FACTOR * gtol, starts=starts, fold_of=fold_of,
                                                sample_weight=weights, fit_intercept=bool(self.fit_intercept)))
        else:
            thetas = []
            for k in range(n_folds):
                rows = np.flatnonzero(fold_of != k)
                start = (erm_initial_parameters(X[rows], y_signed[rows], fit_intercept=bool(self.fit_intercept),
                                                sample_weight=None if weights is None else weights[rows])
                         if isinstance(self.init, str) and self.init == "erm" else theta0)
                thetas.append(self._fit_direction(X[rows], y_signed[rows],
                                                  None if weights is None else weights[rows], start, metric=metric,
                                                  tau=tau, gtol=gtol, settings=settings, seq=child(seq, 3 + k))[0])
                del rows
        # after the fits (not alive during them): all n scores, then the held-out ones - X[held] would copy
        # (n / K) x d entries of X (80 KB at n = 500, d = 100, against LogisticRegression's whole peak of 72 KB);
        # K products X theta cost far less than the folds' fits
        pooled = np.empty(y_signed.shape[0])
        for k, fold_theta in enumerate(thetas):
            held = fold_of == k
            pooled[held] = self._linear_scores(X, fold_theta)[held]
        return pooled, thetas

    @staticmethod
    def _threshold_from_folds(pooled_scores, y_signed, weights, metric) -> float:
        """The threshold maximising the metric of the pooled held-out scores, on their own scale.

        Each fold's model is fitted as the final one on (K - 1) / K of the sample, so its scores are on nearly the
        final model's scale, and the threshold carries over, as in ``TunedThresholdClassifierCV``.  The earlier
        rule (the held-out fraction of positives applied to the *training* scores) fails where those scores
        separate the classes (n < d): the training quantile says nothing about new scores (FINDINGS.md).
        """
        return _best_threshold(pooled_scores, y_signed, metric, reference=0.0, weights=weights).threshold

    def _warn_if_degenerate(self, predicted, y_signed, weights, metric) -> None:
        """Warn when the fitted classifier predicts one class only on its training sample, or when its training
        metric is at most :data:`_TRIVIAL_MARGIN` times the all-positive classifier's (which any threshold could
        have matched; the paper's configuration at a prior of 0.01-0.05 ends there, predicting 90-99 % of the
        samples positive)."""
        w = np.ones(y_signed.shape[0]) if weights is None else weights
        total = float(w.sum())
        positive = y_signed == 1
        prior = float(w[positive].sum()) / total
        tp = float(w[positive & predicted].sum()) / total
        fp = float(w[~positive & predicted].sum()) / total
        value = float(metric.value(tp, fp, prior, zero_division=0.0))
        trivial = float(metric.value(prior, 1.0 - prior, prior, zero_division=0.0))
        if self.objective == "cost-sensitive" and self.threshold == "refit":
            # already the defaults: the threshold search had the all-positive classifier among its candidates
            advice = ("the features may carry little linear signal for this metric: try more or other features, "
                      "or a non-linear model")
        else:
            advice = ("try the defaults objective='cost-sensitive' with threshold='refit', class_weight='balanced', "
                      "or more iterations (max_iter)")
        if predicted.all() or not predicted.any():
            which = "positive" if predicted.all() else "negative"
            warnings.warn(f"LinearFractionalClassifier: the fitted classifier predicts every training sample "
                          f"{which} (training {metric.name} {value:.4g}); {advice}", FitQualityWarning,
                          stacklevel=3)
        elif value <= _TRIVIAL_MARGIN * trivial:
            warnings.warn(f"LinearFractionalClassifier: the training {metric.name} of the fit ({value:.4g}) is not "
                          f"{_TRIVIAL_MARGIN - 1:.0%} above that of predicting every sample positive ({trivial:.4g}); "
                          f"{advice}", FitQualityWarning, stacklevel=3)

    def _training_data(self, X, y, sample_weight):
        """The checked sample of ``fit``: (X, y in {-1, +1} as int8, weights or None, classes, pos_label), rows of
        weight 0 removed."""
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse="csr")
        check_classification_targets(y)
        classes, pos_label = binary_classes(y, self.pos_label)
        weights = combined_sample_weights(sample_weight, self.class_weight, classes, y)
        if weights is not None and not (weights > 0).all():
            keep = weights > 0
            X, y, weights = X[keep], y[keep], weights[keep]
        if X.shape[0] < 2:
            raise ValueError(f"X must have at least 2 samples (one for each half S_0, S_1); got {X.shape[0]}")
        return X, np.where(y == pos_label, 1, -1).astype(np.int8), weights, classes, pos_label

    def _refitted_threshold(self, X, y_signed, weights, *, theta, result, theta0, metric, tau, gtol, settings, seq,
                            n_folds) -> float:
        """The threshold of ``threshold="refit"`` on the fitted ``theta``: exact on the training scores
        (``n_folds`` None), else on the pooled held-out scores of ``n_folds`` folds."""
        if n_folds is None:
            # the cost-sensitive fit chose this very threshold on the training scores (one sort saved)
            return (result.threshold if self.objective == "cost-sensitive" else
                    _best_threshold(self._linear_scores(X, theta), y_signed, metric, reference=0.0,
                                    weights=weights).threshold)
        class_weights = result.weights if self.objective == "cost-sensitive" else None
        pooled = self._cross_fitted(X, y_signed, weights, theta0=theta0, metric=metric, tau=tau, gtol=gtol,
                                    settings=settings, seq=seq, n_folds=n_folds, class_weights=class_weights)[0]
        return self._threshold_from_folds(pooled, y_signed, weights, metric)

    def fit(self, X, y, sample_weight=None):
        """Fit theta by the chosen objective, then the threshold.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features), finite
        y : array-like of shape (n_samples,) with exactly two distinct labels
        sample_weight : array-like of shape (n_samples,) or None, default None
            Non-negative weights with a positive sum, used in every step of the fit (the objective, the penalty's
            sample size, the threshold's weighted counts, the cross-fitted folds' fits and scores); multiplied by
            ``class_weight``.  Rows of weight 0 are removed before the fit (so they change nothing, not even the
            random split or the folds); an integer weight acts as that many repeated rows wherever the fit does
            not draw folds or halves over rows (``threshold_cv=None`` with the cost-sensitive objective).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            Unknown metric, objective, threshold or method, a parameter set that does not act under the chosen
            objective, tau outside (0, 1], y with other than two classes, empty or non-finite X, bad weights.

        Warns
        -----
        FitQualityWarning
            When the fitted classifier predicts a single class on its training sample, or its training metric is
            at most 5 % above the all-positive classifier's (e.g. the paper's configuration collapsing at a small
            prior).
        """
        metric, tau, gtol, settings = self._validated_options()
        X, y_signed, weights, classes, pos_label = self._training_data(X, y, sample_weight)
        seq = as_seed_sequence(self.random_state, "random_state")
        minority = _minority_count(y_signed)
        few_samples = self._few_samples(X, y_signed, weights)
        # few samples: the equally weighted fit only (the reweighting's later fits win on the training metric and
        # lose on new data there; FINDINGS.md)
        level_iter = 1 if few_samples else MAX_LEVEL_ITER
        n_folds = self._resolved_threshold_cv(few_samples, minority)
        folds_first = n_folds is not None and self.objective == "cost-sensitive" and level_iter == 1
        # with the folds first, an ERM start is fitted on each fold only (the whole sample's would not be used)
        theta0 = (None if folds_first and isinstance(self.init, str) and self.init == "erm" else
                  self._initial_theta(X, y_signed, weights, seq))
        start, shift = theta0, None
        if folds_first:
            # One inner fit, at weights known before it: the folds first, then the whole sample's fit from the mean
            # of the folds' parameters - the same convex problem from a start near its minimum (n = 10,000,
            # d = 100: 2-3 L-BFGS iterations instead of 8; FINDINGS.md)
            pooled, thetas = self._cross_fitted(X, y_signed, weights, theta0=theta0, metric=metric, tau=tau,
                                                gtol=gtol, settings=settings, seq=seq, n_folds=n_folds,
                                                class_weights=FIRST_WEIGHTS)
            shift = self._threshold_from_folds(pooled, y_signed, weights, metric)
            start = np.mean(thetas, axis=0)
            del pooled, thetas
        theta, result, iterations, converged = self._fit_direction(X, y_signed, weights, start, metric=metric, tau=tau,
                                                                   gtol=gtol, settings=settings, seq=seq,
                                                                   level_iter=level_iter)
        self.optimization_result_ = result
        if self.threshold != "refit":
            shift = 0.0
        elif shift is None:
            shift = self._refitted_threshold(X, y_signed, weights, theta=theta, result=result, theta0=theta0,
                                             metric=metric, tau=tau, gtol=gtol, settings=settings, seq=seq,
                                             n_folds=n_folds)
        self.classes_, self.pos_label_, self.metric_, self.tau_ = classes, pos_label, metric, tau
        self.threshold_, self.threshold_cv_ = float(shift), n_folds
        self.coef_ = theta[:X.shape[1]].reshape(1, -1).copy()
        self.intercept_ = np.array([(theta[-1] if self.fit_intercept else 0.0) - float(shift)])
        self.n_iter_ = iterations
        self.converged_ = converged
        self._warn_if_degenerate(self._linear_scores(X, theta) - shift > 0, y_signed, weights, metric)
        return self

    # ------------------------------------------------------------------ prediction
    def _scores(self, X) -> np.ndarray:
        """f(x) = w^T x + b, the score of the positive class pos_label_."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False, accept_sparse="csr")
        return np.asarray(X @ self.coef_[0]).ravel() + self.intercept_[0]

    def decision_function(self, X):
        """Confidence scores, positive for ``classes_[1]`` (scikit-learn's convention; see Notes)."""
        return oriented_scores(self._scores(X), self.classes_, self.pos_label_)

    def predict(self, X):
        """``pos_label_`` where f(x) > 0, the other class where f(x) <= 0 (sgn(0) = -1, Sec. 2)."""
        return labels_from_scores(self._scores(X), self.classes_, self.pos_label_)

    def score(self, X, y, sample_weight=None):
        """The chosen metric (not accuracy) of ``predict(X)`` against ``y`` (Eq. (1) on the empirical confusion).

        With ``sample_weight`` the confusion-matrix fractions TP, FP and the prior are weighted averages.
        0/0 (no positive label and no positive prediction, for F_beta / Jaccard) gives 0.0 with an
        UndefinedMetricWarning, as scikit-learn's f1_score does.
        """
        return metric_score(self.metric_, pos_label=self.pos_label_, classes=self.classes_, predicted=self.predict(X),
                            y=y, sample_weight=sample_weight)
