"""Algorithm 1 (hybrid) with Algorithm 2 (U-GD) and BFGS (U-BFGS): lfverify/optimize.py.

Oracles: a literal transcription of Algorithm 2 driven by the double sum of Eq. (7) (``_reference_gradient_direction``),
scipy.optimize's BFGS on U_hat with the quotient-rule gradient (an independent quasi-Newton implementation), and
the defining properties of each phase (phase 1 ends with N_hat > 0; Armijo steps never decrease U_hat).
"""

import numpy as np
import pytest
from scipy.optimize import minimize

from lfverify import losses as L
from lfverify import metrics as M
from lfverify.empirical import EmpiricalSurrogateUtility, _reference_gradient_direction
from lfverify.optimize import maximize_surrogate_utility


def _problem(n=400, d=4, seed=0, tau=0.33, metric=None):
    rng = np.random.default_rng(seed)
    X = np.c_[rng.normal(size=(n, d - 1)), np.ones(n)]
    w = np.r_[rng.normal(size=d - 1), -1.0]
    y = np.where(rng.uniform(size=n) < 1 / (1 + np.exp(-X @ w)), 1, -1)
    metric = metric or M.f_beta(1.0)
    return EmpiricalSurrogateUtility(metric, L.TauDiscrepantLogisticLoss(tau), X, y), X, y


def test_gd_follows_algorithm_2_literally():
    """Alg. 2: theta <- theta + gamma V_hat / ||V_hat||, V_hat from the literal double sum of Eq. (7)."""
    objective, X, y = _problem(n=120, d=3)
    theta0 = np.array([0.3, -0.2, 0.5])
    assert objective.numerator(theta0) > 0  # phase 1 is skipped: only Alg. 2 runs
    result = maximize_surrogate_utility(objective, theta0, method="gd", learning_rate=0.05, max_iter=15)
    theta = theta0.copy()
    for _ in range(15):
        v = _reference_gradient_direction(objective.metric, objective.loss, X, y, theta)
        theta = theta + 0.05 * v / np.linalg.norm(v)
    assert result.phase1_steps == 0
    assert result.iterations == 15
    np.testing.assert_allclose(result.theta, theta, rtol=1e-12, atol=1e-14)


def test_gd_literal_oracle_detects_a_wrong_step():
    """The oracle above can fail: an unnormalized step (plain gradient ascent) gives other iterates."""
    objective, X, y = _problem(n=120, d=3)
    theta0 = np.array([0.3, -0.2, 0.5])
    result = maximize_surrogate_utility(objective, theta0, method="gd", learning_rate=0.05, max_iter=15)
    theta = theta0.copy()
    for _ in range(15):
        theta = theta + 0.05 * _reference_gradient_direction(objective.metric, objective.loss, X, y, theta)
    assert np.max(np.abs(result.theta - theta)) > 1e-3


@pytest.mark.parametrize("tau", [1.0, 0.33])
def test_bfgs_reaches_scipy_bfgs_maximum(tau):
    """U-BFGS ends where scipy's BFGS on -U_hat ends (an independent implementation, started elsewhere).

    tau = 1 is the smooth logistic loss: theta agrees to 1e-6 (measured 4e-8; scipy stops at gtol 1e-12, ours
    at 1e-8, and ||theta - theta*|| ~ ||grad|| / curvature).  tau = 0.33 has a kink at 0 where both stop a little
    early ("precision loss" in scipy): values agree to 1e-9 relative (measured 4e-12), theta to 1e-4 (3e-6).
    A second scipy run started at our result must not find any increase beyond rounding.
    """
    objective, _, _ = _problem(n=600, d=4, tau=tau)
    result = maximize_surrogate_utility(objective, np.zeros(4), method="bfgs", max_iter=200)
    reference = minimize(lambda t: -objective.value(t), np.full(4, 0.1), jac=lambda t: -objective.gradient(t),
                         method="BFGS", options={"gtol": 1e-12, "maxiter": 1000})
    assert result.surrogate_utility == pytest.approx(-reference.fun, rel=1e-9, abs=0)
    np.testing.assert_allclose(result.theta, reference.x, rtol=0, atol=1e-6 if tau == 1.0 else 1e-4)
    polish = minimize(lambda t: -objective.value(t), result.theta, jac=lambda t: -objective.gradient(t),
                      method="BFGS", options={"gtol": 1e-12, "maxiter": 1000})
    assert -polish.fun <= result.surrogate_utility * (1 + 1e-12)


def test_bfgs_history_never_decreases_and_has_documented_shape():
    """Armijo steps only accept increases of U_hat; history has max(iterations) + 1 rows, one column per start."""
    objective, _, _ = _problem()
    theta0 = np.random.default_rng(3).normal(size=(4, 4))
    result = maximize_surrogate_utility(objective, theta0, method="bfgs", max_iter=40)
    hist = result.surrogate_history
    assert hist.shape == (result.iterations.max() + 1, 4)
    assert np.all(np.diff(hist, axis=0) >= 0)
    np.testing.assert_allclose(hist[-1], result.surrogate_utility, rtol=0, atol=0)
    np.testing.assert_allclose(result.true_history[-1], result.true_utility, rtol=0, atol=0)
    np.testing.assert_allclose(result.true_utility, objective.true_utility(result.theta), rtol=0, atol=0)


def test_gd_is_not_monotone_with_a_large_step():
    """The monotonicity check above can fail: Alg. 2 with gamma = 10 overshoots (U_hat decreases somewhere)."""
    objective, _, _ = _problem()
    result = maximize_surrogate_utility(objective, np.ones(4), method="gd", learning_rate=10.0, max_iter=30)
    assert np.any(np.diff(result.surrogate_history) < 0)


@pytest.mark.parametrize("method", ["gd", "bfgs"])
def test_batch_equals_separate_runs(method):
    """K starts advance independently: the batch gives each start's single-run result (up to BLAS rounding)."""
    objective, _, _ = _problem()
    theta0 = np.random.default_rng(5).normal(size=(3, 4))
    batch = maximize_surrogate_utility(objective, theta0, method=method, max_iter=8)
    for k in range(3):
        one = maximize_surrogate_utility(objective, theta0[k], method=method, max_iter=8)
        np.testing.assert_allclose(batch.theta[k], one.theta, rtol=1e-9, atol=1e-12)
        assert batch.iterations[k] == one.iterations
        assert batch.phase1_steps[k] == one.phase1_steps
        assert batch.surrogate_utility[k] == pytest.approx(one.surrogate_utility, rel=1e-12, abs=0)


@pytest.mark.parametrize("method", ["gd", "bfgs"])
@pytest.mark.parametrize("learning_rate", [10.0, 1e-5])
def test_phase1_reaches_positive_numerator(method, learning_rate):
    """Alg. 1's first loop: from theta = -3 * (a good direction), N_hat < 0; phase 2 starts with N_hat > 0.

    Step doubling makes this work from the benchmark grid's smallest learning rate too.
    """
    objective, _, _ = _problem()
    good = maximize_surrogate_utility(objective, np.zeros(4), max_iter=50).theta
    start = -3 * good
    assert objective.numerator(start) < 0
    result = maximize_surrogate_utility(objective, start, method=method, learning_rate=learning_rate, max_iter=0)
    assert result.phase1_steps >= 1
    assert objective.numerator(result.theta) > 0
    assert result.iterations == 0
    assert result.surrogate_history.shape == (1,)


def test_phase1_fails_clearly_when_the_numerator_is_flat():
    """F1's numerator sums over the positives of S_0 only: with none there, N_hat = 0 for every theta."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.r_[-np.ones(20), np.ones(20)].astype(int)  # S_0 = first 20 points: all negative
    objective = EmpiricalSurrogateUtility(M.f_beta(1.0), L.TauDiscrepantLogisticLoss(0.33), X, y)
    result = maximize_surrogate_utility(objective, np.zeros(2))
    assert not result.converged
    assert result.message.startswith("phase 1 failed: grad N_hat = 0")
    assert np.isnan(result.surrogate_utility)


def test_phase1_cap_is_reported():
    objective, _, _ = _problem()
    good = maximize_surrogate_utility(objective, np.zeros(4), max_iter=50).theta
    result = maximize_surrogate_utility(objective, -3 * good, learning_rate=1e-5, max_phase1_iter=2)
    assert result.phase1_steps == 2
    assert result.message == "phase 1 did not reach N_hat > 0 within max_phase1_iter = 2 steps"
    assert not result.converged


def test_history_off_gives_the_same_run():
    objective, _, _ = _problem()
    on = maximize_surrogate_utility(objective, np.zeros(4), max_iter=20)
    off = maximize_surrogate_utility(objective, np.zeros(4), max_iter=20, history=False)
    assert off.surrogate_history is None and off.true_history is None
    np.testing.assert_array_equal(on.theta, off.theta)
    assert on.true_utility == off.true_utility


def test_gtol_stops_with_converged_flag():
    objective, _, _ = _problem(tau=1.0)
    result = maximize_surrogate_utility(objective, np.zeros(4), gtol=1e-3, max_iter=500)
    assert result.converged
    assert result.message.startswith("converged: ||grad U_hat||")
    assert np.linalg.norm(objective.gradient(result.theta)) <= 1e-3


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"method": "newton"}, ValueError, r"^method must be one of \('gd', 'bfgs'\); got 'newton'$"),
    ({"learning_rate": 0.0}, ValueError, r"^learning_rate must lie in \(0\.0, inf\); got 0\.0$"),
    ({"learning_rate": float("nan")}, ValueError, r"^learning_rate must be a finite real number"),
    ({"max_iter": -1}, ValueError, r"^max_iter must be an int >= 0; got -1$"),
    ({"max_iter": True}, TypeError, r"^max_iter must be an int; got True$"),
    ({"max_phase1_iter": 2.5}, TypeError, r"^max_phase1_iter must be an int; got 2\.5$"),
    ({"gtol": -1.0}, ValueError, r"^gtol must lie in \[0\.0, inf\); got -1\.0$"),
])
def test_bad_options_are_named(kwargs, exc, match):
    objective, _, _ = _problem()
    with pytest.raises(exc, match=match):
        maximize_surrogate_utility(objective, np.zeros(4), **kwargs)


def test_bad_objective_and_theta0():
    objective, X, y = _problem()
    with pytest.raises(TypeError, match=r"^objective must be an EmpiricalSurrogateUtility; got tuple$"):
        maximize_surrogate_utility((X, y), np.zeros(4))
    with pytest.raises(ValueError, match="theta0"):
        maximize_surrogate_utility(objective, np.zeros(3))


@pytest.mark.parametrize("method, learning_rate", [("bfgs", 10.0), ("gd", 10.0), ("bfgs", 0.1)])
def test_unbounded_surrogate_utility_stops_with_a_finite_theta(method, learning_rate):
    """Separable data whose S_1 holds no positive example: D_hat -> 0 as theta grows, so U_hat is unbounded above
    (reported by the benchmark on german.numer at n = 20).  The run stops with a named reason at the last finite
    iterate: no RuntimeWarning (an error under this suite's filterwarnings), no non-finite theta."""
    rng = np.random.default_rng(0)
    X = np.c_[np.r_[rng.normal(2, 0.3, size=(5, 2)), rng.normal(-2, 0.3, size=(15, 2))], np.ones(20)]
    y = np.r_[np.ones(5), -np.ones(15)].astype(int)  # S_0 = first 10 (5 positives), S_1 = last 10: negatives
    objective = EmpiricalSurrogateUtility(M.f_beta(1.0), L.TauDiscrepantLogisticLoss(0.33), X, y)
    result = maximize_surrogate_utility(objective, np.zeros(3), method=method, learning_rate=learning_rate,
                                        max_iter=300)
    assert result.message.startswith("stopped: U_hat or its gradient is not finite at the next iterate")
    assert not result.converged
    assert np.isfinite(result.theta).all() and np.isfinite(result.surrogate_utility)
    assert result.surrogate_utility > 1e6  # far beyond any attainable true utility (<= 1): unbounded
    assert np.isfinite(result.surrogate_history).all()


def test_phase1_rejects_trial_steps_whose_scores_overflow():
    """Exponential loss, learning rate 1e6: the first trial steps overflow phi (exp of ~1e6); they are rejected
    and halved instead of raising, and phase 1 still ends with N_hat > 0."""
    objective, X, y = _problem()
    good = maximize_surrogate_utility(objective, np.zeros(4), max_iter=50).theta
    exponential = EmpiricalSurrogateUtility(objective.metric, L.exponential(), X, y)
    start = -3 * good
    assert exponential.numerator(start) < 0
    with pytest.raises(ValueError, match="overflow"):
        exponential.numerator(start + 1e6 * good / np.linalg.norm(good))  # what an unguarded trial would hit
    result = maximize_surrogate_utility(exponential, start, learning_rate=1e6, max_iter=0)
    assert result.phase1_steps >= 1
    assert exponential.numerator(result.theta) > 0


@pytest.mark.parametrize("method", ["gd", "bfgs"])
@pytest.mark.parametrize("batch", [False, True])
def test_callback_theta_of_pass_t_is_a_run_with_max_iter_t(method, batch):
    # Oracle: separate runs stopped after t passes (the convergence study's former re-runs), bit for bit.
    obj = _problem(n=300, d=3, seed=5)[0]
    rng = np.random.default_rng(11)
    theta0 = rng.standard_normal((3, 3)) if batch else rng.standard_normal(3)
    seen = {}
    full = maximize_surrogate_utility(obj, theta0, method=method, learning_rate=0.1, max_iter=25,
                                      callback=lambda t, theta: seen.setdefault(t, theta))
    T = int(np.max(full.iterations))
    assert sorted(seen) == list(range(T + 1))
    np.testing.assert_array_equal(seen[T], full.theta)
    for t in (0, 1, 2, 7, T):
        run = maximize_surrogate_utility(obj, theta0, method=method, learning_rate=0.1, max_iter=t, history=False)
        np.testing.assert_array_equal(seen[t], run.theta)
    assert seen[0].shape == np.shape(theta0) and not np.array_equal(seen[0], seen[T])


def test_callback_gets_copies_and_must_be_callable():
    obj = _problem(n=200, d=3, seed=2)[0]
    kept = []
    result = maximize_surrogate_utility(obj, np.ones(3), max_iter=5, callback=lambda t, theta: kept.append(theta))
    kept[-1][:] = 0.0  # mutating what the callback received must not touch the result
    assert np.any(result.theta != 0.0)
    with pytest.raises(TypeError, match="callback must be callable"):
        maximize_surrogate_utility(obj, np.ones(3), callback=3)
