"""Sampling and intervals of benchmarks/mutation_statistics.py.

Oracles: scipy.stats.binomtest(...).proportion_ci(method="exact") for Clopper-Pearson; weighted rates and Kish's
effective sample size computed by hand for two strata.
"""

import sys

import pytest
from scipy import stats

from benchmark_scripts import BENCHMARKS

if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
import mutation_statistics as ms  # noqa: E402

NAMES = [f"lfverify.m.x_f__mutmut_{i}" for i in range(1, 301)]


def test_same_seed_same_sample_other_seed_or_stratum_other_sample():
    first = ms.sample_names(NAMES, 25, seed=7, stratum="lfverify.m:mutmut")
    assert first == ms.sample_names(list(reversed(NAMES)), 25, seed=7, stratum="lfverify.m:mutmut")  # order-free
    assert len(first) == len(set(first)) == 25 and set(first) <= set(NAMES) and first == sorted(first)
    assert first != ms.sample_names(NAMES, 25, seed=8, stratum="lfverify.m:mutmut")
    assert first != ms.sample_names(NAMES, 25, seed=7, stratum="lfverify.m:args")


def test_a_stratum_no_larger_than_the_sample_is_taken_whole():
    assert ms.sample_names(NAMES[:10], 10, seed=1, stratum="s") == sorted(NAMES[:10])
    assert ms.sample_names(NAMES, None, seed=1, stratum="s") == sorted(NAMES)
    with pytest.raises(ValueError, match="n must be >= 1"):
        ms.sample_names(NAMES, 0, seed=1, stratum="s")
    with pytest.raises(ValueError, match="distinct"):
        ms.sample_names(["a", "a"], 1, seed=1, stratum="s")


def test_the_sample_covers_the_stratum_uniformly():
    """Each name's inclusion frequency over 400 seeds is 25/300; a chi-square test of the counts over 300 names
    (df 299) must not reject at 1e-3, while the first 25 names taken as a 'sample' every time is rejected."""
    counts = dict.fromkeys(NAMES, 0)
    for seed in range(400):
        for name in ms.sample_names(NAMES, 25, seed=seed, stratum="s"):
            counts[name] += 1
    expected = 400 * 25 / 300
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert stats.chi2.sf(chi2, 299) > 1e-3
    biased = {n: (400 if i < 25 else 0) for i, n in enumerate(NAMES)}
    assert stats.chi2.sf(sum((c - expected) ** 2 / expected for c in biased.values()), 299) < 1e-3


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 30), (30, 30), (29, 30), (97, 100), (3, 17), (500, 503)])
def test_clopper_pearson_matches_scipy(k, n):
    """scipy's binomtest finds the bounds by root-finding (agreement to 1e-9 relative); the defining tail
    equations P(X >= k | low) = P(X <= k | high) = 2.5 % hold to 1e-10 relative."""
    expected = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    low, high = ms.clopper_pearson(k, n)
    assert low == pytest.approx(expected.low, rel=1e-9, abs=1e-15)
    assert high == pytest.approx(expected.high, rel=1e-9, abs=1e-15)
    if k > 0:
        assert stats.binom.sf(k - 1, n, low) == pytest.approx(0.025, rel=1e-10)
    if k < n:
        assert stats.binom.cdf(k, n, high) == pytest.approx(0.025, rel=1e-10)


def test_clopper_pearson_refuses_impossible_counts():
    for k, n in ((3, 2), (-1, 5), (0, 0)):
        with pytest.raises(ValueError, match="successes <= trials"):
            ms.clopper_pearson(k, n)


def test_one_stratum_gives_clopper_pearson_on_the_non_equivalent_tried_mutants():
    s = ms.estimate([ms.Stratum(available=500, tried=100, detected=93, equivalent=4)])
    assert s["rate"] == 93 / 96 and not s["exact"] and s["effective_n"] == pytest.approx(96, rel=1e-12)
    expected = stats.binomtest(93, 96).proportion_ci(method="exact")
    assert (s["low"], s["high"]) == (pytest.approx(expected.low, rel=1e-9), pytest.approx(expected.high, rel=1e-9))


def test_strata_tried_in_full_give_the_exact_rate_without_an_interval():
    s = ms.estimate([ms.Stratum(20, 20, 18, 1), ms.Stratum(7, 7, 7, 0)])
    assert s["rate"] == 25 / 26 and s["exact"] and s["low"] is None and s["high"] is None


def test_sampled_strata_are_weighted_by_what_each_tried_mutant_stands_for():
    """Stratum A: 1000 mutants, 100 tried, 90 detected, 0 equivalent (weight 10); stratum B: 50 of 50 tried, 50
    detected (weight 1).  Rate (10*90 + 50) / (10*100 + 50) = 950/1050, not the pooled 140/150; Kish's effective
    size (10*100 + 50)^2 / (100*100 + 50) = 1102500/10050."""
    s = ms.estimate([ms.Stratum(1000, 100, 90, 0), ms.Stratum(50, 50, 50, 0)])
    assert s["rate"] == pytest.approx(950 / 1050, rel=1e-12)
    assert s["effective_n"] == pytest.approx(1102500 / 10050, rel=1e-12)
    low, high = ms.clopper_pearson(950 / 1050 * 1102500 / 10050, 1102500 / 10050)
    assert (s["low"], s["high"]) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    assert s["low"] < 950 / 1050 < s["high"]


def test_no_non_equivalent_mutant_gives_no_rate_and_counts_must_be_consistent():
    assert ms.estimate([ms.Stratum(3, 2, 0, 2)])["rate"] is None
    assert ms.estimate([])["rate"] is None
    with pytest.raises(ValueError, match="detected \\+ equivalent <= tried <= available"):
        ms.Stratum(available=5, tried=6, detected=1, equivalent=0)
    with pytest.raises(ValueError):
        ms.Stratum(available=5, tried=3, detected=3, equivalent=1)
