"""The exact metric-maximising threshold (lfverify/learn/_thresholds.py), an extension beyond the paper.

Oracles: brute force over every threshold that changes the predictions (``reference_best_threshold``, direct
counting, O(n^2)); exact rational counts of the predictions a threshold makes (Fraction arithmetic for the metric
values); hand-computed cases; for the order and float-resolution sweeps (issue 45), the same brute force on every
order and sign of the scores, and hand computations at adjacent doubles (``np.nextafter``) whose midpoints round
down or up (ties to even), each with a companion that runs the check on a planted variant (tests/planted.py) and
sees it fail.

Private: lfverify.learn._thresholds, whose _best_threshold, _cuts_between, _below_lowest and _positive_rate_from_folds
the companions replace by planted variants (a sort left out, a comparison swapped), and whose _cuts_between and
_below_lowest guards of their ordering preconditions are called directly.
"""

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lfverify.learn._thresholds as thresholds_module
from lfverify.core import accuracy, f1, f_beta, gower_legendre, jaccard
from lfverify.learn import (
    best_threshold,
    positive_rate_from_folds,
    reference_best_threshold,
    threshold_for_positive_rate,
)
from planted import planting

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


@pytest.mark.parametrize("reference, error, message", [
    ("x", TypeError, "reference must be a real number; got 'x'"),
    (float("nan"), ValueError, "reference must be a finite real number in (-inf, inf); got nan"),
])
def test_best_threshold_names_a_bad_reference(reference, error, message):
    """Oracle: the messages typed out, naming the argument.

    Kills `lfverify.learn._thresholds.x_best_threshold__mutmut_28` (the argument's name dropped)."""
    with pytest.raises(error) as raised:
        best_threshold(np.array([0.1, 0.9]), np.array([-1, 1]), f1(), reference=reference)
    assert str(raised.value) == message


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
    # the type of what was given, by name (kills `..._mutmut_7` of the seed-2027 sample: NoneType named instead)
    for scores, kind in (("ab", "str"), ([object()], "list")):
        with pytest.raises(TypeError, match=exactly(f"scores must be a 1-D array of real numbers; got {kind}")):
            threshold_for_positive_rate(scores, 0.5)


# ------------------------------------------------------------------ issue 45: order sweeps (item 2)
#: Scores with ties, a one-ulp pair and both signs; labels mixed so that interior cuts win for some metrics.
SWEEP_SCORES = np.array([0.5, -1.25, 2.0, 0.5, -3.0, np.nextafter(2.0, 3.0), 0.0, -1.25, 1.0])
SWEEP_LABELS = np.array([1, -1, 1, -1, -1, 1, 1, 1, -1])


def _orders(n):
    """As given, reversed, increasing, decreasing and a fixed shuffle of the scores' positions."""
    given = np.arange(n)
    return {"given": given, "reversed": given[::-1], "increasing": np.argsort(SWEEP_SCORES, kind="stable"),
            "decreasing": np.argsort(-SWEEP_SCORES, kind="stable"), "shuffled": np.array([4, 0, 7, 2, 8, 1, 6, 3, 5])}


def check_best_threshold_is_order_free(best=best_threshold):
    """Every order of the same sample, for each sign of the scores and of ``reference``, gives one choice (threshold,
    value, count exactly), equal to the brute force's maximum, whose predictions are among its maximisers."""
    for metric in (f1(), accuracy(), jaccard()):
        for sign in (1.0, -1.0):
            scores = sign * SWEEP_SCORES
            best_value, maximisers = reference_best_threshold(scores, SWEEP_LABELS, metric)
            for reference in (0.0, 0.75, -0.75):
                choices = set()
                for name, order in _orders(scores.size).items():
                    choice = _refusal_fails(best, scores[order], SWEEP_LABELS[order], metric, reference=reference)
                    predicted = np.empty(scores.size, dtype=int)
                    predicted[order] = np.where(scores[order] > choice.threshold, 1, -1)
                    assert choice.value == best_value, (metric.name, sign, name)
                    assert tuple(predicted) in maximisers, (metric.name, sign, name)
                    choices.add(tuple(choice))
                assert len(choices) == 1, (metric.name, sign, reference, choices)


def test_best_threshold_is_the_same_in_every_order_and_sign():
    """Oracle: brute force (``reference_best_threshold``, order-free by construction) on the same sample in five
    orders (given, reversed, increasing, decreasing, shuffled), for scores and ``reference`` of both signs."""
    check_best_threshold_is_order_free()


def test_companion_best_threshold_without_its_sort_fails_the_order_sweep(monkeypatch):
    """Companion: a planted _best_threshold that takes the scores in the order given (no argsort) fails."""
    planting(monkeypatch, thresholds_module, "_best_threshold", "order = np.argsort(s)[::-1]",
             "order = np.arange(s.size)")
    with pytest.raises(AssertionError):
        check_best_threshold_is_order_free()


def check_positive_rate_is_order_free(at_rate=threshold_for_positive_rate):
    """threshold_for_positive_rate: every order of the scores (both signs) predicts the count nearest rate n (the
    smaller of two equally near) and gives the same threshold."""
    for sign in (1.0, -1.0):
        scores = sign * SWEEP_SCORES
        attainable = sorted({0} | {int(np.count_nonzero(scores >= v)) for v in scores})
        for rate in (0.0, 0.25, 0.5, 4 / 9, 0.75, 1.0):
            target = rate * scores.size
            wanted = min(attainable, key=lambda k: (abs(k - target), k))
            found = set()
            for order in _orders(scores.size).values():
                t = at_rate(scores[order], rate)
                assert int(np.count_nonzero(scores > t)) == wanted, (sign, rate)
                found.add(t)
            assert len(found) == 1, (sign, rate, found)


def test_threshold_for_positive_rate_is_the_same_in_every_order_and_sign():
    """Oracle: the attainable counts listed by direct counting (0 and #{s >= v} for each score v)."""
    check_positive_rate_is_order_free()


def test_companion_threshold_for_positive_rate_without_its_sort_fails_the_order_sweep(monkeypatch):
    """Companion: a planted threshold_for_positive_rate that searches the scores in the order given fails."""
    variant = planting(monkeypatch, thresholds_module, "threshold_for_positive_rate",
                       "np.searchsorted(-np.sort(s)[::-1], -distinct", "np.searchsorted(-s, -distinct")
    with pytest.raises(AssertionError):
        check_positive_rate_is_order_free(variant)


def check_folds_are_order_free(from_folds=positive_rate_from_folds):
    """positive_rate_from_folds: reordering the rows inside a fold (reversed, increasing) or the folds themselves
    changes nothing; the rate equals the one of folds given in decreasing order, a hand computation below."""
    fold_a = (np.array([30.0, 20.0, 10.0, 10.0]), np.array([1, 1, -1, 1]))
    fold_b = (np.array([0.3, 0.2, 0.1]), np.array([1, -1, -1]))
    # positions q (#{fold scores >= s} / fold size): fold A 1/4 (+), 2/4 (+), 4/4 (-), 4/4 (+) - the tie of 10s
    # shares one position -; fold B 1/3 (+), 2/3 (-), 3/3 (-); P = 4 of n = 7.  F_1 = 2 TP / (TP + FP + P) of
    # "q <= r" for r = 1/4, 1/3, 1/2, 2/3, 1: TP/FP = 1/0, 2/0, 3/0, 3/1, 4/3 -> 2/5, 4/6, 6/7, 6/8, 8/11: the best
    # is r = 1/2, 3 of the 7 samples positive
    expected = 3 / 7
    for order_a in (np.arange(4), np.arange(4)[::-1], np.argsort(fold_a[0], kind="stable")):
        for order_b in (np.arange(3), np.arange(3)[::-1]):
            a = (fold_a[0][order_a], fold_a[1][order_a])
            b = (fold_b[0][order_b], fold_b[1][order_b])
            assert from_folds([a[0], b[0]], [a[1], b[1]], f1()) == expected
            assert from_folds([b[0], a[0]], [b[1], a[1]], f1()) == expected


def test_positive_rate_from_folds_is_the_same_in_every_order():
    """Oracle: the hand computation in the check's comment (exact fractions of F_1 at each pooled fraction)."""
    check_folds_are_order_free()


def test_companion_folds_without_their_sort_fail_the_order_sweep(monkeypatch):
    """Companion: a planted _positive_rate_from_folds that searches each fold in the order given fails."""
    planting(monkeypatch, thresholds_module, "_positive_rate_from_folds", "descending = np.sort(s)[::-1]",
             "descending = s")
    with pytest.raises(AssertionError):
        check_folds_are_order_free()


@pytest.mark.parametrize("above, below", [(np.array([1.0]), np.array([2.0])), (np.array([1.0]), np.array([1.0])),
                                          (np.array([3.0, -1.0]), np.array([2.0, -1.0]))])
def test_cuts_between_refuses_values_out_of_decreasing_order(above, below):
    """Oracle: the precondition above > below, stated in the message with the first offending pair."""
    k = int(np.argmin(above > below))
    message = (f"above must exceed below elementwise (consecutive distinct scores, decreasing); got above = "
               f"{float(above[k])!r} <= below = {float(below[k])!r} at index {k}")
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        thresholds_module._cuts_between(above, below)


@pytest.mark.parametrize("distinct", [np.array([1.0, 2.0]), np.array([3.0, 1.0, 1.0]), np.array([-1.0, 0.0, -2.0])])
def test_below_lowest_refuses_values_that_are_not_strictly_decreasing(distinct):
    """Oracle: the precondition distinct[i] > distinct[i + 1], the first offending pair named."""
    k = int(np.argmin(distinct[:-1] > distinct[1:]))
    message = (f"distinct must be strictly decreasing (the distinct scores, highest first); got "
               f"{float(distinct[k])!r} then {float(distinct[k + 1])!r} at index {k}")
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        thresholds_module._below_lowest(distinct)


def test_companion_an_unguarded_below_lowest_returns_a_threshold_above_a_score(monkeypatch):
    """Companion: without the guard, increasing values give "the last minus the range" above every score
    (2 - (1 - 2) = 3 > 2), a threshold that predicts both scores negative: the guard is what stops it."""
    variant = planting(monkeypatch, thresholds_module, "_below_lowest", "if not np.all(distinct[:-1] > distinct[1:]):",
                       "if False:")
    assert variant(np.array([1.0, 2.0])) == 3.0


# ------------------------------------------------------------------ issue 45: float-resolution boundaries (item 3)
#: Adjacent doubles (below, above): midpoints that round down onto ``below`` (1 and its successor: 1 + 2^-53 ties to
#: the even 1) and up onto ``above`` (the predecessor of 1 and 1: 1 - 2^-54 ties to the even 1), subnormals, negative
#: values and the largest doubles.
ADJACENT = [(1.0, np.nextafter(1.0, 2.0)), (np.nextafter(1.0, 0.0), 1.0), (0.0, np.nextafter(0.0, 1.0)),
            (np.nextafter(0.0, -1.0), 0.0), (-1.0, np.nextafter(-1.0, 0.0)), (np.nextafter(-1.0, -2.0), -1.0),
            (np.nextafter(np.finfo(float).max, 0.0), np.finfo(float).max),
            (-np.finfo(float).max, np.nextafter(-np.finfo(float).max, 0.0)), (2.5, np.nextafter(2.5, 3.0))]


def _refusal_fails(best, *args, **kwargs):
    """``best(*args, **kwargs)``, a ValueError on these valid inputs turned into a failed check (AssertionError)."""
    try:
        return best(*args, **kwargs)
    except ValueError as exc:
        raise AssertionError(f"a valid input refused: {exc}") from exc


def check_adjacent_doubles_are_separated(best=best_threshold):
    """For scores one ulp apart, the better one positive and the other negative is the unique F_1 maximum (F_1 = 1);
    the threshold must lie in [below, above) so that it reproduces those predictions, in either input order and for
    either sign (negating the scores swaps which one is labelled positive)."""
    for below, above in ADJACENT:
        for sign in (1.0, -1.0):
            low, high = (below, above) if sign > 0 else (-above, -below)
            for scores, labels in (([high, low], [1, -1]), ([low, high], [-1, 1])):
                choice = _refusal_fails(best, np.array(scores), labels, f1())
                assert choice.n_predicted_positive == 1 and choice.value == 1.0, (low, high)
                assert low <= choice.threshold < high, (low, high, choice.threshold)


def test_scores_one_ulp_apart_are_separated_whichever_way_the_midpoint_rounds():
    """Oracle: hand computation - a threshold t with low <= t < high predicts exactly the higher score positive
    (F_1 = 2 TP / (2 TP + FP + FN) = 1); the midpoint of adjacent doubles rounds to one of them (ties to even)."""
    check_adjacent_doubles_are_separated()


def test_companion_a_cut_rule_accepting_the_upper_double_fails(monkeypatch):
    """Companion: ``middle <= above`` instead of ``middle < above`` keeps a midpoint rounded up onto the upper score
    (1 - 2^-54 -> 1), which then predicts it negative."""
    planting(monkeypatch, thresholds_module, "_cuts_between", "(below <= middle) & (middle < above)",
             "(below <= middle) & (middle <= above)")
    with pytest.raises(AssertionError):
        check_adjacent_doubles_are_separated()


def check_ties_and_near_ties(best=best_threshold):
    """Equal scores are one cut (never split); scores one ulp apart are two.  Labels +1 on the higher of the pair and
    -1 on the lower: with equal scores F_1 is at most 2/3 (both positive), one ulp apart it is 1 (only the higher)."""
    for x in (0.5, -3.0, 0.0, 1e300):
        for labels in ([1, -1, -1], [-1, 1, -1]):  # the positive first or second of the tie
            tie = _refusal_fails(best, np.array([x, x, x - 1.0 if abs(x) < 1e15 else -x]), labels, f1())
            assert tie.n_predicted_positive == 2 and tie.value == pytest.approx(2 / 3, rel=1e-15, abs=0)
            assert tie.threshold < x
        up = np.nextafter(x, np.inf)
        for scores, labels in (([up, x], [1, -1]), ([x, up], [-1, 1])):
            split = _refusal_fails(best, np.array(scores), labels, f1())
            assert split.n_predicted_positive == 1 and split.value == 1.0
            assert x <= split.threshold < up


def test_a_tie_is_never_split_and_one_ulp_is_not_a_tie():
    """Oracle: hand computation of F_1 = 2 TP / (2 TP + FP + FN): tie of a positive and a negative plus a lower
    negative -> the best is both tied samples positive (2/3) since a tie cannot be split; one ulp apart -> 1."""
    check_ties_and_near_ties()


@pytest.mark.parametrize("old, new", [
    ("np.greater(sorted_scores[:-1], sorted_scores[1:], out=last[:-1])",
     "np.greater_equal(sorted_scores[:-1], sorted_scores[1:], out=last[:-1])"),
    ("np.greater(sorted_scores[:-1], sorted_scores[1:], out=last[:-1])",
     "np.greater(sorted_scores[:-1], np.nextafter(sorted_scores[1:], np.inf), out=last[:-1])"),
])
def test_companion_splitting_ties_or_merging_neighbours_fails(monkeypatch, old, new):
    """Companions: a tie rule that splits equal scores (>=), and one that merges scores one ulp apart."""
    planting(monkeypatch, thresholds_module, "_best_threshold", old, new)
    with pytest.raises(AssertionError):
        check_ties_and_near_ties()


def check_reference_tie_goes_to_the_higher_threshold(best=best_threshold):
    """Scores 11, 10, 9 labelled +, -, +: accuracy 2/3 at 'top 1' (threshold 10.5) and 'all' (threshold 9 - 2 = 7),
    1/3 elsewhere; a reference at 8.75 is 1.75 from both, so the documented tie rule picks the higher, 10.5; one ulp
    above 8.75 it is nearer 10.5, one ulp below nearer 7.  Mirrored: -9, -10, -11 (thresholds -9.5 and -13, reference
    -11.25).  The distances are exact in binary (Sterbenz: the operands are within a factor 2), so one ulp of the
    reference decides; near 0.75 with thresholds 2.5 and -1 it would not (both distances round to 1.75)."""
    labels = [1, -1, 1]
    for scores, top, everything, middle in (([11.0, 10.0, 9.0], 10.5, 7.0, 8.75),
                                            ([-9.0, -10.0, -11.0], -9.5, -13.0, -11.25)):
        expected = {middle: (top, 1), np.nextafter(middle, np.inf): (top, 1),
                    np.nextafter(middle, -np.inf): (everything, 3)}
        for reference, (threshold, count) in expected.items():
            choice = best(scores, labels, accuracy(), reference=reference)
            assert (choice.threshold, choice.n_predicted_positive) == (threshold, count), reference


def test_an_exactly_equidistant_reference_takes_the_higher_threshold():
    """Oracle: hand computation (exact fractions of accuracy at each cut; distances exact in binary)."""
    check_reference_tie_goes_to_the_higher_threshold()


def test_companion_the_lower_threshold_on_an_exact_tie_fails(monkeypatch):
    """Companion: a planted tie rule that takes the last (lowest) of equally near thresholds."""
    planting(monkeypatch, thresholds_module, "_best_threshold", "k = int(np.argmin(np.abs(thresholds - reference)))",
             "k = len(thresholds) - 1 - int(np.argmin(np.abs(thresholds - reference)[::-1]))")
    with pytest.raises(AssertionError):
        check_reference_tie_goes_to_the_higher_threshold()


def check_rate_half_way_takes_the_smaller_count(at_rate=threshold_for_positive_rate):
    """Scores 4 > 3 > 2 > 1: rate 0.375 gives rate n = 1.5 exactly, half-way between 1 and 2 positives -> 1
    (threshold 3.5); one ulp above, 2 (threshold 2.5); one ulp below, 1.  Rate 0 and 1: none / all."""
    scores = [4.0, 3.0, 2.0, 1.0]
    assert at_rate(scores, 0.375) == 3.5
    assert at_rate(scores, np.nextafter(0.375, 1.0)) == 2.5
    assert at_rate(scores, np.nextafter(0.375, 0.0)) == 3.5
    assert at_rate(scores, 0.0) == 4.0 and at_rate(scores, 1.0) == 1.0 - 3.0
    assert at_rate(scores, np.nextafter(0.0, 1.0)) == 4.0 and at_rate(scores, np.nextafter(1.0, 0.0)) == 1.0 - 3.0


def test_a_rate_exactly_half_way_between_two_counts_takes_the_smaller():
    """Oracle: hand computation (0.375 * 4 = 1.5 exactly; the docstring's rule, the smaller of two equally near)."""
    check_rate_half_way_takes_the_smaller_count()


def test_companion_the_larger_count_on_a_half_way_rate_fails(monkeypatch):
    """Companion: a planted rule taking the larger of two equally near counts (Python's round(1.5) = 2)."""
    variant = planting(monkeypatch, thresholds_module, "threshold_for_positive_rate",
                       "j = int(np.argmin(np.abs(cuts - rate * s.size)))",
                       "j = cuts.size - 1 - int(np.argmin(np.abs(cuts - rate * s.size)[::-1]))")
    with pytest.raises(AssertionError):
        check_rate_half_way_takes_the_smaller_count(variant)
