"""Surrogate class-conditional scores (Eq. (3), Eq. (6)) and the ratio algebra shared by U_phi and U_hat.

With the margin t = y xi, every per-sample surrogate score of Eq. (6) is affine in phi(t):

    W~_{0,phi}(xi, +1) = a_{0,+1} (1 - phi(xi)) + b_0   = (a_{0,+1} + b_0) + (-a_{0,+1}) phi(t)
    W~_{0,phi}(xi, -1) = a_{0,-1} phi(-xi)      + b_0   =  b_0             + ( a_{0,-1}) phi(t)
    W~_{1,phi}(xi, +1) = a_{1,+1} (1 + phi(xi)) + b_1   = (a_{1,+1} + b_1) + ( a_{1,+1}) phi(t)
    W~_{1,phi}(xi, -1) = a_{1,-1} phi(-xi)      + b_1   =  b_1             + ( a_{1,-1}) phi(t)

so W~_k = offset_k(y) + slope_k(y) phi(y xi) and dW~_k / dxi = slope_k(y) phi'(y xi) y.  Taking expectations
over (X, Y) gives the population scores E[W_{k,phi}] of Eq. (3) (Lemma 3's "simple algebra"), so the
empirical estimators and the exact populations share this one piece of code.

Prior-dependent offsets b_k = c_k + d_k pi (Table 1) enter per sample as c_k + d_k 1{y = +1}, whose
expectation is exactly b_k: no knowledge of pi is needed and Lemma 3's unbiasedness stays exact.  Passing a
known ``prior`` uses the constant b_k(pi) instead (the paper's literal Eq. (6)).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .metrics import LinearFractionalMetric

__all__ = [
    "ScoreCoefficients",
    "score_coefficients",
    "surrogate_scores",
    "gradient_direction",
    "RatioDirection",
    "ratio_and_direction",
]


class ScoreCoefficients(NamedTuple):
    """W~_k(xi, y) = offset_k(y) + slope_k(y) * phi(y xi); each entry is indexed by class (0: y=-1, 1: y=+1)."""

    offset0: np.ndarray
    slope0: np.ndarray
    offset1: np.ndarray
    slope1: np.ndarray


def score_coefficients(metric: LinearFractionalMetric, prior: float | None = None) -> ScoreCoefficients:
    """Offsets and slopes of the surrogate scores for y = -1 (index 0) and y = +1 (index 1).

    Parameters
    ----------
    metric : LinearFractionalMetric
    prior : float or None
        ``None``: the per-sample form of b_k (c_k + d_k 1{y=+1}); a float: the constant b_k(prior).
    """
    if prior is None:
        b0 = np.array([metric.b0_const, metric.b0_const + metric.b0_prior])
        b1 = np.array([metric.b1_const, metric.b1_const + metric.b1_prior])
    else:
        b0 = np.full(2, float(metric.b0(prior)))
        b1 = np.full(2, float(metric.b1(prior)))
    return ScoreCoefficients(
        offset0=b0 + np.array([0.0, metric.a0p]),
        slope0=np.array([metric.a0n, -metric.a0p]),
        offset1=b1 + np.array([0.0, metric.a1p]),
        slope1=np.array([metric.a1n, metric.a1p]),
    )


def surrogate_scores(metric: LinearFractionalMetric, loss, xi, y, *, prior: float | None = None, side: str = "right"):
    """Per-sample surrogate scores W~_{0,phi}(xi, y), W~_{1,phi}(xi, y) and their xi-derivatives (Eq. (6)).

    Parameters
    ----------
    metric : LinearFractionalMetric
    loss : SurrogateLoss
    xi : array_like
        Classifier outputs f(x).
    y : array_like of int in {-1, +1}, broadcastable with ``xi``
    prior : float or None
        See :func:`score_coefficients`.
    side : {"right", "left"}
        One-sided derivative of phi at a kink (in the margin t = y xi).

    Returns
    -------
    w0, w1, dw0, dw1 : ndarray
    """
    xi = np.asarray(xi, dtype=np.float64)
    y = np.asarray(y)
    cls = (y == 1).astype(np.intp)
    coef = score_coefficients(metric, prior)
    t = np.where(y == 1, xi, -xi)
    phi, dphi = loss.value_and_derivative(t, side=side)
    sign = np.where(y == 1, 1.0, -1.0)
    w0 = coef.offset0[cls] + coef.slope0[cls] * phi
    w1 = coef.offset1[cls] + coef.slope1[cls] * phi
    return w0, w1, coef.slope0[cls] * dphi * sign, coef.slope1[cls] * dphi * sign


class RatioDirection(NamedTuple):
    """A ratio U = N / D with its gradient and the gradient direction V = D grad N - N grad D."""

    numerator: np.ndarray
    denominator: np.ndarray
    value: np.ndarray
    gradient_direction: np.ndarray
    gradient: np.ndarray


def gradient_direction(numerator, denominator, numerator_gradient, denominator_gradient) -> np.ndarray:
    """V = D grad N - N grad D for a batch (N, D of shape (K,), gradients (K, d)); Sec. 3.3 / Eq. (7)."""
    num = np.asarray(numerator, dtype=np.float64)[:, None]
    den = np.asarray(denominator, dtype=np.float64)[:, None]
    return den * np.asarray(numerator_gradient, dtype=np.float64) - num * np.asarray(denominator_gradient, dtype=np.float64)


def ratio_and_direction(numerator, denominator, numerator_gradient, denominator_gradient, *, what: str) -> RatioDirection:
    """U = N / D, V = D grad N - N grad D and grad U = V / D^2 (Sec. 3.3, Lemma 3).

    Shapes: N, D of shape (K,); gradients of shape (K, d).

    Raises
    ------
    ValueError
        If some denominator is <= 0 or not finite (the ratio and its gradient identity then break down);
        the message names the offending rows of the batch.
    """
    num = np.asarray(numerator, dtype=np.float64)
    den = np.asarray(denominator, dtype=np.float64)
    bad = ~(den > 0) | ~np.isfinite(den) | ~np.isfinite(num)
    if np.any(bad):
        rows = np.flatnonzero(bad)
        raise ValueError(
            f"{what}: the denominator must be positive and finite, but for parameter rows {rows[:10].tolist()} "
            f"it is {den[rows[:10]].tolist()} (numerator {num[rows[:10]].tolist()}); the surrogate utility is "
            "undefined there"
        )
    direction = gradient_direction(num, den, numerator_gradient, denominator_gradient)
    return RatioDirection(num, den, num / den, direction, direction / (den * den)[:, None])
