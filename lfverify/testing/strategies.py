"""Hypothesis strategies for property tests of the paper's objects (metrics, losses, data sets, populations).

Public and installed (``pip install ".[testing]" in a clone`` brings Hypothesis): lfverify's own property tests import
them from here, and so can the tests of anyone's implementation.

Nothing here consults the code under test to decide what to generate: admissible metrics are built to satisfy
Definition 1 by construction (derivation below), and lfverify's ``tests/core/test_properties.py`` checks separately that
:meth:`~lfverify.core.LinearFractionalMetric.admissibility` agrees.

Exported strategies
-------------------
::

    ``admissible_metrics()``          Table 1 metrics (F_beta, Jaccard, accuracy) and general Definition 1 metrics
    ``general_admissible_metrics()``  every Definition 1 metric with coefficients on a dyadic grid
    ``table1_metrics()``              F_beta (beta in [0.1, 10], exactly representable coefficients), Jaccard,
                                      accuracy, Gower-Legendre(1)
    ``f_beta_metrics()``              F_beta with an arbitrary float beta in [0.1, 10] (coefficients rounded)
    ``perturbed_metrics()``           admissible metrics with one free quantity shifted across a boundary
    ``convex_dominating_losses()``    convex, non-increasing, phi >= 1{t <= 0}: tau-logistic (tau in (0, 1)),
                                      logistic, hinge, squared hinge, exponential
    ``dominating_losses()``           the above plus the non-convex sigmoid with scale >= 2 (Lemma 1 needs only
                                      domination)
    ``convex_losses()``               the convex dominating losses plus convex non-dominating ones (logistic in a
                                      base > 2); Lemma 2 needs only convexity
    ``tau_discrepant_losses()``       tau_logistic(tau), tau in (0, 1), paired with its tau
    ``rational_phi_losses()``         hinge and squared hinge: rational at rational margins (exact oracles)
    ``datasets()``                    (X, y): n in [2, 300], d in [1, 8], bounded finite floats, both classes
    ``parameters(d)``, ``parameter_batches(d)``   theta of shape (d,) / Theta of shape (K, d)
    ``finite_populations()``          :class:`FinitePopulationCase`: dyadic atoms, exact rational weights summing
                                      to 1 and eta per atom in [0, 1], both classes with positive mass
    ``dyadic_datasets()``, ``dyadic_parameters(d)``, ``dyadic_scores(J)``   exact binary fractions (for the
                                      exact-arithmetic oracles); ``float_scores(J)``: any float per atom
    ``taus()``                        tau in the open interval (0, 1)
    ``corner_values(metric)``, ``definition1_by_corners(metric)``   the hand derivation below, as functions

Definition 1 by construction
----------------------------
U = N / D with N = a0p TP + a0n FP + c0 + d0 pi and D = a1p TP + a1n FP + c1 + d1 pi on the feasible region
R = {(TP, FP, pi): 0 <= TP <= pi, 0 <= FP <= 1 - pi, 0 < pi < 1}.  For fixed pi, N and D are affine in
(TP, FP), so their extremes over the rectangle are at its four vertices (0, 0), (pi, 0), (0, 1 - pi),
(pi, 1 - pi); at each vertex they are affine in pi, so "N >= 0, D - N >= 0 on 0 < pi < 1" holds iff it holds
at pi = 0 and pi = 1.  At pi = 0 the vertices collapse to FP in {0, 1}, at pi = 1 to TP in {0, 1}, leaving
four corner values

    N00 = c0,  N01 = c0 + a0n,  N10 = c0 + d0,  N11 = c0 + d0 + a0p      (N_ab: pi = a; TP or FP = b)
    D00 = c1,  D01 = c1 + a1n,  D10 = c1 + d1,  D11 = c1 + d1 + a1p

and Definition 1 (with the sign constraints a0p > 0, a0n <= 0, a1p >= 0, a1n >= 0, and D > 0, which ERRATA
E3 shows Lemma 1 needs) is equivalent to

    (i)   N00, N01, N10, N11 >= 0                        (U >= 0)
    (ii)  D_ab - N_ab >= 0 at the four corners          (U <= 1, given D > 0)
    (iii) D > 0 on R: each vertex's D is >= 0 at pi = 0 and pi = 1 (implied by (i), (ii)) and not 0 at both,
          i.e. none of the pairs (D00, D10), (D00, D11), (D01, D10), (D01, D11) is (0, 0).

Free slacks s0, s1, t0, t1 >= 0 parametrise all solutions of (i), (ii):

    c0 = -a0n + s0           (N01 = s0 >= 0, N00 = s0 - a0n >= 0)
    d0 = -c0 + s1            (N10 = s1 >= 0, N11 = s1 + a0p > 0)
    c1 = c0 + t0             (D00 - N00 = t0, D01 - N01 = t0 + a1n - a0n >= 0)
    d1 = d0 - t0 + max(0, a0p - a1p) + t1    (D10 - N10 = max(0, a0p - a1p) + t1, D11 - N11 >= t1)

Then D11 >= a0p > 0, D01 >= D00, so (iii) fails only if D00 = D10 = 0, i.e. a0n = s0 = t0 = 0 and
s1 = t1 = 0 and a0p <= a1p; that case is excluded.  Conversely every Definition 1 metric has such slacks
(s0 = N01, s1 = N10, t0 = D00 - N00, t1 = D10 - N10 - max(0, a0p - a1p) >= 0 by (ii) at (1, 0) and (1, 1)),
so on the grid the family is exhaustive.  All coefficients are multiples of 1/8 of moderate size, so every
sum above is exact in doubles and the generated metric is admissible *exactly*, not up to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.extra import numpy as hnp

from lfverify.core import (
    FiniteSupportPopulation,
    LinearFractionalMetric,
    accuracy,
    exponential,
    f_beta,
    gower_legendre,
    hinge,
    jaccard,
    logistic,
    sigmoid,
    squared_hinge,
    tau_logistic,
)

__all__ = [
    "corner_values",
    "admissible_metrics",
    "general_admissible_metrics",
    "table1_metrics",
    "f_beta_metrics",
    "definition1_by_corners",
    "perturbed_metrics",
    "convex_dominating_losses",
    "dominating_losses",
    "convex_losses",
    "tau_discrepant_losses",
    "rational_phi_losses",
    "taus",
    "datasets",
    "dyadic_datasets",
    "parameters",
    "dyadic_parameters",
    "parameter_batches",
    "FinitePopulationCase",
    "finite_populations",
    "dyadic_scores",
    "float_scores",
]


# ---------------------------------------------------------------------------------------------- metrics
def _eighths(low: int, high: int):
    """Multiples of 1/8 in [low/8, high/8], shrinking towards the lower end; 0 (when allowed) is favoured so
    that boundary cases (slacks exactly 0, a0n = 0, ...) are common."""
    base = st.integers(low, high).map(lambda k: k / 8)
    return st.one_of(st.just(0.0), base) if low <= 0 <= high else base


def corner_values(metric: LinearFractionalMetric) -> dict[str, Fraction]:
    """The eight corner values N_ab, D_ab of the module docstring, in exact rational arithmetic on the stored
    (float) coefficients of ``metric``."""
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (Fraction(getattr(metric, k)) for k in (
        "a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior"))
    return {
        "N00": c0, "N01": c0 + a0n, "N10": c0 + d0, "N11": c0 + d0 + a0p,
        "D00": c1, "D01": c1 + a1n, "D10": c1 + d1, "D11": c1 + d1 + a1p,
    }


def _from_slacks(a0p, a0n, a1p, a1n, s0, s1, t0, t1, name="generated") -> LinearFractionalMetric:
    c0 = -a0n + s0
    d0 = -c0 + s1
    c1 = c0 + t0
    d1 = d0 - t0 + max(0.0, a0p - a1p) + t1
    return LinearFractionalMetric(a0p=a0p, a0n=a0n, a1p=a1p, a1n=a1n, b0_const=c0, b0_prior=d0,
                                  b1_const=c1, b1_prior=d1, name=name)


def _degenerate(a0p, a0n, a1p, a1n, s0, s1, t0, t1) -> bool:
    """D00 = D10 = 0 (condition (iii) of the module docstring fails)."""
    return a0n == 0 and s0 == 0 and t0 == 0 and s1 == 0 and t1 == 0 and a0p <= a1p


_SLACKS = st.tuples(
    _eighths(1, 32),    # a0p > 0
    _eighths(-16, 0),   # a0n <= 0
    _eighths(0, 32),    # a1p >= 0
    _eighths(0, 32),    # a1n >= 0
    _eighths(0, 16), _eighths(0, 16), _eighths(0, 16), _eighths(0, 16),  # s0, s1, t0, t1 >= 0
).filter(lambda p: not _degenerate(*p))


@st.composite
def general_admissible_metrics(draw) -> LinearFractionalMetric:
    """Every Definition 1 metric whose sign coefficients and slacks lie on the 1/8 grid (see module docstring)."""
    return _from_slacks(*draw(_SLACKS))


def table1_metrics():
    """Table 1's admissible rows with exactly representable coefficients: F_beta with beta = k/64 in
    [0.109, 10] (beta^2 = k^2/4096 and 1 + beta^2 are exact doubles), Jaccard, accuracy, Gower-Legendre(1)."""
    betas = st.integers(7, 640).map(lambda k: k / 64)
    return st.one_of(betas.map(f_beta), st.just(jaccard()), st.just(accuracy()), st.just(gower_legendre(1.0)))


def f_beta_metrics():
    """F_beta with any float beta in [0.1, 10]: its coefficients 1 + beta^2 and beta^2 are rounded doubles,
    so the stored metric may violate U <= 1 by one rounding error (see lfverify's tests/core/test_properties.py)."""
    return st.floats(0.1, 10.0).map(f_beta)


def admissible_metrics():
    """Definition 1 metrics, admissible exactly: Table 1 rows and the general family."""
    return st.one_of(table1_metrics(), general_admissible_metrics())


def definition1_by_corners(metric: LinearFractionalMetric) -> dict[str, bool]:
    """Definition 1 decided from the corner values (module docstring), exactly; keys as in
    :class:`lfverify.core._metrics.AdmissibilityReport`.  This is the hand derivation the generator relies on,
    written out once so that a test can compare it with ``metric.admissibility()``."""
    c = corner_values(metric)
    vertex_pairs = (("D00", "D10"), ("D00", "D11"), ("D01", "D10"), ("D01", "D11"))
    return {
        "a0p_positive": metric.a0p > 0,
        "a0n_nonpositive": metric.a0n <= 0,
        "a1p_nonnegative": metric.a1p >= 0,
        "a1n_nonnegative": metric.a1n >= 0,
        # D >= 0 at both ends of the pi-interval of every vertex, and not 0 at both
        "denominator_positive": all(c[k] >= 0 for k in c if k[0] == "D")
        and not any(c[u] == 0 and c[v] == 0 for u, v in vertex_pairs),
        "utility_nonnegative": all(c[k] >= 0 for k in ("N00", "N01", "N10", "N11")),
        "utility_at_most_one": all(c["D" + k[1:]] - c[k] >= 0 for k in ("N00", "N01", "N10", "N11")),
    }


_FREE = ("a0p", "a0n", "a1p", "a1n", "N00", "N10", "D00", "D10")


def _from_corners(a0p, a0n, a1p, a1n, N00, N10, D00, D10, name) -> LinearFractionalMetric:
    """The metric with sign coefficients a and corner values N00 = c0, N10 = c0 + d0, D00 = c1, D10 = c1 + d1."""
    return LinearFractionalMetric(a0p=a0p, a0n=a0n, a1p=a1p, a1n=a1n, b0_const=N00, b0_prior=N10 - N00,
                                  b1_const=D00, b1_prior=D10 - D00, name=name)


@st.composite
def perturbed_metrics(draw):
    """An admissible metric with ONE of its eight free quantities (a0p, a0n, a1p, a1n and the corner values
    N00, N10, D00, D10) shifted by +-1/8 or +-1/4.  As the slacks are often exactly 0, the shift often breaks
    exactly one condition of Definition 1 (and sometimes none): the generator for cross-checking
    ``admissibility()`` in both directions."""
    a0p, a0n, a1p, a1n, s0, s1, t0, t1 = draw(_SLACKS)
    values = dict(a0p=a0p, a0n=a0n, a1p=a1p, a1n=a1n, N00=-a0n + s0, N10=s1)
    values["D00"] = values["N00"] + t0
    values["D10"] = values["N10"] + max(0.0, a0p - a1p) + t1
    which = draw(st.sampled_from(_FREE))
    shift = draw(st.sampled_from([-1 / 4, -1 / 8, 1 / 8, 1 / 4]))
    values[which] += shift
    return _from_corners(**values, name=f"{which} {shift:+g}")


# ----------------------------------------------------------------------------------------------- losses
def taus():
    """tau in the open interval (0, 1), including values near both ends."""
    return st.floats(0.0, 1.0, exclude_min=True, exclude_max=True)


def convex_dominating_losses():
    """Convex, non-increasing losses with phi(t) >= 1{t <= 0}: tau-logistic (base 2, tau in (0, 1)), logistic,
    hinge, squared hinge, exponential (Lemma 1's and Lemma 2's hypotheses together)."""
    return st.one_of(taus().map(tau_logistic), st.sampled_from([logistic(), hinge(), squared_hinge(), exponential()]))


def dominating_losses():
    """Losses with phi >= 1{t <= 0} (Lemma 1's only hypothesis on phi), convex or not: the convex ones and
    the sigmoid scale * sigma(-m) with scale >= 2 (phi(0) = scale / 2 >= 1, decreasing)."""
    return st.one_of(convex_dominating_losses(), st.floats(2.0, 8.0).map(lambda s: sigmoid(scale=s)))


def convex_losses():
    """Convex losses (Lemma 2's only hypothesis on phi): the convex dominating ones and tau-logistic losses in
    a base b > 2 (convex, phi(0) = log_b 2 < 1, so not dominating)."""
    return st.one_of(convex_dominating_losses(),
                     st.builds(lambda t, b: tau_logistic(t, base=b), taus(), st.floats(2.5, 100.0)))


def tau_discrepant_losses():
    """(loss, tau): Fig. 2's tau-logistic loss with tau in (0, 1), tau-discrepant with exactly that tau."""
    return taus().map(lambda t: (tau_logistic(t), t))


def rational_phi_losses():
    """Losses whose value and one-sided derivative are rational at rational margins (hinge, squared hinge),
    so that U, U_phi, U_hat and V_hat can be computed exactly with fractions.Fraction."""
    return st.sampled_from([hinge(), squared_hinge()])


# ------------------------------------------------------------------------------------------------- data
def _with_both_classes(draw, n):
    y = draw(hnp.arrays(np.int8, n, elements=st.sampled_from([-1, 1])))
    i = draw(st.integers(0, n - 1))
    j = draw(st.integers(0, n - 2))
    j = j if j < i else j + 1  # j != i
    y[i], y[j] = 1, -1
    return y


def _integer(name: str, value, *, at_least: int, why: str = "") -> None:
    """Refuse ``value`` unless it is an int >= ``at_least`` (bool excluded), as hypothesis.extra.numpy does."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidArgument(f"{name} must be an int; got {value!r} of type {type(value).__name__}")
    if value < at_least:
        raise InvalidArgument(f"{name}={value!r} must be at least {at_least}" + (f" ({why})" if why else ""))


def _positive_bound(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgument(f"{name} must be a real number; got {value!r} of type {type(value).__name__}")
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgument(f"{name}={value!r} must be finite and > 0")


def _sizes(min_name: str, min_value, max_name: str, max_value, *, at_least: int, why: str = "") -> None:
    _integer(min_name, min_value, at_least=at_least, why=why)
    _integer(max_name, max_value, at_least=at_least, why=why)
    if max_value < min_value:
        raise InvalidArgument(f"{max_name}={max_value!r} must be at least {min_name}={min_value!r}")


def datasets(min_n=2, max_n=300, max_d=8, bound=4.0):
    """(X, y): X of shape (n, d), n in [min_n, max_n], d in [1, max_d], with bounded finite float entries in
    [-bound, bound] (no subnormals), labels in {-1, +1} with both classes present (so min_n >= 2).

    Raises ``hypothesis.errors.InvalidArgument`` for arguments outside these ranges."""
    _sizes("min_n", min_n, "max_n", max_n, at_least=2, why="one sample of each class")
    _integer("max_d", max_d, at_least=1)
    _positive_bound("bound", bound)
    return _datasets(min_n, max_n, max_d, float(bound))


@st.composite
def _datasets(draw, min_n, max_n, max_d, bound):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.floats(-bound, bound, allow_subnormal=False)))
    return X, _with_both_classes(draw, n)


def dyadic_datasets(min_n=2, max_n=40, max_d=4):
    """(X, y) with entries k/8 in [-4, 4] (small exact rationals: exact-arithmetic oracles stay fast), n in
    [min_n, max_n] (min_n >= 2: both classes), d in [1, max_d]; ``InvalidArgument`` outside these ranges."""
    _sizes("min_n", min_n, "max_n", max_n, at_least=2, why="one sample of each class")
    _integer("max_d", max_d, at_least=1)
    return _dyadic_datasets(min_n, max_n, max_d)


@st.composite
def _dyadic_datasets(draw, min_n, max_n, max_d):
    n = draw(st.integers(min_n, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(hnp.arrays(np.float64, (n, d), elements=st.integers(-32, 32).map(lambda k: k / 8)))
    return X, _with_both_classes(draw, n)


def parameters(d, bound=3.0):
    """theta of shape (d,) with finite entries in [-bound, bound] (zero and signed zeros included)."""
    _integer("d", d, at_least=1)
    _positive_bound("bound", bound)
    return hnp.arrays(np.float64, d, elements=st.floats(-bound, bound, allow_subnormal=False))


def dyadic_parameters(d):
    """theta of shape (d,) with entries k/8 in [-3, 3]."""
    _integer("d", d, at_least=1)
    return hnp.arrays(np.float64, d, elements=st.integers(-24, 24).map(lambda k: k / 8))


def parameter_batches(d, max_k=6, bound=3.0):
    """Theta of shape (K, d), K in [1, max_k]."""
    _integer("d", d, at_least=1)
    _integer("max_k", max_k, at_least=1)
    _positive_bound("bound", bound)
    return st.integers(1, max_k).flatmap(
        lambda k: hnp.arrays(np.float64, (k, d), elements=st.floats(-bound, bound, allow_subnormal=False)))


# ----------------------------------------------------------------------------------------- populations
@dataclass(frozen=True)
class FinitePopulationCase:
    """A finite-support population with its exact rational description.

    ``weights`` and ``eta`` are the exact values (weights sum to 1 exactly, 0 <= eta <= 1); ``population`` is
    the library object built from their nearest doubles, whose weights sum to 1 within a few ulps.
    """

    atoms: np.ndarray
    weights: tuple[Fraction, ...]
    eta: tuple[Fraction, ...]
    population: FiniteSupportPopulation

    @property
    def prior(self) -> Fraction:
        return sum((w * q for w, q in zip(self.weights, self.eta)), Fraction(0))

    @property
    def n_atoms(self) -> int:
        return len(self.weights)


def finite_populations(min_atoms=1, max_atoms=6, max_d=3, eta_denominators=(1, 2, 3, 4, 5, 8, 10, 20)):
    """A :class:`FinitePopulationCase`: J atoms (J in [min_atoms, max_atoms]) with dyadic coordinates k/4 in [-3, 3]
    (d in [1, max_d]), weights k_j / sum k (k_j in [1, 20], so they sum to 1 exactly), eta_j = e_j / q with q drawn
    from ``eta_denominators`` (so ties, 0, 1/2 and 1 are frequent), and 0 < pi < 1 (some eta > 0 and some eta < 1).

    Raises ``hypothesis.errors.InvalidArgument`` for arguments outside these ranges or an empty or non-integer
    ``eta_denominators``."""
    _sizes("min_atoms", min_atoms, "max_atoms", max_atoms, at_least=1)
    _integer("max_d", max_d, at_least=1)
    if isinstance(eta_denominators, (str, bytes)) or not hasattr(eta_denominators, "__iter__"):
        raise InvalidArgument(f"eta_denominators must be a sequence of ints >= 1; got {eta_denominators!r}")
    eta_denominators = tuple(eta_denominators)
    if not eta_denominators:
        raise InvalidArgument("eta_denominators must not be empty")
    for q in eta_denominators:
        _integer("each of eta_denominators", q, at_least=1)
    return _finite_populations(min_atoms, max_atoms, max_d, eta_denominators)


@st.composite
def _finite_populations(draw, min_atoms, max_atoms, max_d, eta_denominators):
    J = draw(st.integers(min_atoms, max_atoms))
    d = draw(st.integers(1, max_d))
    atoms = draw(hnp.arrays(np.float64, (J, d), elements=st.integers(-12, 12).map(lambda k: k / 4)))
    counts = draw(st.lists(st.integers(1, 20), min_size=J, max_size=J))
    total = sum(counts)
    weights = tuple(Fraction(k, total) for k in counts)
    q = draw(st.sampled_from(eta_denominators))
    eta = tuple(Fraction(e, q) for e in draw(st.lists(st.integers(0, q), min_size=J, max_size=J)))
    if all(e == 0 for e in eta):  # both classes need positive mass: move one atom into the open interval
        eta = (Fraction(1, 2),) + eta[1:]
    if all(e == 1 for e in eta):
        eta = eta[:-1] + (Fraction(1, 2),)
    pop = FiniteSupportPopulation(atoms, [float(w) for w in weights], [float(e) for e in eta])
    return FinitePopulationCase(atoms, weights, eta, pop)


def dyadic_scores(J):
    """One score per atom, k/4 in [-12, 12]: exact rationals that hit 0 and the kinks +-1 often."""
    _integer("J", J, at_least=1)
    return hnp.arrays(np.float64, J, elements=st.integers(-48, 48).map(lambda k: k / 4))


def float_scores(J, bound=40.0):
    """One score per atom: any float in [-bound, bound] or a special value (0, -0, +-1, +-tiny)."""
    _integer("J", J, at_least=1)
    _positive_bound("bound", bound)
    special = st.sampled_from([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e-12, -1e-12])
    return hnp.arrays(np.float64, J, elements=st.one_of(special, st.floats(-bound, bound)))
