"""The exact metric-maximising threshold (lfverify/learn/_thresholds.py), an extension beyond the paper.

Oracles: brute force over every threshold that changes the predictions (``reference_best_threshold``, direct
counting, O(n^2)); exact rational counts of the predictions a threshold makes (Fraction arithmetic for the metric
values); hand-computed cases.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lfverify.core import accuracy, f1, f_beta, gower_legendre, jaccard
from lfverify.learn import (
    best_threshold,
    positive_rate_from_folds,
    reference_best_threshold,
    threshold_for_positive_rate,
)

pytestmark = pytest.mark.claims("package:estimator")

METRICS = [f1(), jaccard(), f_beta(2.0), f_beta(0.5), accuracy(), gower_legendre(1.0)]

# small integer scores make ties frequent, which is where a sweep goes wrong
scores_and_labels = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-4, 4), min_size=n, max_size=n),
    st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))


@given(data=scores_and_labels, metric=st.sampled_from(METRICS))
def test_best_threshold_equals_brute_force_over_all_thresholds(data, metric):
    """Oracle: every threshold that changes the predictions, counted directly.  The returned threshold's value is
    the brute-force maximum exactly (same integer counts, same formula) and its predictions attain it."""
    raw_scores, labels = data
    scores = np.array(raw_scores, dtype=float) * 0.37  # non-integer scores, ties kept
    choice = best_threshold(scores, labels, metric)
    best, maximisers = reference_best_threshold(scores, labels, metric)
    predicted = tuple(np.where(scores > choice.threshold, 1, -1))
    assert choice.value == best
    assert predicted in maximisers
    assert choice.n_predicted_positive == sum(p == 1 for p in predicted)
    # the threshold never splits a tie and reproduces its predictions on the sample
    assert not np.any(scores == choice.threshold) or choice.n_predicted_positive == np.count_nonzero(
        scores > choice.threshold)


def test_hand_computed_f1_example():
    """Scores 4 > 3 > 2 > 1 with labels +, -, +, -: F_1 = 2 TP / (2 TP + FP + FN) for each cut (exact fractions):
    top 0: 0; top 1: 2/3; top 2: 2/4; top 3: 4/5; top 4: 4/6.  The best is the top 3, threshold (2 + 1) / 2."""
    values = [Fraction(0), Fraction(2, 3), Fraction(2, 4), Fraction(4, 5), Fraction(4, 6)]
    choice = best_threshold([4.0, 3.0, 2.0, 1.0], [1, -1, 1, -1], f1())
    assert choice.n_predicted_positive == 3 and choice.threshold == 1.5
    assert choice.value == pytest.approx(float(max(values)), rel=1e-15, abs=0)


def test_ties_among_maximisers_go_to_the_threshold_nearest_the_reference():
    """Scores 3, 2, 1 with labels +, -, +: accuracy is 1/3, 2/3, 1/3, 2/3 for the top 0, 1, 2, 3 positive, so
    'top 1' (threshold 2.5) and 'top 3' (threshold 1 - 2 = -1) tie; the one nearer ``reference`` wins."""
    scores, labels = [3.0, 2.0, 1.0], [1, -1, 1]
    near_top = best_threshold(scores, labels, accuracy(), reference=2.9)
    near_bottom = best_threshold(scores, labels, accuracy(), reference=-5.0)
    assert near_top.n_predicted_positive == 1 and near_bottom.n_predicted_positive == 3
    assert near_top.value == near_bottom.value == pytest.approx(2 / 3, rel=1e-15, abs=0)


def test_extreme_cuts_and_adjacent_doubles():
    # every sample negative is best for accuracy when positives are a minority with the lowest scores
    none = best_threshold([5.0, 4.0, 1.0], [-1, -1, 1], accuracy(), reference=10.0)
    assert none.n_predicted_positive == 0 and none.threshold == 5.0
    # every sample positive is best for F_1 when positives hold the lowest score only... and all F1 cuts tie at 0
    # except "all": scores 2, 1 with labels -, +: top 1 F1 = 0, top 2 F1 = 2 / 3
    every = best_threshold([2.0, 1.0], [-1, 1], f1())
    assert every.n_predicted_positive == 2 and every.threshold == 1.0 - 1.0  # lowest minus the range
    # adjacent doubles: the midpoint rounds onto the upper one, so the lower one is the threshold
    low = 1.0
    high = np.nextafter(low, 2.0)
    choice = best_threshold([high, low], [1, -1], f1())
    assert choice.n_predicted_positive == 1 and low <= choice.threshold < high
    # scores near the largest double: the range overflows, so the threshold is the next double below the lowest
    big = np.finfo(float).max
    choice = best_threshold([big, -big / 4], [1, 1], f1())
    assert choice.n_predicted_positive == 2 and choice.threshold == np.nextafter(-big / 4, -np.inf)
    with pytest.raises(ValueError, match="no finite threshold lies below the lowest score"):
        best_threshold([big, -big], [1, 1], f1())  # every sample positive is best, and nothing lies below -max


@pytest.mark.parametrize("scores, y, error, match", [
    ([1.0, np.nan], [1, -1], ValueError, "scores must be finite"),
    ([], [], ValueError, "non-empty 1-D"),
    ([[1.0, 2.0]], [1, -1], ValueError, "non-empty 1-D"),
    ([1.0, 2.0], [1], ValueError, "y must have 2 entries"),
    ([1.0, 2.0], [1, 2], ValueError, r"y must hold labels in \{-1, \+1\}"),
    ("ab", [1, -1], TypeError, "scores must be a 1-D array of real numbers"),
])
def test_bad_input_is_named(scores, y, error, match):
    with pytest.raises(error, match=match):
        best_threshold(scores, y, f1())
    with pytest.raises(TypeError, match="metric must be a LinearFractionalMetric"):
        best_threshold([1.0, 2.0], [1, -1], "f1")


@given(raw=st.lists(st.integers(-3, 3), min_size=1, max_size=25), rate=st.floats(0.0, 1.0))
def test_threshold_for_positive_rate_takes_the_nearest_attainable_count(raw, rate):
    """Oracle: the attainable positive counts are 0 and #{s >= v} for each distinct v; the threshold predicts the
    one nearest rate * n (the smaller on a tie), and never splits a tie."""
    scores = np.array(raw, dtype=float)
    t = threshold_for_positive_rate(scores, rate)
    predicted = int(np.count_nonzero(scores > t))
    attainable = sorted({0} | {int(np.count_nonzero(scores >= v)) for v in scores})
    target = rate * scores.size
    best = min(attainable, key=lambda k: (abs(k - target), k))
    assert predicted == best


def test_positive_rate_from_folds_is_the_pooled_best_fraction():
    """Two folds whose scores live on different scales: only the order inside each fold matters.  Fold A ranks
    its two positives first, fold B its one positive first; predicting each fold's top third gives TP = 1 + 1,
    FP = 0 (F_1 = 4 / 5), the top two thirds TP = 2 + 1, FP = 1 (F_1 = 6 / 7, the best), all of them 6 / 9; so 4 of
    the 6 pooled samples are positive."""
    fold_a = (np.array([30.0, 20.0, 10.0]), np.array([1, 1, -1]))
    fold_b = (np.array([0.3, 0.2, 0.1]), np.array([1, -1, -1]))
    rate = positive_rate_from_folds([fold_a[0], fold_b[0]], [fold_a[1], fold_b[1]], f1())
    assert rate == pytest.approx(4 / 6, rel=1e-15, abs=0)
    # a scale change of one fold changes nothing; an order change does
    assert positive_rate_from_folds([fold_a[0] * 1e6, fold_b[0]], [fold_a[1], fold_b[1]], f1()) == rate
    flipped = positive_rate_from_folds([-fold_a[0], fold_b[0]], [fold_a[1], fold_b[1]], f1())
    assert flipped != rate


def test_bad_scores_and_rates_are_named_in_full_messages():
    """Full messages, typed out by hand: the first non-finite score's index (2: the inf before the nan), a NaN or
    empty score array for threshold_for_positive_rate, and a rate outside [0, 1] (1.5 just above it).

    Kills `lfverify.learn._thresholds.x__check_scores__mutmut_21` (argmin(None) in the message),
    `lfverify.learn._thresholds.x_threshold_for_positive_rate__mutmut_16` (ValueError(None)), `..._mutmut_27` ("RATE")
    and `..._mutmut_29` (high=2.0 lets 1.5 through)."""
    import re

    def exactly(message):
        return "^" + re.escape(message) + "$"

    with pytest.raises(ValueError, match=exactly("scores must be finite; got a non-finite score at index 2")):
        best_threshold([1.0, 2.0, np.inf, np.nan], [1, -1, 1, 1], f1())
    for scores, shape in (([1.0, np.nan], "(2,)"), ([], "(0,)")):
        with pytest.raises(ValueError, match=exactly(
                f"scores must be a non-empty 1-D array of finite numbers; got shape {shape}")):
            threshold_for_positive_rate(scores, 0.5)
    for rate in (1.5, -0.5):
        with pytest.raises(ValueError, match=exactly(f"rate must lie in [0.0, 1.0]; got {rate}")):
            threshold_for_positive_rate([1.0, 2.0], rate)
    assert threshold_for_positive_rate([1.0, 2.0], 1.0) == 1.0 - 1.0  # rate 1 is allowed: every sample positive
