"""Confidence intervals for the Monte-Carlo studies: means, proportions, and moments merged across tasks.

* :func:`mean_interval` - mean, standard error and a Student-t interval of replications (``scipy.stats.t.interval``).
* :func:`geometric_mean_interval` - exp of the mean of log values and of its Student-t interval: the quantity a
  fit of log(error) on log(n) describes (:mod:`lfverify.simulations._rates`), as the rate figures draw it.
* :func:`merge_moments` - (count, mean, M2) of several blocks merged in a fixed order (Chan, Golub and LeVeque's
  pairwise update), so that a study whose replications are split across tasks gets the same mean and variance
  whatever the executor, without storing every replication.
* :func:`clopper_pearson` - the exact binomial interval (statsmodels' ``proportion_confint(method="beta")``), used
  for "the fraction of replications exceeding a bound is at most delta" (Lemma 4).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import stats

from lfverify.core import check_real

__all__ = ["MeanInterval", "mean_interval", "geometric_mean_interval", "merge_moments", "clopper_pearson"]


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
    # the standard error from merged moments (no library merges them); s / sqrt(R) = scipy.stats.sem of the values
    se = np.sqrt(m2 / (count - 1) / count)
    # SciPy's interval is NaN for a zero scale (identical replications): there the interval is the point itself
    low, high = stats.t.interval(level, count - 1, loc=mean, scale=np.where(se > 0, se, 1.0))
    low, high = np.where(se > 0, low, mean), np.where(se > 0, high, mean)
    return MeanInterval(mean, standard_error=se, low=low, high=high, count=count, level=level)


def geometric_mean_interval(values, *, axis: int = 0, level: float = 0.95) -> MeanInterval:
    """exp of :func:`mean_interval` of log(values): the geometric mean exp(mean log) and its Student-t interval.

    ``standard_error`` stays the standard error of the mean of the logarithms (the interval is
    exp(mean log +- t s.e.), not symmetric around the geometric mean).

    Raises
    ------
    ValueError
        If a value is not positive and finite, or fewer than 2 replications are given.
    """
    arr = np.asarray(values, dtype=np.float64)
    if not (np.isfinite(arr).all() and np.all(arr > 0)):
        raise ValueError("values must be positive and finite to take logarithms")
    ci = mean_interval(np.log(arr), axis=axis, level=level)
    return ci._replace(mean=np.exp(ci.mean), low=np.exp(ci.low), high=np.exp(ci.high))


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
    """The exact (Clopper-Pearson) two-sided interval for a binomial proportion.

    statsmodels' ``proportion_confint(method="beta")`` (beta quantiles, 0 and 1 at the ends), not SciPy's
    ``binomtest(...).proportion_ci(method="exact")``: that one finds the same limits by root finding with an
    absolute tolerance of 2e-12 (0 of 1000 at 95 %: high 0.003682083896639526 where the beta quantile gives
    0.003682083896865671 and mpmath 0.00368208389686567209).
    """
    from statsmodels.stats.proportion import proportion_confint

    level = _check_level(level)
    if isinstance(successes, bool) or isinstance(trials, bool):
        raise TypeError("successes and trials must be ints")
    successes, trials = int(successes), int(trials)
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1; got {successes} of {trials}")
    low, high = proportion_confint(successes, trials, alpha=1.0 - level, method="beta")
    return float(low), float(high)
