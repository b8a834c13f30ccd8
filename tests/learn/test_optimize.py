"""Algorithm 1 (hybrid) with Algorithm 2 (U-GD) and BFGS (U-BFGS): lfverify/learn/_optimize.py.

Oracles: a literal transcription of Algorithm 2 driven by the double sum of Eq. (7) (``reference_gradient_direction``),
scipy.optimize's BFGS on U_hat with the quotient-rule gradient (an independent quasi-Newton implementation), and
the defining properties of each phase (phase 1 ends with N_hat > 0; Armijo steps never decrease U_hat).  The path
tests at the end compare the run iterate by iterate with dense, one-theta textbook twins of the documented updates
(``_twin_phase1``, ``_reference_u_bfgs``, ``_reference_u_gd``) and check the Armijo constant by hand; each names the
planted mutants of optimize.py it was seen to kill.

Private: lfverify.learn._optimize._evaluate, the batch evaluation whose documented rule is pinned row by row.
"""

from typing import NamedTuple

import numpy as np
import pytest
from scipy.optimize import minimize

from lfverify import core
from lfverify.core import EmpiricalSurrogateUtility, reference_gradient_direction
from lfverify.learn import maximize_surrogate_utility

pytestmark = pytest.mark.claims("Algorithm 1", "Algorithm 2")


def _problem(n=400, d=4, seed=0, tau=0.33, metric=None):
    rng = np.random.default_rng(seed)
    X = np.c_[rng.normal(size=(n, d - 1)), np.ones(n)]
    w = np.r_[rng.normal(size=d - 1), -1.0]
    y = np.where(rng.uniform(size=n) < 1 / (1 + np.exp(-X @ w)), 1, -1)
    metric = metric or core.f_beta(1.0)
    return EmpiricalSurrogateUtility(metric, core.TauDiscrepantLogisticLoss(tau), X, y), X, y


def test_gd_follows_algorithm_2_literally():
    """Alg. 2: theta <- theta + gamma V_hat / ||V_hat||, V_hat from the literal double sum of Eq. (7)."""
    objective, X, y = _problem(n=120, d=3)
    theta0 = np.array([0.3, -0.2, 0.5])
    assert objective.numerator(theta0) > 0  # phase 1 is skipped: only Alg. 2 runs
    result = maximize_surrogate_utility(objective, theta0, method="gd", learning_rate=0.05, max_iter=15)
    theta = theta0.copy()
    for _ in range(15):
        v = reference_gradient_direction(objective.metric, objective.loss, X, y, theta)
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
        theta = theta + 0.05 * reference_gradient_direction(objective.metric, objective.loss, X, y, theta)
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
    objective = EmpiricalSurrogateUtility(core.f_beta(1.0), core.TauDiscrepantLogisticLoss(0.33), X, y)
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
    objective = EmpiricalSurrogateUtility(core.f_beta(1.0), core.TauDiscrepantLogisticLoss(0.33), X, y)
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
    exponential = EmpiricalSurrogateUtility(objective.metric, core.exponential(), X, y)
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


# ---------------------------------------------------------------------------------------------------------------
# Path oracles: dense textbook twins of the documented updates, compared iterate by iterate.
#
# The twins below re-state the updates that lfverify/learn/_optimize.py documents (module notes and docstrings) for ONE
# parameter vector with plain numpy: a dense inverse-Hessian matrix, Python loops, no batching, no masks.  They
# only use EmpiricalSurrogateUtility's scalar methods (numerator, numerator_gradient, value, gradient), and the
# BFGS twin minimises f = -U_hat in Nocedal & Wright's notation (product form (6.17) of the update instead of the
# library's expanded O(d^2) form).  Every constant is written out here (the module's are not imported), so a
# changed constant in optimize.py makes the paths part where a decision depends on it (the Armijo constant is
# pinned by a hand computation at the end: no trial of these paths lands near it).  The twins leave out the
# guards for degenerate runs (overflow, theta beyond floating-point resolution, underflowed gradients), which
# the tests above cover.
# ---------------------------------------------------------------------------------------------------------------

#: Armijo constant, halvings and curvature-skip threshold as documented in optimize.py.
_TWIN_ARMIJO = 1e-4
_TWIN_TRIAL_STEPS = 40  # alpha = 1, 1/2, ..., 1/2^39
_TWIN_SKIP = 1e-12


def _twin_phase1(objective, theta0, learning_rate, max_steps=1000):
    """Alg. 1's first loop as documented: normalized ascent on N_hat with step doubling, for one theta.

    theta <- theta + s g / ||g|| with g = grad N_hat; an increase of N_hat accepts the step and doubles s, no
    increase (or overflowing scores) rejects it and halves s.  Stops when N_hat > 0 or after ``max_steps``
    accepted steps.

    Returns
    -------
    path : list of ndarray
        theta after 0, 1, 2, ... accepted steps (path[-1] is where phase 2 starts).
    rejected : int
        Rejected trial steps.
    """
    theta = np.array(theta0, dtype=np.float64)
    step, numerator = learning_rate, objective.numerator(theta)
    path, rejected = [theta.copy()], 0
    while numerator <= 0 and len(path) - 1 < max_steps:
        g = objective.numerator_gradient(theta)
        trial = theta + step * g / np.linalg.norm(g)
        try:
            trial_numerator = objective.numerator(trial)
        except ValueError:  # overflowing scores: a rejected trial
            trial_numerator = -np.inf
        if trial_numerator > numerator:
            theta, numerator, step = trial, trial_numerator, 2.0 * step
            path.append(theta.copy())
        else:
            step, rejected = 0.5 * step, rejected + 1
            assert step > 1e-300, "twin: phase 1 stalls (not a setting these tests use)"
    return path, rejected


class _TwinRun(NamedTuple):
    """A twin's run: phase-1 path, phase-2 iterates (t = 0, ..., iterations), U_hat there, and why it stopped."""

    phase1: list
    iterates: list
    values: list
    iterations: int
    stop: str  # "gtol", "no increase" or "max_iter"
    events: list  # (t, what): pairs used or skipped, shortened steps, restarts, H not positive definite


def _reference_u_bfgs(objective, theta0, *, learning_rate, max_iter, gtol=1e-8, max_phase1_iter=1000):
    """Dense textbook BFGS on f = -U_hat with Armijo backtracking, as optimize.py documents U-BFGS, for one theta.

    * Start after phase 1 (:func:`_twin_phase1`), with H_0 = (learning_rate / ||grad f||) I: the first step is
      learning_rate times the normalized gradient.
    * Each iteration: stop if ||grad f|| <= gtol; p = -H grad f; accept the first alpha in 1, 1/2, ..., 1/2^39
      with f(theta + alpha p) <= f(theta) + 1e-4 alpha grad f^T p (a trial point where U_hat is undefined fails).
    * Curvature pair s = alpha p, y = grad f(new) - grad f(old); skipped unless y^T s > 1e-12 ||y|| ||s||.  The
      first used pair after a (re)start replaces H by (y^T s / y^T y) I (N&W Eq. (6.20)), then every used pair
      applies H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T, rho = 1 / y^T s (N&W Eq. (6.17)).
    * No alpha accepted: if p was the normalized-gradient step (the first one, or the first after a restart),
      stop ("no increase": maximal to the line search's resolution); else restart (H = H_0 at the current
      gradient, theta unchanged; the pass counts as an iteration).
    * If H has lost positive definiteness (grad f^T p >= 0), that iteration takes the normalized-gradient step.
    """
    path, _ = _twin_phase1(objective, theta0, learning_rate, max_phase1_iter)
    theta = path[-1]
    assert objective.numerator(theta) > 0, "twin: only for runs whose phase 1 ends"
    identity = np.eye(theta.size)

    def f(point):
        try:
            return -objective.value(point)
        except ValueError:  # D_hat <= 0: U_hat undefined, the trial point is rejected
            return np.inf

    f_theta, grad_f = -objective.value(theta), -objective.gradient(theta)

    def initial(gradient):  # H_0: p = -H_0 grad f is learning_rate times the normalized gradient of U_hat
        return learning_rate / np.linalg.norm(gradient) * identity

    H, scaled, steepest = initial(grad_f), False, True
    iterates, values, events = [theta.copy()], [-f_theta], []
    stop, iterations = "max_iter", 0
    for t in range(1, max_iter + 1):
        if np.linalg.norm(grad_f) <= gtol:
            stop = "gtol"
            break
        iterations += 1
        p = -H @ grad_f
        slope = grad_f @ p
        if not slope < 0:
            p = -learning_rate * grad_f / np.linalg.norm(grad_f)
            slope, steepest = grad_f @ p, True
            events.append((t, "H not positive definite"))
        for halvings in range(_TWIN_TRIAL_STEPS):
            alpha = 0.5 ** halvings
            trial = theta + alpha * p
            f_trial = f(trial)
            if f_trial <= f_theta + _TWIN_ARMIJO * alpha * slope:
                break
        else:
            if steepest:  # the pass counts (and is reported) with theta unchanged
                stop = "no increase"
                iterates.append(theta.copy())
                values.append(-f_theta)
                break
            events.append((t, "restart"))
            H, scaled, steepest = initial(grad_f), False, True
            iterates.append(theta.copy())
            values.append(-f_theta)
            continue
        if halvings:
            events.append((t, f"step halved {halvings}x"))
        new_grad_f = -objective.gradient(trial)
        s, y = trial - theta, new_grad_f - grad_f
        if y @ s > _TWIN_SKIP * np.linalg.norm(y) * np.linalg.norm(s):
            if not scaled:
                H, scaled = (y @ s) / (y @ y) * identity, True
            rho = 1.0 / (y @ s)
            H = (identity - rho * np.outer(s, y)) @ H @ (identity - rho * np.outer(y, s)) + rho * np.outer(s, s)
            events.append((t, "pair used"))
        else:
            events.append((t, "pair skipped"))
        steepest = False
        theta, f_theta, grad_f = trial, f_trial, new_grad_f
        iterates.append(theta.copy())
        values.append(-f_theta)
    return _TwinRun(path, iterates, values, iterations, stop, events)


def _reference_u_gd(objective, theta0, *, learning_rate, max_iter, gtol=1e-8, max_phase1_iter=1000):
    """Alg. 1 with Alg. 2 for one theta: phase 1 (:func:`_twin_phase1`), then theta <- theta + gamma g / ||g||,
    g = grad U_hat, until ||g|| <= gtol or ``max_iter`` steps."""
    path, _ = _twin_phase1(objective, theta0, learning_rate, max_phase1_iter)
    theta = path[-1]
    assert objective.numerator(theta) > 0, "twin: only for runs whose phase 1 ends"
    iterates, stop = [theta.copy()], "max_iter"
    for _ in range(max_iter):
        g = objective.gradient(theta)
        if np.linalg.norm(g) <= gtol:
            stop = "gtol"
            break
        theta = theta + learning_rate * g / np.linalg.norm(g)
        iterates.append(theta.copy())
    return _TwinRun(path, iterates, [objective.value(t) for t in iterates], len(iterates) - 1, stop, [])


def _assert_same_point(actual, expected, what):
    """||actual - expected|| <= 1e-12 ||expected||: no absolute slack (the iterates here are far from 0)."""
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    error = np.linalg.norm(actual - expected)
    assert error <= 1e-12 * np.linalg.norm(expected), (
        f"{what}: library {actual.tolist()} vs twin {expected.tolist()} (relative error "
        f"{error / np.linalg.norm(expected):.3g})")


def _run_with_iterates(objective, theta0, **options):
    """The library's run and the theta it reported to callback(t, theta) for t = 0, 1, ..."""
    seen = {}
    result = maximize_surrogate_utility(objective, theta0, callback=lambda t, theta: seen.setdefault(t, theta),
                                        **options)
    assert sorted(seen) == list(range(len(seen)))
    return result, [seen[t] for t in range(len(seen))]


def _twin_problem(setting):
    """The small seeded problems of the path tests: (objective, theta0)."""
    _, n, seed, loss, metric, start_seed = setting  # the first field only labels the setting
    X, y = _problem(n=n, d=3, seed=seed)[1:]
    objective = EmpiricalSurrogateUtility(metric, loss, X, y)
    return objective, np.random.default_rng(start_seed).normal(size=3)


_BFGS_SETTINGS = {
    # F1, tau = 0.33 (kink at 0), default-sized steps; the start has N_hat < 0 (5 phase-1 steps); Armijo halvings
    # at iterations 6, 7 and 8.  Compared for 12 iterations (the kink makes later iterates ill-conditioned).
    "f1-tau0.33-lr0.1": (("f1", 60, 0, core.TauDiscrepantLogisticLoss(0.33), core.f1(), 10), 0.1, 12),
    # Jaccard, logistic (tau = 1), learning_rate 2: the pairs of iterations 2-4 fail the curvature test and are
    # skipped, iteration 6 halves the step; ||grad U_hat|| <= 1e-8 after 13 iterations (the whole run).
    "jaccard-tau1-lr2": (("jaccard", 60, 1, core.TauDiscrepantLogisticLoss(1.0), core.jaccard(), 11), 2.0, 30),
}


@pytest.mark.parametrize("name", sorted(_BFGS_SETTINGS))
def test_bfgs_iterates_equal_dense_textbook_twin(name):
    """U-BFGS, iterate by iterate: phase 1, the first step, Armijo backtracking, curvature pairs from grad U_hat,
    the (6.20) scaling and the (6.17) update, the skip rule and the stop.

    Oracle: dense textbook BFGS twin (:func:`_reference_u_bfgs`) on the same objective; every callback theta, the
    U_hat history, the iteration and phase-1 counts and the stop reason must agree (iterates to 1e-12 relative).

    Kills: the curvature pair's y with its sign flipped; s and y swapped; the line search's halving factor
    0.5 -> 0.25 (f1 setting); H_0 not divided by ||grad U_hat|| (first step not normalized); H_0 built with the
    default 0.1 instead of learning_rate (jaccard setting); no (6.20) scaling before the first update; the
    "+ rho" of the expanded update dropped; pairs with y^T s <= 0 used (skip rule removed; jaccard setting);
    the true utility of a shortened (halved) step not taken from its re-evaluation; the true utility not
    updated after a step; the phase-1 step not normalized or not doubled (f1 setting); range(1, max_iter).
    """
    setting, learning_rate, max_iter = _BFGS_SETTINGS[name]
    objective, theta0 = _twin_problem(setting)
    twin = _reference_u_bfgs(objective, theta0, learning_rate=learning_rate, max_iter=max_iter)
    kinds = [what for _, what in twin.events]
    # the setting exercises what it is meant to (otherwise the comparison proves less than it claims)
    if name.startswith("f1"):
        assert len(twin.phase1) - 1 == 5 and any(k.startswith("step halved") for k in kinds)
        assert twin.stop == "max_iter"
    else:
        assert kinds.count("pair skipped") == 3 and twin.stop == "gtol"
    result, iterates = _run_with_iterates(objective, theta0, method="bfgs", learning_rate=learning_rate,
                                          max_iter=max_iter)
    assert result.phase1_steps == len(twin.phase1) - 1
    assert result.iterations == twin.iterations
    assert len(iterates) == len(twin.iterates)
    for t, (mine, theirs) in enumerate(zip(iterates, twin.iterates)):
        _assert_same_point(mine, theirs, f"theta after pass {t}")
    for t, value in enumerate(twin.values):
        assert result.surrogate_history[t] == pytest.approx(value, rel=1e-12, abs=0)
    np.testing.assert_array_equal(result.true_history, objective.true_utility(np.array(twin.iterates)))
    if twin.stop == "gtol":
        assert result.converged and result.message.startswith("converged: ||grad U_hat||")
    else:
        assert not result.converged and result.message == f"max_iter = {max_iter} phase-2 iterations reached"


def test_bfgs_batch_rows_each_equal_their_own_twin():
    """K = 4 starts in one batch: 2, 1, 1 and 0 phase-1 steps, the last row with skipped pairs; the rows stop (gtol)
    after different numbers of iterations, and a stopped row keeps its theta and repeats its U_hat.

    Oracle: one dense textbook BFGS twin run per row (:func:`_reference_u_bfgs`).

    Kills: the inverse-Hessian update applied by position in the active subset instead of by row (wrong once a
    row has stopped); y's sign flipped; s and y swapped; H_0 not normalized or built with the default 0.1;
    no (6.20) scaling; "+ rho" dropped; the skip rule removed; phase 1 not normalized, not doubled, or started
    from the default 0.1; gtol compared with ||grad||^2.
    """
    objective, _ = _twin_problem(_BFGS_SETTINGS["jaccard-tau1-lr2"][0])
    theta0 = 2.0 * np.random.default_rng(21).normal(size=(4, 3))
    twins = [_reference_u_bfgs(objective, row, learning_rate=2.0, max_iter=20) for row in theta0]
    assert [len(tw.phase1) - 1 for tw in twins] == [2, 1, 1, 0]
    assert len({tw.iterations for tw in twins}) > 1 and all(tw.stop == "gtol" for tw in twins)
    assert any(what == "pair skipped" for tw in twins for _, what in tw.events)
    result, iterates = _run_with_iterates(objective, theta0, method="bfgs", learning_rate=2.0, max_iter=20)
    assert len(iterates) == max(tw.iterations for tw in twins) + 1
    for k, tw in enumerate(twins):
        assert result.phase1_steps[k] == len(tw.phase1) - 1
        assert result.iterations[k] == tw.iterations
        assert result.converged[k]
        for t, theta in enumerate(iterates):
            _assert_same_point(theta[k], tw.iterates[min(t, tw.iterations)], f"row {k}, pass {t}")
            assert result.surrogate_history[t, k] == pytest.approx(tw.values[min(t, tw.iterations)], rel=1e-12,
                                                                   abs=0)


_RESTART_SETTINGS = {
    # hinge loss (U_hat piecewise rational): the quasi-Newton direction fails all 40 trial steps at iteration 36;
    # the run restarts from the normalized gradient and uses new pairs at 37-40.  Compared for 45 iterations.
    "hinge-f1-lr1": (("hinge", 40, 3, core.hinge(), core.f1(), 13), 1.0, 45),
    # tau = 0.1: restart at iteration 28, after which even the normalized-gradient step fails: converged at 29.
    "tau0.1-f1-lr0.1": (("tau0.1", 40, 2, core.TauDiscrepantLogisticLoss(0.1), core.f1(), 12), 0.1, 60),
}


@pytest.mark.parametrize("name", sorted(_RESTART_SETTINGS))
def test_bfgs_restarts_from_the_scaled_gradient_after_a_failed_quasi_newton_search(name):
    """A failed line search along H grad restarts from H_0 = (learning_rate / ||grad||) I (a pass that counts, theta
    unchanged); a failed search along the normalized gradient stops the run as converged.

    Oracle: dense textbook BFGS twin (:func:`_reference_u_bfgs`), iterate by iterate through the restart.

    Kills: the restart removed (H kept, the failed direction retried until max_iter); H not reset but the flags
    set (hinge); the restart not marking H as fresh (a second failure restarts again instead of stopping; tau
    0.1); the (6.20) rescaling not re-armed after a restart (pair_seen kept; hinge); fresh not cleared after an
    accepted step (the first failure stops the run as converged); 40 -> 30 trial steps per line search; alpha
    dropped from the Armijo test of the halvings; the halving factor 0.5 -> 0.25.
    """
    setting, learning_rate, max_iter = _RESTART_SETTINGS[name]
    objective, theta0 = _twin_problem(setting)
    twin = _reference_u_bfgs(objective, theta0, learning_rate=learning_rate, max_iter=max_iter)
    restarts = [t for t, what in twin.events if what == "restart"]
    assert len(restarts) == 1
    if name.startswith("hinge"):
        assert twin.stop == "max_iter"
        assert [t for t, what in twin.events if what == "pair used" and t > restarts[0]][:1] == [restarts[0] + 1]
    else:
        assert twin.stop == "no increase" and twin.iterations == restarts[0] + 1
    result, iterates = _run_with_iterates(objective, theta0, method="bfgs", learning_rate=learning_rate,
                                          max_iter=max_iter)
    assert result.iterations == twin.iterations
    assert len(iterates) == len(twin.iterates)
    for t, (mine, theirs) in enumerate(zip(iterates, twin.iterates)):
        _assert_same_point(mine, theirs, f"theta after pass {t}")
    np.testing.assert_array_equal(iterates[restarts[0]], iterates[restarts[0] - 1])  # the restart pass
    if twin.stop == "no increase":
        assert result.converged
        assert result.message.startswith("converged: no increase of U_hat along the gradient")
    else:
        assert not result.converged


@pytest.mark.parametrize("learning_rate", [1e-3, 10.0])
def test_phase1_each_accepted_step_equals_normalized_ascent_twin(learning_rate):
    """Alg. 1's first loop step by step, for a batch of 3 starts (two with N_hat < 0, one with N_hat > 0): the theta
    after k accepted steps is what a run with max_phase1_iter = k returns.

    Accuracy (N_hat = TP + TN has a finite maximum) with tau = 0.33: learning_rate = 1e-3 needs the doubling (13
    and 12 steps); with 10 the steps overshoot, and accepted and rejected trials alternate (2 and 3 steps).

    Oracle: :func:`_twin_phase1` (theta <- theta + s g / ||g||, s doubled on an increase of N_hat, halved
    otherwise), run per row.

    Kills: the step not normalized (theta + s g); no doubling after an accepted step (learning_rate 1e-3);
    0.5 -> 0.25 for a rejected one (learning_rate 10); learning_rate replaced by the default 0.1 as the first
    step (in _phase1 or by its caller); max_phase1_iter ignored (the default 1000 applies); the doubling indexed
    by position in the active subset instead of by row (learning_rate 1e-3; the row with N_hat > 0 comes first,
    so positions and rows differ).
    """
    objective, _ = _twin_problem(("accuracy", 60, 0, core.TauDiscrepantLogisticLoss(0.33), core.accuracy(), 0))
    good = np.array([1.0, 1.0, -0.5])  # N_hat > 0
    theta0 = np.array([good, -3.0 * good, [-0.5, -2.0, 1.0]])
    assert [objective.numerator(row) > 0 for row in theta0] == [True, False, False]
    twins = [_twin_phase1(objective, row, learning_rate) for row in theta0]
    lengths = [len(path) - 1 for path, _ in twins]
    assert lengths[0] == 0 and min(lengths[1:]) >= 2 and lengths[1] != lengths[2]
    if learning_rate > 1:
        assert all(rejected > 0 for _, rejected in twins[1:])
    for k in range(max(lengths) + 1):
        result = maximize_surrogate_utility(objective, theta0, method="bfgs", learning_rate=learning_rate,
                                            max_iter=0, max_phase1_iter=k)
        for r, (path, _) in enumerate(twins):
            _assert_same_point(result.theta[r], path[min(k, lengths[r])], f"row {r} after {k} steps")
            assert result.phase1_steps[r] == min(k, lengths[r])
            if k < lengths[r]:
                assert result.message[r] == f"phase 1 did not reach N_hat > 0 within max_phase1_iter = {k} steps"
                assert np.isnan(result.surrogate_utility[r])
            else:
                assert result.message[r] == "max_iter = 0 phase-2 iterations reached"
                assert result.surrogate_utility[r] == pytest.approx(objective.value(path[-1]), rel=1e-12, abs=0)


def test_gd_iterates_equal_twin_for_jaccard_batch_after_phase1():
    """U-GD (Alg. 2) with non-default options: Jaccard, tau = 0.33, learning_rate 0.3, a batch of 3 starts of which
    two need phase 1, and the true-utility history.

    Oracle: :func:`_reference_u_gd` per row (phase-1 twin, then theta + gamma g / ||g||), and
    objective.true_utility at the twin's iterates for true_history.

    Kills: gamma replaced by the default 0.1 in the Alg. 2 step; the step not normalized; the true utility not
    updated after a step (true_history constant); phase 1 not normalized, not doubled, or started from the
    default 0.1.
    """
    objective, _ = _twin_problem(("jaccard", 60, 3, core.TauDiscrepantLogisticLoss(0.33), core.jaccard(), 0))
    theta0 = np.random.default_rng(21).normal(size=(3, 3))
    twins = [_reference_u_gd(objective, row, learning_rate=0.3, max_iter=15) for row in theta0]
    assert sorted(len(tw.phase1) - 1 > 0 for tw in twins) == [False, True, True]
    result, iterates = _run_with_iterates(objective, theta0, method="gd", learning_rate=0.3, max_iter=15)
    assert len(iterates) == 16
    for k, tw in enumerate(twins):
        assert result.phase1_steps[k] == len(tw.phase1) - 1 and result.iterations[k] == 15
        for t in range(16):
            _assert_same_point(iterates[t][k], tw.iterates[t], f"row {k}, pass {t}")
            assert result.surrogate_history[t, k] == pytest.approx(tw.values[t], rel=1e-12, abs=0)
        np.testing.assert_array_equal(result.true_history[:, k], objective.true_utility(np.array(tw.iterates)))
    assert len(np.unique(result.true_history[:, 0])) > 1  # the true-utility history is not trivially constant


@pytest.mark.parametrize("method", ["bfgs", "gd"])
def test_max_iter_stops_after_exactly_that_many_passes(method):
    """max_iter = 5 (not the default 100): 5 passes, theta = the twin's 5th iterate, "max_iter" message.

    Oracle: the twin of the method (:func:`_reference_u_bfgs` / :func:`_reference_u_gd`) with max_iter = 5; the
    default would run on (BFGS converges after 13 passes here).

    Kills: range(1, max_iter) (one pass short); max_iter dropped so the default 100 applies; for "gd" also gamma
    replaced by 0.1 and the step not normalized.
    """
    setting, learning_rate, _ = _BFGS_SETTINGS["jaccard-tau1-lr2"]
    objective, theta0 = _twin_problem(setting)
    twin = (_reference_u_bfgs if method == "bfgs" else _reference_u_gd)(
        objective, theta0, learning_rate=learning_rate, max_iter=5)
    assert twin.iterations == 5 and twin.stop == "max_iter"
    result = maximize_surrogate_utility(objective, theta0, method=method, learning_rate=learning_rate, max_iter=5)
    assert result.iterations == 5
    _assert_same_point(result.theta, twin.iterates[5], "theta after 5 passes")
    assert result.surrogate_history.shape == (6,)
    assert result.message == "max_iter = 5 phase-2 iterations reached" and not result.converged


@pytest.mark.parametrize("method, learning_rate, gtol, passes", [("bfgs", 2.0, 2e-3, 8), ("gd", 0.5, 0.04, 7)])
def test_gtol_stops_at_the_first_iterate_with_a_gradient_below_it(method, learning_rate, gtol, passes):
    """A non-default gtol stops the run (converged) at the first iterate with ||grad U_hat|| <= gtol.

    Oracle: the twin of the method with that gtol; the twin's gradient norms are checked to be clear of gtol
    (by a factor >= 1.2 on either side), so rounding cannot move the stop.

    Kills: gtol dropped so the default 1e-8 applies (the run goes on); gtol compared with ||grad U_hat||^2.
    """
    objective, theta0 = _twin_problem(_BFGS_SETTINGS["jaccard-tau1-lr2"][0])
    twin = (_reference_u_bfgs if method == "bfgs" else _reference_u_gd)(
        objective, theta0, learning_rate=learning_rate, max_iter=50, gtol=gtol)
    assert twin.stop == "gtol" and twin.iterations == passes
    norms = [np.linalg.norm(objective.gradient(theta)) for theta in twin.iterates]
    assert norms[-1] <= gtol / 1.2 and min(norms[:-1]) >= 1.2 * gtol
    result = maximize_surrogate_utility(objective, theta0, method=method, learning_rate=learning_rate,
                                        max_iter=50, gtol=gtol)
    assert result.iterations == passes and result.converged
    assert result.message == f"converged: ||grad U_hat|| = {norms[-1]:.3g} <= gtol = {gtol:g}"
    _assert_same_point(result.theta, twin.iterates[-1], "theta at the stop")


@pytest.mark.parametrize("method", ["bfgs", "gd"])
def test_history_off_reports_the_twins_final_utilities(method):
    """history=False: no histories, and the final U_hat and true utility are those of the twin's last iterate.

    Oracle: the twin of the method; U_hat and the true utility evaluated at its last iterate (the true utility
    there differs from the one at the start of phase 2, so a value left from the start is caught).

    Kills: the final true utility not computed when history is off (the start-of-phase-2 value is reported).
    """
    setting, learning_rate, _ = _BFGS_SETTINGS["jaccard-tau1-lr2"]
    objective, theta0 = _twin_problem(setting)
    twin = (_reference_u_bfgs if method == "bfgs" else _reference_u_gd)(
        objective, theta0, learning_rate=learning_rate, max_iter=10)
    final_true = objective.true_utility(twin.iterates[-1])
    assert final_true != objective.true_utility(twin.iterates[0])
    result = maximize_surrogate_utility(objective, theta0, method=method, learning_rate=learning_rate,
                                        max_iter=10, history=False)
    assert result.surrogate_history is None and result.true_history is None
    _assert_same_point(result.theta, twin.iterates[-1], "final theta")
    assert result.surrogate_utility == pytest.approx(twin.values[-1], rel=1e-12, abs=0)
    assert result.true_utility == final_true


@pytest.mark.parametrize("ratio, halvings", [(1.25e-4, 0), (0.8e-4, 1)])
def test_bfgs_first_step_is_kept_exactly_when_u_hat_rises_by_1e4_times_the_slope(ratio, halvings):
    """The Armijo constant: the first U-BFGS step lam g / ||g|| (lam = learning_rate) is kept iff
    U_hat(theta0 + lam g / ||g||) - U_hat(theta0) >= 1e-4 lam ||g||, else it is halved.

    Oracle: hand computation.  r(lam) = (U_hat(theta0 + lam g / ||g||) - U_hat(theta0)) / (lam ||g||) falls from
    about 1 to below 0 between lam = 10 and 20; bisection finds lam with r(lam) = 1.25e-4 (kept: theta1 =
    theta0 + lam g / ||g||) or 0.8e-4 (halved once, r(lam / 2) being far above 1e-4: theta1 = theta0 +
    (lam / 2) g / ||g||).  This pins the constant to (0.8e-4, 1.25e-4]; the iterate tests above cannot see
    it (no trial of theirs lands between 1e-4 and 1e-3).

    Kills: Armijo constant 1e-4 -> 1e-3; -> 0 (a plain increase test); -> 1e-5.
    """
    objective, theta0 = _twin_problem(_BFGS_SETTINGS["jaccard-tau1-lr2"][0])
    assert objective.numerator(theta0) > 0  # no phase 1
    g = objective.gradient(theta0)
    unit, slope, start = g / np.linalg.norm(g), np.linalg.norm(g), objective.value(theta0)

    def r(lam):
        return (objective.value(theta0 + lam * unit) - start) / (lam * slope)

    low, high = 10.0, 20.0
    assert r(low) > ratio > r(high)
    for _ in range(60):
        middle = 0.5 * (low + high)
        low, high = (middle, high) if r(middle) > ratio else (low, middle)
    lam = low
    assert r(lam) == pytest.approx(ratio, rel=1e-6, abs=0) and r(lam / 2) > 10 * 1e-4
    result = maximize_surrogate_utility(objective, theta0, method="bfgs", learning_rate=lam, max_iter=1)
    assert result.iterations == 1 and result.phase1_steps == 0
    _assert_same_point(result.theta, theta0 + lam * 0.5 ** halvings * unit, "theta after the first step")


def test_a_row_with_a_non_finite_gradient_is_not_ok_and_the_other_rows_are():
    """Oracle: _evaluate's documented rule, row by row ("the other rows of the batch are unaffected"), on a stand-in
    objective whose batch evaluation gives finite values everywhere, an infinite gradient entry in row 1 and a NaN
    value in row 3.

    Kills: optimize.x__evaluate__lfv_dropkw_1 (``np.isfinite(gradient).all()`` over the whole batch)."""
    from types import SimpleNamespace

    from lfverify.learn._optimize import _evaluate

    class Objective:
        def evaluate(self, theta, *, true_utility, direction):
            gradient = np.ones_like(theta)
            gradient[1, 0] = np.inf
            value = np.arange(theta.shape[0], dtype=float)
            value[3] = np.nan
            return SimpleNamespace(value=value, gradient=gradient, true_utility=value + 0.5)

    out, ok = _evaluate(Objective(), np.zeros((4, 3)), True)
    assert ok.tolist() == [True, False, True, False]
    np.testing.assert_array_equal(out.value, [0.0, 1.0, 2.0, np.nan])
    np.testing.assert_array_equal(out.true_utility, [0.5, 1.5, 2.5, np.nan])
    assert np.isinf(out.gradient[1, 0]) and np.isfinite(np.delete(out.gradient, 1, axis=0)).all()


def test_a_row_with_an_undefined_u_hat_after_phase_1_stops_there_and_leaves_the_batch_alone():
    """Oracle: the documented stop ("U_hat or its gradient is not finite at the end of phase 1", theta the start,
    no phase-2 iteration) for a row started where D_hat underflows to 0 (10 x the far iterate of the unbounded
    sample above); the other row of the batch equals a run of its own.

    Kills: optimize.x_maximize_surrogate_utility__mutmut_131 (the row left active)."""
    rng = np.random.default_rng(0)
    X = np.c_[np.r_[rng.normal(2, 0.3, size=(5, 2)), rng.normal(-2, 0.3, size=(15, 2))], np.ones(20)]
    y = np.r_[np.ones(5), -np.ones(15)].astype(int)
    objective = EmpiricalSurrogateUtility(core.f_beta(1.0), core.TauDiscrepantLogisticLoss(0.33), X, y)
    far = 10 * maximize_surrogate_utility(objective, np.zeros(3), method="gd", learning_rate=10.0,
                                          max_iter=300).theta
    batch = maximize_surrogate_utility(objective, np.stack([far, np.zeros(3)]), method="gd", learning_rate=10.0,
                                       max_iter=3)
    alone = maximize_surrogate_utility(objective, np.zeros(3), method="gd", learning_rate=10.0, max_iter=3)
    assert batch.message[0] == ("stopped: U_hat or its gradient is not finite at the end of phase 1 (D_hat -> 0: "
                                "U_hat is unbounded above on this sample, e.g. S_1 holds no positive example and the "
                                "data are separable); theta is the last finite iterate")
    assert (batch.iterations[0], bool(batch.converged[0]), batch.phase1_steps[0]) == (0, False, 0)
    # documented "phase1_steps : int or ndarray of int" (kills optimize.x__phase1__mutmut_5: float counts)
    assert batch.phase1_steps.dtype.kind == "i" and batch.iterations.dtype.kind == "i"
    assert type(alone.phase1_steps) is int and type(alone.iterations) is int
    np.testing.assert_array_equal(batch.theta[0], far)
    np.testing.assert_array_equal(batch.theta[1], alone.theta)
    assert (batch.message[1], batch.iterations[1]) == (alone.message, alone.iterations)


@pytest.mark.parametrize("learning_rate, long_against_theta", [(1e5, True), (2.0 ** 39 * 5e-8, False)])
def test_a_failed_first_search_is_a_maximum_only_when_its_shortest_trial_step_is_short(learning_rate,
                                                                                       long_against_theta):
    """Oracle: the documented BFGS stop (module docstring): when the normalized-gradient step and its 39 halvings
    all fail to increase U_hat, the run is converged only if the shortest trial step, learning_rate / 2^39, is at
    most sqrt(eps) max(1, ||theta||); otherwise it stops unconverged and names learning_rate as too large.  Started
    1e-9 from a maximum (||theta|| ~ 5), every trial step overshoots it; the two learning rates give a shortest
    step of 1.8e-7 (long) and 5e-8 (between sqrt(eps) = 1.5e-8 and sqrt(eps) ||theta|| = 8e-8: short only through
    ||theta||).  The whole message is written out here from that rule.

    Kills: optimize.x_maximize_surrogate_utility__mutmut_300 (the message's wording changed) and the branch's
    comparison or its max(1, ||theta||)."""
    rng = np.random.default_rng(0)
    X = np.c_[rng.normal(size=(40, 2)), np.ones(40)]
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=40) > 0, 1, -1)
    objective = EmpiricalSurrogateUtility(core.f_beta(1.0), core.TauDiscrepantLogisticLoss(0.33), X, y)
    top = maximize_surrogate_utility(objective, np.zeros(X.shape[1]), method="bfgs", learning_rate=0.1,
                                     max_iter=500, gtol=1e-14).theta
    theta0 = top + 1e-9 * np.array([1.0, -1.0, 0.5])
    result = maximize_surrogate_utility(objective, theta0, method="bfgs", learning_rate=learning_rate, max_iter=5,
                                        gtol=1e-14)
    shortest, size = learning_rate / 2.0 ** 39, float(np.linalg.norm(theta0))
    sqrt_eps = float(np.finfo(np.float64).eps) ** 0.5
    assert (shortest > sqrt_eps * max(1.0, size)) is long_against_theta  # the case is the one named
    assert result.iterations == 1 and result.phase1_steps == 0
    np.testing.assert_array_equal(result.theta, theta0)
    if long_against_theta:
        assert result.converged is False
        assert result.message == (
            "stopped: no increase of U_hat along the gradient, but even the shortest trial step "
            f"({shortest:.3g}, after 40 halvings) is long against theta (||theta|| = {size:.3g}): "
            f"learning_rate = {learning_rate:g} is too large to locate a maximum")
    else:
        assert result.converged is True
        assert result.message == ("converged: no increase of U_hat along the gradient after 40 step halvings "
                                  "(maximal to the line search's resolution)")


def test_u_gd_allocates_no_d_by_d_matrix_on_a_wide_sparse_problem():
    import tracemalloc

    import scipy.sparse as sp

    d, n = 20_000, 200  # a d x d float64 matrix is 3.2 GB; the data and the iterates are a few MB
    rng = np.random.default_rng(0)
    X = sp.random(n, d, density=0.001, format="csr", random_state=0)
    y = np.where(rng.normal(size=n) > 0, 1, -1)
    u = EmpiricalSurrogateUtility(core.f1(), core.tau_logistic(0.33), X, y)
    tracemalloc.start()
    try:
        maximize_surrogate_utility(u, np.full(d, 0.01), method="gd", max_iter=3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6, f"U-GD's peak allocation {peak / 1e6:.0f} MB"
