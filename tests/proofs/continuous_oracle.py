"""Facts about the corrected calibration statements on populations whose eta(X) has a density (the Gaussian and
bounded-logistic reference populations), computed from the definitions by quadrature; not a test module.

Independent of the statements' closed forms: nothing here uses the band [eta_lo, eta_hi], delta or Dinkelbach's
weights as the proofs write them.  Everything is a function of the log-odds z = logit eta(X), whose joint law with Y
is known in closed form (p_+(z) dz = P(Y = +1, z in dz), p_-(z) likewise):

* U of a threshold classifier 1{z > zeta}: TP = int_zeta^oo p_+, FP = int_zeta^oo p_- (normal CDFs, or the
  bounded-logistic's softplus differences, in closed form), and U-dagger as the maximum over zeta (a dense grid, then
  Brent's method on the best bracket; Prop. 5 says the optimum is a threshold);
* U_phi* = sup_f U_phi(f) over all f as the root in u of F(u) = sup_f N_phi(f) - u D_phi(f) (Dinkelbach's
  separation; Brent's method), where the supremum is attained by f_u(z) minimising the
  pointwise integrand a(u) p_+(z) phi(xi) + c(u) p_-(z) phi(-xi) - the minimiser found from phi's own one-sided
  derivatives (root finding on each side of 0; 0 where neither side descends) - and N, D by adaptive quadrature
  split where f_u leaves 0;
* the z-interval where 0 is a minimiser at the optimum (its ends found by root finding in z), and U of the
  labellings +1 above it, -1 / +1 / the optimal threshold's label on it.

Accuracy: scipy.integrate.quad at epsabs 1e-13 and the root to 1e-14; utilities agree to ~1e-10, so the cases carry
``tolerance`` 1e-8 (two utilities closer than that are equal).  The tau-logistic loss only (its formula below).

Private: lfverify.proofs._executable's ContinuousCase, Loss and Metric, the case types the executable statements take,
which this oracle builds.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
from scipy import integrate, optimize
from scipy.special import expit, ndtr

from lfverify.proofs._executable import ContinuousCase, Loss, Metric

TOLERANCE = 1e-8
LN2 = math.log(2.0)


class TauLogistic:
    """phi(t) = log2(1 + e^{-t}) for t <= 0 and log2(1 + e^{-tau t}) for t > 0 (Fig. 2), with its derivative."""

    def __init__(self, tau: F):
        self.tau_exact, self.tau = F(tau), float(tau)

    def value(self, t):
        s = 1.0 if t <= 0 else self.tau
        return np.logaddexp(0.0, -s * t) / LN2

    def derivative(self, t, side=0):
        """phi'(t); at t = 0 the left (side -1) or right (side +1) derivative."""
        s = 1.0 if (t < 0 or (t == 0 and side < 0)) else self.tau
        return -s * expit(-s * t) / LN2


class LogOdds:
    """The joint law of (Y, z = logit eta(X)): densities p_+(z), p_-(z) on [low, high] and P(z > zeta, Y = +-1)."""

    def __init__(self, name, p_pos, p_neg, tail_pos, tail_neg, low=-math.inf, high=math.inf, breaks=()):
        self.name, self.p_pos, self.p_neg = name, p_pos, p_neg
        self.tail_pos, self.tail_neg, self.low, self.high, self.breaks = tail_pos, tail_neg, low, high, breaks
        self.prior = tail_pos(-math.inf)

    def mass(self, low_eta, high_eta) -> float:
        """P(low < eta(X) < high)."""
        lo = -math.inf if low_eta <= 0 else math.log(low_eta / (1 - low_eta)) if low_eta < 1 else math.inf
        hi = math.inf if high_eta >= 1 else math.log(high_eta / (1 - high_eta)) if high_eta > 0 else -math.inf
        if not lo < hi:
            return 0.0
        return (self.tail_pos(lo) - self.tail_pos(hi)) + (self.tail_neg(lo) - self.tail_neg(hi))


def gaussian_log_odds(population) -> LogOdds:
    """Two Gaussian classes with a shared covariance: z | Y = y ~ N(w^T mu_y + b, w^T Sigma w)."""
    w, b = population.bayes_direction, population.bayes_intercept
    s = math.sqrt(float(w @ population.covariance @ w))
    m_pos, m_neg, pi = float(w @ population.mean_positive) + b, float(w @ population.mean_negative) + b, \
        population.prior

    def density(m, weight):
        return lambda z: weight * math.exp(-0.5 * ((z - m) / s) ** 2) / (s * math.sqrt(2 * math.pi))

    def tail(m, weight):
        return lambda zeta: weight * (1.0 if zeta == -math.inf else 0.0 if zeta == math.inf else
                                      float(ndtr((m - zeta) / s)))

    return LogOdds("Gaussian", density(m_pos, pi), density(m_neg, 1 - pi), tail(m_pos, pi), tail(m_neg, 1 - pi),
                   low=min(m_pos, m_neg) - 40 * s, high=max(m_pos, m_neg) + 40 * s, breaks=(m_neg, m_pos))


def bounded_logistic_log_odds(population) -> LogOdds:
    """u ~ U[-1, 1], z = slope u + offset: z uniform on [offset - |slope|, offset + |slope|], eta = sigmoid(z)."""
    a, b = population.slope, population.offset
    low, high = b - abs(a), b + abs(a)
    width = high - low

    def tail(sign):
        def t(zeta):
            lo = max(zeta, low)
            if lo >= high:
                return 0.0
            # int_lo^high sigmoid(sign z) dz / width = [sign * softplus(sign z)] / width
            return float(sign * (np.logaddexp(0, sign * high) - np.logaddexp(0, sign * lo))) / width
        return t

    return LogOdds("bounded-logistic", lambda z: expit(z) / width if low <= z <= high else 0.0,
                   lambda z: expit(-z) / width if low <= z <= high else 0.0, tail(1.0), tail(-1.0), low, high)


def _utility(metric: Metric, law: LogOdds, zeta: float) -> float:
    """U of the classifier predicting +1 where z > zeta."""
    tp, fp, pi = law.tail_pos(zeta), law.tail_neg(zeta), law.prior
    f = float
    num = f(metric.a0p) * tp + f(metric.a0n) * fp + f(metric.c0) + f(metric.d0) * pi
    den = f(metric.a1p) * tp + f(metric.a1n) * fp + f(metric.c1) + f(metric.d1) * pi
    return num / den if den != 0 else 0.0


def bayes_utility(metric: Metric, law: LogOdds) -> tuple[float, float]:
    """(U-dagger, the optimal threshold zeta on z) over threshold classifiers (Prop. 5), grid then Brent."""
    low, high = max(law.low, -60.0), min(law.high, 60.0)
    grid = np.linspace(low, high, 2001)
    values = [_utility(metric, law, z) for z in grid]
    k = int(np.argmax(values))
    ends = [(_utility(metric, law, -math.inf), -math.inf), (_utility(metric, law, math.inf), math.inf)]
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    res = optimize.minimize_scalar(lambda z: -_utility(metric, law, z), bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-12})
    best = max([(-res.fun, float(res.x))] + ends, key=lambda p: p[0])
    return best[0], best[1]


def _pointwise_minimiser(loss: TauLogistic, big: float, small: float) -> float:
    """argmin_xi big phi(xi) + small phi(-xi) (big, small > 0), from phi's one-sided derivatives at 0 and root
    finding of the derivative on the side that descends."""
    def dg(xi, side=0):
        return big * loss.derivative(xi, side) - small * loss.derivative(-xi, -side)

    if dg(0.0, +1) < 0:  # descends to the right
        hi = 1.0
        while dg(hi) < 0:
            hi *= 2
        return optimize.brentq(dg, 0.0, hi, xtol=1e-14)
    if dg(0.0, -1) > 0:
        lo = -1.0
        while dg(lo) > 0:
            lo *= 2
        return optimize.brentq(dg, lo, 0.0, xtol=1e-14)
    return 0.0


def _zero_interval(metric: Metric, loss: TauLogistic, law: LogOdds, u: float) -> tuple[float, float]:
    """The z-interval where 0 minimises the pointwise problem at level u: between the roots in z of the one-sided
    derivatives at 0 (each monotone in z)."""
    a, c = float(metric.a0p) + u * float(metric.a1p), u * float(metric.a1n) - float(metric.a0n)

    def right(z):  # g'(0+) with eta = sigmoid(z): weights a eta, c (1 - eta)
        return a * expit(z) * loss.derivative(0.0, +1) - c * expit(-z) * loss.derivative(0.0, -1)

    def left(z):
        return a * expit(z) * loss.derivative(0.0, -1) - c * expit(-z) * loss.derivative(0.0, +1)

    z_hi = optimize.brentq(right, -80.0, 80.0, xtol=1e-14)
    z_lo = optimize.brentq(left, -80.0, 80.0, xtol=1e-14)
    return z_lo, z_hi


def _level_value(metric: Metric, loss: TauLogistic, law: LogOdds, u: float) -> float:
    """F(u) = sup_f N_phi(f) - u D_phi(f), attained by the pointwise minimisers at level u (Dinkelbach's
    separation): decreasing in u, zero exactly at u = U_phi*."""
    f = float
    a, c = f(metric.a0p) + u * f(metric.a1p), u * f(metric.a1n) - f(metric.a0n)
    z_lo, z_hi = _zero_interval(metric, loss, law, u)

    kept: dict = {}  # the minimiser at z, found once: each integrand reads it twice, both quadratures share nodes

    def xi(z):
        if z not in kept:
            kept[z] = _pointwise_minimiser(loss, a * expit(z), c * expit(-z))
        return kept[z]

    points = sorted(p for p in {z_lo, z_hi, *law.breaks} if law.low < p < law.high)
    edges = [law.low, *points, law.high]

    def integral(fn):
        return sum(integrate.quad(fn, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
                   for lo, hi in zip(edges, edges[1:]) if hi > lo)

    num = integral(lambda z: f(metric.a0p) * (1 - loss.value(xi(z))) * law.p_pos(z)
                   + f(metric.a0n) * loss.value(-xi(z)) * law.p_neg(z)) + f(metric.c0) + f(metric.d0) * law.prior
    den = integral(lambda z: f(metric.a1p) * (1 + loss.value(xi(z))) * law.p_pos(z)
                   + f(metric.a1n) * loss.value(-xi(z)) * law.p_neg(z)) + f(metric.c1) + f(metric.d1) * law.prior
    return num - u * den


def surrogate_optimum(metric: Metric, loss: TauLogistic, law: LogOdds) -> tuple[float, float, float]:
    """(U_phi*, z_lo, z_hi): U_phi* as the root of F(u) in (0, 1] (Brent's method; U_phi <= U <= 1 by Lemma 1 for
    this loss, and F(0+) > 0 where U_phi* > 0), then the zero interval at that level.  U_phi* <= 1e-9 is returned
    as 0 with the interval at 1e-9 (the statements' hypothesis U_phi* > 0 fails there)."""
    tiny = 1e-9
    if _level_value(metric, loss, law, tiny) <= 0:
        return 0.0, *_zero_interval(metric, loss, law, tiny)
    u = optimize.brentq(lambda v: _level_value(metric, loss, law, v), tiny, 1.0, xtol=1e-15, rtol=1e-14)
    return u, *_zero_interval(metric, loss, law, u)


def continuous_case(name, source, metric: Metric, tau: F, law: LogOdds) -> ContinuousCase:
    loss = TauLogistic(tau)
    u_star, z_lo, z_hi = surrogate_optimum(metric, loss, law)
    u_dagger, zeta = bayes_utility(metric, law)
    clip = min(max(zeta, z_lo), z_hi)
    left = loss.derivative(0.0, -1)
    facts_loss = Loss(f"tau-logistic(tau={tau})", left, float(tau) * left, ratio=F(tau),
                      strictly_convex_pieces=True)
    support = (float(expit(law.low)), float(expit(law.high)))
    return ContinuousCase(
        name, source, metric, facts_loss, u_star, u_dagger, (float(expit(z_lo)), float(expit(z_hi))),
        u_minus_on_zero=_utility(metric, law, z_hi), u_plus_on_zero=_utility(metric, law, z_lo),
        u_bayes_on_zero=_utility(metric, law, clip), mass=lambda lo, hi: law.mass(float(lo), float(hi)),
        support=support, tolerance=TOLERANCE)

