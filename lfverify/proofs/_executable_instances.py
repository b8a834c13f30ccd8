"""The instance kinds the executable statements are evaluated on (:mod:`lfverify.proofs._executable`, issue 40):
a metric of Definition 1 (:class:`Metric`), a loss described by its one-sided slopes at 0 and the properties the
statements assume (:class:`Loss`), and the four kinds of case - :class:`FiniteCase` (a population of atoms with the
facts an oracle computed: U_phi*, U-dagger, a maximiser's signs, every optimal labelling), :class:`ContinuousCase`
(a distribution of eta with a density, facts by quadrature), :class:`RademacherCase` (both sides of App. C's
corrected bound by exact enumeration) and :class:`RateCase` (the parameters of Lemma 4's bound).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from lfverify.proofs._executable_evaluation import _common


@dataclass(frozen=True)
class Metric:
    """A metric of the form U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1), b_k = c_k + d_k pi (Definition 1's
    coefficients; the 8-tuple order of lfverify.proofs: a0p, a0n, a1p, a1n, c0, d0, c1, d1)."""

    name: str
    a0p: Fraction
    a0n: Fraction
    a1p: Fraction
    a1n: Fraction
    c0: Fraction = Fraction(0)
    d0: Fraction = Fraction(0)
    c1: Fraction = Fraction(0)
    d1: Fraction = Fraction(1)

    @classmethod
    def from_tuple(cls, name: str, values) -> "Metric":
        return cls(name, *(Fraction(v) for v in values))

    def b0(self, pi):
        return self.c0 + self.d0 * pi

    def b1(self, pi):
        return self.c1 + self.d1 * pi

    def value(self, tp, fp, pi):
        return (self.a0p * tp + self.a0n * fp + self.b0(pi)) / (self.a1p * tp + self.a1n * fp + self.b1(pi))

    @property
    def family(self) -> str:
        """"F_beta", "Jaccard", "accuracy" or "" (another Definition 1 metric), up to a positive common factor."""
        v = (self.a0p, self.a0n, self.a1p, self.a1n, self.c0, self.d0, self.c1, self.d1)
        scale = self.a1n or self.c1 or Fraction(1)
        if scale <= 0:
            return ""
        a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (x / scale for x in v)
        if (a0n, a1p, a1n, c0, d0, c1) == (0, 1, 1, 0, 0, 0) and d1 > 0 and a0p == 1 + d1:
            return "F_beta"  # (1 + b^2) TP / (TP + FP + b^2 pi)
        if (a0p, a0n, a1p, a1n, c0, d0, c1, d1) == (1, 0, 0, 1, 0, 0, 0, 1):
            return "Jaccard"  # TP / (FP + pi)
        if (a0p, a0n, a1p, a1n, c0, d0, c1, d1) == (1, -1, 0, 0, 1, -1, 1, 0):
            return "accuracy"  # TP + (1 - pi - FP)
        return ""

    @property
    def beta2(self):
        """beta^2 of an F_beta metric (its d_1 / a_{1,-1})."""
        return self.d1 / self.a1n if self.family == "F_beta" else None


@dataclass(frozen=True)
class Loss:
    """A surrogate loss as the statements see it: its one-sided slopes at 0 and the properties they assume, each
    established by whoever builds the instance from the loss's formula."""

    name: str
    left_slope: object  #: phi'(0-) (Fraction where rational, else mpf)
    right_slope: object  #: phi'(0+)
    nonnegative: bool = True
    convex: bool = True
    nonincreasing: bool = True
    dominates: bool = True  #: phi(t) >= 1{t <= 0}
    two_pieces: bool = True  #: smooth pieces on (-oo, 0] and (0, oo) with Lipschitz derivatives
    gamma_minus: object = None  #: Lipschitz constant of phi_{-1}' (RademacherCase)
    gamma_plus: object = None  #: Lipschitz constant of phi_{+1}'
    strictly_convex_pieces: bool = False
    ratio: object = None  #: phi'(0+)/phi'(0-) exactly, where the slopes are not rational (e.g. tau)

    @property
    def rho(self):
        """phi'(0+) / phi'(0-) (the exact ``ratio`` where given), or None where phi'(0-) = 0."""
        if self.ratio is not None:
            return self.ratio
        if self.left_slope == 0:
            return None
        right, left = _common(self.right_slope, self.left_slope)
        return right / left

    @property
    def jump(self):
        """J = phi'(0+) - phi'(0-)."""
        right, left = _common(self.right_slope, self.left_slope)
        return right - left


@dataclass(frozen=True)
class FiniteCase:
    """A metric, a loss and a finite population (atoms of positive rational mass; "almost every x" is every atom),
    with the facts an oracle computed from the definitions (U_phi*, U-dagger, the signs a maximiser of U_phi can
    take at each atom, every optimal labelling)."""

    name: str
    source: str  #: where the instance is pinned or generated (file, test, corpus)
    metric: Metric
    loss: Loss
    weights: tuple
    eta: tuple
    u_star: object  #: sup_f U_phi(f) (Fraction when exact, else mpf)
    u_dagger: Fraction  #: sup_f U(f) (exact)
    can_pos: tuple  #: per atom: some maximiser of U_phi is > 0 there
    can_neg: tuple
    can_zero: tuple  #: 0 is a maximiser value there
    optimal: frozenset  #: the labellings (tuples of +1 / -1) that attain U-dagger
    #: whether U_phi attains its supremum; when it does not (a loss unbounded below), can_pos / can_neg / can_zero
    #: give the signs that maximising sequences take at each atom from some index on (no maximiser exists)
    attained: bool = True
    kind: str = field(default="finite", init=False)

    @property
    def prior(self):
        return sum(w * e for w, e in zip(self.weights, self.eta))

    @property
    def limit_labels(self) -> tuple:
        """Per atom, the labels sgn f_l(x) (sgn 0 = -1) can take along maximising sequences: +1 if a maximiser is
        positive there or 0 is a maximiser value (approached from above), -1 if one is negative or 0."""
        return tuple(({1} if (p or z) else set()) | ({-1} if (n or z) else set())
                     for p, n, z in zip(self.can_pos, self.can_neg, self.can_zero))

    @property
    def calibrated(self) -> bool:
        """Every limit of U along maximising sequences is U-dagger."""
        return all(lab in self.optimal for lab in itertools.product(*[sorted(s) for s in self.limit_labels]))

    @property
    def canonical_labelling(self) -> tuple:
        """sgn f*_0 with sgn(0) = -1, f*_0 the maximiser equal to 0 wherever 0 is a maximiser value."""
        return tuple(-1 if z else (1 if p else -1) for p, z in zip(self.can_pos, self.can_zero))

    @property
    def bayes_labels(self) -> tuple:
        """Per atom, the labels some optimal labelling gives it."""
        return tuple({lab[j] for lab in self.optimal} for j in range(len(self.eta)))


@dataclass(frozen=True)
class ContinuousCase:
    """A metric, a loss and a distribution of eta with a density, with facts computed by quadrature from the
    definitions: U_phi*, U-dagger, the eta-interval where 0 is a pointwise minimiser (found by minimising the
    pointwise problem, not from the band's formula), and the utilities of the labellings that follow sgn f* off
    that interval and are +1, -1 or the optimal threshold's label on it."""

    name: str
    source: str
    metric: Metric
    loss: Loss
    u_star: object
    u_dagger: object
    zero_interval: tuple  #: (low, high): 0 minimises the pointwise problem exactly for eta in [low, high]
    u_minus_on_zero: object  #: U of sgn f*_0 (-1 on the zero interval)
    u_plus_on_zero: object  #: U of +1 on the zero interval, sgn f* elsewhere
    u_bayes_on_zero: object  #: U of the Bayes label on the zero interval, sgn f* elsewhere
    mass: Callable  #: mass(low, high) = P(low < eta(X) < high) (the distribution has no atoms)
    support: tuple  #: (low, high): the closure of eta(X)'s range; the density is positive inside
    tolerance: float  #: quadrature accuracy: utilities closer than this are equal
    kind: str = field(default="continuous", init=False)


@dataclass(frozen=True)
class RademacherCase:
    """A sample of n points, labels y_i in {-1, +1}, a finite function class given by its values on the sample,
    a metric's coefficients and a two-piece loss: the left side of the corrected lemma's bound (the empirical
    Rademacher complexity of the derivative class W'_k o F) and its ingredients, by exact enumeration of the 2^n sign
    vectors (computed by the oracle)."""

    name: str
    source: str
    loss: Loss
    kappa: object  #: max(|a_{k,+1}|, |a_{k,-1}|)
    lhs: object  #: R_S(W~'_k o F)
    rademacher_class: object  #: R_S(F)
    rademacher_indicators: object  #: R_S(I_F)
    sign_sum: object  #: E|sum sigma_i| / n
    n: int
    d: int = 0  #: dimension, for the linear class (0: a finite class)
    patterns: int = 0  #: the number of patterns {i : y_i f(x_i) <= 0} over F
    kind: str = field(default="rademacher", init=False)


@dataclass(frozen=True)
class RateCase:
    """The parameters of Lemma 4's bound at one (n, d): the explicit bound B_E(n) as the proof assembles it
    (``lfverify.proofs.lemma4_uniform_convergence.corrected_uniform_convergence_bound``) and the displayed order."""

    name: str
    source: str
    #: the arguments of ``corrected_expectation_bound`` (n, d, c_X, c_Theta, c0, c1, rho0, rho1, gamma, kappa0,
    #: kappa1, slope_at_zero, jump), ``delta`` and, where known, ``lower``: an exact lower bound of E sup ||V_hat - V||
    parameters: dict
    loss: Loss  #: the loss the constants belong to
    kind: str = field(default="rate", init=False)
