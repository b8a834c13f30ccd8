"""Two of the estimators' rules at floating-point resolution (issue 45, item 3): the fit-quality warning's "at most
1.05 x the all-positive classifier" and bayes_level_weights' "0 < delta < 1".

Oracles:

* LinearFractionalClassifier's Notes and FitQualityWarning's docstring: a fit whose training metric is at most
  1.05 times the all-positive classifier's warns.  The check runs the classifier's own warning step on a scripted
  metric (the fit's value and the trivial value chosen by the test), so the value sits exactly on 1.05 x trivial
  (the product as the rule computes it), one double above (no warning) and one below (a warning).
* bayes_level_weights' docstring: ValueError unless delta is inside (0, 1); F_1's threshold is delta = U / 2
  (Prop. 5), exact in binary for the U used here, so delta = 0, the smallest subnormal and -subnormal, and delta =
  1 and one double either side of it are reached exactly.  The weights returned are (1 - delta, delta).

Companions plant ``<`` for ``<=`` in the warning rule and ``<=`` for each ``<`` of the delta rule
(tests/planted.py) and see each check fail.  The warning step is LinearFractionalClassifier's private method
_warn_if_degenerate, called on an unfitted instance.

Private: lfverify.learn._cost_sensitive, the module of bayes_level_weights, replaced there by planted variants in
the companions.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import lfverify.learn._cost_sensitive as cost_sensitive_module
from lfverify.core import f1
from lfverify.learn import FitQualityWarning, LinearFractionalClassifier
from planted import planting

pytestmark = pytest.mark.claims("package:estimator")

TINY = float(np.nextafter(0.0, 1.0))


class ScriptedMetric:
    """value(tp, fp, prior) is ``trivial`` for the all-positive classifier (tp, fp) = (prior, 1 - prior), else
    ``fitted``."""

    name = "scripted"

    def __init__(self, fitted, trivial):
        self.fitted, self.trivial = fitted, trivial

    def value(self, tp, fp, prior, zero_division=0.0):
        return self.trivial if (tp, fp) == (prior, 1.0 - prior) else self.fitted


def _warns(fitted, trivial) -> bool:
    y = np.array([1, 1, -1, -1, -1])
    predicted = np.array([True, False, True, False, False])  # both classes predicted: the margin rule decides
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        LinearFractionalClassifier()._warn_if_degenerate(predicted, y, None, ScriptedMetric(fitted, trivial))
    return any(issubclass(w.category, FitQualityWarning) for w in caught)


def check_margin_rule() -> None:
    for trivial in (0.4, 1e-300, 0.0):
        bound = 1.05 * trivial
        for value, warns in ((bound, True), (np.nextafter(bound, np.inf), False), (np.nextafter(bound, -np.inf), True)):
            assert _warns(value, trivial) == warns, (trivial, value)


def test_the_fit_quality_warning_covers_exactly_1_05_times_trivial():
    check_margin_rule()


def test_companion_a_strict_margin_rule_fails(monkeypatch):
    planting(monkeypatch, LinearFractionalClassifier, "_warn_if_degenerate", "value <= _TRIVIAL_MARGIN * trivial",
             "value < _TRIVIAL_MARGIN * trivial")
    with pytest.raises(AssertionError):
        check_margin_rule()


def check_delta_inside_the_unit_interval() -> None:
    weights = cost_sensitive_module.bayes_level_weights
    for utility, delta, inside in ((2 * TINY, TINY, True), (0.0, 0.0, False), (-2 * TINY, -TINY, False),
                                   (np.nextafter(2.0, 0.0), np.nextafter(1.0, 0.0), True), (2.0, 1.0, False),
                                   (np.nextafter(2.0, 3.0), np.nextafter(1.0, 2.0), False)):
        assert f1().bayes_optimal_threshold(utility) == delta  # the oracle's delta, exact
        try:
            got = weights(f1(), utility)
        except ValueError as exc:
            assert not inside, (utility, exc)
            assert str(exc).startswith("utility: the Bayes threshold of F_1 at U = ") and "outside (0, 1)" in str(exc)
        else:
            assert inside, utility
            assert got == (1.0 - delta, delta)


def test_the_level_weights_need_delta_strictly_inside_zero_one():
    check_delta_inside_the_unit_interval()


@pytest.mark.parametrize("new", ["if not 0.0 <= delta < 1.0:", "if not 0.0 < delta <= 1.0:"])
def test_companion_a_closed_delta_rule_fails(monkeypatch, new):
    planting(monkeypatch, cost_sensitive_module, "bayes_level_weights", "if not 0.0 < delta < 1.0:", new)
    with pytest.raises(AssertionError):
        check_delta_inside_the_unit_interval()
