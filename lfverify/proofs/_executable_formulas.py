"""The corrected statements' closed forms as code (Dinkelbach's weights, the kink band, Prop. 5's threshold delta,
the loss-level bound c alpha/(a gamma), Thm. 7's H), evaluated exactly for Fraction inputs and in mpmath for mpf
inputs; the predicates of :mod:`lfverify.proofs._executable` compare an instance's facts with them, and the
``sign_pattern`` and ``criterion`` proofs compare them with the derived SymPy closed forms.
"""

from __future__ import annotations

from lfverify.proofs._executable_evaluation import _common


def _coefficients(metric):
    try:
        return metric.a0p, metric.a0n, metric.a1p, metric.a1n
    except AttributeError:
        raise TypeError(f"metric must have the coefficients a0p, a0n, a1p, a1n of Definition 1; got "
                        f"{type(metric).__name__}") from None


def dinkelbach_weights(metric, u_star):
    """(a, c) = (a_{0,+1} + U* a_{1,+1}, U* a_{1,-1} - a_{0,-1}): the weights of phi(xi) and phi(-xi) in the
    pointwise problem of Dinkelbach's separation (claim ``sign_pattern``, step 1)."""
    p0, n0, p1, n1, u = _common(*_coefficients(metric), u_star)
    return p0 + u * p1, u * n1 - n0


def kink_band(metric, rho, u_star):
    """(eta_lo, eta_hi) = (rho c/(rho c + a), c/(c + rho a)): the surrogate maximiser over all measurable f is
    > 0 where eta > eta_hi, < 0 where eta < eta_lo and 0 strictly inside (claim ``sign_pattern``).

    ``rho`` = phi'(0+)/phi'(0-) in [0, 1] (tau for the tau-logistic loss of Fig. 2), ``u_star`` = sup_f U_phi > 0.
    Exact for Fraction inputs, mpmath for mpf inputs.
    """
    rho, u_star = _common(rho, u_star)
    if not 0 <= rho <= 1:
        raise ValueError(f"rho must be phi'(0+)/phi'(0-) in [0, 1] (a convex, non-increasing loss); got {rho!r}")
    if not u_star > 0:
        raise ValueError(f"u_star must be sup_f U_phi(f) > 0; got {u_star!r}")
    a, c = _common(*dinkelbach_weights(metric, u_star), rho)[:2]
    if not (a > 0 and c > 0):
        raise ValueError(f"the pointwise problem needs a = {a!r} > 0 and c = {c!r} > 0 (Definition 1 with "
                         "a_{0,-1} != 0 or a_{1,-1} != 0)")
    return _band(metric, rho, u_star)


def _band(metric, rho, u_star):
    """The band's closed forms without their hypotheses' guards (an instance that violates one of them is evaluated
    as the statement reads; a zero denominator raises ZeroDivisionError)."""
    a, c, rho = _common(*dinkelbach_weights(metric, u_star), rho)
    return rho * c / (rho * c + a), c / (c + rho * a)


def _threshold(metric, u_dagger):
    """delta(U-dagger) = gamma / (alpha + gamma) without the guard of :func:`bayes_threshold`."""
    p0, n0, p1, n1, u = _common(*_coefficients(metric), u_dagger)
    alpha, gamma = p0 - p1 * u, n1 * u - n0
    return gamma / (alpha + gamma)


def bayes_threshold(metric, u_dagger):
    """delta(U-dagger) = gamma / (alpha + gamma), alpha = a_{0,+1} - a_{1,+1} U, gamma = a_{1,-1} U - a_{0,-1}
    (Prop. 5; the Bayes rule predicts +1 exactly where eta > delta)."""
    p0, n0, p1, n1, u = _common(*_coefficients(metric), u_dagger)
    alpha, gamma = p0 - p1 * u, n1 * u - n0
    if not alpha + gamma > 0:
        raise ValueError(f"Prop. 5's threshold needs Da0 - Da1 U-dagger > 0; got {alpha + gamma!r}")
    return gamma / (alpha + gamma)


def weak_form_rho_bound(metric, u_star, u_dagger):
    """c alpha / (a gamma): the kink ratio rho = phi'(0+)/phi'(0-) must not exceed it for delta <= eta_hi, the
    loss-level condition under which every x off the kink band gets the Bayes sign whatever the distribution
    (claim ``criterion``).  F_beta: U*(1 + beta^2 - U-dagger) / (U-dagger (1 + beta^2 + U*)); Jaccard: U*/U-dagger."""
    p0, n0, p1, n1, u, ud = _common(*_coefficients(metric), u_star, u_dagger)
    a, c = p0 + u * p1, u * n1 - n0
    alpha, gamma = p0 - p1 * ud, n1 * ud - n0
    return c * alpha / (a * gamma)


def _h_of(metric, t):
    """Thm. 7's H(t) = (a_{0,+1} - a_{1,+1} t) / (a_{1,-1} t - a_{0,-1})."""
    p0, n0, p1, n1, t = _common(*_coefficients(metric), t)
    return (p0 - p1 * t) / (n1 * t - n0)
