"""Stopping rules at equality (issue 45, item 5): Alg. 1's phase 2 (U-GD, U-BFGS), the cost-sensitive reweighting
and ``MetricOptimalClassifier``'s level iterations, each driven to a tolerance exactly equal to the change it
observes, one double below it, and 0.

Oracles: the documented rules, read against quantities the test observes itself with the routine's own arithmetic -
the gradient norm phase 2 compares (``_row_norms`` of the batch evaluation, as the loop computes it), and the
metric histories a run with ``tol = 0`` records (the differences of two doubles, compared with ``tol`` as they are).
"||grad U_hat|| <= gtol" stops a run whose gradient norm equals gtol, and not one whose gtol is one double lower;
"changes by at most tol" stops the iteration at a change equal to tol and at a repeated value with tol = 0.  Each
check has a companion that runs it on a planted variant with ``<`` for ``<=`` (tests/planted.py) and sees it fail.

Private: lfverify.learn._optimize (its _row_norms gives the norm phase 2 compares; its _stop_small_gradients is
replaced by a planted variant), lfverify.learn._cost_sensitive._fit_cost_sensitive and
lfverify.learn._metric_optimal's MetricOptimalClassifier.fit, replaced by planted variants in the companions.
"""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

import lfverify.learn._cost_sensitive as cost_sensitive_module
import lfverify.learn._optimize as optimize_module
from lfverify.core import EmpiricalSurrogateUtility, f1, tau_logistic
from lfverify.learn import MetricOptimalClassifier, fit_cost_sensitive, maximize_surrogate_utility
from planted import planting

pytestmark = pytest.mark.claims("package:estimator", "Algorithm 1")


def _objective():
    """60 samples, 2 features; theta0 = (1, 0) has N_hat > 0, so phase 2 starts at theta0."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0.3, 1, -1)
    return EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y), np.array([1.0, 0.0])


def _gradient_norm(objective, theta):
    """||grad U_hat(theta)|| as phase 2 computes it (a batch of one row, the overflow-free norm)."""
    ev = objective.evaluate(np.atleast_2d(theta), true_utility=True, direction=False)
    return float(optimize_module._row_norms(np.atleast_2d(ev.gradient))[0])


def check_gradient_stop_at_equality(maximize=maximize_surrogate_utility):
    """For U-GD and U-BFGS: gtol equal to the starting gradient norm stops before the first pass (converged, theta0
    returned); one double lower runs; gtol equal to the norm after pass 2 (observed on a gtol = 0 run) stops after
    pass 2 exactly; gtol = 0 runs to max_iter (not converged)."""
    objective, theta0 = _objective()
    g0 = _gradient_norm(objective, theta0)
    for method in ("gd", "bfgs"):
        at = maximize(objective, theta0, method=method, gtol=g0, max_iter=5)
        assert (at.iterations, at.converged) == (0, True), (method, at.message)
        assert np.array_equal(at.theta, theta0)
        below = maximize(objective, theta0, method=method, gtol=np.nextafter(g0, 0.0), max_iter=5)
        assert below.iterations >= 1, method
        seen = {}
        zero = maximize(objective, theta0, method=method, gtol=0.0, max_iter=5,
                        callback=lambda t, theta, seen=seen: seen.setdefault(t, theta))
        assert (zero.iterations, zero.converged) == (5, False), (method, zero.message)
        assert zero.message == "max_iter = 5 phase-2 iterations reached"
        g2 = _gradient_norm(objective, seen[2])
        stopped = maximize(objective, theta0, method=method, gtol=g2, max_iter=5)
        assert (stopped.iterations, stopped.converged) == (2, True), (method, stopped.message)
        assert np.array_equal(stopped.theta, seen[2])
        assert maximize(objective, theta0, method=method, gtol=np.nextafter(g2, 0.0), max_iter=5).iterations > 2


def test_phase_two_stops_when_the_gradient_norm_equals_gtol():
    """Oracle: the rule "||grad U_hat|| <= gtol" of maximize_surrogate_utility's docstring, on norms observed with
    the loop's own arithmetic."""
    check_gradient_stop_at_equality()


def test_companion_a_strict_gradient_test_fails(monkeypatch):
    """Companion: ``gnorm < gtol`` (a planted _stop_small_gradients) runs on at equality."""
    planting(monkeypatch, optimize_module, "_stop_small_gradients", "run.active & (gnorm <= gtol)",
             "run.active & (gnorm < gtol)")
    with pytest.raises(AssertionError):
        check_gradient_stop_at_equality()


def test_max_iter_zero_returns_the_start_of_phase_two():
    """Oracle: the docstring ("max_iter phase-2 iterations"; the gradient test is part of a pass): 0 passes, theta0
    unchanged (N_hat(theta0) > 0), not converged, the history the start only - also at a gtol the starting gradient
    meets, which a pass would have reported as converged."""
    objective, theta0 = _objective()
    for gtol in (0.0, _gradient_norm(objective, theta0)):
        result = maximize_surrogate_utility(objective, theta0, max_iter=0, gtol=gtol)
        assert (result.iterations, result.converged, result.phase1_steps) == (0, False, 0)
        assert result.message == "max_iter = 0 phase-2 iterations reached"
        assert np.array_equal(result.theta, theta0) and result.surrogate_history.shape == (1,)


# ---------------------------------------------------------------------------- the level iterations
def _sample():
    """80 samples, 22 positives: F_1 of the first fit and of the reweighted second differ, the third repeats the
    second (the histories are pinned in the checks)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 2))
    y = np.where(X[:, 0] + rng.normal(size=80) > 1.0, 1, -1)
    return X, y


def check_reweighting_stops_at_equality(fit=fit_cost_sensitive):
    """fit_cost_sensitive: with tol = 0 the history is v1, v2, v2 (stops at the repeated value, converged); tol =
    |v2 - v1| stops after the second fit; one double lower runs a third fit (whose change, 0, then stops it)."""
    X, y = _sample()
    X = np.column_stack([X, np.ones(X.shape[0])])
    args = (f1(), tau_logistic(1.0), X, y)
    zero = fit(*args, tol=0.0, max_level_iter=4)
    v1, v2 = zero.utility_history[:2]
    assert zero.utility_history == (v1, v2, v2) and zero.converged and v1 != v2
    change = abs(v2 - v1)
    at = fit(*args, tol=change, max_level_iter=4)
    assert at.utility_history == (v1, v2) and at.converged
    below = fit(*args, tol=np.nextafter(change, 0.0), max_level_iter=4)
    assert below.utility_history == (v1, v2, v2) and below.converged
    capped = fit(*args, tol=np.nextafter(change, 0.0), max_level_iter=2)
    assert capped.utility_history == (v1, v2) and not capped.converged  # the cap, not the rule, ended it


def test_the_reweighting_stops_when_the_change_equals_tol():
    """Oracle: fit_cost_sensitive's docstring ("stop when the training metric changes by at most tol"), on the
    history a tol = 0 run records."""
    check_reweighting_stops_at_equality()


def test_companion_a_strict_reweighting_test_fails(monkeypatch):
    """Companion: ``< tol`` (a planted _fit_cost_sensitive) fits again at equality and never stops at tol = 0."""
    planting(monkeypatch, cost_sensitive_module, "_fit_cost_sensitive",
             "abs(choice.value - history[-1]) <= tol", "abs(choice.value - history[-1]) < tol")
    with pytest.raises(AssertionError):
        check_reweighting_stops_at_equality()


def check_levels_stop_at_equality(cls=MetricOptimalClassifier):
    """MetricOptimalClassifier: with tol = 0 the level history is v1, v2, v2; tol = |v2 - v1| stops after the second
    level; one double lower runs a third."""
    X, y = _sample()

    def levels(tol):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = cls(LogisticRegression(), max_level_iter=4, tol=tol, cv=3, random_state=0).fit(X, y)
        return model.level_history_

    zero = levels(0.0)
    v1, v2 = zero[:2]
    assert zero == (v1, v2, v2) and v1 != v2
    change = abs(v2 - v1)
    assert levels(change) == (v1, v2)
    assert levels(np.nextafter(change, 0.0)) == (v1, v2, v2)


def test_the_level_iterations_stop_when_the_change_equals_tol():
    """Oracle: MetricOptimalClassifier's docstring ("stop when the held-out metric changes by at most tol"), on the
    history a tol = 0 fit records."""
    check_levels_stop_at_equality()


def test_companion_a_strict_level_test_fails(monkeypatch):
    """Companion: ``< tol`` (a planted MetricOptimalClassifier.fit) runs a level more at equality."""
    planting(monkeypatch, MetricOptimalClassifier, "fit", "abs(history[-1] - history[-2]) <= tol",
             "abs(history[-1] - history[-2]) < tol")
    with pytest.raises(AssertionError):
        check_levels_stop_at_equality()
