"""The decision threshold that maximises a linear-fractional metric on a sample, found exactly (an extension).

Not in the paper.  The paper predicts sgn(f(x)) (Sec. 2), and its calibration results (Thms. 1, 2, 7) are what
should make the threshold 0 right; ERRATA.md shows they fail (the surrogate maximiser's threshold on eta is not the
Bayes one), and the benchmark shows the consequence: the direction theta ranks well but the offset is wrong.  This
module chooses the offset afresh for the metric itself.

For scores s_1, ..., s_n and the rule "predict +1 iff s > t" (sgn(0) = -1 after the shift), every threshold t
gives the predictions of some cut "the k highest *distinct* score values are positive", k = 0, ..., K (K distinct
values).  Sorting once and sweeping cumulative counts gives the metric of every cut in O(n log n); in count form
(n samples, P positives, TP_k and FP_k the positives and negatives among the predicted positives of cut k)

    U_k = (a_{0,+1} TP_k + a_{0,-1} FP_k + b_0(P / n) n) / (a_{1,+1} TP_k + a_{1,-1} FP_k + b_1(P / n) n)

(:meth:`lfverify.core.LinearFractionalMetric.value_from_counts`, 0/0 counted as 0 as scikit-learn does).  The
chosen threshold lies half-way between the last positive and the first negative distinct value, so the chosen
predictions are reproduced exactly on the sample and new points between the two are split evenly.

``reference_best_threshold`` is the deliberately simple twin (every candidate threshold, counted directly), the
tests' oracle.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lfverify.core import LinearFractionalMetric, check_labels, check_real, check_sample_weight, divide_zero_over_zero

__all__ = ["ThresholdChoice", "best_threshold", "threshold_for_positive_rate", "positive_rate_from_folds",
           "reference_best_threshold"]


class ThresholdChoice(NamedTuple):
    """The result of :func:`best_threshold`."""

    threshold: float  #: predict +1 iff score > threshold
    value: float  #: the metric of those predictions on the sample
    n_predicted_positive: int  #: how many samples the threshold predicts +1


def _check_scores(scores, y, metric):
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"scores must be a 1-D array of real numbers; got {type(scores).__name__}") from exc
    if s.ndim != 1 or s.size < 1:
        raise ValueError(f"scores must be a non-empty 1-D array; got shape {s.shape}")
    if not np.isfinite(s).all():
        raise ValueError(f"scores must be finite; got a non-finite score at index {int(np.argmin(np.isfinite(s)))}")
    labels = check_labels(y, "y", n_samples=s.size, require_both_classes=False)
    return s, labels


def _cuts_between(above: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Thresholds t with below <= t < above (elementwise, above > below): the midpoints, or ``below`` where a
    midpoint rounds up to ``above`` (adjacent doubles); computed without overflow near the largest double.

    ValueError where some ``above`` does not exceed its ``below`` (the distinct scores out of decreasing order:
    no threshold separates them)."""
    if not np.all(above > below):
        k = int(np.argmin(above > below))
        raise ValueError(f"above must exceed below elementwise (consecutive distinct scores, decreasing); got "
                         f"above = {float(above[k])!r} <= below = {float(below[k])!r} at index {k}")
    middle = 0.5 * above + 0.5 * below
    return np.where((below <= middle) & (middle < above), middle, below)


def _below_lowest(distinct: np.ndarray) -> float:
    """A threshold below every score (the distinct values, decreasing): the lowest minus the range (minus 1 for a
    single value); where that overflows, the next double below the lowest.  ValueError where ``distinct`` is not
    strictly decreasing (its last entry would not be the lowest score)."""
    if not np.all(distinct[:-1] > distinct[1:]):
        k = int(np.argmin(distinct[:-1] > distinct[1:]))
        raise ValueError(f"distinct must be strictly decreasing (the distinct scores, highest first); got "
                         f"{float(distinct[k])!r} then {float(distinct[k + 1])!r} at index {k}")
    with np.errstate(over="ignore"):
        span = float(distinct[0] - distinct[-1]) if distinct.size > 1 else 1.0
        low = distinct[-1] - span
        if not np.isfinite(low):
            low = np.nextafter(distinct[-1], -np.inf)
        if not np.isfinite(low):
            raise ValueError("scores: no finite threshold lies below the lowest score (it is the most negative "
                             "double); rescale the scores")
    return float(low)


def best_threshold(scores, y, metric, *, reference: float = 0.0, sample_weight=None) -> ThresholdChoice:
    """The threshold t maximising the metric of "predict +1 iff score > t" on (scores, y), exactly.

    Parameters
    ----------
    scores : array_like of shape (n,), finite
        Real-valued scores, larger meaning more positive (e.g. f(x) = theta^T x).
    y : array_like of shape (n,)
        Labels in {-1, +1} or {0, 1}.
    metric : LinearFractionalMetric
    reference : float, keyword-only
        Among thresholds giving the same, maximal metric value, the one closest to ``reference`` is returned
        (default 0: the paper's own threshold, so a classifier that is already optimal is left unchanged); of two
        at exactly the same distance, the higher (fewer samples predicted positive).
    sample_weight : array_like of shape (n,) or None, keyword-only
        Non-negative weights with a positive sum: TP, FP and the prior become weighted fractions (integer weights
        give exactly the choice on the sample with each row repeated that many times).

    Returns
    -------
    ThresholdChoice
        ``threshold`` lies half-way between the lowest score predicted positive and the highest score predicted
        negative; when every sample is predicted negative it is the highest score, and when every sample is
        predicted positive it is the lowest score minus the range of the scores (minus 1 if they are all equal).

    Notes
    -----
    O(n log n): one sort and cumulative sums.  A tie between scores is never split (a threshold cannot separate
    equal scores).  0/0 (possible only for metrics whose denominator vanishes) counts as 0.
    """
    s, labels = _check_scores(scores, y, metric)
    weights = None if sample_weight is None else check_sample_weight(sample_weight, s.size)
    return _best_threshold(s, labels, metric, reference=check_real(reference, "reference"), weights=weights)


#: Cuts whose metric is evaluated at once: bounds the temporaries of ``metric.value`` (several arrays per cut); at
#: 8,192 they were the largest allocation of a fit at n = 10,000 (peak 2.5x LogisticRegression's; 1.45x at 2,048).
_CHUNK = 1 << 11


def _best_threshold(s, labels, metric, reference, weights=None) -> ThresholdChoice:
    """:func:`best_threshold` for validated inputs (finite float64 scores, labels in {-1, +1} of the same size;
    ``weights`` None or checked by :func:`check_sample_weight`).

    Written for memory (measured: 12 arrays of n elements at its peak before, about 5 now; it runs on every fit):
    the metric is evaluated in chunks of cuts, and threshold positions only for the maximising cuts."""
    n = s.size
    # Decreasing order; the order within a tie does not matter (a tie is never split), so no stable sort
    order = np.argsort(s)[::-1]
    sorted_scores = s[order]
    positive = labels[order] == 1
    w = None if weights is None else weights[order]
    del order
    # Cut k predicts the first k sorted samples positive; only cuts between distinct values are attainable.
    last = np.empty(n, dtype=bool)
    np.greater(sorted_scores[:-1], sorted_scores[1:], out=last[:-1])
    last[-1] = True
    ends = np.flatnonzero(last)  # the last sorted index of each distinct value; cut = ends + 1
    del last
    distinct = sorted_scores[ends]  # the distinct values, decreasing
    del sorted_scores
    if w is None:  # exact integer counts
        true_positives = np.cumsum(positive, dtype=np.int32 if n < 2 ** 31 else np.int64)[ends]
        positives, total = int(true_positives[-1]), n
    else:  # weighted fractions: cumulative weights of the positives and negatives above each cut
        true_positives = np.cumsum(np.where(positive, w, 0.0))[ends]
        false_weights = np.cumsum(np.where(positive, 0.0, w))[ends]
        positives = float(true_positives[-1])
        total = positives + float(false_weights[-1])  # (metric.value allows 1e-12 of rounding in the fractions)
    values = np.empty(ends.size + 1)  # values[0]: cut 0 (nothing positive); values[1 + i]: the cut after ends[i]
    values[0] = _cut_values(metric, np.zeros(1), np.zeros(1), positives=positives, total=total)[0]
    for start in range(0, ends.size, _CHUNK):
        stop = min(start + _CHUNK, ends.size)
        tp = true_positives[start:stop]
        fp = (ends[start:stop] + 1 - tp) if w is None else false_weights[start:stop]
        values[1 + start:1 + stop] = _cut_values(metric, tp, fp, positives=positives, total=total)
    best = np.flatnonzero(values == values.max())
    thresholds = np.array([_threshold_of_cut(distinct, int(j)) for j in best])
    k = int(np.argmin(np.abs(thresholds - reference)))
    j = int(best[k])
    return ThresholdChoice(float(thresholds[k]), float(values[j]), 0 if j == 0 else int(ends[j - 1]) + 1)


def _cut_values(metric, tp, fp, positives, total) -> np.ndarray:
    """The metric of cuts with TP / FP counts or weights out of ``total``: the arithmetic of
    :meth:`~lfverify.core.LinearFractionalMetric.value_from_counts` / ``value`` (zero_division=0) operation by
    operation, so bit for bit the same values, but in place on two fresh arrays (four arrays of the chunk at most,
    against about ten through ``value``, whose checks the counts satisfy by construction; the temporaries were
    the peak of a fit at n = 1,000)."""
    tpf = np.divide(tp, total, dtype=np.float64)
    fpf = np.divide(fp, total, dtype=np.float64)
    prior = min(max(positives / total, 0.0), 1.0)
    numerator = np.multiply(tpf, metric.a0p)
    numerator += np.multiply(fpf, metric.a0n, out=np.empty_like(fpf))
    numerator += float(metric.b0(prior))
    denominator = np.multiply(tpf, metric.a1p, out=tpf)
    denominator += np.multiply(fpf, metric.a1n, out=fpf)
    denominator += float(metric.b1(prior))
    del fpf
    return divide_zero_over_zero(numerator, denominator, 0.0, metric.name, in_place=True)


def _threshold_of_cut(distinct: np.ndarray, j: int) -> float:
    """The threshold that makes the j highest distinct values positive: the highest value (j = 0), half-way
    between the j-th and the (j + 1)-th, or below the lowest (j = all)."""
    if j == 0:
        return float(distinct[0])
    if j == distinct.size:
        return _below_lowest(distinct)
    return float(_cuts_between(distinct[j - 1:j], distinct[j:j + 1])[0])


def threshold_for_positive_rate(scores, rate: float) -> float:
    """The threshold t that predicts +1 (score > t) for the fraction ``rate`` of ``scores``, as nearly as ties allow.

    The attainable numbers of positives are 0 and, for each distinct score v, #{scores >= v} (a tie is never
    split); the one nearest rate n is taken, the smaller of two equally near (rate n = 1.5 with counts 1 and 2
    attainable gives 1).  The threshold is placed as in :func:`best_threshold`.  The order of ``scores`` does not
    matter.
    """
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"scores must be a 1-D array of real numbers; got {type(scores).__name__}") from exc
    if s.ndim != 1 or s.size < 1 or not np.isfinite(s).all():
        raise ValueError(f"scores must be a non-empty 1-D array of finite numbers; got shape {s.shape}")
    rate = check_real(rate, "rate", low=0.0, high=1.0)
    distinct = np.unique(s)[::-1]  # decreasing
    above = np.searchsorted(-np.sort(s)[::-1], -distinct, side="right")  # samples >= each distinct value
    cuts = np.concatenate([[0], above])  # attainable numbers of positives
    j = int(np.argmin(np.abs(cuts - rate * s.size)))  # nearest attainable cut (the smaller one on a tie)
    if j == 0:
        return float(distinct[0])
    if j == cuts.size - 1:
        return _below_lowest(distinct)
    return float(_cuts_between(distinct[j - 1:j], distinct[j:j + 1])[0])


def positive_rate_from_folds(fold_scores, fold_labels, metric) -> float:
    """The fraction of samples to predict positive, chosen on held-out folds (an extension; cross-fitting).

    Each fold's scores come from a model that did not see the fold, so their scales may differ between folds; only
    their order within the fold is used.  A sample's position is q = #{fold samples scoring >= it} / fold size,
    and predicting "q <= r" in every fold predicts the top fraction r of each; the r maximising the metric of the
    pooled held-out predictions is found exactly by :func:`best_threshold` on -q.  Returns the fraction of pooled
    samples that r predicts positive.
    """
    checked = [_check_scores(scores, y, metric) for scores, y in zip(fold_scores, fold_labels)]
    return _positive_rate_from_folds([s for s, _ in checked], [y for _, y in checked], metric)


def _positive_rate_from_folds(fold_scores, fold_labels, metric) -> float:
    """:func:`positive_rate_from_folds` for validated folds (finite float64 scores, labels in {-1, +1})."""
    positions, labels = [], []
    for s, y in zip(fold_scores, fold_labels):
        descending = np.sort(s)[::-1]
        at_least = np.searchsorted(-descending, -s, side="right")  # #{fold scores >= s_i}
        positions.append(at_least / s.size)
        labels.append(y)
    if not positions:
        raise ValueError("fold_scores must hold at least one fold")
    q, y = np.concatenate(positions), np.concatenate(labels)
    choice = _best_threshold(-q, y, metric, 0.0)
    return choice.n_predicted_positive / q.size


# ---------------------------------------------------------------------- reference twin (test oracle)
def reference_best_threshold(scores, y, metric):
    """Brute force: the best metric value over every threshold that changes the predictions, and the prediction
    vectors attaining it (test oracle, O(n^2), deliberately simple).

    Candidates: each distinct score (points above it are positive) and one threshold below every score.
    """
    s = [float(v) for v in scores]
    labels = [1 if int(v) == 1 else -1 for v in y]
    n, positives = len(s), sum(1 for v in labels if v == 1)
    candidates = sorted(set(s)) + [min(s) - 1.0]
    results = []
    for t in candidates:
        predicted = tuple(1 if v > t else -1 for v in s)
        tp = sum(1 for p, v in zip(predicted, labels) if p == 1 and v == 1)
        fp = sum(1 for p, v in zip(predicted, labels) if p == 1 and v == -1)
        value = float(metric.value_from_counts(tp, fp, positives, n, zero_division=0.0))
        results.append((value, predicted))
    best = max(value for value, _ in results)
    return best, {predicted for value, predicted in results if value == best}
