"""The d-dependence of Lemma 4 (corrected): lfverify.simulations.dimension_sweep (issue 30, item 4).

Oracles: the population's definition (atoms, weights, eta written out), the statement's exponent 3/2 from
proofs/lemma-4.md, and synthetic errors with a known exponent for the verdict (its false-alarm rate is stated
where it is used).  The committed run is simulations/results/uniform-convergence-dimension/.

Private: lfverify.simulations._study_uniform_convergence.dimension_verdicts, the dimension sweep's verdict rule, tested
on planted errors.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lfverify.simulations import D_EXPONENT, dimension_population, dimension_sweep
from lfverify.simulations._study_uniform_convergence import dimension_verdicts

ROOT = Path(__file__).resolve().parents[2]
#: The sweep's population, runner, verdicts and arguments are the engine's; the committed run's verdicts are the
#: evidence of Lemma 4 (corrected)'s order in d.
pytestmark = pytest.mark.claims("package:simulation-engine")


def test_the_population_is_the_signed_basis_with_the_stated_posteriors():
    pop = dimension_population(3)
    np.testing.assert_array_equal(pop.atoms, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1]])
    np.testing.assert_array_equal(pop.weights, np.full(6, 1 / 6))
    np.testing.assert_allclose(pop.eta, [0.85, 0.65, 0.85, 0.15, 0.35, 0.15], rtol=0, atol=1e-15)
    assert D_EXPONENT == 1.5  # the exponent of d in O_p(d^{3/2} sqrt(log n / n))


def test_a_small_sweep_is_reproducible_and_reports_every_d():
    kwargs = dict(dimensions=(1, 2, 3), n=100, replications=4, rounds=1)
    first, second = dimension_sweep(**kwargs), dimension_sweep(**kwargs)
    assert [row["d"] for row in first["table"]] == [1, 2, 3]
    assert first["errors"] == second["errors"] and len(first["errors"]) == 12
    assert all(e > 0 for e in first["errors"])
    assert set(first["verdicts"]) == {"d_exponent_within_bound", "bound_holds_every_d"}
    assert all(row["bound"] > row["ci_high"] for row in first["table"])  # B_E is far above the error (x 30+)


def _synthetic(exponent, seed=7):
    rng = np.random.default_rng(seed)
    d = np.repeat([1, 2, 4, 8, 16], 30)
    return d, 0.1 * d**exponent * np.exp(0.3 * rng.standard_normal(d.size))


def test_the_exponent_verdict_accepts_a_slower_growth_and_refuses_a_faster_one():
    """Companion of the sweep's verdict: errors growing like d^{1/2} pass; like d^2 they fail.  With 150 replications
    and log-noise sd 0.3 the slope's s.e. is about 0.02, so either decision errs with probability < 1e-100 (z > 25)."""
    table = [{"exceed": 0, "replications": 30}]
    for exponent, expected in ((0.5, True), (2.0, False)):
        d, errors = _synthetic(exponent)
        fit, verdicts = dimension_verdicts(d, errors, table)
        assert verdicts["d_exponent_within_bound"] is expected
        assert abs(fit.slope - exponent) < 0.1


def test_the_bound_verdict_refuses_an_exceeded_bound():
    d, errors = _synthetic(0.5)
    assert dimension_verdicts(d, errors, [{"exceed": 1, "replications": 30}])[1]["bound_holds_every_d"]  # 1/30 < 5 %
    assert not dimension_verdicts(d, errors, [{"exceed": 2, "replications": 30}])[1]["bound_holds_every_d"]


@pytest.mark.parametrize("kwargs, match", [
    (dict(dimensions=(1, 2, 2)), "at least 3 distinct positive integers"),
    (dict(dimensions=(0, 1, 2)), "at least 3 distinct positive integers"),
    (dict(metric="F2"), "metric must be one of"),
])
def test_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        dimension_sweep(**kwargs)


def test_dimension_population_refuses_a_non_positive_d():
    with pytest.raises(ValueError, match="d must be a positive integer; got 0"):
        dimension_population(0)


@pytest.mark.claims("Lemma 4 (corrected)", "Lemma 4")
def test_the_committed_run_holds_its_verdicts():
    """Oracle: the committed summary (simulations/uniform_convergence_dimension.py); its verdicts recomputed from its
    own table and fit."""
    summary = json.loads((ROOT / "simulations/results/uniform-convergence-dimension/summary.json").read_text())
    assert summary["settings"]["dimensions"] == [1, 2, 4, 8, 16]
    assert summary["verdicts"] == {"d_exponent_within_bound": summary["rate_fit"]["ci_high"] <= 1.5,
                                   "bound_holds_every_d": all(r["exceed"] <= 0.05 * r["replications"]
                                                              for r in summary["table"])}
    assert all(summary["verdicts"].values())
