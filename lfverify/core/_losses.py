"""Surrogate losses phi(m) of a margin m (Sec. 2-3, Definition "tau-discrepant loss", Fig. 2).

Every loss gives its value, first and second derivative, vectorized over arrays and numerically stable for
|m| up to 1e300: no overflow warning and no NaN.  Where the exact value exceeds the largest double (the
squared-hinge and exponential losses far out on the negative side) the correctly rounded result +inf is
returned.  At a kink the derivatives are one-sided, chosen by ``side`` ("right", the default, or "left").

Each loss states the properties the paper's results assume of it:

* ``is_convex`` (Lemma 2, Thms. 1, 2, 7), ``is_nonincreasing`` (Thms. 1, 2, 7),
* ``dominates_zero_one``: phi(m) >= 1{m <= 0} for all m (Lemma 1),
* ``discrepancy``: phi'(0+) / phi'(0-); a convex phi is tau-discrepant (phi'(0+) >= tau phi'(0-)) exactly
  for tau >= discrepancy when phi'(0-) < 0,
* ``lipschitz`` = sup |phi'| and ``smoothness`` = (gamma_{-1}, gamma_{+1}), the Lipschitz constants of
  phi' on m <= 0 and m > 0 (Lemma 4 and the lemma on non-smooth Rademacher complexity); ``inf`` when
  unbounded.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from lfverify.core._validation import check_real

__all__ = [
    "SurrogateLoss",
    "TauDiscrepantLogisticLoss",
    "HingeLoss",
    "SquaredHingeLoss",
    "ExponentialLoss",
    "SigmoidLoss",
    "tau_logistic",
    "logistic",
    "hinge",
    "squared_hinge",
    "exponential",
    "sigmoid",
]

_SIDES = ("right", "left")


def _as_margins(m) -> np.ndarray:
    arr = np.asarray(m, dtype=np.float64)
    if np.isnan(arr).any():
        raise ValueError("m must not contain NaN")
    return arr


def _check_side(side: str) -> str:
    if side not in _SIDES:
        raise ValueError(f"side must be 'right' or 'left'; got {side!r}")
    return side


def _unwrap(arr: np.ndarray):
    return arr[()] if arr.ndim == 0 else arr


class SurrogateLoss(abc.ABC):
    """A surrogate loss phi: R -> [0, inf) of the margin m = y f(x)."""

    name: str
    is_convex: bool
    is_nonincreasing: bool
    kinks: tuple[float, ...] = ()
    #: Exponential growth rate of phi(m) as m -> -inf (0 for at most polynomial growth); quadrature windows
    #: of the Gaussian population are widened by it.
    tail_rate: float = 0.0

    @abc.abstractmethod
    def _value(self, m: np.ndarray) -> np.ndarray: ...

    @abc.abstractmethod
    def _derivative(self, m: np.ndarray, right: bool) -> np.ndarray: ...

    @abc.abstractmethod
    def _second_derivative(self, m: np.ndarray, right: bool) -> np.ndarray: ...

    def value(self, m):
        """phi(m), elementwise."""
        return _unwrap(self._value(_as_margins(m)))

    def derivative(self, m, *, side: str = "right"):
        """phi'(m), elementwise; one-sided (``side``) at a kink."""
        return _unwrap(self._derivative(_as_margins(m), _check_side(side) == "right"))

    def second_derivative(self, m, *, side: str = "right"):
        """phi''(m), elementwise; one-sided (``side``) at a kink."""
        return _unwrap(self._second_derivative(_as_margins(m), _check_side(side) == "right"))

    def value_and_derivative(self, m, *, side: str = "right"):
        """(phi(m), phi'(m)) in one pass."""
        arr = _as_margins(m)
        right = _check_side(side) == "right"
        work = arr.reshape(-1) if arr.ndim == 0 else arr
        value, derivative = self._value_and_derivative(work, right)
        return _unwrap(value.reshape(arr.shape)), _unwrap(derivative.reshape(arr.shape))

    def _value_and_derivative(self, m: np.ndarray, right: bool, workspace: np.ndarray | None = None,
                              overwrite_m: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Package-internal hot path of the estimators: ``m`` is a float64 array of at least one dimension,
        already checked (no NaN); subclasses may override it with a fused computation.

        ``workspace``, if given, is a float64 array of shape ``(3, *m.shape)`` (not overlapping ``m``): the value
        and the derivative are written into ``workspace[0]`` and ``workspace[1]`` (and returned), ``workspace[2]``
        is scratch.  The chunked estimators pass the same workspace for every chunk: a fresh (chunk x K)
        temporary costs more than the arithmetic done in it (page faults of the new allocation; measured in
        benchmarks/bench_simulations.py).  With ``overwrite_m`` the caller gives up ``m`` (its values afterwards
        are unspecified): it is the scratch, and ``workspace`` needs only 2 rows - one array of n numbers less at
        the cost-sensitive fit's peak.  The results are the same bits either way.
        """
        if workspace is None:
            return self._value(m), self._derivative(m, right)
        np.copyto(workspace[0], self._value(m))
        np.copyto(workspace[1], self._derivative(m, right))
        return workspace[0], workspace[1]

    # ------------------------------------------------------------------ stated properties
    @property
    @abc.abstractmethod
    def dominates_zero_one(self) -> bool:
        """phi(m) >= 1{m <= 0} for every m (the hypothesis of Lemma 1)."""

    @property
    def discrepancy(self) -> float:
        """phi'(0+) / phi'(0-) (Definition of tau-discrepancy); nan when phi'(0-) = 0."""
        right = float(self.derivative(0.0, side="right"))
        left = float(self.derivative(0.0, side="left"))
        return right / left if left != 0 else math.nan

    def is_tau_discrepant(self, tau: float) -> bool:
        """phi is convex and phi'(0+) >= tau * phi'(0-) (Definition of a tau-discrepant loss)."""
        tau = check_real(tau, "tau", low=0.0, low_inclusive=False)
        if not self.is_convex:
            return False
        left = float(self.derivative(0.0, side="left"))
        if left < 0:  # phi'(0+) >= tau phi'(0-)  <=>  phi'(0+) / phi'(0-) <= tau
            return tau >= self.discrepancy
        return float(self.derivative(0.0, side="right")) >= tau * left

    @property
    @abc.abstractmethod
    def lipschitz(self) -> float:
        """``sup_m |phi'(m)|`` (``inf`` when unbounded)."""

    @property
    @abc.abstractmethod
    def smoothness(self) -> tuple[float, float]:
        """(gamma_{-1}, gamma_{+1}): Lipschitz constants of phi' on m <= 0 and on m > 0."""

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, repr=False)
class TauDiscrepantLogisticLoss(SurrogateLoss):
    """phi(m) = log_b(1 + e^{-m}) for m <= 0 and log_b(1 + e^{-tau m}) for m > 0 (Fig. 2, Sec. 6).

    The paper uses base b = 2, so that phi(0) = 1 and phi dominates the 0/1 loss; tau = 1 is the plain
    logistic loss.  ``base`` > 2 gives a convex loss that does *not* dominate the 0/1 loss (kept for
    counterexamples to Lemma 1).

    Parameters
    ----------
    tau : float in (0, 1]
        Slope ratio phi'(0+) / phi'(0-); phi is tau-discrepant and convex.
    base : float > 1, default 2
    """

    tau: float = 1.0
    base: float = 2.0

    is_convex = True
    is_nonincreasing = True
    kinks = (0.0,)

    def __post_init__(self):
        object.__setattr__(self, "tau", check_real(self.tau, "tau", low=0.0, high=1.0, low_inclusive=False))
        object.__setattr__(self, "base", check_real(self.base, "base", low=1.0, low_inclusive=False))

    @property
    def name(self) -> str:
        core = "logistic" if self.tau == 1.0 else f"tau-logistic(tau={self.tau:g})"
        return core if self.base == 2.0 else f"{core}[base={self.base:g}]"

    @property
    def _log_base(self) -> float:
        return math.log(self.base)

    def _slopes(self, m, right):
        # slope s of the active piece: 1 on m < 0, tau on m > 0; at m = 0 the side decides
        positive = (m > 0) | ((m == 0) & right)
        return np.where(positive, self.tau, 1.0)

    def _value(self, m):
        # phi(m) = softplus(-s m) / ln b ; s m is evaluated with the piece that owns m (m <= 0: s = 1)
        s = np.where(m > 0, self.tau, 1.0)
        with np.errstate(over="ignore"):  # |m| > 1.2e308: softplus / ln b exceeds the largest double -> +inf
            return np.logaddexp(0.0, -s * m) / self._log_base

    def _derivative(self, m, right):
        # phi'(m) = -s sigma(-s m) / ln b
        s = self._slopes(m, right)
        return -s * expit(-s * m) / self._log_base

    def _second_derivative(self, m, right):
        # phi''(m) = s^2 sigma(s m) sigma(-s m) / ln b
        s = self._slopes(m, right)
        z = s * m
        return s * s * expit(z) * expit(-z) / self._log_base

    def _value_and_derivative(self, m, right, workspace=None, overwrite_m=False):
        # The estimators' hot path, in as few array passes as possible (no np.where or masked assignment, each
        # of which costs several arithmetic passes) and, given a workspace, with no (chunk x K) temporary.
        # With the active slope s (tau on the right piece, 1 on the left), z = s m and e = exp(-|z|) in (0, 1]:
        #   -|z| = min(-tau m, m)                                (either piece, since 0 < tau <= 1)
        #   phi  = (log1p(e) + max(-m, 0)) / ln b               (softplus(-z); max(-z, 0) = max(-m, 0))
        #   phi' = -(tau e  if on the right piece  else  1) / ((1 + e) ln b)
        # and since tau e <= 1, the selection is max(tau e, 1{left piece}): exact in both branches.  Everything
        # read from m is read before e is written (e is m itself with overwrite_m).
        if workspace is None:
            workspace = np.empty((2 if overwrite_m else 3,) + m.shape)
        value, grad = workspace[0], workspace[1]
        e = m if overwrite_m else workspace[2]
        inv_ln = 1.0 / self._log_base
        np.minimum(m, 0.0, out=grad)  # grad is scratch until it is computed below
        left = (m < 0) if right else (m <= 0)  # at m = 0 the side decides the piece (the value is the same)
        np.multiply(m, -self.tau, out=value)  # value is scratch until log1p below
        np.minimum(value, m, out=e)
        np.exp(e, out=e)
        np.log1p(e, out=value)
        value -= grad
        with np.errstate(over="ignore"):  # |m| > 1.2e308: softplus / ln b exceeds the largest double -> +inf
            value *= inv_ln
        np.multiply(e, self.tau, out=grad)
        np.maximum(grad, left, out=grad)
        e += 1.0
        grad /= e
        grad *= -inv_ln
        return value, grad

    @property
    def discrepancy(self) -> float:
        """Exactly tau: phi'(0+) = -tau / (2 ln b) and phi'(0-) = -1 / (2 ln b)."""
        return self.tau

    @property
    def dominates_zero_one(self) -> bool:
        # phi is decreasing with phi(0) = log_b 2, so phi >= 1 on m <= 0 iff b <= 2
        return self.base <= 2.0

    @property
    def lipschitz(self) -> float:
        return 1.0 / self._log_base

    @property
    def smoothness(self) -> tuple[float, float]:
        # sup of s^2 sigma (1 - sigma) / ln b is s^2 / (4 ln b)
        return 1.0 / (4.0 * self._log_base), self.tau ** 2 / (4.0 * self._log_base)


@dataclass(frozen=True, repr=False)
class HingeLoss(SurrogateLoss):
    """phi(m) = max(0, 1 - m); kink at m = 1."""

    name = "hinge"
    is_convex = True
    is_nonincreasing = True
    kinks = (1.0,)

    def _value(self, m):
        return np.maximum(0.0, 1.0 - m)

    def _derivative(self, m, right):
        active = (m < 1.0) | ((m == 1.0) & (not right))
        return np.where(active, -1.0, 0.0)

    def _second_derivative(self, m, right):
        return np.zeros_like(m)

    dominates_zero_one = True
    lipschitz = 1.0
    smoothness = (0.0, math.inf)  # phi' jumps at m = 1 > 0


@dataclass(frozen=True, repr=False)
class SquaredHingeLoss(SurrogateLoss):
    """phi(m) = max(0, 1 - m)^2; phi' is continuous, phi'' jumps at m = 1."""

    name = "squared-hinge"
    is_convex = True
    is_nonincreasing = True
    kinks = (1.0,)

    def _value(self, m):
        with np.errstate(over="ignore"):  # (1 - m)^2 > max double for m < -1.3e154: +inf, correctly rounded
            return np.square(np.maximum(0.0, 1.0 - m))

    def _derivative(self, m, right):
        with np.errstate(over="ignore"):
            return -2.0 * np.maximum(0.0, 1.0 - m)

    def _second_derivative(self, m, right):
        active = (m < 1.0) | ((m == 1.0) & (not right))
        return np.where(active, 2.0, 0.0)

    dominates_zero_one = True
    lipschitz = math.inf
    smoothness = (2.0, 2.0)


@dataclass(frozen=True, repr=False)
class ExponentialLoss(SurrogateLoss):
    """phi(m) = exp(-m)."""

    name = "exponential"
    is_convex = True
    is_nonincreasing = True
    tail_rate = 1.0

    def _value(self, m):
        with np.errstate(over="ignore"):  # exp(-m) > max double for m < -709.78: +inf, correctly rounded
            return np.exp(-m)

    def _derivative(self, m, right):
        return -self._value(m)

    def _second_derivative(self, m, right):
        return self._value(m)

    dominates_zero_one = True
    lipschitz = math.inf
    smoothness = (math.inf, 1.0)


@dataclass(frozen=True, repr=False)
class SigmoidLoss(SurrogateLoss):
    """phi(m) = scale * sigma(-m) = scale / (1 + e^m): bounded, non-increasing and *not convex*.

    Kept for counterexamples (Lemma 2 and the calibration theorems assume convexity).  With the default
    scale 2, phi(0) = 1 and it dominates the 0/1 loss, so it isolates the convexity assumption.
    """

    scale: float = 2.0

    is_convex = False
    is_nonincreasing = True

    def __post_init__(self):
        object.__setattr__(self, "scale", check_real(self.scale, "scale", low=0.0, low_inclusive=False))

    @property
    def name(self) -> str:
        return "sigmoid" if self.scale == 2.0 else f"sigmoid(scale={self.scale:g})"

    def _value(self, m):
        return self.scale * expit(-m)

    def _derivative(self, m, right):
        # phi' = -scale sigma(m) sigma(-m)
        return -self.scale * expit(m) * expit(-m)

    def _second_derivative(self, m, right):
        # phi'' = scale sigma(m) sigma(-m) (sigma(m) - sigma(-m)), and sigma(m) - sigma(-m) = tanh(m / 2)
        # exactly; the subtraction would cancel near m = 0 (relative error eps / |m|)
        return self.scale * expit(m) * expit(-m) * np.tanh(0.5 * m)

    @property
    def dominates_zero_one(self) -> bool:
        return self.scale >= 2.0  # phi(0) = scale / 2 and phi is decreasing

    @property
    def lipschitz(self) -> float:
        return self.scale / 4.0

    @property
    def smoothness(self) -> tuple[float, float]:
        # max over s in (0, 1) of s (1 - s) |2 s - 1| is 1 / (6 sqrt 3), attained on both sides of 0
        g = self.scale / (6.0 * math.sqrt(3.0))
        return g, g


def tau_logistic(tau: float, *, base: float = 2.0) -> TauDiscrepantLogisticLoss:
    """The tau-discrepant logistic loss of Fig. 2 (the paper uses tau = 0.33 for F_1, 0.75 for Jaccard)."""
    return TauDiscrepantLogisticLoss(tau=tau, base=base)


def logistic(*, base: float = 2.0) -> TauDiscrepantLogisticLoss:
    """The logistic loss log_2(1 + e^{-m}) (tau = 1)."""
    return TauDiscrepantLogisticLoss(tau=1.0, base=base)


def hinge() -> HingeLoss:
    """The hinge loss max(0, 1 - m)."""
    return HingeLoss()


def squared_hinge() -> SquaredHingeLoss:
    """The squared hinge loss max(0, 1 - m)^2."""
    return SquaredHingeLoss()


def exponential() -> ExponentialLoss:
    """The exponential loss exp(-m)."""
    return ExponentialLoss()


def sigmoid(*, scale: float = 2.0) -> SigmoidLoss:
    """The non-convex sigmoid loss scale * sigma(-m)."""
    return SigmoidLoss(scale=scale)
