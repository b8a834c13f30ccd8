"""Tests of the linear-fractional metrics (Definition 1, Table 1, Proposition 5).

Expected values are written here from the definitions in TP, FN, FP, TN (Table 1 of the paper), computed in
exact rational arithmetic where rounding matters, or taken from scikit-learn; they are never computed by
:mod:`lfverify.core._metrics` itself.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
import sklearn.exceptions
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, fbeta_score, jaccard_score

from lfverify.core import LinearFractionalMetric, UndefinedMetricWarning, accuracy, f1, f_beta, gower_legendre, jaccard

pytestmark = pytest.mark.claims("Definition 1", "Table 1", "Proposition 5")

EPS = float(np.finfo(np.float64).eps)
TINY = float(np.finfo(np.float64).tiny)  # smallest normal double: below it there is no relative precision

# ----------------------------------------------------------------------------------------- strategies
unit = st.floats(0.0, 1.0)
betas = st.floats(1e-2, 1e2)
alphas = st.floats(0.0, 1e2)


def feasible(prior, u, v):
    """A feasible population confusion point: 0 <= TP <= pi, 0 <= FP <= 1 - pi (u, v in [0, 1])."""
    return u * prior, v * (1.0 - prior), prior


# ------------------------------------------------------------------------------- Table 1, written out
def exact_confusion(tp, fp, prior):
    """(TP, FN, FP, TN) as exact rationals of the given doubles: FN = pi - TP, TN = 1 - pi - FP."""
    TP, FP, P = Fraction(tp), Fraction(fp), Fraction(prior)
    return TP, P - TP, FP, 1 - P - FP


def table1_exact(name, param, tp, fp, prior):
    """(U, denominator) of the Table 1 definition, in exact arithmetic."""
    TP, FN, FP, TN = exact_confusion(tp, fp, prior)
    if name == "f_beta":
        b2 = Fraction(param) ** 2
        num, den = (1 + b2) * TP, (1 + b2) * TP + b2 * FN + FP
    elif name == "jaccard":
        num, den = TP, TP + FN + FP
    elif name == "gower_legendre":
        a = Fraction(param)
        num, den = TP + TN, TP + a * (FP + FN) + TN
    elif name == "accuracy":
        num, den = TP + TN, Fraction(1)  # TP + TN over the total mass TP + FN + FP + TN = 1
    else:
        raise AssertionError(name)
    return (num / den if den != 0 else None), den


def rounding_slack(name, param, tp, fp, prior, u_exact, den_exact):
    """Forward-error bound of evaluating U = (a0 . (TP, FP) + b0) / (a1 . (TP, FP) + b1) in doubles.

    Summing k terms in floating point errs by at most ~k u * (sum of |terms|); with the Table 1 coefficients
    the term magnitudes are the sums below.  For F_beta and Jaccard every term is non-negative, so this is
    ~16 EPS |U| (a relative bound); for Gower-Legendre and accuracy, eliminating FN = pi - TP and
    TN = 1 - pi - FP introduces cancellation, which this bound quantifies (it is what any implementation of
    Definition 1's form (1) incurs).
    """
    if name == "f_beta":
        b2 = param * param
        t_num, t_den = (1 + b2) * tp, tp + fp + b2 * prior
    elif name == "jaccard":
        t_num, t_den = tp, fp + prior
    elif name == "gower_legendre":
        t_num, t_den = tp + fp + 1 + prior, abs(1 - param) * (tp + fp + prior) + 1
    else:
        t_num, t_den = tp + fp + 1 + prior, 1.0
    # Below the smallest normal double (TP ~ 5e-324, say) products have an absolute rounding error of up to
    # half the smallest subnormal instead of a relative one; that adds SUB (1 + |U|) / den per operation.
    SUB = 5e-324
    u_abs = abs(float(u_exact))
    return Fraction(8 * EPS * (t_num + u_abs * t_den) + 8 * SUB * (1 + u_abs)) / abs(den_exact) + Fraction(TINY)


def _check_table1(metric, name, param, tp, fp, prior):
    _, fn_exact, _, tn_exact = exact_confusion(tp, fp, prior)
    # (1 - prior) is rounded, so v (1 - prior) may exceed the exact 1 - prior by an ulp: not a feasible point
    assume(fn_exact >= 0 and tn_exact >= 0)
    u_exact, den = table1_exact(name, param, tp, fp, prior)
    assume(u_exact is not None)
    got = metric.value(tp, fp, prior, zero_division=0.0)
    assert np.ndim(got) == 0
    slack = rounding_slack(name, param, tp, fp, prior, u_exact, den)
    err = abs(Fraction(float(got)) - u_exact)
    assert err <= Fraction(1e-12) * abs(u_exact) + slack, (float(got), float(u_exact))


@given(beta=betas, prior=unit, u=unit, v=unit)
def test_f_beta_value_matches_table1(beta, prior, u, v):
    _check_table1(f_beta(beta), "f_beta", beta, *feasible(prior, u, v))


@given(prior=unit, u=unit, v=unit)
def test_jaccard_value_matches_table1(prior, u, v):
    _check_table1(jaccard(), "jaccard", None, *feasible(prior, u, v))


@given(alpha=alphas, prior=unit, u=unit, v=unit)
def test_gower_legendre_value_matches_table1(alpha, prior, u, v):
    _check_table1(gower_legendre(alpha), "gower_legendre", alpha, *feasible(prior, u, v))


@given(prior=unit, u=unit, v=unit)
def test_accuracy_value_matches_table1(prior, u, v):
    _check_table1(accuracy(), "accuracy", None, *feasible(prior, u, v))


@given(beta=betas, prior=st.floats(0.05, 0.95), u=st.floats(0.05, 1.0), v=unit)
def test_f_beta_value_plain_float_formula(beta, prior, u, v):
    """Same check with the textbook formula in plain doubles, rel 1e-12 (well-conditioned: all terms >= 0)."""
    tp, fp, pi = feasible(prior, u, v)
    fn = pi - tp
    b2 = beta ** 2
    expected = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
    assert f_beta(beta).value(tp, fp, pi) == pytest.approx(expected, rel=1e-12, abs=0)


def test_table1_concrete_values():
    """Hand-computed values at TP = 0.3, FP = 0.1, pi = 0.4 (FN = 0.1, TN = 0.5)."""
    assert f1().value(0.3, 0.1, 0.4) == pytest.approx(0.6 / (0.6 + 0.1 + 0.1), rel=1e-15, abs=0)
    assert f_beta(2.0).value(0.3, 0.1, 0.4) == pytest.approx(1.5 / (1.5 + 0.4 + 0.1), rel=1e-15, abs=0)
    assert jaccard().value(0.3, 0.1, 0.4) == pytest.approx(0.3 / 0.5, rel=1e-15, abs=0)
    assert gower_legendre(0.5).value(0.3, 0.1, 0.4) == pytest.approx(0.8 / 0.9, rel=1e-15, abs=0)
    assert accuracy().value(0.3, 0.1, 0.4) == pytest.approx(0.8, rel=1e-15, abs=0)


def test_value_vectorized_broadcasting():
    tp = np.array([[0.0, 0.1, 0.2]])
    fp = np.array([[0.0], [0.3]])
    out = f1().value(tp, fp, 0.4)
    assert out.shape == (2, 3)
    for i, j in itertools.product(range(2), range(3)):
        t, f = tp[0, j], fp[i, 0]
        assert out[i, j] == pytest.approx(2 * t / (2 * t + (0.4 - t) + f), rel=1e-14, abs=0)


# ------------------------------------------------------------------------------- scikit-learn agreement
@st.composite
def label_pairs(draw, k=None):
    n = draw(st.integers(1, 25))
    neg, pos = draw(st.sampled_from([(0, 1), (-1, 1)]))
    y_true = np.array(draw(st.lists(st.sampled_from([neg, pos]), min_size=n, max_size=n)))
    rows = 1 if k is None else k
    preds = []
    for _ in range(rows):
        kind = draw(st.sampled_from(["random", "all_negative", "all_positive", "copy"]))
        if kind == "random":
            preds.append(draw(st.lists(st.sampled_from([neg, pos]), min_size=n, max_size=n)))
        elif kind == "all_negative":
            preds.append([neg] * n)
        elif kind == "all_positive":
            preds.append([pos] * n)
        else:
            preds.append(list(y_true))
    y_pred = np.array(preds[0]) if k is None else np.array(preds)
    return y_true, y_pred


def _run(fn, *args, **kwargs):
    """Call fn and return (result, number of UndefinedMetricWarnings of either library)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    n = sum(issubclass(w.category, (UndefinedMetricWarning, sklearn.exceptions.UndefinedMetricWarning))
            for w in caught)
    return out, n


ZERO_DIVISIONS = ["warn", 0.0, 1.0]


@given(pair=label_pairs(), beta=st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.7]), zd=st.sampled_from(ZERO_DIVISIONS))
def test_score_matches_sklearn_fbeta(pair, beta, zd):
    y_true, y_pred = pair
    got, w_lib = _run(f_beta(beta).score, y_true, y_pred, zero_division=zd)
    ref, w_sk = _run(fbeta_score, y_true, y_pred, beta=beta, zero_division=zd)
    assert not math.isnan(got)
    assert got == pytest.approx(ref, rel=1e-12, abs=0)
    assert (w_lib > 0) == (w_sk > 0)  # warns exactly when scikit-learn does (0/0 with "warn")


@given(pair=label_pairs(), zd=st.sampled_from(ZERO_DIVISIONS))
def test_score_matches_sklearn_jaccard(pair, zd):
    y_true, y_pred = pair
    got, w_lib = _run(jaccard().score, y_true, y_pred, zero_division=zd)
    ref, w_sk = _run(jaccard_score, y_true, y_pred, zero_division=zd)
    assert not math.isnan(got)
    assert got == pytest.approx(ref, rel=1e-12, abs=0)
    assert (w_lib > 0) == (w_sk > 0)


@given(pair=label_pairs())
def test_score_matches_sklearn_accuracy(pair):
    y_true, y_pred = pair
    got = accuracy().score(y_true, y_pred)
    assert got == pytest.approx(accuracy_score(y_true, y_pred), rel=1e-12, abs=1e-15)


def test_score_all_negative_is_zero_division_case():
    """No positives in y_true and none predicted: F_beta and Jaccard are 0/0 (sklearn returns zero_division)."""
    y = np.array([-1, -1, -1])
    for metric, ref in ((f1(), lambda zd: fbeta_score(y, y, beta=1.0, zero_division=zd)),
                        (jaccard(), lambda zd: jaccard_score(y, y, zero_division=zd))):
        for zd in (0.0, 1.0, 0.25):
            assert metric.score(y, y, zero_division=zd) == zd
        assert metric.score(y, y, zero_division=1.0) == ref(1.0)
        with pytest.warns(UndefinedMetricWarning):
            assert metric.score(y, y) == 0.0
        with pytest.raises(ValueError, match="zero_division"):
            metric.score(y, y, zero_division="raise")
    assert accuracy().score(y, y) == 1.0


@given(data=label_pairs(k=3), zd=st.sampled_from(ZERO_DIVISIONS))
def test_batch_score_equals_separate_calls(data, zd):
    y_true, y_pred = data
    for metric in (f1(), f_beta(2.0), jaccard(), accuracy(), gower_legendre(0.5)):
        batch, _ = _run(metric.score, y_true, y_pred, zero_division=zd)
        assert isinstance(batch, np.ndarray) and batch.shape == (y_pred.shape[0],)
        for k in range(y_pred.shape[0]):
            single, _ = _run(metric.score, y_true, y_pred[k], zero_division=zd)
            assert isinstance(single, float)
            assert batch[k] == pytest.approx(single, rel=1e-15, abs=0)


@given(pair=label_pairs())
def test_encodings_are_interchangeable(pair):
    """{0, 1} and {-1, +1} (and bool) labels give the same score, also mixed between y_true and y_pred."""
    y_true, y_pred = pair
    pm_true, pm_pred = np.where(y_true == 1, 1, -1), np.where(y_pred == 1, 1, -1)
    zo_true, zo_pred = (y_true == 1).astype(int), (y_pred == 1).astype(int)
    for metric in (f1(), jaccard(), accuracy()):
        ref = metric.score(pm_true, pm_pred, zero_division=0.5)
        assert metric.score(zo_true, zo_pred, zero_division=0.5) == ref
        assert metric.score(zo_true, pm_pred, zero_division=0.5) == ref
        assert metric.score(pm_true == 1, zo_pred == 1, zero_division=0.5) == ref


def test_score_decision_sign_of_zero_is_negative():
    """Sec. 2: sgn(0) = -1, so a score of exactly 0 (or -0.0) predicts the negative class."""
    y = np.array([1, -1, 1])
    # all scores 0: nothing predicted positive -> TP = FP = 0 -> F1 = 0, accuracy = P(Y = -1) = 1/3
    assert f1().score_decision(y, np.zeros(3)) == 0.0
    assert accuracy().score_decision(y, np.array([0.0, -0.0, 0.0])) == pytest.approx(1 / 3, rel=1e-15, abs=0)
    # the smallest positive double is positive
    assert f1().score_decision(y, np.array([5e-324, 0.0, 5e-324])) == 1.0
    # 0 on the negative sample is a true negative, not a false positive
    assert f1().score_decision(y, np.array([1.0, 0.0, 2.0])) == 1.0
    assert f1().score_decision(y, np.array([1.0, 1e-300, 2.0])) == pytest.approx(2 * 2 / (2 * 2 + 0 + 1), rel=1e-15,
                                                                                 abs=0)
    # a score of 0 on a positive sample is a false negative
    assert jaccard().score_decision(y, np.array([0.0, -1.0, 3.0])) == pytest.approx(1 / 2, rel=1e-15, abs=0)


@given(pair=label_pairs(), scores=st.lists(st.one_of(st.just(0.0), st.just(-0.0), st.floats(-1e3, 1e3)),
                                          min_size=25, max_size=25))
def test_score_decision_matches_sklearn_on_thresholded_scores(pair, scores):
    y_true, _ = pair
    dec = np.array(scores[: y_true.shape[0]])
    y_hat = np.where(dec > 0, 1, -1)  # the paper's sgn with sgn(0) = -1, written here
    yt = np.where(y_true == 1, 1, -1)
    got = f_beta(2.0).score_decision(y_true, dec, zero_division=0.0)
    assert got == pytest.approx(fbeta_score(yt, y_hat, beta=2.0, zero_division=0.0), rel=1e-12, abs=0)
    got_batch = jaccard().score_decision(y_true, np.stack([dec, -dec]), zero_division=1.0)
    for k, d in enumerate((dec, -dec)):
        ref = jaccard_score(yt, np.where(d > 0, 1, -1), zero_division=1.0)
        assert got_batch[k] == pytest.approx(ref, rel=1e-12, abs=0)


# ------------------------------------------------------------------------------------ admissibility
SIGN_LABELS = {"a0p": "a_{0,+1} > 0", "a0n": "a_{0,-1} <= 0", "a1p": "a_{1,+1} >= 0", "a1n": "a_{1,-1} >= 0"}
DEN = "denominator > 0 on the feasible region"
NONNEG = "U >= 0 on the feasible region"
LE1 = "U <= 1 on the feasible region"


@pytest.mark.parametrize("metric", [f_beta(0.5), f1(), f_beta(2.0), f_beta(10.0), jaccard(), accuracy(),
                                    gower_legendre(1.0)], ids=lambda m: m.name)
def test_table1_metrics_are_admissible(metric):
    report = metric.admissibility()
    assert report.admissible and report.violations == []
    assert report.sign_constraints and report.range_constraints
    for prior in (0.01, 0.3, 0.5, 0.99):
        assert metric.admissibility(prior=prior).admissible


@pytest.mark.parametrize("alpha", [0.1, 0.5, 0.999])
def test_gower_legendre_below_one_violates_a1n(alpha):
    # a_{1,-1} = alpha - 1 < 0; the utility itself stays in [0, 1] with a positive denominator
    report = gower_legendre(alpha).admissibility()
    assert report.violations == [SIGN_LABELS["a1n"]]
    assert not report.a1n_nonnegative and report.a1p_nonnegative and report.range_constraints


@pytest.mark.parametrize("alpha", [1.001, 2.0, 50.0])
def test_gower_legendre_above_one_violates_a1p(alpha):
    report = gower_legendre(alpha).admissibility()
    assert report.violations == [SIGN_LABELS["a1p"]]
    assert not report.a1p_nonnegative and report.a1n_nonnegative and report.range_constraints


def test_gower_legendre_zero_also_has_vanishing_denominator():
    # alpha = 0: the denominator TP + TN vanishes for the classifier that is always wrong (TP = TN = 0)
    report = gower_legendre(0.0).admissibility()
    assert report.violations == [SIGN_LABELS["a1n"], DEN]


def test_sign_violations_a0p_a0n():
    assert f1().replace(a0p=0.0).admissibility().violations == [SIGN_LABELS["a0p"]]  # U = 0 identically
    assert f1().replace(a0p=-1.0).admissibility().violations == [SIGN_LABELS["a0p"], NONNEG]
    # a0n = 0.5 > 0: U = (2 TP + FP / 2) / (TP + FP + pi) stays in [0, 1]
    assert f1().replace(a0n=0.5).admissibility().violations == [SIGN_LABELS["a0n"]]


def test_utility_exceeding_one_is_reported():
    # F_1 numerator scaled by 2: U = 4 TP / (TP + FP + pi) = 2 at TP = pi, FP = 0
    report = f1().replace(a0p=4.0).admissibility()
    assert report.violations == [LE1]
    assert not report.utility_at_most_one and not report.admissible
    assert f_beta(2.0).replace(a0p=10.0).admissibility(prior=0.5).violations == [LE1]
    # a barely-exceeding utility: U = (2 + 1e-9) TP / (TP + FP + pi) = 1 + 5e-10 at TP = pi, FP = 0
    assert f1().replace(a0p=2.0 + 1e-9).admissibility().violations == [LE1]
    assert f1().replace(a0p=2.0 + 1e-9).admissibility(prior=0.01).violations == [LE1]
    # ... and a barely-negative one: U = (TP - 1e-9 FP) / (FP + pi) < 0 at TP = 0, FP > 0
    assert jaccard().replace(a0n=-1e-9).admissibility().violations == [NONNEG]


def test_vanishing_denominator_is_reported():
    # precision TP / (TP + FP): the denominator vanishes when nothing is predicted positive
    precision = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, name="precision")
    assert precision.admissibility().violations == [DEN]
    assert precision.admissibility(prior=0.5).violations == [DEN]
    # Jaccard without its b1 = pi: TP / FP, vanishing at FP = 0 and exceeding 1 at TP > FP
    assert jaccard().replace(b1_prior=0.0).admissibility().violations == [DEN, LE1]


def test_prior_specific_report():
    # U = TP + 1/2 - pi (denominator 1): U >= 0 iff pi <= 1/2 (worst case TP = 0), U <= 1 always
    m = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=0.0, b0_const=0.5, b0_prior=-1.0, b1_const=1.0)
    assert m.admissibility(prior=0.3).admissible
    assert m.admissibility(prior=0.5).admissible
    assert m.admissibility(prior=0.3).priors == "{0.3}"
    assert m.admissibility(prior=0.7).violations == [NONNEG]
    assert m.admissibility(prior=0.5000001).violations == [NONNEG]
    all_priors = m.admissibility()
    assert all_priors.priors == "(0, 1)" and all_priors.violations == [NONNEG]
    # F_beta at a prior: its denominator TP + FP + beta^2 pi is positive for every prior in (0, 1)
    assert f_beta(3.0).admissibility(prior=1e-9).admissible
    for bad in (0.0, 1.0, -0.1, 1.5, math.nan):
        with pytest.raises(ValueError, match="prior"):
            f1().admissibility(prior=bad)


def test_report_str():
    assert "admissible" in str(f1().admissibility())
    assert "NOT admissible" in str(gower_legendre(2.0).admissibility())


# --- brute force over a grid --------------------------------------------------------------------------
COEFS = ("a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior")


def _grid_checks(c, pis, n_frac):
    """(den > 0 everywhere, num >= 0 everywhere, den - num >= 0 everywhere, U in [0,1] where den > 0) over
    the grid pi in ``pis``, TP = pi j / n, FP = (1 - pi) k / n, in exact rational arithmetic."""
    c = {k: Fraction(v) for k, v in c.items()}
    den_ok = num_ok = le1_ok = True
    for pi in pis:
        pi = Fraction(pi)
        for j in range(n_frac + 1):
            for k in range(n_frac + 1):
                tp, fp = pi * j / n_frac, (1 - pi) * k / n_frac
                num = c["a0p"] * tp + c["a0n"] * fp + c["b0_const"] + c["b0_prior"] * pi
                den = c["a1p"] * tp + c["a1n"] * fp + c["b1_const"] + c["b1_prior"] * pi
                den_ok &= den > 0
                num_ok &= num >= 0
                le1_ok &= den - num >= 0
    return den_ok, num_ok, le1_ok


# Dyadic coefficients (multiples of 1/256 in [-3, 3]): every vertex value at pi in {0, 1} is a multiple of
# 1/256 and its slope in pi is at most 18 in size, so a vertex that is negative at pi = 0 (or 1) is still
# negative at pi = 2^-14 (or 1 - 2^-14), as 18 * 2^-14 < 1/256.  Hence the report and the grid must agree
# in BOTH directions.  All these numbers are exact in doubles too, so the report has no rounding to hide in.
dyadic = st.integers(-768, 768).map(lambda k: k / 256)
EXACT_PIS = [Fraction(1, 2 ** 14)] + [Fraction(i, 16) for i in range(1, 16)] + [1 - Fraction(1, 2 ** 14)]


@given(c=st.fixed_dictionaries({k: dyadic for k in COEFS}))
def test_admissibility_equals_exact_grid_search(c):
    metric = LinearFractionalMetric(**c)
    report = metric.admissibility()
    den_ok, num_ok, le1_ok = _grid_checks(c, EXACT_PIS, 4)
    assert report.denominator_positive == den_ok
    assert report.utility_nonnegative == num_ok
    assert report.utility_at_most_one == le1_ok
    assert report.a0p_positive == (c["a0p"] > 0) and report.a0n_nonpositive == (c["a0n"] <= 0)
    assert report.a1p_nonnegative == (c["a1p"] >= 0) and report.a1n_nonnegative == (c["a1n"] >= 0)
    # the prior-specific report agrees with the grid at that prior
    for pi in (Fraction(1, 16), Fraction(1, 2), Fraction(13, 16)):
        rp = metric.admissibility(prior=float(pi))
        assert (rp.denominator_positive, rp.utility_nonnegative, rp.utility_at_most_one) == _grid_checks(c, [pi], 4)


# All floats in [-3, 3], tiny magnitudes included: coefficients far below the others (e.g. 1e-189 next to 1)
# create violations smaller than one rounding error, which the exact decision must still find
# (test_admissibility_finds_a_violation_below_rounding pins one).
ordinary = st.floats(-3.0, 3.0)


@given(c=st.fixed_dictionaries({k: ordinary for k in COEFS}))
def test_admissibility_never_misses_a_grid_violation(c):
    metric = LinearFractionalMetric(**c)
    report = metric.admissibility()
    den_ok, num_ok, le1_ok = _grid_checks(c, [Fraction(i, 8) for i in range(1, 8)] + [Fraction(1, 1000)], 3)
    if not den_ok:
        assert not report.denominator_positive
    if not num_ok:
        assert not report.utility_nonnegative
    if not le1_ok:
        assert not report.utility_at_most_one
    if report.admissible:
        assert den_ok and num_ok and le1_ok
        tp, fp, pi = np.meshgrid(np.linspace(0, 1, 11), np.linspace(0, 1, 11), np.linspace(0.01, 0.99, 11))
        u = metric.value(tp * pi, fp * (1 - pi), pi)
        assert np.all(u >= -1e-12) and np.all(u <= 1 + 1e-12)


def test_admissibility_finds_a_violation_below_rounding():
    """U = (pi + 1e-16 TP) / pi = 1 + 1e-16 TP / pi exceeds 1 at TP = pi, so U <= 1 fails (Definition 1).

    Regression test: the vertex values used to be evaluated in floating point, where pi - (1e-16 pi + pi)
    rounds to 0, and the report said ``utility_at_most_one=True``.  Found by Hypothesis (a0p = 3.565e-189 in
    the same configuration); the decision is now made in exact rational arithmetic.
    """
    m = LinearFractionalMetric(a0p=1e-16, a0n=0.0, a1p=0.0, a1n=0.0, b0_prior=1.0, b1_prior=1.0)
    assert _grid_checks({k: getattr(m, k) for k in COEFS}, [Fraction(1, 2)], 1)[2] is False  # exact: U > 1
    assert m.admissibility().utility_at_most_one is False
    assert m.admissibility(prior=0.5).utility_at_most_one is False


# ------------------------------------------------------------------------------------- Proposition 5
@given(beta=betas, u=unit)
def test_bayes_threshold_f_beta(beta, u):
    assert f_beta(beta).bayes_optimal_threshold(u) == pytest.approx(u / (1 + beta * beta), rel=1e-12, abs=0)


@given(u=unit)
def test_bayes_threshold_jaccard_and_accuracy(u):
    assert jaccard().bayes_optimal_threshold(u) == pytest.approx(u / (1 + u), rel=1e-12, abs=0)
    assert accuracy().bayes_optimal_threshold(u) == 0.5


def test_bayes_threshold_vectorized():
    u = np.linspace(0, 1, 5)
    np.testing.assert_allclose(f1().bayes_optimal_threshold(u), u / 2, rtol=1e-15, atol=0)


def test_bayes_threshold_raises_when_slope_not_positive():
    # Da0 = 1, Da1 = 2: Da0 - Da1 U = 1 - 2U vanishes at U = 1/2 and is negative beyond
    m = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=2.0, a1n=0.0, b1_const=1.0)
    assert m.bayes_optimal_threshold(0.25) == pytest.approx((0 * 0.25 - 0) / (1 - 2 * 0.25))
    for u in (0.5, 0.75, np.array([0.1, 0.9])):
        with pytest.raises(ValueError, match="utility"):
            m.bayes_optimal_threshold(u)
    with pytest.raises(ValueError, match="utility"):
        f1().bayes_optimal_threshold(math.nan)


def _utility_of_subsets(name, param, w, eta):
    """U of every classifier on a finite distribution (atoms with mass w_j and eta_j), from Table 1."""
    J = len(w)
    masks = np.array(list(itertools.product([0, 1], repeat=J)), dtype=np.float64)  # (2^J, J): 1 = predict +1
    pi = float(np.sum(w * eta))
    TP = masks @ (w * eta)
    FP = masks @ (w * (1 - eta))
    FN = pi - TP
    TN = (1 - pi) - FP
    if name == "f_beta":
        b2 = param ** 2
        U = (1 + b2) * TP / ((1 + b2) * TP + b2 * FN + FP)
    elif name == "jaccard":
        U = TP / (TP + FN + FP)
    else:
        U = TP + TN
    return masks, U, TP, FP, pi


PROP5_CASES = [("F1", f1(), "f_beta", 1.0), ("F2", f_beta(2.0), "f_beta", 2.0), ("Jaccard", jaccard(), "jaccard", None),
               ("accuracy", accuracy(), "accuracy", None)]


@pytest.mark.parametrize("label, metric, name, param", PROP5_CASES, ids=[c[0] for c in PROP5_CASES])
@given(atoms=st.lists(st.tuples(st.floats(0.05, 1.0), unit), min_size=1, max_size=8))
def test_prop5_bayes_optimal_classifier_thresholds_eta(label, metric, name, param, atoms):
    w = np.array([a[0] for a in atoms])
    w = w / w.sum()
    eta = np.array([a[1] for a in atoms])
    assume(np.sum(w * eta) > 1e-3)  # some positive mass, so F_beta and Jaccard are defined for every subset
    masks, U, TP, FP, pi = _utility_of_subsets(name, param, w, eta)
    best = int(np.argmax(U))
    u_star = float(U[best])
    # the threshold delta(U*) of Prop. 5, written for each metric
    if name == "f_beta":
        delta = u_star / (1 + param ** 2)
    elif name == "jaccard":
        delta = u_star / (1 + u_star)
    else:
        delta = 0.5
    # Ties: a wrong decision on atom j costs w_j (Da0 - Da1 U*) |eta_j - delta| / den >= 1e-3 * |eta_j - delta|
    # in U, far above rounding (~1e-15) unless |eta_j - delta| < 1e-9.
    for j in range(len(w)):
        if eta[j] > delta + 1e-9:
            assert masks[best, j] == 1, (j, eta[j], delta)
        elif eta[j] < delta - 1e-9:
            assert masks[best, j] == 0, (j, eta[j], delta)
    # the library's value and threshold at the optimum agree with the brute force (the normalised masses can
    # sum to pi = 1 + 1 ulp, which value() rejects as a prior, hence the clip)
    assert metric.value(TP[best], FP[best], min(pi, 1.0)) == pytest.approx(u_star, rel=1e-9, abs=1e-12)
    assert metric.bayes_optimal_threshold(u_star) == pytest.approx(delta, rel=1e-12, abs=1e-15)


# ------------------------------------------------------------------------------------------ bad input
def test_bad_parameters():
    for beta in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="beta"):
            f_beta(beta)
    for alpha in (-0.1, -5.0, math.nan):
        with pytest.raises(ValueError, match="alpha"):
            gower_legendre(alpha)
    with pytest.raises(TypeError, match="beta"):
        f_beta("2")
    for field in COEFS:
        kwargs = {"a0p": 1.0, "a0n": 0.0, "a1p": 1.0, "a1n": 1.0, field: math.nan}
        with pytest.raises(ValueError, match=field):
            LinearFractionalMetric(**kwargs)
    with pytest.raises(ValueError, match="family"):
        LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, family="bogus")


def test_infeasible_confusion_entries():
    with pytest.raises(ValueError, match="tp"):
        f1().value(0.5, 0.1, 0.4)  # TP > pi
    with pytest.raises(ValueError, match="tp"):
        f1().value(-0.1, 0.1, 0.4)
    with pytest.raises(ValueError, match="fp"):
        f1().value(0.1, 0.7, 0.4)  # FP > 1 - pi
    with pytest.raises(ValueError, match="prior"):
        f1().value(0.1, 0.1, 1.2)
    with pytest.raises(ValueError, match="finite"):
        f1().value(math.nan, 0.1, 0.4)


def test_bad_labels():
    f = f1()
    with pytest.raises(ValueError, match="y_true"):
        f.score([2, 1, -1], [1, 1, -1])
    with pytest.raises(ValueError, match="y_pred"):
        f.score([1, 1, -1], [1, 3, -1])
    with pytest.raises(ValueError, match="y_pred"):
        f.score([1, 1, -1], [1, 0.5, -1])
    with pytest.raises(ValueError, match="y_true"):
        f.score([-1, 0, 1], [1, 1, 1])  # mixes the {-1, +1} and {0, 1} encodings
    with pytest.raises(ValueError, match="y_pred"):
        f.score([1, 1, 1], [-1, 0, 0])
    with pytest.raises(TypeError, match="y_true"):
        f.score(["a", "b"], [1, 1])
    with pytest.raises(ValueError, match="y_pred"):
        f.score([1, -1, 1], [1, -1])  # shape mismatch
    with pytest.raises(ValueError, match="y_pred"):
        f.score([1, -1, 1], np.ones((2, 4)))
    with pytest.raises(ValueError, match="y_true"):
        f.score(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="y_true"):
        f.score([], [])
    with pytest.raises(ValueError, match="decision"):
        f.score_decision([1, -1, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="decision"):
        f.score_decision([1, -1], [0.5, math.nan])


def test_zero_division_modes():
    f = f1()
    # F_1 at pi = 0 with nothing predicted: 2*0 / (0 + 0 + 0) = 0/0
    with pytest.raises(ValueError, match="zero_division"):
        f.value(0.0, 0.0, 0.0, zero_division="raise")
    with pytest.warns(UndefinedMetricWarning):
        out = f.value(0.0, 0.0, 0.0, zero_division="warn")
    assert out == 0.0
    with pytest.warns(UndefinedMetricWarning):
        assert f.value(0.0, 0.0, 0.0) == 0.0  # "warn" is the default
    for fill in (0.0, 0.3, 1.0):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no warning when the value is given explicitly
            assert f.value(0.0, 0.0, 0.0, zero_division=fill) == fill
    out = f.value(np.array([0.0, 0.0]), np.array([0.0, 0.0]), np.array([0.0, 0.5]), zero_division=0.7)
    np.testing.assert_array_equal(out, [0.7, 0.0])
    assert not np.isnan(out).any()
    for bad in ("ignore", 1.5, -0.1, math.nan):
        with pytest.raises(ValueError, match="zero_division"):
            f.value(0.1, 0.1, 0.5, zero_division=bad)
    # Jaccard at pi = 0 and FP = 0 is 0/0 too; accuracy never is
    assert jaccard().value(0.0, 0.0, 0.0, zero_division=0.5) == 0.5
    assert accuracy().value(0.0, 0.0, 0.0, zero_division="raise") == 1.0


@given(pair=label_pairs(), zd=st.sampled_from(["warn", 0.0, 0.5, 1.0]))
def test_score_never_nan(pair, zd):
    y_true, y_pred = pair
    for metric in (f1(), f_beta(0.5), jaccard(), accuracy(), gower_legendre(2.0)):
        out, _ = _run(metric.score, y_true, y_pred, zero_division=zd)
        # A few ulps of slack: U = 1 can round to 1.0000000000000002 (so does sklearn's fbeta_score, e.g. for
        # beta = 0.1 and y_true = y_pred = [1, 1, 1, -1]); Gower-Legendre's eliminated form cancels.
        assert not math.isnan(out) and -4 * EPS <= out <= 1.0 + 4 * EPS


# ---------------------------------------------------------------------------------------- immutability
def test_metric_is_frozen():
    m = f1()
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.a0p = 3.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.name = "other"
    report = m.admissibility()
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.a0p_positive = False
    # replace() returns a new object and leaves the original alone
    m2 = m.replace(a0p=4.0)
    assert m.a0p == 2.0 and m2.a0p == 4.0


def test_value_rejects_a_prior_outside_the_unit_interval_and_clips_rounding():
    """value(): pi must lie in [0, 1]; within 1e-12 (rounding of normalised weights) it is clipped to [0, 1].
    Oracle: the definition of F_1 at pi = 1, written out: 2 TP / (TP + FP + 1).  (Killed mutants of the range
    check and of the clip that the first mutation run of metrics.py found surviving.)"""
    m = f_beta(1.0)
    for bad in (1.5, -0.1, 1 + 1e-9, -1e-9):
        with pytest.raises(ValueError, match=r"prior must lie in \[0, 1\]"):
            m.value(0.0, 0.0, bad)
    with pytest.raises(ValueError, match=r"prior must lie in \[0, 1\]"):
        m.value([0.0, 0.0], [0.0, 0.0], [0.5, 2.0])  # one bad entry of a batch is enough
    tp, fp = 0.5, 0.0
    expected = 2 * tp / (tp + fp + 1)
    assert m.value(tp, fp, 1.0 + 5e-13) == m.value(tp, fp, 1.0) == pytest.approx(expected, rel=1e-15, abs=0)
    assert m.value(0.0, 0.2, -5e-13) == m.value(0.0, 0.2, 0.0)


def test_value_of_scalars_is_a_scalar_and_of_arrays_an_array():
    """Scalar in, scalar out (a numpy float, not a 0-d array); arrays broadcast."""
    out = jaccard().value(0.3, 0.1, 0.4)
    assert isinstance(out, np.floating) and not isinstance(out, np.ndarray)
    batch = jaccard().value([0.3, 0.2], 0.1, 0.4)
    assert isinstance(batch, np.ndarray) and batch.shape == (2,)
    assert batch[0] == out


def test_zero_division_fills_only_the_undefined_entries_of_a_batch():
    """0/0 entries take the zero_division value while every other entry of the same batch is the plain ratio.
    Oracle: Jaccard TP / (FP + pi) written out.  (A mutant computing numerator * denominator for the defined
    entries survived the first mutation run because no batch mixed the two.)"""
    m = jaccard()
    tp, fp, prior = np.array([0.0, 0.2, 0.1]), np.array([0.0, 0.3, 0.05]), np.array([0.0, 0.4, 0.2])
    got = m.value(tp, fp, prior, zero_division=1.0)
    np.testing.assert_allclose(got, [1.0, 0.2 / 0.7, 0.1 / 0.25], rtol=1e-15)
    with pytest.warns(UndefinedMetricWarning, match="0/0"):
        np.testing.assert_allclose(m.value(tp, fp, prior), [0.0, 0.2 / 0.7, 0.1 / 0.25], rtol=1e-15)


def test_score_decision_validates_its_arguments_and_returns_a_float():
    m = f1()
    y = np.array([1, -1, 1, -1])
    out = m.score_decision(y, [0.5, -1.0, 0.0, 2.0])  # TP = 1, FP = 1, pi = 1/2 -> 2 / (1 + 1 + 2) = 1/2
    assert type(out) is float and out == 0.5
    with pytest.raises(ValueError, match="decision must not contain NaN"):
        m.score_decision(y, [0.5, np.nan, 0.0, 2.0])
    with pytest.raises(ValueError, match=r"^y_true must hold labels"):
        m.score_decision([2, 1, 1, 1], [0.5, 1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match=r"^decision must have shape \(4,\)"):
        m.score_decision(y, [0.5, 1.0])


# ---------------------------------------------------------------------------------------------------------
# Contracts pinned by mutation testing: names and parameters of Table 1 metrics, exact messages, the 1e-12
# tolerances at their boundaries, scalar-in/scalar-out, rational inputs, the warning's attribution.
# ---------------------------------------------------------------------------------------------------------
import re  # noqa: E402


def exactly(text):
    return "^" + re.escape(text) + "$"


def test_table1_constructors_name_and_parametrize_their_metric():
    assert (f_beta(2.0).name, f_beta(2.0).family, f_beta(2.0).parameter) == ("F_2", "f_beta", 2.0)
    assert (f1().name, f1().parameter) == ("F_1", 1.0)
    assert (jaccard().name, jaccard().family, jaccard().parameter) == ("Jaccard", "jaccard", None)
    assert (accuracy().name, accuracy().family, accuracy().parameter) == ("accuracy", "accuracy", None)
    gl = gower_legendre(0.5)
    assert (gl.name, gl.family, gl.parameter) == ("Gower-Legendre_0.5", "gower_legendre", 0.5)


@pytest.mark.parametrize("make, error, message", [
    (lambda: f_beta(0.0), ValueError, "beta must lie in (0.0, inf); got 0.0"),
    (lambda: gower_legendre(-1.0), ValueError, "alpha must lie in [0.0, inf); got -1.0"),
    (lambda: LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, name=3), TypeError,
     "name must be a str; got 3"),
    (lambda: f1().admissibility(prior=1.0), ValueError, "prior must lie in (0.0, 1.0); got 1.0"),
    (lambda: f1().value(0.1, 0.1, 0.5, zero_division=2.0), ValueError, "zero_division must lie in [0.0, 1.0]; got 2.0"),
    (lambda: f1().score([], []), ValueError, "y_true must contain at least one label; got 0"),
    (lambda: f1().score([1, 2], [1, 1]), ValueError,
     "y_true must hold labels in {-1, +1} or in {0, 1} (0 is mapped to -1); got values [1, 2]"),
    (lambda: f1().score([1, -1], [1, 2]), ValueError,
     "y_pred must hold labels in {-1, +1} or in {0, 1} (0 is mapped to -1); got values [1, 2]"),
    (lambda: f1().score([1, -1, 1], [1, -1]), ValueError, "y_pred must have shape (3,) or (K, 3); got shape (2,)"),
    (lambda: f1().score_decision([1, -1], [0.5, np.nan]), ValueError, "decision must not contain NaN"),
    (lambda: f1().value(np.nan, 0.1, 0.5), ValueError, "tp, fp and prior must be finite"),
    (lambda: f1().value(0.6, 0.1, 0.5), ValueError, "tp must satisfy 0 <= tp <= prior (TP is at most P(Y = +1))"),
    (lambda: f1().value(0.1, 0.6, 0.5), ValueError, "fp must satisfy 0 <= fp <= 1 - prior (FP is at most P(Y = -1))"),
    (lambda: f1().value(0.0, 0.0, 0.0, zero_division="raise"), ValueError,
     "F_1: 0/0 (the denominator vanishes); pass zero_division=0.0 to define it"),
    (lambda: f1().bayes_optimal_threshold(np.inf), ValueError, "utility must be finite"),
])
def test_metric_messages(make, error, message):
    with pytest.raises(error, match=exactly(message)):
        make()


def test_infinite_ratio_is_an_error_not_a_warning():
    """N != 0 over D = 0 is infinite, not undefined: ValueError, whatever zero_division says."""
    m = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=0.0, b0_const=0.5, name="M")  # U = (TP + 1/2) / TP
    for zd in ("warn", 0.5):
        with pytest.raises(ValueError, match=exactly("M: the denominator is 0 while the numerator is not; the ratio "
                                                     "is infinite")):
            m.value(0.0, 0.2, 0.5, zero_division=zd)


def test_value_tolerances_admit_exactly_1e_12_of_rounding():
    """prior in [-1e-12, 1 + 1e-12], tp in [-1e-12, prior + 1e-12], fp in [-1e-12, 1 - prior + 1e-12] are accepted
    (rounding of normalised weights); prior is clipped to [0, 1] before it enters the offsets."""
    tol = 1e-12
    jac = jaccard()
    assert jac.value(0.0, 0.5, -tol) == 0.0  # prior clipped to 0: U = 0 / (0.5 + 0)
    assert jac.value(0.5, 0.0, 0.5 + tol) == pytest.approx(1.0, rel=1e-11, abs=0)
    assert jac.value(1.0 + tol, 0.0, 1.0 + tol) == pytest.approx(1.0, rel=1e-11, abs=0)  # clipped to 1: (1 + tol) / 1
    assert jac.value(-tol, 0.5, 0.5) == pytest.approx(-tol / 1.0, abs=1e-24)
    assert jac.value(0.1, -tol, 0.5) == pytest.approx(0.1 / (0.5 - tol), rel=1e-15, abs=0)
    assert jac.value(0.1, 0.5 + tol, 0.5) == pytest.approx(0.1 / (1.0 + tol), rel=1e-15, abs=0)
    # F_1 at prior = -1e-12 (clipped to 0) and TP = FP = 0 is 0/0: the zero_division value, not -0.0
    assert f1().value(0.0, 0.0, -tol, zero_division=0.5) == 0.5
    for tp, fp, prior in ((0.0, 0.0, -2 * tol), (0.0, 0.0, 1 + 2 * tol), (-2 * tol, 0.1, 0.5),
                          (0.5 + 2 * tol, 0.1, 0.5), (0.1, -2 * tol, 0.5), (0.1, 0.5 + 2 * tol, 0.5)):
        with pytest.raises(ValueError):
            jac.value(tp, fp, prior)


def test_scalars_in_give_numpy_scalars_out_and_arrays_give_arrays():
    m = f1()
    assert type(m.value(0.2, 0.1, 0.4)) is np.float64
    assert type(m.value(0.0, 0.0, 0.0, zero_division=0.5)) is np.float64  # also through the 0/0 branch
    assert type(m.value([0.2], [0.1], [0.4])) is np.ndarray
    assert type(m.bayes_optimal_threshold(0.5)) is np.float64 and m.bayes_optimal_threshold(0.5) == 0.25
    out = m.bayes_optimal_threshold([0.5, 0.8])
    assert type(out) is np.ndarray and out.tolist() == [0.25, 0.4]


def test_exact_rational_inputs_are_converted_to_float64():
    """Fractions (as the SymPy derivations produce them) are read as the reals they denote, once, as float64."""
    from fractions import Fraction

    m = f_beta(2.0)  # a0 = (5, 0), a1 = (1, 1), b1 = 4 pi
    tp, fp, prior = Fraction(1, 4), Fraction(1, 8), Fraction(1, 2)
    assert type(m.b1(prior)) is np.float64 and m.b1(prior) == 2.0
    assert type(gower_legendre(0.5).b0(prior)) is np.float64 and gower_legendre(0.5).b0(prior) == 0.5
    assert type(m.numerator(tp, fp, prior)) is np.float64 and m.numerator(tp, fp, prior) == 1.25
    assert type(m.denominator(tp, fp, prior)) is np.float64 and m.denominator(tp, fp, prior) == 2.375
    assert m.value(tp, fp, prior) == pytest.approx(1.25 / 2.375, rel=1e-15, abs=0)
    for method in (m.numerator, m.denominator):  # arrays of rationals, too: float64 arrays, not object arrays
        out = method([tp, tp], [fp, Fraction(0)], [prior, prior])
        assert out.dtype == np.float64 and out.shape == (2,)
    assert m.bayes_optimal_threshold(Fraction(1, 2)) == pytest.approx(0.5 / 5.0, rel=1e-15, abs=0)  # U / (1 + beta^2)
    assert m.score_decision([1, -1, 1], [Fraction(1, 2), Fraction(-1, 3), Fraction(0)]) == pytest.approx(5 / 9)


@pytest.mark.parametrize("entry", ["value", "score", "score_decision", "value_from_counts", "population_utility"])
def test_zero_over_zero_warning_points_at_the_calling_line(entry):
    """The UndefinedMetricWarning is attributed to the caller's line here, however many lfverify frames lie
    between (oracle: this file and the line of the call)."""
    from lfverify.core import FiniteSupportPopulation

    metric = f1()
    precision = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, name="precision")
    population = FiniteSupportPopulation(np.array([[1.0], [2.0]]), np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    calls = {
        "value": lambda: metric.value(0.0, 0.0, 0.0),
        "score": lambda: metric.score([-1, -1], [-1, -1]),
        "score_decision": lambda: metric.score_decision([-1, -1], [-1.0, -2.0]),
        "value_from_counts": lambda: metric.value_from_counts(0, 0, 0, 10),
        # precision TP / (TP + FP) at a classifier predicting no positive: 0/0 at the population level too
        "population_utility": lambda: population.utility(precision, np.array([-1.0])),
    }
    with pytest.warns(UndefinedMetricWarning, match="is 0/0; returning 0.0") as record:
        line = inspect.currentframe().f_lineno + 1
        calls[entry]()
    assert len(record) == 1
    # the lambda of `calls` (this file) is the first frame outside the library
    assert record[0].filename == __file__
    assert record[0].lineno != line  # the lambda's own line, above: not attributed to the pytest.warns block
    assert record[0].lineno < line


def test_value_from_counts_warns_on_zero_over_zero_by_default():
    with pytest.warns(UndefinedMetricWarning):
        assert f1().value_from_counts(0, 0, 0, 10) == 0.0
    assert f1().value_from_counts(3, 1, 4, 10) == pytest.approx(2 * 0.3 / (0.3 + 0.1 + 0.4), rel=1e-15, abs=0)


def test_admissibility_report_text():
    assert str(f1().admissibility()) == "F_1 (priors (0, 1)): admissible"
    bad = LinearFractionalMetric(a0p=2.0, a0n=-0.5, a1p=1.0, a1n=2.0, name="M")
    report = bad.admissibility(prior=0.25)
    assert report.metric_name == "M" and report.priors == "{0.25}"
    # b = 0: D = 0 at TP = FP = 0; N = -FP / 2 < 0 at TP = 0; N - D = TP - 2.5 FP ... > 0 at FP = 0, TP = pi
    assert str(report) == ("M (priors {0.25}): NOT admissible: violates denominator > 0 on the feasible region; "
                           "U >= 0 on the feasible region; U <= 1 on the feasible region")


@pytest.mark.claims("package:numerics")
def test_divide_zero_over_zero_in_place_is_the_same_quotient_written_into_the_numerator():
    """Oracle: the out-of-place call (np.where on a copy).  In place, the quotient - 0/0 filled with
    ``zero_division`` - is bit for bit the same and is the caller's numerator array; a non-zero numerator over 0
    is the same error either way."""
    from lfverify.core import divide_zero_over_zero

    numerator = np.array([1.0, 0.0, 3.0, 0.0, 2.5])
    denominator = np.array([4.0, 0.0, 7.0, 0.0, 0.5])
    for fill in (0.0, 0.25):
        expected = divide_zero_over_zero(numerator, denominator, fill, "F_1")
        num, den = numerator.copy(), denominator.copy()
        out = divide_zero_over_zero(num, den, fill, "F_1", in_place=True)
        assert out is num
        np.testing.assert_array_equal(out, expected)
        assert expected[1] == fill and expected[0] == 0.25
    plain = divide_zero_over_zero(numerator[[0, 2]].copy(), denominator[[0, 2]].copy(), 0.0, "F_1", in_place=True)
    np.testing.assert_array_equal(plain, [0.25, 3.0 / 7.0])
    for in_place in (False, True):
        with pytest.raises(ValueError, match="F_1: the denominator is 0 while the numerator is not"):
            divide_zero_over_zero(np.array([1.0]), np.array([0.0]), 0.0, "F_1", in_place=in_place)
