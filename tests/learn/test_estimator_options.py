"""LinearFractionalClassifier's options end to end (issue 45, item 6): each option at its allowed values and the
pairs of options that interact (fit_intercept, objective, threshold, threshold_cv, init, class_weight,
sample_weight, pos_label, sparse input), each checked against an oracle of what the combination must do.
tests/learn/test_estimator.py, test_estimator_weights.py and test_remedies.py cover the single options and the
intercept-with-dense-input cases; this module covers the pairs those leave out (.audit-45-6.md lists both).

Oracles:

* scikit-learn's ``LogisticRegression(C, fit_intercept).fit(X, y, sample_weight)``: in the regime of few samples
  (the smaller class's weight below 20 d) the cost-sensitive objective with tau = 1 is a single fit of the equally
  weighted logistic risk (the class docstring's regimes; ``LogisticRegression(C)`` in the ``C`` entry), so with
  ``threshold="zero"`` the whole estimator is that regression.  The combined sample weights are written out here
  by hand (``class_weight`` times ``sample_weight``; "balanced" as n_w / (2 n_w,c) with weighted counts, as
  documented), never read from the package.  Both solvers run to tight tolerances (gtol 1e-10, tol 1e-12) on a
  strongly convex risk: 1e-7 is safe.  The start (``init``) cannot change the minimiser of a strictly convex risk.
* relabelling: ``pos_label="ham"`` with ``class_weight`` keyed by the strings is the fit on y relabelled so that
  "ham" is the larger label, with the dict relabelled the same way (exact equality; decision_function negated, as
  the Notes' orientation says).
* repeated rows: an integer weight k is the row repeated k times where nothing is drawn over rows (the cost-sensitive
  objective with ``threshold_cv=None``; the surrogate utility with ``split="first-half"`` and the repeats kept in
  their half, i.e. equal weight totals in the two halves).
* dense input for sparse input (the same floating-point sums in another order).
* brute force over every threshold (``reference_best_threshold``, O(n^2), on rows repeated by their integer
  weight) for ``threshold="refit", threshold_cv=None``; the documented formulas intercept_ = fitted intercept
  minus threshold_ (0 for ``fit_intercept=False``), threshold_ = 0 for ``threshold="zero"`` and decision_function
  = X coef_ + intercept_ (negated where pos_label is classes_[0]).
* the documented rules of ``threshold_cv``: K above the smaller class count is lowered to it (the same fit as that
  count), "auto" is 5 folds in the regime of few samples and the training sample otherwise, other values need
  ``threshold="refit"``.
* Alg. 1's documented stopping rule: from a start whose ||grad U_hat|| <= gtol phase 2 takes no step, so an init
  equal to a converged fit's parameters returns them; with max_iter = 0 the start is returned (the intercept its
  last entry).

Each check whose oracle could hold vacuously has a companion showing the option acts (the unweighted, other-label
or other-intercept fit differs).
"""

import re
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.linear_model import LogisticRegression

from lfverify.learn import LinearFractionalClassifier, reference_best_threshold

#: Tiny samples make some fits nearly trivial or stop early; the oracles compare fits, not their quality.
pytestmark = [pytest.mark.claims("package:estimator"),
              pytest.mark.filterwarnings("ignore::lfverify.learn.FitQualityWarning"),
              pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")]

#: Tight tolerances for the fits compared with LogisticRegression.
TIGHT = {"gtol": 1e-10, "max_iter": 10_000}


def _data(n=48, d=3, seed=0):
    """n rows, d features, labels {0, 1} from a noisy linear rule; integer weights 1-3 (equal totals in the two
    halves, so that rows repeated by weight stay in their half of split="first-half")."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] - 0.5 * X[:, 1] + 0.7 * rng.normal(size=n) > 0.2).astype(int)
    w = rng.integers(1, 4, size=n)
    w[n // 2:] = w[:n // 2][::-1]
    return X, y, w


def _combined(y, sample_weight, class_weight):
    """The per-sample weights class_weight x sample_weight, written out from the documentation."""
    s = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if class_weight is None:
        return None if sample_weight is None else s
    if class_weight == "balanced":
        totals = {c: s[y == c].sum() for c in (0, 1)}
        per_class = {c: s.sum() / (2.0 * totals[c]) for c in (0, 1)}
    else:
        per_class = class_weight
    return s * np.array([per_class[c] for c in y])


def _form(X, form):
    return sparse.csr_matrix(X) if form == "csr" else X


# ---------------------------------------------------------------------- the cost-sensitive fit is a regression
WEIGHTINGS = {"none": (False, None), "sample": (True, None), "dict": (False, {0: 1.0, 1: 2.5}),
              "balanced": (False, "balanced"), "sample+balanced": (True, "balanced"),
              "sample+dict": (True, {0: 2.0, 1: 0.5})}


@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("weighting", sorted(WEIGHTINGS))
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_one_cost_sensitive_fit_is_weighted_logistic_regression(fit_intercept, weighting, form):
    """Oracle: LogisticRegression(C=1, fit_intercept) with the combined weights written out by hand.  Also:
    intercept_ is exactly 0 without an intercept (threshold="zero"), and decision_function = X coef_ +
    intercept_."""
    X, y, w = _data()
    use_sample, class_weight = WEIGHTINGS[weighting]
    sample_weight = w if use_sample else None
    clf = LinearFractionalClassifier(threshold="zero", fit_intercept=fit_intercept, class_weight=class_weight,
                                     **TIGHT).fit(_form(X, form), y, sample_weight=sample_weight)
    assert len(clf.optimization_result_.inner_iterations) == 1  # the regime of few samples: one fit
    lr = LogisticRegression(C=1.0, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000).fit(
        X, y, sample_weight=_combined(y, sample_weight, class_weight))
    np.testing.assert_allclose(clf.coef_, lr.coef_, rtol=0, atol=1e-7)
    np.testing.assert_allclose(clf.intercept_, lr.intercept_, rtol=0, atol=1e-7)
    assert clf.threshold_ == 0.0 and clf.threshold_cv_ is None
    if not fit_intercept:
        assert clf.intercept_.tolist() == [0.0]
    np.testing.assert_allclose(clf.decision_function(_form(X, form)), X @ clf.coef_[0] + clf.intercept_[0],
                               rtol=0, atol=1e-12)
    if weighting != "none":  # companion: the weights act
        plain = LogisticRegression(C=1.0, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000).fit(X, y)
        assert np.abs(plain.coef_ - clf.coef_).max() > 1e-3


@pytest.mark.parametrize("init", ["zeros", "random", "erm", "array"])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_every_start_of_the_single_cost_sensitive_fit_reaches_the_regression(init, fit_intercept):
    """Oracle: LogisticRegression (the risk is strictly convex, so the start cannot change its minimiser); C is
    LogisticRegression's C (companion: C = 0.1 gives another solution, matched again)."""
    X, y, _ = _data()
    start = np.linspace(-1.0, 1.0, X.shape[1] + int(fit_intercept)) if init == "array" else init
    for C in (1.0, 0.1):
        clf = LinearFractionalClassifier(threshold="zero", init=start, C=C, fit_intercept=fit_intercept,
                                         random_state=0, **TIGHT).fit(X, y)
        lr = LogisticRegression(C=C, fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000).fit(X, y)
        np.testing.assert_allclose(clf.coef_, lr.coef_, rtol=0, atol=1e-7)
        np.testing.assert_allclose(clf.intercept_, lr.intercept_, rtol=0, atol=1e-7)
        if C == 1.0:
            first = clf.coef_
    assert np.abs(first - clf.coef_).max() > 1e-2


# ---------------------------------------------------------------------- pos_label with class weights
@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("threshold", [{"threshold": "zero"}, {"threshold_cv": None}, {"threshold_cv": 3}])
def test_pos_label_and_class_weight_by_name_are_the_relabelled_fit(objective, fit_intercept, threshold):
    """Oracle: the fit on y relabelled so that "ham" is the larger label, with class_weight relabelled the same way
    (exact equality); decision_function is positive for classes_[1] = "spam", i.e. minus the score of "ham"."""
    X, y, _ = _data(n=80)
    names = np.array(["ham", "spam"])[y]
    options = {"objective": objective, "fit_intercept": fit_intercept, "random_state": 1, "max_iter": 15,
               **threshold}
    flipped = LinearFractionalClassifier(pos_label="ham", class_weight={"ham": 3.0, "spam": 1.0},
                                         **options).fit(X, names)
    relabelled = LinearFractionalClassifier(class_weight={1: 3.0, 0: 1.0}, **options).fit(X, 1 - y)
    np.testing.assert_array_equal(flipped.coef_, relabelled.coef_)
    assert flipped.intercept_[0] == relabelled.intercept_[0] and flipped.threshold_ == relabelled.threshold_
    g = X @ flipped.coef_[0] + flipped.intercept_[0]
    np.testing.assert_array_equal(flipped.decision_function(X), -g)
    np.testing.assert_array_equal(flipped.predict(X), np.where(g > 0, "ham", "spam"))
    if objective == "cost-sensitive" and threshold == {"threshold": "zero"}:
        # scikit-learn's regression on the strings orients its scores towards "spam": the same line
        lr = LogisticRegression(fit_intercept=fit_intercept, tol=1e-12, max_iter=100_000).fit(
            X, names, sample_weight=np.where(names == "ham", 3.0, 1.0))
        loose = LinearFractionalClassifier(pos_label="ham", class_weight={"ham": 3.0, "spam": 1.0},
                                           threshold="zero", fit_intercept=fit_intercept, **TIGHT).fit(X, names)
        np.testing.assert_allclose(loose.decision_function(X), lr.decision_function(X), rtol=0, atol=1e-6)
    # companion: the weights follow the label, not the position (the dict the other way round differs)
    other = LinearFractionalClassifier(pos_label="ham", class_weight={"ham": 1.0, "spam": 3.0},
                                       **options).fit(X, names)
    assert not np.array_equal(other.coef_, flipped.coef_)


# ---------------------------------------------------------------------- integer weights, repeated rows
@pytest.mark.parametrize("form", ["dense", "csr"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
def test_integer_weights_are_repeated_rows_where_nothing_is_drawn(objective, fit_intercept, form):
    """Oracle: the fit on rows repeated by their weight (threshold_cv=None; the surrogate utility with the paper's
    first-half split, the two halves' weight totals equal so the repeats stay in their half).  Companion: the
    unweighted fit differs."""
    X, y, w = _data(n=60)
    options = {"objective": objective, "fit_intercept": fit_intercept, "threshold_cv": None, "max_iter": 20}
    if objective == "surrogate-utility":
        options["split"] = "first-half"
    weighted = LinearFractionalClassifier(**options).fit(_form(X, form), y, sample_weight=w)
    repeated = LinearFractionalClassifier(**options).fit(_form(np.repeat(X, w, axis=0), form), np.repeat(y, w))
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=0, atol=1e-9)
    np.testing.assert_allclose(weighted.intercept_, repeated.intercept_, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))
    plain = LinearFractionalClassifier(**options).fit(_form(X, form), y)
    assert np.abs(plain.coef_ - weighted.coef_).max() > 1e-3


# ---------------------------------------------------------------------- sparse input
@pytest.mark.parametrize("threshold", [{"threshold": "zero"}, {"threshold_cv": None}, {"threshold_cv": 3}])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
def test_sparse_input_is_the_dense_fit(objective, fit_intercept, threshold):
    """Oracle: the dense fit (the same sums in another order; Alg. 1 kept to 10 iterations so that BFGS does not
    amplify the last bits), with class_weight="balanced" and integer sample weights."""
    X, y, w = _data(n=60)
    X[np.abs(X) < 0.5] = 0.0
    options = {"objective": objective, "fit_intercept": fit_intercept, "random_state": 2, "max_iter": 10,
               "class_weight": "balanced", **threshold}
    dense = LinearFractionalClassifier(**options).fit(X, y, sample_weight=w)
    csr = LinearFractionalClassifier(**options).fit(sparse.csr_matrix(X), y, sample_weight=w)
    np.testing.assert_allclose(csr.coef_, dense.coef_, rtol=0, atol=1e-10)
    np.testing.assert_allclose(csr.intercept_, dense.intercept_, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(csr.predict(sparse.csr_matrix(X)), dense.predict(X))
    assert csr.threshold_cv_ == dense.threshold_cv_


# ---------------------------------------------------------------------- threshold
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
def test_refit_threshold_is_the_brute_force_best_and_zero_keeps_the_fitted_intercept(objective, fit_intercept,
                                                                                     weighted):
    """Oracles: threshold="refit", threshold_cv=None: the training metric of the classifier is the brute-force
    maximum over every threshold of the unshifted scores (on rows repeated by their integer weight), and its
    predictions are a maximiser; intercept_ = fitted intercept - threshold_ (so -threshold_ exactly without an
    intercept).  threshold="zero": the same direction, threshold_ = 0 and intercept_ the fitted one (exactly 0
    without an intercept)."""
    X, y, w = _data(n=60)
    w = w if weighted else np.ones(y.size, dtype=int)
    options = {"objective": objective, "fit_intercept": fit_intercept, "random_state": 0, "max_iter": 15}
    refit = LinearFractionalClassifier(threshold_cv=None, **options).fit(X, y, sample_weight=w if weighted else None)
    zero = LinearFractionalClassifier(threshold="zero", **options).fit(X, y, sample_weight=w if weighted else None)
    np.testing.assert_array_equal(refit.coef_, zero.coef_)
    assert zero.threshold_ == 0.0 and zero.threshold_cv_ is None and refit.threshold_cv_ is None
    if fit_intercept:
        assert refit.intercept_[0] == pytest.approx(zero.intercept_[0] - refit.threshold_, rel=4e-16, abs=1e-300)
    else:
        assert zero.intercept_.tolist() == [0.0] and refit.intercept_.tolist() == [-refit.threshold_]
    unshifted = np.repeat(X @ zero.coef_[0] + zero.intercept_[0], w)
    labels = np.where(np.repeat(y, w) == 1, 1, -1)
    best, maximisers = reference_best_threshold(unshifted, labels, refit.metric_)
    predicted = np.repeat(np.where(refit.predict(X) == 1, 1, -1), w)
    assert tuple(predicted) in maximisers
    assert refit.score(np.repeat(X, w, axis=0), np.repeat(y, w)) == pytest.approx(best, abs=1e-15)
    assert refit.threshold_ != 0.0  # companion: the refit moved the threshold on this sample


@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
def test_threshold_cv_rules(objective):
    """Oracles, the documented threshold_cv rules: K above the smaller class count is lowered to it (the same fit as
    that count); "auto" is 5 folds where samples are few (d = 3, n = 48) and the training sample where they are
    not (d = 2, n = 400: a smaller class of more than 20 d, and n >= 10 d); K changes the threshold (companion)."""
    X, y, _ = _data(n=48)
    minority = int(min(np.bincount(y)))
    options = {"objective": objective, "random_state": 3, "max_iter": 10}
    lowered = LinearFractionalClassifier(threshold_cv=minority + 7, **options).fit(X, y)
    at_count = LinearFractionalClassifier(threshold_cv=minority, **options).fit(X, y)
    assert lowered.threshold_ == at_count.threshold_ and lowered.intercept_[0] == at_count.intercept_[0]
    assert lowered.threshold_cv_ == at_count.threshold_cv_ == minority  # the folds drawn, not the K asked for
    two = LinearFractionalClassifier(threshold_cv=2, **options).fit(X, y)
    assert two.threshold_ != at_count.threshold_ and two.threshold_cv_ == 2
    if objective == "cost-sensitive":  # n < 10 d is not met for the surrogate utility here (48 >= 30)
        auto = LinearFractionalClassifier(**options).fit(X, y)
        five = LinearFractionalClassifier(threshold_cv=5, **options).fit(X, y)
        assert auto.threshold_cv_ == 5 and auto.threshold_ == five.threshold_
        np.testing.assert_array_equal(auto.coef_, five.coef_)
    Xb, yb, _ = _data(n=400, d=2)
    auto = LinearFractionalClassifier(**options).fit(Xb, yb)
    training = LinearFractionalClassifier(threshold_cv=None, **options).fit(Xb, yb)
    assert auto.threshold_cv_ is None and auto.threshold_ == training.threshold_
    np.testing.assert_array_equal(auto.coef_, training.coef_)


@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
@pytest.mark.parametrize("threshold_cv", [None, 2, 5])
def test_threshold_cv_other_than_auto_needs_the_refit(objective, threshold_cv):
    X, y, _ = _data()
    message = (f"threshold_cv applies only with threshold='refit' (threshold='zero' chooses no threshold); got "
               f"threshold_cv={threshold_cv!r} with threshold='zero'")
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        LinearFractionalClassifier(objective=objective, threshold="zero", threshold_cv=threshold_cv).fit(X, y)
    LinearFractionalClassifier(objective=objective, threshold="zero", threshold_cv="auto", max_iter=3).fit(X, y)


# ---------------------------------------------------------------------- init
@pytest.mark.parametrize("fit_intercept, gtol", [(True, 1e-6), (False, 1e-2)])
def test_an_explicit_start_at_a_converged_fit_returns_it(fit_intercept, gtol):
    """Oracle: Alg. 1 takes no step from a start whose gradient norm is <= gtol, so init = the converged fit's
    (coef_, intercept_) gives that fit exactly with 0 iterations; with max_iter = 0 the start itself is returned,
    its last entry the intercept (threshold="zero").  Without an intercept U_hat keeps rising along a ray on this
    sample (300 iterations of U-BFGS or U-GD end with ||grad|| > 1e-3), so that fit is held to gtol = 1e-2."""
    X, y, _ = _data(n=60)
    options = {"objective": "surrogate-utility", "threshold": "zero", "fit_intercept": fit_intercept,
               "split": "first-half", "gtol": gtol, "max_iter": 300}
    first = LinearFractionalClassifier(**options).fit(X, y)
    assert first.converged_ and first.n_iter_ > 0
    theta = np.append(first.coef_[0], first.intercept_) if fit_intercept else first.coef_[0]
    again = LinearFractionalClassifier(init=theta, **options).fit(X, y)
    assert again.n_iter_ == 0 and again.converged_
    np.testing.assert_array_equal(again.coef_, first.coef_)
    np.testing.assert_array_equal(again.intercept_, first.intercept_)
    start = theta + 0.25
    held = LinearFractionalClassifier(init=start, **{**options, "max_iter": 0}).fit(X, y)
    assert held.optimization_result_.phase1_steps == 0
    np.testing.assert_array_equal(held.coef_[0], start[:X.shape[1]])
    assert held.intercept_.tolist() == ([start[-1]] if fit_intercept else [0.0])


@pytest.mark.parametrize("objective", ["cost-sensitive", "surrogate-utility"])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("length", [-1, +1])
def test_an_init_of_the_wrong_length_is_refused_by_name(objective, fit_intercept, length):
    X, y, _ = _data()
    n_params = X.shape[1] + int(fit_intercept)
    expected = "n_features + 1 for the intercept" if fit_intercept else "n_features"
    message = f"init must have shape ({n_params},) ({expected}); got shape ({n_params + length},)"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        LinearFractionalClassifier(objective=objective, fit_intercept=fit_intercept,
                                   init=np.zeros(n_params + length)).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        LinearFractionalClassifier(objective=objective, fit_intercept=fit_intercept, init=np.zeros(n_params),
                                   max_iter=3).fit(X, y)
