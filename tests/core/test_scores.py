"""Tests of lfverify.core._scores: the per-sample surrogate scores of Eq. (6) and the ratio algebra U = N / D,
V = D grad N - N grad D, grad U = V / D^2 (Sec. 3.3, Lemma 3) shared by the empirical and population code.

Oracles: the cases of Eq. (6) written out per label, and exact rational arithmetic (``fractions.Fraction``) for
the ratio algebra.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from lfverify.core import (
    LinearFractionalMetric,
    f_beta,
    gower_legendre,
    gradient_direction,
    hinge,
    jaccard,
    ratio_and_direction,
    score_coefficients,
    surrogate_scores,
    tau_logistic,
)

pytestmark = pytest.mark.claims("package:numerics")  # the scores' and the ratio's algebra, not Lemma 3's expectation


def exactly(text: str) -> str:
    return "^" + re.escape(text) + "$"


# -------------------------------------------------------------------------------------- ratio algebra
def _exact_ratio_algebra(num, den, gnum, gden):
    """U, V and grad U of every row in exact rational arithmetic (oracle)."""
    U, V, G = [], [], []
    for n, d, gn, gd in zip(num, den, gnum, gden):
        v = [d * a - n * b for a, b in zip(gn, gd)]
        U.append(n / d)
        V.append(v)
        G.append([x / (d * d) for x in v])
    return U, V, G


def test_ratio_and_direction_equals_exact_rational_algebra_and_converts_to_float64():
    """Rational inputs (Python Fractions) are converted to float64 once; every output equals the exact result
    rounded to double (1 ulp: one rounding of the rational result vs. a few floating-point operations)."""
    num = [Fraction(1, 3), Fraction(-2, 7), Fraction(5, 2)]
    den = [Fraction(3, 4), Fraction(1, 9), Fraction(11, 5)]
    gnum = [[Fraction(1, 5), Fraction(-3, 2)], [Fraction(0), Fraction(7, 3)], [Fraction(2), Fraction(1, 6)]]
    gden = [[Fraction(-1, 3), Fraction(1, 8)], [Fraction(4, 5), Fraction(0)], [Fraction(1, 7), Fraction(-5, 4)]]
    # the oracle runs on the rationals that the float64 inputs are exactly equal to
    fnum, fden = [Fraction(float(x)) for x in num], [Fraction(float(x)) for x in den]
    fgnum = [[Fraction(float(x)) for x in row] for row in gnum]
    fgden = [[Fraction(float(x)) for x in row] for row in gden]
    U, V, G = _exact_ratio_algebra(fnum, fden, fgnum, fgden)

    r = ratio_and_direction(np.array(num, dtype=object), np.array(den, dtype=object), np.array(gnum, dtype=object),
                            np.array(gden, dtype=object), what="U")
    for field in r:
        assert field.dtype == np.float64
    np.testing.assert_array_equal(r.numerator, [float(x) for x in num])
    np.testing.assert_array_equal(r.denominator, [float(x) for x in den])
    np.testing.assert_allclose(r.value, [float(u) for u in U], rtol=2.3e-16, atol=0)
    np.testing.assert_allclose(r.gradient_direction, [[float(x) for x in v] for v in V], rtol=1e-15, atol=1e-16)
    np.testing.assert_allclose(r.gradient, [[float(x) for x in g] for g in G], rtol=1e-15, atol=1e-16)

    direct = gradient_direction(np.array(num, dtype=object), np.array(den, dtype=object),
                                np.array(gnum, dtype=object), np.array(gden, dtype=object))
    assert direct.dtype == np.float64
    np.testing.assert_array_equal(direct, r.gradient_direction)


SQRT_TINY = 2.0**-511  # its square is exactly the smallest normal double, the rule's boundary D^2 > tiny


@pytest.mark.parametrize("direction", [True, False])
@pytest.mark.parametrize("den", [np.nextafter(SQRT_TINY, 0.0), SQRT_TINY, np.nextafter(SQRT_TINY, 1.0), 1e-100, 0.5],
                         ids=["below", "at", "above", "1e-100", "0.5"])
def test_gradient_is_exact_where_a_product_of_v_underflows(den, direction):
    """grad U = (grad N D - N grad D) / D^2 with D from one double below the boundary D^2 = tiny to 0.5, and
    gradients so small that D grad N and N grad D fall below the normal range (V underflows: 0 or subnormal) while
    grad U is an ordinary double.  Oracle: exact rational arithmetic, rounded once (the quotient rule without D^2
    is a few operations: 4 ulp).  Before the fix, D = 1e-100 and grad N = 1e-300 gave grad U = 0 instead of 1e-200
    (the seed-2027 mutation run's `>=` for `>` at D^2 = tiny led here); the rule's side of the boundary is decided
    by D^2 == tiny exactly at D = 2^-511."""
    assert SQRT_TINY * SQRT_TINY == np.finfo(np.float64).tiny
    num = np.array([0.0, 0.25, -3.0])
    gnum = np.array([[1e-300, 0.0], [1e-300, 2e-300], [0.0, 1e-250]])
    gden = np.array([[0.0, 0.0], [-1e-300, 0.0], [1e-250, 3e-300]])
    dens = np.full(3, den)
    r = ratio_and_direction(num, dens, gnum, gden, what="U", direction=direction)
    _, _, exact = _exact_ratio_algebra([Fraction(x) for x in num], [Fraction(x) for x in dens],
                                       [[Fraction(x) for x in row] for row in gnum],
                                       [[Fraction(x) for x in row] for row in gden])
    np.testing.assert_allclose(r.gradient, [[float(x) for x in row] for row in exact], rtol=4 * 2.0**-52, atol=0)
    assert r.gradient[0, 0] != 0  # the entry that used to underflow to 0


@pytest.mark.parametrize("which", ["numerator", "denominator", "numerator_gradient", "denominator_gradient"])
def test_gradient_direction_converts_every_argument_to_float64(which):
    """V = D grad N - N grad D with one argument given as Python Fractions: still a float64 array."""
    args = {"numerator": np.array([0.5, 2.0]), "denominator": np.array([1.5, 0.25]),
            "numerator_gradient": np.array([[1.0, -1.0], [0.5, 2.0]]),
            "denominator_gradient": np.array([[0.25, 3.0], [-2.0, 1.0]])}
    expected = np.array([[1.5 * 1.0 - 0.5 * 0.25, 1.5 * -1.0 - 0.5 * 3.0], [0.25 * 0.5 + 2.0 * 2.0, 0.25 * 2.0 - 2.0]])
    args[which] = np.array([[Fraction(x) for x in row] for row in args[which]] if args[which].ndim == 2
                           else [Fraction(x) for x in args[which]], dtype=object)
    out = gradient_direction(**args)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, expected)  # every product and difference here is exact in binary


@pytest.mark.parametrize("num, den", [
    ([0.2, 0.5], [0.5, 0.0]), ([0.2, 0.5], [0.5, -1.0]), ([0.2, 0.5], [np.nan, 1.0]), ([0.2, 0.5], [np.inf, 1.0]),
    ([np.nan, 0.5], [0.5, 1.0]), ([0.2, np.inf], [0.5, 1.0]), ([0.2, -np.inf], [0.5, np.inf]),
])
def test_ratio_refuses_nonpositive_or_nonfinite_denominator_and_nonfinite_numerator(num, den):
    with pytest.raises(ValueError, match=r"^U_phi: the denominator must be positive and finite"):
        ratio_and_direction(np.array(num), np.array(den), np.zeros((2, 1)), np.zeros((2, 1)), what="U_phi")


def test_ratio_error_names_at_most_ten_bad_rows_with_their_values():
    num = np.arange(12.0)
    den = -np.ones(12)
    den[5] = 2.0  # a good row is not listed
    bad = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]  # the first ten of the eleven bad rows
    message = (f"U_hat: the denominator must be positive and finite, but for parameter rows {bad} it is "
               f"{[-1.0] * 10} (numerator {[float(i) for i in bad]}); the surrogate utility is undefined there")
    with pytest.raises(ValueError, match=exactly(message)):
        ratio_and_direction(num, den, np.zeros((12, 3)), np.zeros((12, 3)), what="U_hat")


# ------------------------------------------------------------------------------- Eq. (6), case by case
def _eq6_case_by_case(metric, loss, xi, y, prior):
    """W~_0, W~_1 and their xi-derivatives of one sample, written out from Eq. (6) (oracle)."""
    if prior is None:
        b0 = metric.b0_const + metric.b0_prior * (y == 1)
        b1 = metric.b1_const + metric.b1_prior * (y == 1)
    else:
        b0 = metric.b0_const + metric.b0_prior * prior
        b1 = metric.b1_const + metric.b1_prior * prior
    if y == 1:
        phi, dphi = float(loss.value(xi)), float(loss.derivative(xi))
        return metric.a0p * (1 - phi) + b0, metric.a1p * (1 + phi) + b1, -metric.a0p * dphi, metric.a1p * dphi
    phi, dphi = float(loss.value(-xi)), float(loss.derivative(-xi))  # d/dxi phi(-xi) = -phi'(-xi)
    return metric.a0n * phi + b0, metric.a1n * phi + b1, -metric.a0n * dphi, -metric.a1n * dphi


@pytest.mark.parametrize("xi", [
    np.array([3, -2, 0, 5], dtype=np.int64), np.array([3, 2, 0, 5], dtype=np.uint8), [3, -2, 0, 5],
])
def test_surrogate_scores_of_integer_outputs_are_the_float_scores(xi):
    """Integer (also unsigned) classifier outputs are read as the real numbers they denote: -xi of a negative
    sample is the negative number, not a wrapped-around unsigned integer."""
    metric, loss = gower_legendre(0.5), tau_logistic(0.5)
    y = np.array([-1, 1, -1, 1])
    xi_float = np.asarray(xi, dtype=np.float64)
    got = surrogate_scores(metric, loss, xi, y)
    for k in range(4):
        expected = _eq6_case_by_case(metric, loss, xi_float[k], y[k], None)
        for field, value in zip(got, expected):
            assert field.dtype == np.float64
            assert field[k] == pytest.approx(value, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize("prior", [None, 0.3])
@pytest.mark.parametrize("metric", [f_beta(2.0), jaccard(), gower_legendre(0.5),
                                    LinearFractionalMetric(a0p=2.0, a0n=-0.5, a1p=0.5, a1n=1.5, b0_const=0.25,
                                                           b0_prior=0.5, b1_const=1.0, b1_prior=-0.75)],
                         ids=lambda m: m.name)
def test_score_coefficients_reproduce_eq6_for_both_labels(metric, prior):
    """offset_k(y) + slope_k(y) phi(y xi) is W~_k of Eq. (6) for y = -1 (index 0) and y = +1 (index 1)."""
    loss = hinge()
    coef = score_coefficients(metric, prior)
    for xi in (-1.5, 0.25, 2.0):
        for cls, y in enumerate((-1, 1)):
            phi = float(loss.value(y * xi))
            w0, w1, _, _ = _eq6_case_by_case(metric, loss, xi, y, prior)
            assert coef.offset0[cls] + coef.slope0[cls] * phi == pytest.approx(w0, rel=1e-15, abs=1e-15)
            assert coef.offset1[cls] + coef.slope1[cls] * phi == pytest.approx(w1, rel=1e-15, abs=1e-15)


def test_gradient_direction_rescales_each_overflowing_row_alone():
    """Row 0: N = D = 2^600, grad N = (2^500, 1), grad D = (2^500, 0): both products of the first entry overflow
    (inf - inf), the exact V = (0, 2^600) is a double.  Row 1: N = 1/2, D = 1, grad N = (1, 0), grad D = (0, 1):
    V = (1, -1/2).  Oracle: V by hand.  A row is rescaled by its own power of two: one scale for the whole batch
    (2^601) would underflow row 1's products (2^-1202) to 0.

    Kills `lfverify.core._scores.x_gradient_direction__lfv_dropkw_1` (the rows' test without axis=1)."""
    big = 2.0**600
    num, den = np.array([big, 0.5]), np.array([big, 1.0])
    gnum, gden = np.array([[2.0**500, 1.0], [1.0, 0.0]]), np.array([[2.0**500, 0.0], [0.0, 1.0]])
    with np.errstate(over="ignore", invalid="ignore"):
        assert np.isnan(den[0] * gnum[0, 0] - num[0] * gden[0, 0])  # the direct formula fails on row 0
    np.testing.assert_array_equal(gradient_direction(num, den, gnum, gden), [[0.0, big], [1.0, -0.5]])
