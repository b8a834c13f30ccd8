"""Linear-fractional performance metrics (Definition 1, Table 1, Proposition 5).

A linear-fractional utility is a ratio of two affine functions of the population confusion matrix:

    U = (a0p * TP + a0n * FP + b0) / (a1p * TP + a1n * FP + b1)            (Definition 1, Eq. (1))

with FN = pi - TP and TN = 1 - pi - FP eliminated.  Several rows of Table 1 need offsets that depend on the
class prior pi (F_beta's b1 = beta^2 pi, Gower-Legendre's b0 = 1 - pi), so each offset is stored as
``b_k = b_k_const + b_k_prior * pi``; this makes every row of Table 1 exact.

Naming: ``a0p`` is the paper's a_{0,+1}, ``a0n`` is a_{0,-1}, and so on.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import warnings
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from lfverify.core._validation import check_labels, check_real

__all__ = [
    "LinearFractionalMetric",
    "divide_zero_over_zero",
    "AdmissibilityReport",
    "UndefinedMetricWarning",
    "f_beta",
    "f1",
    "jaccard",
    "gower_legendre",
    "accuracy",
]


class UndefinedMetricWarning(UserWarning):
    """A metric was evaluated at 0/0 and replaced by the ``zero_division`` value."""


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _stacklevel_outside_package() -> int:
    """``warnings.warn``'s stacklevel, for a warn called by this function's caller, that names the first frame
    outside lfverify: a 0/0 reached through score(), value_from_counts() or Population.utility() is reported at
    the user's line, however many library frames lie between."""
    frame, level = sys._getframe(1), 1  # level 1: the function that calls warnings.warn
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def divide_zero_over_zero(numerator, denominator, zero_division, what: str, *, in_place: bool = False):
    """Return numerator / denominator; 0/0 becomes ``zero_division`` (the one helper for every 0/0).

    ``zero_division`` is ``"warn"`` (0.0 and an :class:`UndefinedMetricWarning`, scikit-learn's default),
    ``"raise"``, or a float.  A non-zero numerator over a zero denominator is always an error: the value is
    infinite, not undefined.  ``in_place``: both are float64 arrays of one shape that the caller no longer needs;
    the quotient is written into ``numerator`` (no temporary of their size but the mask of zeros; the threshold
    search's chunks, whose temporaries were the peak of a fit).
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    zero = denominator == 0
    if np.any(zero & (numerator != 0)):
        raise ValueError(f"{what}: the denominator is 0 while the numerator is not; the ratio is infinite")
    if np.any(zero):
        if isinstance(zero_division, str) and zero_division == "raise":
            raise ValueError(f"{what}: 0/0 (the denominator vanishes); pass zero_division=0.0 to define it")
        if isinstance(zero_division, str) and zero_division == "warn":
            warnings.warn(f"{what} is 0/0; returning 0.0 (set zero_division to control this)",
                          UndefinedMetricWarning, stacklevel=_stacklevel_outside_package())
            fill = 0.0
        else:
            fill = float(zero_division)
        if in_place:
            denominator[zero] = 1.0
            numerator[zero] = fill
            return np.divide(numerator, denominator, out=numerator)
        safe = np.where(zero, 1.0, denominator)
        return np.where(zero, fill, numerator / safe)
    return np.divide(numerator, denominator, out=numerator) if in_place else numerator / denominator


def _as_batch(values, n: int, name: str):
    """``values`` of shape (n,) or (K, n) as a (K, n) array, and whether it was a single row."""
    if n == 0:
        raise ValueError("y_true must contain at least one label; got 0")
    arr = np.asarray(values)
    single = arr.ndim == 1
    batch = arr[np.newaxis, :] if single else arr
    if batch.ndim != 2 or batch.shape[1] != n:
        raise ValueError(f"{name} must have shape ({n},) or (K, {n}); got shape {arr.shape}")
    return batch, single


def _check_zero_division(zero_division):
    if isinstance(zero_division, str):
        if zero_division not in ("warn", "raise"):
            raise ValueError(f"zero_division must be 'warn', 'raise' or a float in [0, 1]; got {zero_division!r}")
        return zero_division
    return check_real(zero_division, "zero_division", low=0.0, high=1.0)


@dataclass(frozen=True)
class AdmissibilityReport:
    """Which constraints of Definition 1 a metric satisfies.

    Sign constraints: a_{0,+1} > 0, a_{0,-1} <= 0, a_{1,+1} >= 0, a_{1,-1} >= 0.  Range constraints, over the
    feasible confusion region {0 <= TP <= pi, 0 <= FP <= 1 - pi} for every prior in ``priors``: the
    denominator is positive and 0 <= U <= 1.  The range constraints are decided exactly (in rational
    arithmetic on the float coefficients): for a fixed prior,
    numerator, denominator and (denominator - numerator) are affine in (TP, FP), so their extremes over the
    rectangle sit at its four vertices, and at each vertex they are affine in pi, so the open interval
    0 < pi < 1 is decided by its two end points.
    """

    metric_name: str
    priors: str
    a0p_positive: bool
    a0n_nonpositive: bool
    a1p_nonnegative: bool
    a1n_nonnegative: bool
    denominator_positive: bool
    utility_nonnegative: bool
    utility_at_most_one: bool

    @property
    def sign_constraints(self) -> bool:
        """All four sign constraints of Definition 1 hold."""
        return self.a0p_positive and self.a0n_nonpositive and self.a1p_nonnegative and self.a1n_nonnegative

    @property
    def range_constraints(self) -> bool:
        """Positive denominator and 0 <= U <= 1 over the feasible confusion region."""
        return self.denominator_positive and self.utility_nonnegative and self.utility_at_most_one

    @property
    def admissible(self) -> bool:
        """The metric satisfies every constraint of Definition 1."""
        return self.sign_constraints and self.range_constraints

    @property
    def violations(self) -> list[str]:
        """Names of the constraints that fail (empty when admissible)."""
        labels = {
            "a0p_positive": "a_{0,+1} > 0",
            "a0n_nonpositive": "a_{0,-1} <= 0",
            "a1p_nonnegative": "a_{1,+1} >= 0",
            "a1n_nonnegative": "a_{1,-1} >= 0",
            "denominator_positive": "denominator > 0 on the feasible region",
            "utility_nonnegative": "U >= 0 on the feasible region",
            "utility_at_most_one": "U <= 1 on the feasible region",
        }
        return [text for field, text in labels.items() if not getattr(self, field)]

    def __str__(self) -> str:
        status = "admissible" if self.admissible else "NOT admissible: violates " + "; ".join(self.violations)
        return f"{self.metric_name} (priors {self.priors}): {status}"


@dataclass(frozen=True, kw_only=True)
class LinearFractionalMetric:
    """A linear-fractional utility U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1) (Definition 1).

    ``b_k = b_k_const + b_k_prior * pi`` so that prior-dependent rows of Table 1 are exact.  Instances are
    immutable.  Constructing a metric outside Definition 1's constraints is allowed (counterexamples need
    them); :meth:`admissibility` reports which constraints fail, and nothing treats such a metric as
    admissible silently.

    Parameters
    ----------
    a0p, a0n, a1p, a1n : float
        The paper's a_{0,+1}, a_{0,-1}, a_{1,+1}, a_{1,-1}.
    b0_const, b0_prior, b1_const, b1_prior : float, default 0
        Offsets b_k = b_k_const + b_k_prior * pi.
    name : str
        A label used in reports.
    family : {"f_beta", "jaccard", "gower_legendre", "accuracy", "custom"}
        Which named metric this is; the calibration theorems for F_beta (Thm. 1), Jaccard (Thm. 2) and
        accuracy (Prop. 8) apply only to their own family.
    parameter : float or None
        beta for F_beta, alpha for Gower-Legendre.

    Examples
    --------
    >>> from lfverify.core import f_beta
    >>> f1 = f_beta(1.0)
    >>> round(float(f1.value(tp=0.3, fp=0.1, prior=0.4)), 12)     # 2 * 0.3 / (0.3 + 0.1 + 0.4)
    0.75
    """

    a0p: float
    a0n: float
    a1p: float
    a1n: float
    b0_const: float = 0.0
    b0_prior: float = 0.0
    b1_const: float = 0.0
    b1_prior: float = 0.0
    name: str = "custom"
    family: str = "custom"
    parameter: float | None = None

    _FAMILIES = ("f_beta", "jaccard", "gower_legendre", "accuracy", "custom")

    def __post_init__(self):
        for field in ("a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior"):
            object.__setattr__(self, field, check_real(getattr(self, field), field))
        if self.family not in self._FAMILIES:
            raise ValueError(f"family must be one of {self._FAMILIES}; got {self.family!r}")
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a str; got {self.name!r}")

    # ------------------------------------------------------------------ coefficients
    def b0(self, prior):
        """Offset b_0 = b0_const + b0_prior * pi (vectorized over ``prior``)."""
        return self.b0_const + self.b0_prior * np.asarray(prior, dtype=np.float64)

    def b1(self, prior):
        """Offset b_1 = b1_const + b1_prior * pi (vectorized over ``prior``)."""
        return self.b1_const + self.b1_prior * np.asarray(prior, dtype=np.float64)

    @property
    def delta_a0(self) -> float:
        """Delta a_0 = a_{0,+1} - a_{0,-1} (Prop. 5)."""
        return self.a0p - self.a0n

    @property
    def delta_a1(self) -> float:
        """Delta a_1 = a_{1,+1} - a_{1,-1} (Prop. 5)."""
        return self.a1p - self.a1n

    def replace(self, **changes) -> "LinearFractionalMetric":
        """A copy with some fields changed (the instance itself is immutable)."""
        return dataclasses.replace(self, **changes)

    # ------------------------------------------------------------------ values
    def numerator(self, tp, fp, prior):
        """a_{0,+1} TP + a_{0,-1} FP + b_0(pi)."""
        return (self.a0p * np.asarray(tp, dtype=np.float64) + self.a0n * np.asarray(fp, dtype=np.float64)
                + self.b0(prior))

    def denominator(self, tp, fp, prior):
        """a_{1,+1} TP + a_{1,-1} FP + b_1(pi)."""
        return (self.a1p * np.asarray(tp, dtype=np.float64) + self.a1n * np.asarray(fp, dtype=np.float64)
                + self.b1(prior))

    def value(self, tp, fp, prior, *, zero_division="warn"):
        """The utility U from the population confusion entries (vectorized, broadcasting).

        Parameters
        ----------
        tp, fp : array_like
            True- and false-positive probabilities, 0 <= TP <= pi and 0 <= FP <= 1 - pi.
        prior : array_like
            The positive-class prior pi in [0, 1].
        zero_division : "warn", "raise" or float in [0, 1], keyword-only
            Value of 0/0 (e.g. F_beta with no positives at all); "warn" returns 0.0 with a warning, as
            scikit-learn does.

        Returns
        -------
        float or ndarray
        """
        zero_division = _check_zero_division(zero_division)
        # broadcast only in the arithmetic: a scalar prior stays a scalar (broadcasting it first made its clip and
        # offsets b_0, b_1 full arrays, the largest temporaries of the threshold search)
        tp, fp, prior = (np.asarray(v, dtype=np.float64) for v in (tp, fp, prior))
        np.broadcast_shapes(tp.shape, fp.shape, prior.shape)  # the ValueError of incompatible shapes, up front
        if not (np.isfinite(tp).all() and np.isfinite(fp).all() and np.isfinite(prior).all()):
            raise ValueError("tp, fp and prior must be finite")
        tol = 1e-12
        if np.any((prior < -tol) | (prior > 1 + tol)):
            raise ValueError(f"prior must lie in [0, 1]; got values in [{prior.min()}, {prior.max()}]")
        prior = np.clip(prior, 0.0, 1.0)  # within 1e-12 of [0, 1], like tp and fp: rounding of normalised weights
        if np.any((tp < -tol) | (tp > prior + tol)):
            raise ValueError("tp must satisfy 0 <= tp <= prior (TP is at most P(Y = +1))")
        if np.any((fp < -tol) | (fp > 1 - prior + tol)):
            raise ValueError("fp must satisfy 0 <= fp <= 1 - prior (FP is at most P(Y = -1))")
        # U = (a0p TP + a0n FP + b0) / (a1p TP + a1n FP + b1)
        out = divide_zero_over_zero(self.numerator(tp, fp, prior), self.denominator(tp, fp, prior),
                                     zero_division, f"{self.name}")
        return out[()] if out.ndim == 0 else out

    def score(self, y_true, y_pred, *, zero_division="warn"):
        """The empirical utility of predicted labels (plug-in confusion matrix).

        TP = #{y = +1, y_hat = +1} / n, FP = #{y = -1, y_hat = +1} / n and pi = #{y = +1} / n.  Agrees with
        scikit-learn's ``fbeta_score``, ``jaccard_score`` and ``accuracy_score`` for the matching metric.

        Parameters
        ----------
        y_true : array_like of shape (n,)
            Labels in {-1, +1} or {0, 1} (0 means negative).
        y_pred : array_like of shape (n,) or (K, n)
            Predicted labels in the same encodings; a 2-D array scores K predictions at once.

        Returns
        -------
        float, or ndarray of shape (K,)
        """
        y_true = check_labels(y_true, "y_true", require_both_classes=False)
        pred, single = _as_batch(y_pred, y_true.shape[0], "y_pred")
        flat = check_labels(pred.ravel(), "y_pred", require_both_classes=False)
        return self._score_positive_mask(y_true, (flat == 1).reshape(pred.shape), single, zero_division)

    def score_decision(self, y_true, decision, *, zero_division="warn"):
        """The empirical utility of real-valued scores with the paper's convention sgn(0) = -1.

        A sample is predicted positive iff its score is strictly positive (Sec. 2).

        Parameters
        ----------
        y_true : array_like of shape (n,)
        decision : array_like of shape (n,) or (K, n)
        """
        y_true = check_labels(y_true, "y_true", require_both_classes=False)
        dec, single = _as_batch(np.asarray(decision, dtype=np.float64), y_true.shape[0], "decision")
        if np.isnan(dec).any():
            raise ValueError("decision must not contain NaN")
        return self._score_positive_mask(y_true, dec > 0, single, zero_division)

    def value_from_counts(self, true_positives, false_positives, positives, n_samples, *, zero_division="warn"):
        """The plug-in utility from confusion counts (vectorized over the counts).

        TP = #{y=+1, pred=+1}/n, FP = #{y=-1, pred=+1}/n, pi = #{y=+1}/n: the exact counts are divided by n
        once each, so FP is never a difference of rounded quotients.

        Raises
        ------
        TypeError, ValueError
            If ``n_samples`` is not an int >= 1 (the counts are then not fractions of a sample), or a count is
            out of range (see :meth:`value`).
        """
        if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, (int, np.integer)):
            raise TypeError(f"n_samples must be an int >= 1; got {n_samples!r}")
        if n_samples < 1:
            raise ValueError(f"n_samples must be an int >= 1 (the size of the sample the counts come from); "
                             f"got {n_samples}")
        return self.value(np.asarray(true_positives) / n_samples, np.asarray(false_positives) / n_samples,
                          positives / n_samples, zero_division=zero_division)

    def _score_positive_mask(self, y_true, predicted_positive, single, zero_division):
        positive = y_true == 1
        out = np.atleast_1d(self.value_from_counts(
            np.count_nonzero(predicted_positive & positive, axis=1),
            np.count_nonzero(predicted_positive & ~positive, axis=1),
            np.count_nonzero(positive), y_true.shape[0], zero_division=zero_division))
        return float(out[0]) if single else out

    # ------------------------------------------------------------------ Definition 1
    def admissibility(self, prior=None) -> AdmissibilityReport:
        """Report which of Definition 1's constraints hold (sign constraints and 0 <= U <= 1).

        Parameters
        ----------
        prior : float in (0, 1) or None
            Decide the range constraints at this prior; ``None`` decides them for every prior in (0, 1).
        """
        # Decided in exact rational arithmetic: every float is a rational, so a violation smaller than one
        # rounding error (e.g. U = 1 + 1e-16 at a vertex) is still found.
        if prior is None:
            priors = [Fraction(0), Fraction(1)]
            label = "(0, 1)"
        else:
            prior = check_real(prior, "prior", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
            priors = [Fraction(prior)]
            label = f"{{{prior:g}}}"
        a0p, a0n, a1p, a1n, c0, d0, c1, d1 = (Fraction(v) for v in (
            self.a0p, self.a0n, self.a1p, self.a1n, self.b0_const, self.b0_prior, self.b1_const, self.b1_prior))
        num, den = [], []  # num[v][i], den[v][i]: vertex v of the rectangle, prior priors[i]
        for tp_is_pi, fp_is_rest in ((False, False), (True, False), (False, True), (True, True)):
            tps = [pi if tp_is_pi else Fraction(0) for pi in priors]
            fps = [1 - pi if fp_is_rest else Fraction(0) for pi in priors]
            num.append([a0p * tp + a0n * fp + c0 + d0 * pi for tp, fp, pi in zip(tps, fps, priors)])
            den.append([a1p * tp + a1n * fp + c1 + d1 * pi for tp, fp, pi in zip(tps, fps, priors)])
        if prior is None:
            # Affine in pi at each vertex: >= 0 on (0, 1) iff >= 0 at both ends; > 0 on the open interval iff
            # >= 0 at both ends and not identically zero.
            den_pos = all(min(row) >= 0 and max(row) > 0 for row in den)
        else:
            den_pos = all(row[0] > 0 for row in den)
        return AdmissibilityReport(
            metric_name=self.name,
            priors=label,
            a0p_positive=self.a0p > 0,
            a0n_nonpositive=self.a0n <= 0,
            a1p_nonnegative=self.a1p >= 0,
            a1n_nonnegative=self.a1n >= 0,
            denominator_positive=den_pos,
            utility_nonnegative=all(v >= 0 for row in num for v in row),
            utility_at_most_one=all(d - n >= 0 for rn, rd in zip(num, den) for n, d in zip(rn, rd)),
        )

    # ------------------------------------------------------------------ Proposition 5
    def bayes_optimal_threshold(self, utility):
        """The threshold on eta of a Bayes-optimal classifier, as a function of U (Prop. 5).

        Prop. 5: f is Bayes optimal iff f(x) {(Da0 - Da1 U) eta(x) - (a_{1,-1} U - a_{0,-1})} > 0, so with
        Da0 - Da1 U > 0 it predicts +1 exactly where eta(x) > delta(U):

            delta(U) = (a_{1,-1} U - a_{0,-1}) / (Da0 - Da1 U).

        F_beta gives U / (1 + beta^2), Jaccard U / (1 + U), accuracy 1/2.

        Raises
        ------
        ValueError
            If Da0 - Da1 U <= 0, where the rule is not a threshold of this form.
        """
        u = np.asarray(utility, dtype=np.float64)
        if not np.isfinite(u).all():
            raise ValueError("utility must be finite")
        slope = self.delta_a0 - self.delta_a1 * u
        if np.any(slope <= 0):
            raise ValueError(
                f"utility: Prop. 5's threshold form needs Da0 - Da1 * U > 0; got Da0 = {self.delta_a0}, "
                f"Da1 = {self.delta_a1} and U with minimum slope {float(np.min(slope))}"
            )
        out = (self.a1n * u - self.a0n) / slope
        return out[()] if out.ndim == 0 else out


# ---------------------------------------------------------------------- Table 1
def f_beta(beta: float) -> LinearFractionalMetric:
    """F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)  (Table 1).

    With FN = pi - TP the denominator is TP + FP + beta^2 pi: a0 = (1 + beta^2, 0), b0 = 0,
    a1 = (1, 1), b1 = beta^2 pi.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Table 1 (F_beta); Definition 1 (the linear-fractional form).

    Examples
    --------
    >>> from lfverify.core import f_beta
    >>> f2 = f_beta(2.0)
    >>> round(float(f2.value(tp=0.3, fp=0.1, prior=0.4)), 12)   # 5 * 0.3 / (5 * 0.3 + 4 * 0.1 + 0.1)
    0.75
    """
    beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
    # Store b1 = fl(1 + beta^2) - 1 (an exact subtraction) rather than fl(beta^2): then a0p = a1p + b1 holds
    # exactly, so U(TP = pi, FP = 0) = 1 exactly.  With fl(beta^2), fl(1 + beta^2) rounds above 1 + fl(beta^2)
    # for about 7% of beta and the stored metric exceeded 1 there by one ulp (found by tests/core/test_properties.py).
    a0p = 1.0 + beta * beta
    return LinearFractionalMetric(a0p=a0p, a0n=0.0, a1p=1.0, a1n=1.0, b1_prior=a0p - 1.0,
                                  name=f"F_{beta:g}", family="f_beta", parameter=beta)


def f1() -> LinearFractionalMetric:
    """The F_1-measure, :func:`f_beta` with beta = 1."""
    return f_beta(1.0)


def jaccard() -> LinearFractionalMetric:
    """Jaccard index TP / (TP + FN + FP) = TP / (FP + pi)  (Table 1): a0 = (1, 0), a1 = (0, 1), b1 = pi.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Table 1 (Jaccard); Definition 1.

    Examples
    --------
    >>> from lfverify.core import jaccard
    >>> round(float(jaccard().value(tp=0.3, fp=0.1, prior=0.4)), 12)   # 0.3 / (0.1 + 0.4)
    0.6
    """
    return LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=1.0, b1_prior=1.0, name="Jaccard", family="jaccard")


def gower_legendre(alpha: float) -> LinearFractionalMetric:
    """Gower-Legendre index (TP + TN) / (TP + alpha (FP + FN) + TN)  (Table 1).

    a0 = (1, -1), b0 = 1 - pi, a1 = (1 - alpha, alpha - 1), b1 = 1 + (alpha - 1) pi.  Definition 1's sign
    constraints a_{1,+1} >= 0 and a_{1,-1} >= 0 both hold only at alpha = 1 (accuracy); see
    :meth:`LinearFractionalMetric.admissibility`.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Table 1 (Gower-Legendre); Definition 1 (its sign constraints: ERRATA E1).

    Examples
    --------
    >>> from lfverify.core import gower_legendre
    >>> gl = gower_legendre(0.5)   # TP = 0.3, FP = 0.1, FN = 0.1, TN = 0.5: 0.8 / (0.8 + 0.5 * 0.2)
    >>> round(float(gl.value(tp=0.3, fp=0.1, prior=0.4)), 12)
    0.888888888889
    >>> gl.admissibility().violations
    ['a_{1,-1} >= 0']
    """
    alpha = check_real(alpha, "alpha", low=0.0)
    return LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=1.0 - alpha, a1n=alpha - 1.0,
                                  b0_const=1.0, b0_prior=-1.0, b1_const=1.0, b1_prior=alpha - 1.0,
                                  name=f"Gower-Legendre_{alpha:g}", family="gower_legendre", parameter=alpha)


def accuracy() -> LinearFractionalMetric:
    """Accuracy TP + TN = TP - FP + (1 - pi)  (App. A.3, U^Acc): a0 = (1, -1), b0 = 1 - pi, a1 = (0, 0), b1 = 1.

    App. A after Prop. 5 prints b_0 = b_1 = 0, which would make the denominator vanish; the utility U^Acc
    written out in App. A.3 has b_0 = 1 - pi and denominator 1, which is what is used here.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), App. A.3 (U^Acc); Prop. 8.

    Examples
    --------
    >>> from lfverify.core import accuracy
    >>> round(float(accuracy().value(tp=0.3, fp=0.1, prior=0.4)), 12)   # TP + TN = 0.3 + 0.5
    0.8
    """
    return LinearFractionalMetric(a0p=1.0, a0n=-1.0, a1p=0.0, a1n=0.0, b0_const=1.0, b0_prior=-1.0,
                                  b1_const=1.0, name="accuracy", family="accuracy")
