"""Two rules for the cross-fitted threshold, compared on the same fold models (issue 29's p > n failure).

``threshold_cv=K`` fits K fold models; their held-out scores choose the threshold of the model fitted on the
whole sample.  Two ways to carry the choice over:

* **rate** (lfverify 0.2): the fraction of positives that maximises the metric of the pooled held-out
  predictions (:func:`lfverify.learn.positive_rate_from_folds`), applied to the *training* scores of the final
  model (:func:`lfverify.learn.threshold_for_positive_rate`);
* **pooled** (now): the threshold that maximises the metric of the pooled held-out *scores*, on their own scale
  (:func:`lfverify.learn.best_threshold`), applied to the final model as it is (``TunedThresholdClassifierCV``'s
  rule).

Both rules here use the same fold models and the same final model (``LinearFractionalClassifier(threshold_cv=
None)`` fitted on each fold's training rows and on the whole sample; the estimator's own fold fits are one fit at
the final weights, so its numbers differ slightly).  Cells: Gaussian features with 10 informative columns, labels
from a logistic model (prior 0.3 at p > n, 0.2 and 0.1 below), d = 500 at n = 100 and d = 200 at n = 200, 400,
2,000; 10 seeds each, test F_1 on 20,000 fresh rows; and madelon (d = 500, n = 2,080), 5 stratified 70/30 splits
(``LFVERIFY_DATASETS`` must point at the data).  The one-sided Welch test of "pooled below rate" and of "rate below
pooled" at 5 % (``lfverify.experiments._statistics.one_sided_p_value``).

Usage::

    python benchmarks/threshold_fold_rules.py [--out PATH]   # about 3 minutes on 2 cores

Writes ``benchmarks/results/threshold_fold_rules.md`` (atomically).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.base import clone
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, StratifiedShuffleSplit
from sklearn.preprocessing import StandardScaler

from lfverify.core._metrics import f1
from lfverify.core._seeding import as_seed_sequence, child, int_seed
from lfverify.experiments._statistics import one_sided_p_value
from lfverify.io._atomic import write_text_atomically
from lfverify.learn import (
    LinearFractionalClassifier,
    best_threshold,
    load_dataset,
    positive_rate_from_folds,
    threshold_for_positive_rate,
)

SEED = 20200826_0292
CELLS = [("p > n", 100, 500, 0.3), ("n = d", 200, 200, 0.2), ("n = 2 d", 400, 200, 0.1), ("n = 10 d", 2000, 200, 0.1)]
SEEDS, FOLDS, TEST_ROWS = 10, 5, 20_000
OUT = Path(__file__).resolve().parent / "results" / "threshold_fold_rules.md"


def synthetic(n, d, prior, seq):
    """(X_train, y_train, X_test, y_test): Gaussian features, 10 informative, labels 1[s - b + 0.3 e > 0]."""
    rng = np.random.default_rng(seq)
    beta = np.zeros(d)
    beta[:10] = rng.standard_normal(10)
    X = rng.standard_normal((n + TEST_ROWS, d))
    z = X @ beta
    y = (z - np.quantile(z, 1 - prior) + 0.3 * rng.logistic(size=z.size) > 0).astype(int)
    return X[:n], y[:n], X[n:], y[n:]


def both_rules(X, y, X_test, y_test, seed):
    """Test F_1 of the rate rule and of the pooled rule, from the same fold models and final model."""
    model = LinearFractionalClassifier(threshold_cv=None, random_state=seed)
    final = clone(model).fit(X, y)
    base = X @ final.coef_[0] + final.intercept_[0] + final.threshold_  # the final model's scores, unshifted
    scores, labels = [], []
    for rows, held in StratifiedKFold(FOLDS, shuffle=True, random_state=seed).split(X, y):
        fold = clone(model).fit(X[rows], y[rows])
        scores.append(X[held] @ fold.coef_[0] + fold.intercept_[0] + fold.threshold_)
        labels.append(y[held])
    rate = positive_rate_from_folds(scores, labels, f1())
    rate_threshold = threshold_for_positive_rate(base, rate)
    pooled_threshold = best_threshold(np.concatenate(scores), np.concatenate(labels), f1()).threshold
    test = X_test @ final.coef_[0] + final.intercept_[0] + final.threshold_
    negative, positive = final.classes_  # the larger label is the positive class
    return tuple(f1_score(y_test, np.where(test > t, positive, negative), pos_label=positive, zero_division=0)
                 for t in (rate_threshold, pooled_threshold))


def problems():
    root = as_seed_sequence(SEED, "seed")
    for c, (name, n, d, prior) in enumerate(CELLS):
        for k in range(SEEDS):
            yield name, (n, d, prior), synthetic(n, d, prior, child(root, c, k)), int_seed(child(root, c, k, 1))
    data = load_dataset("madelon")
    splits = StratifiedShuffleSplit(n_splits=5, test_size=0.3, random_state=int_seed(child(root, 99)))
    for k, (train, test) in enumerate(splits.split(data.X, data.y)):
        yield "madelon", (train.size, data.X.shape[1], None), (data.X[train], data.y[train], data.X[test],
                                                                data.y[test]), int_seed(child(root, 99, k))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Compare the two cross-fitted threshold rules on the same fold "
                                                 "models.")
    parser.add_argument("--out", type=Path, default=OUT, help=f"Markdown output (default {OUT})")
    args = parser.parse_args(argv)
    results: dict[str, list] = {}
    shape = {}
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, cell, (X, y, X_test, y_test), seed in problems():
            scaler = StandardScaler().fit(X)
            results.setdefault(name, []).append(both_rules(scaler.transform(X), y, scaler.transform(X_test),
                                                           y_test, seed))
            shape[name] = cell
    lines = ["# The cross-fitted threshold: rate rule (lfverify 0.2) against the pooled rule (now)", "",
             f"`python benchmarks/threshold_fold_rules.py` ({time.perf_counter() - start:.0f} s); test F_1, mean "
             "[min] over the splits; p: one-sided Welch test that the row's other rule is above.", "",
             "| cell | n | d | splits | rate | pooled | pooled - rate | p (pooled below) | p (rate below) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, rows in results.items():
        rate, pooled = np.array(rows).T
        n, d, _ = shape[name]
        lines.append(f"| {name} | {n} | {d} | {len(rows)} | {rate.mean():.3f} [{rate.min():.3f}] | "
                     f"{pooled.mean():.3f} [{pooled.min():.3f}] | {pooled.mean() - rate.mean():+.3f} | "
                     f"{one_sided_p_value(rate, pooled):.3g} | {one_sided_p_value(pooled, rate):.3g} |")
    write_text_atomically(args.out, "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
