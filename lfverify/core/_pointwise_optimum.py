"""sup_f U_phi(f) over *all* measurable classifiers for the tau-logistic loss, and what sgn(f*) achieves.

Thms. 1 and 2 quantify over all measurable f: their hypotheses involve (U_phi)* = sup_f U_phi(f) and their
conclusion concerns U(f*) for the maximiser f*.  Both depend on X only through eta(X), so they are computed here
from the distribution of eta (Dinkelbach's method, as in tests/calibration_search.py for finite populations):

    sup_f N(f) - u D(f) = const(u) - E[ min_f A(eta) phi(f) + B(eta) phi(-f) ],
    A(eta) = (a_{0,+1} + u a_{1,+1}) eta,   B(eta) = (u a_{1,-1} - a_{0,-1}) (1 - eta),

a 1-D convex problem per value of eta (A, B > 0).  For the tau-logistic loss its minimiser is f = 0 (the kink)
exactly when tau A <= B <= A / tau, i.e. for eta in [eta_lo(u), eta_hi(u)] with

    eta_hi = c / (c + tau a),   eta_lo = tau c / (tau c + a),   a = a_{0,+1} + u a_{1,+1},  c = u a_{1,-1} - a_{0,-1},

positive above eta_hi (the root of a eta tau sigma(-tau f) = c (1 - eta) sigma(f)) and negative below eta_lo.
Dinkelbach's update u <- N(f_u) / D(f_u) converges to u* = (U_phi)*.  sgn(f*) with sgn(0) = -1 predicts +1 on
{eta > eta_hi}; Prop. 5's Bayes classifier on {eta > delta(U-dagger)}.  Where the kink interval has positive
probability and delta lies inside it, U(sgn f*) < U-dagger (the finding of ERRATA.md, here on a continuous
population); labelling the kink region by the Bayes rule recovers U-dagger when delta is inside the interval.

Everything is computed on the log-odds scale z = logit(eta) (eta and 1 - eta as sigmoid(+-z), no cancellation).
Distributions: :class:`GaussianEta` (two Gaussian classes with a shared covariance: z = w^T x + b is the
log-odds, so E[1{Y=+1} g(z)] = pi E[g(z)] with z ~ N(w^T mu_+ + b, w^T Sigma w), by Gauss-Legendre split where
f* leaves the kink) and :class:`FiniteEta` (atoms; exact sums; the tests' oracle comparison).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import expit, logit, ndtr

from lfverify.core._losses import TauDiscrepantLogisticLoss
from lfverify.core._metrics import LinearFractionalMetric
from lfverify.core._quadrature import gaussian_expectation
from lfverify.core._validation import check_real

__all__ = [
    "GaussianEta", "FiniteEta", "PointwiseOptimum", "pointwise_surrogate_optimum", "surrogate_utility_of_eta",
]


class FiniteEta:
    """eta takes the values ``eta`` (in (0, 1)) with probabilities ``weights`` (a finite-support population)."""

    def __init__(self, eta, weights):
        self.eta = np.asarray(eta, dtype=np.float64)
        self.weights = np.asarray(weights, dtype=np.float64)
        if self.eta.ndim != 1 or self.weights.shape != self.eta.shape:
            raise ValueError("eta and weights must be 1-D arrays of one length")
        if np.any((self.eta <= 0) | (self.eta >= 1)) or np.any(self.weights <= 0):
            raise ValueError("eta must lie in (0, 1) (a finite minimiser per atom) and weights must be positive")
        self.prior = float(self.weights @ self.eta)

    def expect(self, func, breakpoints=()):
        """(E[1{Y=+1} func(z)], E[1{Y=-1} func(z)]) with z = logit(eta); func maps an array of z to (..., M)."""
        values = np.asarray(func(logit(self.eta)))
        return (np.tensordot(self.weights * self.eta, values, axes=(0, 0)),
                np.tensordot(self.weights * (1 - self.eta), values, axes=(0, 0)))

    def positive_rates(self, threshold, *, inclusive=False):
        """(TP, FP) of the classifier {eta > threshold} (or >= when ``inclusive``)."""
        chosen = self.eta >= threshold if inclusive else self.eta > threshold
        return float(np.sum((self.weights * self.eta)[chosen])), float(np.sum((self.weights * (1 - self.eta))[chosen]))

    def mass(self, low, high):
        """P(low <= eta <= high)."""
        return float(np.sum(self.weights[(self.eta >= low) & (self.eta <= high)]))


class GaussianEta:
    """eta(X) for X | Y ~ N(mu_Y, Sigma), P(Y=+1) = pi: z = logit(eta) | Y ~ N(m_Y, s^2), m_Y = w^T mu_Y + b,
    s^2 = w^T Sigma w (built from a :class:`lfverify.core.GaussianPopulation`)."""

    def __init__(self, population):
        w = population.bayes_direction
        self.prior = float(population.prior)
        self.means = np.array([w @ population.mean_negative, w @ population.mean_positive]) + population.bayes_intercept
        self.std = float(np.sqrt(w @ population.covariance @ w))
        if not self.std > 0:
            raise ValueError("the population's classes coincide: eta is constant")

    def expect(self, func, breakpoints=()):
        """As :meth:`FiniteEta.expect`; ``breakpoints`` are kinks of func in z (panel ends of the quadrature)."""
        bp = np.asarray(breakpoints, dtype=np.float64)
        out = []
        for c, mass in ((1, self.prior), (0, 1.0 - self.prior)):
            e = gaussian_expectation(func, np.array([self.means[c]]), np.array([self.std]),
                                     breakpoints=bp[None, :] if bp.size else ())
            out.append(mass * e[0])
        return out[0], out[1]

    def positive_rates(self, threshold, *, inclusive=False):
        t = logit(threshold)
        return (self.prior * float(ndtr((self.means[1] - t) / self.std)),
                (1.0 - self.prior) * float(ndtr((self.means[0] - t) / self.std)))

    def mass(self, low, high):
        lo, hi = logit(low), logit(high)
        return sum(m * float(ndtr((hi - mu) / self.std) - ndtr((lo - mu) / self.std))
                   for m, mu in ((self.prior, self.means[1]), (1.0 - self.prior, self.means[0])))


def _check(metric, loss):
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    if not isinstance(loss, TauDiscrepantLogisticLoss) or loss.base != 2.0:
        raise TypeError(f"loss must be the tau-logistic loss of Fig. 2 (base 2); got {loss!r}")


_MAX_HALVINGS = 1100


def _root(big, small, tau):
    """g > 0 solving big * tau * sigmoid(-tau g) = small * sigmoid(g) (elementwise; 0 < small < tau big).

    The left side decreases from big tau / 2, the right increases from small / 2 to small; bisection on
    [0, (log(big tau / small) + 50) / tau], where the right side already exceeds the left, to full precision.
    """
    lo = np.zeros_like(big)
    hi = (np.log(big * tau / small) + 50.0) / tau
    # Enough halvings for any finite bracket: from the largest double down to 4 eps takes log2(1.8e308 / 8.9e-16)
    # < 1075 of them.  (A cap of 200 stopped short for tau below about 1e-45, and returned 1.6e41 for the root 36.7
    # at tau = 1e-100.)  The loop ends at the stop below long before this for any ordinary tau.
    for _ in range(_MAX_HALVINGS):
        mid = 0.5 * (lo + hi)
        below = big * tau * expit(-tau * mid) > small * expit(mid)
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
        if np.all(hi - lo <= 4 * np.finfo(float).eps * np.maximum(hi, 1.0)):
            break
    return 0.5 * (lo + hi)


def _kink_interval(metric, tau, u):
    a = metric.a0p + u * metric.a1p
    c = u * metric.a1n - metric.a0n
    if not (a > 0 and c > 0):
        raise ValueError(f"the per-eta problem needs a_0+ + u a_1+ > 0 and u a_1- - a_0- > 0; got {a!r}, {c!r} "
                         f"at u = {u!r}")
    return a, c, tau * c / (tau * c + a), c / (c + tau * a)


def _maximiser(metric, tau, u):
    """f* as a function of the log-odds z = logit(eta) at level u, vectorized, and the kink interval in eta."""
    a, c, lo, hi = _kink_interval(metric, tau, u)
    z_lo, z_hi = logit(lo), logit(hi)

    def f_star(z):
        z = np.asarray(z, dtype=np.float64)
        A, B = a * expit(z), c * expit(-z)  # eta and 1 - eta without cancellation
        out = np.zeros_like(z)
        up, down = z > z_hi, z < z_lo
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.where(up, _root(np.where(up, A, 1.0), np.where(up, B, 0.5 * tau), tau), out)
            out = np.where(down, -_root(np.where(down, B, 1.0), np.where(down, A, 0.5 * tau), tau), out)
        return out

    return f_star, lo, hi


def surrogate_utility_of_eta(metric, loss, distribution, f_of_logodds, *, breakpoints=()):
    """(U_phi, N, D) (Eq. (3)-(4)) of the classifier f(x) = f_of_logodds(logit(eta(x))), integrated over
    ``distribution``; ``breakpoints`` are the log-odds where f has a kink.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eqs. (3)-(4) (U_phi = N_phi / D_phi).

    Examples
    --------
    >>> from lfverify.core import FiniteEta, f1, surrogate_utility_of_eta, tau_logistic
    >>> u, n, d = surrogate_utility_of_eta(f1(), tau_logistic(0.05), FiniteEta([0.95, 0.6, 0.05], [0.3, 0.2, 0.5]),
    ...                                    lambda z: z)   # f = the log-odds
    >>> round(u, 6) == round(n / d, 6)
    True
    """
    _check(metric, loss)
    prior = distribution.prior

    def integrand(z):
        f = f_of_logodds(z)
        return np.stack([loss.value(f), loss.value(-f)], axis=-1)

    pos, neg = distribution.expect(integrand, breakpoints)
    num = float(metric.b0(prior) + metric.a0p * (prior - pos[0]) + metric.a0n * neg[1])
    den = float(metric.b1(prior) + metric.a1p * (prior + pos[0]) + metric.a1n * neg[1])
    return num / den, num, den


class PointwiseOptimum(NamedTuple):
    """sup over all classifiers of U_phi and the true utilities of its maximiser's sign."""

    surrogate_optimum: float  #: (U_phi)* = u*
    kink_low: float  #: f* = 0 exactly for eta in [kink_low, kink_high]
    kink_high: float
    kink_mass: float  #: P(eta(X) in the kink interval)
    bayes_threshold: float  #: delta(U-dagger) of Prop. 5
    bayes_utility: float  #: U-dagger (as given)
    sign_utility: float  #: U(sgn f*), sgn(0) = -1: predict +1 on {eta > kink_high}
    kink_by_bayes_utility: float  #: U when the kink region is labelled by the Bayes rule
    iterations: int

    @property
    def sign_gap(self) -> float:
        return self.bayes_utility - self.sign_utility


def pointwise_surrogate_optimum(metric, loss, distribution, *, bayes_utility: float, start: float,
                                tol: float = 1e-13, max_iterations: int = 100) -> PointwiseOptimum:
    """Dinkelbach's iteration for sup_f U_phi(f) over all measurable f (see the module notes).

    Parameters
    ----------
    metric : LinearFractionalMetric
    loss : TauDiscrepantLogisticLoss (base 2)
    distribution : GaussianEta or FiniteEta
    bayes_utility : float, keyword-only
        U-dagger (e.g. ``population.bayes_optimal_utility(metric)``), for Prop. 5's threshold.
    start : float > 0, keyword-only
        Preferably a value of U_phi attained by some classifier (e.g. U_phi(theta*) of the linear model), from
        which Dinkelbach's iterates increase; from a start above (U_phi)* the first step lands below it.
    tol : float >= 0, keyword-only
        Stopping rule: from the second iteration on, the iteration stops as soon as the new value exceeds the
        current one by at most ``tol`` (new <= u + tol, equality included); ``tol = 0`` stops at the first
        iterate that does not increase (a repeated value).  The default 1e-13 is the quadrature's accuracy.
    max_iterations : int, keyword-only
        RuntimeError if the rule has not stopped the iteration after this many iterations (the first never
        stops it).

    Returns
    -------
    PointwiseOptimum
        ``iterations`` is the iteration at which the rule stopped.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eqs. (3)-(4) (U_phi); Prop. 5 (the Bayes threshold); Dinkelbach (1967), On
    nonlinear fractional programming, Management Science 13(7).

    Examples
    --------
    The witness of Thm. 1's failure (ERRATA.md): F_1, the tau-logistic loss with tau = 0.05, eta in (0.95, 0.6,
    0.05) with weights (0.3, 0.2, 0.5), U-dagger = 27/31.  The surrogate maximiser's sign attains 57/73 < 27/31:

    >>> from lfverify.core import FiniteEta, f1, pointwise_surrogate_optimum, tau_logistic
    >>> opt = pointwise_surrogate_optimum(f1(), tau_logistic(0.05), FiniteEta([0.95, 0.6, 0.05], [0.3, 0.2, 0.5]),
    ...                                   bayes_utility=27 / 31, start=0.1)
    >>> round(opt.surrogate_optimum, 6), round(opt.sign_utility, 6), round(57 / 73, 6)
    (0.189394, 0.780822, 0.780822)
    """
    _check(metric, loss)
    tau = float(loss.tau)
    tol = check_real(tol, "tol", low=0.0)
    u = float(start)
    if not u > 0:
        raise ValueError(f"start must be a positive value of U_phi; got {start!r}")
    for iteration in range(1, max_iterations + 1):
        f_star, lo, hi = _maximiser(metric, tau, u)
        new = surrogate_utility_of_eta(metric, loss, distribution, f_star, breakpoints=(logit(lo), logit(hi)))[0]
        if iteration > 1 and new < u - 1e-9:  # from an attained u the iterates increase (Newton on F)
            raise RuntimeError(f"Dinkelbach's iteration decreased ({u!r} -> {new!r}): the pointwise problem was not "
                               "solved")
        # converged when the update stalls within the quadrature's accuracy (about 1e-12 relative)
        done = iteration > 1 and new <= u + tol
        u = new if iteration == 1 else max(u, new)
        if done:
            break
    else:
        raise RuntimeError("Dinkelbach's iteration did not converge")
    _, _, lo, hi = _kink_interval(metric, tau, u)
    prior = distribution.prior
    delta = float(metric.bayes_optimal_threshold(bayes_utility))

    def utility(threshold, inclusive=False):
        tp, fp = distribution.positive_rates(threshold, inclusive=inclusive)
        return float(metric.value(tp, fp, prior, zero_division=0.0))

    # kink region by the Bayes rule: {eta > hi} u {lo <= eta <= hi, eta > delta}
    if delta >= hi:
        by_bayes = utility(hi)
    elif delta >= lo:
        by_bayes = utility(delta)
    else:
        by_bayes = utility(lo, inclusive=True)
    return PointwiseOptimum(u, kink_low=lo, kink_high=hi, kink_mass=distribution.mass(lo, hi), bayes_threshold=delta,
                            bayes_utility=float(bayes_utility), sign_utility=utility(hi),
                            kink_by_bayes_utility=by_bayes, iterations=iteration)

