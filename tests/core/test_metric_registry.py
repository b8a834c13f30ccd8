"""The metric registry (lfverify.core._metric_registry): one home for what the package knows about a metric by name.

Oracles: the names and taus the paper prints (Sec. 6: "tau was set to 0.33 in the F1-measure case and 0.75 in the
Jaccard index case"), Table 1's factories in lfverify.core, and - for "adding a metric touches only the registry" -
a weighted accuracy added to the registry alone (monkeypatched), then read by every consumer: the estimator, the
testing kit, ``lfverify metrics``, the reports' titles.

Private: lfverify.core._metric_registry, the registry itself, imported to add a metric to its METRIC_REGISTRY
(monkeypatched) and read it back through every consumer.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import lfverify
from lfverify.core import (
    METRIC_REGISTRY,
    LinearFractionalMetric,
    MetricEntry,
    accuracy,
    default_tau,
    f_beta,
    gower_legendre,
    jaccard,
    metric_title,
    metrics_table_rows,
    paper_tau,
    resolve_metric,
)
from lfverify.core import _metric_registry as registry

pytestmark = pytest.mark.claims("package:registry")

PACKAGE = Path(lfverify.__file__).parent


@pytest.mark.parametrize(("name", "expected"), [
    ("f1", f_beta(1.0)), (" F1 ", f_beta(1.0)), ("f2", f_beta(2.0)), ("f_0.5", f_beta(0.5)), ("f.5", f_beta(0.5)),
    ("jaccard", jaccard()), ("Accuracy", accuracy()),
])
def test_names_resolve_to_table_1s_metrics(name, expected):
    assert resolve_metric(name) == expected


@pytest.mark.parametrize("bad", ["f0", "f-1", "gower", "foo", ""])
def test_an_unknown_name_is_refused_with_the_known_ones(bad):
    with pytest.raises(ValueError, match=re.escape("metric must be 'f1', 'f<beta>' (e.g. 'f2', 'f0.5'), 'jaccard', "
                                                   "'accuracy' or a LinearFractionalMetric")):
        resolve_metric(bad)
    with pytest.raises(TypeError, match="metric must be a metric name"):
        resolve_metric(1.0)


def test_the_papers_taus_and_the_defaults():
    assert (paper_tau("f1"), paper_tau("jaccard")) == (0.33, 0.75)  # Sec. 6, quoted above
    assert (default_tau("f1"), default_tau("jaccard"), default_tau("accuracy")) == (0.33, 0.75, 1.0)
    assert default_tau("f2") == round(0.99 * 4 / 6, 6)  # inside Thm. 1's (0, beta^2 / (2 + beta^2)]
    with pytest.raises(ValueError, match="the paper sets no tau"):
        paper_tau("accuracy")
    assert (metric_title("f1"), metric_title("jaccard"), metric_title("unknown")) == (
        "F1-measure", "Jaccard index", "unknown")


def test_the_default_tau_of_f_beta_is_rounded_to_six_decimals_and_other_families_have_none():
    """Oracle: the docstring's 0.99 beta^2 / (2 + beta^2) rounded to 6 decimals (beta = 1.5: 0.99 * 2.25 / 4.25 =
    0.52411764..., so 0.524118, where 7 decimals would give 0.5241176), and its Raises section's message, typed out
    (a metric outside the F_beta, Jaccard and accuracy families, registered or not)."""
    assert default_tau(f_beta(1.5)) == 0.524118
    with pytest.raises(ValueError) as refused:
        default_tau(gower_legendre(0.5))
    assert str(refused.value) == ("tau: no default for the metric 'Gower-Legendre_0.5' (family 'gower_legendre'); "
                                  "pass tau explicitly (Thm. 7 gives the admissible range)")
    # ... and a metric of the user's own, which the registry does not hold: the same message, naming it
    with pytest.raises(ValueError) as refused:
        default_tau(replace(f_beta(1.0), name="mine", family="custom"))
    assert str(refused.value) == ("tau: no default for the metric 'mine' (family 'custom'); pass tau explicitly "
                                  "(Thm. 7 gives the admissible range)")


def test_sec_6s_tau_is_written_once():
    """The paper's taus are defined in the registry only: no other module of the package assigns 0.33 / 0.75 to a
    metric's name (the protocol, the studies and the estimator read paper_tau / default_tau).  Companion: the old
    protocol line is what the pattern finds."""
    pattern = re.compile(r"""["'](?:f1|F1|jaccard|Jaccard)["']\s*:\s*(?:\(\w+\(\),\s*)?0\.(?:33|75)\b""")
    assert pattern.search('PAPER_TAU = {"f1": 0.33, "jaccard": 0.75}')
    found = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
             if p.name != "_metric_registry.py" and pattern.search(p.read_text(encoding="utf-8"))]
    assert found == []


WEIGHTED = LinearFractionalMetric(a0p=2.0, a0n=-1.0, a1p=0.0, a1n=0.0, b0_const=1.0, b0_prior=-1.0, b1_const=1.0,
                                  b1_prior=1.0, name="weighted accuracy", family="custom")


@pytest.fixture
def with_weighted_accuracy(monkeypatch):
    """A metric added to the registry alone: (2 TP - FP + 1 - pi) / (1 + pi), an accuracy weighting true positives
    twice (in [0, 1]: 1 at TP = pi, FP = 0; 0 at TP = 0, FP = 1 - pi)."""
    entry = MetricEntry("custom", ("weighted-accuracy",), "", lambda _: WEIGHTED,
                        lambda m: "weighted accuracy", lambda m: 1.0, cli=lambda options: WEIGHTED)
    monkeypatch.setattr(registry, "METRIC_REGISTRY", (*METRIC_REGISTRY, entry))
    return entry


def test_a_metric_added_to_the_registry_reaches_every_consumer(with_weighted_accuracy, capsys):
    from lfverify.app import main
    from lfverify.learn import LinearFractionalClassifier
    from lfverify.testing import check_metric

    assert resolve_metric(" Weighted-Accuracy ") is WEIGHTED and WEIGHTED.admissibility().admissible
    assert default_tau("weighted-accuracy") == 1.0 and metric_title("weighted-accuracy") == "weighted accuracy"
    assert metrics_table_rows(SimpleNamespace(beta=1.0, alpha=0.5))[-1] is WEIGHTED
    assert main(["metrics"]) == 0 and "weighted accuracy" in capsys.readouterr().out
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=200) > 0, 1, 0)
    model = LinearFractionalClassifier(metric="weighted-accuracy").fit(X, y)
    assert model.metric_ is WEIGHTED and model.score(X, y) == pytest.approx(WEIGHTED.score(
        np.where(y == 1, 1, -1), np.where(model.predict(X) == 1, 1, -1)))
    check_metric(lambda y_true, y_pred: WEIGHTED.score(y_true, y_pred), metric="weighted-accuracy")


def test_without_the_entry_the_name_is_unknown():
    """Companion: the same name is refused when the registry lacks the entry (the fixture is what made it known)."""
    with pytest.raises(ValueError, match="metric must be"):
        resolve_metric("weighted-accuracy")
    assert replace(METRIC_REGISTRY[0]).family == "f_beta"
