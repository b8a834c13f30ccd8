"""Executable statements: every hypothesis and every conclusion of a corrected statement as a predicate that is
evaluated on concrete instances (issue 40).

A statement of :mod:`lfverify.proofs._corrected_statements` is text; this module is what the text says, as code,
for one instance at a time:

* the instances - :class:`FiniteCase` (a metric of Definition 1, a loss described by its properties and one-sided
  slopes at 0, a population of atoms with rational weights and posteriors, and the *facts* about it that an oracle
  computed from the definitions: U_phi*, U-dagger, which signs a maximiser of U_phi takes at each atom, every
  optimal labelling), :class:`ContinuousCase` (a distribution of eta with a density: the facts are utilities
  computed by quadrature), :class:`RademacherCase` (a sample, a finite function class and a two-piece loss: both
  sides of the corrected contraction bound by exact enumeration) and :class:`RateCase` (the parameters of Lemma 4's
  bound, for its displayed order);
* the predicates - one per hypothesis key (:data:`HYPOTHESIS_PREDICATES`: does the instance satisfy it?) and one per
  conclusion (:data:`CONCLUSION_PREDICATES`, keyed ``(statement key, conclusion key)``), each returning an
  :class:`Evaluation`: ``holds``, ``fails`` (a contradiction: the conclusion is false on an instance whose
  hypotheses hold), ``vacuous`` (the conclusion's own condition is not met there, so the instance does not exercise
  it) or ``undecidable`` (a tie the instance's precision cannot resolve, or a quantity the statement leaves
  undefined there - named, never counted as agreement).

The facts come from outside: the tests compute them with an oracle that shares no code with the proofs
(tests/proofs/adversary.py), the predicates compare them with what the statement predicts from its closed forms - the
functions below (:func:`kink_band`, :func:`bayes_threshold`, :func:`weak_form_rho_bound`, :func:`dinkelbach_weights`),
which are the corrected statements' formulas as code and are compared with the derived SymPy closed forms by the
``sign_pattern`` and ``criterion`` proofs.  ``tests/proofs/test_executable_statements.py`` evaluates every conclusion on
every instance the project owns and fails on a contradiction or on a conclusion no instance exercises.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import mpmath as mp

from lfverify.proofs._exact_numbers import exact_mpf

__all__ = [
    "STATUSES", "Evaluation", "Metric", "Loss", "FiniteCase", "ContinuousCase", "RademacherCase", "RateCase",
    "HYPOTHESIS_PREDICATES", "CONCLUSION_PREDICATES", "SCOPES", "in_scope", "evaluate_hypotheses",
    "evaluate_statement", "dinkelbach_weights", "kink_band", "bayes_threshold", "weak_form_rho_bound",
    "PrintedStatement", "PRINTED_STATEMENTS_AS_CODE", "evaluate_printed",
]

STATUSES = ("holds", "fails", "vacuous", "undecidable")
#: two values of which one is an mpmath number (a search result at ~40 digits) closer than this cannot be ordered
TIE = mp.mpf(10) ** -25


@dataclass(frozen=True)
class Evaluation:
    """A predicate's answer on one instance: ``status`` in :data:`STATUSES` and what decided it."""

    status: str
    detail: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}; got {self.status!r}")


def _holds(detail=""):
    return Evaluation("holds", detail)


def _fails(detail):
    return Evaluation("fails", detail)


def _vacuous(detail):
    return Evaluation("vacuous", detail)


def _undecidable(detail):
    return Evaluation("undecidable", detail)


def _verdict(ok, detail_if_not: str, detail_if_ok: str = "") -> Evaluation:
    return _holds(detail_if_ok) if ok else _fails(detail_if_not)


class Undecidable(Exception):
    """Raised inside a predicate when a comparison or a closed form cannot be evaluated on the instance."""


class _Undefined:
    """A closed form of a statement that is undefined on the instance (a zero denominator, e.g. the band when
    c = rho = 0, or c alpha/(a gamma) when gamma = 0): comparing it, computing with it or testing its truth raises
    :class:`Undecidable`, so only the predicates that read it are undecidable there (an instance that violates a
    hypothesis is read as the statement reads, and a conclusion that does not involve the undefined quantity still
    makes a definite claim)."""

    def __init__(self, why: str):
        self.why = why

    def _raise(self, *args):
        raise Undecidable(self.why)

    __bool__ = __float__ = __neg__ = __abs__ = _raise
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _raise
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _raise


def _defined(compute: Callable, why: str):
    """compute(), or :class:`_Undefined` (with ``why``) where it divides by zero."""
    try:
        return compute()
    except ZeroDivisionError:
        return _Undefined(why)


# ---------------------------------------------------------------------------------------------- arithmetic
def _common(*values):
    """The values in one arithmetic: mpmath if any is an mpf, float if any is a float, else exact Fractions."""
    for v in values:
        if isinstance(v, _Undefined):
            raise Undecidable(v.why)
    if any(isinstance(v, mp.mpf) for v in values):
        return [exact_mpf(v) for v in values]
    if any(isinstance(v, float) for v in values):
        return [float(v) for v in values]
    return [Fraction(v) for v in values]


def compare(x, y) -> int:
    """-1, 0 or 1 as x <, =, > y: exact for rationals; two values of which one is an mpf closer than :data:`TIE`
    raise :class:`Undecidable` (they cannot be ordered at the precision they were computed with)."""
    x, y = _common(x, y)
    if isinstance(x, Fraction) or x == y:  # rationals exactly; one number computed once (e.g. a band of width 0)
        return (x > y) - (x < y)
    if abs(x - y) < TIE * max(1, abs(x), abs(y)):
        raise Undecidable(f"{mp.nstr(x, 12)} and {mp.nstr(y, 12)} agree to the working precision")
    return 1 if x > y else -1


def _lt(x, y) -> bool:
    return compare(x, y) < 0


def _le(x, y) -> bool:
    return compare(x, y) <= 0


def _num(x) -> str:
    return str(x) if isinstance(x, (Fraction, int)) else mp.nstr(x, 10)


# ------------------------------------------------------------------------------------------ the statements' formulas
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


# ---------------------------------------------------------------------------------------------- instances
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


# ---------------------------------------------------------------------------------------------- hypotheses
def _definition1(case) -> bool:
    m = case.metric
    if not (m.a0p > 0 >= m.a0n and m.a1p >= 0 and m.a1n >= 0):
        return False
    if case.kind != "finite":
        return True  # the continuous cases use Table 1's metrics, which satisfy it
    pi = case.prior
    for tp, fp in itertools.product((Fraction(0), pi), (Fraction(0), 1 - pi)):
        den = m.a1p * tp + m.a1n * fp + m.b1(pi)
        num = m.a0p * tp + m.a0n * fp + m.b0(pi)
        if not (den > 0 and 0 <= num <= den):  # a linear-fractional U on the box: extremes at its vertices
            return False
    return True


def _b1_positive(case) -> bool:
    pi = case.prior if case.kind == "finite" else None
    return case.metric.b1(pi) > 0 if pi is not None else (case.metric.c1 > 0 or case.metric.d1 > 0)


HYPOTHESIS_PREDICATES: dict = {
    "definition1": _definition1,
    "b1_positive": _b1_positive,
    "condition1": lambda c: c.metric.a0p - c.metric.a0n > 0,
    "condition2": lambda c: c.metric.a1p - c.metric.a1n <= 0,
    "condition3": lambda c: c.metric.a0n != 0 or c.metric.a1n != 0,
    "phi_nonnegative": lambda c: c.loss.nonnegative,
    "phi_convex": lambda c: c.loss.convex,
    "phi_nonincreasing": lambda c: c.loss.nonincreasing,
    "phi_left_slope": lambda c: c.loss.left_slope < 0,
    "phi_dominates": lambda c: c.loss.dominates,
    "u_star_at_most_u_dagger": lambda c: compare(c.u_star, c.u_dagger) <= 0,
    "eta_interior": lambda c: all(0 < e < 1 for e in c.eta) if c.kind == "finite" else
    0 <= c.support[0] and c.support[1] <= 1,
    "u_star_positive": lambda c: compare(c.u_star, 0) > 0,
    "u_dagger_attained": lambda c: (compare((c.metric.a0p - c.metric.a0n) - (c.metric.a1p - c.metric.a1n)
                                            * c.u_dagger, 0) > 0),
    "phi_pieces": lambda c: c.loss.two_pieces,
    "lemma4_setting": lambda c: c.kind == "rate",
    "bounded_scores": lambda c: c.kind == "rate",
}


def evaluate_hypotheses(statement, case) -> dict:
    """{hypothesis key: True / False / None (undecidable)} for ``statement``'s hypotheses on ``case``."""
    out = {}
    for h in statement.hypotheses:
        try:
            out[h.key] = bool(HYPOTHESIS_PREDICATES[h.key](case))
        except Undecidable:
            out[h.key] = None
    return out


# ---------------------------------------------------------------------------------------------- reading a case
@dataclass(frozen=True)
class _Reading:
    """What the statements predict on a calibration case: the band, delta, the loss-level bounds, and the mass
    conditions (each True when the distribution puts no mass where the condition forbids it)."""

    rho: object
    a: object
    c: object
    alpha: object
    gamma: object
    delta: object
    eta_lo: object
    eta_hi: object
    bound: object  #: c alpha / (a gamma)
    no_gap: bool  #: no mass in (eta_hi, delta) or (delta, eta_lo)
    no_band_off_delta: bool  #: no mass in [eta_lo, eta_hi] off delta
    no_sign_gap: bool  #: no mass in (eta_hi, delta) or (delta, eta_hi]


def _read(case) -> _Reading:
    """The statement's quantities on ``case``; one whose closed form divides by zero there is :class:`_Undefined`
    (with the mass conditions that use it), so that a predicate reading it is undecidable and the others are not."""
    m, rho = case.metric, case.loss.rho
    if rho is None:
        raise Undecidable("rho = phi'(0+)/phi'(0-) is undefined (phi'(0-) = 0)")
    band = _defined(lambda: _band(m, rho, case.u_star), "the band's closed forms divide by zero here "
                                                         "(rho c + a = 0 or c + rho a = 0)")
    eta_lo, eta_hi = (band, band) if isinstance(band, _Undefined) else band
    delta = _defined(lambda: _threshold(m, case.u_dagger), "delta = gamma/(alpha + gamma) divides by zero here")
    bound = _defined(lambda: weak_form_rho_bound(m, case.u_star, case.u_dagger),
                     "c alpha/(a gamma) divides by zero here (a gamma = 0)")
    a, c = dinkelbach_weights(m, case.u_star)
    p0, n0, p1, n1, ud = _common(m.a0p, m.a0n, m.a1p, m.a1n, case.u_dagger)
    alpha, gamma = p0 - p1 * ud, n1 * ud - n0
    try:
        no_gap, no_band_off_delta, no_sign_gap = _mass_conditions(case, eta_lo, eta_hi, delta)
    except Undecidable as exc:
        no_gap = no_band_off_delta = no_sign_gap = _Undefined(str(exc))
    return _Reading(rho, a, c, alpha, gamma, delta, eta_lo, eta_hi, bound, no_gap, no_band_off_delta, no_sign_gap)


def _mass_conditions(case, eta_lo, eta_hi, delta) -> tuple:
    """(no mass in (eta_hi, delta) or (delta, eta_lo), none in [eta_lo, eta_hi] off delta, none in (eta_hi, delta)
    or (delta, eta_hi])."""
    if case.kind == "finite":
        def mass_open(lo, hi):
            return any(_lt(lo, e) and _lt(e, hi) for e in case.eta)

        def mass_left_open(lo, hi):  # (lo, hi]
            return any(_lt(lo, e) and _le(e, hi) for e in case.eta)

        band_off = any(_le(eta_lo, e) and _le(e, eta_hi) and compare(e, delta) != 0 for e in case.eta)
    else:
        tol = case.tolerance

        def mass_open(lo, hi):
            return bool(_lt(lo, hi)) and case.mass(lo, hi) > tol

        mass_left_open = mass_open  # no atoms: the end point carries no mass
        band_off = case.mass(eta_lo, eta_hi) > tol
    no_gap = not (mass_open(eta_hi, delta) or mass_open(delta, eta_lo))
    no_sign_gap = not (mass_open(eta_hi, delta) or mass_left_open(delta, eta_hi))
    return no_gap, not band_off, no_sign_gap


def _side(case, r, j) -> int:
    """+1 above the closed band, -1 below, 0 in it (atom j)."""
    e = case.eta[j]
    return 1 if _lt(r.eta_hi, e) else -1 if _lt(e, r.eta_lo) else 0


def _bayes_label(r, e) -> int:
    return 1 if _lt(r.delta, e) else -1


# ---------------------------------------------------------------------------------------------- conclusions
def _separable(case) -> Evaluation:
    """A maximiser's values at an atom are the minimisers of g = a eta phi(xi) + c (1 - eta) phi(-xi): 0 is one iff
    g'(0-) <= 0 <= g'(0+); a positive one exists only if g'(0+) <= 0 and must if g'(0+) < 0 (and likewise below)."""
    if case.kind != "finite":
        return _vacuous("the facts of a continuous case are computed from the pointwise problem itself")
    a, c = dinkelbach_weights(case.metric, case.u_star)
    dm, dp = case.loss.left_slope, case.loss.right_slope
    if not case.attained:
        return _fails("U_phi does not attain its supremum: no f maximises it, while every g_eta has minimisers")
    for j, e in enumerate(case.eta):
        a, c, e, dp, dm = _common(a, c, e, dp, dm)
        right = a * e * dp - c * (1 - e) * dm  # g'(0+)
        left = a * e * dm - c * (1 - e) * dp  # g'(0-)
        zero = _le(left, 0) and _le(0, right)
        if case.can_zero[j] != zero:
            return _fails(f"atom {j} (eta = {_num(e)}): 0 is {'' if case.can_zero[j] else 'not '}a maximiser value "
                          f"but g'(0-) = {_num(left)}, g'(0+) = {_num(right)}")
        if (case.can_pos[j] and compare(right, 0) > 0) or (compare(right, 0) < 0 and not case.can_pos[j]):
            return _fails(f"atom {j}: positive maximiser values {case.can_pos[j]} against g'(0+) = {_num(right)}")
        if (case.can_neg[j] and compare(left, 0) < 0) or (compare(left, 0) > 0 and not case.can_neg[j]):
            return _fails(f"atom {j}: negative maximiser values {case.can_neg[j]} against g'(0-) = {_num(left)}")
    return _holds(f"{len(case.eta)} atoms")


def _signs(case) -> Evaluation:
    """For P-almost every x: every maximiser > 0 above eta_hi, < 0 below eta_lo, = 0 strictly inside; 0 a minimiser
    at the end points; an interior exactly when rho < 1."""
    r = _read(case)
    if (compare(r.eta_lo, r.eta_hi) < 0) != (compare(r.rho, 1) < 0):
        return _fails(f"band [{_num(r.eta_lo)}, {_num(r.eta_hi)}] with rho = {_num(r.rho)}")
    if case.kind == "continuous":
        lo, hi = case.zero_interval
        tol = max(case.tolerance, 1e-9)
        ok = abs(float(lo) - float(r.eta_lo)) <= tol and abs(float(hi) - float(r.eta_hi)) <= tol
        return _verdict(ok, f"0 minimises the pointwise problem on [{lo:.10g}, {hi:.10g}], the band is "
                            f"[{_num(r.eta_lo)}, {_num(r.eta_hi)}]")
    for j in range(len(case.eta)):
        s = _side(case, r, j)
        got = (case.can_pos[j], case.can_neg[j], case.can_zero[j])
        if s > 0 and got != (True, False, False):
            return _fails(f"atom {j} above eta_hi: maximiser signs (pos, neg, zero) = {got}")
        if s < 0 and got != (False, True, False):
            return _fails(f"atom {j} below eta_lo: maximiser signs (pos, neg, zero) = {got}")
        strictly = _lt(r.eta_lo, case.eta[j]) and _lt(case.eta[j], r.eta_hi)
        if s == 0 and (not case.can_zero[j] or (strictly and got != (False, False, True))):
            return _fails(f"atom {j} in the band: maximiser signs (pos, neg, zero) = {got}")
    return _holds(f"{len(case.eta)} atoms against [{_num(r.eta_lo)}, {_num(r.eta_hi)}]")


def _truth(case) -> dict:
    """The facts the calibration conclusions are about, from the instance: calibrated, the sign rule for f*_0, and
    whether the Bayes labelling of the zero set attains U-dagger (the weak form's labelling)."""
    if case.kind == "finite":
        r = _read(case)
        bayes_on_zero = tuple(_bayes_label(r, e) if z else (1 if p else -1)
                              for e, p, z in zip(case.eta, case.can_pos, case.can_zero))
        return {"calibrated": case.calibrated, "sign_rule": case.canonical_labelling in case.optimal,
                "kink_set": bayes_on_zero in case.optimal}
    tol = case.tolerance

    def attains(u):
        return abs(float(u) - float(case.u_dagger)) <= tol

    return {"calibrated": attains(case.u_minus_on_zero) and attains(case.u_plus_on_zero),
            "sign_rule": attains(case.u_minus_on_zero), "kink_set": attains(case.u_bayes_on_zero)}


def _weak_form_truth(case, r) -> bool:
    """Every maximiser's non-zero values carry a Bayes label (almost everywhere) and every labelling equal to
    sgn f* off {f* = 0} and to the Bayes rule on it attains U-dagger."""
    if case.kind == "continuous":
        return _truth(case)["kink_set"]
    options = []
    for j, (e, p, n, z) in enumerate(zip(case.eta, case.can_pos, case.can_neg, case.can_zero)):
        allowed = case.bayes_labels[j]
        if (p and 1 not in allowed) or (n and -1 not in allowed):
            return False
        o = ({1} if p else set()) | ({-1} if n else set()) | ({_bayes_label(r, e)} if z else set())
        options.append(sorted(o))
    return all(lab in case.optimal for lab in itertools.product(*options))


def _calibration(case) -> Evaluation:
    r, t = _read(case), _truth(case)
    predicted = r.no_gap and r.no_band_off_delta
    return _verdict(t["calibrated"] == predicted, f"calibrated {t['calibrated']}, the mass condition {predicted}",
                    f"calibrated {t['calibrated']}")


def _sign_rule(case) -> Evaluation:
    r, t = _read(case), _truth(case)
    return _verdict(t["sign_rule"] == r.no_sign_gap, f"sgn f*_0 Bayes optimal {t['sign_rule']}, the mass condition "
                                                     f"{r.no_sign_gap}", f"sgn f*_0 Bayes optimal {t['sign_rule']}")


def _kink_set(case) -> Evaluation:
    """The limits of U are the labellings that follow sgn f* off the closed band and are arbitrary on it; U-dagger
    is among them iff no mass between the band and delta, and then the Bayes labelling of the band attains it."""
    r, t = _read(case), _truth(case)
    if case.kind == "finite":
        predicted = tuple({1 if _side(case, r, j) > 0 else -1} if _side(case, r, j) else {1, -1}
                          for j in range(len(case.eta)))
        if predicted != case.limit_labels:
            return _fails(f"limit labels {case.limit_labels}, predicted {predicted}")
        attained = any(lab in case.optimal for lab in itertools.product(*[sorted(s) for s in predicted]))
        if attained != r.no_gap:
            return _fails(f"U-dagger among the limits {attained}, the mass condition {r.no_gap}")
    if r.no_gap and not t["kink_set"]:
        return _fails("no mass between the band and delta, but the Bayes labelling of the band misses U-dagger")
    if not r.no_gap and t["kink_set"]:
        return _fails("mass between the band and delta, but the Bayes labelling of the band attains U-dagger")
    return _holds(f"U-dagger among the limits: {r.no_gap}")


def _loss_condition(case) -> Evaluation:
    """If U* <= U-dagger and rho <= c alpha / (a gamma), the Bayes labelling of the band attains U-dagger."""
    r = _read(case)
    if compare(case.u_star, case.u_dagger) > 0:
        return _vacuous("U* <= U-dagger does not hold")
    if not _le(r.rho, r.bound):
        return _vacuous(f"rho = {_num(r.rho)} > c alpha/(a gamma) = {_num(r.bound)}")
    if not (_le(r.eta_lo, r.delta) and _le(r.delta, r.eta_hi)):
        return _fails(f"delta = {_num(r.delta)} outside the band [{_num(r.eta_lo)}, {_num(r.eta_hi)}]")
    return _verdict(_truth(case)["kink_set"], "the Bayes labelling of the band misses U-dagger")


def _mass_on_both_sides_of_delta(case, r) -> bool:
    """Every neighbourhood of delta has positive probability on both sides of it (never for atoms)."""
    if case.kind == "finite":
        return False
    eps = 1e-6
    return case.mass(r.delta - eps, r.delta) > 0 and case.mass(r.delta, r.delta + eps) > 0


def _continuous(case) -> Evaluation:
    """With mass on both sides of delta in every neighbourhood: calibration only if eta_lo = eta_hi = delta."""
    r = _read(case)
    if not _mass_on_both_sides_of_delta(case, r):
        return _vacuous("no mass on both sides of delta in every neighbourhood (atoms only)")
    calibrated = _truth(case)["calibrated"]
    degenerate = abs(float(r.eta_lo) - float(r.delta)) < 1e-12 and abs(float(r.eta_hi) - float(r.delta)) < 1e-12
    return _verdict(not calibrated or degenerate, "calibrated although the band is not {delta}",
                    f"calibrated {calibrated}")


def _continuous_metric(family: str) -> Callable:
    """Thms. 1 (F_beta, never calibrated) and 2 (Jaccard: only rho = 1 and U* = U-dagger) on eta-continuous P."""
    def predicate(case) -> Evaluation:
        r = _read(case)
        if not _mass_on_both_sides_of_delta(case, r):
            return _vacuous("no mass on both sides of delta in every neighbourhood (atoms only)")
        calibrated = _truth(case)["calibrated"]
        if family == "F_beta":
            return _verdict(not calibrated, "an F_beta case is calibrated on an eta-continuous population")
        allowed = abs(float(r.rho) - 1) < 1e-12 and abs(float(case.u_star) - float(case.u_dagger)) < 1e-12
        return _verdict(not calibrated or allowed, "calibrated with rho < 1 or U* < U-dagger")
    return predicate


def _weak_form(bound_name: str) -> Callable:
    """If rho <= the statement's bound, the weak form holds (and the printed hypothesis implies the bound)."""
    def predicate(case) -> Evaluation:
        r = _read(case)
        if bound_name == "H(1) c/a":
            h1 = _defined(lambda: _h_of(case.metric, 1), "H(1) = (a0p - a1p)/(a1n - a0n) divides by zero here")
            h1, c, a = _common(h1, r.c, r.a)
            bound = h1 * c / a
            if not _le(bound, r.bound):  # H(1) <= H(U-dagger) since U-dagger <= 1
                return _fails(f"H(1) c/a = {_num(bound)} > c alpha/(a gamma) = {_num(r.bound)}")
        else:
            bound = r.bound
        if not _le(r.rho, bound):
            return _vacuous(f"rho = {_num(r.rho)} > {bound_name} = {_num(bound)}")
        return _verdict(_weak_form_truth(case, r), f"rho = {_num(r.rho)} <= {bound_name} = {_num(bound)}, but a "
                                                   "maximiser's sign or the Bayes labelling of its zero set fails")
    return predicate


def _calibration_under_bound(case) -> Evaluation:
    """Calibration iff the mass conditions; if rho <= the bound, iff the band carries no mass except at delta."""
    first = _calibration(case)
    if first.status != "holds":
        return first
    r, t = _read(case), _truth(case)
    if not _le(r.rho, r.bound):
        return _holds(first.detail + " (rho above the bound: the second clause is not exercised)")
    return _verdict(t["calibrated"] == r.no_band_off_delta, f"rho <= the bound: calibrated {t['calibrated']}, no "
                                                            f"band mass off delta {r.no_band_off_delta}")


def _printed_implies(case) -> Evaluation:
    """The printed hypothesis (rho <= tau, U* >= (1 + beta^2) tau / (beta^2 - tau) for some tau in (0, beta^2)) implies
    rho <= tau_printed <= tau_F; evaluated with tau = rho, the smallest tau the loss allows."""
    r = _read(case)
    rho, beta2, u = _common(r.rho, case.metric.beta2, case.u_star)
    if not (compare(rho, 0) > 0 and _lt(rho, beta2)) or _lt(u, (1 + beta2) * rho / (beta2 - rho)):
        return _vacuous("the printed hypothesis does not hold for any tau >= rho")
    tau_printed = u * beta2 / (u + beta2 + 1)
    return _verdict(_le(rho, tau_printed) and _le(tau_printed, r.bound),
                    f"rho = {_num(rho)}, tau_printed = {_num(tau_printed)}, tau_F = {_num(r.bound)}")


def _fbeta_weak_form(case) -> Evaluation:
    first = _weak_form("tau_F")(case)
    if first.status == "fails":
        return first
    second = _printed_implies(case)
    return second if second.status == "fails" else first


def _tau_range_fbeta(case) -> Evaluation:
    r, beta2 = _read(case), case.metric.beta2
    top = (1 + beta2 - case.u_dagger) / (1 + beta2 + case.u_dagger)
    ok = _le(r.bound, top) and _lt(top, 1) and not (compare(r.rho, 1) == 0 and _le(r.rho, r.bound))
    return _verdict(ok, f"tau_F = {_num(r.bound)}, (1 + beta^2 - U-dagger)/(1 + beta^2 + U-dagger) = {_num(top)}")


def _tau_range_jaccard(case) -> Evaluation:
    r = _read(case)
    ok = _le(r.bound, 1) and (compare(r.bound, 1) < 0 or compare(case.u_star, case.u_dagger) == 0)
    return _verdict(ok, f"U*/U-dagger = {_num(r.bound)}")


def _sign_rule_remark(case) -> Evaluation:
    """Sign rule for f*_0, and: maximisers' signs differ only on the band's end points."""
    first = _sign_rule(case)
    if first.status != "holds" or case.kind != "finite":
        return first
    r = _read(case)
    for j, e in enumerate(case.eta):
        several = case.can_pos[j] + case.can_neg[j] + case.can_zero[j] > 1
        if several and compare(e, r.eta_lo) != 0 and compare(e, r.eta_hi) != 0:
            return _fails(f"atom {j} (eta = {_num(e)}) off the band's end points has maximisers of several signs")
    return first


def _criterion_all(case) -> Evaluation:
    for predicate in (_calibration, _sign_rule, _kink_set):
        result = predicate(case)
        if result.status != "holds":
            return result
    return _holds("calibration, sign rule and kink set")


# ---------------------------------------------------------------------------------------------- App. C, Lemma 4
def _sympy_value(expr, values: dict):
    """``expr`` (SymPy) at ``values`` {symbol: number}, as an mpf at the current precision."""
    import sympy as sp

    subs = {k: v if isinstance(v, int) else sp.Float(mp.nstr(exact_mpf(v), mp.mp.dps + 5), mp.mp.dps + 5)
            for k, v in values.items()}
    value = sp.N(expr.subs(subs), mp.mp.dps + 5)
    return mp.mpf(str(value))


def _lemma_terms(case) -> dict:
    loss = case.loss
    return {"kappa": case.kappa, "gamma_plus": loss.gamma_plus, "gamma_minus": loss.gamma_minus,
            "rademacher_class": case.rademacher_class, "sign_sum": case.sign_sum,
            "slope_at_zero": loss.right_slope, "jump": loss.jump,
            "rademacher_indicators": case.rademacher_indicators}


def _rademacher_bound(case) -> Evaluation:
    """For every sample: R_S(W~'_k o F) <= the displayed right-hand side (which must be the function
    ``corrected_lemma_bound`` evaluates)."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(40):
        terms = _lemma_terms(case)
        shown = _sympy_value(R.lemma_bound_expression(), {R.LEMMA_SYMBOLS[k]: v for k, v in terms.items()})
        code = exact_mpf(R.corrected_lemma_bound(**{k: exact_mpf(v) for k, v in terms.items()}))
        if abs(shown - code) > mp.mpf(10) ** -30 * max(1, abs(code)):
            return _fails(f"the displayed bound gives {mp.nstr(shown, 12)}, corrected_lemma_bound {mp.nstr(code, 12)}")
        lhs = exact_mpf(case.lhs)
        return _verdict(lhs <= shown, f"R_S = {mp.nstr(lhs, 12)} > the bound {mp.nstr(shown, 12)}",
                        f"R_S = {mp.nstr(lhs, 8)} <= {mp.nstr(shown, 8)}")


def _rademacher_rates(case) -> Evaluation:
    """E|sum sigma_i|/n <= n^{-1/2}; R_S(I_F) <= sqrt(2 log(2 N)/n) for N patterns, and for the linear class on R^d
    N <= sum_{k <= d} C(n, k) + 1 and R_S(I_F) <= the displayed sqrt(2 (log 4 + d log(n + 1))/n)."""
    from lfverify.proofs import corrected_rademacher as R

    n = case.n
    with mp.workdps(40):
        if not exact_mpf(case.sign_sum) <= 1 / mp.sqrt(n):
            return _fails(f"E|sum sigma|/n = {_num(case.sign_sum)} > n^-1/2")
        r_i = exact_mpf(case.rademacher_indicators)
        if case.patterns and not r_i <= mp.sqrt(2 * mp.log(2 * case.patterns) / n):
            return _fails(f"R_S(I_F) = {mp.nstr(r_i, 12)} above Massart's bound with N = {case.patterns}")
        if not case.d:
            return _holds("a finite class: Massart's bound")
        if case.patterns > R.sauer_bound(n, case.d):
            return _fails(f"{case.patterns} patterns > Sauer's {R.sauer_bound(n, case.d)}")
        shown = _sympy_value(R.indicator_bound_expression(mp.mpf(n), case.d), {})
        # the display's "so <=" step: Massart's bound at Sauer's count must not exceed it, at every n and d
        massart_at_sauer = mp.sqrt(2 * mp.log(2 * R.sauer_bound(n, case.d)) / n)
        ok = r_i <= shown and massart_at_sauer <= shown * (1 + mp.mpf(10) ** -30)
        return _verdict(ok, f"R_S(I_F) = {mp.nstr(r_i, 12)}, Massart at Sauer's count {mp.nstr(massart_at_sauer, 12)}, "
                            f"the displayed bound {mp.nstr(shown, 12)}")


def _rademacher_printed(case) -> Evaluation:
    """The printed lemma is the special case kappa = 1, phi'(0+) = 0, J = 0, which no tau-discrepant loss with
    tau < 1 has: evaluated on the instance's loss."""
    loss = case.loss
    rho = loss.rho
    if rho is None or compare(loss.left_slope, 0) >= 0 or compare(rho, 1) >= 0:
        return _vacuous("the loss is not tau-discrepant with tau < 1 (phi'(0+) >= tau phi'(0-), tau < 1)")
    return _verdict(compare(loss.jump, 0) != 0, "a tau-discrepant loss with tau < 1 and J = 0")


def _rate_values(case) -> dict:
    from lfverify.proofs import corrected_rademacher as R

    return {R.RATE_SYMBOLS[k]: v for k, v in case.parameters.items() if k in R.RATE_SYMBOLS}


def _rate_function(case):
    from lfverify.proofs import lemma4_uniform_convergence as L4

    p = case.parameters
    return L4.corrected_expectation_bound(p["n"], p["d"], p["c_X"], p["c_Theta"], p["c0"], p["c1"], p["rho0"],
                                          p["rho1"], p["gamma"], slope_at_zero=p["slope_at_zero"], jump=p["jump"],
                                          kappa0=p["kappa0"], kappa1=p["kappa1"])


def _rate_expectation(case) -> Evaluation:
    """E_S sup ||V_hat - V|| <= B_E(n): the displayed B_E equals the function, and exceeds the instance's exact lower
    bound of the left side where it has one."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(30):
        values = _rate_values(case)
        values[R.RATE_SYMBOLS["patterns"]] = R.sauer_bound(case.parameters["n"] // 2, case.parameters["d"])
        shown = _sympy_value(R.rate_expressions()[0], values)
        code = exact_mpf(_rate_function(case))
        if abs(shown - code) > mp.mpf(10) ** -10 * abs(code):
            return _fails(f"the displayed B_E(n) = {mp.nstr(shown, 12)}, the function {mp.nstr(code, 12)}")
        lower = case.parameters.get("lower")
        if lower is None:
            return _holds(f"B_E = {mp.nstr(code, 8)} (display = function)")
        return _verdict(exact_mpf(lower) <= code, f"the exact lower bound {mp.nstr(lower, 12)} > B_E = "
                                                  f"{mp.nstr(code, 12)}", f"{mp.nstr(lower, 8)} <= {mp.nstr(code, 8)}")


def _rate_deviation(case) -> Evaluation:
    """The displayed deviation term is McDiarmid's (``mcdiarmid_deviation``) at the instance's n and delta."""
    from lfverify.proofs import lemma4_uniform_convergence as L4

    p = case.parameters
    delta = p.get("delta", 0.05)
    shown = math.sqrt(8 * p["c_X"] ** 2 * (p["rho1"] * p["c0"] + p["rho0"] * p["c1"]) ** 2 * math.log(2 / delta)
                      / p["n"])
    code = L4.mcdiarmid_deviation(p["n"], delta, p["c_X"], p["c0"], p["c1"], p["rho0"], p["rho1"])
    total = L4.corrected_uniform_convergence_bound(p["n"], p["d"], delta, p["c_X"], p["c_Theta"], p["c0"], p["c1"],
                                                   p["rho0"], p["rho1"], p["gamma"], slope_at_zero=p["slope_at_zero"],
                                                   jump=p["jump"], kappa0=p["kappa0"], kappa1=p["kappa1"])
    ok = abs(shown - code) <= 1e-12 * code and abs(total - _rate_function(case) - code) <= 1e-12 * total
    return _verdict(ok, f"displayed {shown!r}, mcdiarmid_deviation {code!r}, total {total!r}")


def _rate_order(case) -> Evaluation:
    """The displayed order form bounds B_E(n) (it is B_E with log(2 N_m) <= log 4 + d log(m + 1)), at every n, d
    including the smallest."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(30):
        shown = _sympy_value(R.rate_expressions()[1], _rate_values(case))
        code = exact_mpf(_rate_function(case))
        return _verdict(code <= shown * (1 + mp.mpf(10) ** -12), f"B_E(n) = {mp.nstr(code, 12)} > the displayed "
                                                                  f"order form {mp.nstr(shown, 12)}",
                        f"{mp.nstr(code, 8)} <= {mp.nstr(shown, 8)}")


CONCLUSION_PREDICATES: dict = {
    ("corrected_calibration.sign_pattern", "separable"): _separable,
    ("corrected_calibration.sign_pattern", "signs"): _signs,
    ("corrected_calibration.criterion", "calibration"): _calibration,
    ("corrected_calibration.criterion", "sign_rule"): _sign_rule,
    ("corrected_calibration.criterion", "kink_set"): _kink_set,
    ("corrected_calibration.criterion", "loss_condition"): _loss_condition,
    ("corrected_calibration.criterion", "continuous"): _continuous,
    ("corrected_calibration.fbeta", "weak_form"): _fbeta_weak_form,
    ("corrected_calibration.fbeta", "calibration"): _calibration_under_bound,
    ("corrected_calibration.fbeta", "sign_rule"): _sign_rule_remark,
    ("corrected_calibration.fbeta", "continuous"): _continuous_metric("F_beta"),
    ("corrected_calibration.fbeta", "tau_range"): _tau_range_fbeta,
    ("corrected_calibration.jaccard", "weak_form"): _weak_form("U*/U-dagger"),
    ("corrected_calibration.jaccard", "calibration"): _calibration_under_bound,
    ("corrected_calibration.jaccard", "continuous"): _continuous_metric("Jaccard"),
    ("corrected_calibration.jaccard", "tau_range"): _tau_range_jaccard,
    ("corrected_calibration.general", "condition_b"): _weak_form("H(1) c/a"),
    ("corrected_calibration.general", "criterion"): _criterion_all,
    ("corrected_calibration.general", "continuous"): _continuous,
    ("corrected_rademacher.lemma", "bound"): _rademacher_bound,
    ("corrected_rademacher.lemma", "rates"): _rademacher_rates,
    ("corrected_rademacher.lemma", "printed"): _rademacher_printed,
    ("corrected_rademacher.rate", "expectation"): _rate_expectation,
    ("corrected_rademacher.rate", "deviation"): _rate_deviation,
    ("corrected_rademacher.rate", "order"): _rate_order,
}

#: statement key -> (instance kinds it speaks of, the metric family it is about or "" for any)
SCOPES: dict = {
    "corrected_calibration.sign_pattern": (("finite", "continuous"), ""),
    "corrected_calibration.criterion": (("finite", "continuous"), ""),
    "corrected_calibration.fbeta": (("finite", "continuous"), "F_beta"),
    "corrected_calibration.jaccard": (("finite", "continuous"), "Jaccard"),
    "corrected_calibration.general": (("finite", "continuous"), ""),
    "corrected_rademacher.lemma": (("rademacher",), ""),
    "corrected_rademacher.rate": (("rate",), ""),
}


def in_scope(statement, case) -> bool:
    """Whether ``case`` is an instance ``statement`` speaks of (its kind, and its metric for Thms. 1 and 2)."""
    kinds, family = SCOPES[statement.key]
    if case.kind not in kinds:
        return False
    return not family or case.metric.family == family


def evaluate_statement(statement, case) -> dict:
    """{conclusion key: Evaluation} of every conclusion of ``statement`` on ``case`` (whose hypotheses the caller
    has found to hold).  A predicate that cannot decide says so (``undecidable``, with the reason)."""
    out = {}
    for c in statement.conclusions:
        predicate = CONCLUSION_PREDICATES.get((statement.key, c.key))
        if predicate is None:
            out[c.key] = _undecidable("no predicate for this conclusion")
            continue
        try:
            out[c.key] = predicate(case)
        except Undecidable as exc:
            out[c.key] = _undecidable(str(exc))
    return out



# ---------------------------------------------------------------------------------------------- the printed claims
@dataclass(frozen=True)
class PrintedStatement:
    """A claim of the paper as printed, executable: its printed hypotheses and its conclusion as predicates on the
    instances of ``kinds``.  Where every printed hypothesis holds and the conclusion fails, the instance witnesses
    the registry's verdict "fails as stated"; a claim the registry says holds must have no such instance."""

    label: str  #: the registry's LaTeX label
    kinds: tuple
    hypotheses: tuple  #: (name, predicate) - the printed hypotheses
    conclusion: Callable  #: case -> Evaluation
    note: str = ""  #: what of the printed conclusion the predicate evaluates


def _tau_discrepant_with(case, bound_of_tau) -> bool:
    """Some tau in (0, top) with rho <= tau and U* >= bound(tau): the printed bound increases in tau, so tau = rho
    (or any tau > 0 when rho = 0) is the one to try."""
    rho = case.loss.rho
    if rho is None:
        return False
    rho, u = _common(rho, case.u_star)
    tau = rho if compare(rho, 0) > 0 else (rho + 1) * mp.mpf(10) ** -30 if not isinstance(rho, Fraction) else \
        Fraction(1, 10**30)
    bound = bound_of_tau(tau)
    return bound is not None and compare(u, bound) >= 0


def _printed_loss(case) -> bool:
    """phi: R -> R_{>= 0}, convex, non-increasing (differentiable almost everywhere: convexity gives it)."""
    return case.loss.nonnegative and case.loss.convex and case.loss.nonincreasing


def _fbeta_printed_tau(case) -> bool:
    beta2 = case.metric.beta2

    def bound(tau):
        tau, b2 = _common(tau, beta2)
        return (1 + b2) * tau / (b2 - tau) if tau < b2 else None
    return _tau_discrepant_with(case, bound)


def _jaccard_printed_tau(case) -> bool:
    return _tau_discrepant_with(case, lambda tau: tau if tau < 1 else None)


def _canonical_utility(case):
    """U(sgn f*_0), the utility of a maximiser's sign with sgn(0) = -1 (Thm. 7's U(f*))."""
    m, lab = case.metric, case.canonical_labelling
    tp = sum(w * e for w, e, s in zip(case.weights, case.eta, lab) if s > 0)
    fp = sum(w * (1 - e) for w, e, s in zip(case.weights, case.eta, lab) if s > 0)
    return m.value(tp, fp, case.prior)


def _thm7_printed_conditions(case) -> bool:
    """Thm. 7's printed (1)-(6) and, for tau = rho, (a)-(c) with U(f*) = U(sgn f*_0)."""
    m = case.metric
    a0p, a0n, a1p, a1n = m.a0p, m.a0n, m.a1p, m.a1n
    uf = _canonical_utility(case)
    if not (a0p - a0n > 0 and a1p - a1n <= 0 and (a0n != 0 or a1n != 0) and a1n + a0n != 0
            and a0p * a1n + a0n * a1p > 0 and (a1n <= 0 or uf > -a0n / a1n)):
        return False
    rho = case.loss.rho
    if rho is None or not compare(rho, 1) < 0:
        return False
    rho, u, uf, a0p, a0n, a1p, a1n = _common(rho, case.u_star, uf, a0p, a0n, a1p, a1n)
    if a0p + a1p * u == 0 or -a0n + a1n * u == 0 or a1p * uf - a0p == 0:
        return False  # (a)-(c) divide by zero here: undefined, so not satisfied (the necessity witnesses' c = 0)
    b = (a0p - a1p) / (a1n + a0n) * (-a0n + a1n * u) / (a0p + a1p * u)
    c = (a0n - a1n * uf) / (a1p * uf - a0p) * (a0p + a1p * u) / (-a0n + a1n * u)
    tau = rho if compare(rho, 0) > 0 else mp.mpf(10) ** -30
    return compare(tau, b) <= 0 and compare(tau, c) <= 0


def _calibrated(case) -> Evaluation:
    return _verdict(case.calibrated, "U_phi is not U-calibrated here (a maximising sequence's limit misses U-dagger)",
                    "calibrated")


def _lemma1_printed(case) -> Evaluation:
    return _verdict(compare(case.u_star, case.u_dagger) <= 0, f"U_phi* = {_num(case.u_star)} > U-dagger = "
                                                              f"{_num(case.u_dagger)}")


def _prop5_printed(case) -> Evaluation:
    """The Bayes-optimal labellings are exactly those predicting +1 on the atoms with eta > delta and -1 on those
    with eta < delta (free on eta = delta)."""
    delta = _threshold(case.metric, case.u_dagger)
    predicted = {lab for lab in itertools.product((-1, 1), repeat=len(case.eta))
                 if all((compare(e, delta) <= 0 or s > 0) and (compare(e, delta) >= 0 or s < 0)
                        for e, s in zip(case.eta, lab))}
    return _verdict(predicted == set(case.optimal), f"optimal {sorted(case.optimal)}, predicted {sorted(predicted)}")


def _appc_printed(case) -> Evaluation:
    """R_S(W~'_k o F) <= 2 (gamma_+ + gamma_-) R_S(F) with the paper's multipliers (kappa = 1)."""
    if compare(case.kappa, 1) != 0:
        return _vacuous("the printed lemma's multipliers have kappa = 1")
    with mp.workdps(40):
        rhs = 2 * (exact_mpf(case.loss.gamma_plus) + exact_mpf(case.loss.gamma_minus)) * exact_mpf(
            case.rademacher_class)
        return _verdict(exact_mpf(case.lhs) <= rhs, f"R_S = {mp.nstr(exact_mpf(case.lhs), 10)} > {mp.nstr(rhs, 10)}")


PRINTED_STATEMENTS_AS_CODE: dict = {
    "thm:f-measure-calibration": PrintedStatement(
        "thm:f-measure-calibration", ("finite",),
        (("F_beta", lambda c: c.metric.family == "F_beta"), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("tau-discrepant, U* >= (1 + beta^2) tau/(beta^2 - tau)", _fbeta_printed_tau),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated),
    "thm:jaccard-calibration": PrintedStatement(
        "thm:jaccard-calibration", ("finite",),
        (("Jaccard", lambda c: c.metric.family == "Jaccard"), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("tau-discrepant, U* >= tau, tau < 1", _jaccard_printed_tau),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated),
    "thm:general-calibration": PrintedStatement(
        "thm:general-calibration", ("finite",),
        (("Definition 1", _definition1), ("phi >= 0, convex, non-increasing", _printed_loss),
         ("(1)-(6), tau-discrepant with (b), (c)", _thm7_printed_conditions)), _calibrated,
        "U(f*) read as U(sgn f*_0)"),
    "lem:utility-lower-bound": PrintedStatement(
        "lem:utility-lower-bound", ("finite",),
        (("Definition 1", _definition1), ("phi >= 1{t <= 0}", lambda c: c.loss.dominates)), _lemma1_printed,
        "through its consequence sup U_phi <= sup U"),
    "prop:bayes-optimal-set": PrintedStatement(
        "prop:bayes-optimal-set", ("finite",),
        (("Definition 1", _definition1), ("Da0 - Da1 U-dagger > 0", HYPOTHESIS_PREDICATES["u_dagger_attained"])),
        _prop5_printed),
    "prop:accuracy-calibration": PrintedStatement(
        "prop:accuracy-calibration", ("finite",),
        (("accuracy", lambda c: c.metric.family == "accuracy"), ("phi convex", lambda c: c.loss.convex),
         ("phi differentiable at 0 with phi'(0) < 0",
          lambda c: compare(c.loss.left_slope, 0) < 0 and c.loss.rho is not None and compare(c.loss.rho, 1) == 0),
         ("0 < eta < 1", lambda c: all(0 < e < 1 for e in c.eta))), _calibrated,
        "the 'if' direction, on each population (the 'only if' quantifies over populations)"),
    "lem:non-smooth-rademacher": PrintedStatement(
        "lem:non-smooth-rademacher", ("rademacher",),
        (("phi convex, in two smooth pieces", lambda c: c.loss.convex and c.loss.two_pieces),), _appc_printed),
}


def evaluate_printed(printed: PrintedStatement, case):
    """(hypotheses hold, Evaluation of the conclusion) of a printed claim on ``case`` (None, None out of scope)."""
    if case.kind not in printed.kinds:
        return None, None
    try:
        holds = all(bool(p(case)) for _, p in printed.hypotheses)
    except Undecidable as exc:
        return None, _undecidable(str(exc))
    if not holds:
        return False, None
    try:
        return True, printed.conclusion(case)
    except Undecidable as exc:
        return True, _undecidable(str(exc))
