"""Tests of the surrogate losses (Sec. 2-3, Fig. 2, Definition of a tau-discrepant loss).

Every reference value is computed here, independently of :mod:`lfverify.core._losses`: the loss formulas are written
out in mpmath and evaluated at 50 significant digits, derivatives come from ``mpmath.diff`` (and, where a
finite-difference quotient of the formula cannot resolve them, from the derivative written out by hand), and
the stated properties (convexity, monotonicity, 0/1 domination, discrepancy, Lipschitz and smoothness
constants) are checked numerically instead of being trusted.
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from lfverify.core import exponential, hinge, logistic, sigmoid, squared_hinge, tau_logistic

pytestmark = pytest.mark.claims("Definition 2", "Fig. 2")

EPS = float(np.finfo(np.float64).eps)  # 2.22e-16, unit roundoff u = EPS / 2
TINY = float(np.finfo(np.float64).tiny)  # smallest normal double; below it doubles carry no relative precision
DPS = 50  # mpmath working precision (decimal digits) for every reference value

# ----------------------------------------------------------------------------------------------- the losses
# (loss object, independent description used to build the mpmath reference)
SPECS = [
    (tau_logistic(0.1), {"kind": "tau_logistic", "tau": 0.1, "base": 2.0}),
    (tau_logistic(0.33), {"kind": "tau_logistic", "tau": 0.33, "base": 2.0}),
    (tau_logistic(0.75), {"kind": "tau_logistic", "tau": 0.75, "base": 2.0}),
    (tau_logistic(1.0), {"kind": "tau_logistic", "tau": 1.0, "base": 2.0}),
    (logistic(), {"kind": "tau_logistic", "tau": 1.0, "base": 2.0}),
    (logistic(base=math.e), {"kind": "tau_logistic", "tau": 1.0, "base": math.e}),
    (hinge(), {"kind": "hinge"}),
    (squared_hinge(), {"kind": "squared_hinge"}),
    (exponential(), {"kind": "exponential"}),
    (sigmoid(), {"kind": "sigmoid", "scale": 2.0}),
    (sigmoid(scale=1.0), {"kind": "sigmoid", "scale": 1.0}),
]
IDS = ["tau_logistic(0.1)", "tau_logistic(0.33)", "tau_logistic(0.75)", "tau_logistic(1)", "logistic()",
       "logistic(base=e)", "hinge()", "squared_hinge()", "exponential()", "sigmoid()", "sigmoid(scale=1)"]
LOSSES = [pytest.param(loss, spec, id=name) for (loss, spec), name in zip(SPECS, IDS)]

# Where each formula has a kink, written from the formulas (not read from the library).
KINKS = {"tau_logistic": (0.0,), "hinge": (1.0,), "squared_hinge": (1.0,), "exponential": (), "sigmoid": ()}

GRID = [0.0, 1e-8, -1e-8, 1.0, -1.0, 30.0, -30.0, 700.0, -700.0, 1e5, -1e5]
EXTREMES = [1e300, -1e300, 1e200, -1e200, 1e20, -1e20, 0.0, math.inf, -math.inf]


# ----------------------------------------------------------------------------------- mpmath references
def _piece_side(spec, x, piece):
    """Which analytic piece owns x: 'left' or 'right' of the kink (``piece`` forces one)."""
    if piece is not None:
        return piece
    kinks = KINKS[spec["kind"]]
    if not kinks:
        return "left"
    k = kinks[0]
    if spec["kind"] == "tau_logistic":
        return "left" if x <= k else "right"  # Fig. 2: log2(1 + e^{-t}) for t <= 0
    return "left" if x < k else "right"  # hinge pieces: 1 - m (m < 1) and 0 (m >= 1)


def mp_phi(spec, x, piece=None):
    """phi(x) at 50 digits straight from the formula; ``piece`` evaluates one analytic piece everywhere."""
    x = mpmath.mpf(x)
    kind = spec["kind"]
    side = _piece_side(spec, x, piece)
    if kind == "tau_logistic":
        s = mpmath.mpf(1) if side == "left" else mpmath.mpf(spec["tau"])
        return mpmath.log1p(mpmath.exp(-s * x)) / mpmath.log(mpmath.mpf(spec["base"]))
    if kind == "hinge":
        return 1 - x if side == "left" else mpmath.mpf(0)
    if kind == "squared_hinge":
        return (1 - x) ** 2 if side == "left" else mpmath.mpf(0)
    if kind == "exponential":
        return mpmath.exp(-x)
    if kind == "sigmoid":
        return mpmath.mpf(spec["scale"]) / (1 + mpmath.exp(x))
    raise AssertionError(kind)


def mp_phi_derivative(spec, x, order, piece=None):
    """phi^(order)(x) written out by hand (used where a difference quotient of phi cannot resolve it)."""
    x = mpmath.mpf(x)
    kind = spec["kind"]
    side = _piece_side(spec, x, piece)
    if kind == "tau_logistic":
        s = mpmath.mpf(1) if side == "left" else mpmath.mpf(spec["tau"])
        lb = mpmath.log(mpmath.mpf(spec["base"]))
        e = mpmath.exp(s * x)
        if order == 1:
            return -s / (1 + e) / lb
        return s * s * e / (1 + e) ** 2 / lb
    if kind == "hinge":
        return mpmath.mpf(-1 if side == "left" and order == 1 else 0)
    if kind == "squared_hinge":
        if side == "right":
            return mpmath.mpf(0)
        return -2 * (1 - x) if order == 1 else mpmath.mpf(2)
    if kind == "exponential":
        return (-1) ** order * mpmath.exp(-x)
    if kind == "sigmoid":
        c, e = mpmath.mpf(spec["scale"]), mpmath.exp(x)
        if order == 1:
            return -c * e / (1 + e) ** 2
        return c * e * (e - 1) / (1 + e) ** 3
    raise AssertionError(kind)


# Limits at m = +-inf, from the formulas: (value, phi', phi'') at +inf and at -inf.
def limits(spec):
    kind = spec["kind"]
    if kind == "tau_logistic":
        return {math.inf: (0.0, 0.0, 0.0), -math.inf: (math.inf, -1.0 / math.log(spec["base"]), 0.0)}
    if kind == "hinge":
        return {math.inf: (0.0, 0.0, 0.0), -math.inf: (math.inf, -1.0, 0.0)}
    if kind == "squared_hinge":
        return {math.inf: (0.0, 0.0, 0.0), -math.inf: (math.inf, -math.inf, 2.0)}
    if kind == "exponential":
        return {math.inf: (0.0, 0.0, 0.0), -math.inf: (math.inf, -math.inf, math.inf)}
    if kind == "sigmoid":
        return {math.inf: (0.0, 0.0, 0.0), -math.inf: (spec["scale"], 0.0, 0.0)}
    raise AssertionError(kind)


def assert_close(actual, reference, *, rel, abs_tol=0.0, what=""):
    """|actual - reference| <= rel |reference| + abs_tol, with reference an mpmath number (or float).

    The reference is rounded to the nearest double first, so values beyond the largest double compare as
    +-inf and values below the smallest subnormal as 0.  Results below the smallest *normal* double have no
    relative precision, so an absolute slack of TINY (2.2e-308) is always allowed.
    """
    actual = float(actual)
    expected = float(reference)
    assert not math.isnan(actual), f"{what}: NaN"
    if math.isinf(expected) or math.isinf(actual):
        assert actual == expected, f"{what}: got {actual!r}, expected {expected!r}"
        return
    err = abs(mpmath.mpf(actual) - mpmath.mpf(reference))
    bound = rel * abs(mpmath.mpf(reference)) + abs_tol + TINY
    assert err <= bound, f"{what}: got {actual!r}, expected {mpmath.nstr(reference, 20)}, |err| = {mpmath.nstr(err, 5)}"


# --------------------------------------------------------------------------------------------- values
@pytest.mark.parametrize("m", GRID)
@pytest.mark.parametrize("loss, spec", LOSSES)
def test_value_matches_mpmath(loss, spec, m):
    with mpmath.workdps(DPS):
        assert_close(loss.value(m), mp_phi(spec, m), rel=1e-13, what=f"{loss.name}.value({m})")


# ---------------------------------------------------------------------------------------- derivatives
def _conditioned_for_diff(spec, m, order):
    """mpmath.diff differences values of phi; it resolves phi^(n)(m) only when that is not negligible next
    to phi(m) itself (e.g. phi''(-1e5) ~ e^{-1e5} of the logistic loss is invisible next to phi ~ 1e5)."""
    f = abs(mp_phi(spec, m))
    d = abs(mp_phi_derivative(spec, m, order))
    return d > mpmath.mpf(10) ** (-20) * f and abs(m) < 1e6


# grid points that are not kinks (one-sided derivatives at kinks: test_one_sided_derivatives_at_kinks)
SMOOTH_POINTS = [pytest.param(loss, spec, m, id=f"{name}-{m:g}") for (loss, spec), name in zip(SPECS, IDS)
                 for m in GRID if m not in KINKS[spec["kind"]]]


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("loss, spec, m", SMOOTH_POINTS)
def test_derivatives_match_mpmath(loss, spec, m, order):
    """phi' and phi'' against mpmath at 50 digits (rel 1e-13).

    Regression test: an earlier SigmoidLoss.second_derivative computed p - q = expit(m) - expit(-m), which
    cancels catastrophically near m = 0 (at m = 1e-8 it returned 2.4999999848e-9 instead of 2.5e-9, relative
    error 6e-9); tanh(m / 2) is the accurate form.
    """
    fn = loss.derivative if order == 1 else loss.second_derivative
    got = {side: fn(m, side=side) for side in ("left", "right")}
    # Away from a kink both sides must agree exactly.
    assert got["left"] == got["right"]
    with mpmath.workdps(DPS):
        analytic = mp_phi_derivative(spec, m, order)
        assert_close(got["right"], analytic, rel=1e-13, what=f"{loss.name} phi^({order})({m}) vs formula")
        if _conditioned_for_diff(spec, m, order):
            numeric = mpmath.diff(lambda t: mp_phi(spec, t), mpmath.mpf(m), order)
            # the hand-written derivative is itself validated against mpmath.diff
            assert abs(numeric - analytic) <= mpmath.mpf(10) ** (-25) * abs(analytic)
            assert_close(got["right"], numeric, rel=1e-13, what=f"{loss.name} phi^({order})({m}) vs mpmath.diff")


def test_diff_reference_is_exercised():
    """The mpmath.diff comparison above is not vacuous: it applies at most grid points."""
    with mpmath.workdps(DPS):
        used = sum(_conditioned_for_diff(spec, m, order) for _, spec in SPECS for m in GRID for order in (1, 2)
                   if m not in KINKS[spec["kind"]] and spec["kind"] != "hinge")
    assert used >= 80


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("loss, spec", [p for p in LOSSES if KINKS[p.values[1]["kind"]]])
def test_one_sided_derivatives_at_kinks(loss, spec, order):
    assert tuple(loss.kinks) == KINKS[spec["kind"]]
    fn = loss.derivative if order == 1 else loss.second_derivative
    with mpmath.workdps(DPS):
        for k in KINKS[spec["kind"]]:
            for side, direction in (("left", -1), ("right", 1)):
                got = fn(k, side=side)
                # (a) derivative of the analytic piece that owns that side, continued through the kink
                piece = mpmath.diff(lambda t, side=side: mp_phi(spec, t, piece=side), mpmath.mpf(k), order)
                assert_close(got, piece, rel=1e-13, abs_tol=1e-30, what=f"{loss.name} phi^({order})({k}{side})")
                # (b) one-sided difference quotient of the full (piecewise) formula
                directed = mpmath.diff(lambda t: mp_phi(spec, t), mpmath.mpf(k), order, direction=direction)
                assert_close(got, directed, rel=1e-13, abs_tol=1e-30, what=f"{loss.name} directed {side}")


def test_kink_sides_really_differ():
    """The one-sided derivatives are not the same number (the tests above could not tell otherwise)."""
    for tau in (0.1, 0.33, 0.75):
        loss = tau_logistic(tau)
        assert loss.derivative(0.0, side="left") == pytest.approx(-0.5 / math.log(2), rel=1e-15, abs=0)
        assert loss.derivative(0.0, side="right") == pytest.approx(-0.5 * tau / math.log(2), rel=1e-15, abs=0)
    assert hinge().derivative(1.0, side="left") == -1.0 and hinge().derivative(1.0, side="right") == 0.0
    assert squared_hinge().second_derivative(1.0, side="left") == 2.0
    assert squared_hinge().second_derivative(1.0, side="right") == 0.0


def _central_difference(f, m, order_of_f, spec):
    """Central difference (f(m+h) - f(m-h)) / (2h) of a library function f = phi^(order_of_f - 1), with a
    rigorous bound on its distance from f'(m).

    h = EPS^(1/3) max(1, |m|) balances the truncation error h^2 |f^(3)| / 6 against the rounding error
    (|df(m+h)| + |df(m-h)|) / (2h) <= 4 EPS (|f(m+h)| + |f(m-h)|) / (2h), taking each library evaluation to
    carry at most 4 EPS relative error (it is a handful of correctly rounded operations).  The step actually
    used is (m + h) - (m - h) as represented in floating point, so it is exact.  |f^(3)| comes from
    mpmath.diff at the three points m - h, m, m + h, doubled for safety.
    """
    h = EPS ** (1.0 / 3.0) * max(1.0, abs(m))
    hi, lo = m + h, m - h
    step = hi - lo
    f_hi, f_lo = float(f(hi)), float(f(lo))
    fd = (f_hi - f_lo) / step
    with mpmath.workdps(DPS):
        third = max(abs(mpmath.diff(lambda t: mp_phi(spec, t), mpmath.mpf(x), order_of_f + 2)) for x in (lo, m, hi))
    truncation = 2.0 * float(third) * (step / 2.0) ** 2 / 6.0
    rounding = 4.0 * EPS * (abs(f_hi) + abs(f_lo)) / step
    return fd, truncation + rounding


margins_away_from_kinks = st.floats(-40.0, 40.0, allow_nan=False)


@pytest.mark.parametrize("loss, spec", LOSSES)
@given(m=margins_away_from_kinks)
@example(m=1e-8)
@example(m=-1e-8)
@example(m=1.0)
@example(m=-1.0)
@example(m=30.0)
@example(m=-30.0)
def test_derivatives_match_central_differences(loss, spec, m):
    assume(all(abs(m - k) > 1e-3 for k in KINKS[spec["kind"]]))  # the stencil (|h| <= 2.4e-4) avoids kinks
    # first derivative: central difference of value()
    fd, bound = _central_difference(loss.value, m, 1, spec)
    d = float(loss.derivative(m))
    assert abs(fd - d) <= bound + 8 * EPS * abs(d), (m, fd, d, bound)
    # second derivative: central difference of derivative()
    fd2, bound2 = _central_difference(loss.derivative, m, 2, spec)
    d2 = float(loss.second_derivative(m))
    assert abs(fd2 - d2) <= bound2 + 8 * EPS * abs(d2), (m, fd2, d2, bound2)


def test_central_difference_bound_is_tight_enough_to_fail():
    """A derivative off by 1e-7 relative (e.g. a wrong constant) is outside the bound used above."""
    loss, spec = SPECS[1]  # tau-logistic(0.33)
    m = 0.7
    fd, bound = _central_difference(loss.value, m, 1, spec)
    d = float(loss.derivative(m))
    assert abs(fd - d) <= bound
    assert bound < 1e-7 * abs(d)


# ------------------------------------------------------------------------------------ numerical stability
@pytest.mark.parametrize("loss, spec", LOSSES)
def test_no_warning_and_no_nan_at_extreme_margins(loss, spec):
    lim = limits(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning (overflow, invalid, ...) fails the test
        for m in EXTREMES:
            out = {"value": loss.value(m)}
            for side in ("left", "right"):
                out["d_" + side] = loss.derivative(m, side=side)
                out["dd_" + side] = loss.second_derivative(m, side=side)
                v, d = loss.value_and_derivative(m, side=side)
                out["vd_v_" + side], out["vd_d_" + side] = v, d
            arr = np.array(list(out.values()), dtype=np.float64)
            assert not np.isnan(arr).any(), (m, out)
        # the whole extreme grid as one array, too
        arr_in = np.array(EXTREMES)
        for side in ("left", "right"):
            for fn in (loss.derivative, loss.second_derivative):
                assert not np.isnan(fn(arr_in, side=side)).any()
            v, d = loss.value_and_derivative(arr_in, side=side)
            assert not np.isnan(v).any() and not np.isnan(d).any()
        assert not np.isnan(loss.value(arr_in)).any()

    # ... and the values are the correctly rounded ones (+inf where the exact value exceeds the largest double)
    with mpmath.workdps(DPS):
        for m in EXTREMES:
            if math.isinf(m):
                v, d1, d2 = lim[m]
                assert float(loss.value(m)) == v
                assert float(loss.derivative(m)) == pytest.approx(d1, rel=1e-15, abs=0)
                assert float(loss.second_derivative(m)) == d2
                assert float(loss.value_and_derivative(m)[0]) == v
                continue
            if m in KINKS[spec["kind"]]:
                assert_close(loss.value(m), mp_phi(spec, m), rel=1e-13, what=f"value({m})")
                continue
            assert_close(loss.value(m), mp_phi(spec, m), rel=1e-13, what=f"value({m})")
            assert_close(loss.derivative(m), mp_phi_derivative(spec, m, 1), rel=1e-13, what=f"phi'({m})")
            assert_close(loss.second_derivative(m), mp_phi_derivative(spec, m, 2), rel=1e-13, what=f"phi''({m})")


def test_documented_overflow_to_plus_infinity():
    """Values beyond the largest double are +inf (squared hinge, exponential far on the negative side)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for m in (-1e200, -1e300, -math.inf):
            assert squared_hinge().value(m) == math.inf  # (1 - m)^2 >= 1e400
        for m in (-1e20, -1e200, -1e300, -math.inf):
            assert exponential().value(m) == math.inf  # e^{1e20}
            assert exponential().derivative(m) == -math.inf
            assert exponential().second_derivative(m) == math.inf
        # just inside the double range the value is still finite
        assert math.isfinite(squared_hinge().value(-1e150))
        assert math.isfinite(exponential().value(-709.0))


# ----------------------------------------------------------------------------- value_and_derivative
margin_arrays = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=1, max_dims=2, max_side=6),
    # the documented range |m| <= 1e300, the infinities, and exact (signed) zeros
    elements=st.one_of(st.just(0.0), st.just(-0.0), st.just(math.inf), st.just(-math.inf), st.floats(-1e300, 1e300)),
)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("loss, spec", LOSSES)
@given(m=margin_arrays)
def test_value_and_derivative_equals_separate_calls(loss, spec, side, m):
    v, d = loss.value_and_derivative(m, side=side)
    v_ref, d_ref = loss.value(m), loss.derivative(m, side=side)
    assert np.shape(v) == np.shape(m) and np.shape(d) == np.shape(m)
    for got, ref in ((v, v_ref), (d, d_ref)):
        got, ref = np.asarray(got), np.asarray(ref)
        assert not np.isnan(got).any()
        assert np.array_equal(np.isinf(got), np.isinf(ref))
        assert np.array_equal(got[np.isinf(got)], ref[np.isinf(ref)])
        fin = np.isfinite(ref)
        # rel 1e-15 (~4.5 ulp); below the smallest normal double (subnormal results, e.g. phi'(740) ~ 4e-322)
        # there is no relative precision, so an absolute slack of TINY is allowed there.
        assert np.all(np.abs(got[fin] - ref[fin]) <= 1e-15 * np.abs(ref[fin]) + TINY)


@pytest.mark.parametrize("overwrite_m", [False, True])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("loss, spec", LOSSES)
@given(m=margin_arrays)
def test_workspace_gives_the_same_bits_as_fresh_arrays(loss, spec, side, overwrite_m, m):
    # Oracle: the same computation without a workspace, leaving m alone.  The workspace (3 rows; 2 with
    # overwrite_m, where m is the scratch) is filled with NaN first, so a value that is read before it is written
    # (stale scratch from an earlier chunk) shows up.  Companion: with overwrite_m the tau-logistic loss does
    # write m (the array it saves), and without it m is left alone.
    right = side == "right"
    with np.errstate(all="ignore"):
        v_ref, d_ref = loss._value_and_derivative(m.copy(), right)
        workspace = np.full((2 if overwrite_m else 3,) + m.shape, np.nan)
        margins = m.copy()
        v, d = loss._value_and_derivative(margins, right, workspace, overwrite_m=overwrite_m)
        scratch = np.exp(np.minimum(-getattr(loss, "tau", 1.0) * m, m))
    assert np.shares_memory(v, workspace[0]) and np.shares_memory(d, workspace[1])
    np.testing.assert_array_equal(v, v_ref)
    np.testing.assert_array_equal(d, d_ref)
    if not overwrite_m:
        np.testing.assert_array_equal(margins, m)
    elif spec["kind"] == "tau_logistic" and not np.array_equal(scratch, m):
        assert not np.array_equal(margins, m)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_value_and_derivative_at_exact_zero_and_kinks(loss, spec):
    pts = np.array([0.0, -0.0] + list(KINKS[spec["kind"]]))
    for side in ("left", "right"):
        v, d = loss.value_and_derivative(pts, side=side)
        np.testing.assert_allclose(v, loss.value(pts), rtol=1e-15, atol=0)
        np.testing.assert_allclose(d, loss.derivative(pts, side=side), rtol=1e-15, atol=0)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("loss, spec", LOSSES)
def test_value_and_derivative_accepts_scalars(loss, spec, side):
    """Scalar (and 0-d array) margins give scalar-like results equal to value() and derivative().

    Regression test: an intermediate rewrite of TauDiscrepantLogisticLoss.value_and_derivative raised
    ``TypeError: return arrays must be of ArrayType`` for m = 0.5 (in-place ufuncs on a NumPy scalar).
    """
    for m in (0.5, -2.0, 0.0, np.float64(3.0), np.array(-1.5)):
        v, d = loss.value_and_derivative(m, side=side)
        assert np.ndim(v) == 0 and np.ndim(d) == 0
        assert float(v) == pytest.approx(float(loss.value(m)), rel=1e-15, abs=0)
        assert float(d) == pytest.approx(float(loss.derivative(m, side=side)), rel=1e-15, abs=0)


# ------------------------------------------------------------------------------ stated properties
DENSE = np.concatenate([np.linspace(-50.0, 50.0, 200_001), -np.logspace(-12, 300, 400), np.logspace(-12, 300, 400),
                        [0.0, -0.0, 1.0]])
DENSE.sort()


def _find_midpoint_convexity_violation(loss):
    """Largest violation of phi((a+b)/2) <= (phi(a)+phi(b))/2 over all pairs of a grid (beyond rounding)."""
    g = np.arange(-12.0, 12.0 + 1e-9, 0.125)
    a, b = np.meshgrid(g, g)
    fa, fb, fm = loss.value(a), loss.value(b), loss.value((a + b) / 2)
    slack = 8 * EPS * (np.abs(fa) + np.abs(fb) + np.abs(fm))
    excess = fm - (fa + fb) / 2 - slack
    return float(excess.max())


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_is_convex_matches_midpoint_convexity_on_grid(loss, spec):
    excess = _find_midpoint_convexity_violation(loss)
    if loss.is_convex:
        assert excess <= 0.0
    else:
        assert excess > 1e-3  # a clear violation, far beyond rounding


def test_sigmoid_is_not_convex():
    for loss in (sigmoid(), sigmoid(scale=1.0)):
        assert loss.is_convex is False
        # concave for m < 0: phi(-2) < (phi(-3) + phi(-1)) / 2 is violated in the convex direction
        assert loss.value(-2.0) > (loss.value(-3.0) + loss.value(-1.0)) / 2


triples = st.tuples(st.floats(-700.0, 700.0), st.floats(-700.0, 700.0), st.floats(0.0, 1.0))


@pytest.mark.parametrize("loss, spec", [p for p in LOSSES if p.values[0].is_convex])
@given(t=triples)
def test_convexity_on_random_triples(loss, spec, t):
    a, b, lam = t
    c = lam * a + (1 - lam) * b
    assume(min(a, b) <= c <= max(a, b))
    fa, fb, fc = (float(loss.value(x)) for x in (a, b, c))
    assume(all(math.isfinite(x) for x in (fa, fb, fc)))
    # phi(c) <= chord at c; the chord is written with the exact position of c between a and b.
    assume(a != b)
    w = (c - b) / (a - b)
    chord = w * fa + (1 - w) * fb
    assert fc <= chord + 16 * EPS * (abs(fa) + abs(fb) + abs(fc)), (a, b, c, fa, fb, fc)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_is_nonincreasing_matches_grid(loss, spec):
    v = np.asarray(loss.value(DENSE))  # DENSE is sorted increasingly
    a, b = v[:-1], v[1:]
    both = np.isfinite(a) & np.isfinite(b)
    increases = (b[both] > a[both] + 4 * EPS * np.abs(a[both])).any() or (np.isinf(b) & np.isfinite(a)).any()
    d_left, d_right = loss.derivative(DENSE, side="left"), loss.derivative(DENSE, side="right")
    positive_slope = (d_left > 0) | (d_right > 0)
    found = bool(increases or positive_slope.any())
    assert loss.is_nonincreasing == (not found)
    assert loss.is_nonincreasing is True  # every shipped loss is non-increasing (Fig. 2, Sec. 3)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_dominates_zero_one_matches_grid(loss, spec):
    pts = np.concatenate([DENSE, [-1e-300, -5e-324, 5e-324]])
    zero_one = (pts <= 0).astype(np.float64)
    violated = bool(np.any(np.asarray(loss.value(pts)) < zero_one))
    assert loss.dominates_zero_one == (not violated)
    # and at m = 0 exactly (1{0 <= 0} = 1): phi(0) >= 1 iff dominating
    assert (float(loss.value(0.0)) >= 1.0) == loss.dominates_zero_one


def test_non_dominating_losses_are_flagged():
    for loss in (logistic(base=math.e), sigmoid(scale=1.0)):
        assert loss.dominates_zero_one is False
        assert float(loss.value(0.0)) < 1.0  # ln 2 ~ 0.693 and 1/2
    for loss in (logistic(), tau_logistic(0.33), hinge(), squared_hinge(), exponential(), sigmoid()):
        assert loss.dominates_zero_one is True


def _true_discrepancy(spec):
    """phi'(0+) / phi'(0-) from the formulas: tau for the tau-logistic loss (slopes -tau/(2 ln b) and
    -1/(2 ln b)), 1 for every loss that is differentiable at 0."""
    return spec["tau"] if spec["kind"] == "tau_logistic" else 1.0


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_discrepancy(loss, spec):
    right = float(loss.derivative(0.0, side="right"))
    left = float(loss.derivative(0.0, side="left"))
    assert loss.discrepancy == pytest.approx(right / left, rel=2 * EPS, abs=0)
    assert loss.discrepancy == pytest.approx(_true_discrepancy(spec), rel=2 * EPS, abs=0)
    with mpmath.workdps(DPS):  # one-sided mpmath limits phi'(0+) / phi'(0-)
        ref = (mpmath.diff(lambda t: mp_phi(spec, t), 0, direction=1)
               / mpmath.diff(lambda t: mp_phi(spec, t), 0, direction=-1))
    assert loss.discrepancy == pytest.approx(float(ref), rel=2 * EPS, abs=0)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_is_tau_discrepant(loss, spec):
    """Definition: a convex phi is tau-discrepant iff phi'(0+) >= tau phi'(0-); with phi'(0-) < 0 this is
    tau >= phi'(0+)/phi'(0-), the true discrepancy (tau for the tau-logistic loss, by construction)."""
    true = _true_discrepancy(spec)
    convex = _find_midpoint_convexity_violation(loss) <= 0.0
    for t in (0.01, 0.05, true * (1 - 1e-9), true * (1 + 1e-9), 0.5, 1.0, 1.5, 10.0):
        assert loss.is_tau_discrepant(t) == (convex and t >= true), t
    # consistent with the stated discrepancy: tau' >= discrepancy exactly at the boundary
    assert loss.is_tau_discrepant(loss.discrepancy) == convex


@pytest.mark.parametrize("loss, spec", [p for p in LOSSES if p.values[1]["kind"] == "tau_logistic"])
def test_tau_logistic_is_tau_discrepant_at_its_own_tau(loss, spec):
    """Fig. 2's loss with parameter tau satisfies phi'(0+) = tau phi'(0-) exactly, so it IS tau-discrepant.

    Regression test: an earlier version compared -0.75 * expit(0) / ln 2 >= 0.75 * (-expit(0) / ln 2) in
    floating point; the two roundings land one ulp apart, so tau_logistic(0.75).is_tau_discrepant(0.75) was
    False -- the paper's own setting for the Jaccard index (tau = 0.75, Thm. 2).
    """
    tau = spec["tau"]
    assert loss.is_tau_discrepant(tau) is True


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_lipschitz_is_sup_abs_derivative(loss, spec):
    d = np.abs(np.concatenate([loss.derivative(DENSE, side="left"), loss.derivative(DENSE, side="right")]))
    sup = float(d.max())
    L = loss.lipschitz
    if math.isinf(L):
        assert sup > 1e299  # unbounded slope: |phi'(-1e300)| is astronomically large
    else:
        assert sup <= L * (1 + 4 * EPS)  # bound holds ...
        assert sup >= L * (1 - 1e-9)  # ... and is approached


def _region_max_abs_second(loss, region):
    if region == "neg":
        pts, side = DENSE[DENSE <= 0], "left"
    else:
        pts, side = DENSE[DENSE > 0], "right"
    pts = np.concatenate([pts, [0.0]]) if region == "neg" else np.concatenate([pts, [1e-300, 1e-15]])
    return float(np.abs(loss.second_derivative(pts, side=side)).max()), pts, side


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_smoothness_bounds_second_derivative(loss, spec):
    gammas = dict(zip(("neg", "pos"), loss.smoothness))
    for region, gamma in gammas.items():
        sup, pts, side = _region_max_abs_second(loss, region)
        inside = [k for k in KINKS[spec["kind"]] if (k < 0 if region == "neg" else k > 0)]
        jumps = [k for k in inside if loss.derivative(k, side="left") != loss.derivative(k, side="right")]
        if math.isinf(gamma):
            # phi' is not Lipschitz on the region: either phi'' is unbounded there or phi' jumps inside it
            assert sup > 1e299 or jumps, (region, sup)
        else:
            assert not jumps
            assert sup <= gamma * (1 + 4 * EPS), (region, sup, gamma)
            assert sup >= gamma * (1 - 1e-6), (region, sup, gamma)  # approached (grid step 5e-4 near the max)
            # The Lipschitz constant of phi' itself (difference quotients of the derivative) also obeys it.
            sub = np.unique(pts[(np.abs(pts) < 50)])
            dd = np.asarray(loss.derivative(sub, side=side))
            dm = np.diff(sub)
            # rounding: each derivative value carries <= 4 EPS relative error, so the quotient carries
            # <= 4 EPS (|phi'(a)| + |phi'(b)|) / (b - a); the true quotient is <= gamma (mean value theorem).
            excess = np.abs(np.diff(dd)) - gamma * dm - 4 * EPS * (np.abs(dd[1:]) + np.abs(dd[:-1]))
            assert float(excess.max()) <= 0.0


def test_smoothness_values_from_formulas():
    """The constants themselves, derived here: sup s^2 sigma(1 - sigma) / ln b = s^2 / (4 ln b); for the
    sigmoid, max over p in (0, 1) of p (1 - p) |2p - 1| = 1 / (6 sqrt 3) (at p = 1/2 + 1/(2 sqrt 3))."""
    for tau in (0.1, 0.33, 0.75, 1.0):
        g_neg, g_pos = tau_logistic(tau).smoothness
        assert g_neg == pytest.approx(1 / (4 * math.log(2)), rel=1e-15, abs=0)
        assert g_pos == pytest.approx(tau * tau / (4 * math.log(2)), rel=1e-15, abs=0)
    with mpmath.workdps(DPS):
        p = mpmath.findroot(lambda p: mpmath.diff(lambda q: q * (1 - q) * (2 * q - 1), p), 0.8)
        g = float(2 * p * (1 - p) * (2 * p - 1))
    assert sigmoid().smoothness == pytest.approx((g, g), rel=1e-14, abs=0)
    assert hinge().smoothness == (0.0, math.inf)
    assert squared_hinge().smoothness == (2.0, 2.0)
    assert exponential().smoothness == (math.inf, 1.0)


# -------------------------------------------------------------------------------------- vectorization
@pytest.mark.parametrize("loss, spec", LOSSES)
def test_shapes_preserved(loss, spec):
    for m in (0.5, np.float64(-2.0), np.linspace(-3, 3, 7), np.linspace(-3, 3, 12).reshape(3, 4)):
        expected_shape = np.shape(m)
        outs = [loss.value(m), loss.derivative(m), loss.second_derivative(m, side="left"),
                *loss.value_and_derivative(m)]
        for out in outs:
            assert np.shape(out) == expected_shape
            if expected_shape == ():
                assert isinstance(float(out), float)
                assert np.ndim(out) == 0
    # elementwise: the 2-D result equals the scalar results
    m2 = np.linspace(-3, 3, 12).reshape(3, 4)
    np.testing.assert_allclose(loss.value(m2), np.vectorize(lambda x: float(loss.value(x)))(m2), rtol=1e-15, atol=0)
    np.testing.assert_allclose(loss.derivative(m2), np.vectorize(lambda x: float(loss.derivative(x)))(m2),
                               rtol=1e-15, atol=0)


# ------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("tau", [0.0, -0.1, 1.5, math.nan])
def test_bad_tau(tau):
    with pytest.raises(ValueError, match="tau"):
        tau_logistic(tau)


@pytest.mark.parametrize("base", [1.0, 0.5, 0.0, -2.0])
def test_bad_base(base):
    with pytest.raises(ValueError, match="base"):
        logistic(base=base)
    with pytest.raises(ValueError, match="base"):
        tau_logistic(0.5, base=base)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_nan_margin_rejected(loss, spec):
    for bad in (math.nan, np.array([0.0, math.nan])):
        for call in (loss.value, loss.derivative, loss.second_derivative, loss.value_and_derivative):
            with pytest.raises(ValueError, match=r"\bm\b"):
                call(bad)


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_bad_side_rejected(loss, spec):
    for call in (loss.derivative, loss.second_derivative, loss.value_and_derivative):
        with pytest.raises(ValueError, match="side"):
            call(0.0, side="middle")


def test_bad_scale_and_tau_argument_of_is_tau_discrepant():
    with pytest.raises(ValueError, match="scale"):
        sigmoid(scale=0.0)
    with pytest.raises(ValueError, match="tau"):
        logistic().is_tau_discrepant(0.0)


def test_losses_are_immutable():
    for loss in (tau_logistic(0.33), hinge(), sigmoid()):
        with pytest.raises(dataclasses.FrozenInstanceError):
            loss.tau = 0.5


# ----------------------------------------------------------------------- contracts pinned by mutation testing
def exactly(text):
    import re

    return "^" + re.escape(text) + "$"


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_scalar_margins_give_numpy_scalars_not_zero_d_arrays(loss, spec):
    """A scalar in gives a NumPy float64 scalar out (usable as a dict key, in f-strings with :g, ...)."""
    for out in (loss.value(0.5), loss.derivative(0.5), loss.second_derivative(0.5, side="left"),
                *loss.value_and_derivative(0.5)):
        assert type(out) is np.float64
    assert type(loss.value(np.array([0.5]))) is np.ndarray


@pytest.mark.parametrize("loss, spec", LOSSES)
def test_integer_and_rational_margins_are_read_as_reals(loss, spec):
    """Margins given as Python ints or Fractions are converted to float64 once (as documented: 'vectorized over
    arrays'); results equal those of the float margins."""
    from fractions import Fraction

    floats = np.array([-2.0, 0.0, 0.5, 3.0])
    for margins in ([-2, 0, Fraction(1, 2), 3], [Fraction(-2), Fraction(0), Fraction(1, 2), Fraction(3)]):
        np.testing.assert_array_equal(loss.value(margins), loss.value(floats))
        np.testing.assert_array_equal(loss.derivative(margins, side="left"), loss.derivative(floats, side="left"))
        for got, ref in zip(loss.value_and_derivative(margins), loss.value_and_derivative(floats)):
            np.testing.assert_array_equal(got, ref)


def test_overflow_to_infinity_is_silent_for_logistic_values_and_squared_hinge_derivatives():
    """Just beyond the double range the correctly rounded results are +-inf, without an overflow warning:
    log2(1 + e^{1.5e308}) = 1.5e308 / ln 2 > 1.8e308, and -2 (1 + 1e308) < -1.8e308."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for loss in (logistic(), tau_logistic(0.5)):
            assert loss.value(-1.5e308) == math.inf
            assert loss.value_and_derivative(-1.5e308)[0] == math.inf
            assert loss.value_and_derivative(np.array([-1.5e308]))[0][0] == math.inf
        assert squared_hinge().derivative(-1e308) == -math.inf
        assert squared_hinge().value_and_derivative(-1e308)[1] == -math.inf


def test_parameters_are_stored_as_python_floats():
    loss = tau_logistic(np.float32(0.5), base=3)
    assert type(loss.tau) is float and loss.tau == 0.5 and type(loss.base) is float and loss.base == 3.0
    scaled = sigmoid(scale=3)
    assert type(scaled.scale) is float and scaled.scale == 3.0


@pytest.mark.parametrize("make, message", [
    (lambda: tau_logistic(0.0), "tau must lie in (0.0, 1.0]; got 0.0"),
    (lambda: tau_logistic(1.5), "tau must lie in (0.0, 1.0]; got 1.5"),
    (lambda: logistic(base=1.0), "base must lie in (1.0, inf); got 1.0"),
    (lambda: sigmoid(scale=0.0), "scale must lie in (0.0, inf); got 0.0"),
    (lambda: logistic().is_tau_discrepant(0.0), "tau must lie in (0.0, inf); got 0.0"),
    (lambda: hinge().value([0.0, math.nan]), "m must not contain NaN"),
])
def test_loss_argument_messages(make, message):
    with pytest.raises(ValueError, match=exactly(message)):
        make()


class _TestLoss:
    """Convex test losses outside the library, for the branches of is_tau_discrepant (Definition of a
    tau-discrepant loss: phi convex and phi'(0+) >= tau phi'(0-))."""

    @staticmethod
    def make(value, derivative):
        from lfverify.core import SurrogateLoss

        class Loss(SurrogateLoss):
            name = "test loss"
            is_convex = True
            is_nonincreasing = False
            dominates_zero_one = False
            lipschitz = math.inf
            smoothness = (math.inf, math.inf)

            def _value(self, m):
                return value(m)

            def _derivative(self, m, right):
                return derivative(m, right)

            def _second_derivative(self, m, right):
                return np.zeros_like(m)

        return Loss()


def test_is_tau_discrepant_when_the_left_slope_at_zero_is_not_negative():
    """phi'(0-) >= 0: the condition phi'(0+) >= tau phi'(0-) is checked as written (no division)."""
    square = _TestLoss.make(lambda m: m * m, lambda m, right: 2.0 * m)  # phi'(0+-) = 0: 0 >= tau * 0
    assert square.is_tau_discrepant(0.5) is True and square.is_tau_discrepant(3.0) is True
    exp = _TestLoss.make(np.exp, lambda m, right: np.exp(m))  # phi'(0+-) = 1: 1 >= tau iff tau <= 1
    assert exp.is_tau_discrepant(1.0) is True and exp.is_tau_discrepant(2.0) is False


def test_is_tau_discrepant_with_a_kink_from_negative_to_positive_slope():
    """phi(m) = |m|: phi'(0-) = -1, phi'(0+) = 1, so phi'(0+) >= tau phi'(0-) = -tau holds for every tau > 0."""
    absolute = _TestLoss.make(np.abs, lambda m, right: np.where((m > 0) | ((m == 0) & right), 1.0, -1.0))
    assert absolute.discrepancy == -1.0
    assert absolute.is_tau_discrepant(0.5) is True and absolute.is_tau_discrepant(2.0) is True
