"""``MetricOptimalClassifier``: the cost-sensitive remedy around any scikit-learn classifier (an extension).

Not in the paper.  :mod:`lfverify.learn._cost_sensitive` weighs the surrogate risk of a linear model at the metric's
Bayes threshold and iterates the level (Prop. 5: the Bayes classifier thresholds eta at delta(U-dagger); Dinkelbach's
outer update).  Nothing in that argument needs a linear model: any learner whose fit accepts ``sample_weight``
minimises a weighted risk, and weights (1 - delta, delta) on the classes move its population minimiser's boundary to
eta = delta (for a calibrated risk).  This meta-estimator therefore

1. fits clones of the base learner on ``cv`` stratified folds with equal class weights (its own fit: only the user's
   weights, if any, reach it), pools the held-out scores and takes the exact metric-maximising threshold on them
   (:func:`~lfverify.learn.best_threshold`); the metric of that threshold, v, is an honest estimate of the metric
   the level can reach;
2. refits the folds with the class weights of the Bayes threshold at v, ``(1 - delta(v), delta(v))``
   (:func:`~lfverify.learn.bayes_level_weights`), and repeats up to ``max_level_iter`` levels while v changes by
   more than ``tol``;
3. keeps the level whose pooled held-out metric is the largest (the earliest of equals), fits one clone on the
   whole sample at that level's weights, and predicts positive where its score exceeds the threshold chosen on that
   level's held-out scores.

Thresholds are chosen on cross-fitted scores because a flexible learner's training scores are optimistic (a random
forest separates its own training sample).  ``reweight=False`` is the threshold-only mode: one level at the user's
weights, for a learner whose fit takes no ``sample_weight`` (then it differs from scikit-learn's
``TunedThresholdClassifierCV`` only in taking the exact best threshold of the pooled scores instead of the best of
100 grid points averaged over folds).

Cost: ``cv`` fits per level plus one, i.e. 2 cv + 1 = 11 fits of the base learner at the defaults (scikit-learn's
``TunedThresholdClassifierCV`` makes cv + 1 = 6); measured ratios are in docs/estimators.md.  For a bagging learner
(a random forest, ``BaggingClassifier``) ``cv="oob"`` takes each level's held-out scores from its out-of-bag
predictions instead: one fit on the whole sample per level, whose kept fit is the final model (2 fits at the
defaults).  A row's out-of-bag score averages only the members that did not see it, so it is held out as a fold's
row is; it is not the whole ensemble's score (fewer members), which is why the threshold it chooses can differ from
the one folds would choose.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import _safe_indexing, get_tags
from sklearn.utils.metadata_routing import (
    MetadataRouter,
    MethodMapping,
    _raise_for_params,
    _routing_enabled,
    process_routing,
)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _num_samples,
    assert_all_finite,
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    has_fit_parameter,
    indexable,
)

from lfverify.core import as_seed_sequence, check_real, child, int_seed
from lfverify.learn._cost_sensitive import FIRST_WEIGHTS, bayes_level_weights
from lfverify.learn._estimator import (
    _check_class_weight,
    _minority_count,
    binary_classes,
    combined_sample_weights,
    labels_from_scores,
    metric_score,
    oriented_scores,
    resolve_metric,
)
from lfverify.learn._thresholds import _best_threshold

__all__ = ["MetricOptimalClassifier"]

_RESPONSE_METHODS = ("auto", "decision_function", "predict_proba")


def _base_has(method: str):
    """``available_if``'s test: the fitted base learner (or the unfitted one) has ``method``."""
    def check(self):
        return hasattr(getattr(self, "estimator_", self.estimator), method)
    return check


class MetricOptimalClassifier(ClassifierMixin, BaseEstimator):
    """Any scikit-learn classifier fitted at the metric's Bayes-level class weights, with the exact threshold.

    The cost-sensitive remedy of :class:`LinearFractionalClassifier` (Prop. 5's level set, Dinkelbach's iteration)
    around a learner of your choice; the steps are in the module's docstring and docs/estimators.md.

    Parameters
    ----------
    estimator : classifier
        The base learner (cloned, never fitted itself).  Its ``fit`` must accept ``sample_weight`` unless
        ``reweight=False``; its scores are ``decision_function`` or ``predict_proba`` (``response_method``).
    metric : str or LinearFractionalMetric, default "f1"
        The metric to maximise (names as :func:`~lfverify.core.resolve_metric` reads them).
    cv : int >= 2, "oob", splitter or iterable of (train, test) index arrays, default 5
        The folds whose held-out scores choose the level and the threshold: an int is that many shuffled
        stratified folds (at most the smaller class's count), seeded by ``random_state``; "oob": the out-of-bag
        scores of a bagging learner (``bootstrap=True`` and an ``oob_score`` parameter, which is set to True on the
        clones; rows no member left out keep no score; scores on the ``predict_proba`` scale); otherwise as
        scikit-learn's ``cv`` (every row should be held out once: a row held out by no split keeps no score).
    max_level_iter : int >= 1, default 2
        Levels at most: the first at equal class weights, each later one at the Bayes level of the previous
        level's held-out metric.  Each level costs ``cv`` fits.
    tol : float >= 0, default 1e-3
        Stop when the held-out metric changes by at most ``tol`` between levels.
    reweight : bool, default True
        False: the threshold-only mode (one level, the learner's fit sees only the user's weights).
    response_method : {"auto", "decision_function", "predict_proba"}, default "auto"
        The scores thresholded ("auto": ``decision_function`` where the learner has it, else ``predict_proba``).
    class_weight : None, "balanced" or dict, default None
        Multiplies ``sample_weight`` as in scikit-learn; the metric's counts are weighted by the product too.
    pos_label : label or None, default None
        The class the metric calls positive (None: the larger of the two labels).
    random_state : None, int or numpy.random.SeedSequence, default None
        Seeds the folds, and the base learner's ``random_state`` where that is None.

    Attributes
    ----------
    estimator_ : classifier
        The base learner fitted on the whole sample at the kept level's weights.
    threshold_ : float
        The score above which ``pos_label_`` is predicted (exact best threshold of the kept level's held-out scores).
    class_weights_ : tuple of float
        (w(+1), w(-1)) of the kept level.
    level_history_ : tuple of float
        The pooled held-out metric of each level.
    classes_, pos_label_, metric_, n_features_in_ (and feature_names_in_ where the base learner sets them)

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from lfverify.learn import MetricOptimalClassifier
    >>> X, y = make_classification(n_samples=600, weights=[0.9], random_state=0)
    >>> model = MetricOptimalClassifier(DecisionTreeClassifier(max_depth=4), metric="f1",
    ...                                 random_state=0).fit(X, y)
    >>> len(model.level_history_) in (1, 2)
    True
    """

    def __init__(self, estimator, metric="f1", *, cv=5, max_level_iter=2, tol=1e-3, reweight=True,
                 response_method="auto", class_weight=None, pos_label=None, random_state=None):
        self.estimator = estimator
        self.metric = metric
        self.cv = cv
        self.max_level_iter = max_level_iter
        self.tol = tol
        self.reweight = reweight
        self.response_method = response_method
        self.class_weight = class_weight
        self.pos_label = pos_label
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        if isinstance(self.estimator, BaseEstimator):  # (anything else is refused by fit, by name)
            base = get_tags(self.estimator)
            tags.input_tags.sparse = base.input_tags.sparse
            tags.input_tags.allow_nan = base.input_tags.allow_nan
        return tags

    def __sklearn_is_fitted__(self):
        # fitted means a fitted base and its threshold: a fit that fails on the classes or in the base's fits has
        # set classes_, pos_label_ and metric_ already
        return hasattr(self, "estimator_") and hasattr(self, "threshold_")

    # ------------------------------------------------------------------ validation
    def _validated(self):
        """The checked settings: (metric, cv, max_level_iter, tol)."""
        if not (hasattr(self.estimator, "fit") and hasattr(self.estimator, "get_params")
                and is_classifier(self.estimator)):
            raise TypeError(f"estimator must be a scikit-learn classifier (its estimator type 'classifier'); got "
                            f"{type(self.estimator).__name__}")
        if not isinstance(self.reweight, (bool, np.bool_)):
            raise TypeError(f"reweight must be a bool; got {self.reweight!r}")
        if self.reweight and not has_fit_parameter(self.estimator, "sample_weight"):
            raise TypeError(f"estimator {type(self.estimator).__name__}'s fit takes no sample_weight, which the "
                            "Bayes-level weights need: use a learner whose fit accepts sample_weight, or "
                            "reweight=False (the threshold-only mode)")
        if isinstance(self.cv, str):
            self._check_out_of_bag()
        for name, value, low in (("cv", self.cv, 2), ("max_level_iter", self.max_level_iter, 1)):
            if name == "cv" and not isinstance(value, (bool, numbers.Integral)):
                continue  # "oob", a splitter or an iterable of splits (scikit-learn's cv), checked by check_cv
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, a splitter or an iterable of (train, test) "
                                 f"index arrays; got {value!r}" if name == "cv" else
                                 f"{name} must be an int >= {low}; got {value!r}")
        if self.response_method not in _RESPONSE_METHODS:
            raise ValueError(f"response_method must be one of {_RESPONSE_METHODS}; got {self.response_method!r}")
        _check_class_weight(self.class_weight)
        n_folds = int(self.cv) if isinstance(self.cv, numbers.Integral) else None
        return resolve_metric(self.metric), n_folds, int(self.max_level_iter), check_real(self.tol, "tol", low=0.0)

    def _check_out_of_bag(self):
        """cv="oob" needs a bagging learner (``bootstrap=True``, an ``oob_score`` parameter) and scores on the
        ``predict_proba`` scale, which the out-of-bag predictions are."""
        if self.cv != "oob":
            raise ValueError(f"cv must be an int >= 2, 'oob', a splitter or an iterable of (train, test) index "
                             f"arrays; got {self.cv!r}")
        params = self.estimator.get_params(deep=False)
        if "oob_score" not in params or params.get("bootstrap") is not True:
            raise ValueError(f"cv='oob' needs a bagging learner with bootstrap=True and an oob_score parameter (a "
                             f"random forest, BaggingClassifier); estimator {type(self.estimator).__name__} has "
                             f"bootstrap={params.get('bootstrap', 'absent')!r}, oob_score "
                             f"{'present' if 'oob_score' in params else 'absent'}: use an int cv instead")
        if self.response_method == "decision_function":
            raise ValueError("cv='oob' gives scores on the predict_proba scale (the out-of-bag class "
                             "probabilities); got response_method='decision_function': use 'auto' or "
                             "'predict_proba'")

    def _out_of_bag_scores(self, model):
        """The out-of-bag scores of ``pos_label_`` of a fitted bagging learner and the rows that have one (a row
        that every member drew has none: scikit-learn leaves its row of ``oob_decision_function_`` at zero for
        a forest, NaN for bagging)."""
        oob = np.asarray(model.oob_decision_function_, dtype=np.float64)
        rows = np.flatnonzero(np.isfinite(oob).all(axis=1) & (oob.sum(axis=1) > 0))
        return oob[rows, list(model.classes_).index(self.pos_label_)], rows

    def _scores_of(self, model, X) -> np.ndarray:
        """The fitted ``model``'s scores of ``pos_label_`` on X (larger = more positive)."""
        method = self.response_method
        if method == "auto":
            method = ("decision_function" if hasattr(model, "decision_function") and not _out_of_bag(self.cv)
                      else "predict_proba")
        if not hasattr(model, method):
            raise TypeError(f"estimator {type(model).__name__} has no {method}; choose response_method from the "
                            "methods it has")
        classes = list(model.classes_)
        if method == "predict_proba":
            scores = np.asarray(model.predict_proba(X), dtype=np.float64)[:, classes.index(self.pos_label_)]
        else:
            # scikit-learn orients decision_function toward classes_[1]; the same flip gives pos_label_'s score
            scores = oriented_scores(np.asarray(model.decision_function(X), dtype=np.float64).ravel(),
                                     classes, self.pos_label_)
        if not np.isfinite(scores).all():
            raise ValueError(f"estimator {type(model).__name__}'s {method} returned non-finite scores")
        return scores

    def _fit_clone(self, X, y, weights, fit_params, seed):
        model = clone(self.estimator)
        if "random_state" in model.get_params(deep=False) and model.get_params()["random_state"] is None:
            model.set_params(random_state=seed)
        if _out_of_bag(self.cv):
            model.set_params(oob_score=True)
        if weights is None:
            return model.fit(X, y, **fit_params)
        return model.fit(X, y, sample_weight=weights, **fit_params)

    # ------------------------------------------------------------------ fit
    def fit(self, X, y, sample_weight=None, **fit_params):
        """Fit the levels on cross-fitted folds, then the base learner on the whole sample at the kept level.

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
            Whatever the base learner accepts (passed to it unchanged, rows selected by the folds).
        y : array-like of shape (n_samples,) with exactly two distinct labels
        sample_weight : array-like of shape (n_samples,) or None
            Non-negative weights with a positive sum; multiplied by ``class_weight`` and the level's class weights
            in every fit, and weighting the counts of the metric that chooses the level and the threshold.
        **fit_params
            Further parameters of the base learner's ``fit``, routed to it with scikit-learn's metadata routing
            (``sklearn.set_config(enable_metadata_routing=True)`` and ``estimator.set_fit_request(...)``).

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A base learner that is not a classifier, or whose fit takes no ``sample_weight`` (with
            ``reweight=True``).
        ValueError
            y with other than two classes, a class with fewer than 2 samples, bad weights or settings.
        """
        metric, n_folds, max_level_iter, tol = self._validated()
        _raise_for_params(fit_params, self, "fit")
        routed = (process_routing(self, "fit", **fit_params).estimator.fit if _routing_enabled() else {})
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        X, y = indexable(X, y)
        y = column_or_1d(y, warn=True)
        if y.dtype.kind in "fc":
            assert_all_finite(y, input_name="y")
        check_consistent_length(X, y)
        check_classification_targets(y)
        classes, pos_label = binary_classes(y, self.pos_label)
        self.classes_, self.pos_label_, self.metric_ = classes, pos_label, metric
        user = combined_sample_weights(sample_weight, self.class_weight, classes, y)
        y_signed = np.where(y == pos_label, 1, -1).astype(np.int8)
        splits, base_seed = self._splits(y_signed, n_folds)
        n = _num_samples(X)
        levels = max_level_iter if self.reweight else 1
        class_weights, history, best = FIRST_WEIGHTS, [], None
        for step in range(levels):
            weights = self._level_weights(user, y_signed, class_weights if self.reweight else None, n)
            scores, rows, model = self._held_out_scores(X, y, weights=weights, routed=routed, splits=splits,
                                                         base_seed=base_seed)
            if np.unique(y_signed[rows]).size != 2:
                raise ValueError("cv: the held-out rows hold one class only; the metric's threshold needs both")
            choice = _best_threshold(scores, y_signed[rows], metric, reference=0.0,
                                     weights=None if user is None else user[rows])
            history.append(choice.value)
            if best is None or choice.value > best[0].value:
                best = (choice, class_weights, weights, model)
            if step > 0 and abs(history[-1] - history[-2]) <= tol:
                break
            try:
                class_weights = bayes_level_weights(metric, choice.value)
            except ValueError:  # delta(v) outside (0, 1) (e.g. v = 0 for F_1): no weighting reaches that level
                break
        choice, self.class_weights_, weights, model = best
        # out of bag, the kept level's fit is already on the whole sample at its weights
        self.estimator_ = model if model is not None else self._fit_clone(X, y, weights=weights, fit_params=routed,
                                                                          seed=base_seed)
        self.threshold_ = float(choice.threshold)
        self.level_history_ = tuple(history)
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
        return self

    def _held_out_scores(self, X, y, *, weights, routed, splits, base_seed):
        """One level's held-out scores, the rows they belong to, and the whole-sample fit where it is one
        (out of bag; else None): the folds' pooled held-out scores in the order of their held-out rows, or the
        out-of-bag scores of one fit on every row."""
        n = y.shape[0]
        if splits is None:
            model = self._fit_clone(X, y, weights=weights, fit_params=routed, seed=base_seed)
            scores, rows = self._out_of_bag_scores(model)
            return scores, rows, model
        pooled = []
        for train, held in splits:
            model = self._fit_clone(_safe_indexing(X, train), y[train],
                                    weights=None if weights is None else weights[train],
                                    fit_params=_rows(routed, train, n), seed=base_seed)
            pooled.append(self._scores_of(model, _safe_indexing(X, held)))
        return np.concatenate(pooled), np.concatenate([held for _, held in splits]), None

    def _splits(self, y_signed, n_folds):
        """The (train, held-out) index pairs of ``cv`` (``n_folds`` shuffled stratified folds, at most the smaller
        class's count, or the user's splitter / iterable; None out of bag) and the base learner's seed:
        (splits, base_seed)."""
        minority = _minority_count(y_signed)
        if minority < 2:
            raise ValueError(f"cv needs at least 2 samples of each class (one per held-out fold); the smaller class "
                             f"has {minority}")
        seq = as_seed_sequence(self.random_state, "random_state")
        base_seed = int_seed(child(seq, 1))
        if _out_of_bag(self.cv):
            return None, base_seed
        if n_folds is None:  # a splitter or an iterable of (train, test) index arrays, as scikit-learn's cv
            folds = check_cv(self.cv, y_signed, classifier=True)
        else:
            folds = StratifiedKFold(n_splits=min(n_folds, minority), shuffle=True,
                                    random_state=int_seed(child(seq, 0)))
        splits = list(folds.split(np.zeros((y_signed.shape[0], 1)), y_signed))
        if not splits:
            raise ValueError(f"cv gave no split; got {self.cv!r}")
        return splits, base_seed

    @staticmethod
    def _level_weights(user, y_signed, class_weights, n):
        """Per-sample weights of a level: the user's times the class weights, scaled to the user's total weight (n
        without user weights), so that a learner whose regularisation counts weights sees the sample size it would
        see unweighted, and a weight of k acts as k repeated rows.  Equal class weights (the first level) leave the
        user's weights as they are (None without them): the base learner's own fit, which for some learners is
        cheaper than a weighted one (scikit-learn's HistGradientBoostingClassifier bins by weighted percentiles when
        it is given weights; measured in FINDINGS.md)."""
        if class_weights is None or class_weights[0] == class_weights[1]:
            return user
        w = np.where(y_signed == 1, class_weights[0], class_weights[1])
        if user is not None:
            w = w * user
        return w * ((n if user is None else float(user.sum())) / w.sum())

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X):
        """The base learner's score of ``pos_label_`` minus ``threshold_`` (positive: ``pos_label_`` predicted),
        oriented toward ``classes_[1]`` as scikit-learn's convention asks."""
        check_is_fitted(self)
        return oriented_scores(self._scores_of(self.estimator_, X) - self.threshold_, self.classes_, self.pos_label_)

    def predict(self, X):
        """``pos_label_`` where the score exceeds ``threshold_``, the other class elsewhere."""
        check_is_fitted(self)
        return labels_from_scores(self._scores_of(self.estimator_, X) - self.threshold_, self.classes_,
                                  self.pos_label_)

    @available_if(_base_has("predict_proba"))
    def predict_proba(self, X):
        """The base learner's probabilities (not recalibrated to the threshold), where it has ``predict_proba``."""
        check_is_fitted(self)
        return self.estimator_.predict_proba(X)

    def score(self, X, y, sample_weight=None):
        """The chosen metric of ``predict(X)`` against ``y`` (as :meth:`LinearFractionalClassifier.score`)."""
        return metric_score(self.metric_, pos_label=self.pos_label_, classes=self.classes_, predicted=self.predict(X),
                            y=y, sample_weight=sample_weight)

    def get_metadata_routing(self):
        """The routing of ``fit``'s further parameters to the base learner's ``fit`` (scikit-learn's metadata
        routing; ``sample_weight`` is this estimator's own and reaches the base learner multiplied by the level)."""
        return (MetadataRouter(owner=self).add_self_request(self)
                .add(estimator=self.estimator, method_mapping=MethodMapping().add(callee="fit", caller="fit")))


def _out_of_bag(cv) -> bool:
    """cv is the string "oob" (an array of splits compares elementwise, hence the type test first)."""
    return isinstance(cv, str) and cv == "oob"


def _rows(params: dict, rows, n: int) -> dict:
    """The routed fit parameters restricted to ``rows`` where they hold one value per sample."""
    def per_sample(value) -> bool:
        try:
            return _num_samples(value) == n
        except TypeError:
            return False

    return {key: (_safe_indexing(value, rows) if per_sample(value) else value) for key, value in params.items()}
