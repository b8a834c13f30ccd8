"""The hybrid optimizer of Algorithm 1, with normalized gradient ascent (Algorithm 2, "U-GD") or BFGS ("U-BFGS").

Algorithm 1 has two phases for f_theta(x) = theta^T x:

1. while N_hat(theta) <= 0: ascend the numerator N_hat, which is concave when phi is convex (Lemma 2);
2. then maximise U_hat = N_hat / D_hat, which is quasi-concave on {N_hat >= 0} (Lemma 2), with either
   - ``method="gd"``: Algorithm 2, theta <- theta + gamma V_hat / ||V_hat|| (V_hat of Eq. (7) is parallel to
     grad U_hat = V_hat / D_hat^2, so this is the normalized gradient step of Hazan et al. 2015); or
   - ``method="bfgs"``: quasi-Newton ascent with an inverse-Hessian approximation built from gradients of U_hat.

Every parameter vector of a batch theta0 of shape (K, d) advances on its own (its own phase, step sizes,
inverse Hessian and stopping), but each iteration evaluates all active rows with one batched pass of
:class:`~lfverify.core.EmpiricalSurrogateUtility` (one matrix product per chunk of samples).

Choices the paper leaves open (Alg. 1 only says ``gradient_based_update``), documented here:

* Phase 1 takes normalized steps theta <- theta + s g / ||g|| along g = grad N_hat, starting at
  s = ``learning_rate``; a step that increases N_hat is accepted and doubles s, one that does not halves s and is
  retried.  N_hat is concave, so this reaches {N_hat > 0} whenever the sup of N_hat is positive, also from a
  tiny learning rate (the benchmark's grid goes down to 1e-5).
* "BFGS using the normalized gradient" (Sec. 3.3) is ambiguous: curvature pairs built from unit vectors do not
  estimate a Hessian.  ``"bfgs"`` uses grad U_hat = V_hat / D_hat^2 (the same direction) for the curvature pairs,
  an Armijo backtracking line search on U_hat, and an initial inverse Hessian scaled so that the first step is
  ``learning_rate`` times the *normalized* gradient; afterwards the usual scaling y^T s / y^T y (Nocedal & Wright
  Eq. (6.20)).  A pair with y^T s <= 1e-12 ||y|| ||s|| (possible without a Wolfe search, and at the loss's
  kink) is skipped.
* Stopping: ``max_iter`` phase-2 iterations, or ||grad U_hat|| <= ``gtol`` (converged), or, for BFGS, no increase
  of U_hat along the steepest-ascent direction (converged: maximal to the line search's resolution).  A stop is
  reported as converged only when it says something about U_hat; these stop with ``converged = False`` and say
  why: a gradient that underflowed (||grad U_hat|| below the smallest normal double while grad N_hat - U_hat
  grad D_hat is not 0), a step of ``learning_rate`` that no longer changes theta (theta beyond its
  floating-point resolution), a gradient below ``gtol`` along which a step of ``learning_rate`` still changes
  U_hat by more than sqrt(``gtol``) (small only because theta is huge, e.g. after a step of 1e300), and a BFGS
  line search whose shortest trial step (``learning_rate`` / 2^39) is still long against theta (> sqrt(eps)
  max(1, ||theta||): ``learning_rate`` too large to locate a maximum).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from lfverify.core import EmpiricalSurrogateUtility, check_parameters, check_real

__all__ = ["OptimizationResult", "maximize_surrogate_utility", "METHODS"]

#: Phase-2 methods: Algorithm 2 (normalized gradient ascent) and BFGS.
METHODS = ("gd", "bfgs")

#: Armijo constant of the BFGS line search: accept alpha when U(theta + alpha p) >= U(theta) + c alpha grad.p.
_ARMIJO = 1e-4
#: Smallest positive normal double: a gradient norm below it has lost digits (underflow).
_TINY = np.finfo(np.float64).tiny
#: A trial step at most this long, relative to max(1, ||theta||), locates a maximum (sqrt of machine epsilon).
_SHORT_STEP = float(np.sqrt(np.finfo(np.float64).eps))
#: Halvings of the BFGS step before the line search gives up at this iteration.
_MAX_HALVINGS = 40


@dataclass(frozen=True)
class OptimizationResult:
    """Outcome of :func:`maximize_surrogate_utility`.

    For a single start theta0 of shape (d,) the per-problem fields are scalars and the histories have shape
    (iterations + 1,); for a batch of K starts they are arrays with a leading or trailing axis K.

    Attributes
    ----------
    theta : ndarray, shape (d,) or (K, d)
        The final parameters.
    method : str
        ``"gd"`` (U-GD) or ``"bfgs"`` (U-BFGS).
    phase1_steps : int or ndarray of int, shape (K,)
        Accepted numerator-ascent steps of Alg. 1's first loop (0 when N_hat(theta0) > 0 already).
    iterations : int or ndarray of int, shape (K,)
        Phase-2 iterations performed: passes of the phase-2 loop in which the problem was still running (a
        BFGS pass whose line search failed and restarted from the gradient counts, with theta unchanged).
    surrogate_utility, true_utility : float or ndarray, shape (K,)
        U_hat and the empirical true utility of sgn(theta^T x) (sgn(0) = -1) at the final theta.
    surrogate_history, true_history : ndarray, shape (T + 1,) or (T + 1, K), or None
        The same two quantities at the start of phase 2 and after each phase-2 iteration, T = max(iterations);
        a problem that stopped early repeats its last value.  ``None`` when ``history=False``.
    converged : bool or ndarray of bool, shape (K,)
        Whether a stopping criterion other than ``max_iter`` (or the phase-1 cap) ended the run.
    message : str or list of str
        Why each problem stopped.
    """

    theta: np.ndarray
    method: str
    phase1_steps: object
    iterations: object
    surrogate_utility: object
    true_utility: object
    surrogate_history: np.ndarray | None
    true_history: np.ndarray | None
    converged: object
    message: object


class _Evaluated(NamedTuple):
    """The fields of an evaluation the phase-2 loop reads (U_hat, grad U_hat, true utility) for the moved rows."""

    value: np.ndarray
    gradient: np.ndarray
    true_utility: np.ndarray


def _check_count(value, name: str, *, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int; got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be an int >= {low}; got {value}")
    return int(value)


def _batch_or_rows(compute, theta: np.ndarray) -> list:
    """[(row indices, compute(those rows))]: one call for the whole batch, or - when it raises ValueError because
    some row is undefined (D_hat <= 0, overflowing scores) - one call per row, leaving out the rows that raise.

    Floating-point warnings are silenced here: the callers turn undefined rows into -inf or "not ok".
    """
    with np.errstate(over="ignore", divide="ignore", invalid="ignore", under="ignore"):
        try:
            return [(np.arange(theta.shape[0]), compute(theta))]
        except ValueError:
            parts = []
            for k in range(theta.shape[0]):
                try:
                    parts.append((np.array([k]), compute(theta[k:k + 1])))
                except ValueError:
                    pass
            return parts


def _numerators(objective: EmpiricalSurrogateUtility, theta: np.ndarray) -> np.ndarray:
    """N_hat for each row, -inf where the surrogate scores overflow (a far trial point is rejected, not raised)."""
    out = np.full(theta.shape[0], -np.inf)
    for idx, num in _batch_or_rows(objective.numerator, theta):
        out[idx] = np.atleast_1d(num)
    return out


def _values(objective: EmpiricalSurrogateUtility, theta: np.ndarray) -> np.ndarray:
    """U_hat for each row, -inf where D_hat <= 0 or the scores overflow (such a trial point is rejected)."""
    out = np.full(theta.shape[0], -np.inf)
    for idx, (num, den) in _batch_or_rows(lambda t: (np.atleast_1d(objective.numerator(t)),
                                                     np.atleast_1d(objective.denominator(t))), theta):
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            ratio = np.where(den > 0, num / np.where(den > 0, den, 1.0), -np.inf)
        out[idx] = np.where(np.isnan(ratio), -np.inf, ratio)
    return out


def _row_norms(rows: np.ndarray) -> np.ndarray:
    """Euclidean norm of each row without overflow for entries near the largest double (scaled by max |entry|)."""
    scale = np.max(np.abs(rows), axis=1)
    safe = np.where(scale > 0, scale, 1.0)
    return np.where(scale > 0, safe * np.linalg.norm(rows / safe[:, None], axis=1), 0.0)


def _evaluate(objective, theta: np.ndarray, history: bool):
    """U_hat, grad U_hat and (if ``history``) the true utility of each row, and which rows gave finite values.

    A row where D_hat underflows to 0 or U_hat / its gradient overflow (U_hat unbounded on this sample, e.g. when
    S_1 holds no positive example and the data are separable) is marked not ok instead of raising or warning;
    the other rows of the batch are unaffected.
    """
    K, d = theta.shape
    out = _Evaluated(np.full(K, np.nan), np.full((K, d), np.nan), np.full(K, np.nan))
    parts = _batch_or_rows(lambda t: objective.evaluate(t, true_utility=history, direction=False), theta)
    for idx, ev in parts:
        out.value[idx] = np.atleast_1d(ev.value)
        out.gradient[idx] = np.atleast_2d(ev.gradient)
        if history:
            out.true_utility[idx] = np.atleast_1d(ev.true_utility)
    ok = np.isfinite(out.value) & np.isfinite(out.gradient).all(axis=1)
    return out, ok


_UNBOUNDED = ("stopped: U_hat or its gradient is not finite at the next iterate (D_hat -> 0: U_hat is unbounded "
              "above on this sample, e.g. S_1 holds no positive example and the data are separable); theta is the "
              "last finite iterate")


def _phase1(objective, theta, *, learning_rate, max_steps, messages):
    """Alg. 1's first loop: ascend the concave numerator until N_hat > 0.  Returns (theta, steps, ok)."""
    K = theta.shape[0]
    steps = np.zeros(K, dtype=int)
    step_size = np.full(K, learning_rate)
    numerator = np.atleast_1d(objective.numerator(theta))
    ok = numerator > 0
    failed = np.zeros(K, dtype=bool)
    # Every trial either accepts a step (at most max_steps) or halves the step size (a row whose step falls
    # below 1e-300 fails), so the loop ends even on a flat numerator.
    while True:
        active = ~ok & ~failed & (steps < max_steps)
        if not active.any():
            break
        rows = np.flatnonzero(active)
        grad = np.atleast_2d(objective.numerator_gradient(theta[rows]))
        norm = _row_norms(grad)
        flat = ~(norm > 0)
        for r in rows[flat]:
            failed[r] = True
            messages[r] = "phase 1 failed: grad N_hat = 0 while N_hat <= 0 (the numerator cannot be made positive)"
        rows, grad, norm = rows[~flat], grad[~flat], norm[~flat]
        if rows.size == 0:
            continue
        with np.errstate(over="ignore"):
            factor = step_size[rows] / norm
        huge = ~np.isfinite(factor)  # a subnormal gradient norm: normalise the gradient first
        factor[huge] = 1.0
        direction = grad.copy()
        direction[huge] = step_size[rows[huge], None] * (grad[huge] / norm[huge, None])
        trial = theta[rows] + factor[:, None] * direction
        unmoved = (trial == theta[rows]).all(axis=1) & (step_size[rows] >= learning_rate)
        for r in rows[unmoved]:  # not "N_hat is maximal": theta is too large for these steps to move it
            failed[r] = True
            messages[r] = "phase 1 failed: " + _beyond_resolution(learning_rate, float(
                _row_norms(theta[r][None])[0])).removeprefix("stopped: ")
        rows, grad, trial = rows[~unmoved], grad[~unmoved], trial[~unmoved]
        if rows.size == 0:
            continue
        trial_numerator = _numerators(objective, trial)
        better = trial_numerator > numerator[rows]
        accepted = rows[better]
        theta[accepted] = trial[better]
        numerator[accepted] = trial_numerator[better]
        steps[accepted] += 1
        step_size[accepted] *= 2.0
        step_size[rows[~better]] *= 0.5
        for r in rows[~better]:
            if step_size[r] < 1e-300 or not np.isfinite(step_size[r]):
                failed[r] = True
                messages[r] = ("phase 1 failed: no increase of N_hat along its gradient down to steps of 1e-300 "
                               "(N_hat is maximal and <= 0, or flat to floating-point resolution near theta)")
        ok = numerator > 0
    for r in np.flatnonzero(~ok & ~failed):
        messages[r] = f"phase 1 did not reach N_hat > 0 within max_phase1_iter = {max_steps} steps"
    return theta, steps, ok


def maximize_surrogate_utility(objective, theta0, *, method: str = "bfgs", learning_rate: float = 0.1,
                               max_iter: int = 100, max_phase1_iter: int = 1000, gtol: float = 1e-8,
                               history: bool = True, callback=None) -> OptimizationResult:
    """Maximise U_hat (Eq. (6)) over theta by the hybrid Algorithm 1 with U-GD (Alg. 2) or U-BFGS.

    Parameters
    ----------
    objective : EmpiricalSurrogateUtility
        The empirical surrogate utility (metric, loss, sample, split); an intercept is a column of ones in X.
    theta0 : array_like, shape (d,) or (K, d)
        Initial parameters (the paper: the ERM / SVM solution for the tables, N(0, I) draws for the
        convergence figure).  K rows are K independent problems that advance together.
    method : {"bfgs", "gd"}, keyword-only
        Phase 2: ``"gd"`` = Algorithm 2 (normalized gradient ascent), ``"bfgs"`` = quasi-Newton (module notes).
    learning_rate : float > 0, keyword-only
        gamma of Algorithm 2; first step length of phase 1 and of BFGS.
    max_iter : int >= 0, keyword-only
        Phase-2 iterations (the paper: 300; its tables: 100).
    max_phase1_iter : int >= 0, keyword-only
        Accepted numerator-ascent steps allowed in phase 1.
    gtol : float >= 0, keyword-only
        Phase 2 stops (converged) when ||grad U_hat|| <= gtol.
    history : bool, keyword-only
        Record U_hat and the true utility after every phase-2 iteration.
    callback : callable or None, keyword-only
        ``callback(t, theta)`` is called with t = 0 at the start of phase 2 and after each phase-2 pass t = 1,
        ..., T = max(iterations), with a copy of the parameters (shape of ``theta0``); a problem that stopped
        early keeps its last theta, so the theta of pass t is what a run with ``max_iter=t`` returns.

    Returns
    -------
    OptimizationResult

    Raises
    ------
    TypeError, ValueError
        On a bad argument (named in the message); ValueError from the objective if the scores overflow.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Algorithms 1-2 (U-GD), Eqs. (6)-(7) (U_hat and V_hat).

    Examples
    --------
    >>> import numpy as np
    >>> from lfverify.core import EmpiricalSurrogateUtility, f1, tau_logistic
    >>> from lfverify.learn import maximize_surrogate_utility
    >>> X = np.random.default_rng(0).normal(size=(200, 2))
    >>> objective = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, np.where(X[:, 0] > 0.8, 1, -1))
    >>> round(float(maximize_surrogate_utility(objective, np.zeros(2), method="gd").surrogate_utility), 3)
    0.231
    """
    learning_rate, max_iter, max_phase1_iter, gtol = _checked_arguments(
        objective, method=method, learning_rate=learning_rate, max_iter=max_iter, max_phase1_iter=max_phase1_iter,
        gtol=gtol, callback=callback)
    theta, single = check_parameters(theta0, objective.n_features, "theta0")
    theta = np.array(theta, dtype=np.float64)  # our own copy: updated in place
    messages = [""] * theta.shape[0]
    theta, phase1_steps, ready = _phase1(objective, theta, learning_rate=learning_rate, max_steps=max_phase1_iter,
                                         messages=messages)
    run = _start_phase2(objective, theta, ready, messages, method=method, learning_rate=learning_rate)

    def report(t):
        if callback is not None:
            callback(t, theta[0].copy() if single else theta.copy())

    report(0)
    for t in range(1, max_iter + 1):
        if not _phase2_pass(objective, run, method=method, learning_rate=learning_rate, gtol=gtol, history=history):
            break
        if history:
            run.surrogate_rows.append(run.value.copy())
            run.true_rows.append(run.true_value.copy())
        report(t)

    for r in np.flatnonzero(run.active):
        messages[r] = f"max_iter = {max_iter} phase-2 iterations reached"
    if not history and ready.any():
        run.true_value[ready] = np.atleast_1d(objective.true_utility(theta[ready]))
    return _result(run, phase1_steps, method=method, history=history, single=single)


def _checked_arguments(objective, *, method, learning_rate, max_iter, max_phase1_iter, gtol, callback):
    """The checked scalar arguments of :func:`maximize_surrogate_utility`: (learning_rate, max_iter,
    max_phase1_iter, gtol); TypeError / ValueError naming the argument otherwise."""
    if not isinstance(objective, EmpiricalSurrogateUtility):
        raise TypeError(f"objective must be an EmpiricalSurrogateUtility; got {type(objective).__name__}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    learning_rate = check_real(learning_rate, "learning_rate", low=0.0, low_inclusive=False)
    max_iter = _check_count(max_iter, "max_iter", low=0)
    max_phase1_iter = _check_count(max_phase1_iter, "max_phase1_iter", low=0)
    gtol = check_real(gtol, "gtol", low=0.0)
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None; got {type(callback).__name__}")
    return learning_rate, max_iter, max_phase1_iter, gtol


@dataclass(eq=False)
class _Phase2:
    """The state of Alg. 1's second loop for K problems, updated in place by :func:`_phase2_pass`.

    ``theta`` (K, d), ``value`` / ``true_value`` (U_hat and the true utility), ``grad`` (grad U_hat), ``active``
    (still running), ``converged``, ``iterations`` and ``messages`` per problem; U-BFGS's ``inverse_hessian``
    (K, d, d; None for U-GD, which never reads it: a d x d matrix per start is 3.2 GB at d = 20,000), ``pair_seen``
    (a curvature pair has rescaled H, Eq. (6.20)) and ``fresh`` (True while a row's last direction was the
    normalized-gradient step - at the start, after a restart, or after H lost positive definiteness: a failed
    search then means a maximum, else a restart; cleared by any accepted step, even one whose curvature pair is
    skipped); the histories' rows so far.
    """

    theta: np.ndarray
    value: np.ndarray
    true_value: np.ndarray
    grad: np.ndarray
    active: np.ndarray
    converged: np.ndarray
    iterations: np.ndarray
    messages: list
    inverse_hessian: np.ndarray | None
    pair_seen: np.ndarray
    fresh: np.ndarray
    surrogate_rows: list
    true_rows: list

    def theta_norm(self, r) -> float:
        """||theta_r||, overflow-free."""
        return float(_row_norms(self.theta[r][None])[0])


def _start_phase2(objective, theta, ready, messages, *, method, learning_rate) -> _Phase2:
    """Phase 2's state at its start: the rows that left phase 1 (``ready``) evaluated, and U-BFGS's H_0."""
    K, d = theta.shape
    active = ready.copy()
    # Rows that never left phase 1 are not evaluated by phase 2; their U_hat may be undefined (D_hat <= 0).
    value = np.full(K, np.nan)
    true_value = np.full(K, np.nan)
    grad = np.zeros((K, d))
    if ready.any():
        ev, ok = _evaluate(objective, theta[ready], True)
        value[ready], grad[ready], true_value[ready] = ev.value, ev.gradient, ev.true_utility
        for r in np.flatnonzero(ready)[~ok]:
            active[r] = False
            messages[r] = _UNBOUNDED.replace("next iterate", "end of phase 1")
    inverse_hessian = np.zeros((K, d, d)) if method == "bfgs" else None
    for r in range(K if method == "bfgs" else 0):
        _reset_inverse_hessian(inverse_hessian, r, grad[r], learning_rate)
    return _Phase2(theta=theta, value=value, true_value=true_value, grad=grad, active=active,
                   converged=np.zeros(K, dtype=bool), iterations=np.zeros(K, dtype=int), messages=messages,
                   inverse_hessian=inverse_hessian, pair_seen=np.zeros(K, dtype=bool), fresh=np.ones(K, dtype=bool),
                   surrogate_rows=[value.copy()], true_rows=[true_value.copy()])


def _phase2_pass(objective, run: _Phase2, *, method, learning_rate, gtol, history) -> bool:
    """One pass of Alg. 1's second loop over the running rows; False (and nothing moved) when none is left."""
    gnorm = _row_norms(run.grad)
    _stop_small_gradients(objective, run, gnorm, learning_rate=learning_rate, gtol=gtol)
    if not run.active.any():
        return False
    rows = np.flatnonzero(run.active)
    run.iterations[rows] += 1  # a pass counts for every row active at its start, moved or not
    step = _gd_step if method == "gd" else _bfgs_step
    moved = step(objective, run, rows, gnorm, learning_rate=learning_rate, history=history)
    if moved is not None:
        _accept(run, *moved, history=history)
    return True


def _stop_small_gradients(objective, run: _Phase2, gnorm, *, learning_rate, gtol) -> None:
    """Stop the running rows with ||grad U_hat|| <= gtol, as converged only where that says something of U_hat."""
    done = run.active & (gnorm <= gtol)
    for r in np.flatnonzero(done):
        if gnorm[r] < _TINY and _ascent_direction_exists(objective, run.theta[r]):
            run.messages[r] = (f"stopped: grad U_hat underflowed (||grad U_hat|| = {gnorm[r]:.3g} is below the "
                               "smallest normal double while grad N_hat - U_hat grad D_hat is not 0): not a "
                               f"stationary point; theta (||theta|| = {run.theta_norm(r):.3g}) or X is too extreme "
                               "in scale")
        elif learning_rate * gnorm[r] > np.sqrt(gtol):
            run.messages[r] = (f"stopped: ||grad U_hat|| = {gnorm[r]:.3g} <= gtol = {gtol:g} only through the scale "
                               f"of theta (||theta|| = {run.theta_norm(r):.3g}): a step of learning_rate = "
                               f"{learning_rate:g} along it changes U_hat by about {learning_rate * gnorm[r]:.3g} "
                               "(> sqrt(gtol)), so this is not a maximum; use a smaller learning_rate or theta0")
        else:
            run.converged[r] = True
            run.messages[r] = f"converged: ||grad U_hat|| = {gnorm[r]:.3g} <= gtol = {gtol:g}"
    run.active &= ~done


def _gd_step(objective, run: _Phase2, rows, gnorm, *, learning_rate, history):
    """Algorithm 2 for ``rows``: theta <- theta + gamma g / ||g|| with g = V_hat (parallel to grad U_hat).

    Returns (moved rows, their new theta, its evaluation, which evaluations are finite)."""
    new_theta = run.theta[rows] + learning_rate * run.grad[rows] / gnorm[rows, None]
    unchanged = (new_theta == run.theta[rows]).all(axis=1)
    for r in rows[unchanged]:
        run.active[r] = False
        run.messages[r] = _beyond_resolution(learning_rate, run.theta_norm(r))
    rows, new_theta = rows[~unchanged], new_theta[~unchanged]
    ev, ok = _evaluate(objective, new_theta, history)
    return rows, new_theta, ev, ok


def _bfgs_step(objective, run: _Phase2, rows, gnorm, *, learning_rate, history):
    """One U-BFGS iteration for ``rows``: the line search, a restart or stop where it failed, the update of H.

    Returns (moved rows, their new theta, its evaluation, all True), or None when no row moved."""
    new_theta, accepted, full, first = _bfgs_line_search(
        objective, run.theta, grad=run.grad, value=run.value, inverse_hessian=run.inverse_hessian, rows=rows,
        learning_rate=learning_rate, fresh=run.fresh, history=history)
    _failed_searches(run, rows[~accepted], gnorm, learning_rate=learning_rate)
    # full steps were evaluated by the line search; shortened steps need one more pass for the gradient
    new = _Evaluated(full.value.copy(), full.gradient.copy(), full.true_utility.copy())
    ok = first.copy()
    later = accepted & ~first
    if later.any():
        ev_later, ok_later = _evaluate(objective, new_theta[later], history)
        new.value[later], new.gradient[later] = ev_later.value, ev_later.gradient
        new.true_utility[later] = ev_later.true_utility
        ok[later] = ok_later
    for r in rows[accepted & ~ok]:
        run.active[r] = False
        run.messages[r] = _UNBOUNDED
    keep = accepted & ok
    rows, new_theta = rows[keep], new_theta[keep]
    new_value, new_grad, new_true = new.value[keep], new.gradient[keep], new.true_utility[keep]
    if rows.size == 0:
        return None
    s = new_theta - run.theta[rows]
    # H approximates the inverse Hessian of -U_hat: its curvature pair is (s, -(change of grad U_hat)).
    _bfgs_update(run.inverse_hessian, rows=rows, s=s, y=-(new_grad - run.grad[rows]), pair_seen=run.pair_seen)
    run.fresh[rows] = False
    return rows, new_theta, _Evaluated(new_value, new_grad, new_true), np.ones(rows.size, dtype=bool)


def _failed_searches(run: _Phase2, rows, gnorm, *, learning_rate) -> None:
    """Rows whose line search found no increase: stopped after a normalized-gradient step, else restarted."""
    for r in rows:
        if run.fresh[r]:  # even the normalized-gradient step cannot increase U_hat: a maximum, unless
            run.active[r] = False  # the steps cannot move theta, or even the shortest one is long
            size, shortest = run.theta_norm(r), learning_rate * 0.5 ** (_MAX_HALVINGS - 1)
            if np.array_equal(run.theta[r] + learning_rate * run.grad[r] / gnorm[r], run.theta[r]):
                run.messages[r] = _beyond_resolution(learning_rate, size)
            elif shortest > _SHORT_STEP * max(1.0, size):
                run.messages[r] = ("stopped: no increase of U_hat along the gradient, but even the shortest "
                                   f"trial step ({shortest:.3g}, after {_MAX_HALVINGS} halvings) is long against "
                                   f"theta (||theta|| = {size:.3g}): learning_rate = {learning_rate:g} is too "
                                   "large to locate a maximum")
            else:
                run.converged[r] = True
                run.messages[r] = ("converged: no increase of U_hat along the gradient after "
                                   f"{_MAX_HALVINGS} step halvings (maximal to the line search's resolution)")
        else:  # the quasi-Newton direction failed: restart from the scaled gradient next iteration
            _reset_inverse_hessian(run.inverse_hessian, r, run.grad[r], learning_rate)
            run.fresh[r], run.pair_seen[r] = True, False


def _accept(run: _Phase2, rows, new_theta, ev: _Evaluated, ok, *, history) -> None:
    """Move ``rows`` to ``new_theta`` where its evaluation is finite; stop the others (U_hat unbounded)."""
    for r in rows[~ok]:
        run.active[r] = False
        run.messages[r] = _UNBOUNDED
    rows, new_theta = rows[ok], new_theta[ok]
    ev = _Evaluated(ev.value[ok], ev.gradient[ok], ev.true_utility[ok])
    run.theta[rows] = new_theta
    run.value[rows] = np.atleast_1d(ev.value)
    run.grad[rows] = np.atleast_2d(ev.gradient)
    if history:
        run.true_value[rows] = np.atleast_1d(ev.true_utility)


def _result(run: _Phase2, phase1_steps, *, method, history, single) -> OptimizationResult:
    """The :class:`OptimizationResult` of a finished run: scalars and (T + 1,) histories for a single start."""
    surrogate_history = np.array(run.surrogate_rows) if history else None
    true_history = np.array(run.true_rows) if history else None
    if single:
        return OptimizationResult(
            theta=run.theta[0], method=method, phase1_steps=int(phase1_steps[0]),
            iterations=int(run.iterations[0]), surrogate_utility=float(run.value[0]),
            true_utility=float(run.true_value[0]),
            surrogate_history=None if surrogate_history is None else surrogate_history[:, 0],
            true_history=None if true_history is None else true_history[:, 0],
            converged=bool(run.converged[0]), message=run.messages[0])
    return OptimizationResult(theta=run.theta, method=method, phase1_steps=phase1_steps, iterations=run.iterations,
                              surrogate_utility=run.value, true_utility=run.true_value,
                              surrogate_history=surrogate_history, true_history=true_history,
                              converged=run.converged, message=run.messages)


def _beyond_resolution(learning_rate: float, theta_norm: float) -> str:
    return (f"stopped: a step of learning_rate = {learning_rate:g} no longer changes theta (||theta|| = "
            f"{theta_norm:.3g} is beyond the floating-point resolution of such steps): start from a smaller theta0 "
            "or use a larger learning_rate")


def _ascent_direction_exists(objective, theta_row: np.ndarray) -> bool:
    """Whether grad N_hat - U_hat grad D_hat (= D_hat grad U_hat) is not 0 at ``theta_row`` (underflow check)."""
    with np.errstate(all="ignore"):
        try:
            ev = objective.evaluate(theta_row, direction=False)
        except ValueError:
            return False
        return bool(np.any(ev.numerator_gradient - ev.value * ev.denominator_gradient != 0))


def _reset_inverse_hessian(inverse_hessian, r, gradient, learning_rate):
    """H = (learning_rate / ||g||) I: the next BFGS step is learning_rate times the normalized gradient."""
    norm = float(_row_norms(gradient[None, :])[0])
    inverse_hessian[r] = (learning_rate / norm if norm > 0 else learning_rate) * np.eye(gradient.shape[0])


def _bfgs_line_search(objective, theta, *, grad, value, inverse_hessian, rows, learning_rate, fresh, history):
    """Batched Armijo backtracking along p = H grad U_hat for ``rows``.

    The full step (alpha = 1, accepted most of the time) is probed with one complete evaluation (U_hat, its
    gradient and the true utility), so an accepted full step needs no second pass over the data; halvings probe
    U_hat only.  Returns (new theta rows, accepted, evaluation of the full steps, mask of the rows accepted at
    alpha = 1 with a finite evaluation).
    """
    direction = np.einsum("kij,kj->ki", inverse_hessian[rows], grad[rows])
    slope = np.einsum("ki,ki->k", grad[rows], direction)
    # H lost positive definiteness numerically: use the normalized gradient step for this iteration.
    bad = ~(slope > 0)
    if bad.any():
        gnorm = _row_norms(grad[rows[bad]])
        direction[bad] = learning_rate * grad[rows[bad]] / gnorm[:, None]
        slope[bad] = learning_rate * gnorm
        fresh[rows[bad]] = True
    trial = theta[rows] + direction
    full, full_ok = _evaluate(objective, trial, history)
    trial_value = full.value.copy()
    if not full_ok.all():  # D_hat <= 0 or an overflow at some trial point: its value alone (-inf if undefined)
        trial_value[~full_ok] = _values(objective, trial[~full_ok])
    accepted = trial_value >= value[rows] + _ARMIJO * slope
    first = accepted & full_ok
    new_theta = np.where(accepted[:, None], trial, theta[rows])
    alpha = np.full(rows.size, 0.5)
    for _ in range(_MAX_HALVINGS - 1):
        if accepted.all():
            break
        pending = np.flatnonzero(~accepted)
        trial = theta[rows[pending]] + alpha[pending, None] * direction[pending]
        ok = _values(objective, trial) >= value[rows[pending]] + _ARMIJO * alpha[pending] * slope[pending]
        accepted[pending[ok]] = True
        new_theta[pending[ok]] = trial[ok]
        alpha[pending[~ok]] *= 0.5
    return new_theta, accepted, full, first


def _bfgs_update(inverse_hessian, rows, s, y, pair_seen):
    """BFGS update of the inverse Hessian of -U_hat for each row with y^T s > 1e-12 ||y|| ||s|| (N&W Eq. (6.17)).

    Expanded to O(d^2): H+ = H - rho (s (Hy)^T + (Hy) s^T) + (rho^2 y^T H y + rho) s s^T, rho = 1 / y^T s.
    """
    ys = np.einsum("ki,ki->k", y, s)
    yy = np.einsum("ki,ki->k", y, y)
    d = s.shape[1]
    for i, r in enumerate(rows):
        if not (ys[i] > 1e-12 * np.sqrt(yy[i] * (s[i] @ s[i]))):
            continue  # curvature condition fails: keep the current approximation
        if not pair_seen[r]:
            inverse_hessian[r] = (ys[i] / yy[i]) * np.eye(d)  # Eq. (6.20) scaling before the first update
            pair_seen[r] = True
        rho = 1.0 / ys[i]
        hy = inverse_hessian[r] @ y[i]
        inverse_hessian[r] += (rho * rho * (y[i] @ hy) + rho) * np.outer(s[i], s[i]) - rho * (
            np.outer(s[i], hy) + np.outer(hy, s[i]))
