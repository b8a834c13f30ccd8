"""Tiny separable problems: does the re-chosen threshold generalise worse than the base fit's? (issue 29)

Issue 29 reported that on tiny, separable data sets (under 200 rows) the default's re-chosen threshold generalised
worse than the base fit's threshold 0.  Here: four tiny cells of the regimes benchmark's generator
(``benchmarks/estimator_regimes.py``: Gaussian features, labels from a linear rule, flip 0, so the classes are
separable), n = 60-150 and d = 3-8 (n >= 10 d, so the default chooses the threshold on the training sample), 20
splits each, test F_1 on 20,000 fresh rows; the default ``LinearFractionalClassifier()`` against the same
classifier with ``threshold="zero"`` (the base fit's threshold), ``LogisticRegression()`` and
``TunedThresholdClassifierCV(LogisticRegression())``.  Seeds: the regimes benchmark's rule with the root
``SEED + 1`` (a population of its own).  One-sided Welch p of "zero above default".

Usage::

    python benchmarks/estimator_tiny_separable.py [--out PATH]   # 1-4 minutes on 2 cores (4 when busy)

Writes ``benchmarks/results/estimator_tiny_separable.md`` (atomically).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import estimator_regimes as regimes  # benchmarks/estimator_regimes.py: the generator, the scaling, the scores
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import TunedThresholdClassifierCV

from lfverify.core._seeding import as_seed_sequence, child, int_seed, text_key
from lfverify.experiments._statistics import one_sided_p_value
from lfverify.io._atomic import write_text_atomically
from lfverify.learn import LinearFractionalClassifier

CELLS = [(60, 3, 0.3), (100, 5, 0.2), (150, 4, 0.33), (120, 8, 0.1)]  # (n, d, prior), flip 0: separable
SPLITS, TEST_ROWS = 20, 20_000
OUT = Path(__file__).resolve().parent / "results" / "estimator_tiny_separable.md"
METHODS = {"default": lambda seed: LinearFractionalClassifier(random_state=seed),
           "threshold zero": lambda seed: LinearFractionalClassifier(threshold="zero", random_state=seed),
           "LogisticRegression": lambda seed: LogisticRegression(),
           "TunedThresholdCV(LR)": lambda seed: TunedThresholdClassifierCV(LogisticRegression(), scoring="f1")}


def run_cell(n, d, prior):
    cell = {"features": "gaussian", "n": n, "d": d, "prior": prior, "flip": 0.0}
    cell_seq = child(as_seed_sequence(regimes.SEED + 1), *text_key(regimes.cell_key(cell)))
    problem = regimes.Problem(cell, regimes.FULL, child(cell_seq, 0))
    scores = {name: [] for name in METHODS}
    for k in range(SPLITS):
        split_seq = child(cell_seq, 1, k)
        seed = int_seed(child(split_seq, 2))
        X, y = problem.sample(child(split_seq, 0), n, training=True)
        X_test, y_test = problem.sample(child(split_seq, 1), TEST_ROWS, training=False)
        X, X_test = regimes.scale(X, X_test)
        for name, make in METHODS.items():
            scores[name].append(regimes.metric_score("f1", y_test, make(seed).fit(X, y).predict(X_test)))
    return cell, {name: np.array(values) for name, values in scores.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Tiny separable problems: the default's threshold against the "
                                                 "base fit's.")
    parser.add_argument("--out", type=Path, default=OUT, help=f"Markdown output (default {OUT})")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    lines = ["# Tiny separable problems: the default's threshold against the base fit's", ""]
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n, d, prior in CELLS:
            cell, scores = run_cell(n, d, prior)
            cells = " | ".join(f"{v.mean():.4f} ({v.std(ddof=1) / np.sqrt(v.size):.4f})" for v in scores.values())
            p = one_sided_p_value(scores["threshold zero"], scores["default"])
            rows.append(f"| n = {n}, d = {d}, prior {prior:g} | {cells} | {p:.3g} |")
    lines += [f"`python benchmarks/estimator_tiny_separable.py` ({time.perf_counter() - start:.0f} s); test F_1, mean "
              f"(standard error) over {SPLITS} splits; p: one-sided Welch test of threshold zero above the default.",
              "", "| cell | " + " | ".join(METHODS) + " | p |", "|---|" + "---:|" * (len(METHODS) + 1), *rows]
    write_text_atomically(args.out, "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
