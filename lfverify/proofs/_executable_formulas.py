"""The corrected statements' closed forms (Dinkelbach's weights, the kink band, Prop. 5's threshold delta, the
loss-level bound c alpha/(a gamma), Thm. 7's H) as the predicates of :mod:`lfverify.proofs._executable` evaluate them:
the formulas are those of :mod:`lfverify.proofs._calibration_forms` - the code the ``sign_pattern`` and ``criterion``
proofs compare with the derived SymPy closed forms - called after the executable statements' own check that no value
is one the statement leaves undefined (:class:`~lfverify.proofs._executable_evaluation.Undecidable`).  Exact for
Fraction inputs, mpmath for mpf inputs.
"""

from __future__ import annotations

from lfverify.proofs import _calibration_forms as _forms
from lfverify.proofs._calibration_forms import _coefficients
from lfverify.proofs._executable_evaluation import _common


def _checked(metric, *values):
    """Raise Undecidable where a coefficient of ``metric`` or a value is undefined (the arithmetic is the forms')."""
    _common(*_coefficients(metric), *values)


def dinkelbach_weights(metric, u_star):
    """(a, c) of Dinkelbach's pointwise problem (:func:`lfverify.proofs._calibration_forms.dinkelbach_weights`)."""
    _checked(metric, u_star)
    return _forms.dinkelbach_weights(metric, u_star)


def kink_band(metric, rho, u_star):
    """(eta_lo, eta_hi) with the hypotheses' guards (:func:`lfverify.proofs._calibration_forms.kink_band`)."""
    _checked(metric, rho, u_star)
    return _forms.kink_band(metric, rho, u_star)


def _band(metric, rho, u_star):
    """The band's closed forms without the guards (:func:`lfverify.proofs._calibration_forms._band`)."""
    _checked(metric, rho, u_star)
    return _forms._band(metric, rho, u_star)


def _threshold(metric, u_dagger):
    """delta(U-dagger) = gamma / (alpha + gamma) without the guard of :func:`bayes_threshold`."""
    p0, n0, p1, n1, u = _common(*_coefficients(metric), u_dagger)
    alpha, gamma = p0 - p1 * u, n1 * u - n0
    return gamma / (alpha + gamma)


def bayes_threshold(metric, u_dagger):
    """Prop. 5's delta(U-dagger) with its guard (:func:`lfverify.proofs._calibration_forms.bayes_threshold`)."""
    _checked(metric, u_dagger)
    return _forms.bayes_threshold(metric, u_dagger)


def weak_form_rho_bound(metric, u_star, u_dagger):
    """c alpha / (a gamma) (:func:`lfverify.proofs._calibration_forms.weak_form_rho_bound`)."""
    _checked(metric, u_star, u_dagger)
    return _forms.weak_form_rho_bound(metric, u_star, u_dagger)


def _h_of(metric, t):
    """Thm. 7's H(t) = (a_{0,+1} - a_{1,+1} t) / (a_{1,-1} t - a_{0,-1})."""
    p0, n0, p1, n1, t = _common(*_coefficients(metric), t)
    return (p0 - p1 * t) / (n1 * t - n0)
