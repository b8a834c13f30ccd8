"""Tests of lfverify.core._quadrature: composite Gauss-Legendre for Gaussian and interval expectations.

Oracles: closed forms (Gaussian moments, E[max(0, 1 - xi)] and E[exp(-xi)] of a normal xi, integrals of
1 / (1 + (u/a)^2) and of polynomials against a density), the rule as the docstrings state it (window, panel
widths, breakpoints, 16 nodes per panel, the node limit), and the measured numbers quoted in the module
docstring.  Error messages are matched in full.

Order (issue 45, item 2): breakpoints given in every order (reversed, shuffled, per row) give bit-identical results,
the oracle being the same call with sorted breakpoints; a companion plants a variant without the sort and sees the
check fail.

Private: lfverify.core._quadrature's GAUSSIAN_HALF_WIDTH, MAX_NODES_PER_ROW and _measure_against_gauss_hermite, the
grid's stated constants and its measurement against Gauss-Hermite, which back the accuracy its docstring claims; its
_composite_gauss_legendre, whose guard of non-decreasing edges is called directly, and gaussian_expectation /
interval_expectation replaced by planted variants in the companions.
"""

from __future__ import annotations

import io
import math
import re
from contextlib import redirect_stdout
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.special import ndtr

import lfverify.core._quadrature as quadrature
from lfverify.core import gaussian_expectation, interval_expectation
from lfverify.core._quadrature import GAUSSIAN_HALF_WIDTH, MAX_NODES_PER_ROW
from planted import planting

pytestmark = pytest.mark.claims("package:numerics")


def exactly(text: str) -> str:
    return "^" + re.escape(text) + "$"


class Recorder:
    """A pointwise integrand that remembers the nodes it was evaluated at."""

    def __init__(self, func):
        self.func, self.nodes = func, []

    def __call__(self, x):
        self.nodes.append(np.array(x, copy=True))
        return self.func(x)


def expected_node_count(edges, width, nodes_per_panel=16):
    """Nodes of the documented rule for one row: every segment between consecutive edges is cut into
    max(1, ceil(length / width)) equal panels with ``nodes_per_panel`` nodes each."""
    return nodes_per_panel * sum(max(1, math.ceil((b - a) / width)) for a, b in zip(edges[:-1], edges[1:]))


# --------------------------------------------------------------------------------- Gaussian expectations
@pytest.mark.parametrize("mean, std", [(0.3, 1.5), (-2.0, 0.25), (1.0, 7.0)])
def test_gaussian_hinge_expectation_matches_closed_form(mean, std):
    """E[max(0, 1 - xi)] = (1 - m) Phi((1 - m)/s) + s phi((1 - m)/s) for xi ~ N(m, s^2), kink at xi = 1."""
    c = (1.0 - mean) / std
    exact = (1.0 - mean) * ndtr(c) + std * math.exp(-0.5 * c * c) / math.sqrt(2 * math.pi)
    got = gaussian_expectation(lambda xi: np.maximum(0.0, 1.0 - xi), np.array([mean]), np.array([std]),
                               breakpoints=(1.0,))
    assert got.shape == (1,) and got.dtype == np.float64
    assert got[0] == pytest.approx(exact, rel=1e-14, abs=0)


def test_gaussian_first_moment_is_e_func_times_standardized_node():
    """E[xi z] = s and E[xi^2 z] = 2 m s for z = (xi - m)/s; a degenerate row (s = 0) gives func(m) and 0."""
    mean, std = np.array([0.5, -1.25, 2.0]), np.array([2.0, 0.5, 0.0])
    values, first = gaussian_expectation(lambda xi: np.stack([xi, xi ** 2], axis=-1), mean, std, first_moment=True)
    np.testing.assert_allclose(values, np.stack([mean, mean ** 2 + std ** 2], axis=1), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(first, np.stack([std, 2 * mean * std], axis=1), rtol=1e-14, atol=1e-15)
    assert first[2].tolist() == [0.0, 0.0] and values[2].tolist() == [2.0, 4.0]


def test_gaussian_tail_rate_widens_the_window_for_an_exponentially_growing_integrand():
    """E[exp(-xi)] = exp(-m + s^2/2): with s = 6 the integrand's mass sits near z = -6, i.e. needs the window
    [-12 - tail_rate * s, 12]; without tail_rate the result is visibly wrong (the docstring's reason for it)."""
    mean, std = np.array([0.5]), np.array([6.0])
    exact = math.exp(-0.5 + 18.0)
    widened = gaussian_expectation(lambda xi: np.exp(-xi), mean, std, tail_rate=1.0)
    assert widened[0] == pytest.approx(exact, rel=1e-13, abs=0)
    plain = gaussian_expectation(lambda xi: np.exp(-xi), mean, std)
    assert abs(plain[0] - exact) > 1e-10 * exact


@pytest.mark.parametrize("std, breakpoints, tail_rate", [
    (1.0, (), 0.0), (0.25, (0.1, -3.0), 0.0), (5.0, (2.0, 100.0), 0.0), (3.0, (-1.0,), 1.0),
])
def test_gaussian_rule_is_the_documented_one(std, breakpoints, tail_rate):
    """The window [-12 - tail_rate std, 12] in z, cut at every breakpoint and into panels of width at most
    min(0.5, 1/std), with 16 Gauss-Legendre nodes per panel; no panel straddles a breakpoint.  A breakpoint outside
    the window is moved to its end, where it leaves an empty segment (one panel of zero width and weight)."""
    mean = 0.5
    rec = Recorder(lambda xi: np.ones_like(xi))
    total = gaussian_expectation(rec, np.array([mean]), np.array([std]), breakpoints=breakpoints, tail_rate=tail_rate)
    assert total[0] == pytest.approx(1.0 - ndtr(-GAUSSIAN_HALF_WIDTH - tail_rate * std) - ndtr(-GAUSSIAN_HALF_WIDTH),
                                     rel=1e-14, abs=0)
    xi = rec.nodes[0][0]
    z = (xi - mean) / std
    low, high = -GAUSSIAN_HALF_WIDTH - tail_rate * std, GAUSSIAN_HALF_WIDTH
    clipped = sorted(min(max((b - mean) / std, low), high) for b in breakpoints)
    edges = [low, *clipped, high]
    assert xi.shape == (expected_node_count(edges, min(0.5, 1.0 / std)),)
    assert z.min() >= low and z.max() <= high
    inside = [b for b in clipped if low < b < high]
    for b in inside:  # panels end at b: the nodes closest to b on either side are as close as the others' ends
        gap = np.sort(np.abs(z - b))[:2]
        assert np.all(gap > 0)
        assert np.sum(z < b) % 16 == 0  # whole panels on each side


def test_gaussian_degenerate_row_gives_func_at_the_mean_exactly():
    got = gaussian_expectation(lambda xi: np.cos(xi), np.array([0.7, 0.0]), np.array([0.0, 1.0]), breakpoints=(0.7,))
    assert got[0] == math.cos(0.7)
    assert got[1] == pytest.approx(math.exp(-0.5), rel=1e-14, abs=0)  # E[cos Z] = e^{-1/2}


def test_one_node_per_panel_is_the_midpoint_rule_and_exact_for_linear_integrands():
    got = gaussian_expectation(lambda xi: 3.0 * xi - 1.0, np.array([0.25]), np.array([1.5]), nodes_per_panel=1)
    assert got[0] == pytest.approx(3.0 * 0.25 - 1.0, rel=1e-13, abs=0)
    rec = Recorder(lambda u: 2.0 * u)
    assert interval_expectation(rec, 0.0, 1.0, breakpoints=np.zeros((1, 0)), nodes_per_panel=1)[0] == pytest.approx(1.0)
    assert rec.nodes[0].shape == (1, 4)  # [0, 1] in panels of width 0.25, one midpoint each


def test_far_breakpoints_and_a_tiny_std_do_not_overflow():
    """Breakpoints are clipped to the window in xi before standardising, so (b - mean) / std cannot overflow
    (pytest turns the overflow RuntimeWarning into an error)."""
    got = gaussian_expectation(lambda xi: np.maximum(0.0, 1.0 - xi), np.array([0.0, 1e-300]),
                               np.array([1e-300, 1e-300]), breakpoints=(-1e300, 1e300))
    np.testing.assert_allclose(got, [1.0, 1.0], rtol=1e-14)


def test_breakpoints_that_round_beyond_the_window_leave_only_empty_segments():
    """mean = 3, std = 3e-17: clipping a far breakpoint to mean +- 12 std in xi and standardising again gives
    z = +-14.8 (xi has no finer resolution near 3), beyond the window; the rule clips z to the window, so the
    panels stay those of [-12, 12] plus two empty end segments (48 + 1 + 1 panels of 16 nodes)."""
    rec = Recorder(lambda xi: xi)
    got = gaussian_expectation(rec, np.array([3.0]), np.array([3e-17]), breakpoints=(-1e300, 1e300))
    assert rec.nodes[0].shape == (1, 16 * 50)
    assert got[0] == pytest.approx(3.0, rel=1e-15, abs=0)


def test_gaussian_accepts_any_real_array_like_for_mean_std_and_breakpoints():
    """Integers and Python Fractions are converted to float64 once (mpmath/sympy users pass rationals)."""
    got = gaussian_expectation(lambda xi: xi ** 2, [Fraction(1, 2), 1], [Fraction(3, 2), 2],
                               breakpoints=[Fraction(1, 4)])
    np.testing.assert_allclose(got, [0.25 + 2.25, 1.0 + 4.0], rtol=1e-14)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"mean": [[0.0], [1.0]], "std": [[1.0], [1.0]]}, ValueError,
     "mean and std must be 1-D arrays of equal shape (K,); got (2, 1) and (2, 1)"),
    ({"mean": [0.0, 1.0], "std": [1.0]}, ValueError,
     "mean and std must be 1-D arrays of equal shape (K,); got (2,) and (1,)"),
    ({"mean": [np.nan], "std": [1.0]}, ValueError, "mean must be finite and std finite and non-negative"),
    ({"mean": [0.0], "std": [np.inf]}, ValueError, "mean must be finite and std finite and non-negative"),
    ({"mean": [0.0], "std": [-1.0]}, ValueError, "mean must be finite and std finite and non-negative"),
    ({"tail_rate": -1.0}, ValueError, "tail_rate must be finite and >= 0; got -1.0"),
    ({"tail_rate": math.inf}, ValueError, "tail_rate must be finite and >= 0; got inf"),
    ({"nodes_per_panel": 0}, ValueError, "nodes_per_panel must be a positive int; got 0"),
    ({"nodes_per_panel": 2.5}, ValueError, "nodes_per_panel must be a positive int; got 2.5"),
    ({"nodes_per_panel": True}, ValueError, "nodes_per_panel must be a positive int; got True"),
    ({"breakpoints": [[0.0], [1.0]]}, ValueError, "breakpoints must have shape (B,) or (1, B); got shape (2, 1)"),
    ({"breakpoints": np.zeros((1, 1, 1))}, ValueError,
     "breakpoints must have shape (B,) or (1, B); got shape (1, 1, 1)"),
    ({"breakpoints": [0.0, np.nan]}, ValueError, "breakpoints must not contain NaN"),
])
def test_gaussian_rejects_bad_arguments_with_exact_messages(kwargs, error, message):
    args = {"mean": [0.0], "std": [1.0], **kwargs}
    mean, std = args.pop("mean"), args.pop("std")
    with pytest.raises(error, match=exactly(message)):
        gaussian_expectation(lambda xi: xi, mean, std, **args)


def test_func_with_the_wrong_shape_or_non_finite_values_is_refused():
    with pytest.raises(ValueError, match=r"^func must return an array of shape \(2, 768\) "
                                         r"or \(2, 768, \.\.\.\); got \(768,\)$"):
        gaussian_expectation(lambda xi: xi[0], np.zeros(2), np.ones(2))
    message = ("func is not finite at some quadrature nodes of rows [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]; the integrand "
               "overflows double precision there (e.g. the exponential loss with a large std), so the rule cannot be "
               "applied")
    with pytest.raises(ValueError, match=exactly(message)):  # rows 1..11 (mean k >= 1) are infinite, row 0 is not
        gaussian_expectation(lambda xi: np.where(xi > 0.5, np.inf, xi), np.arange(12.0), np.zeros(12))


def test_node_limit_is_enforced_at_exactly_max_nodes_per_row():
    """2^16 panels of 16 nodes are exactly MAX_NODES_PER_ROW = 2^20 nodes: allowed; one more panel is refused."""
    assert MAX_NODES_PER_ROW == 1 << 20
    width = 2.0 ** -16
    got = interval_expectation(lambda u: u, 0.0, 1.0, breakpoints=np.zeros((1, 0)), max_panel_width=width)
    assert got[0] == pytest.approx(0.5, rel=1e-12, abs=0)
    message = ("the composite rule would need 1.05e+06 nodes per row (limit 1048576); the integrand varies on too fine "
               "a scale relative to its domain (e.g. std or slope too large)")
    with pytest.raises(ValueError, match=exactly(message)):
        interval_expectation(lambda u: u, 0.0, 1.0 + width, breakpoints=np.zeros((1, 0)), max_panel_width=width)


# --------------------------------------------------------------------------------- interval expectations
def test_interval_default_panel_width_resolves_poles_at_distance_0_3():
    """integral of 1 / (1 + (u/a)^2) over [-1, 1] = 2 a atan(1/a): with poles at +-0.3i the default panels of
    width 0.25 (rho ~ 5) are accurate to rounding, panels of width 1.25 (rho ~ 1.6) only to ~1e-7."""
    a = 0.3
    exact = 2 * a * math.atan(1 / a)
    func = lambda u: 1.0 / (1.0 + (u / a) ** 2)  # noqa: E731
    got = interval_expectation(func, -1.0, 1.0, breakpoints=np.zeros((1, 0)), density=lambda u: np.ones_like(u))
    assert got[0] == pytest.approx(exact, rel=1e-14, abs=0)
    coarse = interval_expectation(func, -1.0, 1.0, breakpoints=np.zeros((1, 0)), max_panel_width=1.25,
                                  density=lambda u: np.ones_like(u))
    assert abs(coarse[0] - exact) > 1e-12  # the check above can fail


def test_interval_density_weights_the_integrand():
    """integral_0^2 u^2 e^u du = (u^2 - 2u + 2) e^u |_0^2 = 2 e^2 - 2 (density e^u, not the uniform one)."""
    rec = Recorder(lambda u: np.exp(u))
    got = interval_expectation(lambda u: u ** 2, 0.0, 2.0, breakpoints=np.zeros((1, 0)), density=rec)
    assert got[0] == pytest.approx(2 * math.e ** 2 - 2, rel=1e-14, abs=0)
    assert rec.nodes[0].shape == (1, 16 * 8)  # the density sees the same nodes as func


def test_interval_uniform_default_is_an_average_and_breakpoints_outside_are_ignored():
    """E[sqrt(1 - U^2)] for U ~ Uniform[-1, 1] is pi/4; the integrand is undefined outside [-1, 1], so it must
    never be evaluated there although breakpoints lie outside (they are clipped to the interval)."""
    rec = Recorder(lambda u: np.sqrt(1.0 - u * u))
    got = interval_expectation(rec, -1.0, 1.0, breakpoints=np.array([[-5.0, 0.5, 7.0]]))
    # sqrt has infinite slope at the ends: the composite rule converges only algebraically there (~1e-5)
    assert got[0] == pytest.approx(math.pi / 4, rel=1e-5, abs=0)
    u = rec.nodes[0]
    assert u.min() >= -1.0 and u.max() <= 1.0
    # segments [-1, -1], [-1, 0.5], [0.5, 1], [1, 1]: 1 + 6 + 2 + 1 panels of width <= 0.25
    assert u.shape == (1, expected_node_count([-1.0, -1.0, 0.5, 1.0, 1.0], 0.25))


def test_interval_panels_follow_per_row_breakpoints_and_widths():
    """Per-row widths may be any real array_like (here Python Fractions, converted to float64 once)."""
    rec = Recorder(lambda u: np.stack([u, u ** 2], axis=-1))
    got = interval_expectation(rec, -1.0, 2.0, breakpoints=np.array([[0.1], [1.5]]),
                               max_panel_width=[Fraction(1, 2), Fraction(1, 4)])
    np.testing.assert_allclose(got, [[0.5, 1.0], [0.5, 1.0]], rtol=1e-14)  # E[U] = 1/2, E[U^2] = 1 on [-1, 2]
    # every row uses the maximum panel count per segment: segment 1 max(ceil(1.1/0.5), ceil(2.5/0.25)) = 10,
    # segment 2 max(ceil(1.9/0.5), ceil(0.5/0.25)) = 4
    assert rec.nodes[0].shape == (2, 16 * 14)


@pytest.mark.parametrize("low, high, message", [
    (1.0, 1.0, "need finite low < high; got low=1.0, high=1.0"),
    (2.0, 1.0, "need finite low < high; got low=2.0, high=1.0"),
    (-math.inf, 1.0, "need finite low < high; got low=-inf, high=1.0"),
    (0.0, math.inf, "need finite low < high; got low=0.0, high=inf"),
])
def test_interval_bounds_messages(low, high, message):
    with pytest.raises(ValueError, match=exactly(message)):
        interval_expectation(lambda u: u, low, high, breakpoints=np.zeros((1, 0)))


def test_interval_argument_messages():
    with pytest.raises(ValueError, match=exactly("breakpoints must have shape (K, B); got shape (2,)")):
        interval_expectation(lambda u: u, 0.0, 1.0, breakpoints=[0.2, 0.5])
    with pytest.raises(ValueError, match=exactly("max_panel_width must be positive")):
        interval_expectation(lambda u: u, 0.0, 1.0, breakpoints=np.zeros((1, 0)), max_panel_width=0.0)
    with pytest.raises(ValueError, match=exactly("max_panel_width must be positive")):
        interval_expectation(lambda u: u, 0.0, 1.0, breakpoints=np.zeros((2, 0)), max_panel_width=[0.25, -1.0])
    with pytest.raises(ValueError, match=exactly("breakpoints must not contain NaN")):
        interval_expectation(lambda u: u, 0.0, 1.0, breakpoints=np.array([[np.nan]]))


# ------------------------------------------------------------------------------ the docstring's measurements
def test_documented_gauss_hermite_comparison_is_reproduced():
    """``python -m lfverify.core._quadrature`` prints the errors the module docstring quotes (2 significant digits), and
    its mpmath reference for the hinge is the closed form, printed to 25 significant digits."""
    saved = mpmath.mp.dps
    out = io.StringIO()
    try:
        with redirect_stdout(out):
            quadrature._measure_against_gauss_hermite()
    finally:
        mpmath.mp.dps = saved
    printed = out.getvalue().splitlines()
    errors = [float(line.rsplit(" ", 1)[1]) for line in printed if "rel. error" in line]
    documented = [float(x) for x in re.findall(r"\s([0-9.]+e-[0-9]+)\n", quadrature.__doc__)]
    assert len(errors) == 6 and len(documented) == 6
    for got, quoted in zip(errors, documented):
        assert float(f"{got:.2g}") == quoted
    references = [line for line in printed if "reference" in line]
    assert [r.split(" reference ")[0] for r in references] == ["tau-logistic(tau=0.33)", "hinge"]
    with mpmath.workdps(40):  # E[max(0, 1 - xi)], xi ~ N(0.3, 1.5^2), in closed form
        c = (1 - mpmath.mpf(0.3)) / mpmath.mpf(1.5)  # the float 0.3, as the helper uses
        hinge = (1 - mpmath.mpf(0.3)) * mpmath.ncdf(c) + mpmath.mpf(1.5) * mpmath.npdf(c)
        assert references[1].split()[-1] == mpmath.nstr(hinge, 25)  # printed to 25 significant digits


# ------------------------------------------------------------------ issue 45: order of the breakpoints (item 2)
def _hinge_like(xi):
    return np.maximum(0.0, 1.0 - xi) + np.maximum(0.0, -0.5 - xi) * 3.0 + np.abs(xi - 0.2)


def check_breakpoint_order_is_free(gaussian=gaussian_expectation, interval=interval_expectation):
    """Breakpoints (1, -0.5, 0.2) and their orders give the result of the sorted ones bit for bit; per-row breakpoints
    of both signs, each row in its own order, too; a ValueError on these valid inputs counts as a failure."""
    sorted_bp = np.array([-0.5, 0.2, 1.0])
    mean, std = np.array([0.3, -0.4]), np.array([1.5, 0.7])
    try:
        expected = gaussian(_hinge_like, mean, std, breakpoints=sorted_bp)
        for order in ([2, 1, 0], [1, 2, 0], [0, 2, 1]):
            assert np.array_equal(gaussian(_hinge_like, mean, std, breakpoints=sorted_bp[order]), expected), order
        rows = np.array([[1.0, 0.2, -0.5], [-0.5, 1.0, 0.2]])
        assert np.array_equal(gaussian(_hinge_like, mean, std, breakpoints=rows), expected)
        assert np.array_equal(gaussian(_hinge_like, -mean, std, breakpoints=-rows),
                              gaussian(_hinge_like, -mean, std, breakpoints=-np.sort(rows, axis=1)))
        expected = interval(_hinge_like, -1.0, 2.0, breakpoints=np.tile(sorted_bp, (2, 1)))
        assert np.array_equal(interval(_hinge_like, -1.0, 2.0, breakpoints=rows), expected)
        assert np.array_equal(interval(_hinge_like, -1.0, 2.0, breakpoints=rows[:, ::-1]), expected)
    except ValueError as exc:
        raise AssertionError(f"a valid order refused: {exc}") from exc


def test_breakpoints_in_any_order_give_the_sorted_result_exactly():
    """Oracle: the same call with the breakpoints sorted (the rule cuts the window at the sorted breakpoints)."""
    check_breakpoint_order_is_free()


@pytest.mark.parametrize("name, old, new", [
    ("gaussian_expectation", "z_bp = np.sort(np.clip(z_bp, low[:, None], high), axis=1)",
     "z_bp = np.clip(z_bp, low[:, None], high)"),
    ("interval_expectation", "bp = np.sort(np.clip(_breakpoint_matrix(bp, K), low, high), axis=1)",
     "bp = np.clip(_breakpoint_matrix(bp, K), low, high)"),
])
def test_companion_a_rule_without_its_sort_fails_the_order_check(monkeypatch, name, old, new):
    """Companions: the breakpoints used in the order given (the edge guard then refuses them, or the segments
    overlap)."""
    variant = planting(monkeypatch, quadrature, name, old, new)
    kwargs = {"gaussian": variant} if name == "gaussian_expectation" else {"interval": variant}
    with pytest.raises(AssertionError):
        check_breakpoint_order_is_free(**kwargs)


def test_decreasing_edges_are_refused_by_the_composite_rule():
    """Oracle: the precondition (edges non-decreasing), named with the first decreasing pair; equal edges (an empty
    segment) and edges one double apart are accepted."""
    message = "edges must be non-decreasing in each row (the breakpoints sorted); row 1 goes from 0.5 down to 0.25"
    with pytest.raises(ValueError, match=exactly(message)):
        quadrature._composite_gauss_legendre(np.array([[0.0, 0.5, 1.0], [0.0, 0.5, 0.25]]), np.ones(2), 4)
    tight = np.array([[0.0, 0.5, 0.5, np.nextafter(0.5, 1.0), 1.0]])
    nodes, weights = quadrature._composite_gauss_legendre(tight, np.ones(1), 4)
    assert weights.sum() == pytest.approx(1.0, rel=1e-15, abs=0) and 0.0 <= nodes.min() <= nodes.max() <= 1.0
