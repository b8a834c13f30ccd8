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

from lfverify.core._metrics import LinearFractionalMetric

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

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eq. (6) (the surrogate scores), Eq. (3) (W_{k,phi}).

    Examples
    --------
    F_1's scores at xi = 0 with prior 1/2 (the base-2 logistic loss is 1 at 0):

    >>> import numpy as np
    >>> from lfverify.core import f1, logistic, surrogate_scores
    >>> w0, w1, dw0, dw1 = surrogate_scores(f1(), logistic(), np.array([0.0, 0.0]), np.array([1, -1]), prior=0.5)
    >>> np.round(w0, 6), np.round(w1, 6)
    (array([0., 0.]), array([2.5, 1.5]))
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
    """A ratio U = N / D with its gradient and the gradient direction V = D grad N - N grad D (None when not
    asked for)."""

    numerator: np.ndarray
    denominator: np.ndarray
    value: np.ndarray
    gradient_direction: np.ndarray | None
    gradient: np.ndarray


def _power_of_two_scale(*arrays) -> np.ndarray:
    """Per row, the power of two 2^e >= the largest |entry| of the arrays (shape (K,)): dividing by it is exact."""
    largest = np.max(np.column_stack([np.abs(a).reshape(a.shape[0], -1).max(axis=1) for a in arrays]), axis=1)
    return np.ldexp(1.0, np.frexp(np.where(largest > 0, largest, 1.0))[1])


def gradient_direction(numerator, denominator, numerator_gradient, denominator_gradient) -> np.ndarray:
    """V = D grad N - N grad D for a batch (N, D of shape (K,), gradients (K, d)); Sec. 3.3 / Eq. (7).

    A row whose products overflow is recomputed with every factor divided by a power of two (exact), so V is
    returned whenever it is itself a finite double.

    Raises
    ------
    ValueError
        If V does not fit in a double (its entries exceed 1.8e308), naming the rows: a correct V cannot be
        returned (grad U = V / D^2 still can: :func:`ratio_and_direction`).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Sec. 3.3 and Eq. (7) (V = D grad N - N grad D).

    Examples
    --------
    >>> import numpy as np
    >>> from lfverify.core import gradient_direction
    >>> gradient_direction(np.array([0.5]), np.array([1.0]), np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]))
    array([[ 1. , -0.5]])
    """
    num = np.asarray(numerator, dtype=np.float64)
    den = np.asarray(denominator, dtype=np.float64)
    gnum = np.asarray(numerator_gradient, dtype=np.float64)
    gden = np.asarray(denominator_gradient, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        direction = den[:, None] * gnum - num[:, None] * gden
        bad = ~np.isfinite(direction).all(axis=1)
        if bad.any():
            scale = _power_of_two_scale(num[bad], den[bad], gnum[bad], gden[bad])[:, None]
            scaled = (den[bad, None] / scale) * (gnum[bad] / scale) - (num[bad, None] / scale) * (gden[bad] / scale)
            direction[bad] = (scaled * scale) * scale
    overflow = ~np.isfinite(direction).all(axis=1)
    if overflow.any():
        rows = np.flatnonzero(overflow)
        raise ValueError(
            f"V = D grad N - N grad D overflows the largest double for parameter rows {rows[:10].tolist()} "
            f"(D = {den[rows[:3]].tolist()}, N = {num[rows[:3]].tolist()}): the scores are too large; rescale X "
            "or theta (the gradient of the ratio, V / D^2, is still available)"
        )
    return direction


def ratio_and_direction(numerator, denominator, numerator_gradient, denominator_gradient, *, what: str,
                        direction: bool = True) -> RatioDirection:
    """U = N / D, V = D grad N - N grad D and grad U = V / D^2 (Sec. 3.3, Lemma 3).

    Shapes: N, D of shape (K,); gradients of shape (K, d).  Where V or D^2 leaves the range of doubles (V's
    products D grad N and N grad D below the normal range included), grad U is computed as (grad N - U grad D) / D
    instead, so it is correct wherever it is itself representable.  With
    ``direction=False`` V is not computed (the field is None) and cannot overflow.

    Raises
    ------
    ValueError
        If some denominator is <= 0 or not finite (the ratio and its gradient identity then break down), or U
        or grad U overflow (D is positive but too small for this N); the message names the offending rows of
        the batch.  With ``direction=True``, also if V overflows (:func:`gradient_direction`).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Sec. 3.3 (grad U = V / D^2), Lemma 3.

    Examples
    --------
    >>> import numpy as np
    >>> from lfverify.core import ratio_and_direction
    >>> r = ratio_and_direction(np.array([0.5]), np.array([2.0]), np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]]),
    ...                         what="U")
    >>> r.value, r.gradient_direction, r.gradient
    (array([0.25]), array([[ 2. , -0.5]]), array([[ 0.5  , -0.125]]))
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
    gnum = np.asarray(numerator_gradient, dtype=np.float64)
    gden = np.asarray(denominator_gradient, dtype=np.float64)
    v = gradient_direction(num, den, gnum, gden) if direction else None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        value = num / den
        square = den * den
        tiny = np.finfo(np.float64).tiny
        # V / D^2 is also wrong where a nonzero product D grad N or N grad D fell below the normal range: V lost
        # its digits (D = 1e-100, grad N = 1e-300: V underflows to 0, grad U is 1e-200)
        lost = (((np.abs(den)[:, None] * np.abs(gnum) < tiny) & (gnum != 0))
                | ((np.abs(num)[:, None] * np.abs(gden) < tiny) & (gden != 0) & (num != 0)[:, None])).any(axis=1)
        direct = (square > tiny) & np.isfinite(square) & ~lost
        gradient = np.empty_like(gnum)
        if direct.all() and v is not None:
            gradient[...] = v / square[:, None]
        else:
            unscaled = v if v is not None else den[:, None] * gnum - num[:, None] * gden
            gradient[...] = unscaled / square[:, None]
        rescale = ~direct | ~np.isfinite(gradient).all(axis=1)
        if rescale.any():  # the quotient rule without D^2: (grad N - U grad D) / D
            gradient[rescale] = (gnum[rescale] - value[rescale, None] * gden[rescale]) / den[rescale, None]
    overflow = ~np.isfinite(value) | ~np.isfinite(gradient).all(axis=1)
    if overflow.any():
        rows = np.flatnonzero(overflow)
        raise ValueError(
            f"{what}: the ratio or its gradient overflows for parameter rows {rows[:10].tolist()} (denominator "
            f"{den[rows[:10]].tolist()}, numerator {num[rows[:10]].tolist()}): the denominator is positive but too "
            "close to 0; the surrogate utility is unbounded near there"
        )
    return RatioDirection(num, denominator=den, value=value, gradient_direction=v, gradient=gradient)
