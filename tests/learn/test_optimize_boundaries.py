"""Alg. 1's acceptance rules at floating-point resolution (issue 45, items 3 and 5): U-BFGS's Armijo line search
(``>=``, at the full step and after halvings), phase 1's "N_hat > 0" test (at the start and after a step) and its
step acceptance (a step that *increases* N_hat), each at exact equality and one double either side.

Oracle: the rules as the module docstring of lfverify/learn/_optimize.py states them, on a scripted objective whose
values the test chooses exactly (a one-feature stand-in exposing the methods the loops call: ``numerator``,
``denominator``, ``numerator_gradient``, ``evaluate``), so that the boundary is hit bit for bit:

* the line search accepts alpha when U(theta + alpha p) >= U(theta) + 1e-4 alpha grad.p - equality accepts, one
  double below rejects, one double above accepts;
* phase 1 stops when N_hat > 0 - N_hat = 0 does not stop it, the smallest positive subnormal does, the largest
  negative subnormal does not; it accepts a step that increases N_hat - an equal N_hat is rejected, one double
  higher accepted, one double lower rejected.

Companions plant the swapped comparison (tests/planted.py) and see each check fail.

Private: lfverify.learn._optimize's _bfgs_line_search and _phase1 are called directly with the scripted objective
(the public maximize_surrogate_utility takes an EmpiricalSurrogateUtility only, whose values cannot be placed on a
given double) and replaced by planted variants in the companions.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import lfverify.learn._optimize as optimize_module
from planted import planting

pytestmark = pytest.mark.claims("Algorithm 1")


class Scripted:
    """A one-feature objective: U_hat and N_hat are looked up by theta (``table``), ``other`` elsewhere; D_hat = 1
    and both gradients are 1, so every direction is +1 and every slope grad.p is 1."""

    def __init__(self, table, other):
        self.table, self.other = dict(table), other

    def _lookup(self, theta):
        return np.array([self.table.get(float(t[0]), self.other) for t in np.atleast_2d(theta)])

    def numerator(self, theta):
        return self._lookup(theta)

    def denominator(self, theta):
        return np.ones(np.atleast_2d(theta).shape[0])

    def numerator_gradient(self, theta):
        return np.ones_like(np.atleast_2d(theta))

    def evaluate(self, theta, *, true_utility=False, direction=True):
        value = self._lookup(theta)
        return SimpleNamespace(value=value, gradient=np.ones_like(np.atleast_2d(theta)),
                               true_utility=np.zeros_like(value))


def _line_search(values_at, *, value=0.0):
    """Run the line search from theta = 0 with U(0) = ``value``, grad = 1, H = 1 (so p = 1, slope 1); ``values_at``
    maps a trial theta (alpha) to U.  Returns (accepted, new theta)."""
    objective = Scripted(values_at, other=-np.inf)
    new_theta, accepted, _, _ = optimize_module._bfgs_line_search(
        objective, np.zeros((1, 1)), grad=np.ones((1, 1)), value=np.array([value]), inverse_hessian=np.ones((1, 1, 1)),
        rows=np.array([0]), learning_rate=1.0, fresh=np.zeros(1, dtype=bool), history=True)
    return bool(accepted[0]), float(new_theta[0, 0])


def check_armijo_at_equality() -> None:
    """At the full step (alpha = 1) and at the first halving (alpha = 1/2), from U(theta) = 0 and = 0.3."""
    for value in (0.0, 0.3):
        for alpha in (1.0, 0.5):
            bound = value + 1e-4 * alpha * 1.0  # the documented right-hand side, with the routine's association
            for trial, expected in ((bound, True), (np.nextafter(bound, np.inf), True),
                                    (np.nextafter(bound, -np.inf), False)):
                accepted, theta = _line_search({alpha: trial}, value=value)
                assert accepted == expected, (value, alpha, trial)
                assert theta == (alpha if expected else 0.0)


def test_the_line_search_accepts_the_armijo_bound_with_equality():
    check_armijo_at_equality()


@pytest.mark.parametrize("old, new", [
    ("accepted = trial_value >= value[rows]", "accepted = trial_value > value[rows]"),
    ("ok = _values(objective, trial) >= value", "ok = _values(objective, trial) > value"),
])
def test_companion_a_strict_armijo_test_fails(monkeypatch, old, new):
    planting(monkeypatch, optimize_module, "_bfgs_line_search", old, new)
    with pytest.raises(AssertionError):
        check_armijo_at_equality()


def _phase1(table, *, max_steps=1):
    """Phase 1 from theta = 0 with learning rate 1 (the first trial is theta = 1, then 2 ** -k after rejections)."""
    objective = Scripted(table, other=-2.0)
    messages = [""]
    theta, steps, ok = optimize_module._phase1(objective, np.zeros((1, 1)), learning_rate=1.0, max_steps=max_steps,
                                               messages=messages)
    return float(theta[0, 0]), int(steps[0]), bool(ok[0]), messages[0]


TINY = float(np.nextafter(0.0, 1.0))  # the smallest positive subnormal


def check_positive_numerator_at_start() -> None:
    """N_hat(theta0) = 0 or -TINY: phase 1 runs (a step to theta = 1 with N_hat = 1 ends it); +TINY: 0 steps."""
    for start, runs in ((0.0, True), (-TINY, True), (TINY, False)):
        theta, steps, ok, _ = _phase1({0.0: start, 1.0: 1.0})
        assert (theta, steps, ok) == ((1.0, 1, True) if runs else (0.0, 0, True)), start


def check_positive_numerator_after_a_step() -> None:
    """A step from N_hat = -1 to N_hat = +TINY ends phase 1 (ok); to 0 or -TINY it is accepted but not enough
    within max_phase1_iter = 1 (the documented message)."""
    for reached, done in ((TINY, True), (0.0, False), (-TINY, False)):
        theta, steps, ok, message = _phase1({0.0: -1.0, 1.0: reached})
        assert (theta, steps, ok) == (1.0, 1, done), reached
        assert message == ("" if done else "phase 1 did not reach N_hat > 0 within max_phase1_iter = 1 steps")


def check_step_acceptance_at_equality() -> None:
    """From N_hat = -1: a trial with N_hat one double higher is accepted; equal or one double lower is rejected
    (and so is every shorter trial, N_hat = -2 there: phase 1 fails with theta unchanged)."""
    for reached, accepted in ((np.nextafter(-1.0, 0.0), True), (-1.0, False), (np.nextafter(-1.0, -2.0), False)):
        theta, steps, ok, message = _phase1({0.0: -1.0, 1.0: reached})
        assert (theta, steps, ok) == ((1.0, 1, False) if accepted else (0.0, 0, False)), reached
        assert message.startswith("phase 1 did not reach" if accepted else "phase 1 failed: no increase"), message


def test_phase_one_stops_at_a_positive_numerator_only():
    check_positive_numerator_at_start()
    check_positive_numerator_after_a_step()


def test_phase_one_accepts_a_step_that_increases_the_numerator_only():
    check_step_acceptance_at_equality()


@pytest.mark.parametrize("old, new, check", [
    ("ok = numerator > 0\n    failed", "ok = numerator >= 0\n    failed", check_positive_numerator_at_start),
    ("        ok = numerator > 0\n", "        ok = numerator >= 0\n", check_positive_numerator_after_a_step),
    ("better = trial_numerator > numerator[rows]", "better = trial_numerator >= numerator[rows]",
     check_step_acceptance_at_equality),
])
def test_companion_phase_one_with_a_swapped_comparison_fails(monkeypatch, old, new, check):
    planting(monkeypatch, optimize_module, "_phase1", old, new)
    with pytest.raises(AssertionError):
        check()
