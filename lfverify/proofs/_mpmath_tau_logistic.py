"""The tau-logistic loss of Sec. 6 (Fig. 2) in mpmath, for the proofs' high-precision witnesses.

phi(m) = log_b(1 + e^{-s m}) with s = tau for m > 0 and s = 1 for m <= 0, and its derivative
phi'(m) = -s / ((1 + e^{s m}) ln b) (at m = 0 the left derivative, -1/(2 ln b)).  In base 2 this is
:func:`lfverify.core.tau_logistic` (tau = 1: the logistic loss), evaluated at the caller's mpmath precision.
Each function returns a closure; ``tau`` and ``ln b`` are converted when it is made, so make it inside the
caller's ``mp.workdps`` block.
"""

from __future__ import annotations

import mpmath as mp

from lfverify.proofs._exact_numbers import exact_mpf

__all__ = ["tau_logistic_mp", "tau_logistic_derivative_mp"]


def tau_logistic_mp(tau, base=2):
    """phi(m) = log_base(1 + e^{-s m}), s = tau for m > 0 and 1 for m <= 0 (Sec. 6's tau-logistic loss)."""
    t, ln_base = exact_mpf(tau), mp.log(base)

    def phi(m):
        s = t if m > 0 else 1
        return mp.log1p(mp.exp(-s * m)) / ln_base

    return phi


def tau_logistic_derivative_mp(tau, base=2):
    """phi'(m) = -s / ((1 + e^{s m}) ln base), s = tau for m > 0 and 1 for m <= 0 (left derivative at 0)."""
    t, ln_base = exact_mpf(tau), mp.log(base)

    def dphi(m):
        s = t if m > 0 else 1
        return -s / (1 + mp.exp(s * m)) / ln_base

    return dphi
