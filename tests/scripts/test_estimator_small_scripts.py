"""Smoke tests of the two small benchmark scripts of issue 29: benchmarks/threshold_fold_rules.py and
benchmarks/estimator_tiny_separable.py, each on one reduced problem (their outcomes are reported by the scripts,
never asserted here).

Oracles: scikit-learn's f1_score on predictions rebuilt from the public threshold functions (the fold-rule script
must score exactly the pooled rule's predictions); on separable classes the default must beat the all-negative
classifier's F_1 of 0 by far."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold

from benchmark_scripts import load_benchmark_script
from lfverify.core import as_seed_sequence, f1
from lfverify.learn import LinearFractionalClassifier, best_threshold

pytestmark = pytest.mark.claims("package:benchmark-machinery", "package:estimator")


def test_fold_rules_score_the_pooled_rule_as_best_threshold_on_the_held_out_scores():
    script = load_benchmark_script("threshold_fold_rules")
    X, y, X_test, y_test = script.synthetic(120, 40, 0.3, as_seed_sequence(5))
    rate_f1, pooled_f1 = script.both_rules(X, y, X_test, y_test, 3)
    # the pooled rule rebuilt by hand: the same folds and models, best_threshold on the pooled held-out scores
    model = LinearFractionalClassifier(threshold_cv=None, random_state=3)
    final = clone(model).fit(X, y)
    scores, labels = [], []
    for rows, held in StratifiedKFold(script.FOLDS, shuffle=True, random_state=3).split(X, y):
        fold = clone(model).fit(X[rows], y[rows])
        scores.append(X[held] @ fold.coef_[0] + fold.intercept_[0] + fold.threshold_)
        labels.append(y[held])
    t = best_threshold(np.concatenate(scores), np.concatenate(labels), f1()).threshold
    test = X_test @ final.coef_[0] + final.intercept_[0] + final.threshold_
    assert pooled_f1 == f1_score(y_test, (test > t).astype(int))
    assert 0.0 <= rate_f1 <= 1.0


def test_tiny_separable_runs_every_method_on_every_split(monkeypatch):
    script = load_benchmark_script("estimator_tiny_separable")
    monkeypatch.setattr(script, "SPLITS", 2)
    monkeypatch.setattr(script, "TEST_ROWS", 500)
    cell, scores = script.run_cell(40, 3, 0.3)
    assert cell["flip"] == 0.0 and set(scores) == set(script.METHODS)
    assert all(v.shape == (2,) and ((v >= 0) & (v <= 1)).all() for v in scores.values())
    assert scores["default"].min() > 0.5  # separable classes: far above the all-negative classifier's F_1 of 0
