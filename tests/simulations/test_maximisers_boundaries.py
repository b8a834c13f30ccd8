"""population_maximiser's Newton acceptance at floating-point resolution (issue 45, items 3 and 5).

Oracle: the documented rule of lfverify/simulations/_maximisers.py - a Newton step on grad U_phi is kept when
U_phi(trial) >= U_phi(theta) - 1e-15 - on a scripted one-parameter population whose values the test places on
that bound bit for bit: U_phi = 0.5 at theta = 0 and a chosen value everywhere else, gradient 1e-12 - theta (below
BFGS's gtol at the start, so BFGS stays at 0; the Newton step is then about 1e-12).  A trial value equal to the
bound or one double above moves theta; one double below keeps theta = 0.  The companion plants ``>`` for ``>=``.

Private: lfverify.simulations._maximisers.population_maximiser (the studies' population maximiser, not exported)
is run on the scripted population and replaced by a planted variant in the companion.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import lfverify.simulations._maximisers as maximisers
from planted import planting

pytestmark = pytest.mark.claims("package:simulation-engine")

START_VALUE = 0.5


class ScriptedPopulation:
    def __init__(self, elsewhere):
        self.elsewhere = elsewhere

    def surrogate_utility(self, metric, loss, theta):
        theta = np.atleast_2d(theta)
        return np.where(theta[:, 0] == 0.0, START_VALUE, self.elsewhere)

    def evaluate(self, metric, loss, theta):
        theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
        gradient = 1e-12 - theta
        return SimpleNamespace(value=self.surrogate_utility(metric, loss, theta), gradient=gradient,
                               gradient_direction=gradient)

    def utility(self, metric, theta):
        return 0.0


def check_newton_acceptance(maximiser=None) -> None:
    maximiser = maximiser or maximisers.population_maximiser
    bound = START_VALUE - 1e-15
    for value, moves in ((bound, True), (np.nextafter(bound, 1.0), True), (np.nextafter(bound, 0.0), False)):
        result = maximiser(ScriptedPopulation(value), None, None, starts=np.zeros((1, 1)), newton_steps=1)
        assert (result.theta[0] != 0.0) == moves, value
        assert result.surrogate_utility == (value if moves else START_VALUE)


def test_a_newton_step_is_kept_at_the_bound_and_above_only():
    check_newton_acceptance()


def test_companion_a_strict_newton_test_fails(monkeypatch):
    planting(monkeypatch, maximisers, "population_maximiser", ">= float(ev.value[0]) - 1e-15",
             "> float(ev.value[0]) - 1e-15")
    with pytest.raises(AssertionError):
        check_newton_acceptance()


class FlatPopulation:
    """U_phi with gradient 0 everywhere (BFGS stays at each start) and the largest value at the origin."""

    def surrogate_utility(self, metric, loss, theta):
        return -np.sum(np.atleast_2d(theta) ** 2, axis=1)

    def evaluate(self, metric, loss, theta):
        theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
        return SimpleNamespace(value=self.surrogate_utility(metric, loss, theta), gradient=np.zeros_like(theta),
                               gradient_direction=np.zeros_like(theta))

    def utility(self, metric, theta):
        return 0.0


def test_start_spread_is_the_largest_distance_from_theta_star_to_a_start_maximiser():
    """start_spread is max_s ||theta_s - theta*|| over the maximisers theta_s reached from the starts (oracle:
    math.dist over the starts, which BFGS leaves unchanged on a flat population; theta* is the origin, the start
    of the largest U_phi).  The starts are at distances 5 and 1, so a norm over all of them at once (sqrt(26))
    or the smallest distance (0) fails."""
    starts = np.array([[3.0, 4.0], [0.0, 0.0], [-1.0, 0.0]])
    result = maximisers.population_maximiser(FlatPopulation(), None, None, starts=starts, newton_steps=0)
    assert np.array_equal(result.theta, [0.0, 0.0])
    assert result.start_spread == max(math.dist(s, (0.0, 0.0)) for s in starts) == 5.0
