"""MetricOptimalClassifier (lfverify/learn/_metric_optimal.py): the cost-sensitive remedy around any classifier.

Oracles: scikit-learn's own estimator checks (with scikit-learn's own expected failures for its
``TunedThresholdClassifierCV``, the same design); a spy base learner that records every fit's rows and weights, from
which the held-out scores are recomputed by hand and the threshold chosen by brute force over every cut
(:func:`lfverify.testing.oracles.best_threshold_by_brute_force`, O(n^2)); Prop. 5's threshold written out for F_1
(delta(U) = U / 2); the exact population metric of the testing kit's populations (``check_metric_classifier``).
"""

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import BaggingClassifier, HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from lfverify.core import f1
from lfverify.learn import MetricOptimalClassifier
from lfverify.testing import check_metric_classifier
from lfverify.testing.oracles import best_threshold_by_brute_force

pytestmark = pytest.mark.claims("package:estimator")

_THRESHOLD_NOT_HALF = ("predict thresholds the scores at the metric's best threshold, not predict_proba at 1/2 "
                       "(scikit-learn expects the same failure of its TunedThresholdClassifierCV)")


def _expected_failed_checks(estimator) -> dict[str, str]:
    if isinstance(estimator.estimator, LogisticRegression):
        failures = {"check_classifiers_train": _THRESHOLD_NOT_HALF}
    elif isinstance(estimator.estimator, RandomForestClassifier):
        # scikit-learn lists the first two for RandomForestClassifier itself (a bootstrap draw over rows: a weight
        # of k is not k repeated rows)
        failures = {name: "the random forest's own expected failure: sample_weight is not equivalent to "
                          "removing/repeating samples" for name in ("check_sample_weight_equivalence_on_dense_data",
                                                                      "check_sample_weight_equivalence_on_sparse_data")}
        failures["check_class_weight_classifiers"] = (
            "the check expects 87 % of class 0 predicted under class_weight {0: 1000, 1: 1e-4}; this estimator "
            "maximises the (weighted) metric on the out-of-bag scores, not accuracy")
        failures["check_classifiers_train"] = _THRESHOLD_NOT_HALF
    else:  # (the depth-3 tree's few distinct scores happen to put the threshold where 1/2 is)
        failures = {}
        failures["check_class_weight_classifiers"] = (
            "with class_weight {0: 1000, 1: 1e-4} the depth-3 tree gives every row the same score, and then "
            "predicting every row positive is what maximises the (weighted) Jaccard index: the metric, not the "
            "check's 87 % of class 0, is what this estimator maximises")
    return failures


@parametrize_with_checks(
    [MetricOptimalClassifier(LogisticRegression()),
     MetricOptimalClassifier(DecisionTreeClassifier(max_depth=3), metric="jaccard", cv=3, max_level_iter=3,
                             response_method="predict_proba", random_state=0),
     MetricOptimalClassifier(RandomForestClassifier(n_estimators=10), cv="oob", random_state=0)],
    expected_failed_checks=_expected_failed_checks,
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sklearn.exceptions.ConvergenceWarning)
        warnings.simplefilter("ignore", UserWarning)  # a 10-tree forest: "Some inputs do not have OOB scores"
        check(estimator)


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=500, n_features=5, n_informative=3, weights=[0.85], flip_y=0.05,
                               random_state=3)
    return X, y


class _Spy(LogisticRegression):
    """LogisticRegression that records the rows (by their first feature, unique here) and the weights of each fit."""

    fits: list = []

    def fit(self, X, y, sample_weight=None):
        _Spy.fits.append((np.asarray(X)[:, 0].copy(), None if sample_weight is None else sample_weight.copy()))
        return super().fit(X, y, sample_weight=sample_weight)


def test_levels_weights_and_threshold_follow_the_definition(data):
    """Each level's held-out scores, recomputed from the recorded fits, give the level's metric by brute force;
    the second level's class weights are Prop. 5's (1 - U/2, U/2) at the first level's F_1; the threshold kept is a
    brute-force best cut of the kept level's held-out scores."""
    X, y = data
    _Spy.fits = []
    model = MetricOptimalClassifier(_Spy(), metric="f1", cv=4, max_level_iter=3, tol=0.0, random_state=5).fit(X, y)
    fits = _Spy.fits
    levels = len(model.level_history_)
    assert len(fits) == 4 * levels + 1
    position = {v: i for i, v in enumerate(X[:, 0])}
    ys = np.where(y == 1, 1, -1)
    kept_scores = None
    for level in range(levels):
        held_scores, held_labels = [], []
        for rows_key, weights in fits[4 * level:4 * level + 4]:
            rows = np.array([position[v] for v in rows_key])
            held = np.setdiff1d(np.arange(y.size), rows)
            refit = LogisticRegression().fit(X[rows], y[rows], sample_weight=weights)
            held_scores.append(refit.decision_function(X[held]))
            held_labels.append(ys[held])
            # the level's class weights: equal at the first level (the base learner's own unweighted fit),
            # Prop. 5's for F_1 at the previous level's value
            if level == 0:
                assert weights is None
                continue
            ratio = weights[ys[rows] == -1][0] / weights[ys[rows] == 1][0]
            delta = model.level_history_[level - 1] / 2.0
            assert ratio == pytest.approx(delta / (1.0 - delta), rel=1e-12)
            # scaled so that the whole sample's weights sum to n (the unweighted total)
            whole = np.where(ys == 1, 1.0, ratio)
            np.testing.assert_allclose(weights, whole[rows] * (y.size / whole.sum()), rtol=1e-12)
        scores, labels = np.concatenate(held_scores), np.concatenate(held_labels)
        best, _ = best_threshold_by_brute_force(scores, labels, f1())
        assert model.level_history_[level] == pytest.approx(best, abs=1e-12)
        if level == int(np.argmax(model.level_history_)):
            kept_scores, kept_labels = scores, labels
    predicted = kept_scores > model.threshold_
    tp = np.count_nonzero(predicted & (kept_labels == 1))
    fp = np.count_nonzero(predicted & (kept_labels == -1))
    value = 2 * tp / (tp + fp + np.count_nonzero(kept_labels == 1))
    assert value == pytest.approx(max(model.level_history_), abs=1e-12)
    # the final fit is on every row, at the kept level's weights
    final_rows, final_weights = fits[-1]
    assert final_rows.size == y.size
    kept = int(np.argmax(model.level_history_))
    assert final_weights is None if kept == 0 else final_weights.sum() == pytest.approx(y.size, rel=1e-12)
    assert model.class_weights_ == ((0.5, 0.5) if kept == 0 else (1 - model.level_history_[kept - 1] / 2,
                                                                   model.level_history_[kept - 1] / 2))


def test_a_wrong_level_would_be_caught(data):
    """Companion: had the second level used accuracy's weights again, the recorded ratio would not be Prop. 5's."""
    X, y = data
    _Spy.fits = []
    model = MetricOptimalClassifier(_Spy(), metric="f1", cv=4, max_level_iter=2, tol=0.0, random_state=5).fit(X, y)
    rows_key, weights = _Spy.fits[4]
    ys = np.where(y == 1, 1, -1)[[list(X[:, 0]).index(v) for v in rows_key]]
    ratio = weights[ys == -1][0] / weights[ys == 1][0]
    delta = model.level_history_[0] / 2.0
    assert ratio != pytest.approx(1.0, abs=1e-3)
    assert ratio == pytest.approx(delta / (1 - delta), rel=1e-12)


@pytest.mark.parametrize("user", [False, True], ids=["no-user-weights", "user-weights"])
def test_the_first_level_is_the_base_learners_own_fit(data, user):
    """At equal class weights the base learner sees exactly the user's weights of its rows (None without them),
    not a rescaled copy; the second level sees them times Prop. 5's class weights.  Companion: the second level's
    weights differ from the user's, so a first level given the second's weights would fail the first assertion."""
    X, y = data
    weights = np.random.default_rng(4).uniform(0.5, 2.0, y.size) if user else None
    _Spy.fits = []
    MetricOptimalClassifier(_Spy(), metric="f1", cv=4, max_level_iter=2, tol=0.0,
                            random_state=5).fit(X, y, sample_weight=weights)
    position = {v: i for i, v in enumerate(X[:, 0])}
    for fold, (rows_key, seen) in enumerate(_Spy.fits[:8]):
        rows = np.array([position[v] for v in rows_key])
        if fold < 4:
            assert seen is None if not user else np.array_equal(seen, weights[rows])
        else:
            assert seen is not None and not np.allclose(seen, 1.0 if not user else weights[rows], rtol=1e-3)


def test_same_seed_same_model_and_pickle_round_trip(data):
    X, y = data
    base = HistGradientBoostingClassifier(max_iter=5)
    a = MetricOptimalClassifier(base, random_state=11).fit(X, y)
    b = MetricOptimalClassifier(base, random_state=11).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    c = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(c.predict(X), a.predict(X))
    assert clone(a).get_params()["estimator"].get_params() == base.get_params()


def test_pos_label_class_weight_and_pandas_input(data):
    X, y = data
    labels = np.where(y == 1, "yes", "no")
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    model = MetricOptimalClassifier(LogisticRegression(), metric="jaccard", pos_label="no", class_weight="balanced",
                                    random_state=0).fit(frame, labels)
    assert list(model.feature_names_in_) == list(frame.columns)
    predicted = model.predict(frame)
    assert set(predicted) <= {"yes", "no"}
    # decision_function is oriented toward classes_[1] = "yes": positive exactly where "yes" is predicted
    np.testing.assert_array_equal(model.decision_function(frame) > 0, predicted == "yes")
    assert model.score(frame, labels) == pytest.approx(
        np.sum((predicted == "no") & (labels == "no")) / np.sum((predicted == "no") | (labels == "no")), abs=1e-12)


def test_predict_proba_passes_through_where_the_base_has_it(data):
    X, y = data
    model = MetricOptimalClassifier(LogisticRegression(), random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.predict_proba(X), model.estimator_.predict_proba(X))
    from sklearn.svm import LinearSVC

    svc = MetricOptimalClassifier(LinearSVC(), random_state=0)
    assert not hasattr(svc, "predict_proba")


def test_a_learner_without_sample_weight_is_refused_with_both_ways_out(data):
    X, y = data
    with pytest.raises(TypeError, match=r"KNeighborsClassifier.*sample_weight.*reweight=False"):
        MetricOptimalClassifier(KNeighborsClassifier()).fit(X, y)
    model = MetricOptimalClassifier(KNeighborsClassifier(), reweight=False, random_state=0).fit(X, y)
    assert len(model.level_history_) == 1


@pytest.mark.parametrize("estimator, match", [(LinearRegression(), "must be a scikit-learn classifier"),
                                              ("logistic", "must be a scikit-learn classifier")])
def test_a_regressor_or_a_non_estimator_is_refused(data, estimator, match):
    with pytest.raises(TypeError, match=match):
        MetricOptimalClassifier(estimator).fit(*data)


def test_one_class_gives_the_linear_estimators_error(data):
    X, _ = data
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        MetricOptimalClassifier(LogisticRegression()).fit(X, np.zeros(X.shape[0]))


class _FailsToFit(LogisticRegression):
    """A base learner whose every fit raises (a user's learner refusing its data), for the state a failed fit leaves."""

    def fit(self, X, y, sample_weight=None):
        raise ValueError("this learner cannot fit")


@pytest.mark.parametrize("estimator, options", [(LogisticRegression(), {"class_weight": {5: 1.0}}),
                                                (_FailsToFit(), {})])
def test_a_failed_fit_leaves_an_unfitted_classifier(data, estimator, options):
    # Both fail after the labels are read (classes_, pos_label_ and metric_ are set); the oracle is what scikit-learn
    # asks of an estimator that is not fitted: NotFittedError from every prediction method, not an AttributeError.
    X, y = data
    model = MetricOptimalClassifier(estimator, **options)
    with pytest.raises(ValueError):
        model.fit(X, y)
    assert hasattr(model, "classes_") and not hasattr(model, "threshold_")  # the state the test is about
    for method in ("predict", "decision_function", "predict_proba"):
        with pytest.raises(NotFittedError):
            getattr(model, method)(X)


@pytest.mark.parametrize("options, match", [({"cv": 1}, "cv must be an int >= 2"),
                                            ({"max_level_iter": 0}, "max_level_iter must be an int >= 1"),
                                            ({"tol": -1.0}, "tol"),
                                            ({"response_method": "predict"}, "response_method must be one of")])
def test_bad_settings_are_refused_by_name(data, options, match):
    with pytest.raises(ValueError, match=match):
        MetricOptimalClassifier(LogisticRegression(), **options).fit(*data)


def test_a_custom_splitter_is_used(data):
    X, y = data
    _Spy.fits = []
    MetricOptimalClassifier(_Spy(), cv=KFold(3), max_level_iter=1).fit(X, y)
    first = _Spy.fits[0][0]
    np.testing.assert_array_equal(first, X[y.size // 3 + (y.size % 3 > 0):, 0])  # KFold(3)'s first training rows


class _NeedsGroups(LogisticRegression):
    seen: list = []

    def fit(self, X, y, sample_weight=None, groups=None):
        _NeedsGroups.seen.append(None if groups is None else np.asarray(groups).copy())
        return super().fit(X, y, sample_weight=sample_weight)


def test_further_fit_parameters_are_routed_to_the_base_learner_per_fold(data):
    X, y = data
    groups = np.arange(y.size)
    with sklearn.config_context(enable_metadata_routing=True):
        _NeedsGroups.seen = []
        base = _NeedsGroups().set_fit_request(groups=True, sample_weight=False)
        MetricOptimalClassifier(base, cv=4, max_level_iter=1, random_state=0).fit(X, y, groups=groups)
    sizes = [g.size for g in _NeedsGroups.seen]
    assert sizes[:4] == [375] * 4 and sizes[-1] == y.size  # each fold's rows, then every row
    with pytest.raises(ValueError, match="groups"):  # without routing, a further parameter is an error
        MetricOptimalClassifier(LogisticRegression()).fit(X, y, groups=groups)


@pytest.mark.parametrize("base", [
    pytest.param(LogisticRegression(), id="logistic"),
    # a tree ensemble through the whole kit takes minutes on 2 busy cores: CI's `-m slow` run (.ci/run) runs it
    pytest.param(HistGradientBoostingClassifier(min_samples_leaf=100, max_iter=50), id="hist-gradient-boosting",
                 marks=pytest.mark.slow)])
def test_the_testing_kit_passes(base):
    """Consistency on the kit's exact populations, label and order invariance, the input contract."""
    check_metric_classifier(MetricOptimalClassifier(base, random_state=0), metric="f1")


# ---------------------------------------------------------------------- cv="oob"
class _ForestSpy(RandomForestClassifier):
    """A random forest that records each fit's weights (one fit per level out of bag, no refit)."""

    fits: list = []

    def fit(self, X, y, sample_weight=None):
        _ForestSpy.fits.append(None if sample_weight is None else np.asarray(sample_weight).copy())
        return super().fit(X, y, sample_weight=sample_weight)


def _kept_oob_scores(model, y):
    """The kept fit's out-of-bag scores of the positive class (1) and their labels, recomputed from scikit-learn's
    ``oob_decision_function_`` by its documented rule: a row no tree left out has an all-zero (forest) or NaN
    (bagging) row, and no score."""
    oob = model.estimator_.oob_decision_function_
    has = np.isfinite(oob).all(axis=1) & (oob.sum(axis=1) > 0)
    return oob[has, 1], np.where(y[has] == 1, 1, -1), has


def test_out_of_bag_levels_fit_once_per_level_and_keep_that_fit(data):
    """cv="oob": one fit on every row per level (at equal weights, then Prop. 5's (1 - U/2, U/2) for F_1), no
    refit; the kept fit is estimator_ (oob_score switched on in the clone only), and threshold_ and the kept
    level's value are a brute-force best cut of its out-of-bag scores (oracle: best_threshold_by_brute_force)."""
    X, y = data
    _ForestSpy.fits = []
    base = _ForestSpy(n_estimators=25, min_samples_leaf=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: "Some inputs do not have OOB scores"
        model = MetricOptimalClassifier(base, metric="f1", cv="oob", max_level_iter=2, tol=0.0,
                                        random_state=2).fit(X, y)
    assert len(_ForestSpy.fits) == len(model.level_history_) == 2
    first, second = _ForestSpy.fits
    assert first is None  # equal class weights, no user weights: the forest's own unweighted fit
    ratio = second[y == 0][0] / second[y == 1][0]
    delta = model.level_history_[0] / 2.0
    assert ratio == pytest.approx(delta / (1 - delta), rel=1e-12)
    assert model.estimator_.oob_score and not base.oob_score
    scores, labels, has = _kept_oob_scores(model, y)
    assert np.count_nonzero(has) > 0.95 * y.size  # (a row in all 25 bootstraps has no out-of-bag score)
    best, _ = best_threshold_by_brute_force(scores, labels, f1())
    assert max(model.level_history_) == pytest.approx(best, abs=1e-12)
    predicted = scores > model.threshold_
    tp = np.count_nonzero(predicted & (labels == 1))
    assert 2 * tp / (np.count_nonzero(predicted) + np.count_nonzero(labels == 1)) == pytest.approx(best, abs=1e-12)
    np.testing.assert_array_equal(model.predict(X), np.where(model.estimator_.predict_proba(X)[:, 1]
                                                             > model.threshold_, 1, 0))


def test_rows_without_an_out_of_bag_score_are_left_out(data):
    """Two trees leave about 40 % of the rows in both bootstraps: those rows have no out-of-bag score, and the
    level's value is the best cut of the others only.  Companion: counting them with score 0 (scikit-learn's
    placeholder) gives another value, so the test can tell the two apart."""
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: "Some inputs do not have OOB scores"
        model = MetricOptimalClassifier(RandomForestClassifier(n_estimators=2), cv="oob", max_level_iter=1,
                                        random_state=0).fit(X, y)
    scores, labels, has = _kept_oob_scores(model, y)
    assert 0.2 * y.size < np.count_nonzero(~has) < 0.6 * y.size
    best, _ = best_threshold_by_brute_force(scores, labels, f1())
    assert model.level_history_[0] == pytest.approx(best, abs=1e-12)
    placeholder = model.estimator_.oob_decision_function_[:, 1]
    with_placeholders, _ = best_threshold_by_brute_force(placeholder, np.where(y == 1, 1, -1), f1())
    assert with_placeholders != pytest.approx(best, abs=1e-6)


def test_out_of_bag_with_bagging_rows_of_nan_and_the_same_seed():
    """BaggingClassifier marks rows without an out-of-bag score with NaN (scikit-learn's division by 0): they are
    left out, not an error; the same random_state gives the same model."""
    X, y = make_classification(n_samples=200, n_features=4, weights=[0.8], random_state=1)
    base = BaggingClassifier(DecisionTreeClassifier(max_depth=3), n_estimators=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: "Some inputs do not have OOB scores"
        warnings.simplefilter("ignore", RuntimeWarning)  # and its 0/0 for them
        a = MetricOptimalClassifier(base, cv="oob", random_state=4).fit(X, y)
        b = MetricOptimalClassifier(base, cv="oob", random_state=4).fit(X, y)
    assert np.isnan(a.estimator_.oob_decision_function_).any()
    scores, labels, _ = _kept_oob_scores(a, y)
    best, _ = best_threshold_by_brute_force(scores, labels, f1())
    assert max(a.level_history_) == pytest.approx(best, abs=1e-12)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


@pytest.mark.parametrize("estimator, options, match", [
    (HistGradientBoostingClassifier(), {}, r"cv='oob' needs a bagging learner.*HistGradientBoostingClassifier.*"
                                           r"bootstrap='absent', oob_score absent"),
    (RandomForestClassifier(bootstrap=False), {}, r"RandomForestClassifier has bootstrap=False"),
    (RandomForestClassifier(), {"response_method": "decision_function"}, r"predict_proba scale.*decision_function"),
])
def test_out_of_bag_without_a_bagging_learner_is_refused_by_name(data, estimator, options, match):
    with pytest.raises(ValueError, match=match):
        MetricOptimalClassifier(estimator, cv="oob", **options).fit(*data)


def test_another_string_for_cv_is_refused(data):
    with pytest.raises(ValueError, match=r"cv must be an int >= 2, 'oob'.*got 'bag'"):
        MetricOptimalClassifier(RandomForestClassifier(), cv="bag").fit(*data)
