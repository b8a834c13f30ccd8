"""Three core rules at floating-point resolution and one ordering precondition (issue 45, items 2, 3 and 5).

Oracles, each the rule as its docstring states it:

* ``_root``'s bisection (lfverify/core/_pointwise_optimum.py) stops at the first bracket with hi - lo <= 4 eps
  max(hi, 1).  On an input whose starting bracket is [0, 1] exactly (checked), every bracket is dyadic and exact,
  so after k halvings its width is 2^-k and the rule stops at k = 50, where the width *equals* 4 eps = 2^-50.  The
  expected result is the midpoint of the 50th bracket of a bisection written out here with the same predicate
  (left side > right side moves lo); the 51st midpoint differs from it.  At tau = 1e-100 (a bracket about 5e101
  wide) the same written-out bisection needs 383 halvings, and the result must be its midpoint, at full precision.
* ``gaussian_expectation`` (lfverify/core/_quadrature.py) treats a row with std == 0 as the point mass at the mean,
  E = func(mean), and any positive std as a Gaussian.  With func(xi) = (xi / s)^2 at s = the smallest subnormal
  std, a Gaussian row integrates round(z)^2 (xi = s z rounds to a multiple of s), whose expectation is
  sum_k k^2 P(k - 1/2 < z < k + 1/2) ~ 1.08 (Sheppard); the point mass gives 0 exactly; -s is refused.
* ``_maximize_over_thresholds`` (lfverify/core/_populations.py) needs a strictly increasing grid: a reversed grid,
  or one with a repeated threshold, is a ValueError naming ``grid``, the expectation and the offending pair; the
  same grid increasing (thresholds of either sign) finds the optimum of the uniform-score family, 0.75 at t = 0.5.

Companions plant ``<`` for ``<=`` in the bisection stop, a cap of 200 halvings, a near-zero rule (std <= tiny) for
std == 0, and a variant without the grid check, and see each check fail.

Private: lfverify.core._pointwise_optimum._root (the per-eta root the corrected statements' pointwise maximiser
solves), lfverify.core._quadrature.gaussian_expectation's module (for the planted variant) and
lfverify.core._populations._maximize_over_thresholds (the threshold search the public populations hide), called
directly and replaced by planted variants in the companions.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit, ndtr

import lfverify.core._pointwise_optimum as pointwise_module
import lfverify.core._populations as populations
import lfverify.core._quadrature as quadrature
from lfverify.core import accuracy
from planted import planting

pytestmark = pytest.mark.claims("package:numerics")

# ------------------------------------------------------------------ _root's bisection stop
TAU, BIG = 64.0, 1.0
SMALL = 5.3217838022628005e-05  # chosen so that (log(BIG TAU / SMALL) + 50) / TAU is exactly 1


def _bisection(big, small, tau, halvings):
    """The bracket [0, 1] halved ``halvings`` times by "left side > right side moves lo"; its midpoint."""
    lo, hi = 0.0, 1.0
    for _ in range(halvings):
        mid = 0.5 * (lo + hi)
        if big * tau * expit(-tau * mid) > small * expit(mid):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi), hi - lo


def check_root_stops_at_equality(root=None) -> None:
    root = root or pointwise_module._root
    assert (np.log(BIG * TAU / SMALL) + 50.0) / TAU == 1.0  # the starting bracket is [0, 1]
    at_50, width = _bisection(BIG, SMALL, TAU, 50)
    assert width == 4 * np.finfo(float).eps  # the stop is reached at equality
    at_51, _ = _bisection(BIG, SMALL, TAU, 51)
    assert at_50 != at_51
    got = root(np.array([BIG]), np.array([SMALL]), TAU)
    assert got.tolist() == [at_50]


def test_the_bisection_stops_when_the_bracket_equals_its_tolerance():
    check_root_stops_at_equality()


def test_companion_a_strict_bisection_stop_fails(monkeypatch):
    planting(monkeypatch, pointwise_module, "_root", "hi - lo <= 4 *", "hi - lo < 4 *")
    with pytest.raises(AssertionError):
        check_root_stops_at_equality()


def check_root_reaches_full_precision_at_a_tiny_tau(root=None) -> None:
    """At tau = 1e-100 the starting bracket is about 5e101 wide: the stop needs 383 halvings.  Oracle: the same
    bisection written out here, run to the documented stop; and the predicate must flip within 8 eps of the result
    (full precision, as the docstring says)."""
    root = root or pointwise_module._root
    big, small, tau = 1.0, 0.5e-100, 1e-100

    def below(x):
        return big * tau * expit(-tau * x) > small * expit(x)

    lo, hi = 0.0, (np.log(big * tau / small) + 50.0) / tau
    while hi - lo > 4 * np.finfo(float).eps * max(hi, 1.0):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if below(mid) else (lo, mid)
    got = float(root(np.array([big]), np.array([small]), tau)[0])
    assert got == 0.5 * (lo + hi)
    assert below(got * (1 - 8 * np.finfo(float).eps)) and not below(got * (1 + 8 * np.finfo(float).eps))


def test_the_bisection_reaches_full_precision_at_a_tiny_tau():
    check_root_reaches_full_precision_at_a_tiny_tau()


def test_companion_a_cap_of_200_halvings_stops_short(monkeypatch):
    """The cap the seed-2027 mutation sample found untested (its 200 -> 201 survived): 200 halvings leave the root
    1.6e41 instead of 36.7."""
    monkeypatch.setattr(pointwise_module, "_MAX_HALVINGS", 200)
    with pytest.raises(AssertionError):
        check_root_reaches_full_precision_at_a_tiny_tau()


# ------------------------------------------------------------------ std == 0 against the smallest subnormal
SUBNORMAL = float(np.nextafter(0.0, 1.0))


def _sheppard():
    k = np.arange(-13, 14, dtype=np.float64)
    return float(np.sum(k * k * (ndtr(k + 0.5) - ndtr(k - 0.5))))


def check_degenerate_std_is_zero_only(expectation=None) -> None:
    expectation = expectation or quadrature.gaussian_expectation
    values = expectation(lambda xi: (xi / SUBNORMAL) ** 2, np.zeros(2), np.array([0.0, SUBNORMAL]))
    assert values[0] == 0.0  # the point mass at the mean
    assert values[1] == pytest.approx(_sheppard(), rel=2e-2)  # a Gaussian, seen through rounding to multiples of s
    try:
        expectation(lambda xi: xi, np.zeros(1), np.array([-SUBNORMAL]))
    except ValueError as exc:
        assert "std finite and non-negative" in str(exc)
    else:
        raise AssertionError("a negative subnormal std was integrated")


def test_only_a_zero_std_is_a_point_mass():
    check_degenerate_std_is_zero_only()


def test_companion_a_near_zero_rule_fails(monkeypatch):
    planting(monkeypatch, quadrature, "gaussian_expectation", "degenerate = std == 0",
             "degenerate = std <= np.finfo(np.float64).tiny")
    with pytest.raises(AssertionError):
        check_degenerate_std_is_zero_only()


# ------------------------------------------------------------------ the threshold grid's order
def _uniform_family():
    """Score u ~ U[0, 1], eta(u) = u at prior 1/2: TP(t) = (1 - t^2) / 2, FP(t) = (1 - t)^2 / 2 for {u > t};
    accuracy is maximal (0.75) at t = 1/2."""
    def rates(t):
        t = np.clip(np.asarray(t, dtype=np.float64), 0.0, 1.0)
        return (1 - t * t) / 2, (1 - t) ** 2 / 2

    def rate_slopes(t):
        t = np.asarray(t, dtype=np.float64)
        inside = (t > 0) & (t < 1)
        return np.where(inside, -t, 0.0), np.where(inside, -(1 - t), 0.0)

    return rates, rate_slopes


def check_grid_order(search=None) -> None:
    search = search or populations._maximize_over_thresholds
    rates, rate_slopes = _uniform_family()
    grid = np.linspace(-0.5, 1.5, 21)  # thresholds of both signs
    best = search(accuracy(), 0.5, rates=rates, rate_slopes=rate_slopes, grid=grid)
    assert best.utility == pytest.approx(0.75, rel=1e-14) and best.threshold == pytest.approx(0.5, abs=1e-9)
    repeated = np.insert(grid, 5, grid[5])
    for bad, where in ((grid[::-1], 0), (repeated, 5)):
        try:
            search(accuracy(), 0.5, rates=rates, rate_slopes=rate_slopes, grid=bad)
        except ValueError as exc:
            message = str(exc)
            assert message.startswith("grid must be a 1-D array of at least 2 strictly increasing thresholds; got "
                                      "grid["), message
            pair = float(bad[where]), float(bad[where + 1])
            assert message.endswith(f"grid[{where}] = {pair[0]!r} followed by {pair[1]!r}"), message
        else:
            raise AssertionError("a grid that is not increasing was searched")


def test_the_threshold_search_refuses_a_grid_that_is_not_increasing():
    check_grid_order()


def test_companion_a_search_without_the_order_check_fails(monkeypatch):
    planting(monkeypatch, populations, "_maximize_over_thresholds",
             "not np.all(np.diff(grid) > 0)", "False")
    with pytest.raises(AssertionError):
        check_grid_order()
