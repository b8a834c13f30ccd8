"""``check_metric``: a metric function ``fn(y_true, y_pred) -> float`` against its linear-fractional form.

Definition 1 / Eq. (1) / Table 1: U = (a0p TP + a0n FP + b0(pi)) / (a1p TP + a1n FP + b1(pi)) of the empirical
confusion fractions TP = #{y = +1, y_hat = +1} / n, FP = #{y = -1, y_hat = +1} / n, pi = #{y = +1} / n.  The value
depends on the labels only through the four counts, so enumerating every count tuple (TP, FP, FN, TN) with
n <= 5 - each one a distinct confusion matrix - and 40 seeded larger ones (n up to 200) covers every way the
function can disagree with the form on small samples; the oracle is
:meth:`~lfverify.core.LinearFractionalMetric.value_from_counts` on the exact integer counts.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from lfverify.core import LinearFractionalMetric, as_generator, resolve_metric
from lfverify.testing._framework import (
    CheckNotApplicable,
    Subject,
    TheoryCheck,
    TheoryCheckFailure,
    as_real,
    call_user,
    register_kind,
    run_all,
)
from lfverify.testing._input_contract import CLAIM, label_variants, run_contract

__all__ = ["check_metric", "metric_checks", "ZERO_DIVISION", "MAX_ENUMERATED_N"]

#: Every confusion-count tuple with n <= this is enumerated.
MAX_ENUMERATED_N = 5
#: Seeded random count tuples with n in [6, 200] checked besides.
RANDOM_TUPLES = 40
#: Absolute + relative tolerance against the exact count form (the counts are integers; only the function's own
#: rounding may differ, a few ulps of the value).
TOLERANCE = 1e-12
#: The zero_division values accepted: a float in [0, 1] (the value at 0/0, scikit-learn's default 0.0) or "skip".
ZERO_DIVISION = "float in [0, 1] or 'skip'"

_FORM = "Definition 1 / Eq. (1) / Table 1: U = (a0p TP + a0n FP + b0(pi)) / (a1p TP + a1n FP + b1(pi)) of the " \
        "confusion fractions"


def _labels(tp, fp, fn, tn, order=None):
    """y_true, y_pred in {-1, +1} with the given counts, in the order of ``order`` (a permutation) if given."""
    y_true = np.array([1] * (tp + fn) + [-1] * (fp + tn), dtype=np.int64)
    y_pred = np.array([1] * tp + [-1] * fn + [1] * fp + [-1] * tn, dtype=np.int64)
    if order is not None:
        y_true, y_pred = y_true[order], y_pred[order]
    return y_true, y_pred


def _tuples(seed):
    """Every (TP, FP, FN, TN) with 1 <= n <= MAX_ENUMERATED_N, then RANDOM_TUPLES seeded ones with n in [6, 200]."""
    out = []
    for n in range(1, MAX_ENUMERATED_N + 1):
        for cut in itertools.combinations(range(n + 3), 3):  # stars and bars: 4 counts summing to n
            a, b, c = cut
            out.append((a, b - a - 1, c - b - 1, n + 2 - c))
    rng = as_generator(seed, "seed")
    for _ in range(RANDOM_TUPLES):
        n = int(rng.integers(6, 201))
        counts = rng.multinomial(n, rng.dirichlet(np.ones(4)))
        out.append(tuple(int(c) for c in counts))
    return out


def _parts(metric, tp, fp, fn, tn):
    """The form's numerator and denominator at these counts, in exact rational arithmetic."""
    n = tp + fp + fn + tn
    a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (Fraction(getattr(metric, k)) for k in (
        "a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior"))
    TP, FP, pi = Fraction(tp, n), Fraction(fp, n), Fraction(tp + fn, n)
    return a0p * TP + a0n * FP + c0 + d0 * pi, a1p * TP + a1n * FP + c1 + d1 * pi


def _expected(metric, tp, fp, fn, tn):
    """The form's value from the exact counts (value_from_counts), or None where its denominator is 0."""
    if _parts(metric, tp=tp, fp=fp, fn=fn, tn=tn)[1] == 0:
        return None
    return float(metric.value_from_counts(tp, fp, tp + fn, tp + fp + fn + tn))


def _zero_over_zero(metric, *counts) -> bool:
    return _parts(metric, *counts) == (0, 0)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * (1.0 + abs(b))


def _call(fn, y_true, y_pred, check, claim, witness, expected):
    value = call_user(fn, (y_true, y_pred), check=check, claim=claim, witness=witness)
    return as_real(value, check=check, claim=claim, witness=witness, expected=expected)


def _linear_fractional_form(fn, *, metric, zero_division, seed):
    check = "linear_fractional_form"
    for tp, fp, fn_, tn in _tuples(seed):
        expected = _expected(metric, tp=tp, fp=fp, fn=fn_, tn=tn)
        if expected is None:
            continue
        y_true, y_pred = _labels(tp, fp, fn_, tn)
        for encoding, (t, p) in (("{-1, +1}", (y_true, y_pred)),
                                 ("{0, 1}", ((y_true == 1).astype(np.int64), (y_pred == 1).astype(np.int64)))):
            witness = {"counts (TP, FP, FN, TN)": (tp, fp, fn_, tn), "labels": encoding, "y_true": t, "y_pred": p,
                       "metric": metric}
            value = _call(fn, t, p, check=check, claim=_FORM, witness=witness, expected=expected)
            if not _close(value, expected):
                raise TheoryCheckFailure(check, _FORM, witness=witness, observed=value, expected=expected,
                                         detail=f"|difference| = {abs(value - expected):.3g} > {TOLERANCE:g} "
                                         "(1 + |expected|)")


def _zero_division(fn, *, metric, zero_division, seed):
    check = "zero_division"
    claim = "0/0 convention: where the form's denominator and numerator vanish, the value is zero_division"
    if zero_division == "skip":
        raise CheckNotApplicable("zero_division='skip'")
    points = [t for t in _tuples(seed) if _zero_over_zero(metric, *t)]
    if not points:
        raise CheckNotApplicable(f"{metric.name} has no 0/0 confusion matrix")
    for tp, fp, fn_, tn in points:
        y_true, y_pred = _labels(tp, fp, fn_, tn)
        witness = {"counts (TP, FP, FN, TN)": (tp, fp, fn_, tn), "y_true": y_true, "y_pred": y_pred,
                   "metric": metric}
        value = _call(fn, y_true, y_pred, check=check, claim=claim, witness=witness, expected=zero_division)
        if value != zero_division:
            raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=zero_division,
                                     detail="pass zero_division= the value the function returns at 0/0, or 'skip'")


def _permutation_invariance(fn, *, metric, zero_division, seed):
    check = "permutation_invariance"
    claim = "Eq. (1): the empirical utility depends on the sample only through its confusion counts, so the " \
            "order of the samples does not change it"
    rng = as_generator(seed, "seed")
    candidates = [t for t in _tuples(seed) if sum(t) >= 4 and _expected(metric, *t) is not None]
    for index in rng.choice(len(candidates), size=min(20, len(candidates)), replace=False):
        counts = candidates[int(index)]
        y_true, y_pred = _labels(*counts)
        base = _call(fn, y_true, y_pred, check=check, claim=claim, witness={"y_true": y_true, "y_pred": y_pred},
                     expected="a value")
        order = rng.permutation(y_true.size)
        t, p = y_true[order], y_pred[order]
        witness = {"counts (TP, FP, FN, TN)": counts, "y_true": t, "y_pred": p, "sorted order gave": base}
        value = _call(fn, t, p, check=check, claim=claim, witness=witness, expected=base)
        if not _close(value, base):
            raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=base,
                                     detail="a permutation of the samples changed "
                                     "the value")


def _input_contract(fn, *, metric, zero_division, seed):
    check = "input_contract"
    counts = (3, 2, 1, 4)
    y_true, y_pred = _labels(*counts, order=as_generator(seed, "seed").permutation(sum(counts)))

    def call(y_true, y_pred):
        witness = {"y_true": y_true, "y_pred": y_pred}
        return _call(fn, y_true, y_pred, check=check, claim=CLAIM, witness=witness, expected="a value")

    def compare(reference, result, tolerance):
        if abs(result - reference) > tolerance * (1.0 + abs(reference)):
            return f"|difference| = {abs(result - reference):.3g} > {tolerance:g} (1 + |float64 result|)"
        return None

    # an encoding ({0, 1}, boolean) is changed in both arguments at once; a dtype or a layout in one at a time
    encodings = ("{0, 1} labels", "boolean labels")
    variants = [(name, f"{label} ({name})", value, kind) for name, labels in (("y_true", y_true), ("y_pred", y_pred))
                for label, value, kind in label_variants(labels) if label not in encodings]
    run_contract(call, {"y_true": y_true, "y_pred": y_pred}, variants, compare=compare, check=check,
                 witness={"metric": metric})
    both = {label: (t, p) for (label, t, _), (_, p, _) in zip(label_variants(y_true), label_variants(y_pred))
            if label in encodings}
    reference = call(y_true, y_pred)
    for label, (t, p) in both.items():
        value = call(t, p)
        detail = compare(reference, value, 1e-9)
        if detail is not None:
            raise TheoryCheckFailure(check, CLAIM, witness={"variant": f"{label} (both arguments)", "y_true": t,
                                                    "y_pred": p}, observed=value, expected=reference, detail=detail)


_CHECKS = (
    ("linear_fractional_form", _FORM, _linear_fractional_form),
    ("zero_division", "the 0/0 convention (zero_division)", _zero_division),
    ("permutation_invariance", "Eq. (1): invariance under reordering the samples", _permutation_invariance),
    ("input_contract", "input contract (arrays unchanged; dtypes and layouts give the same value)", _input_contract),
)


def _resolve(metric):
    if isinstance(metric, (str, LinearFractionalMetric)):
        return resolve_metric(metric)
    raise TypeError(f"metric must be a LinearFractionalMetric or a metric name ('f1', 'f<beta>', 'jaccard', "
                    f"'accuracy'); got {metric!r} ({type(metric).__name__}), which is not a linear-fractional metric")


def _validated(fn, options):
    if not callable(fn):
        raise TypeError(f"fn must be callable as fn(y_true, y_pred) -> float; got {type(fn).__name__}")
    metric = _resolve(options.get("metric"))
    zero_division = options.get("zero_division", 0.0)
    if isinstance(zero_division, str):
        if zero_division != "skip":
            raise ValueError(f"zero_division must be a {ZERO_DIVISION}; got {zero_division!r}")
    elif isinstance(zero_division, bool) or not isinstance(zero_division, (int, float)) or not (
            math.isfinite(zero_division) and 0 <= zero_division <= 1):
        raise ValueError(f"zero_division must be a {ZERO_DIVISION}; got {zero_division!r}")
    seed = options.get("seed", 0)
    as_generator(seed, "seed")
    return {"metric": metric, "zero_division": zero_division if isinstance(zero_division, str)
            else float(zero_division), "seed": seed}


def metric_checks(fn, options) -> tuple[dict, list[TheoryCheck]]:
    """The normalised options and the checks of ``check_metric`` (validates ``fn`` and the options)."""
    normalised = _validated(fn, options)

    def bind(function):
        return lambda obj, **_: function(obj, **normalised)

    checks = [TheoryCheck(name, "check_metric", claim, bind(function)) for name, claim, function in _CHECKS]
    return normalised, checks


def check_metric(fn, metric, *, zero_division=0.0, seed=0) -> None:
    """Check a metric function ``fn(y_true, y_pred) -> float`` against a linear-fractional metric (Definition 1).

    Checks (each a :class:`~lfverify.testing.TheoryCheck`; failures name the claim, the labels and both values):

    * ``linear_fractional_form`` - on every confusion matrix with n <= 5 samples and 40 seeded larger ones, with
      labels in {-1, +1} and in {0, 1}, ``fn`` equals the form's value from the counts to 1e-12 (Eq. (1),
      Table 1);
    * ``zero_division`` - where the form is 0/0 (e.g. F_1 with no positive label and no positive prediction),
      ``fn`` returns ``zero_division``;
    * ``permutation_invariance`` - reordering the samples does not change the value;
    * ``input_contract`` - the label arrays are not modified, and int8 / float / {0, 1} / boolean / read-only /
      non-contiguous labels give the same value.

    Deterministic: no false alarm beyond rounding (tolerance 1e-12 (1 + abs(U))).

    Parameters
    ----------
    fn : callable
        ``fn(y_true, y_pred) -> float``, labels in {-1, +1} or {0, 1} (the positive class is +1, resp. 1).
    metric : LinearFractionalMetric or str
        The metric ``fn`` claims to compute, or its name ("f1", "f<beta>", "jaccard", "accuracy").
    zero_division : float in [0, 1] or "skip", keyword-only
        What ``fn`` returns at 0/0 (scikit-learn's default is 0.0), or "skip" not to check it.
    seed : int, keyword-only
        Seed of the larger count tuples and the permutations.

    Raises
    ------
    AssertionError
        (:class:`~lfverify.testing.TheoryCheckFailure`) when a check fails: one error listing every failure.
    TypeError, ValueError
        If ``fn`` is not callable, ``metric`` is neither a LinearFractionalMetric nor a known name, or an option is
        out of range.
    """
    run_all(Subject(check_metric, fn, metric=metric, zero_division=zero_division, seed=seed))


register_kind(check_metric, metric_checks)
