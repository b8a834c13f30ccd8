"""Every instance the project owns, as cases of lfverify.proofs._executable with facts from an independent oracle;
not a test module (tests/proofs/test_executable_statements.py evaluates the statements on them).

Where the instances come from:

* **literal populations** - every population written out in the source of tests/ and lfverify/ (a call of
  ``ExactPopulation``, ``Population``, ``FiniteSupportPopulation`` or ``FiniteEta`` whose arguments are literals:
  numbers, ``F(p, q)``, tuples and lists), found by reading the source, so that a population pinned tomorrow is an
  instance without being registered; each is paired with a panel of metrics (F_1, Jaccard, accuracy and Thm. 7's M1
  with a_{0,-1} = -1) and piecewise-linear losses (exact);
* **the proofs' pinned witnesses** (``lfverify.proofs.corrected_calibration.WITNESSES``: ERRATA.md's
  counterexamples and the property tests' populations, each with its metric and tau-logistic loss);
* **the adversary's corpus** (tests/proofs/test_adversary.py: populations on every boundary the statements mention,
  and its random populations) and the **reference populations** of the simulations and the testing kit (finite:
  exact; Gaussian and bounded-logistic: :mod:`continuous_oracle`).

The facts - U_phi*, U-dagger, the signs a maximiser of U_phi takes at each atom, every optimal labelling - are
computed by tests/proofs/adversary.py, which shares no code with lfverify (a direct search on U_phi, never Dinkelbach's
route that the proofs take).  A literal population outside the statements' reach is listed with the reason
(:data:`SKIPPED`): posteriors at 0 or 1 (no finite pointwise minimiser), weights that do not sum to 1, or more atoms
than exact enumeration affords.

Private: lfverify.proofs._executable's FiniteCase, RateCase, RademacherCase, Loss and Metric, the case types the
executable statements take, which these instances build.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import math
from fractions import Fraction as F
from pathlib import Path

import adversary as A
import mpmath as mp
import numpy as np

from lfverify.core import SurrogateLoss, surrogate_scores
from lfverify.core import accuracy as core_accuracy
from lfverify.proofs._executable import FiniteCase, Loss, Metric

ROOT = Path(__file__).resolve().parents[2]
#: the folders whose source is read for literal populations
SCANNED = ("tests", "lfverify")
#: constructor name -> (the positions of weights and eta among the positional arguments, their keyword names)
CONSTRUCTORS = {
    "ExactPopulation": ((0, 1), ("weights", "eta")),
    "Population": ((0, 1), ("weights", "eta")),
    "FiniteSupportPopulation": ((1, 2), ("weights", "eta")),
    "FiniteEta": ((1, 0), ("weights", "eta")),
}
#: more atoms than this are not enumerated exactly (5^J vertex combinations for a piecewise-linear loss)
MAX_ATOMS = 5
PANEL_METRICS = {"F_1": A.f_beta(1), "Jaccard": A.jaccard(), "accuracy": A.accuracy(),
                 "M1": A.Metric("M1 (a_{0,-1} = -1)", F(2), F(-1), F(1), F(-1), F(1), F(1), F(1), F(0))}
PANEL_LOSSES = (A.kinked_linear(F(1, 3)), A.hinge())


class NotLiteral(Exception):
    pass


def _literal(node):
    """The value of a literal expression: numbers (floats by their decimal text), F(p, q) / Fraction(p, q), unary
    minus, + - * /, tuples, lists, np.array(literal, ...) and float(literal) (kept exact)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return F(repr(node.value)) if isinstance(node.value, float) else F(node.value)
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_literal(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = _literal(node.left), _literal(node.right)
        if isinstance(left, tuple) or isinstance(right, tuple):
            raise NotLiteral("arithmetic on a sequence")
        op = type(node.op)
        return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}.get(op) if op is not ast.Div \
            else left / right
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("F", "Fraction") and not node.keywords:
            return F(*(_literal(a) for a in node.args))
        if name in ("array", "asarray", "float") and node.args:
            return _literal(node.args[0])
    raise NotLiteral(ast.dump(node)[:60])


def _arguments(call: ast.Call, positions, names):
    out = []
    for position, name in zip(positions, names):
        keyword = next((k.value for k in call.keywords if k.arg == name), None)
        node = keyword if keyword is not None else (call.args[position] if position < len(call.args) else None)
        if node is None:
            raise NotLiteral(f"no {name}")
        out.append(_literal(node))
    return out


SKIPPED: list = []  #: (source, reason) of literal populations that are not instances


@functools.lru_cache(maxsize=None)
def literal_populations() -> tuple:
    """(source "path:line", weights, eta) of every distinct literal population in the scanned source (first
    occurrence); the ones outside the statements' reach go to :data:`SKIPPED` with the reason."""
    seen, out = set(), []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name not in CONSTRUCTORS:
                    continue
                source = f"{path.relative_to(ROOT)}:{node.lineno}"
                try:
                    weights, eta = _arguments(node, *CONSTRUCTORS[name])
                except (NotLiteral, TypeError, ZeroDivisionError):
                    continue  # built from variables: not a pinned population
                weights, eta = tuple(weights), tuple(eta)
                if (weights, eta) in seen:
                    continue
                seen.add((weights, eta))
                reason = _unreachable(weights, eta)
                if reason:
                    SKIPPED.append((source, reason))
                else:
                    out.append((source, weights, eta))
    return tuple(out)


def _unreachable(weights, eta) -> str:
    if len(weights) != len(eta) or not weights:
        return "weights and eta differ in length"
    if any(w <= 0 for w in weights) or sum(weights) != 1:
        return f"weights {tuple(map(str, weights))} are not a probability vector"
    if not all(0 < e < 1 for e in eta):
        return "a posterior at 0 or 1 (no finite pointwise minimiser; the hypothesis P(0 < eta < 1) = 1 fails)"
    if len(eta) > MAX_ATOMS:
        return f"{len(eta)} atoms: more than exact enumeration affords ({MAX_ATOMS})"
    return ""


def _decimal(x) -> F:
    """A float of a module-level population at its shortest decimal text (0.3 is 3/10: the number its author wrote)."""
    return F(repr(float(x)))


@functools.lru_cache(maxsize=None)
def module_populations() -> tuple:
    """(source "module.NAME", population) of every population object defined at the top level of a module of the
    package (the simulations' and the testing kit's reference populations, finite and continuous)."""
    import importlib
    import pkgutil

    import lfverify
    from lfverify.core import FiniteSupportPopulation

    found, seen = [], set()
    for info in pkgutil.walk_packages(lfverify.__path__, "lfverify."):
        if info.name.endswith("__main__"):
            continue  # running it is the command line
        module = importlib.import_module(info.name)
        for attr, value in sorted(vars(module).items()):
            if attr.isupper() and type(value).__name__.endswith("Population") and id(value) not in seen:
                seen.add(id(value))
                found.append((f"{info.name}.{attr}", value))
    out = []
    for source, value in found:
        if isinstance(value, FiniteSupportPopulation):
            weights = tuple(_decimal(w) for w in value.weights)
            eta = tuple(_decimal(e) for e in value.eta)
            reason = _unreachable(weights, eta)
            if reason:
                SKIPPED.append((source, reason))
                continue
            out.append((source, weights, eta))
        else:
            out.append((source, value))
    return tuple(out)


# ---------------------------------------------------------------------------------------------- conversion
def metric_of(m: A.Metric) -> Metric:
    return Metric(m.name, m.a0p, m.a0n, m.a1p, m.a1n, m.c0, m.d0, m.c1, m.d1)


def loss_of(loss: A.Loss) -> Loss:
    """The adversary's loss as the statements see it: one-sided slopes at 0 (phi'(0-) exact where rational, else
    -1/(2 ln 2) for the base-2 logistic family at the adversary's precision) and the properties it established.

    A piecewise-linear loss is read from its pieces (:func:`linear_loss_facts`): its slopes at 0, phi >= 0 and
    rho (undefined where phi'(0-) = 0), and the flags the adversary's Loss carries must be the facts of its pieces.
    The other losses (the tau-logistic family and the adversary's smooth kinked losses) are non-negative by formula."""
    if loss.kind == "linear":
        facts = linear_loss_facts(loss.pieces)
        flags = {k: getattr(loss, k) for k in ("convex", "nonincreasing", "dominates")}
        if flags != {k: facts[k] for k in flags}:
            raise ValueError(f"{loss.name}: the flags {flags} are not the facts of its pieces {facts}")
        left, right = facts["left_slope"], facts["right_slope"]
        if left != 0 and loss.rho != right / left:
            raise ValueError(f"{loss.name}: rho = {loss.rho}, but its pieces have phi'(0+)/phi'(0-) = {right / left}")
        return Loss(loss.name, left, right, nonnegative=facts["nonnegative"], convex=loss.convex,
                    nonincreasing=loss.nonincreasing, dominates=loss.dominates,
                    strictly_convex_pieces=loss.strictly_convex_pieces, ratio=right / left if left != 0 else None)
    if loss.dm is not None:
        left = loss.dm
    else:
        with mp.workdps(A.DPS):
            left = -1 / (2 * mp.log(2))
    right = loss.rho * left if isinstance(left, F) else mp.mpf(loss.rho.numerator) / loss.rho.denominator * left
    return Loss(loss.name, left, right, nonnegative=True, convex=loss.convex, nonincreasing=loss.nonincreasing,
                dominates=loss.dominates, strictly_convex_pieces=loss.strictly_convex_pieces, ratio=loss.rho)


def linear_loss_facts(pieces) -> dict:
    """The exact facts of a continuous piecewise-linear loss given as the adversary's pieces ((start, end, slope,
    intercept), ... in order, covering R; None for an infinite end): its one-sided slopes at 0 and whether it is
    convex (slopes non-decreasing), non-increasing (every slope <= 0), non-negative and >= 1{t <= 0} (checked at the
    breakpoints, at 0 and on the two unbounded pieces).  Raises ValueError for pieces that do not describe a
    continuous function on R."""
    pieces = tuple((s, e, F(m), F(c)) for s, e, m, c in pieces)
    if not pieces or pieces[0][0] is not None or pieces[-1][1] is not None:
        raise ValueError("the pieces must cover R (the first starts at -oo, the last ends at +oo)")
    for (s0, e0, m0, c0), (s1, _e1, m1, c1) in zip(pieces, pieces[1:]):
        if e0 is None or e0 != s1 or (s0 is not None and not s0 < e0):
            raise ValueError(f"pieces out of order at {e0}")
        if m0 * e0 + c0 != m1 * e0 + c1:
            raise ValueError(f"the pieces do not meet at {e0}")

    def value(t):
        return next(m * t + c for s, e, m, c in pieces if (s is None or s <= t) and (e is None or t <= e))

    def slope_at(t, side):  # side -1: phi'(t-), +1: phi'(t+)
        return next(m for s, e, m, c in pieces if (s is None or s < t or (side > 0 and s <= t))
                    and (e is None or t < e or (side < 0 and t <= e)))

    slopes = [m for _, _, m, _ in pieces]
    breaks = [e for _, e, _, _ in pieces[:-1]]
    left_tail, right_tail = slopes[0], slopes[-1]  # phi -> -oo at -oo iff the first slope > 0, at +oo iff the last < 0

    def at_least(bound, points, left_unbounded, right_unbounded):
        """phi >= bound at the points and on the unbounded pieces that the region contains."""
        return (all(value(t) >= bound for t in points) and not (left_unbounded and left_tail > 0)
                and not (right_unbounded and right_tail < 0))

    nonnegative = at_least(0, breaks + [F(0)], True, True)
    dominates = (at_least(1, [t for t in breaks if t <= 0] + [F(0)], True, False)
                 and at_least(0, [t for t in breaks if t > 0] + [F(0)], False, True))
    return {"left_slope": slope_at(F(0), -1), "right_slope": slope_at(F(0), 1), "nonnegative": nonnegative,
            "convex": all(a <= b for a, b in zip(slopes, slopes[1:])), "nonincreasing": all(m <= 0 for m in slopes),
            "dominates": dominates}


def linear_loss(name: str, pieces) -> A.Loss:
    """The adversary's piecewise-linear Loss with every flag set from :func:`linear_loss_facts` (rho = phi'(0+) /
    phi'(0-); where phi'(0-) = 0 it is undefined and the adversary's field, unused by its search, holds 0)."""
    pieces = tuple((s if s is None else F(s), e if e is None else F(e), F(m), F(c)) for s, e, m, c in pieces)
    facts = linear_loss_facts(pieces)
    left, right = facts["left_slope"], facts["right_slope"]
    return A.Loss(name, right / left if left != 0 else F(0), left, "linear", pieces, convex=facts["convex"],
                  nonincreasing=facts["nonincreasing"], dominates=facts["dominates"])


def finite_case(name: str, source: str, metric: A.Metric, loss: A.Loss, pop: A.Population) -> FiniteCase:
    """The case with the adversary's facts (its direct search for the maximiser; every labelling enumerated)."""
    truth = A.analyse(metric, loss, pop)
    opt = truth.opt
    return FiniteCase(name, source, metric_of(metric), loss_of(loss), tuple(pop.weights), tuple(pop.eta),
                      opt.value, truth.u_dagger, tuple(opt.can_pos), tuple(opt.can_neg), tuple(opt.can_zero),
                      frozenset(truth.optimal_labellings))


def _package_metric(values) -> A.Metric:
    """An 8-tuple of lfverify.proofs (a0p, a0n, a1p, a1n, c0, d0, c1, d1) as the adversary's Metric."""
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (F(v) for v in values)
    return A.Metric(f"({', '.join(map(str, values))})", a0p, a0n, c0, d0, a1p, a1n, c1, d1)


# ---------------------------------------------------------------------------------------------- the corpus
def witness_cases() -> list:
    """The proofs' pinned witnesses with their metric and tau-logistic loss."""
    from lfverify.proofs.corrected_calibration import WITNESSES

    return [finite_case(f"witness: {name}", "lfverify/proofs/corrected_calibration.py WITNESSES",
                        _package_metric(coef), A.tau_logistic(tau) if tau != 1 else A.logistic(),
                        A.Population(weights, eta))
            for name, coef, weights, eta, tau in WITNESSES]


def adversary_cases() -> list:
    """tests/proofs/test_adversary.py's boundary populations and its random ones."""
    from test_adversary import BOUNDARY, RANDOM

    return [finite_case(f"adversary: {name}", "tests/proofs/test_adversary.py", metric, loss, pop)
            for name, metric, loss, pop in BOUNDARY + RANDOM]


#: (name, metric, loss, weights, eta) of the instances the referee of review 2 (issue 40) pinned: Thm. 7 (corrected)'s
#: hypotheses hold while the printed (c), with U(f*), fails (U(f*) = 0: a loss below 1{t <= 0}), and a loss that is
#: not strictly convex with a unique maximiser (the hinge loss, atoms away from its one interval eta)
REVIEW_FINITE = (
    ("review 2: Jaccard, (1/2) kinked-linear(1/4), weights (1/2, 1/2), eta (1/5, 1/2)", A.jaccard(),
     linear_loss("(1/2) kinked-linear(1/4): (1 - t)/2 (t <= 0), max(0, 1 - t/4)/2 (t > 0)",
                 tuple((s_, e, m / 2, c / 2) for s_, e, m, c in A.kinked_linear(F(1, 4)).pieces)),
     (F(1, 2), F(1, 2)), (F(1, 5), F(1, 2))),
    ("review 2: F_1, hinge, weights (1/2, 1/2), eta (1/10, 9/10)", A.f_beta(1), A.hinge(), (F(1, 2), F(1, 2)),
     (F(1, 10), F(9, 10))),
)


def review_cases() -> list:
    return [finite_case(name, "tests/proofs/statement_instances.py REVIEW_FINITE", metric, loss, A.Population(w, e))
            for name, metric, loss, w, e in REVIEW_FINITE]


def literal_cases() -> list:
    """Every literal population, with the panel of metrics and piecewise-linear losses."""
    cases = []
    finite_modules = tuple(p for p in module_populations() if len(p) == 3)
    for source, weights, eta in literal_populations() + finite_modules:
        pop = A.Population(weights, eta)
        for mname, metric in PANEL_METRICS.items():
            for loss in PANEL_LOSSES:
                cases.append(finite_case(f"{source}: {mname}, {loss.name}", source, metric, loss, pop))
    return cases


def floor_loss_cases() -> list:
    """The floor loss max(1, 1 - t) (U_phi* = 0 for F_beta): instances where the hypothesis U_phi* > 0 fails."""
    pop = A.Population((F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)))
    return [finite_case(f"floor loss, {m}", "tests/proofs/statement_instances.py", PANEL_METRICS[m], A.floor_loss(),
                        pop)
            for m in ("F_1", "Jaccard")]


def piecewise_linear_loss(name: str, value_at_zero: F, slopes_left, slopes_right, step: F = F(1)) -> A.Loss:
    """A piecewise-linear loss with breakpoints at 0, +-step, +-2 step, ...: ``slopes_left`` on (-oo, 0] from 0
    outwards, ``slopes_right`` on (0, oo), value ``value_at_zero`` at 0; the last slope on each side extends to
    infinity.  Its properties (convex, non-increasing, >= 0, >= 1{t <= 0}) are read off the pieces exactly."""
    pieces, x, v = [], F(0), F(value_at_zero)
    right = []
    for k, slope in enumerate(slopes_right):
        end = None if k == len(slopes_right) - 1 else x + step
        right.append((x, end, F(slope), v - F(slope) * x))
        if end is not None:
            v, x = v + F(slope) * step, end
    left, x, v = [], F(0), F(value_at_zero)
    for k, slope in enumerate(slopes_left):
        start = None if k == len(slopes_left) - 1 else x - step
        left.append((start, x, F(slope), v - F(slope) * x))
        if start is not None:
            v, x = v - F(slope) * step, start
    pieces = tuple(reversed(left)) + tuple(right)
    slopes = [sl for _, _, sl, _ in pieces]
    convex = all(a <= b for a, b in zip(slopes, slopes[1:]))
    nonincreasing = all(sl <= 0 for sl in slopes)
    last_value = min(sl * e + b for st, e, sl, b in pieces if e is not None) if len(pieces) > 1 else value_at_zero
    nonnegative = nonincreasing and slopes[-1] == 0 and last_value >= 0
    dominates = nonincreasing and F(value_at_zero) >= 1 and nonnegative
    dm, dp = F(slopes_left[0]), F(slopes_right[0])
    return A.Loss(name, dp / dm if dm else F(0), dm, "linear", pieces, convex=convex, nonincreasing=nonincreasing,
                  dominates=dominates), nonnegative


def random_loss_cases(count: int = 12, seed: int = 20261206) -> list:
    """The class the statements speak of, beyond the named families: convex, non-increasing piecewise-linear losses
    with random slopes, kinks and offsets - some with a non-zero infimum, some below 1{t <= 0} or negative
    somewhere (then a hypothesis fails and the case is out of scope) - on random populations, F_1 and Jaccard."""
    import random

    rng = random.Random(seed)
    out = []
    for i in range(count):
        slopes_right = sorted((-F(rng.randint(0, 8), 4) for _ in range(2)), reverse=False)
        slopes_left = sorted((-F(rng.randint(1, 12), 4) for _ in range(2)), reverse=True)
        slopes_right[-1] = F(0)  # bounded below: the last piece is flat
        slopes_left = [min(slopes_left[0], slopes_right[0])] + slopes_left[1:]
        value = F(rng.randint(2, 8), 4)
        loss, nonnegative = piecewise_linear_loss(f"random piecewise-linear {i}", value, slopes_left, slopes_right,
                                                  step=F(rng.randint(1, 4), 2))
        pop = A.random_population(rng, rng.randint(2, 3))
        for mname in ("F_1", "Jaccard"):
            case = finite_case(f"random loss {i}, {mname}", "tests/proofs/statement_instances.py random_loss_cases",
                               PANEL_METRICS[mname], loss, pop)
            out.append(dataclasses.replace(case, loss=dataclasses.replace(case.loss, nonnegative=nonnegative)))
    return out


@functools.lru_cache(maxsize=None)
def finite_cases() -> tuple:
    return tuple(witness_cases() + adversary_cases() + literal_cases() + random_loss_cases() + review_cases())


#: the continuous cases' metrics and tau-logistic losses
CONTINUOUS_METRICS = ("F_1", "Jaccard", "accuracy")
CONTINUOUS_TAUS = (F(1, 20), F(1, 2), F(1))


@functools.lru_cache(maxsize=None)
def continuous_cases() -> tuple:
    """The package's Gaussian and bounded-logistic populations (eta(X) with a density) with Table 1's metrics and
    tau-logistic losses; facts by quadrature (tests/proofs/continuous_oracle.py)."""
    import continuous_oracle as C

    out = []
    for source, population in (p for p in module_populations() if len(p) == 2):
        kind = type(population).__name__
        law = C.gaussian_log_odds(population) if kind == "GaussianPopulation" else C.bounded_logistic_log_odds(
            population)
        for mname in CONTINUOUS_METRICS:
            for tau in CONTINUOUS_TAUS:
                out.append(C.continuous_case(f"{source}: {mname}, tau-logistic(tau={tau})", source,
                                             metric_of(PANEL_METRICS[mname]), tau, law))
    return tuple(out)


class BoundaryPopulation:
    """A finite population like the adversary's, except that posteriors 0 and 1 are allowed (the adversary's
    Population refuses them: they violate the hypothesis P(0 < eta(X) < 1) = 1, which is what a necessity witness
    of that hypothesis needs); the adversary's search reads only ``weights``, ``eta`` and ``prior``."""

    def __init__(self, weights, eta):
        self.weights, self.eta = tuple(F(w) for w in weights), tuple(F(e) for e in eta)
        if sum(self.weights) != 1 or not all(w > 0 for w in self.weights) or len(self.weights) != len(self.eta):
            raise ValueError("weights must be a probability vector, one per posterior")
        if not all(0 <= e <= 1 for e in self.eta):
            raise ValueError("posteriors must lie in [0, 1]")

    @property
    def prior(self):
        return sum(w * e for w, e in zip(self.weights, self.eta))


def _atom_extremes(function, loss):
    """(min, max) over x of a piecewise-linear function of (phi(x), phi(-x)), None for an end that is infinite."""
    points = sorted({p for b in loss.breakpoints() for p in (b, -b)} | {F(0)})
    far = 1 + max(abs(p) for p in points)
    values = [function(x) for x in points + [-far, far]]
    low_tail = function(-2 * far) - function(-far)  # the change one step further out on each unbounded piece
    high_tail = function(2 * far) - function(far)
    low = None if low_tail < 0 or high_tail < 0 else min(values)
    high = None if low_tail > 0 or high_tail > 0 else max(values)
    return low, high


def well_posed(metric: A.Metric, loss: A.Loss, pop, u_star) -> str:
    """"" if U_phi is a finite function of f with its supremum attained and equal to ``u_star`` (the adversary's
    value), else why not.  Checked exactly for a piecewise-linear loss from the definitions, atom by atom (Eq. (3)-(4)
    separate over the atoms): D_phi(f) > 0 for every f (the minimum of the denominator's atom terms, none unbounded
    below), and at the level u = u_star every atom's N - u D term attains its supremum and these add up to 0 - the
    two facts that make u_star = max_f U_phi(f).  A loss for which either fails has U_phi* infinite or unattained,
    where the adversary's vertex search (a finite box) is not the truth."""
    if loss.kind != "linear":
        raise ValueError("well_posed checks piecewise-linear losses only")
    low, total = F(0), F(0)
    for w, e in zip(pop.weights, pop.eta):
        def den(x, e=e):
            return A._atom_terms(metric, (loss.value(x), loss.value(-x)), e)[1]

        def excess(x, e=e):
            num_, den_ = A._atom_terms(metric, (loss.value(x), loss.value(-x)), e)
            return num_ - u_star * den_

        d_min = _atom_extremes(den, loss)[0]
        if d_min is None:
            return f"the denominator is unbounded below at the atom eta = {e}"
        low += w * d_min
        top = _atom_extremes(excess, loss)[1]
        if top is None:
            return f"N - u D is unbounded above at the atom eta = {e} (U_phi* is not attained)"
        total += w * top
    if not low > 0:
        return f"D_phi(f) reaches {low} <= 0"
    if total != 0:
        return f"sup_f N - u D = {total} != 0 at u = {u_star}: the search's value is not sup U_phi"
    return ""


def necessity_case(name: str, metric: A.Metric, loss: A.Loss, pop) -> FiniteCase:
    """A finite case built to violate one hypothesis: the adversary's facts, after :func:`well_posed` has confirmed
    that its value is the attained supremum of U_phi (a violated hypothesis can make U_phi unbounded or its supremum
    unattained, where a search over a finite box would not be the truth)."""
    case = finite_case(name, "tests/proofs/statement_instances.py necessity_cases", metric, loss, pop)
    reason = well_posed(metric, loss, pop, case.u_star)
    if reason:
        raise ValueError(f"{name}: {reason}")
    return case


#: the losses of the necessity witnesses, each violating one hypothesis on phi (flags from linear_loss_facts)
NECESSITY_LOSSES = {
    # phi'(0+) = -2 < phi'(0-) = -1: a concave kink (not convex); non-increasing, >= 1{t <= 0}
    "concave kink": linear_loss("concave kink: 1 - t (t <= 0), max(0, 1 - 2t) (t > 0)", A.kinked_linear(F(2)).pieces),
    # convex, >= 1{t <= 0}, phi'(0-) = -1, but increasing on (0, oo) (phi'(0+) = 2: rho = -2)
    "V": linear_loss("V: max(1 - t, 1 + 2t)", ((None, F(0), F(-1), F(1)), (F(0), None, F(2), F(1)))),
    # 8 + the hinge loss: convex, non-increasing, >= 1{t <= 0}, phi'(0-) = -1, rho = 1; large enough that U_phi* < 0
    "8 + hinge": linear_loss("8 + hinge: 9 - t (t <= 1), 8 (t > 1)",
                             ((None, F(1), F(-1), F(9)), (F(1), None, F(0), F(8)))),
    # convex, non-negative, phi'(0-) = -1, U_phi* <= U-dagger, but increasing on (0, oo) (rho = -1); phi(0) = 1/2
    "V half": linear_loss("V half: max(1/2 - t, 1/2 + t)", ((None, F(0), F(-1), F(1, 2)), (F(0), None, F(1), F(1, 2)))),
    # convex, non-increasing, non-negative, but phi(0) = 1/10 < 1: below 1{t <= 0}
    "tenth": linear_loss("kinked-linear(1/2)/10: (1 - t)/10 (t <= 0), max(0, 1 - t/2)/10 (t > 0)",
                         tuple((s, e, m / 10, c / 10) for s, e, m, c in A.kinked_linear(F(1, 2)).pieces)),
    # 1 + kinked-linear(1/2) >= 1 everywhere: U_phi <= 0 for F_beta and Jaccard, so U_phi* = 0
    "lifted": linear_loss("lifted: 2 - t (t <= 0), 2 - t/2 (0 < t <= 2), 1 (t > 2)",
                          ((None, F(0), F(-1), F(2)), (F(0), F(2), F(-1, 2), F(2)), (F(2), None, F(0), F(1)))),
}

#: the metrics of the necessity witnesses (adversary order: a0p, a0n, c0, d0, a1p, a1n, c1, d1)
NECESSITY_METRICS = {
    # Definition 1 fails (a_{0,-1} = 1/2 > 0, and U < 0 at TP = FP = 0); with U_phi* = 1/2 = a_{0,-1}/a_{1,-1}, c = 0
    "a0n > 0": A.Metric("(TP + FP/2 - pi/2)/(FP + pi)", F(1), F(1, 2), F(0), F(-1, 2), F(0), F(1), F(0), F(1)),
    "recall": A.Metric("recall TP/pi", F(1), F(0), F(0), F(0), F(0), F(0), F(0), F(1)),  # a_{0,-1} = a_{1,-1} = 0
    # Definition 1 fails only through U <= 1: twice F_1, U-dagger up to 2
    "2 F_1": A.Metric("2 F_1 = 4 TP/(TP + FP + pi)", F(4), F(0), F(0), F(0), F(1), F(1), F(0), F(1)),
    # Definition 1 holds at pi <= 1/2 (U = 41/40 > 1 at pi = 11/20; the witness has pi = 17/40), Da1 = 3/2 > 0
    # (condition (2) fails) and Da0 - Da1 U-dagger < 0 at U-dagger = 77/80
    "Da1 > 0": A.Metric("(TP - FP/4 + 3/4 + pi/2)/(2 TP + FP/2 + 1)", F(1), F(-1, 4), F(3, 4), F(1, 2), F(2),
                        F(1, 2), F(1), F(0)),
    # Definition 1 and (3) hold (numerator in [0, 2], denominator >= 12); with 8 + hinge, U_phi* = -324/397 < 0
    # (review 3 of issue 40: the criterion's (d) needs U_phi* > 0)
    "negative U*": A.Metric("(2TP - 2FP + 2 - 2pi)/(TP + FP/2 + 12)", F(2), F(-2), F(2), F(-2), F(1), F(1, 2),
                            F(12), F(0)),
    # Definition 1 and (1)-(3) hold, and U(TP = 0, FP = 1 - pi) > 0: U_phi* > 0 for a loss >= 1 everywhere
    "smoothed F_1": A.Metric("smoothed F_1 (2 TP + 1)/(TP + FP + pi + 1)", F(2), F(0), F(1), F(0), F(1), F(1),
                             F(1), F(1)),
}

#: (name, metric, loss, weights, eta) of every finite necessity witness; the numbers written out
NECESSITY_FINITE = (
    ("necessity: F_1, concave kink 1 - t, then max(0, 1 - 2t), weights (1/4, 3/4), eta (1/10, 1/4)",
     A.f_beta(1), "concave kink", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: Jaccard, concave kink 1 - t, then max(0, 1 - 2t), weights (1/4, 3/4), eta (1/10, 1/4)",
     A.jaccard(), "concave kink", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: smoothed F_1 (2TP + 1)/(TP + FP + pi + 1), V max(1 - t, 1 + 2t), weights (1/4, 3/4), "
     "eta (1/10, 1/4)", "smoothed F_1", "V", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    # the unique maximiser is f = 0 (U_phi* = 17/74 <= U-dagger = 30/77): sgn 0 = -1 gives U = 0 (confirmed by
    # FiniteSupportPopulation.surrogate_utility maximised over a grid and Nelder-Mead; issue 40, review 2)
    ("necessity: F_1, V max(1/2 - t, 1/2 + t), weights (1/4, 3/4), eta (1/10, 1/4)",
     A.f_beta(1), "V half", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: Jaccard, V max(1/2 - t, 1/2 + t), weights (1/4, 3/4), eta (1/10, 1/4)",
     A.jaccard(), "V half", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    # U_phi* = -324/397 (attained at f = -1) <= U-dagger = 44/511; H = a1p (U-dagger + U*) < 0, so the criterion's
    # (d) fails: rho = 1 <= c alpha/(a gamma) yet the atom lies in (delta, eta_lo) (confirmed by the referee of review
    # 3 with exact fractions and FiniteSupportPopulation)
    ("necessity: (2TP - 2FP + 2 - 2pi)/(TP + FP/2 + 12), 8 + hinge, one atom, eta 11/20", "negative U*", "8 + hinge",
     (F(1),), (F(11, 20),)),
    ("necessity: F_1, kinked-linear(1/2)/10, weights (1/4, 3/4), eta (1/10, 1/4)",
     A.f_beta(1), "tenth", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: Jaccard, kinked-linear(1/2)/10, weights (1/4, 3/4), eta (1/10, 1/4)",
     A.jaccard(), "tenth", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: F_1, lifted 1 + kinked-linear(1/2), weights (1/4, 3/4), eta (1/10, 1/4)",
     A.f_beta(1), "lifted", (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: recall, kinked-linear(1/3), weights (1/4, 3/4), eta (1/10, 1/4)",
     "recall", A.kinked_linear(F(1, 3)), (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: (TP + FP/2 - pi/2)/(FP + pi), kinked-linear(1/3), weights (1/4, 3/4), eta (1/10, 1/4)",
     "a0n > 0", A.kinked_linear(F(1, 3)), (F(1, 4), F(3, 4)), (F(1, 10), F(1, 4))),
    ("necessity: 2 F_1, kinked-linear(3/10), weights (1/2, 1/2), eta (2/5, 19/20)",
     "2 F_1", A.kinked_linear(F(3, 10)), (F(1, 2), F(1, 2)), (F(2, 5), F(19, 20))),
    ("necessity: (TP - FP/4 + 3/4 + pi/2)/(2TP + FP/2 + 1), kinked-linear(1/3), weights (1/2, 1/2), eta (1/10, 3/4)",
     "Da1 > 0", A.kinked_linear(F(1, 3)), (F(1, 2), F(1, 2)), (F(1, 10), F(3, 4))),
)


def _necessity_finite_cases() -> list:
    out = []
    for name, metric, loss, weights, eta in NECESSITY_FINITE:
        metric = NECESSITY_METRICS[metric] if isinstance(metric, str) else metric
        loss = NECESSITY_LOSSES[loss] if isinstance(loss, str) else loss
        out.append(necessity_case(name, metric, loss, BoundaryPopulation(weights, eta)))
    return out


#: the loss of review 4's witness (issue 40): convex, non-increasing, phi'(0-) = -1, rho = 1/4, unbounded below
UNBOUNDED_LOSS = linear_loss("max(1 - t, 1 - t/4) (unbounded below)",
                             ((None, F(0), F(-1), F(1)), (F(0), None, F(-1, 4), F(1))))


def unattained_jaccard_case() -> FiniteCase:
    """Review 5's witness that phi >= 0 is needed in Thm. 2 (corrected) too: Jaccard, the same loss, one atom at
    eta = 1/2.  For f > 0: N = f/8, D = 1 + f/2 (> 0), so U_phi(f) = f/(8 + 4f) rises to 1/4 unattained (U_phi is
    defined where D_phi > 0, and U_phi <= 0 there for f <= 0); U-dagger = U(+1) = 1/2, U(-1) = 0; maximising sequences
    go to +oo (calibrated).  Checked like unattained_case."""
    return FiniteCase("necessity: Jaccard, max(1 - t, 1 - t/4) (unbounded below), one atom, eta 1/2",
                      "tests/proofs/statement_instances.py unattained_jaccard_case", metric_of(A.jaccard()),
                      loss_of(UNBOUNDED_LOSS), (F(1),), (F(1, 2),), F(1, 4), F(1, 2), (True,), (False,), (False,),
                      frozenset({(1,)}), attained=False)


def unattained_case() -> FiniteCase:
    """Review 4's witness that phi >= 0 is needed: F_1, the loss max(1 - t, 1 - t/4) (unbounded below, D_phi > 0 for
    every f), one atom at eta = 1/4.  Written out, for f > 0: N = f/8, D = 3/2 + 11 f/16, so U_phi(f) = 2f/(24 + 11f)
    increases to U_phi* = 2/11 without reaching it (for f <= 0, U_phi <= 0); U-dagger = U(+1) = 2/5, U(-1) = 0.  No
    maximiser exists; maximising sequences go to +oo, so their sign is +1 from some index on (calibrated).  The
    adversary's vertex search assumes attainment, so the facts are written here and checked by
    tests/proofs/test_executable_statements.py against the surrogate utility evaluated exactly."""
    return FiniteCase("necessity: F_1, max(1 - t, 1 - t/4) (unbounded below), one atom, eta 1/4",
                      "tests/proofs/statement_instances.py unattained_case", metric_of(A.f_beta(1)),
                      loss_of(UNBOUNDED_LOSS),
                      (F(1),), (F(1, 4),), F(2, 11), F(2, 5), (True,), (False,), (False,), frozenset({(1,)}),
                      attained=False)


def _necessity_rademacher_cases() -> list:
    """The corrected lemma without convexity: phi = 1 - t on t <= 0 and 1 - 2t on t > 0 (two linear pieces,
    gamma_{+-1} = 0; phi'(0-) = -1, phi'(0+) = -2, J = -1 < 0), W~'_1 (kappa = 1), one point with y = +1 and
    F = {-1, +1}: R_S = max(|phi'(-1)|, |phi'(1)|) = 2 > kappa (|phi'(0+)| E|sigma| + J R_S(I_F)) = 2 - 1."""
    loss = _TwoPieceLoss("concave kink 1 - t, then 1 - 2t (phi'(0-) = -1, phi'(0+) = -2)", lambda t: mp.mpf(-1),
                         lambda t: mp.mpf(-2), mp.mpf(0), mp.mpf(0), convex=False)
    return [_rademacher_case("necessity: concave kink 1 - t, then 1 - 2t, n = 1, y = +1, F = {-1, +1}",
                             "tests/proofs/statement_instances.py necessity_cases", loss, 1, [[F(-1)], [F(1)]], [1])]


def _necessity_rate_cases() -> list:
    """Lemma 4's bound without convexity: the tau-logistic formula with tau = 2 (log2(1 + e^{-t}) on t <= 0,
    log2(1 + e^{-2t}) on t > 0: phi'(0-) = -1/(2 ln 2), phi'(0+) = -1/ln 2, J = -1/(2 ln 2) < 0), F_1 (kappa_0 = 2,
    kappa_1 = 1, pi = 1/2 known as in E33's witness), n = 4, d = 1, c_X = 1.1, c_Theta = 1; the constants are the
    sups on |xi| <= c_X c_Theta as for E33's witness (rho_k from |phi'| <= 1/ln 2, gamma = (1 + 4)/(4 ln 2))."""
    from lfverify.proofs._executable import RateCase

    ln2 = math.log(2)

    def phi(t):
        return math.log1p(math.exp(-(1 if t <= 0 else 2) * t)) / ln2

    c_x, c_theta = 1.1, 1.0
    r = c_x * c_theta
    params = dict(n=4, d=1, c_X=c_x, c_Theta=c_theta, c0=max(abs(2 * (1 - phi(s * r))) for s in (1, -1)),
                  c1=max(1 + phi(-r) + 0.5, phi(-r) + 0.5), rho0=2 / ln2, rho1=1 / ln2, gamma=5 / (4 * ln2),
                  kappa0=2.0, kappa1=1.0, slope_at_zero=1 / ln2, jump=-1 / (2 * ln2), delta=0.05, lower=None)
    with mp.workdps(30):
        left, right = -1 / (2 * mp.log(2)), -1 / mp.log(2)
    facts = Loss("tau-logistic formula with tau = 2 (concave kink)", left, right, convex=False,
                 gamma_minus=1 / (4 * ln2), gamma_plus=4 / (4 * ln2), ratio=F(2))
    return [RateCase("necessity: Lemma 4's bound for the tau-logistic formula with tau = 2 (concave kink), n = 4, "
                     "d = 1", "tests/proofs/statement_instances.py necessity_cases", params, facts)]


class _SteepNonConvexLoss(SurrogateLoss):
    """phi = 5001 - t on t <= 0 and 5001 - 100 t + t^2 / 2 on 0 < t <= 100, flat (1) beyond: non-negative,
    non-increasing, two smooth pieces (gamma_{-1} = 0, gamma_{+1} = 1), phi'(0-) = -1 > phi'(0+) = -100: not convex
    (J = phi'(0+) - phi'(0-) = -99)."""

    name = "5001 - t, then 5001 - 100 t + t^2/2 (flat from t = 100)"
    is_convex = False
    is_nonincreasing = True
    kinks = (0.0,)
    dominates_zero_one = True
    lipschitz = 100.0
    smoothness = (0.0, 1.0)

    def _value(self, m):
        q = np.minimum(m, 100.0)
        return np.where(m <= 0, 5001.0 - m, 5001.0 - 100.0 * q + q * q / 2)

    def _derivative(self, m, right):
        left = (m < 0) | ((m == 0) & (not right))
        return np.where(left, -1.0, np.minimum(-100.0 + m, 0.0))

    def _second_derivative(self, m, right):
        return np.where((m > 0) & (m < 100), 1.0, 0.0)


def _necessity_signed_jump_cases() -> list:
    """Lemma 4's bound, with the signed J, on a non-convex loss (referee round 21): :class:`_SteepNonConvexLoss`,
    accuracy (W~_1 = 1: kappa_0 = 1, kappa_1 = 0, c_1 = 1, rho_1 = 0), d = 1, X = 1, Y = +-1 with probability 1/2,
    c_X = c_Theta = 1, n = 2 (m = 1: V_hat(theta) = W~_1(z_2) W~_0'(theta, y_1) - W~_0(theta, y_1) W~_1'(theta, y_2)).
    The scores are lfverify.core's (Eq. (6)), exact in binary here (integers and halves); the left side's exact
    lower bound is E_S max over theta in {+-k/8} of |V_hat - V| over the four equiprobable samples, and c_0, rho_0
    are the scores' maxima over |xi| <= 1 (at the grid's ends and at 0+, where the pieces are monotone)."""
    from lfverify.proofs._executable import RateCase

    loss, metric = _SteepNonConvexLoss(), core_accuracy()

    def scores(xi, y):
        return tuple(F(float(v[0])) for v in surrogate_scores(metric, loss, np.array([float(xi)]), np.array([y]),
                                                              prior=0.5))

    def population_v(theta):
        s = [scores(theta, y) for y in (1, -1)]
        mean = [sum(F(1, 2) * t[k] for t in s) for k in range(4)]
        return mean[1] * mean[2] - mean[0] * mean[3]

    def sample_v(theta, y1, y2):
        (w0, _, dw0, _), (_, w1, _, dw1) = scores(theta, y1), scores(theta, y2)
        return w1 * dw0 - w0 * dw1

    thetas = [F(k, 8) for k in range(-8, 9) if k]
    lower = sum(F(1, 4) * max(abs(sample_v(t, y1, y2) - population_v(t)) for t in thetas)
                for y1 in (1, -1) for y2 in (1, -1))
    grid = [F(k, 64) for k in range(-64, 65)]
    c0 = max(abs(scores(x, y)[0]) for x in grid for y in (1, -1))
    rho0 = max(abs(scores(x, y)[2]) for x in grid for y in (1, -1))
    params = dict(n=2, d=1, c_X=1.0, c_Theta=1.0, c0=float(c0), c1=1.0, rho0=float(rho0), rho1=0.0, gamma=1.0,
                  kappa0=1.0, kappa1=0.0, slope_at_zero=100.0, jump=-99.0, delta=0.05, lower=lower)
    facts = Loss(loss.name, F(-1), F(-100), convex=False, gamma_minus=F(0), gamma_plus=F(1))
    return [RateCase("necessity: Lemma 4's bound with the signed J = -99 (5001 - t, then 5001 - 100 t + t^2/2, "
                     "flat from t = 100), accuracy, X = 1, n = 2, d = 1",
                     "tests/proofs/statement_instances.py necessity_cases", params, facts)]


@functools.lru_cache(maxsize=None)
def necessity_cases() -> tuple:
    """Instances built to violate one hypothesis of a statement each (its necessity witnesses; the statements'
    NECESSITY records name them): the floor loss, the finite witnesses of :data:`NECESSITY_FINITE` (each checked by
    :func:`well_posed`), a Rademacher case and a rate case without convexity."""
    return tuple(floor_loss_cases() + _necessity_finite_cases() + [unattained_case(), unattained_jaccard_case()]
                 + _necessity_rademacher_cases() + _necessity_rate_cases() + _necessity_signed_jump_cases())


def all_cases() -> tuple:
    """Every instance: the finite cases, then the continuous, Rademacher and rate cases, then the witnesses of
    necessity."""
    return finite_cases() + continuous_cases() + rademacher_cases() + rate_cases() + necessity_cases()


# ---------------------------------------------------------------------------------------------- App. C, Lemma 4
def _mp(x):
    return mp.mpf(x.numerator) / x.denominator if isinstance(x, F) else mp.mpf(x)


def sup_average(vectors, n):
    """E_sigma max_{v in vectors} |sum_i sigma_i v_i| / n, by enumeration of the 2^n sign vectors."""
    import itertools

    total = 0
    for sigma in itertools.product((1, -1), repeat=n):
        total += max(abs(sum(s * v for s, v in zip(sigma, vec))) for vec in vectors)
    return total / (2**n * n)


class _TwoPieceLoss:
    """phi = left on (-oo, 0], right on (0, oo): derivatives in mpmath and their Lipschitz constants."""

    def __init__(self, name, left_derivative, right_derivative, gamma_minus, gamma_plus, convex=True):
        self.name, self.dl, self.dr = name, left_derivative, right_derivative
        self.gamma_minus, self.gamma_plus, self.convex = gamma_minus, gamma_plus, convex

    def derivative(self, t):
        return self.dl(t) if t <= 0 else self.dr(t)

    def facts(self) -> Loss:
        left, right = self.dl(mp.mpf(0)), self.dr(mp.mpf(0))
        return Loss(self.name, left, right, convex=self.convex, nonincreasing=left <= 0 and right <= 0,
                    gamma_minus=self.gamma_minus, gamma_plus=self.gamma_plus)


def _rademacher_losses():
    ln2 = mp.log(2)

    def tau_logistic(tau):  # log2(1 + e^{-s t}): derivative -s sigmoid(-s t)/ln 2, |second| <= s^2/(4 ln 2)
        t_ = _mp(tau)
        return _TwoPieceLoss(f"tau-logistic(tau={tau})", lambda t: -1 / (1 + mp.exp(t)) / ln2,
                             lambda t: -t_ / (1 + mp.exp(t_ * t)) / ln2, 1 / (4 * ln2), t_ ** 2 / (4 * ln2))

    increasing = _TwoPieceLoss("log2(1 + e^t) (convex, increasing)", lambda t: 1 / (1 + mp.exp(-t)) / ln2,
                               lambda t: 1 / (1 + mp.exp(-t)) / ln2, 1 / (4 * ln2), 1 / (4 * ln2))
    return [tau_logistic(F(1, 2)), tau_logistic(F(1, 20)), tau_logistic(F(1)), increasing]


#: Eq. (6)'s multipliers s_{k,y} of W~'_k(xi, y) = s_{k,y} phi'(y xi), for F_1 (a0p, a0n, a1p, a1n) = (2, 0, 1, 1)
_MULTIPLIERS = {0: {1: -2, -1: 0}, 1: {1: 1, -1: -1}}


def _rademacher_case(name, source, loss: _TwoPieceLoss, k, values, labels, d=0, patterns=None):
    """values[f][i] = f(x_i) (rationals) of a finite class; patterns: the indicator class's vectors if given (the
    linear class), else those of the finite class."""
    from lfverify.proofs._executable import RademacherCase

    n = len(labels)
    with mp.workdps(40):
        s = _MULTIPLIERS[k]
        composed = [[s[y] * loss.derivative(y * _mp(v)) for v, y in zip(vec, labels)] for vec in values]
        indicator = patterns if patterns is not None else sorted(
            {tuple(1 if y * v <= 0 else 0 for v, y in zip(vec, labels)) for vec in values})
        return RademacherCase(
            name, source, loss.facts(), kappa=max(abs(x) for x in s.values()), lhs=sup_average(composed, n),
            rademacher_class=sup_average([[_mp(v) for v in vec] for vec in values], n),
            rademacher_indicators=_mp(sup_average(indicator, n)),
            sign_sum=_mp(sup_average([[1] * n], n)), n=n, d=d, patterns=len(indicator))


@functools.lru_cache(maxsize=None)
def rademacher_cases() -> tuple:
    """Finite classes on n <= 5 points and the linear class of R^2 on up to 6 points, for the tau-logistic losses
    and a convex increasing loss; the one-point class {0} (the smallest instance: R_S = |phi'(0)|)."""
    import random

    from lfverify.proofs.corrected_rademacher import indicator_patterns_2d

    rng = random.Random(20261206)
    out = []
    for loss in _rademacher_losses():
        out.append(_rademacher_case(f"{loss.name}, n = 1, F = {{0}}", "tests/proofs/statement_instances.py", loss, 1,
                                    [[F(0)]], [1]))
        for trial in range(3):
            n = rng.randint(1, 5)
            labels = [rng.choice((-1, 1)) for _ in range(n)]
            values = [[F(rng.randint(-8, 8), 4) for _ in range(n)] for _ in range(rng.randint(1, 4))]
            out.append(_rademacher_case(f"{loss.name}, finite class {trial}, n = {n}",
                                        "tests/proofs/statement_instances.py", loss, trial % 2, values, labels))
        n = 6
        points = [(F(rng.randint(-6, 6), rng.randint(1, 3)), F(rng.randint(-6, 6), rng.randint(1, 3))) for _ in
                  range(n)]
        labels = [rng.choice((-1, 1)) for _ in range(n)]
        margins = [(y * x0, y * x1) for (x0, x1), y in zip(points, labels)]
        patterns = [[1 if i in p else 0 for i in range(n)] for p in indicator_patterns_2d(margins)]
        thetas = [(F(a, 2), F(b, 2)) for a in range(-2, 3) for b in range(-2, 3)]  # a finite part of the class
        values = [[t0 * x0 + t1 * x1 for x0, x1 in points] for t0, t1 in thetas]
        case = _rademacher_case(f"{loss.name}, linear class of R^2 on 6 points", "tests/proofs/statement_instances.py",
                                loss, 0, values, labels, d=2, patterns=patterns)
        out.append(case)
        for n in (1, 2):  # the smallest sizes: the linear class of R^1, {x -> theta x}
            xs, labels = [F(1), F(-1, 2)][:n], [1, -1][:n]
            margins = [y * x for x, y in zip(xs, labels)]
            patterns = sorted({tuple(1 if t * z <= 0 else 0 for z in margins) for t in (-1, 0, 1)})
            values = [[t * x for x in xs] for t in (F(-1), F(0), F(1))]
            out.append(_rademacher_case(f"{loss.name}, linear class of R^1 on {n} point(s)",
                                        "tests/proofs/statement_instances.py", loss, 1, values, labels, d=1,
                                        patterns=[list(p) for p in patterns]))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def rate_cases() -> tuple:
    """Lemma 4's constants at the smallest sizes (n = 2, 4; d = 1, 2) and larger ones, with the exact lower bound
    of ERRATA E33's witness (d = 1, c_Theta = 10^-3, tau-logistic(1/2), F_1) where it applies."""
    import lfverify.proofs.lemma4_uniform_convergence as L4
    from lfverify.proofs._executable import RateCase

    out = []
    facts = _rademacher_losses()[0].facts()
    for n in (2, 4, 10, 100):
        lower, k, _ = L4._witness_lower_bound(n, "0.001")
        witness = dict(n=n, d=1, c_X=1.1, c_Theta=1e-3, c0=float(k["c0"]), c1=float(k["c1"]), rho0=float(k["rho0"]),
                       rho1=float(k["rho1"]), gamma=float(k["gamma"]) / 2, kappa0=2.0, kappa1=1.0,
                       slope_at_zero=0.5 / (2 * math.log(2)), jump=0.5 / (2 * math.log(2)), delta=0.05, lower=lower)
        out.append(RateCase(f"E33's witness, n = {n}", "lfverify/proofs/lemma4_uniform_convergence.py", witness,
                            facts))
        for d in (1, 2, 5):
            generic = dict(witness, d=d, c_Theta=1.0, lower=None)
            out.append(RateCase(f"c_Theta = 1, n = {n}, d = {d}", "tests/proofs/statement_instances.py", generic,
                                facts))
    return tuple(out)
