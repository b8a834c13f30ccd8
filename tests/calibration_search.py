"""Shared test helpers for test_calibration_properties.py and test_necessity.py (not a test module).

Everything here is written from the paper's definitions and shares no code with lfverify, so it can serve as
an oracle for the library:

* finite-support populations with *rational* weights and posteriors (:class:`ExactPopulation`), the true
  utility U of a classifier (a set of atoms predicted +1; sgn(0) = -1) in exact rational arithmetic, and the
  Bayes-optimal utility U-dagger by brute force over all 2^J classifiers;
* the surrogate utility U_phi of Eq. (3)/(4) for one real score per atom (one-hot atoms: every function of
  X is such a score vector) in mpmath;
* :func:`maximise_surrogate`, a certified maximiser of U_phi over *all* functions for the tau-logistic loss
  of Fig. 2 (Dinkelbach's method, below);
* the hypotheses of Thms. 1 and 2 transcribed from the statements.

The maximiser.  U_phi = N / D with D > 0.  Dinkelbach: u* = sup_f N(f) / D(f) is the root of
F(u) = sup_f N(f) - u D(f), and the iteration u <- N(f_u) / D(f_u), f_u = argmax_f N - u D, is Newton's method
on F (it increases monotonically and converges superlinearly).  With one score x_j per atom,

    N(f) - u D(f) = const(u) - sum_j w_j [A_j(u) phi(x_j) + B_j(u) phi(-x_j)],
    A_j(u) = (a_{0,+1} + u a_{1,+1}) eta_j,   B_j(u) = (u a_{1,-1} - a_{0,-1}) (1 - eta_j),

which is separable, and for u >= 0 under Definition 1's sign constraints A_j, B_j >= 0, so each atom's problem
min_x g_j(x) = A phi(x) + B phi(-x) is a 1-D *convex* problem.  For the tau-logistic loss
(phi'(0-) = -1/(2 ln b), phi'(0+) = -tau/(2 ln b)):

    ln(b) g'(0+) = (B - tau A) / 2,   ln(b) g'(0-) = (tau B - A) / 2,

so the minimiser is exactly 0 (the kink) iff tau A <= B and tau B <= A; it is > 0 iff B < tau A and < 0 iff
A < tau B, and then it is the unique root of the strictly increasing g' on that side: bracketed and bisected
in double precision, then polished by safeguarded Newton steps in mpmath.  The sign of the maximiser is
therefore decided by the sign of tau A - B and tau B - A at u = u*, which are evaluated at ``dps`` digits and
must be farther from 0 than the working precision (else :class:`Undecided` is raised, never a guess).

Certificate: at the returned u*, gap = max_f N(f) - u* D(f) = N(f*) - u* D(f*) is computed; for every f,
U_phi(f) <= u* + gap / D_min with D_min = b_1 + a_{1,+1} pi <= D(f) (phi >= 0), so u* is sup U_phi up to
``gap / D_min`` (reported as ``upper_bound``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath as mp
import numpy as np

__all__ = [
    "Coefficients",
    "fbeta_coefficients",
    "JACCARD",
    "ExactPopulation",
    "exact_utility",
    "exact_bayes",
    "bayes_threshold",
    "tau_logistic_mp",
    "surrogate_utility_mp",
    "Undecided",
    "SurrogateOptimum",
    "maximise_surrogate",
    "CalibrationAnalysis",
    "analyse",
    "thm1_hypotheses",
    "thm2_hypotheses",
    "mpf",
    "random_population",
]


def mpf(x) -> mp.mpf:
    """An exact rational (Fraction or int) as an mpf at the current precision."""
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


# ---------------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Coefficients:
    """U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1) with b_k = c_k + d_k pi (Definition 1)."""

    a0p: Fraction
    a0n: Fraction
    a1p: Fraction
    a1n: Fraction
    c0: Fraction = Fraction(0)
    d0: Fraction = Fraction(0)
    c1: Fraction = Fraction(0)
    d1: Fraction = Fraction(0)

    def __post_init__(self):
        for name in ("a0p", "a0n", "a1p", "a1n", "c0", "d0", "c1", "d1"):
            object.__setattr__(self, name, Fraction(getattr(self, name)))

    def b0(self, prior):
        return self.c0 + self.d0 * prior

    def b1(self, prior):
        return self.c1 + self.d1 * prior

    def as_floats(self) -> dict:
        """Keyword arguments of lfverify.core._metrics.LinearFractionalMetric."""
        return dict(a0p=float(self.a0p), a0n=float(self.a0n), a1p=float(self.a1p), a1n=float(self.a1n),
                    b0_const=float(self.c0), b0_prior=float(self.d0), b1_const=float(self.c1),
                    b1_prior=float(self.d1))


def fbeta_coefficients(beta2) -> Coefficients:
    """F_beta = (1 + beta^2) TP / (TP + FP + beta^2 pi) (Table 1, with FN = pi - TP)."""
    beta2 = Fraction(beta2)
    return Coefficients(1 + beta2, 0, 1, 1, 0, 0, 0, beta2)


JACCARD = Coefficients(1, 0, 0, 1, 0, 0, 0, 1)  # TP / (FP + pi)


# ---------------------------------------------------------------------------------------------- populations
@dataclass(frozen=True)
class ExactPopulation:
    """Atoms j = 0..J-1 with rational P(X = x_j) = weights[j] and eta_j = P(Y = +1 | X = x_j)."""

    weights: tuple
    eta: tuple

    def __post_init__(self):
        w = tuple(Fraction(v) for v in self.weights)
        e = tuple(Fraction(v) for v in self.eta)
        if len(w) != len(e) or sum(w) != 1 or any(v <= 0 for v in w) or any(not 0 <= v <= 1 for v in e):
            raise ValueError(f"not a finite-support population: weights {w}, eta {e}")
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "eta", e)

    @property
    def size(self) -> int:
        return len(self.weights)

    @property
    def prior(self) -> Fraction:
        return sum(w * e for w, e in zip(self.weights, self.eta))

    def library(self):
        """The same population in lfverify (one-hot atoms, so theta = the vector of per-atom scores)."""
        from lfverify.core import FiniteSupportPopulation

        J = self.size
        return FiniteSupportPopulation(np.eye(J), np.array([float(w) for w in self.weights]),
                                       np.array([float(e) for e in self.eta]))

    def __str__(self):
        return f"weights {tuple(map(str, self.weights))}, eta {tuple(map(str, self.eta))}"


def exact_utility(coef: Coefficients, pop: ExactPopulation, positive) -> Fraction:
    """U of the classifier predicting +1 exactly on the atoms with ``positive[j]`` (exact rationals).

    0/0 (nothing predicted and a vanishing denominator) is 0, as in the brute-force oracle of lfverify."""
    tp = sum(w * e for w, e, p in zip(pop.weights, pop.eta, positive) if p)
    fp = sum(w * (1 - e) for w, e, p in zip(pop.weights, pop.eta, positive) if p)
    num = coef.a0p * tp + coef.a0n * fp + coef.b0(pop.prior)
    den = coef.a1p * tp + coef.a1n * fp + coef.b1(pop.prior)
    if den == 0:
        if num == 0:
            return Fraction(0)
        raise ZeroDivisionError("U has a zero denominator and a non-zero numerator")
    return num / den


def exact_bayes(coef: Coefficients, pop: ExactPopulation):
    """(U-dagger, the set of optimal masks): brute force over all 2^J classifiers, exact rationals."""
    values = {}
    for mask in itertools.product((False, True), repeat=pop.size):
        values[mask] = exact_utility(coef, pop, mask)
    best = max(values.values())
    return best, frozenset(m for m, v in values.items() if v == best)


def bayes_threshold(coef: Coefficients, utility: Fraction) -> Fraction:
    """Prop. 5's delta(U) = (a1n U - a0n) / (Da0 - Da1 U) (requires Da0 - Da1 U > 0)."""
    slope = (coef.a0p - coef.a0n) - (coef.a1p - coef.a1n) * utility
    if slope <= 0:
        raise ValueError("Prop. 5's threshold form needs Da0 - Da1 U > 0")
    return (coef.a1n * utility - coef.a0n) / slope


# ---------------------------------------------------------------------------------------------- surrogates
def tau_logistic_mp(tau, base=2):
    """phi(m) = log_b(1 + e^{-m}) (m <= 0), log_b(1 + e^{-tau m}) (m > 0) (Fig. 2), as an mpmath callable."""
    tau = Fraction(tau)

    def phi(m):
        s = mpf(tau) if m > 0 else 1
        return mp.log1p(mp.exp(-s * m)) / mp.log(base)

    return phi


def surrogate_utility_mp(coef: Coefficients, pop: ExactPopulation, scores, phi):
    """(U_phi, N, D) of Eq. (3)/(4) for per-atom scores, in mpmath at the current precision."""
    prior = mpf(pop.prior)
    num = mpf(coef.c0) + mpf(coef.d0) * prior
    den = mpf(coef.c1) + mpf(coef.d1) * prior
    for w, e, x in zip(pop.weights, pop.eta, scores):
        w, e = mpf(w), mpf(e)
        x = mpf(x) if isinstance(x, (int, Fraction)) else mp.mpf(x)
        p, q = phi(x), phi(-x)
        num += w * (mpf(coef.a0p) * (1 - p) * e + mpf(coef.a0n) * q * (1 - e))
        den += w * (mpf(coef.a1p) * (1 + p) * e + mpf(coef.a1n) * q * (1 - e))
    return num / den, num, den


# ---------------------------------------------------------------------------------------------- maximiser
class Undecided(ArithmeticError):
    """The sign of the maximiser at some atom is not decided at the working precision."""


@dataclass(frozen=True)
class SurrogateOptimum:
    """The maximiser of U_phi over all functions (see the module docstring)."""

    value: mp.mpf  #: u* = sup_f U_phi(f)
    upper_bound: mp.mpf  #: certified sup U_phi <= upper_bound (u* + gap / D_min)
    scores: tuple  #: f*(x_j), mpf
    signs: tuple  #: +1 / 0 / -1: the side of the maximiser, decided by the one-sided derivatives at 0
    relative_margin: mp.mpf  #: smallest decisive margin |tau A - B|, |tau B - A| over (A + B)
    gap: mp.mpf  #: max_f N(f) - u* D(f)
    iterations: int
    dps: int

    @property
    def kink(self) -> tuple:
        """Atoms where the maximiser sits exactly at the kink f*(x) = 0."""
        return tuple(s == 0 for s in self.signs)

    @property
    def sign_mask(self) -> tuple:
        """sgn(f*) with sgn(0) = -1: the atoms predicted +1."""
        return tuple(s > 0 for s in self.signs)

    @property
    def plus_mask(self) -> tuple:
        """The limit f* + 0 (a score of 0 read as +1)."""
        return tuple(s >= 0 for s in self.signs)

    def float_scores(self) -> np.ndarray:
        return np.array([float(x) for x in self.scores])


def _sigma(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _root_float(A: float, B: float, tau: float, side: int) -> float:
    """Double-precision root of g' on the given side of 0 (bracket by doubling, then bisection)."""
    if side > 0:  # x > 0: -A tau sigma(-tau x) + B sigma(x), increasing from (B - tau A)/2 < 0 to B > 0
        def h(x):
            return -A * tau * _sigma(-tau * x) + B * _sigma(x)

        lo, hi = 0.0, 1.0
        while h(hi) < 0:
            lo, hi = hi, 2 * hi
    else:  # x < 0: -A sigma(-x) + B tau sigma(tau x), increasing from -A < 0 to (tau B - A)/2 > 0
        def h(x):
            return -A * _sigma(-x) + B * tau * _sigma(tau * x)

        lo, hi = -1.0, 0.0
        while h(lo) > 0:
            lo, hi = 2 * lo, lo
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if h(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _root_mp(A, B, tau, side: int, start: float):
    """Polish the root of g' to the working precision: safeguarded Newton (bisection fallback) in mpmath."""
    sig = mp.sigmoid if hasattr(mp, "sigmoid") else (lambda z: 1 / (1 + mp.exp(-z)))
    if side > 0:
        def h(x):
            return -A * tau * sig(-tau * x) + B * sig(x)

        def dh(x):
            return A * tau * tau * sig(tau * x) * sig(-tau * x) + B * sig(x) * sig(-x)

        lo, hi = mp.mpf(0), mp.mpf(max(2 * abs(start), 1.0))
        while h(hi) < 0:
            hi *= 2
    else:
        def h(x):
            return -A * sig(-x) + B * tau * sig(tau * x)

        def dh(x):
            return A * sig(x) * sig(-x) + B * tau * tau * sig(tau * x) * sig(-tau * x)

        lo, hi = mp.mpf(-max(2 * abs(start), 1.0)), mp.mpf(0)
        while h(lo) > 0:
            lo *= 2
    x = mp.mpf(start)
    if not lo < x < hi:
        x = (lo + hi) / 2
    tol = mp.mpf(10) ** (-(mp.mp.dps - 3))
    for _ in range(400):
        hx = h(x)
        if hx < 0:
            lo = x
        elif hx > 0:
            hi = x
        else:
            return x
        step = hx / dh(x)
        new = x - step
        if not lo < new < hi:  # Newton left the bracket: bisect instead
            new = (lo + hi) / 2
        if abs(new - x) <= tol * max(1, abs(x)):
            return new
        x = new
    raise RuntimeError("root polishing did not converge")


def maximise_surrogate(coef: Coefficients, pop: ExactPopulation, tau, *, base=2, dps: int = 40,
                       max_iterations: int = 200) -> SurrogateOptimum:
    """sup_f U_phi(f) and its maximiser for the tau-logistic loss (base ``base``); see the module docstring.

    Raises ValueError when a per-atom problem is not convex or has no minimiser (A or B = 0), and
    :class:`Undecided` when the side of the maximiser at some atom is not decided at ``dps`` digits.
    """
    tau_q = Fraction(tau)
    if not 0 < tau_q <= 1:
        raise ValueError("the tau-logistic loss is convex only for 0 < tau <= 1")
    phi = tau_logistic_mp(tau_q, base)
    with mp.workdps(dps):
        t = mpf(tau_q)
        a0p, a0n, a1p, a1n = (mpf(getattr(coef, k)) for k in ("a0p", "a0n", "a1p", "a1n"))
        eta = [mpf(e) for e in pop.eta]

        def argmax(u):
            scores, signs, margins = [], [], []
            for e in eta:
                A, B = (a0p + u * a1p) * e, (u * a1n - a0n) * (1 - e)
                if not (A > 0 and B > 0):
                    raise ValueError(f"per-atom problem without a finite minimiser or not convex: A = {A}, B = {B}")
                pos, neg = t * A - B, t * B - A  # > 0: minimiser right / left of the kink
                margins.append(min(abs(pos), abs(neg)) / (A + B))
                if pos > 0:
                    side = 1
                elif neg > 0:
                    side = -1
                else:
                    scores.append(mp.mpf(0))
                    signs.append(0)
                    continue
                start = _root_float(float(A), float(B), float(t), side)
                scores.append(_root_mp(A, B, t, side, start))
                signs.append(side)
            return scores, signs, min(margins)

        u = surrogate_utility_mp(coef, pop, [mp.mpf(1)] * pop.size, phi)[0]
        if not u > 0:
            raise ValueError("Dinkelbach's start U_phi(f = 1) is not positive")
        tol = mp.mpf(10) ** (-(dps - 8))
        for iteration in range(1, max_iterations + 1):  # noqa: B007 - read after the loop (iterations=iteration)
            scores, _, _ = argmax(u)
            new = surrogate_utility_mp(coef, pop, scores, phi)[0]
            if new < u - tol:
                raise RuntimeError("Dinkelbach's iteration decreased: a per-atom problem was not solved")
            done = abs(new - u) <= tol
            u = max(u, new)
            if done:
                break
        else:
            raise RuntimeError("Dinkelbach's iteration did not converge")
        scores, signs, margin = argmax(u)
        value, num, den = surrogate_utility_mp(coef, pop, scores, phi)
        gap = num - u * den
        if margin < mp.mpf(10) ** (-(dps - 15)):
            raise Undecided(f"the side of the maximiser is undecided at {dps} digits (margin {margin})")
        d_min = mpf(coef.b1(pop.prior)) + a1p * mpf(pop.prior)
        return SurrogateOptimum(value=+value, upper_bound=+(u + max(gap, 0) / d_min), scores=tuple(scores),
                                signs=tuple(signs), relative_margin=+margin, gap=+gap, iterations=iteration,
                                dps=dps)


# ---------------------------------------------------------------------------------------------- calibration
@dataclass(frozen=True)
class CalibrationAnalysis:
    """What the exact maximiser says about calibration on one population (all utilities exact rationals)."""

    u_dagger: Fraction  #: U-dagger, brute force over all 2^J classifiers
    optimal_masks: frozenset
    sign_utility: Fraction  #: U(sgn f*), sgn(0) = -1
    plus_utility: Fraction  #: U of f* + 0 (zeros read as +1)
    completion_utilities: dict  #: kink atoms set to +1 -> U (every limit of a maximising sequence)
    threshold: Fraction | None  #: delta(U-dagger) (Prop. 5), None if the threshold form does not apply
    nonkink_disagreements: tuple  #: atoms with f* != 0 whose sign contradicts eta vs delta(U-dagger)

    @property
    def calibrated(self) -> bool:
        """Every maximising sequence has U -> U-dagger: every completion of the kink atoms is optimal."""
        return all(v == self.u_dagger for v in self.completion_utilities.values())

    @property
    def best_completion_is_optimal(self) -> bool:
        """Some completion of the kink atoms attains U-dagger (the weak form)."""
        return max(self.completion_utilities.values()) == self.u_dagger


def analyse(coef: Coefficients, pop: ExactPopulation, opt: SurrogateOptimum) -> CalibrationAnalysis:
    u_dagger, optimal = exact_bayes(coef, pop)
    kink_atoms = [j for j, k in enumerate(opt.kink) if k]
    completions = {}
    for chosen in itertools.product((False, True), repeat=len(kink_atoms)):
        mask = list(opt.sign_mask)
        for j, c in zip(kink_atoms, chosen):
            mask[j] = c
        completions[tuple(j for j, c in zip(kink_atoms, chosen) if c)] = exact_utility(coef, pop, mask)
    try:
        delta = bayes_threshold(coef, u_dagger)
    except ValueError:
        delta = None
    disagreements = ()
    if delta is not None:
        disagreements = tuple(
            j for j, (s, e) in enumerate(zip(opt.signs, pop.eta))
            if s != 0 and e != delta and (s > 0) != (e > delta)
        )
    return CalibrationAnalysis(
        u_dagger=u_dagger,
        optimal_masks=optimal,
        sign_utility=exact_utility(coef, pop, opt.sign_mask),
        plus_utility=exact_utility(coef, pop, opt.plus_mask),
        completion_utilities=completions,
        threshold=delta,
        nonkink_disagreements=disagreements,
    )


def thm1_hypotheses(beta2, tau, u_star) -> tuple[bool, mp.mpf]:
    """Thm. 1 for the tau-logistic loss of parameter ``tau`` (convex and non-increasing for tau <= 1,
    differentiable except at 0, phi'(0+) = tau phi'(0-): tau-discrepant for every tau' >= tau, so tau itself is
    the most favourable choice): tau in (0, beta^2) and U*_phi >= (1 + beta^2) tau / (beta^2 - tau).

    Returns (holds, U*_phi - bound) (the second is -inf when tau is outside (0, beta^2))."""
    beta2, tau = Fraction(beta2), Fraction(tau)
    if not (0 < tau <= 1 and 0 < tau < beta2):
        return False, mp.mpf("-inf")
    slack = u_star - mpf((1 + beta2) * tau / (beta2 - tau))
    return bool(slack >= 0), slack


def thm2_hypotheses(tau, u_star) -> tuple[bool, mp.mpf]:
    """Thm. 2 for the tau-logistic loss of parameter ``tau``: tau in (0, 1) and U*_phi >= tau.

    Returns (holds, U*_phi - tau) (-inf when tau is outside (0, 1))."""
    tau = Fraction(tau)
    if not 0 < tau < 1:
        return False, mp.mpf("-inf")
    slack = u_star - mpf(tau)
    return bool(slack >= 0), slack


# ---------------------------------------------------------------------------------------------- searches
def random_population(rng, *, min_atoms: int = 2, max_atoms: int = 5, extreme: float = 0.6) -> ExactPopulation:
    """A random population with rational weights (integers 1..20, normalised) and posteriors k/1000 in (0, 1);
    with probability ``extreme`` a posterior is drawn near 0 or 1 (strong signal makes U*_phi large, so the
    theorems' hypotheses hold more often).  ``rng`` is a ``random.Random``."""
    J = rng.randint(min_atoms, max_atoms)
    w = [rng.randint(1, 20) for _ in range(J)]
    eta = []
    for _ in range(J):
        r = rng.random()
        if r < extreme / 2:
            eta.append(Fraction(rng.randint(1, 60), 1000))
        elif r < extreme:
            eta.append(Fraction(rng.randint(940, 999), 1000))
        else:
            eta.append(Fraction(rng.randint(1, 999), 1000))
    return ExactPopulation(tuple(Fraction(v, sum(w)) for v in w), tuple(eta))

