"""App. C.5's and C.6's statements about the curve studies, decided on the trial values of a run.

The paper states its curve findings in words and names the data sets (:mod:`.paper_values`); this module turns
each statement into a test on our trials (``curves``: data set -> method -> x -> trial values, as
:func:`lfverify.experiments._markdown.collect_curve_values` returns them), always with the one-sided Welch t-test
of the tables' bold rule (:func:`lfverify.experiments._statistics.one_sided_p_value`) at level ``alpha``
(Welch, not paired: a failed trial leaves the methods' samples unequal, and the curve values carry no trial
index to pair on):

* :func:`small_sample_comparisons` - App. C.5: "either U-GD or U-BFGS works better than Plug-in even if sample
  sizes are quite small around 20 to 40".  For every data set and every n <= ``largest_small_size``: the
  proposed method with the higher mean, tested against Plug-in (H1: its mean is larger).  Picking the better of
  two methods before testing makes the test somewhat liberal, in the claim's favour.
* :func:`plug_in_significant_wins` - App. C.5: "Plug-in seldom works significantly better than the
  gradient-based methods in the cases where sample sizes range around 100 to 400": the (data set, n) with
  100 <= n <= 400 where Plug-in is significantly better than *both* U-GD and U-BFGS.
* :func:`tau_shapes` - App. C.6: "the performance becomes better as tau becomes closer to 1" (here: the mean at
  the largest tau significantly above the mean at the smallest) and "there exist extrema of the performance
  with respect to the choices of tau" (here: the best tau lies strictly inside the grid and is significantly
  better than both ends).
"""

from __future__ import annotations

from typing import NamedTuple

from lfverify.experiments._statistics import one_sided_p_value, rejects, summarize

__all__ = ["SmallSampleComparison", "small_sample_comparisons", "plug_in_significant_wins", "TauShape",
           "tau_shapes"]

PROPOSED = ("U-GD", "U-BFGS")
PLUG_IN = "Plug-in"


def _mean(values) -> float:
    return summarize(values).mean


class SmallSampleComparison(NamedTuple):
    """The better proposed method against Plug-in at one (data set, n)."""

    dataset: str
    size: int
    method: str  #: U-GD or U-BFGS, whichever has the higher mean
    mean: float
    plug_in_mean: float
    p_value: float | None  #: H1: mean(method) > mean(Plug-in)
    significant: bool


def small_sample_comparisons(curves: dict, *, largest_small_size: int = 40,
                             alpha: float = 0.05) -> list[SmallSampleComparison]:
    """App. C.5's small-sample claim, one row per (data set, n <= ``largest_small_size``) where Plug-in and at
    least one proposed method have trials (see the module docstring)."""
    rows = []
    for dataset in sorted(curves):
        per_method = curves[dataset]
        if PLUG_IN not in per_method:
            continue
        for size in sorted(x for x in per_method[PLUG_IN] if x <= largest_small_size):
            candidates = {m: per_method[m][size] for m in PROPOSED if per_method.get(m, {}).get(size)}
            if not candidates or not per_method[PLUG_IN][size]:
                continue
            method = max(candidates, key=lambda m: _mean(candidates[m]))  # U-GD wins a tie (listed first)
            p = one_sided_p_value(candidates[method], per_method[PLUG_IN][size])
            rows.append(SmallSampleComparison(dataset, size=int(size), method=method, mean=_mean(candidates[method]),
                                              plug_in_mean=_mean(per_method[PLUG_IN][size]), p_value=p,
                                              significant=rejects(p, alpha)))
    return rows


def plug_in_significant_wins(curves: dict, *, sizes=(100, 400),
                             alpha: float = 0.05) -> tuple[list[tuple[str, int]], int]:
    """(the (data set, n) with ``sizes[0] <= n <= sizes[1]`` where Plug-in beats both U-GD and U-BFGS
    significantly, the number of (data set, n) compared)."""
    low, high = sizes
    wins, compared = [], 0
    for dataset in sorted(curves):
        per_method = curves[dataset]
        for size in sorted(x for x in per_method.get(PLUG_IN, {}) if low <= x <= high):
            others = [per_method[m][size] for m in PROPOSED if per_method.get(m, {}).get(size)]
            if len(others) != len(PROPOSED):
                continue
            compared += 1
            if all(rejects(one_sided_p_value(per_method[PLUG_IN][size], other), alpha)
                   for other in others):
                wins.append((dataset, int(size)))
    return wins, compared


class TauShape(NamedTuple):
    """The shape of one method's test metric against tau on one data set."""

    dataset: str
    method: str
    smallest_tau: float
    largest_tau: float
    rise: float  #: mean at the largest tau - mean at the smallest tau
    rise_p_value: float | None  #: H1: mean(largest tau) > mean(smallest tau)
    increasing: bool  #: the rise is significant
    best_tau: float  #: the tau with the highest mean (the smaller one on a tie)
    interior_maximum: bool  #: best_tau is strictly inside and significantly better than both ends


def tau_shapes(curves: dict, *, alpha: float = 0.05) -> list[TauShape]:
    """App. C.6's two statements, one row per (data set, method) with at least three taus (see the module
    docstring)."""
    rows = []
    for dataset in sorted(curves):
        for method in sorted(curves[dataset]):
            per_tau = {float(t): v for t, v in curves[dataset][method].items() if v}
            if len(per_tau) < 3:
                continue
            taus = sorted(per_tau)
            lo, hi = taus[0], taus[-1]
            rise_p = one_sided_p_value(per_tau[hi], per_tau[lo])
            best = max(taus, key=lambda t: _mean(per_tau[t]))  # max keeps the first (smallest) tau of a tie
            interior = lo < best < hi and all(
                rejects(one_sided_p_value(per_tau[best], per_tau[end]), alpha) for end in (lo, hi))
            rows.append(TauShape(dataset, method=method, smallest_tau=lo, largest_tau=hi,
                                 rise=_mean(per_tau[hi]) - _mean(per_tau[lo]), rise_p_value=rise_p,
                                 increasing=rejects(rise_p, alpha), best_tau=best, interior_maximum=interior))
    return rows
