"""An independent adversary for the corrected statements of lfverify.proofs (issue 30); not a test module.

It shares no code with lfverify nor with its other test oracles (tests/calibration_search.py): the metrics are
written from Eq. (1) and Table 1, the surrogate utility from Eq. (3)-(4), and the surrogate maximiser is found by a
*direct* search on U_phi itself - never by Dinkelbach's parametric route, which the proofs use:

* for piecewise-linear losses (:data:`KINKED_LINEAR`, hinge, the floor loss max(1, 1 - t)) U_phi restricted to a
  product of linear pieces is a ratio of affine functions, whose maximum over a box is at a vertex; so sup U_phi is
  the maximum over every combination of breakpoints, in exact rational arithmetic, and each atom's set of maximiser
  values (an interval) is found exactly piece by piece;
* for the other kinked losses (tau-logistic, kinked exponential, kinked squared hinge) by coordinate ascent with
  golden-section search on each score (U_phi is quasi-concave in each score), at ``DPS`` digits; each atom's set of
  maximiser values is then probed on U_phi directly (0 and +-h around the found score).

Coordinate-wise optimality of the ratio is global optimality here: at the level u = U_phi(x-hat), N - u D is a sum
of one concave function per atom, so no single score can be improved iff none of those functions can be.  The
same separability makes the set of maximisers the product of the atoms' sets.

What the adversary computes for one population (:func:`analyse`) is the ground truth the statements are judged
against: U_phi*, U-dagger and every optimal labelling (exact enumeration of the 2^J labellings), the labels the
Bayes rule allows at each atom, calibration (every limit of U along maximising sequences is U-dagger: a score that
is 0 at a maximiser can be approached from either side), the sign rule for the canonical maximiser (0 wherever 0 is a
maximiser value) and for every maximiser, and the weak form.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from fractions import Fraction as F

import mpmath as mp

DPS = 45  #: working precision of the direct search
ZERO = mp.mpf(10) ** -30  #: a U_phi difference below this is 0 (search precision ~1e-40)
PROBE = mp.mpf(10) ** -9  #: step of the +-h probes around a score


# ---------------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class Metric:
    """U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1), b_k = c_k + d_k pi, from the metric's definition."""

    name: str
    a0p: F
    a0n: F
    c0: F
    d0: F
    a1p: F
    a1n: F
    c1: F
    d1: F
    beta2: F | None = None  #: beta^2 for F_beta

    def value(self, tp, fp, pi):
        den = self.a1p * tp + self.a1n * fp + self.c1 + self.d1 * pi
        return (self.a0p * tp + self.a0n * fp + self.c0 + self.d0 * pi) / den

    def b0(self, pi):
        return self.c0 + self.d0 * pi

    def b1(self, pi):
        return self.c1 + self.d1 * pi


def f_beta(beta2) -> Metric:
    """(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) with FN = pi - TP: denominator TP + FP + b^2 pi."""
    b2 = F(beta2)
    return Metric(f"F_beta(beta^2={b2})", 1 + b2, F(0), F(0), F(0), F(1), F(1), F(0), b2, beta2=b2)


def jaccard() -> Metric:
    """TP / (TP + FN + FP) = TP / (pi + FP)."""
    return Metric("Jaccard", F(1), F(0), F(0), F(0), F(0), F(1), F(0), F(1))


def accuracy() -> Metric:
    """TP + TN = TP + (1 - pi) - FP, denominator 1."""
    return Metric("accuracy", F(1), F(-1), F(1), F(-1), F(0), F(0), F(1), F(0))


def random_definition1_metric(rng: random.Random) -> Metric:
    """A metric with Thm. 7's conditions (1) Da0 > 0, (2) Da1 <= 0, (3) a0n != 0 or a1n != 0, b1 > 0, U in [0, 1]
    and D > 0 on the feasible region, drawn by rejection on a grid of eighths (checked at the corners of the
    feasible region, where the extremes of N and D lie)."""
    grid = [F(k, 8) for k in range(-16, 17)]
    while True:
        a0p, a1p = rng.choice([g for g in grid if g > 0]), rng.choice([g for g in grid if g >= 0])
        a0n, a1n = rng.choice([g for g in grid if g <= 0]), rng.choice([g for g in grid if g >= 0])
        c0, d0, c1, d1 = (rng.choice(grid) for _ in range(4))
        m = Metric("M", a0p, a0n, c0, d0, a1p, a1n, c1, d1)
        if not (a0p - a0n > 0 and a1p - a1n <= 0 and (a0n != 0 or a1n != 0) and c1 > 0 and c1 + d1 > 0):
            continue
        ok = True
        for pi in (F(0), F(1)):
            for tp, fp in ((0, 0), (pi, 0), (0, 1 - pi), (pi, 1 - pi)):
                n = a0p * tp + a0n * fp + m.b0(pi)
                d = a1p * tp + a1n * fp + m.b1(pi)
                ok &= d > 0 and 0 <= n <= d
        if ok:
            return m


# ---------------------------------------------------------------------------------------------- losses
@dataclass(frozen=True)
class Loss:
    """A surrogate loss phi: values (exact for piecewise-linear ones), one-sided derivatives at 0, and the
    properties the corrected statements ask of phi, each established here from the formula."""

    name: str
    rho: F  #: phi'(0+) / phi'(0-)
    dm: F | None  #: phi'(0-) where it is rational
    kind: str  #: "linear" (piecewise linear: exact) or "mp"
    pieces: tuple = ()  #: for "linear": ((start, end, slope, intercept), ...) covering R, in order
    formula: object = None  #: for "mp": phi(t) in mpmath
    fformula: object = None  #: for "mp": phi(t) in double precision (the coarse phase of the search)
    strictly_convex_pieces: bool = False  #: each side strictly convex (the minimiser of g is unique)
    convex: bool = True
    nonincreasing: bool = True
    dominates: bool = True  #: phi(t) >= 1{t <= 0}

    def value(self, t):
        if self.kind == "linear":
            for start, end, slope, intercept in self.pieces:
                if (start is None or t >= start) and (end is None or t <= end):
                    return slope * t + intercept
            raise AssertionError(t)
        return self.formula(t)

    def breakpoints(self):
        return sorted({p for start, end, _, _ in self.pieces for p in (start, end) if p is not None})


def kinked_linear(rho) -> Loss:
    """1 - t on t <= 0, max(0, 1 - rho t) on t > 0: slopes -1 and -rho at 0 (rho in (0, 1])."""
    rho = F(rho)
    return Loss(f"kinked-linear(rho={rho})", rho, F(-1), "linear",
                ((None, F(0), F(-1), F(1)), (F(0), 1 / rho, -rho, F(1)), (1 / rho, None, F(0), F(0))))


def hinge() -> Loss:
    """max(0, 1 - t): differentiable at 0 (rho = 1), flat for t >= 1: its pointwise minimiser need not be unique."""
    return Loss("hinge", F(1), F(-1), "linear", ((None, F(1), F(-1), F(1)), (F(1), None, F(0), F(0))))


def floor_loss() -> Loss:
    """max(1, 1 - t): convex, non-increasing, >= 1{t <= 0}, phi'(0-) = -1, phi'(0+) = 0 (rho = 0); every f >= 0
    gives U_phi = 0 for F_beta, so U_phi* = 0."""
    return Loss("floor max(1, 1 - t)", F(0), F(-1), "linear", ((None, F(0), F(-1), F(1)), (F(0), None, F(0), F(1))))


def tau_logistic(tau) -> Loss:
    """Fig. 2: log2(1 + e^{-t}) on t <= 0 and log2(1 + e^{-tau t}) on t > 0 (phi'(0-) = -1/(2 ln 2), rho = tau)."""
    tau = F(tau)
    tm = mp.mpf(tau.numerator) / tau.denominator
    tf = float(tau)
    return Loss(f"tau-logistic(tau={tau})", tau, None, "mp",
                formula=lambda t: mp.log(1 + mp.exp(-(1 if t <= 0 else tm) * t)) / mp.log(2),
                fformula=lambda t: _log1pexp(-(1.0 if t <= 0 else tf) * t) / math.log(2),
                strictly_convex_pieces=True)


def kinked_exponential(rho) -> Loss:
    """e^{-t} on t <= 0, e^{-rho t} on t > 0 (rho in (0, 1])."""
    rho = F(rho)
    r = mp.mpf(rho.numerator) / rho.denominator
    rf = float(rho)
    return Loss(f"kinked-exp(rho={rho})", rho, F(-1), "mp", formula=lambda t: mp.exp(-t if t <= 0 else -r * t),
                fformula=lambda t: math.exp(min(700.0, -t if t <= 0 else -rf * t)), strictly_convex_pieces=True)


def kinked_squared_hinge(rho) -> Loss:
    """(1 - t)^2 on t <= 0, max(0, 1 - rho t)^2 on t > 0: phi'(0-) = -2, phi'(0+) = -2 rho."""
    rho = F(rho)
    r = mp.mpf(rho.numerator) / rho.denominator
    rf = float(rho)
    return Loss(f"kinked-sq-hinge(rho={rho})", rho, F(-2), "mp",
                formula=lambda t: (1 - t) ** 2 if t <= 0 else max(mp.mpf(0), 1 - r * t) ** 2,
                fformula=lambda t: (1 - t) ** 2 if t <= 0 else max(0.0, 1 - rf * t) ** 2)


def logistic() -> Loss:
    """log2(1 + e^{-t}): differentiable (rho = 1)."""
    return Loss("logistic", F(1), None, "mp", formula=lambda t: mp.log(1 + mp.exp(-t)) / mp.log(2),
                fformula=lambda t: _log1pexp(-t) / math.log(2), strictly_convex_pieces=True)


def _log1pexp(z: float) -> float:
    """log(1 + e^z) without overflow."""
    return z + math.log1p(math.exp(-z)) if z > 0 else math.log1p(math.exp(z))


# ---------------------------------------------------------------------------------------------- populations
@dataclass(frozen=True)
class Population:
    """Atoms with rational probabilities ``weights`` (summing to 1) and posteriors ``eta`` in (0, 1)."""

    weights: tuple
    eta: tuple

    def __post_init__(self):
        assert sum(self.weights) == 1 and all(w > 0 for w in self.weights)
        assert all(0 < e < 1 for e in self.eta) and len(self.eta) == len(self.weights)

    @property
    def prior(self):
        return sum(w * e for w, e in zip(self.weights, self.eta))


def utility(metric: Metric, pop: Population, labels) -> F:
    """U of the classifier predicting +1 exactly on the atoms with labels[j] > 0 (exact)."""
    tp = sum(w * e for w, e, s in zip(pop.weights, pop.eta, labels) if s > 0)
    fp = sum(w * (1 - e) for w, e, s in zip(pop.weights, pop.eta, labels) if s > 0)
    return metric.value(tp, fp, pop.prior)


def bayes(metric: Metric, pop: Population):
    """(U-dagger, the set of optimal labellings), by enumeration of all 2^J labellings."""
    values = {labels: utility(metric, pop, labels) for labels in itertools.product((-1, 1), repeat=len(pop.eta))}
    best = max(values.values())
    return best, {labels for labels, v in values.items() if v == best}


def _num(x):
    return mp.mpf(x.numerator) / x.denominator if isinstance(x, F) else x


def surrogate_utility(metric: Metric, loss: Loss, pop: Population, scores):
    """U_phi of Eq. (3)-(4): E[W_{0,phi}] / E[W_{1,phi}] with one score per atom; exact (Fraction) for a
    piecewise-linear loss at rational scores, mpmath otherwise."""
    exact = loss.kind == "linear" and all(isinstance(x, (F, int)) for x in scores)
    return _searched_utility(metric, loss, pop, "exact" if exact else "mp")(scores)


def _searched_utility(metric: Metric, loss: Loss, pop: Population, arithmetic: str):
    """U_phi as a function of the scores, in ``arithmetic``: "exact" (Fractions), "mp" (mpmath at the working
    precision) or "float" (double precision with phi's float formula: the coarse phase of the search).

    Each atom's terms of E[W_0,phi] and E[W_1,phi] (Eq. (3)) are kept per (atom, score): the coordinate searches
    below change one score at a time, so an evaluation computes one atom's terms instead of all of them.  The terms
    are the same numbers and are summed in the same order whether or not they were kept, so every value is the one an
    evaluation from scratch gives, exactly (FINDINGS.md, "A faster suite, round 3")."""
    if arithmetic == "float":
        f = float
        a0p, a0n, a1p, a1n = (f(x) for x in (metric.a0p, metric.a0n, metric.a1p, metric.a1n))
        start = f(metric.b0(pop.prior)), f(metric.b1(pop.prior))

        def terms(w, e, x):
            w, e = f(w), f(e)
            pp, pm = loss.fformula(x), loss.fformula(-x)
            return w * (a0p * (1 - pp) * e + a0n * pm * (1 - e)), w * (a1p * (1 + pp) * e + a1n * pm * (1 - e))
    else:
        conv = (lambda x: x) if arithmetic == "exact" else _num
        start = conv(metric.b0(pop.prior)), conv(metric.b1(pop.prior))

        def terms(w, e, x):
            return _eq3_terms(metric, loss, w, e, conv(x), conv)

    kept: dict = {}

    def value(scores):
        num, den = start
        for j, (w, e, x) in enumerate(zip(pop.weights, pop.eta, scores)):
            if (j, x) not in kept:
                kept[(j, x)] = terms(w, e, x)
            n, d = kept[(j, x)]
            num, den = num + n, den + d
        return num / den

    return value


def _eq3_terms(metric, loss, w, e, x, conv=lambda x: x):
    """One atom's terms of E[W_0,phi] and E[W_1,phi] (Eq. (3)) at the score x: weight w, eta e."""
    pp, pm = conv(loss.value(x)), conv(loss.value(-x))
    w, e = conv(w), conv(e)
    return (w * (conv(metric.a0p) * (1 - pp) * e + conv(metric.a0n) * pm * (1 - e)),
            w * (conv(metric.a1p) * (1 + pp) * e + conv(metric.a1n) * pm * (1 - e)))


# ---------------------------------------------------------------------------------------------- the direct search
@dataclass
class Maximiser:
    """sup U_phi and, per atom, which signs a maximiser's score can take there."""

    value: object  #: U_phi* (Fraction for linear losses, mpf otherwise)
    scores: tuple  #: one maximiser
    can_pos: tuple  #: a maximiser has score > 0 at the atom
    can_neg: tuple
    can_zero: tuple  #: 0 is a maximiser value at the atom
    exact: bool


def _candidate_values(loss: Loss):
    """Breakpoints of phi(x) and phi(-x) as functions of x, and two far points (the pieces at infinity)."""
    points = set()
    for p in loss.breakpoints():
        points |= {p, -p}
    points = sorted(points)
    far = 1 + max(abs(p) for p in points) if points else F(1)
    return [-(4 * far)] + points + [4 * far]


def _brute_force(metric, loss, pop, values):
    """The first combination of ``values`` (one per atom, in itertools.product's order) with the largest U_phi, and
    that value: every combination tried, exactly.  Each atom's terms of E[W_0,phi] and E[W_1,phi] (Eq. (3)) are
    computed once per value and scaled to integers over one common denominator, so a combination costs integer
    additions and one cross-multiplied comparison: the same exact order as comparing Fractions, without a Fraction
    per combination (FINDINGS.md, "A faster suite")."""
    b0, b1 = F(metric.b0(pop.prior)), F(metric.b1(pop.prior))
    terms = [[_eq3_terms(metric, loss, w, e, x) for x in values] for w, e in zip(pop.weights, pop.eta)]
    scale = math.lcm(b0.denominator, b1.denominator, *(t.denominator for atom in terms for pair in atom for t in pair))
    B0, B1 = int(b0 * scale), int(b1 * scale)
    ints = [[(int(n * scale), int(d * scale)) for n, d in atom] for atom in terms]
    best_num = best_den = arg = None
    for idx in itertools.product(range(len(values)), repeat=len(pop.eta)):
        num, den = B0, B1
        for atom, i in zip(ints, idx):
            num, den = num + atom[i][0], den + atom[i][1]
        if den == 0:
            raise ZeroDivisionError(f"E[W_1,phi] = 0 at the scores {[values[i] for i in idx]}")
        # num/den > best_num/best_den, exactly: (num best_den - best_num den) / (den best_den) > 0
        if arg is None or (num * best_den - best_num * den) * (den * best_den) > 0:
            best_num, best_den, arg = num, den, idx
    return F(best_num, best_den), tuple(values[i] for i in arg)


def _maximise_linear(metric, loss, pop) -> Maximiser:
    values = _candidate_values(loss)
    best, arg = _brute_force(metric, loss, pop, values)
    # per atom: the exact set {x : U_phi(arg with x at atom j) = best}, piece by piece (an interval)
    can_pos, can_neg, can_zero = [], [], []
    inner = values[1:-1]
    grid = sorted(set(inner + [F(0)] + [values[0] * 4, values[-1] * 4] + [(a + b) / 2 for a, b in
                                                                           zip(values, values[1:])]))
    utility = _searched_utility(metric, loss, pop, "exact")  # the grid and arg are rational
    for j in range(len(pop.eta)):
        def at(x, j=j):
            s = list(arg)
            s[j] = x
            return utility(s)

        hits = [x for x in grid if at(x) == best]
        # the set is an interval whose ends are breakpoints (or unbounded); midpoints detect whole pieces
        can_pos.append(any(x > 0 for x in hits))
        can_neg.append(any(x < 0 for x in hits))
        can_zero.append(at(F(0)) == best)
    return Maximiser(best, tuple(arg), tuple(can_pos), tuple(can_neg), tuple(can_zero), True)


def _golden(f, lo, hi, iterations, sqrt5):
    invphi = (sqrt5 - 1) / 2
    a, b = lo, hi
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
    return (a + b) / 2


def _coordinate_ascent(value_of, scores, width, iterations, sweeps, tolerance, sqrt5, zero):
    """Maximise value_of(scores) one score at a time (golden section in [x - width, x + width]); a score is set to
    exactly 0 whenever 0 is at least as good (the kink)."""
    value = value_of(scores)
    for _ in range(sweeps):
        before = value
        for j in range(len(scores)):
            def along(x, j=j):
                trial = list(scores)
                trial[j] = x
                return value_of(trial)

            x = _golden(along, scores[j] - width, scores[j] + width, iterations, sqrt5)
            if along(x) > along(scores[j]):
                scores[j] = x
            if along(zero) >= along(scores[j]):
                scores[j] = zero
            value = along(scores[j])
        if value - before <= tolerance:
            break
    return scores, value


def _maximise_mp(metric, loss, pop) -> Maximiser:
    # coarse: double precision, wide brackets; fine: DPS digits around the coarse maximiser
    scores, _ = _coordinate_ascent(_searched_utility(metric, loss, pop, "float"), [0.0] * len(pop.eta), 40.0, 70,
                                   400, 1e-15, math.sqrt(5), 0.0)
    with mp.workdps(DPS):
        scores = [mp.mpf(x) for x in scores]
        utility = _searched_utility(metric, loss, pop, "mp")  # kept terms: this precision only
        scores, value = _coordinate_ascent(utility, scores,
                                           mp.mpf(10) ** -5, 95, 200, mp.mpf(10) ** -(DPS - 6), mp.sqrt(5),
                                           mp.mpf(0))
        can_pos, can_neg, can_zero = [], [], []
        for j in range(len(scores)):
            def at(x, j=j):
                s = list(scores)
                s[j] = x
                return utility(s)

            x = scores[j]
            zero = value - at(mp.mpf(0)) < ZERO
            can_zero.append(zero)
            can_pos.append(x > ZERO or (zero and value - at(PROBE) < ZERO))
            can_neg.append(x < -ZERO or (zero and value - at(-PROBE) < ZERO))
        return Maximiser(value, tuple(scores), tuple(can_pos), tuple(can_neg), tuple(can_zero), False)


def maximise(metric: Metric, loss: Loss, pop: Population) -> Maximiser:
    """sup_f U_phi(f) over all functions (one score per atom) by the direct search of the module docstring."""
    return _maximise_linear(metric, loss, pop) if loss.kind == "linear" else _maximise_mp(metric, loss, pop)


# ---------------------------------------------------------------------------------------------- ground truth
@dataclass
class Truth:
    """What actually happens on one (metric, loss, population)."""

    metric: Metric
    loss: Loss
    pop: Population
    opt: Maximiser
    u_dagger: F
    optimal_labellings: set
    bayes_labels: tuple  #: per atom, the labels some optimal labelling gives it
    calibrated: bool  #: every limit of U along maximising sequences is U-dagger
    sign_rule_canonical: bool  #: sgn of the maximiser that is 0 wherever 0 is a maximiser value (sgn 0 = -1)
    sign_rule_every: bool  #: sgn f* Bayes optimal for every maximiser f*
    off_zero_bayes_every: bool  #: every maximiser's non-zero scores have a Bayes label
    limit_labels: tuple = field(default=())  #: per atom, the labels maximising sequences can give it

    def labelling_optimal(self, labels) -> bool:
        return tuple(labels) in self.optimal_labellings


def analyse(metric: Metric, loss: Loss, pop: Population) -> Truth:
    opt = maximise(metric, loss, pop)
    u_dagger, optimal = bayes(metric, pop)
    bayes_labels = tuple({lab[j] for lab in optimal} for j in range(len(pop.eta)))
    limit = tuple(({1} if (p or z) else set()) | ({-1} if (n or z) else set())
                  for p, n, z in zip(opt.can_pos, opt.can_neg, opt.can_zero))
    calibrated = all(labels in optimal for labels in itertools.product(*[sorted(s) for s in limit]))
    canonical = tuple(-1 if z else (1 if p else -1) for p, z in zip(opt.can_pos, opt.can_zero))
    every = tuple(({1} if p else set()) | ({-1} if (n or z) else set())
                  for p, n, z in zip(opt.can_pos, opt.can_neg, opt.can_zero))
    off_zero = all((not p or 1 in b) and (not n or -1 in b)
                   for p, n, b in zip(opt.can_pos, opt.can_neg, bayes_labels))
    return Truth(metric, loss, pop, opt, u_dagger, optimal, bayes_labels, calibrated,
                 sign_rule_canonical=canonical in optimal,
                 sign_rule_every=all(lab in optimal for lab in itertools.product(*[sorted(s) for s in every])),
                 off_zero_bayes_every=off_zero, limit_labels=limit)


# ---------------------------------------------------------------------------------------------- generators
def random_population(rng: random.Random, atoms: int) -> Population:
    cuts = sorted(rng.sample(range(1, 40), atoms - 1))
    weights = tuple(F(b - a, 40) for a, b in zip([0] + cuts, cuts + [40]))
    eta = tuple(F(rng.randint(1, 39), 40) for _ in range(atoms))
    return Population(weights, eta)


def _atom_terms(metric: Metric, loss_values, eta):
    """(A, B): one atom's share of U_phi's numerator and denominator, Eq. (3)-(4), with b_k = c_k + d_k eta (so
    that E[A] / E[B] = U_phi); ``loss_values`` = (phi(x), phi(-x)), or (1, 0) / (0, 1) style labels for U."""
    pp, pm = loss_values
    num = metric.c0 + metric.d0 * eta + metric.a0p * (1 - pp) * eta + metric.a0n * pm * (1 - eta)
    den = metric.c1 + metric.d1 * eta + metric.a1p * (1 + pp) * eta + metric.a1n * pm * (1 - eta)
    return num, den


def _surrogate_excess(metric, loss, eta, u):
    """h(eta; u) = max_x [A - u B]: sup U_phi = u iff E[h(eta; u)] = 0 (B > 0).  Exact for a piecewise-linear loss:
    A - u B is piecewise linear in x, so its maximum is at a breakpoint; None if it grows without bound."""
    values = _candidate_values(loss)
    far = [values[0] * 2, values[0], values[-1], values[-1] * 2]
    excess = {x: (lambda t: t[0] - u * t[1])(_atom_terms(metric, (loss.value(x), loss.value(-x)), eta))
              for x in values + far}
    if excess[far[0]] > excess[far[1]] or excess[far[3]] > excess[far[2]]:
        return None
    return max(excess.values())


def _bayes_excess(metric, eta, u):
    """g(eta; u) = max over the atom's label of [A - u B] for U itself: U-dagger = u iff E[g(eta; u)] = 0."""
    positive = (metric.c0 + metric.d0 * eta + metric.a0p * eta + metric.a0n * (1 - eta)
                - u * (metric.c1 + metric.d1 * eta + metric.a1p * eta + metric.a1n * (1 - eta)))
    negative = metric.c0 + metric.d0 * eta - u * (metric.c1 + metric.d1 * eta)
    return max(positive, negative)


def _balance(eta_fixed, excess_of, grid=tuple(F(k, 40) for k in range(1, 40)), w_fixed=F(1, 4)):
    """A population with an atom of weight ``w_fixed`` at ``eta_fixed`` and two grid atoms whose weights make
    E[excess] = 0 exactly (a linear equation): the level u of ``excess_of`` is then sup U_phi (or U-dagger)."""
    h_fixed = excess_of(eta_fixed)
    if h_fixed is None:
        return None
    scored = [(e, excess_of(e)) for e in grid if e != eta_fixed]
    scored = [(e, h) for e, h in scored if h is not None]
    rest = 1 - w_fixed
    for (ea, ha), (eb, hb) in itertools.product([t for t in scored if t[1] > 0], [t for t in scored if t[1] < 0]):
        wa = (-w_fixed * h_fixed - rest * hb) / (ha - hb)
        if 0 < wa < rest:
            return Population((w_fixed, wa, rest - wa), (eta_fixed, ea, eb))
    return None


def population_with_atom_at(metric, loss, eta_of_u, levels=tuple(F(k, 20) for k in range(1, 20))):
    """A population with U_phi* = u exactly and an atom at ``eta_of_u(u)`` (a band edge), for the first level u that
    allows one (piecewise-linear losses only); checked by the direct search.  None if no level does."""
    assert loss.kind == "linear"
    for u in levels:
        eta = eta_of_u(u)
        if eta is None or not 0 < eta < 1:
            continue
        pop = _balance(eta, lambda e, u=u: _surrogate_excess(metric, loss, e, u))
        if pop is not None and maximise(metric, loss, pop).value == u:
            return pop
    return None


def population_with_bayes_threshold_atom(metric, delta_of_u, levels=tuple(F(k, 20) for k in range(1, 20))):
    """A population with U-dagger = u exactly and an atom at delta(u), for the first level u that allows one;
    checked by enumeration of the labellings.  None if no level does."""
    for u in levels:
        eta = delta_of_u(u)
        if eta is None or not 0 < eta < 1:
            continue
        pop = _balance(eta, lambda e, u=u: _bayes_excess(metric, e, u))
        if pop is not None and bayes(metric, pop)[0] == u:
            return pop
    return None


def mpf(x):
    return _num(F(x)) if isinstance(x, (int, F)) else x


__all__ = ["Metric", "f_beta", "jaccard", "accuracy", "random_definition1_metric", "Loss", "kinked_linear", "hinge",
           "floor_loss", "tau_logistic", "kinked_exponential", "kinked_squared_hinge", "logistic", "Population",
           "utility", "bayes", "surrogate_utility", "Maximiser", "maximise", "Truth", "analyse", "random_population",
           "population_with_atom_at", "population_with_bayes_threshold_atom", "mpf", "math"]


# ---------------------------------------------------------------------------------------------- the statements
# What the corrected statements say, transcribed from their text (lfverify/proofs/_corrected_statements.py renders
# it; proofs/theorem-1.md shows it): nothing here calls lfverify.
@dataclass
class Reading:
    """The statements' quantities on one population, and the verdicts they predict."""

    u_star: object
    u_dagger: F
    a: object
    c: object
    alpha: F
    gamma: F
    delta: F
    eta_lo: object
    eta_hi: object
    bound: object  #: c alpha / (a gamma): tau_F, tau_J, H(U-dagger) c / a
    mass_calibration: bool | None  #: no mass in (eta_hi, delta), (delta, eta_lo), band off delta (None: undecidable)
    mass_sign_rule: bool | None  #: no mass in (eta_hi, delta) or (delta, eta_hi]
    mass_kink_set: bool | None  #: no mass in (eta_hi, delta) or (delta, eta_lo)
    band_mass_off_delta: bool | None  #: some atom in [eta_lo, eta_hi] with eta != delta


TIE = mp.mpf(10) ** -25  #: an atom this close to a band edge computed in mpmath cannot be placed on a side


def _lt(x, y):
    """x < y, None when undecidable (mpmath values closer than TIE)."""
    if isinstance(x, F) and isinstance(y, F):
        return x < y
    dx, dy = _num(x) if isinstance(x, F) else x, _num(y) if isinstance(y, F) else y
    if abs(dx - dy) < TIE:
        return None
    return dx < dy


def read(truth: Truth) -> Reading | None:
    """The corrected statements' quantities (None when U_phi* <= 0: their formulas divide by zero there)."""
    m, u, ud = truth.metric, truth.opt.value, truth.u_dagger
    a, c = m.a0p + u * m.a1p, u * m.a1n - m.a0n
    alpha, gamma = m.a0p - m.a1p * ud, m.a1n * ud - m.a0n
    rho = truth.loss.rho if truth.opt.exact else _num(truth.loss.rho)
    if not (u > 0 and a > 0 and c > 0 and alpha + gamma > 0 and gamma > 0):
        return None
    delta = gamma / (alpha + gamma)
    eta_lo, eta_hi = rho * c / (rho * c + a), c / (c + rho * a)
    bound = c * alpha / (a * gamma)
    undecided = False

    def between(e, lo, hi, closed_hi=False):  # lo < e < hi (or <= hi)
        nonlocal undecided
        left = _lt(lo, e)
        right = _lt(e, hi) if not closed_hi else (None if _lt(hi, e) is None else not _lt(hi, e))
        if left is None or right is None:
            undecided = True
            return False
        return left and right

    atoms = truth.pop.eta
    gap_hi = any(between(e, eta_hi, delta) for e in atoms)
    gap_lo = any(between(e, delta, eta_lo) for e in atoms)
    in_band = []
    for e in atoms:
        lo_ok, hi_ok = _lt(e, eta_lo), _lt(eta_hi, e)
        if lo_ok is None or hi_ok is None:
            undecided = True
        in_band.append(not lo_ok and not hi_ok)
    band_off = any(b and e != delta for b, e in zip(in_band, atoms))
    sign_hi = any(between(e, delta, eta_hi, closed_hi=True) for e in atoms)
    if undecided:
        return Reading(u, ud, a, c, alpha, gamma, delta, eta_lo, eta_hi, bound, None, None, None, None)
    return Reading(u, ud, a, c, alpha, gamma, delta, eta_lo, eta_hi, bound,
                   mass_calibration=not (gap_hi or gap_lo or band_off), mass_sign_rule=not (gap_hi or sign_hi),
                   mass_kink_set=not (gap_hi or gap_lo), band_mass_off_delta=band_off)


def weak_form_every(truth: Truth, reading: Reading) -> bool:
    """Every maximiser's non-zero scores carry a Bayes label, and every labelling "sgn f* off {f* = 0}, the Bayes
    rule {eta > delta} on it" attains U-dagger."""
    options = []
    for e, p, n, z in zip(truth.pop.eta, truth.opt.can_pos, truth.opt.can_neg, truth.opt.can_zero):
        o = set()
        if p:
            o.add(1)
        if n:
            o.add(-1)
        if z:
            o.add(1 if e > reading.delta else -1)
        options.append(sorted(o))
    return truth.off_zero_bayes_every and all(lab in truth.optimal_labellings for lab in itertools.product(*options))


def bayes_labelling_of_band(truth: Truth, reading: Reading) -> bool:
    """(c): the canonical maximiser's sign off the closed band, the Bayes rule on it, attains U-dagger."""
    labels = []
    for e, p, z in zip(truth.pop.eta, truth.opt.can_pos, truth.opt.can_zero):
        if z:
            labels.append(1 if e > reading.delta else -1)
        else:
            labels.append(1 if p else -1)
    return tuple(labels) in truth.optimal_labellings


@dataclass
class Verdicts:
    """For one case: which conditions held (both sides must be reached) and which conclusions failed."""

    conditions: dict
    violations: list


def judge(truth: Truth, *, dominates: bool = True) -> Verdicts | None:
    """Every corrected statement's conclusions on one case whose hypotheses hold (the caller checks the metric's and
    the loss's); None when U_phi* <= 0 or a band edge cannot be placed (then the statements' hypothesis U_phi* > 0
    fails, or the case is at a tie the search cannot resolve)."""
    r = read(truth)
    if r is None or r.mass_calibration is None:
        return None
    rho = truth.loss.rho if truth.opt.exact else _num(truth.loss.rho)
    weak_condition = bool(rho <= r.bound)
    v = []
    if weak_condition and not weak_form_every(truth, r):
        v.append("weak form (Thm. 1/2 (corrected) 1., Thm. 7 (corrected) 1., criterion (d)) fails")
    if truth.calibrated != r.mass_calibration:
        v.append(f"calibration iff mass condition fails: calibrated {truth.calibrated}, "
                 f"mass condition {r.mass_calibration}")
    if truth.sign_rule_canonical != r.mass_sign_rule:
        v.append(f"sign rule for f*_0 fails: Bayes optimal {truth.sign_rule_canonical}, condition {r.mass_sign_rule}")
    if bayes_labelling_of_band(truth, r) != r.mass_kink_set:
        v.append("kink set (c) fails")
    if dominates and weak_condition and not r.mass_kink_set:
        v.append("(d): rho <= c alpha/(a gamma) with phi >= 1{t <= 0} but mass between the band and delta")
    if weak_condition and not r.band_mass_off_delta and not truth.calibrated:
        v.append("summary 'if rho <= tau, calibrated iff no band mass off delta' fails")
    if dominates and _lt(r.u_dagger, r.u_star):
        v.append("Lemma 1 (U_phi* <= U-dagger) fails")
    conditions = {"weak_condition": weak_condition, "calibrated": truth.calibrated,
                  "sign_rule": truth.sign_rule_canonical, "kink_set": r.mass_kink_set,
                  "band_mass_off_delta": r.band_mass_off_delta,
                  "maximiser_not_unique": any(p + n + z > 1 for p, n, z in zip(truth.opt.can_pos, truth.opt.can_neg,
                                                                               truth.opt.can_zero)),
                  "atom_on_band_edge": any(e in (r.eta_lo, r.eta_hi) for e in truth.pop.eta),
                  "atom_at_delta": any(e == r.delta for e in truth.pop.eta)}
    return Verdicts(conditions, v)


__all__ += ["Reading", "read", "weak_form_every", "bayes_labelling_of_band", "Verdicts", "judge"]
