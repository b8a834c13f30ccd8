"""Sample weights, class weights and honest options of LinearFractionalClassifier (issue 29).

Oracles: repeated rows (an integer weight k must act as the row repeated k times wherever nothing is drawn over
rows: the weighted risk, U_hat within its halves, the exact threshold, the cost-sensitive fit); removed rows (weight
0, exactly, for every configuration); the per-sample loop ``_reference_weighted_risk`` on the design with a column
of ones (for the intercept taken as a parameter); scikit-learn's definition of class_weight="balanced"; a spy on
the cost-sensitive loop for the kept iterate.

Private: lfverify.learn._cost_sensitive, for _reference_weighted_risk, the per-sample oracle of the weighted risk, and
its _best_threshold and _minimize, patched to trace the fit.
"""

import functools
import re
import warnings

import numpy as np
import pytest
from sklearn import config_context
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier, BaggingClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import lfverify.learn._cost_sensitive as cost_sensitive
from lfverify.core import EmpiricalSurrogateUtility, SampleSplit, f1, f_beta, jaccard, tau_logistic
from lfverify.learn import FitQualityWarning, LinearFractionalClassifier, WeightedSurrogateRisk, best_threshold
from lfverify.learn._cost_sensitive import _reference_weighted_risk

pytestmark = pytest.mark.claims("package:estimator")


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=240, n_features=5, n_informative=3, weights=[0.75], flip_y=0.05,
                               random_state=11)
    weights = np.random.default_rng(5).integers(0, 4, size=y.size)  # 0, 1, 2, 3: removed, kept, repeated
    return X, y, weights


def _repeat(X, y, weights):
    return np.repeat(X, weights, axis=0), np.repeat(y, weights)


# ---------------------------------------------------------------------- the pieces: risk, threshold, U_hat
def test_weighted_risk_with_an_intercept_parameter_equals_the_reference_on_repeated_rows(data):
    """Oracle: the per-sample loop on the repeated rows with a column of ones (penalty on the other columns).
    Agreement to 1e-12 relative: the two compute the same sums in another order (n = 240 terms of size ~1)."""
    X, y, w = data
    labels = np.where(y == 1, 1, -1)
    loss = tau_logistic(1.0)
    theta = np.linspace(-0.7, 0.9, X.shape[1] + 1)
    risk = WeightedSurrogateRisk(loss, X, labels, (0.3, 0.7), alpha=0.05, sample_weight=w, fit_intercept=True)
    Xr, yr = _repeat(X, labels, w)
    ones = np.hstack([Xr, np.ones((Xr.shape[0], 1))])
    mask = np.r_[np.ones(X.shape[1]), 0.0]
    value, gradient = _reference_weighted_risk(loss, ones, yr, (0.3, 0.7), theta, alpha=0.05, penalized=mask)
    got_value, got_gradient = risk.value_and_gradient(theta)
    assert got_value == pytest.approx(value, rel=1e-12)
    np.testing.assert_allclose(got_gradient, gradient, rtol=1e-12, atol=1e-14)
    # companion: the weights matter (the unweighted risk differs by far more than the tolerance)
    plain = WeightedSurrogateRisk(loss, X, labels, (0.3, 0.7), alpha=0.05, fit_intercept=True)
    assert abs(plain.value_and_gradient(theta)[0] - value) > 1e-3


@pytest.mark.parametrize("metric", [f1(), jaccard(), f_beta(2.0)])
def test_weighted_best_threshold_equals_the_choice_on_repeated_rows(data, metric):
    """Oracle: best_threshold on the rows repeated (weight 0: removed).  The metric values are equal exactly
    (integer weights give the same integer counts); the thresholds too where no row has weight 0 (a weight-0 row
    still offers its score as a place to cut, without changing any count)."""
    X, y, w = data
    scores = X @ np.array([1.0, -0.5, 0.3, 0.8, 0.1])
    weighted = best_threshold(scores, y, metric, sample_weight=w)
    repeated = best_threshold(np.repeat(scores, w), np.repeat(y, w), metric)
    assert weighted.value == repeated.value
    positive_weights = np.maximum(w, 1)
    assert best_threshold(scores, y, metric, sample_weight=positive_weights) == best_threshold(
        np.repeat(scores, positive_weights), np.repeat(y, positive_weights), metric)._replace(
        n_predicted_positive=best_threshold(scores, y, metric, sample_weight=positive_weights).n_predicted_positive)
    # companion: unweighted, the choice differs on this sample
    assert best_threshold(scores, y, metric).value != weighted.value


def test_weighted_U_hat_equals_U_hat_on_rows_repeated_within_their_half(data):
    """Oracle: Eq. (6) on the sample with row i repeated w_i times inside its own half (S_0 or S_1).  Agreement to
    1e-12 relative (the same means, summed in another order)."""
    X, y, w = data
    w = np.maximum(w, 1)  # U_hat's weights need not be integers; these are, for the oracle
    n = y.size
    first, second = np.arange(n // 2), np.arange(n // 2, n)
    objective = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y, split=SampleSplit(first, second),
                                          sample_weight=w)
    rows0, rows1 = np.repeat(first, w[first]), np.repeat(second, w[second])
    Xr, yr = X[np.r_[rows0, rows1]], y[np.r_[rows0, rows1]]
    repeated = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), Xr, yr,
                                         split=SampleSplit(np.arange(rows0.size), np.arange(rows0.size, yr.size)))
    thetas = np.random.default_rng(2).standard_normal((4, X.shape[1]))
    np.testing.assert_allclose(objective.value(thetas), repeated.value(thetas), rtol=1e-12)
    np.testing.assert_allclose(objective.gradient(thetas), repeated.gradient(thetas), rtol=1e-11, atol=1e-14)
    unweighted = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y, split=SampleSplit(first, second))
    assert np.abs(unweighted.value(thetas) - repeated.value(thetas)).max() > 1e-3  # companion
    with pytest.raises(ValueError, match="^sample_weight must give some weight to each half of Eq. \\(6\\); every "
                                         "sample of S_1 has weight 0$"):
        EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y, split=SampleSplit(first, second),
                                  sample_weight=np.r_[np.ones(first.size), np.zeros(second.size)])


# ---------------------------------------------------------------------- the estimator
def test_integer_weights_equal_repeated_rows_for_the_cost_sensitive_fit(data):
    """Oracle: the fit on the repeated rows.  Where nothing is drawn over rows (threshold_cv=None), the two fits
    minimise the same objective from the same start; L-BFGS-B sees sums in another order, so the decision values
    agree to 1e-9 (measured: 4e-15) and the predictions exactly."""
    X, y, w = data
    for metric in ("f1", "jaccard", "f0.5"):
        weighted = LinearFractionalClassifier(metric=metric, threshold_cv=None).fit(X, y, sample_weight=w)
        repeated = LinearFractionalClassifier(metric=metric, threshold_cv=None).fit(*_repeat(X, y, w))
        np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X), rtol=0, atol=1e-9)
        np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))
    plain = LinearFractionalClassifier(threshold_cv=None).fit(X, y)
    assert np.abs(plain.decision_function(X) - weighted.decision_function(X)).max() > 1e-3  # companion


@pytest.mark.parametrize("options", [{"random_state": 0}, {"threshold_cv": 3, "random_state": 4},
                                     {"objective": "surrogate-utility", "random_state": 1},
                                     {"objective": "surrogate-utility", "threshold": "zero", "init": "erm",
                                      "split": "first-half"}])
def test_zero_weights_equal_removed_rows_exactly(data, options):
    """Oracle: the fit without the weight-0 rows, for every objective (the rows are removed before the fit, so the
    random split and the folds are drawn over the same rows)."""
    X, y, w = data
    kept = w > 0
    weighted = LinearFractionalClassifier(**options).fit(X, y, sample_weight=kept.astype(float))
    removed = LinearFractionalClassifier(**options).fit(X[kept], y[kept])
    np.testing.assert_array_equal(weighted.coef_, removed.coef_)
    np.testing.assert_array_equal(weighted.intercept_, removed.intercept_)


@pytest.mark.parametrize("options", [{"random_state": 0}, {"objective": "surrogate-utility", "random_state": 0}])
def test_unit_weights_equal_no_weights_and_class_weight_equals_per_class_sample_weights(data, options):
    """Oracles: sample_weight of ones is the unweighted fit; class_weight={c: v_c} is sample_weight v_{y_i};
    class_weight="balanced" is n / (2 n_c), scikit-learn's definition, written out here."""
    X, y, _ = data
    base = LinearFractionalClassifier(**options).fit(X, y)
    ones = LinearFractionalClassifier(**options).fit(X, y, sample_weight=np.ones(y.size))
    np.testing.assert_array_equal(base.coef_, ones.coef_)
    np.testing.assert_array_equal(base.intercept_, ones.intercept_)
    by_class = LinearFractionalClassifier(class_weight={0: 1.0, 1: 3.0}, **options).fit(X, y)
    by_sample = LinearFractionalClassifier(**options).fit(X, y, sample_weight=np.where(y == 1, 3.0, 1.0))
    np.testing.assert_array_equal(by_class.coef_, by_sample.coef_)
    balanced = LinearFractionalClassifier(class_weight="balanced", **options).fit(X, y)
    counts = np.bincount(y)
    by_hand = LinearFractionalClassifier(**options).fit(X, y, sample_weight=y.size / (2.0 * counts[y]))
    np.testing.assert_allclose(balanced.coef_, by_hand.coef_, rtol=1e-12)
    assert not np.allclose(base.coef_, balanced.coef_, rtol=1e-3)  # companion: the weights act


def test_weights_reach_fit_through_metadata_routing_and_meta_estimators(data):
    """Metadata routing: a pipeline passes sample_weight to the classifier that requested it (the same fit as the
    direct call on the scaled data); AdaBoost and Bagging, which need sample_weight in fit, accept the
    classifier."""
    X, y, w = data
    with config_context(enable_metadata_routing=True):
        clf = LinearFractionalClassifier(threshold_cv=None).set_fit_request(sample_weight=True)
        pipe = make_pipeline(StandardScaler().set_fit_request(sample_weight=False), clf).fit(X, y, sample_weight=w)
    direct = LinearFractionalClassifier(threshold_cv=None).fit(StandardScaler().fit_transform(X), y, sample_weight=w)
    np.testing.assert_array_equal(pipe[-1].coef_, direct.coef_)
    boosted = AdaBoostClassifier(LinearFractionalClassifier(threshold_cv=None), n_estimators=3,
                                 random_state=0).fit(X, y)
    bagged = BaggingClassifier(LinearFractionalClassifier(threshold_cv=None), n_estimators=3, random_state=0).fit(X, y)
    assert boosted.score(X, y) > 0.7 and bagged.score(X, y) > 0.7


@pytest.mark.parametrize("sample_weight, match", [
    (-np.ones(240), r"^sample_weight must hold finite non-negative weights; got -1.0 at index 0$"),
    (np.ones(3), r"^sample_weight must have shape \(240,\) \(one weight per sample\); got shape \(3,\)$"),
    (np.zeros(240), r"^sample_weight must have a positive sum"),
    ("heavy", r"^sample_weight must be an array of real numbers; got str$"),
])
def test_bad_sample_weights_are_refused_by_name(data, sample_weight, match):
    X, y, _ = data
    with pytest.raises((ValueError, TypeError), match=match):
        LinearFractionalClassifier().fit(X, y, sample_weight=sample_weight)
    with pytest.raises(ValueError, match=r"^sample_weight gives weight 0 to every sample of class 1; both classes "):
        LinearFractionalClassifier().fit(X, y, sample_weight=(y == 0).astype(float))


# ---------------------------------------------------------------------- honest options
#: A value other than the default for every parameter that shapes the fit.  random_state is left out: it seeds
#: what is drawn (a random split, start or folds) and is documented to change nothing where nothing is drawn.
_OTHER_VALUES = {"threshold": "zero", "threshold_cv": 3, "tau": 0.5, "C": 0.01, "method": "gd",
                 "learning_rate": 1.0, "max_iter": 3, "max_phase1_iter": 0, "gtol": 0.5, "init": "random",
                 "fit_intercept": False, "pos_label": 0, "split": "first-half", "class_weight": {0: 1.0, 1: 4.0}}


@functools.lru_cache(maxsize=None)
def _options_problem(objective):
    """Data (d = 20, n = 120: n < 10 d, so folds are drawn; rows sorted by label, so Alg. 1's first phase has work
    to do from a random start) and the objective's base fit, computed once."""
    X, y = make_classification(n_samples=120, n_features=20, n_informative=5, weights=[0.7], random_state=3)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    base_options = {"objective": objective, "random_state": 0, "init": "random", "max_iter": 20}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return X, y, base_options, LinearFractionalClassifier(**base_options).fit(X, y)


@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
@pytest.mark.parametrize("name", sorted(_OTHER_VALUES))
def test_every_parameter_acts_under_each_objective_or_is_refused(name, objective):
    """Oracle: the default fit of the objective.  Setting a parameter either changes the fitted classifier or
    raises a ValueError that names it; a parameter that changes nothing silently (issue 29: C under the surrogate
    utility) fails this test."""
    X, y, base_options, base = _options_problem(objective)
    options = {**base_options, name: "zeros" if name == "init" else _OTHER_VALUES[name]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            other = LinearFractionalClassifier(**options).fit(X, y)
        except ValueError as error:
            assert str(error).startswith(name)
            return
    changed = (not np.array_equal(base.coef_, other.coef_) or base.intercept_[0] != other.intercept_[0]
               or not np.array_equal(base.predict(X), other.predict(X)))
    assert changed, f"{name}={options[name]!r} changed nothing under objective={objective!r}"


# ---------------------------------------------------------------------- fit quality
def test_a_collapsed_fit_warns_and_says_what_to_try():
    """The paper's configuration at a prior of 0.01 (Gaussian features, labels from a logistic model) predicts 98 %
    of the training samples positive, its training F_1 within 1 % of the all-positive classifier's: a
    FitQualityWarning says so, names both numbers and what to try.  Companion: the default fit of the same data
    does not warn."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20000, 20))
    z = X[:, :10] @ rng.standard_normal(10)
    y = (z - np.quantile(z, 0.99) + 0.3 * rng.logistic(size=z.size) > 0).astype(int)
    y[rng.random(y.size) < 0.05] ^= 1
    with pytest.warns(FitQualityWarning) as caught:
        LinearFractionalClassifier(objective="surrogate-utility", threshold="zero", random_state=0).fit(X, y)
    assert len(caught) == 1 and re.fullmatch(
        r"LinearFractionalClassifier: the training F_1 of the fit \(0\.1\d+\) is not 5% above that of predicting "
        r"every sample positive \(0\.1\d+\); try the defaults objective='cost-sensitive' with threshold='refit', "
        r"class_weight='balanced', or more iterations \(max_iter\)", str(caught[0].message))
    with warnings.catch_warnings():
        warnings.simplefilter("error", FitQualityWarning)
        LinearFractionalClassifier(random_state=0).fit(X, y)


def test_a_single_class_fit_warns():
    """Alg. 1 from a start its first phase cannot repair (S_0 without positives) ends predicting every training
    sample negative: the warning says so."""
    X, y = make_classification(n_samples=300, n_features=4, random_state=2)
    order = np.argsort(y, kind="stable")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        LinearFractionalClassifier(objective="surrogate-utility", threshold="zero", split="first-half",
                                   max_iter=3).fit(X[order], y[order])
    messages = [str(w.message) for w in caught if w.category is FitQualityWarning]
    assert messages == ["LinearFractionalClassifier: the fitted classifier predicts every training sample negative "
                        "(training F_1 0); try the defaults objective='cost-sensitive' with threshold='refit', "
                        "class_weight='balanced', or more iterations (max_iter)"]


def test_the_cost_sensitive_loop_keeps_its_best_fit_not_its_last(monkeypatch):
    """A spy makes the training metric fall after the first inner fit (0.6, 0.5, 0.4): the fit kept is the first,
    with its weights and theta; the history is reported in full."""
    X, y = make_classification(n_samples=200, n_features=4, random_state=1)
    labels = np.where(y == 1, 1, -1)
    values = iter([0.6, 0.5, 0.4])
    thetas = []
    real_best, real_minimize = cost_sensitive._best_threshold, cost_sensitive._minimize

    def falling(s, labels, metric, reference, weights=None):
        return real_best(s, labels, metric, reference=reference, weights=weights)._replace(value=next(values))

    def minimize_spy(risk, theta, max_iter, gtol):
        result = real_minimize(risk, theta, max_iter, gtol)
        thetas.append(result[0].copy())
        return result

    monkeypatch.setattr(cost_sensitive, "_best_threshold", falling)
    monkeypatch.setattr(cost_sensitive, "_minimize", minimize_spy)
    fit = cost_sensitive.fit_cost_sensitive(f1(), tau_logistic(1.0), X, labels, max_level_iter=3, tol=0.0)
    assert fit.utility_history == (0.6, 0.5, 0.4) and fit.selected == 0 and fit.train_utility == 0.6
    assert fit.weights == (0.5, 0.5)
    np.testing.assert_array_equal(fit.theta, thetas[0])
    assert not np.array_equal(thetas[0], thetas[-1])  # companion: the last fit is another one


def test_features_too_large_for_a_double_are_named_as_X():
    """Features near 1e155 and beyond make the risk's gradient overflow during L-BFGS-B: the error names X (the
    user's argument) and its magnitude, not the optimizer's internal theta.  Companion: X * 1e3 fits."""
    X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    with pytest.raises(ValueError, match=r"^X has entries up to 3\.8\de\+200 in magnitude: the surrogate risk or "
                                         r"its gradient overflows a double during the fit; rescale the features"):
        LinearFractionalClassifier().fit(X * 1e200, y)
    assert np.isfinite(LinearFractionalClassifier().fit(X * 1e3, y).coef_).all()


def test_the_fit_quality_warning_of_the_defaults_does_not_advise_the_defaults():
    """Labels independent of the features (no linear signal): the default fit ends at the all-positive classifier's
    level, and its warning says the features carry little signal instead of advising the defaults it already
    uses."""
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((400, 3)), (rng.random(400) < 0.5).astype(int)
    with pytest.warns(FitQualityWarning) as caught:
        LinearFractionalClassifier(random_state=0).fit(X, y)
    assert all(str(w.message).endswith("the features may carry little linear signal for this metric: try more or "
                                       "other features, or a non-linear model") for w in caught)
