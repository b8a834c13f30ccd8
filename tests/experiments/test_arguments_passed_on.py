"""Every argument is passed on: the compare and curve-claim decisions follow ``alpha``, ``test`` and ``metric``
(issue 45, item 4).

Oracle: SciPy's one-sided t-tests (``ttest_ind(equal_var=False)`` for "welch", ``ttest_rel`` for "paired", H1: the
first sample's mean is larger).  A remedy is "below" the peer exactly when that p-value is < ``alpha``; the data are
chosen so that the decision differs between the levels (Welch p = 0.059, paired p = 0.00026), so each parameter,
changed alone, must change the result as the oracle says.  ``collect_fit_time_ratios`` reads the timings of the
metric it is given (f1 and jaccard timings differ by a known factor).

Companions: each check run against a one-line planted variant (tests/planted.py) whose inner call uses the
default (``alpha`` 0.05, the Welch test, the f1 timings) must raise AssertionError.

Private: lfverify.experiments._comparison and lfverify.experiments._curve_claims (compare_targets,
collect_fit_time_ratios, small_sample_comparisons and plug_in_significant_wins are planted with one-line variants
that drop an argument; the public names call them through these modules).
"""

from __future__ import annotations

import pytest
from scipy import stats

import lfverify.experiments._comparison as comparison
import lfverify.experiments._curve_claims as curve_claims
from planted import planted as mutant

pytestmark = pytest.mark.claims("package:benchmark-machinery")

PEER = [0.60, 0.63, 0.61, 0.64, 0.62, 0.65]
REMEDY = [0.59, 0.61, 0.60, 0.62, 0.60, 0.63]


def _p(first, second, test):
    if test == "welch":
        return stats.ttest_ind(first, second, equal_var=False, alternative="greater").pvalue
    return stats.ttest_rel(first, second, alternative="greater").pvalue


def check_compare_targets(compare_targets) -> None:
    values = {"d": {comparison.PEER: PEER, "Cost-sensitive": REMEDY}}
    seen = set()
    for test in ("welch", "paired"):
        for alpha in (0.001, 0.01, 0.05, 0.1):
            t = compare_targets(values, {}, remedies=["Cost-sensitive"], alpha=alpha, test=test)["Cost-sensitive"]
            below = _p(PEER, REMEDY, test) < alpha
            assert t["below_peer"] == (["d"] if below else []), (test, alpha, t)
            assert t["not_below_peer"] == ([] if below else ["d"]), (test, alpha, t)
            seen.add(below)
    assert seen == {True, False}  # the data make both decisions


def test_compare_targets_follow_alpha_and_test():
    check_compare_targets(comparison.compare_targets)


@pytest.mark.parametrize("old, new", [
    ("below = rejects(one_sided_p_value(row[PEER], row[remedy], test=test), alpha)",
     "below = rejects(one_sided_p_value(row[PEER], row[remedy], test=test), 0.05)"),
    ("below = rejects(one_sided_p_value(row[PEER], row[remedy], test=test), alpha)",
     "below = rejects(one_sided_p_value(row[PEER], row[remedy]), alpha)"),
])
def test_companion_compare_targets_check_fails_when_an_argument_is_dropped(old, new):
    with pytest.raises(AssertionError):
        check_compare_targets(mutant(comparison.compare_targets, old, new))


def check_fit_time_ratios_metric(collect) -> None:
    timing = {"methods": {"f1": {"LogReg": 2.0, "Plug-in": 1.0}, "jaccard": {"LogReg": 2.0, "Plug-in": 3.0},
                          "erm_start": {}}}
    records = [{"dataset": "d"}]
    assert collect(records, [timing], "f1") == {"d": {"LogReg": [1.0], "Plug-in": [0.5]}}
    assert collect(records, [timing], "jaccard") == {"d": {"LogReg": [1.0], "Plug-in": [1.5]}}


def test_fit_time_ratios_follow_the_metric():
    check_fit_time_ratios_metric(comparison.collect_fit_time_ratios)


def test_companion_fit_time_ratio_check_fails_when_the_metric_is_dropped():
    planted = mutant(comparison.collect_fit_time_ratios, 'seconds = timing.get("methods", {}).get(metric, {})',
                     'seconds = timing.get("methods", {}).get("f1", {})')
    with pytest.raises(AssertionError):
        check_fit_time_ratios_metric(planted)


CURVES = {"d": {"Plug-in": {20: REMEDY, 200: PEER}, "U-GD": {20: PEER, 200: REMEDY},
                "U-BFGS": {20: REMEDY, 200: REMEDY}}}


def check_curve_claims(small_sample, plug_in_wins) -> None:
    p = _p(PEER, REMEDY, "welch")
    for alpha in (0.05, 0.1):
        rows = small_sample(CURVES, alpha=alpha)
        assert [(r.size, r.method, r.significant) for r in rows] == [(20, "U-GD", p < alpha)], (alpha, rows)
        assert rows[0].p_value == pytest.approx(p, rel=1e-12)
        assert plug_in_wins(CURVES, alpha=alpha) == (([("d", 200)] if p < alpha else []), 1), alpha
    assert small_sample(CURVES, largest_small_size=10) == []  # n = 20 is no longer small
    assert plug_in_wins(CURVES, sizes=(300, 400)) == ([], 0)  # n = 200 is outside the range


def test_curve_claims_follow_alpha_and_the_sizes():
    check_curve_claims(curve_claims.small_sample_comparisons, curve_claims.plug_in_significant_wins)


@pytest.mark.parametrize("which, old, new", [
    ("small", "significant=rejects(p, alpha)", "significant=rejects(p, 0.05)"),
    ("small", "if x <= largest_small_size", "if x <= 40"),
    ("wins", "if all(rejects(one_sided_p_value(per_method[PLUG_IN][size], other), alpha)",
     "if all(rejects(one_sided_p_value(per_method[PLUG_IN][size], other), 0.05)"),
    ("wins", "low, high = sizes", "low, high = (100, 400)"),
])
def test_companion_curve_claims_check_fails_when_an_argument_is_dropped(which, old, new):
    small, wins = curve_claims.small_sample_comparisons, curve_claims.plug_in_significant_wins
    if which == "small":
        small = mutant(small, old, new)
    else:
        wins = mutant(wins, old, new)
    with pytest.raises(AssertionError):
        check_curve_claims(small, wins)
