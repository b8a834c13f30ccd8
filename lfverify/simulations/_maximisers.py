"""The two maximisers the consistency and calibration studies compare (Sec. 5, Thm. 5).

* :func:`population_maximiser` - theta* = argmax_theta U_phi(f_theta) for the linear model, computed to high
  precision from the exact population (U_phi and its gradient V_phi / E[W_1]^2 are deterministic to ~1e-15):
  BFGS from several starts at gtol 1e-11, then Newton steps on grad U_phi with a central-difference Hessian of
  the exact gradient.  It is checked, not trusted: the result carries ||grad U_phi(theta*)||, ||V_phi(theta*)||
  (the Z-estimation equation of Sec. 5), the Hessian's eigenvalues (all negative: a strict local maximum, the
  identifiability of Thm. 5 locally) and the spread of the maximisers reached from the different starts.
* :func:`empirical_maximiser` - theta_hat_n = argmax U_hat by Algorithm 1 with U-BFGS
  (:func:`lfverify.learn.maximize_surrogate_utility`), from several starts, keeping the best U_hat.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize

from lfverify.core import EmpiricalSurrogateUtility
from lfverify.learn import maximize_surrogate_utility

__all__ = ["PopulationMaximiser", "population_maximiser", "EmpiricalMaximiser", "empirical_maximiser"]

#: Central-difference step for the Hessian of U_phi (the gradient is exact to ~1e-15, so h ~ eps^(1/3)).
_HESSIAN_STEP = 1e-5


class PopulationMaximiser(NamedTuple):
    """theta* and its certificates."""

    theta: np.ndarray
    surrogate_utility: float  #: U_phi(theta*)
    true_utility: float  #: U(theta*) (Eq. (1), sgn(0) = -1)
    gradient_norm: float  #: ||grad U_phi(theta*)||
    gradient_direction_norm: float  #: ||V_phi(theta*)||
    hessian_eigenvalues: np.ndarray  #: of the central-difference Hessian of U_phi at theta*
    start_spread: float  #: the largest distance from theta* to a maximiser reached from a start


def _hessian(population, metric, loss, theta):
    d = theta.size
    steps = _HESSIAN_STEP * np.eye(d)
    grads = population.evaluate(metric, loss, np.vstack([theta + steps, theta - steps])).gradient
    H = (grads[:d] - grads[d:]).T / (2 * _HESSIAN_STEP)  # column i: d grad / d theta_i
    return 0.5 * (H + H.T)


def population_maximiser(population, metric, loss, *, starts, newton_steps: int = 3) -> PopulationMaximiser:
    """theta* = argmax U_phi over the linear model from ``starts`` (array of shape (S, d)); see the module notes."""
    starts = np.atleast_2d(np.asarray(starts, dtype=np.float64))

    def negative(theta):
        ev = population.evaluate(metric, loss, theta)
        return -float(ev.value[0]), -ev.gradient[0]

    found = []
    for start in starts:
        res = minimize(negative, start, jac=True, method="BFGS", options={"gtol": 1e-11, "maxiter": 2000})
        found.append(res.x)
    found = np.array(found)
    values = population.surrogate_utility(metric, loss, found)
    theta = found[int(np.argmax(values))].copy()
    for _ in range(newton_steps):
        ev = population.evaluate(metric, loss, theta)
        H = _hessian(population, metric, loss, theta)
        try:
            step = np.linalg.solve(H, ev.gradient[0])
        except np.linalg.LinAlgError:
            break
        trial = theta - step
        if population.surrogate_utility(metric, loss, trial) >= float(ev.value[0]) - 1e-15:
            theta = trial
    ev = population.evaluate(metric, loss, theta)
    eig = np.linalg.eigvalsh(_hessian(population, metric, loss, theta))
    spread = float(np.max(np.linalg.norm(found - theta, axis=1)))
    return PopulationMaximiser(theta, surrogate_utility=float(ev.value[0]),
                               true_utility=float(population.utility(metric, theta)),
                               gradient_norm=float(np.linalg.norm(ev.gradient[0])),
                               gradient_direction_norm=float(np.linalg.norm(ev.gradient_direction[0])),
                               hessian_eigenvalues=eig, start_spread=spread)


class EmpiricalMaximiser(NamedTuple):
    """theta_hat_n (the best of the starts) with its U_hat, convergence flag and phase-2 iterations."""

    theta: np.ndarray
    surrogate_utility: float
    converged: bool
    iterations: int


def empirical_maximiser(X, y, metric, loss, *, starts, max_iter: int = 100, gtol: float = 1e-8) -> EmpiricalMaximiser:
    """theta_hat_n = argmax U_hat (Eq. (6)) by Alg. 1 + U-BFGS from every start at once; the best U_hat wins.

    Raises
    ------
    ValueError
        If no start reaches the domain N_hat > 0 of Alg. 1's second phase.
    """
    objective = EmpiricalSurrogateUtility(metric, loss, X, y)
    result = maximize_surrogate_utility(objective, np.atleast_2d(starts), method="bfgs", max_iter=max_iter, gtol=gtol,
                                        history=False)
    values = np.where(np.isfinite(result.surrogate_utility), result.surrogate_utility, -np.inf)
    if not np.isfinite(values).any():
        raise ValueError(f"no start reached N_hat > 0: {result.message}")
    best = int(np.argmax(values))
    return EmpiricalMaximiser(result.theta[best].copy(), float(values[best]), bool(result.converged[best]),
                              int(result.iterations[best]))
