"""Confidence intervals for the Monte-Carlo studies: means, proportions, and moments merged across tasks.

* :func:`mean_interval` - mean, standard error and a Student-t interval of replications.
* :func:`merge_moments` - (count, mean, M2) of several blocks merged in a fixed order (Chan, Golub and LeVeque's
  pairwise update), so that a study whose replications are split across tasks gets the same mean and variance
  whatever the executor, without storing every replication.
* :func:`clopper_pearson` - the exact binomial interval, used for "the fraction of replications exceeding a bound
  is at most delta" (Lemma 4).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

from lfverify.core._validation import check_real

__all__ = ["MeanInterval", "mean_interval", "merge_moments", "clopper_pearson"]


class MeanInterval(NamedTuple):
    """Mean of replications with its standard error and a two-sided interval at ``level``."""

    mean: np.ndarray
    standard_error: np.ndarray
    low: np.ndarray
    high: np.ndarray
    count: int
    level: float


def _check_level(level) -> float:
    return check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def mean_interval(values=None, *, axis: int = 0, level: float = 0.95, count=None, mean=None, m2=None) -> MeanInterval:
    """Mean, standard error s / sqrt(R) and the Student-t interval (R - 1 degrees of freedom).

    Either ``values`` (replications along ``axis``) or the merged moments ``count``, ``mean``, ``m2`` (sum of
    squared deviations, see :func:`merge_moments`) are given.

    Raises
    ------
    ValueError
        If fewer than 2 replications are given, or a value is not finite.
    """
    level = _check_level(level)
    if values is not None:
        arr = np.asarray(values, dtype=np.float64)
        if not np.isfinite(arr).all():
            raise ValueError("values must be finite; got a NaN or infinite replication")
        count = arr.shape[axis]
        mean = arr.mean(axis=axis)
        m2 = ((arr - np.expand_dims(mean, axis)) ** 2).sum(axis=axis)
    if count is None or mean is None or m2 is None:
        raise ValueError("mean_interval needs values, or count, mean and m2")
    count = int(count)
    if count < 2:
        raise ValueError(f"mean_interval needs at least 2 replications; got {count}")
    mean, m2 = np.asarray(mean, dtype=np.float64), np.asarray(m2, dtype=np.float64)
    se = np.sqrt(m2 / (count - 1) / count)
    q = float(stats.t.ppf(0.5 + level / 2, count - 1))
    return MeanInterval(mean, se, mean - q * se, mean + q * se, count, level)


def merge_moments(counts, means, m2s):
    """Merge per-block (count, mean, M2) in the order given; returns (count, mean, M2) of the union.

    M2 is the sum of squared deviations from the block mean.  The update (Chan et al. 1979)
    delta = mean_b - mean_a, mean = mean_a + delta n_b / n, M2 = M2_a + M2_b + delta^2 n_a n_b / n is exact in
    real arithmetic and stable in floating point.  ``means`` and ``m2s`` are sequences of equally shaped arrays.
    """
    counts = [int(c) for c in counts]
    if not counts or len(counts) != len(means) or len(counts) != len(m2s):
        raise ValueError(f"merge_moments needs equally long, non-empty counts, means and m2s; got lengths "
                         f"{len(counts)}, {len(means)}, {len(m2s)}")
    if any(c < 1 for c in counts):
        raise ValueError(f"counts must be positive; got {counts}")
    n = counts[0]
    mean = np.array(means[0], dtype=np.float64)
    m2 = np.array(m2s[0], dtype=np.float64)
    for nb, mb, m2b in zip(counts[1:], means[1:], m2s[1:]):
        mb = np.asarray(mb, dtype=np.float64)
        total = n + nb
        delta = mb - mean
        mean = mean + delta * (nb / total)
        m2 = m2 + np.asarray(m2b, dtype=np.float64) + delta * delta * (n * nb / total)
        n = total
    return n, mean, m2


def clopper_pearson(successes: int, trials: int, *, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval for a binomial proportion."""
    level = _check_level(level)
    if isinstance(successes, bool) or isinstance(trials, bool):
        raise TypeError("successes and trials must be ints")
    successes, trials = int(successes), int(trials)
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1; got {successes} of {trials}")
    alpha = 1.0 - level
    low = 0.0 if successes == 0 else float(stats.beta.ppf(alpha / 2, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(stats.beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    return low, high
