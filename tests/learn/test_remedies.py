"""The remedies beyond the paper: the cost-sensitive objective (lfverify/learn/_cost_sensitive.py) and the threshold
refit of LinearFractionalClassifier (lfverify/learn/_estimator.py, lfverify/learn/_thresholds.py), and sparse input.

Oracles: the per-sample loop ``_reference_weighted_risk`` and central finite differences for the objective;
scikit-learn's ``LogisticRegression(class_weight, C)``, which minimises the same weighted risk (the natural log
scales the loss by ln 2, which C = 1 / (alpha n ln 2) absorbs); Prop. 5's threshold delta(U) written out per family
(F_beta: U / (1 + beta^2), Jaccard: U / (1 + U)); brute force over all thresholds (``reference_best_threshold``);
the exact population metric of a linear classifier on Gaussian classes (``GaussianPopulation.utility``); spies that
record what each step of a fit receives; the dense computation for the sparse one.

Private: lfverify.learn._cost_sensitive (its per-sample oracle _reference_weighted_risk, and its fold risks and
minimiser, patched) and lfverify.learn._estimator, patched where the remedies' fit looks up its thresholds and starting
point.
"""

import math
import re
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import FixedThresholdClassifier, TunedThresholdClassifierCV

import lfverify.learn._cost_sensitive as cost_sensitive
import lfverify.learn._estimator as estimator_module
from lfverify.core import EmpiricalSurrogateUtility, GaussianPopulation, accuracy, f1, f_beta, jaccard, tau_logistic
from lfverify.learn import (
    LinearFractionalClassifier,
    WeightedSurrogateRisk,
    bayes_level_weights,
    fit_at_weights,
    fit_cost_sensitive,
    reference_best_threshold,
)
from lfverify.learn._cost_sensitive import _reference_weighted_risk

pytestmark = pytest.mark.claims("package:estimator")

PAPER = {"objective": "surrogate-utility", "threshold": "zero"}


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=300, n_features=5, n_informative=3, weights=[0.75], flip_y=0.05,
                               random_state=3)
    return X, np.where(y == 1, 1, -1)


def _with_ones(X):
    return np.hstack([X, np.ones((X.shape[0], 1))])


# ---------------------------------------------------------------------- the weighted surrogate risk
def test_weighted_risk_equals_the_per_sample_loop_and_finite_differences(data):
    X, y = data
    Z = _with_ones(X)
    mask = np.r_[np.ones(X.shape[1], bool), False]
    risk = WeightedSurrogateRisk(tau_logistic(1.0), Z, y, (0.7, 0.3), alpha=0.05, penalized=mask)
    theta = np.random.default_rng(0).standard_normal(Z.shape[1]) * 0.5
    value, gradient = risk.value_and_gradient(theta)
    ref_value, ref_gradient = _reference_weighted_risk(tau_logistic(1.0), Z, y, (0.7, 0.3), theta, alpha=0.05,
                                                       penalized=mask)
    assert value == pytest.approx(ref_value, rel=1e-12, abs=0)  # summation order only
    np.testing.assert_allclose(gradient, ref_gradient, rtol=1e-11, atol=1e-14)
    # central differences: truncation error O(h^2 |f'''|) ~ 1e-10 at h = 1e-5 (|f'''| = O(1) for the smooth loss),
    # rounding O(eps |f| / h) ~ 1e-11; 1e-7 leaves two orders of margin and still catches a dropped term (>= 1e-3).
    h = 1e-5
    for k in range(Z.shape[1]):
        step = np.zeros_like(theta)
        step[k] = h
        fd = (risk.value_and_gradient(theta + step)[0] - risk.value_and_gradient(theta - step)[0]) / (2 * h)
        assert fd == pytest.approx(gradient[k], abs=1e-7)
    # the intercept (unpenalised) and a weight (penalised) react differently to alpha
    bare = WeightedSurrogateRisk(tau_logistic(1.0), Z, y, (0.7, 0.3), alpha=0.0).value_and_gradient(theta)[1]
    np.testing.assert_allclose(gradient - bare, 0.05 * mask * theta, rtol=1e-12, atol=1e-15)


def test_inner_fit_is_scikit_learns_weighted_logistic_regression(data):
    """Oracle: LogisticRegression(C, class_weight) minimises C sum_i s_i ln(1 + e^{-m_i}) + |w|^2 / 2, i.e. the same
    weighted risk (sample weights normalised to mean 1) with the penalty 1 / (C n ln 2) in bits.  Both solvers run
    to a projected gradient of 1e-10 / a tol of 1e-12; the risk is strongly convex with modulus >= alpha =
    1 / (n ln 2) = 4.8e-3, so each solution is within 1e-10 / alpha = 2e-8 of the minimiser: 1e-6 is safe."""
    X, y = data
    w_pos, w_neg = 0.62, 0.38
    theta, _, ok = fit_at_weights(tau_logistic(1.0), _with_ones(X), y, (w_pos, w_neg), C=1.0, gtol=1e-10,
                                  max_iter=10_000)
    assert ok
    n_pos, n_neg = np.count_nonzero(y == 1), np.count_nonzero(y == -1)
    scale = y.size / (w_pos * n_pos + w_neg * n_neg)  # mean sample weight 1
    lr = LogisticRegression(C=1.0, class_weight={1: w_pos * scale, -1: w_neg * scale}, tol=1e-12,
                            max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(theta[:-1], lr.coef_[0], rtol=0, atol=1e-6)
    assert theta[-1] == pytest.approx(lr.intercept_[0], abs=1e-6)
    # C really is LogisticRegression's C: another C gives another solution, matched again
    theta_c, _, _ = fit_at_weights(tau_logistic(1.0), _with_ones(X), y, (w_pos, w_neg), C=0.05, gtol=1e-10,
                                   max_iter=10_000)
    lr_c = LogisticRegression(C=0.05, class_weight={1: w_pos * scale, -1: w_neg * scale}, tol=1e-12,
                              max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(theta_c[:-1], lr_c.coef_[0], rtol=0, atol=1e-6)
    assert np.max(np.abs(theta_c - theta)) > 0.05


@pytest.mark.parametrize("metric, delta_of", [
    (f1(), lambda u: u / 2), (f_beta(2.0), lambda u: u / 5), (jaccard(), lambda u: u / (1 + u)),
    (accuracy(), lambda u: 0.5)])
@pytest.mark.parametrize("utility", [0.05, 0.4, 0.9])
def test_bayes_level_weights_put_the_boundary_at_props_5_threshold(metric, delta_of, utility):
    """The weighted risk's pointwise derivative at f = 0 is phi'(0) (eta w+ - (1 - eta) w-) (phi differentiable),
    zero exactly at eta = w- / (w+ + w-), which must be Prop. 5's delta(U) (written out per family)."""
    w_pos, w_neg = bayes_level_weights(metric, utility)
    assert w_pos + w_neg == pytest.approx(1.0, rel=1e-15)
    assert w_neg / (w_pos + w_neg) == pytest.approx(delta_of(utility), rel=1e-14)
    loss = tau_logistic(1.0)
    for eta, sign in ((delta_of(utility) * 0.999, 1.0), (min(delta_of(utility) * 1.001, 0.9999), -1.0)):
        # d/df [eta w+ phi(f) + (1 - eta) w- phi(-f)] at 0: positive below delta (minimiser < 0), negative above
        slope = eta * w_pos * loss.derivative(0.0) - (1 - eta) * w_neg * loss.derivative(0.0)
        assert np.sign(slope) == sign


def test_bayes_level_weights_refuse_a_threshold_outside_the_unit_interval():
    with pytest.raises(ValueError, match="outside"):
        bayes_level_weights(jaccard(), 0.0)  # delta = 0: the negatives would carry no weight


def test_cost_sensitive_path_equal_weights_then_the_bayes_level_of_each_fit(data, monkeypatch):
    """A spy on the inner fits: the first weighs the classes equally, each later one uses bayes_level_weights of
    the training metric (after the exact threshold) of the previous fit, starts from its solution, the loop
    stops once the metric moves by <= tol, and the fit kept is the one with the best training metric (the
    earliest of equals)."""
    X, y = data
    calls = []
    original_risk, original_minimize = cost_sensitive._risk, cost_sensitive._minimize

    def risk_spy(loss, X, labels, weights, *, C, fit_intercept_column, sample_weight, fit_intercept):
        calls.append({"weights": weights})
        return original_risk(loss, X, labels, weights, C=C, fit_intercept_column=fit_intercept_column,
                             sample_weight=sample_weight, fit_intercept=fit_intercept)

    def minimize_spy(risk, theta, max_iter, gtol):
        start = np.array(theta)  # the inner fit may reuse the array
        result = original_minimize(risk, theta, max_iter, gtol)
        calls[-1].update(theta0=start, theta=result[0])
        return result

    monkeypatch.setattr(cost_sensitive, "_risk", risk_spy)
    monkeypatch.setattr(cost_sensitive, "_minimize", minimize_spy)
    Z = _with_ones(X)
    fit = fit_cost_sensitive(f1(), tau_logistic(1.0), Z, y, max_level_iter=6, tol=1e-12)
    assert calls[0]["weights"] == (0.5, 0.5) and np.all(calls[0]["theta0"] == 0)
    for k in range(1, len(calls)):
        previous = calls[k - 1]["theta"]
        value = reference_best_threshold(Z @ previous, y, f1())[0]  # brute-force training metric of fit k - 1
        assert calls[k]["weights"] == pytest.approx(bayes_level_weights(f1(), value), rel=1e-14)
        np.testing.assert_array_equal(calls[k]["theta0"], previous)
        assert fit.utility_history[k - 1] == value
    assert len(calls) == len(fit.utility_history) == len(fit.inner_iterations)
    kept = int(np.argmax(fit.utility_history))  # the first maximum
    assert fit.selected == kept and fit.weights == calls[kept]["weights"]
    np.testing.assert_array_equal(fit.theta, calls[kept]["theta"])
    assert fit.train_utility == max(fit.utility_history) == reference_best_threshold(Z @ fit.theta, y, f1())[0]
    if fit.converged:
        assert abs(fit.utility_history[-1] - fit.utility_history[-2]) <= 1e-12
    else:
        assert len(calls) == 6
    # max_level_iter = 1 is the plain, equally weighted fit
    once = fit_cost_sensitive(f1(), tau_logistic(1.0), Z, y, max_level_iter=1)
    assert len(once.utility_history) == 1 and once.weights == (0.5, 0.5) and not once.converged


@pytest.mark.parametrize("start", ["zeros", "given"])
def test_cost_sensitive_first_inner_fit_starts_at_theta0(data, monkeypatch, start):
    """theta0 is the first inner fit's start (zeros when None), passed on as given and not modified in the
    caller's array (oracle: a spy on the minimiser's start).  Companion: the two starts differ, so a fit that
    ignored theta0 would start at zeros in the "given" case and fail."""
    X, y = data
    Z = _with_ones(X)
    starts, original = [], cost_sensitive._minimize

    def minimize_spy(risk, theta, max_iter, gtol):
        starts.append(np.array(theta))
        return original(risk, theta, max_iter, gtol)

    monkeypatch.setattr(cost_sensitive, "_minimize", minimize_spy)
    theta0 = None if start == "zeros" else np.linspace(-0.3, 0.4, Z.shape[1])
    kept = None if theta0 is None else theta0.copy()
    fit_cost_sensitive(f1(), tau_logistic(1.0), Z, y, max_level_iter=1, theta0=theta0)
    expected = np.zeros(Z.shape[1]) if theta0 is None else kept
    assert len(starts) == 1 and np.array_equal(starts[0], expected)
    assert theta0 is None or np.array_equal(theta0, kept)
    assert not np.array_equal(np.zeros(Z.shape[1]), np.linspace(-0.3, 0.4, Z.shape[1]))


# ---------------------------------------------------------------------- the estimator's threshold
@pytest.mark.parametrize("options", [{}, {"objective": "surrogate-utility"}, {"metric": "jaccard", "C": 0.2},
                                     {"objective": "surrogate-utility", "metric": "f2", "method": "gd"}])
def test_refit_threshold_is_the_exact_best_on_the_training_sample(data, options):
    """The refit shifts the intercept by the threshold whose training metric is the brute-force maximum over every
    threshold of the unshifted scores (threshold_cv=None: the sample, 75 negatives for d = 5, is one where "auto"
    would cross-fit the cost-sensitive objective's threshold)."""
    X, y = data
    clf = LinearFractionalClassifier(random_state=0, max_iter=30, threshold_cv=None, **options).fit(X, y)
    unshifted = X @ clf.coef_[0] + clf.intercept_[0] + clf.threshold_
    best, maximisers = reference_best_threshold(unshifted, y, clf.metric_)
    assert clf.score(X, y) == best
    assert tuple(np.where(clf.predict(X) == 1, 1, -1)) in maximisers
    zero = LinearFractionalClassifier(random_state=0, max_iter=30, threshold="zero", **options).fit(X, y)
    np.testing.assert_array_equal(zero.coef_, clf.coef_)  # the direction does not depend on the threshold
    # intercept_ = b - threshold_, so adding threshold_ back recovers b up to one rounding of the sum
    assert zero.threshold_ == 0.0 and zero.intercept_[0] == pytest.approx(clf.intercept_[0] + clf.threshold_,
                                                                         rel=4e-16, abs=1e-300)
    assert clf.score(X, y) >= zero.score(X, y)


def _fold_problem(n=700, d=4, folds=5, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + rng.standard_normal(n) > 0.8, 1, -1)
    fold_of = rng.integers(0, folds, n).astype(np.uint8)
    return X, y, fold_of


@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("intercept", [False, True])
def test_the_folds_stacked_risk_is_the_sum_of_each_folds_weighted_risk(form, weighted, intercept):
    """Oracle: :class:`WeightedSurrogateRisk` of each fold (sample weight 0 on its held-out rows, times the caller's
    weights; the penalty counted on its other rows), itself checked against the per-sample loop; the stacked
    objective is their sum and its gradient theirs side by side, to 1e-12, over 3 blocks of rows (n = 700, at least
    256 rows a block).  Companion: a fold's rows moved to another fold changes both."""
    X, y, fold_of = _fold_problem()
    sample_weight = np.random.default_rng(4).uniform(0.0, 3.0, y.size) if weighted else None
    Z = sparse.csr_matrix(np.where(np.abs(X) > 0.7, X, 0.0)) if form == "csr" else X
    loss, weights, C = tau_logistic(0.6), (0.3, 0.7), 0.4
    p = X.shape[1] + int(intercept)
    thetas = np.random.default_rng(5).standard_normal((5, p))
    risk = cost_sensitive._FoldRisks(loss, Z, y, weights, C, False, fold_of, 5, sample_weight, intercept)
    assert risk._rows == 256  # 3 blocks
    value, gradient = risk._value_and_gradient(thetas.ravel())
    expected_value, expected_gradient = 0.0, []
    for k in range(5):
        in_fold = np.where(fold_of == k, 0.0, 1.0 if sample_weight is None else sample_weight)
        one = cost_sensitive._risk(loss, Z, y, weights, C, False, in_fold, intercept)
        v, g = one.value_and_gradient(thetas[k])
        expected_value += v
        expected_gradient.append(g)
    assert value == pytest.approx(expected_value, rel=1e-12)
    np.testing.assert_allclose(gradient.reshape(5, p), np.array(expected_gradient), rtol=1e-12, atol=1e-15)
    moved = fold_of.copy()
    moved[fold_of == 0] = 1
    other = cost_sensitive._FoldRisks(loss, Z, y, weights, C, False, moved, 5, sample_weight, intercept)
    assert abs(other._value_and_gradient(thetas.ravel())[0] - value) > 1e-6


def test_the_folds_fitted_as_one_problem_are_each_folds_own_minimiser():
    """Oracle: each fold's own fit (:func:`_fit_at_weights` with weight 0 on its held-out rows, to gtol 1e-10): the
    joint fit at gtol 1e-6 stops with every fold's own gradient within 1e-6 (the joint gradient test covers each
    fold's components), so each fold is within 1e-6 / (its risk's curvature) of its minimiser (measured 2.1e-6).
    Companion: the joint fit from the same starts with max_iter = 1 is not within 1e-3 of them."""
    X, y, fold_of = _fold_problem(n=400, d=3)
    loss, weights = tau_logistic(1.0), (0.5, 0.5)
    starts = np.zeros((5, X.shape[1] + 1))
    joint = cost_sensitive._fit_folds_at_weights(loss, X, y, weights, 1.0, False, 500, 1e-6, starts, fold_of,
                                                 None, True, joint=True)
    alone = []
    for k in range(5):
        in_fold = fold_of != k
        alone.append(cost_sensitive._fit_at_weights(loss, X, y, weights, 1.0, False, 500, 1e-10, starts[k].copy(),
                                                    in_fold, True)[0])
        _, g = cost_sensitive._risk(loss, X, y, weights, 1.0, False, in_fold, True).value_and_gradient(joint[k])
        assert np.abs(g).max() <= 1e-6
    np.testing.assert_allclose(joint, np.array(alone), atol=2e-5)  # measured 2.1e-6
    early = cost_sensitive._fit_folds_at_weights(loss, X, y, weights, 1.0, False, 1, 1e-6, starts, fold_of, None,
                                                 True, joint=True)
    assert np.abs(early - np.array(alone)).max() > 1e-3


def test_the_folds_fitted_one_by_one_are_each_folds_own_fit_exactly():
    """Oracle: :func:`_fit_at_weights` per fold (weight 0 on its held-out rows, times the sample weights), bit for
    bit - the path where the joint fit does not pay, chosen by default on this small X."""
    X, y, fold_of = _fold_problem(n=300, d=3)
    sample_weight = np.random.default_rng(6).uniform(0.5, 2.0, y.size)
    loss, weights = tau_logistic(1.0), (0.4, 0.6)
    starts = np.random.default_rng(7).standard_normal((5, X.shape[1]))
    assert not cost_sensitive._joint_fold_fit_pays(X, X.shape[1])
    folds = cost_sensitive._fit_folds_at_weights(loss, X, y, weights, 0.7, True, 50, 1e-5, starts, fold_of,
                                                 sample_weight, False)
    for k in range(5):
        alone = cost_sensitive._fit_at_weights(loss, X, y, weights, 0.7, True, 50, 1e-5, starts[k].copy(),
                                               np.where(fold_of == k, 0.0, sample_weight), False)[0]
        np.testing.assert_array_equal(folds[k], alone)


@pytest.mark.parametrize("shape, order, kind, pays", [
    ((20_000, 105), "C", "dense", True),     # 16.8 MB, n >= 20 (d + 1)
    ((20_000, 100), "C", "dense", False),    # 16.0 MB: just under 16 MiB
    ((20_000, 105), "F", "dense", False),    # Fortran-ordered: a block of rows is not a contiguous slice
    ((20_000, 105), "C", "csr", False),      # sparse
    ((2_000, 1_100), "C", "dense", False),   # 17.6 MB but n < 20 (d + 1): the joint L-BFGS memory would dominate
])
def test_the_joint_fold_fit_is_chosen_for_large_dense_c_ordered_x_only(shape, order, kind, pays):
    """Oracle: the documented rule of :func:`_joint_fold_fit_pays` (dense C-ordered X of at least 16 MiB and
    n >= 20 n_params), on each side of each boundary."""
    X = np.zeros(shape, order=order)
    if kind == "csr":
        X = sparse.csr_matrix((shape[0], shape[1]))
    assert cost_sensitive._joint_fold_fit_pays(X, shape[1] + 1) is pays


def test_the_estimator_fits_large_dense_folds_as_one_problem(monkeypatch):
    """On X of 16.8 MB in the few-samples regime (20,000 x 105, 1,000 positives: fewer than 20 per feature) the
    estimator's folds go through :class:`_FoldRisks` once, and the fitted classifier is the one-by-one folds'
    within the slack of the folds' gradient test (10 x gtol = 1e-3): coefficients within 1e-3, predictions equal
    on at least 99 % of the rows.  Oracle: the same fit with the joint path switched off."""
    rng = np.random.default_rng(8)
    X = rng.standard_normal((20_000, 105))
    y = np.where(X[:, :5].sum(axis=1) + rng.logistic(size=20_000) > 4.6, 1, 0)
    built = []
    original = cost_sensitive._FoldRisks.__init__
    monkeypatch.setattr(cost_sensitive._FoldRisks, "__init__",
                        lambda self, *args, **kwargs: built.append(kwargs["n_folds"])
                        or original(self, *args, **kwargs))
    joint = LinearFractionalClassifier(random_state=0).fit(X, y)
    assert joint.threshold_cv_ == 5 and built == [5]
    monkeypatch.setattr(cost_sensitive, "_JOINT_MIN_BYTES", 2**62)
    alone = LinearFractionalClassifier(random_state=0).fit(X, y)
    assert built == [5]
    np.testing.assert_allclose(joint.coef_, alone.coef_, atol=1e-3)  # measured 5.0e-4 (coefficients up to 1.0)
    assert np.mean(joint.predict(X) == alone.predict(X)) >= 0.99  # measured 0.9997


def test_threshold_cv_fits_each_fold_without_its_held_out_rows(data, monkeypatch):
    """Spies: with threshold_cv = 4, four fold fits each give weight to n - |fold| rows (weight 0 on the held-out
    fold, whose rows together cover the sample once) and start from the initial theta (zeros), not from the final
    one, which has seen the held-out rows (that start leaked them into the fold models: on sparse features a weight
    seen only in held-out rows stayed where the whole-sample fit put it); the final threshold is the brute-force
    best threshold of the pooled held-out scores (their metric at threshold_ is the maximum over every
    threshold)."""
    X, y = data
    held_out, pooled, fold_starts = [], [], []
    original_fit = estimator_module._fit_folds_at_weights
    original_best = estimator_module._best_threshold

    def fit_spy(loss, Z, labels, weights, *, C, fit_intercept_column, max_iter, gtol, starts, fold_of, sample_weight,
                fit_intercept):
        assert Z is not None and Z.shape == X.shape  # the whole X, not a copy of the fold's rows
        held_out.extend(np.flatnonzero(fold_of == k) for k in range(starts.shape[0]))
        fold_starts.extend(starts.copy())
        return original_fit(loss, Z, labels, weights, C=C, fit_intercept_column=fit_intercept_column, max_iter=max_iter,
                            gtol=gtol, starts=starts, fold_of=fold_of, sample_weight=sample_weight,
                            fit_intercept=fit_intercept)

    def best_spy(scores, labels, metric, reference, weights=None):
        pooled.append((scores.copy(), labels.copy()))
        return original_best(scores, labels, metric, reference, weights)

    monkeypatch.setattr(estimator_module, "_fit_folds_at_weights", fit_spy)
    monkeypatch.setattr(estimator_module, "_best_threshold", best_spy)
    clf = LinearFractionalClassifier(threshold_cv=4, random_state=0).fit(X, y)
    assert [rows.size for rows in held_out] == [75] * 4
    np.testing.assert_array_equal(np.array(fold_starts), np.zeros((4, X.shape[1] + 1)))
    assert np.abs(clf.coef_).max() > 0.1  # companion: the final theta is far from the start
    np.testing.assert_array_equal(np.sort(np.concatenate(held_out)), np.arange(X.shape[0]))
    assert len(pooled) == 1 and pooled[0][0].size == X.shape[0]
    scores, labels = pooled[0]
    best, _ = reference_best_threshold(scores, labels, clf.metric_)
    assert clf.metric_.score(labels, np.where(scores > clf.threshold_, 1, -1)) == best


# ---------------------------------------------------------------------- the remedy on a planted mis-offset problem
def _population(prior):
    return GaussianPopulation([1.0, 0.5], [-0.2, 0.0], [[1.0, 0.3], [0.3, 1.0]], prior)


@pytest.mark.parametrize("seed", range(4))
def test_refit_recovers_the_metric_on_a_planted_mis_offset_problem(seed):
    """Gaussian classes with prior 0.1: the paper's estimator (Alg. 1, threshold 0) predicts far too many positives
    (the offset of its maximiser is not the Bayes one); the refit threshold brings the *exact* population F_1 of
    the fitted classifier within 0.02 of U-dagger and raises it by more than 0.05.  Oracle: the closed-form
    population utility of a linear classifier (GaussianPopulation.utility), no Monte Carlo."""
    population = _population(0.1)
    X, y = population.sample(4000, seed=seed)
    X = X[:, :2]
    paper = LinearFractionalClassifier(**PAPER, random_state=seed).fit(X, y)
    refit = LinearFractionalClassifier(objective="surrogate-utility", random_state=seed).fit(X, y)
    remedy = LinearFractionalClassifier(random_state=seed).fit(X, y)

    def exact_f1(clf):
        return float(population.utility(f1(), np.append(clf.coef_[0], clf.intercept_[0])))

    bayes = population.bayes_optimal_utility(f1())
    assert exact_f1(refit) > exact_f1(paper) + 0.05
    assert exact_f1(refit) > bayes - 0.02 and exact_f1(remedy) > bayes - 0.02


def test_the_planted_problem_is_what_makes_the_difference():
    """Control (the deliberately wrong input): for accuracy on balanced classes the paper's threshold 0 is already
    right (tau = 1, Prop. 8), so the refit moves the exact population accuracy by less than 0.01, far below the
    0.05 the mis-offset test demands."""
    population = _population(0.5)
    X, y = population.sample(4000, seed=0)
    X = X[:, :2]
    paper = LinearFractionalClassifier(**PAPER, metric="accuracy", random_state=0).fit(X, y)
    refit = LinearFractionalClassifier(objective="surrogate-utility", metric="accuracy", random_state=0).fit(X, y)
    values = [float(population.utility(accuracy(), np.append(c.coef_[0], c.intercept_[0]))) for c in (paper, refit)]
    assert abs(values[1] - values[0]) < 0.01


# ---------------------------------------------------------------------- scikit-learn's threshold wrappers
def test_works_inside_tuned_and_fixed_threshold_classifiers(data):
    """Both wrappers use decision_function (the estimator has no predict_proba): scikit-learn's wrappers predict
    classes_[1] where decision_function >= t (their convention, not the paper's sgn(0) = -1), for the fixed t and
    for the threshold TunedThresholdClassifierCV picks by cross-validated F_1."""
    X, y = data
    base = LinearFractionalClassifier(random_state=0)
    fixed = FixedThresholdClassifier(base, threshold=0.7, response_method="decision_function").fit(X, y)
    decision = fixed.estimator_.decision_function(X)
    np.testing.assert_array_equal(fixed.predict(X), np.where(decision >= 0.7, 1, -1))
    tuned = TunedThresholdClassifierCV(base, scoring="f1", cv=3, thresholds=30, random_state=0).fit(X, y)
    decision = tuned.estimator_.decision_function(X)
    np.testing.assert_array_equal(tuned.predict(X), np.where(decision >= tuned.best_threshold_, 1, -1))
    assert 0.0 < tuned.best_score_ <= 1.0
    # auto response method: no predict_proba, so decision_function is used
    auto = FixedThresholdClassifier(LinearFractionalClassifier(**PAPER, random_state=0), threshold=0.0).fit(X, y)
    np.testing.assert_array_equal(auto.predict(X), np.where(auto.estimator_.decision_function(X) >= 0.0, 1, -1))


# ---------------------------------------------------------------------- sparse input
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_estimator_matches_dense(fmt):
    """CSR (and CSC / COO, converted to CSR) input gives the dense fit up to summation order: the two objectives'
    parameters agree to 1e-9 and the predictions exactly, with every threshold option."""
    X, y = make_classification(n_samples=240, n_features=8, random_state=1)
    X[np.abs(X) < 0.8] = 0.0  # about half the entries zero
    Xs = {"csr": sparse.csr_matrix, "csc": sparse.csc_matrix, "coo": sparse.coo_matrix}[fmt](X)
    for options in ({}, {"threshold_cv": 3}, {"objective": "surrogate-utility", "max_iter": 30}):
        dense = LinearFractionalClassifier(random_state=0, **options).fit(X, y)
        sparse_fit = LinearFractionalClassifier(random_state=0, **options).fit(Xs, y)
        np.testing.assert_allclose(sparse_fit.coef_, dense.coef_, rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(sparse_fit.predict(Xs), dense.predict(X))
        np.testing.assert_array_equal(sparse_fit.predict(X), dense.predict(X))


def test_sparse_empirical_utility_matches_dense():
    """U_hat, V_hat and the true utility on CSR input equal the dense values (1e-12 relative: only the order of
    the sums differs), for a batch of parameters and both splits."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((500, 6))
    X[rng.random(X.shape) < 0.6] = 0.0
    y = np.where(rng.random(500) < 0.3, 1, -1)
    theta = rng.standard_normal((4, 6)) * 0.4
    for split in ("first-half", "random"):
        dense = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y, split=split, seed=1)
        csr = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), sparse.csr_matrix(X), y, split=split, seed=1)
        a, b = dense.evaluate(theta, true_utility=True), csr.evaluate(theta, true_utility=True)
        for field in ("value", "gradient_direction", "numerator_gradient", "denominator_gradient"):
            np.testing.assert_allclose(getattr(b, field), getattr(a, field), rtol=1e-12, atol=1e-15)
        np.testing.assert_array_equal(b.true_utility, a.true_utility)


def test_sparse_input_is_checked_and_never_silently_densified():
    from lfverify.core import check_features

    bad = sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, np.inf]]))
    with pytest.raises(ValueError, match=r"X must contain only finite values; got inf at index \(1, 1\)"):
        check_features(bad, "X", accept_sparse=True)
    with pytest.raises(TypeError, match="X must be a dense array here; got a scipy.sparse csr matrix"):
        check_features(sparse.csr_matrix(np.eye(2)), "X")
    duplicated = sparse.coo_matrix((np.array([1.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    canonical = check_features(duplicated, "X", accept_sparse=True)
    assert sparse.isspmatrix_csr(canonical) and canonical.nnz == 1 and canonical[0, 1] == 3.0


def test_cost_sensitive_warns_when_an_inner_fit_stops_early(data):
    X, y = data
    with pytest.warns(ConvergenceWarning, match="L-BFGS-B stopped at max_iter = 2"):
        LinearFractionalClassifier(max_iter=2).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        LinearFractionalClassifier().fit(X, y)  # the default converges on this sample
    assert math.isfinite(LinearFractionalClassifier(C=1e-3).fit(X, y).threshold_)


@pytest.mark.parametrize("objective, n, d, minority, folds", [
    ("cost-sensitive", 250, 5, 99, 5), ("cost-sensitive", 250, 5, 100, None),
    ("cost-sensitive", 1200, 25, 499, 5), ("cost-sensitive", 1200, 25, 500, None),
    ("surrogate-utility", 49, 5, 20, 5), ("surrogate-utility", 50, 5, 20, None)])
def test_auto_threshold_cv_takes_five_folds_exactly_where_samples_are_few(objective, n, d, minority, folds):
    """Truth table of threshold_cv="auto" at its boundaries - the cost-sensitive objective: 5 folds when the smaller
    class has fewer than 20 samples per feature (whichever label it has); the surrogate utility: when n < 10 d -,
    and its exceptions: with a single sample of a class it uses the training sample, and with threshold="zero" no
    threshold is chosen."""
    rng = np.random.default_rng(n + d)
    X = rng.standard_normal((n, d))
    options = {"objective": objective, "random_state": 0, "max_iter": 20}
    for small in (1, 0):
        y = np.full(n, 1 - small)
        y[rng.choice(n, minority, replace=False)] = small
        X_shifted = X + 0.5 * y[:, None]  # some signal, so that no fit collapses
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the surrogate utility's few iterations
            assert LinearFractionalClassifier(**options).fit(X_shifted, y).threshold_cv_ == folds
    lone = np.zeros(n, dtype=int)
    lone[0] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert LinearFractionalClassifier(**options).fit(X, lone).threshold_cv_ is None
        zero = LinearFractionalClassifier(**options, threshold="zero").fit(X, y)
    assert zero.threshold_cv_ is None and zero.threshold_ == 0.0


def test_few_samples_keep_the_equally_weighted_fit_where_the_training_metric_prefers_a_reweighted_one():
    """The iterate-choice rule (class docstring, "Which regime each choice is for").  Data: 200 rows, d = 8, 31
    positives (fewer than 20 per feature), where the reweighting's second fit has the better *training* F_2 (0.738
    against 0.681: ``fit_cost_sensitive`` keeps it).  Oracle: the default estimator's direction is exactly the
    equally weighted inner fit (``_fit_at_weights`` at (0.5, 0.5), the intercept a parameter, as the estimator
    calls it) started from the mean of the 5 folds' parameters (the folds are fitted first, from zeros, at the same
    weights; spied), no further fit is made, and the threshold is cross-fitted (5 folds); the fit from zeros ends
    within 3e-3 of it (the same convex problem, stopped at gtol 1e-4 from another start).  Companion: with
    every row weighted 10 (310 positives' weight: 39 per feature, as 10 repeated copies) the same rows leave the
    regime, and the estimator keeps the fit with the best training metric, a reweighted one."""
    X, y = make_classification(n_samples=200, n_features=8, n_informative=4, weights=[0.85], flip_y=0.05,
                               random_state=1)
    labels = np.where(y == 1, 1, -1)
    assert np.count_nonzero(y == 1) == 31
    training_choice = fit_cost_sensitive(f_beta(2.0), tau_logistic(1.0), _with_ones(X), labels, gtol=1e-4,
                                         max_iter=100)
    assert training_choice.selected == 1 and training_choice.utility_history[1] > training_choice.utility_history[0]
    folds = []
    original_fit = estimator_module._fit_folds_at_weights

    def fit_spy(loss, Z, ys, weights, **rest):
        thetas = original_fit(loss, Z, ys, weights, **rest)
        folds.extend((weights, start.copy(), theta.copy()) for start, theta in zip(rest["starts"], thetas))
        return thetas

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(estimator_module, "_fit_folds_at_weights", fit_spy)
        clf = LinearFractionalClassifier(metric="f2", random_state=0).fit(X, y)
    assert len(folds) == 5 and all(w == (0.5, 0.5) and not start.any() for w, start, _ in folds)
    mean = np.mean([theta for _, _, theta in folds], axis=0)
    first = cost_sensitive._fit_at_weights(tau_logistic(1.0), X, labels, (0.5, 0.5), 1.0, False, 100, 1e-4,
                                           mean, None, True)[0]
    np.testing.assert_array_equal(clf.coef_[0], first[:-1])
    from_zeros = cost_sensitive._fit_at_weights(tau_logistic(1.0), X, labels, (0.5, 0.5), 1.0, False, 100, 1e-4,
                                                np.zeros(X.shape[1] + 1), None, True)[0]
    # measured: 7.2e-4 apart, coefficients up to 0.50
    np.testing.assert_allclose(clf.coef_[0], from_zeros[:-1], atol=3e-3)
    assert clf.intercept_[0] == first[-1] - clf.threshold_
    assert clf.optimization_result_.utility_history == (clf.optimization_result_.train_utility,)
    assert clf.optimization_result_.weights == (0.5, 0.5) and clf.threshold_cv_ == 5
    heavy = LinearFractionalClassifier(metric="f2", random_state=0).fit(X, y, sample_weight=np.full(y.size, 10.0))
    history = heavy.optimization_result_.utility_history
    assert len(history) > 1 and heavy.optimization_result_.selected == int(np.argmax(history)) > 0
    assert heavy.threshold_cv_ is None


# ---------------------------------------------------------------------- argument checks, named in full
_TINY_X = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, 1.0]])


def test_fit_cost_sensitive_checks_c_before_the_other_options():
    """C = 0 is refused by fit_cost_sensitive itself, before tol is read (message typed out by hand): a check that
    let C = 0 through would report the bad tol instead (fit_at_weights re-checks C only later).

    Kills `lfverify.learn._cost_sensitive.x_fit_cost_sensitive__mutmut_41` (C's check without low_inclusive=False)."""
    with pytest.raises(ValueError, match=r"^" + re.escape("C must lie in (0.0, inf); got 0.0") + r"$"):
        fit_cost_sensitive(f1(), tau_logistic(1.0), _TINY_X, [1, -1, 1], C=0.0, tol=-1.0)
    with pytest.raises(ValueError, match=r"^" + re.escape("tol must lie in [0.0, inf); got -1.0") + r"$"):
        fit_cost_sensitive(f1(), tau_logistic(1.0), _TINY_X, [1, -1, 1], C=1.0, tol=-1.0)


def test_weighted_risk_names_its_arguments_in_full_messages():
    """Bad y, penalized and theta are named (messages typed out by hand).

    Kills `lfverify.learn._cost_sensitive.xǁWeightedSurrogateRiskǁ__init____mutmut_25` ("XXyXX" for y),
    `...__init____mutmut_77` (ValueError(None) for penalized) and
    `lfverify.learn._cost_sensitive.xǁWeightedSurrogateRiskǁvalue_and_gradient__mutmut_4` (theta's name None)."""
    loss = tau_logistic(1.0)
    with pytest.raises(ValueError, match=r"^" + re.escape(
            "y must hold labels in {-1, +1} or in {0, 1} (0 is mapped to -1); got values [1, 2]") + r"$"):
        WeightedSurrogateRisk(loss, _TINY_X, [1, 2, 1], (0.5, 0.5))
    with pytest.raises(ValueError, match=r"^" + re.escape(
            "penalized must be a boolean array of shape (2,); got shape (1,)") + r"$"):
        WeightedSurrogateRisk(loss, _TINY_X, [1, -1, 1], (0.5, 0.5), penalized=[True])
    risk = WeightedSurrogateRisk(loss, _TINY_X, [1, -1, 1], (0.5, 0.5))
    with pytest.raises(ValueError, match=r"^" + re.escape(
            "theta must have shape (2,) or (K, 2) with K >= 1; got shape (3,)") + r"$"):
        risk.value_and_gradient([1.0, 2.0, 3.0])


def test_threshold_cv_refits_an_erm_start_on_each_fold_without_its_held_out_rows(data, monkeypatch):
    """Oracle: scikit-learn's linear SVM (``erm_initial_parameters``) fitted on each fold's training rows alone.
    With ``init="erm"`` every cost-sensitive fold fit starts from that SVM, not from the whole sample's (which has
    seen the held-out rows).  Companion: the whole sample's SVM, the start before this fix, differs from every
    fold's start by more than 1e-3; and the whole sample's SVM is not fitted at all (the folds come first and the
    whole sample's fit starts from their mean): three SVM fits, one per fold."""
    erm_initial_parameters = estimator_module.erm_initial_parameters
    X, y = data
    held_out, fold_starts, svm_fits = [], [], []
    original_fit = estimator_module._fit_folds_at_weights

    def fit_spy(loss, Z, labels, weights, *, C, fit_intercept_column, max_iter, gtol, starts, fold_of, sample_weight,
                fit_intercept):
        held_out.extend(np.flatnonzero(fold_of == k) for k in range(starts.shape[0]))
        fold_starts.extend(starts.copy())
        return original_fit(loss, Z, labels, weights, C=C, fit_intercept_column=fit_intercept_column, max_iter=max_iter,
                            gtol=gtol, starts=starts, fold_of=fold_of, sample_weight=sample_weight,
                            fit_intercept=fit_intercept)

    monkeypatch.setattr(estimator_module, "_fit_folds_at_weights", fit_spy)
    monkeypatch.setattr(estimator_module, "erm_initial_parameters",
                        lambda *args, **kwargs: svm_fits.append(kwargs.get("sample_weight"))
                        or erm_initial_parameters(*args, **kwargs))
    LinearFractionalClassifier(threshold_cv=3, init="erm", random_state=0).fit(X, y)
    assert len(svm_fits) == 3 and all(w is not None and (w == 0).any() for w in svm_fits)
    signed = y  # the fixture's labels are in {-1, +1}
    whole = erm_initial_parameters(X, signed)
    assert len(fold_starts) == 3
    for held, start in zip(held_out, fold_starts):
        rows = np.setdiff1d(np.arange(X.shape[0]), held)
        np.testing.assert_allclose(start, erm_initial_parameters(X[rows], signed[rows]), rtol=1e-12, atol=1e-12)
        assert np.abs(start - whole).max() > 1e-3


def test_an_overflowing_weighted_risk_says_so_and_what_to_do():
    """The exponential loss at the margin -1000 is exp(1000) = inf: the risk refuses with its message (typed out).

    Kills `lfverify.learn._cost_sensitive.xǁWeightedSurrogateRiskǁ_value_and_gradient__mutmut_62` (the message
    dropped)."""
    from lfverify.core import exponential

    risk = WeightedSurrogateRisk(exponential(), np.array([[1.0], [1.0]]), np.array([1, -1]), (1.0, 1.0))
    assert np.isfinite(risk.value_and_gradient(np.array([1.0]))[0])
    with pytest.raises(ValueError) as raised:
        risk.value_and_gradient(np.array([1000.0]))
    assert str(raised.value) == ("theta: the weighted surrogate risk overflows (a margin is too large for the loss); "
                                 "use a smaller theta or a larger penalty")


@pytest.mark.parametrize("C", [0.0, -1.0])
def test_fit_at_weights_refuses_a_penalty_weight_c_that_is_not_positive(C):
    """C is the inverse of the penalty's weight: C = 0 is an infinite penalty, refused like a negative C (message
    typed out).

    Kills `lfverify.learn._cost_sensitive.x_fit_at_weights__mutmut_57` (C = 0 let through)."""
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, -1])
    with pytest.raises(ValueError) as raised:
        fit_at_weights(tau_logistic(1.0), X, y, (1.0, 1.0), C=C)
    assert str(raised.value) == f"C must lie in (0.0, inf); got {C}"
