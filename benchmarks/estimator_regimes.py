"""Regimes benchmark of LinearFractionalClassifier against the linear peers, in the same run (issue 29, item 1).

It sweeps the regimes where a linear classifier for a linear-fractional metric can fail, against the linear
peers a practitioner would use.

Design: a one-axis-at-a-time sweep around one base cell.  The base cell is dense Gaussian features, n = 20,000
training rows, d = 20, a positive prior of 0.1 and a label-flip rate of 0.05; each axis changes one setting of the
base cell and keeps the others (a cell that several axes share, such as the base cell itself, is run once):

* ``n_over_d``: n / d in 0.2, 0.5, 1, 2, 5, 10, 100, 1,000 at d = 100 (n = 20 ... 100,000);
* ``prior``: 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5;
* ``flip``: 0 (separable: labels from a linear rule, no logistic noise), 0.05, 0.1, 0.2, 0.3;
* ``features``: gaussian; student_t2 (i.i.d. Student t with 2 degrees of freedom: infinite variance);
  redundant (the d = 20 informative Gaussian columns and 20 more, each a unit-variance linear combination of
  the informative ones plus N(0, 0.1^2) noise); sparse_csr (``scipy.sparse.csr_matrix``, tf-like counts
  1 + Poisson(0.5), column frequencies ~ 1 / (j + 10), density 1 % over d = 1,000 columns - 1 % of 20 columns
  would leave most rows empty - fed as CSR to every method);
* ``n``: 10^3, 10^4, 10^5, 10^6 at d = 20;
* ``d``: 10, 50, 200, 500 at n = 20,000 (with ``n``, the check that fit time is linear in n and d);
* ``minority``: the smaller class's count m = 20, 30, 50, 100, 200 at d = 10 and prior 0.1 (n = m / prior =
  200 ... 2,000; issue 42 item 5, the few-minority regime: m < 20 d cross-fits the threshold, m = 200 =
  20 d is the regime rule's boundary).

The problem generator: a latent linear score s = x_inf . w (w ~ N(0, I), scaled so that the score's robust
standard deviation, IQR / 1.349, is 2), and the clean label 1[s + b + e > 0] with e standard logistic noise
(at flip 0 without e: a linear rule, so the classes are separable).  The intercept b is chosen on a calibration
draw so that the population's positive rate is about the prior; every sample is then drawn class-conditionally
with exactly round(prior n) positives (at least 5, so that 5-fold cross-validation has a positive in each fold:
only the cell n = 20 has a training prior (0.25) above its population's 0.1), and a fraction ``flip`` of the
positives and as many negatives have their labels swapped (the prior stays exact).  Every split draws a fresh
training sample and a fresh independent test sample of the same population, of max(20,000, n, 200 / prior)
rows, capped at 200,000 (so at least 200 test positives at prior 0.005).  The problem (w, b and the feature
family's fixed parts) is drawn once per cell.

Seeding (the package's one rule, ``lfverify.core._seeding``): ``root = SeedSequence(SEED)``; a cell's
SeedSequence is ``child(root, *text_key(cell key))``, its problem ``child(cell, 0)``, split k's
``child(cell, 1, k)``, whose children 0 and 1 draw the training and test samples and whose child 2 gives the
``random_state`` of every method of that split (``int_seed``).  The JSON records the keys and the integers.

Methods, with the same scaling for all (``StandardScaler`` fitted on the training split for dense input,
``MaxAbsScaler`` for sparse): ours = ``LinearFractionalClassifier(metric=m, random_state=seed)`` (default options)
fitted once per metric; ``LogisticRegression()`` and ``LogisticRegression(class_weight="balanced")``, fitted once
and scored on every metric; ``TunedThresholdClassifierCV(LogisticRegression(), scoring=<metric's scorer>)`` per
metric.  Metrics: F_1, Jaccard, F_0.5 and F_2 of the test sample (scikit-learn's ``f1_score``,
``jaccard_score``, ``fbeta_score`` with ``zero_division=0``: a classifier predicting no positive on a test sample
scores 0, never NaN).

Per cell and metric: the mean and standard error of every method over the splits; the best peer (highest mean);
"below" = the one-sided Welch test of H1 mean(best peer) > mean(ours) rejects at alpha = 0.05
(``lfverify.experiments._statistics.one_sided_p_value``); the difference ours - best peer with its 95 % Welch
interval (``scipy.stats.ttest_ind(equal_var=False).confidence_interval``; the one-sided test at 5 % matches
the 90 % two-sided interval, so a cell can be "below" with a 95 % interval that still reaches 0).
Cost: the fit time of ours over LogisticRegression's on the same training split (the median over splits of the
per-split ratio; BLAS on one thread; the peer's ``TunedThresholdClassifierCV`` time is recorded too, with the
count-based scorer of :func:`count_metric`), and the peak memory allocated during one fit (tracemalloc, which
NumPy reports its buffers to) of ours (F_1) over LogisticRegression's, measured once per cell on split 0
outside the timed fits.  Linearity: the
log-log slope (``numpy.polyfit``) of the median fit time against n along the ``n`` axis and against d along the
``d`` axis, for ours (F_1) and LogisticRegression.

Usage::

    python benchmarks/estimator_regimes.py                      # every axis, 10 splits (hours on 2 cores)
    python benchmarks/estimator_regimes.py --quick              # tiny sizes, 3 splits, seconds (the smoke test)
    python benchmarks/estimator_regimes.py --axes prior,flip --splits 3
    python benchmarks/estimator_regimes.py --resume             # keep the finished cells of the JSON, run the rest

Results: ``benchmarks/results/estimator_regimes.json`` (every per-split number, seeds, versions, machine, command;
rewritten atomically after every cell), and beside it ``.md`` (the table and summary) and ``.png`` (the figure).
Generated files.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
from scipy import optimize, sparse, special, stats
from threadpoolctl import threadpool_limits

from lfverify.core._seeding import as_seed_sequence, child, int_seed, text_key
from lfverify.experiments._statistics import one_sided_p_value, summarize
from lfverify.io._atomic import write_text_atomically
from lfverify.io._figures import pyplot, save_figure
from lfverify.io._progress import Progress, start_clock
from lfverify.learn import LinearFractionalClassifier

# ---------------------------------------------------------------------- constants
SEED = 20200826_0029
ALPHA = 0.05
SPLITS = 10
QUICK_SPLITS = 3
METRICS = ("f1", "jaccard", "f0.5", "f2")
PEERS = ("logreg", "logreg_balanced", "tuned")
PEER_NAMES = {"logreg": "LogisticRegression()", "logreg_balanced": "LogisticRegression(balanced)",
              "tuned": "TunedThresholdCV(LR)"}
METRIC_NAMES = {"f1": "F1", "jaccard": "Jaccard", "f0.5": "F0.5", "f2": "F2"}
FEATURES = ("gaussian", "student_t2", "redundant", "sparse_csr")
SIGNAL = 2.0  # robust standard deviation of the latent score
MIN_CLASS = 5  # fewest rows of either class in a training sample (5-fold cross-validation needs one per fold)
OUT = Path(__file__).with_name("results") / "estimator_regimes.json"

FULL = {"base": {"n": 20_000, "d": 20, "prior": 0.1, "flip": 0.05, "features": "gaussian"},
        "axes": {"n_over_d": {"d": 100, "ratios": (0.2, 0.5, 1, 2, 5, 10, 100, 1000)},
                 "prior": (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5),
                 "flip": (0.0, 0.05, 0.1, 0.2, 0.3),
                 "features": FEATURES,
                 "n": (1_000, 10_000, 100_000, 1_000_000),
                 "d": (10, 50, 200, 500),
                 "minority": {"d": 10, "prior": 0.1, "counts": (20, 30, 50, 100, 200)}},
        "sparse_d": 1000, "density": 0.01,
        "test": {"min": 20_000, "min_positives": 200, "max": 200_000}, "calibration_rows": 50_000}
QUICK = {"base": {"n": 1_000, "d": 10, "prior": 0.1, "flip": 0.05, "features": "gaussian"},
         "axes": {"n_over_d": {"d": 20, "ratios": (1, 10)},
                  "prior": (0.02, 0.1),
                  "flip": (0.0, 0.05),
                  "features": FEATURES,
                  "n": (500, 2_000),
                  "d": (5, 40),
                  "minority": {"d": 5, "prior": 0.1, "counts": (10, 100)}},
         "sparse_d": 500, "density": 0.01,
         "test": {"min": 2_000, "min_positives": 40, "max": 4_000}, "calibration_rows": 10_000}
AXES = tuple(FULL["axes"])
AXIS_LABELS = {"n_over_d": "n / d (training rows per feature, d fixed)", "prior": "positive prior",
               "flip": "label flip rate (0 = separable)", "features": "feature family",
               "n": "training rows n (d fixed)", "d": "features d (n fixed)",
               "minority": "smaller class's count m (d and prior fixed)"}
LOG_AXES = {"n_over_d", "prior", "n", "d", "minority"}


# ---------------------------------------------------------------------- cells
def cell_key(cell: dict) -> str:
    """The canonical text of a cell (its identity in the JSON and its seed key)."""
    return (f"features={cell['features']},n={cell['n']},d={cell['d']},prior={cell['prior']:g},"
            f"flip={cell['flip']:g}")


def axis_cells(plan: dict, axis: str) -> list[dict]:
    """The cells of one axis, in axis order; each records its axis value under ``"value"``."""
    base, spec = plan["base"], plan["axes"][axis]
    cells = []
    if axis == "n_over_d":
        for r in spec["ratios"]:
            cells.append({**base, "d": spec["d"], "n": int(round(r * spec["d"])), "value": r})
    elif axis == "minority":
        for m in spec["counts"]:
            cells.append({**base, "d": spec["d"], "prior": spec["prior"], "n": int(round(m / spec["prior"])),
                          "value": m})
    elif axis == "features":
        for f in spec:
            cells.append({**base, "features": f, "d": plan["sparse_d"] if f == "sparse_csr" else base["d"],
                          "value": f})
    else:
        for v in spec:
            cells.append({**base, axis: v, "value": v})
    return cells


def test_size(plan: dict, n: int, prior: float) -> int:
    t = plan["test"]
    return int(min(max(t["min"], n, math.ceil(t["min_positives"] / prior)), t["max"]))


# ---------------------------------------------------------------------- problem generator
class Problem:
    """One cell's population: a feature family, the latent weights w, its score scale and intercept b."""

    def __init__(self, cell: dict, plan: dict, seq: np.random.SeedSequence):
        rng = np.random.default_rng(seq)
        self.features, self.d, self.prior, self.flip = cell["features"], cell["d"], cell["prior"], cell["flip"]
        self.separable = cell["flip"] == 0
        self.d_total = 2 * self.d if self.features == "redundant" else self.d
        self.density = plan["density"]
        self.w = rng.standard_normal(self.d)
        if self.features == "redundant":
            mix = rng.standard_normal((self.d, self.d))
            self.mix = mix / np.linalg.norm(mix, axis=0)  # unit-variance combinations of the informative columns
        if self.features == "sparse_csr":
            q = 1.0 / (np.arange(self.d) + 10.0)
            self.col_p = np.minimum(q / q.mean() * self.density, 0.5)
            rng.shuffle(self.col_p)
        self.scale, self.b = 1.0, 0.0
        _, s = self._rows(rng, plan["calibration_rows"])
        q75, q25 = np.percentile(s, [75, 25])
        self.scale = SIGNAL / max((q75 - q25) / 1.349, 1e-12)
        s = s * self.scale
        if self.separable:
            self.b = -float(np.quantile(s, 1.0 - self.prior))
        else:
            self.b = float(optimize.brentq(lambda b: special.expit(s + b).mean() - self.prior, -60.0, 60.0))

    def _rows(self, rng, m):
        """m rows of X (dense or CSR) and their latent scores (without the intercept)."""
        if self.features == "gaussian":
            X = rng.standard_normal((m, self.d))
            return X, self.scale * (X @ self.w)
        if self.features == "student_t2":
            X = rng.standard_t(2, size=(m, self.d))
            return X, self.scale * (X @ self.w)
        if self.features == "redundant":
            Z = rng.standard_normal((m, self.d))
            X = np.hstack([Z, Z @ self.mix + 0.1 * rng.standard_normal((m, self.d))])
            return X, self.scale * (Z @ self.w)
        mask = rng.random((m, self.d)) < self.col_p
        rows, cols = np.nonzero(mask)
        values = 1.0 + rng.poisson(0.5, size=rows.size)
        X = sparse.csr_matrix((values, (rows, cols)), shape=(m, self.d))
        return X, self.scale * (X @ self.w)

    def _labels(self, rng, s):
        if self.separable:
            return (s + self.b > 0).astype(np.int64)
        return (rng.random(s.size) < special.expit(s + self.b)).astype(np.int64)

    def sample(self, seq: np.random.SeedSequence, n: int, *, training: bool):
        """n rows with exactly round(prior n) positives (at least MIN_CLASS of each class in training), drawn
        class-conditionally from the population, shuffled, then a fraction ``flip`` of the positives and as many
        negatives swapped."""
        rng = np.random.default_rng(seq)
        n_pos = int(round(self.prior * n))
        if training:
            n_pos = min(max(n_pos, MIN_CLASS), n - MIN_CLASS)
        need = {1: n_pos, 0: n - n_pos}
        parts = {1: [], 0: []}
        chunk = int(min(max(1_000, 1.2 * n), max(1_000, 20_000_000 // self.d_total)))
        for _ in range(100_000):
            if need[0] <= 0 and need[1] <= 0:
                break
            X, s = self._rows(rng, chunk)
            y = self._labels(rng, s)
            for c in (1, 0):
                if need[c] > 0:
                    idx = np.flatnonzero(y == c)[:need[c]]
                    parts[c].append(X[idx])
                    need[c] -= idx.size
        else:  # pragma: no cover - a population without one class
            raise RuntimeError(f"could not draw {n_pos} positives among the population of prior {self.prior}")
        stack = sparse.vstack if self.features == "sparse_csr" else np.vstack
        X = stack(parts[1] + parts[0])
        y = np.r_[np.ones(n_pos, np.int64), np.zeros(n - n_pos, np.int64)]
        order = rng.permutation(n)
        X, y = X[order], y[order]
        if self.features == "sparse_csr":
            X = sparse.csr_matrix(X)
        n_flip = int(round(self.flip * n_pos))
        if n_flip:
            pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
            y[rng.choice(pos, n_flip, replace=False)] = 0
            y[rng.choice(neg, n_flip, replace=False)] = 1
        return X, y


# ---------------------------------------------------------------------- methods
def metric_score(metric: str, y_true, y_pred) -> float:
    """Test value of a metric (zero_division=0: no predicted and no true positive scores 0)."""
    from sklearn.metrics import f1_score, fbeta_score, jaccard_score

    if metric == "f1":
        return float(f1_score(y_true, y_pred, zero_division=0))
    if metric == "jaccard":
        return float(jaccard_score(y_true, y_pred, zero_division=0))
    return float(fbeta_score(y_true, y_pred, beta=float(metric[1:]), zero_division=0))


def count_metric(y_true, y_pred, *, metric: str) -> float:
    """The metric from the confusion counts (labels 0/1; zero_division=0): lfverify's tuned baselines' scorer
    (``lfverify.learn._baselines._CountScore``), the same floats as scikit-learn's functions (checked on every test
    evaluation), without their per-call input validation (about 1 ms a call, which ``TunedThresholdClassifierCV``
    pays 500 times a fit: 5 folds x 100 thresholds)."""
    from lfverify.learn._baselines import _CountScore  # needs scikit-learn, as the peers do

    if metric == "jaccard":
        return _CountScore("jaccard")(y_true, y_pred)
    return _CountScore("f_beta", 1.0 if metric == "f1" else float(metric[1:]))(y_true, y_pred)


def scorer(metric: str):
    """The peer's ``scoring``: :func:`count_metric` as a scikit-learn scorer (the threshold it picks is the one
    scikit-learn's own scorer would pick: the values are the same)."""
    from sklearn.metrics import make_scorer

    return make_scorer(count_metric, metric=metric)


def method_factories(seed: int) -> dict:
    """name -> (metrics it is fitted for (None: once, scored on all), factory(metric))."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import TunedThresholdClassifierCV

    return {"logreg": (None, lambda m: LogisticRegression()),
            "logreg_balanced": (None, lambda m: LogisticRegression(class_weight="balanced")),
            "ours": (METRICS, lambda m: LinearFractionalClassifier(metric=m, random_state=seed)),
            "tuned": (METRICS, lambda m: TunedThresholdClassifierCV(LogisticRegression(), scoring=scorer(m),
                                                                    random_state=seed))}


def timed_fit(estimator, X, y):
    """(seconds, fitted estimator or None, error text or None, warnings {category: [count, first message]})."""
    caught = {}
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        start = time.perf_counter()
        try:
            estimator.fit(X, y)
            error = None
        except Exception as exc:  # a failing fit is an outcome of the regime, recorded
            estimator, error = None, f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - start
    for w in record:
        entry = caught.setdefault(w.category.__name__, [0, str(w.message)[:200]])
        entry[0] += 1
    return seconds, estimator, error, caught


def peak_fit_bytes(estimator, X, y) -> int:
    """Peak memory allocated during one fit (tracemalloc; NumPy reports its buffers to it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tracemalloc.start()
        try:
            estimator.fit(X, y)
            return int(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()


def scale(X_train, X_test):
    """The same scaling for every method: StandardScaler (dense) or MaxAbsScaler (CSR), fitted on training."""
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    scaler = (MaxAbsScaler() if sparse.issparse(X_train) else StandardScaler()).fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test)


def cell_seed_sequence(cell: dict):
    """The cell's SeedSequence, ``child(root, *text_key(cell key))`` (the module docstring's seeding rule)."""
    return child(as_seed_sequence(SEED), *text_key(cell_key(cell)))


def split_data(problem: Problem, cell: dict, plan: dict, cell_seq, k: int) -> tuple:
    """Split k of a cell, drawn by the module docstring's seeding rule and scaled as every method sees it:
    (X_train, y_train, X_test, y_test, random_state)."""
    split_seq = child(cell_seq, 1, k)
    X, y = problem.sample(child(split_seq, 0), cell["n"], training=True)
    X_test, y_test = problem.sample(child(split_seq, 1), test_size(plan, cell["n"], cell["prior"]), training=False)
    X, X_test = scale(X, X_test)
    return X, y, X_test, y_test, int_seed(child(split_seq, 2))


def run_split(problem: Problem, cell: dict, plan: dict, cell_seq, k: int) -> tuple[dict, tuple]:
    X, y, X_test, y_test, seed = split_data(problem, cell, plan, cell_seq, k)
    record = {"split": k, "seed_key": [1, k], "random_state": seed, "n_train": int(y.size),
              "positives_train": int(y.sum()), "n_test": int(y_test.size), "positives_test": int(y_test.sum()),
              "seconds": {}, "scores": {}, "errors": {}, "warnings": {}}
    for name, (fitted_for, factory) in method_factories(seed).items():
        for m in (fitted_for or (None,)):
            label = name if m is None else f"{name}:{m}"
            seconds, est, error, caught = timed_fit(factory(m or "f1"), X, y)
            record["seconds"][label] = seconds
            if caught:
                record["warnings"][label] = caught
            if error is not None:
                record["errors"][label] = error
                continue
            y_pred = est.predict(X_test)
            for metric in (METRICS if m is None else (m,)):
                value = metric_score(metric, y_test, y_pred)
                if abs(value - count_metric(y_test, y_pred, metric=metric)) > 1e-12:  # the peer's scorer's oracle
                    raise AssertionError(f"count_metric disagrees with scikit-learn's {metric} on {label}")
                record["scores"].setdefault(name, {})[metric] = value
    return record, (X, y, seed)


def run_cell(cell: dict, plan: dict, splits: int) -> dict:
    """Every split of one cell, and the memory of one fit of ours (F_1) and of LogisticRegression."""
    from sklearn.linear_model import LogisticRegression

    key = cell_key(cell)
    cell_seq = cell_seed_sequence(cell)
    start = time.perf_counter()
    problem = Problem(cell, plan, child(cell_seq, 0))
    records, first = [], None
    for k in range(splits):
        record, data = run_split(problem, cell, plan, cell_seq, k)
        records.append(record)
        first = first or data
    X, y, seed = first
    memory = {"ours:f1": peak_fit_bytes(LinearFractionalClassifier(metric="f1", random_state=seed), X, y),
              "logreg": peak_fit_bytes(LogisticRegression(), X, y)}
    memory["ratio"] = memory["ours:f1"] / memory["logreg"]
    memory["x_bytes"] = int(X.data.nbytes + X.indices.nbytes + X.indptr.nbytes if sparse.issparse(X) else X.nbytes)
    return {"key": key, "cell": {k: cell[k] for k in ("features", "n", "d", "prior", "flip")},
            "d_total": problem.d_total, "intercept": problem.b, "score_scale": problem.scale,
            "seed_key": list(text_key(key)), "splits": records, "peak_bytes": memory,
            "seconds": time.perf_counter() - start}


# ---------------------------------------------------------------------- statistics
def _ci(ours: np.ndarray, best: np.ndarray, level: float = 0.95):
    """95 % Welch interval of mean(ours) - mean(best); degenerate cases decided without NaN."""
    if ours.size < 2 or best.size < 2:
        return None
    diff = float(ours.mean() - best.mean())
    if ours.var(ddof=1) + best.var(ddof=1) == 0.0:
        return [diff, diff]
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Precision loss occurred in moment calculation",
                                category=RuntimeWarning)
        ci = stats.ttest_ind(ours, best, equal_var=False).confidence_interval(level)
    return [float(ci.low), float(ci.high)]


def compare(ours, peers: dict, alpha: float = ALPHA) -> dict:
    """The comparison of one cell and metric: ours against the best peer (highest mean).

    Parameters
    ----------
    ours : sequence of float
        The per-split test values of ours.
    peers : dict
        peer name -> sequence of per-split test values.
    alpha : float
        Level of the one-sided Welch test of H1: mean(best peer) > mean(ours).

    Returns
    -------
    dict
        ``ours`` and ``peers`` (mean, standard error), ``best_peer``, ``difference`` (ours - best peer),
        ``ci`` (its 95 % Welch interval, or None under 2 splits), ``p_value`` and ``below`` (the test rejects).
    """
    ours = np.asarray(ours, dtype=float)
    summaries = {name: summarize(v)._asdict() for name, v in peers.items()}
    best = max(peers, key=lambda name: summaries[name]["mean"])
    best_values = np.asarray(peers[best], dtype=float)
    p = one_sided_p_value(best_values, ours, test="welch")
    return {"ours": summarize(ours)._asdict(), "peers": summaries, "best_peer": best,
            "difference": float(ours.mean() - best_values.mean()), "ci": _ci(ours, best_values),
            "p_value": p, "below": p is not None and p < alpha}


def summarize_cell(result: dict) -> dict:
    """Per metric: the comparison, the fit-time ratios (median over splits) and failures."""
    splits = result["splits"]
    lr = np.array([s["seconds"]["logreg"] for s in splits])
    out = {}
    for m in METRICS:
        failed = {name: sum(1 for s in splits if m not in s["scores"].get(name, {})) for name in ("ours", *PEERS)}
        ok_peers = {p: [s["scores"][p][m] for s in splits] for p in PEERS if failed[p] == 0}
        entry = {"failed_splits": failed}
        if failed["ours"] == 0 and ok_peers:
            entry.update(compare([s["scores"]["ours"][m] for s in splits], ok_peers))
        else:
            entry.update({"below": failed["ours"] > 0, "difference": None, "ci": None, "p_value": None})
        ours_t = np.array([s["seconds"][f"ours:{m}"] for s in splits])
        tuned_t = np.array([s["seconds"][f"tuned:{m}"] for s in splits])
        entry["time_ratio"] = float(np.median(ours_t / lr))
        entry["tuned_time_ratio"] = float(np.median(tuned_t / lr))
        out[m] = entry
    return out


def slope(cells: list[dict], results: dict, var: str) -> dict | None:
    """Log-log slope of the median fit time against ``var`` (n or d) for ours (F_1) and LogisticRegression."""
    xs, ours, lr = [], [], []
    for c in cells:
        r = results.get(cell_key(c))
        if r is None:
            continue
        xs.append(c[var] if var == "n" else r["d_total"])
        ours.append(np.median([s["seconds"]["ours:f1"] for s in r["splits"]]))
        lr.append(np.median([s["seconds"]["logreg"] for s in r["splits"]]))
    if len(xs) < 2:
        return None
    lx = np.log(xs)
    return {var: [int(x) for x in xs], "ours_f1_seconds": ours, "logreg_seconds": lr,
            "ours_f1_slope": float(np.polyfit(lx, np.log(ours), 1)[0]),
            "logreg_slope": float(np.polyfit(lx, np.log(lr), 1)[0])}


# ---------------------------------------------------------------------- reports
def _fmt_value(axis, cell):
    v = cell["value"]
    if axis == "n_over_d":
        return f"n/d={v:g} (n={cell['n']:,}, d={cell['d']})"
    if axis in ("n", "d"):
        return f"{axis}={v:,}"
    if axis == "features":
        return f"{v} (d={cell['d']})"
    if axis == "minority":
        return f"m={v} (n={cell['n']:,}, d={cell['d']})"
    return f"{axis}={v:g}"


def build_report(plan, axes, results, settings) -> tuple[str, dict]:
    summaries = {key: summarize_cell(r) for key, r in results.items()}
    lines = ["# Regimes benchmark of LinearFractionalClassifier (GENERATED by benchmarks/estimator_regimes.py)", "",
             f"Command: `{settings['command']}`; {settings['splits']} splits per cell; base cell "
             f"{cell_key(plan['base'])}.  Ours = `LinearFractionalClassifier(metric=m)` (defaults); peers: "
             "`LogisticRegression()`, `LogisticRegression(class_weight=\"balanced\")`, "
             "`TunedThresholdClassifierCV(LogisticRegression(), scoring=m)`.  Difference = ours - best peer "
             "(test metric, mean over splits) with its 95 % Welch interval; p = one-sided Welch test of "
             f"best peer > ours; below = p < {ALPHA} (the one-sided 5 % test matches a 90 % two-sided interval, so a "
             "cell can be below while its 95 % interval still reaches 0).  Time ratio = median over splits of "
             "ours' fit time / LogisticRegression's (same training split); memory ratio = peak allocation of "
             "one fit of ours (F1) / LogisticRegression's (tracemalloc).  Undefined metrics (no predicted and no "
             "true positive) count 0.",
             "", "| axis | cell | metric | ours mean (se) | best peer: mean (se) | ours - best [95 % CI] | p | below? "
             "| time ratio | memory ratio |", "|---|---|---|---|---|---|---|---|---|---|"]
    for axis in axes:
        for cell in axis_cells(plan, axis):
            key = cell_key(cell)
            if key not in results:
                continue
            base = " (base)" if key == cell_key(plan["base"]) else ""
            mem = results[key]["peak_bytes"]["ratio"]
            for m in METRICS:
                e = summaries[key][m]
                if e.get("difference") is None:
                    lines.append(f"| {axis} | {_fmt_value(axis, cell)}{base} | {METRIC_NAMES[m]} | failed splits "
                                 f"{e['failed_splits']} | | | | {'yes' if e['below'] else 'no'} | "
                                 f"{e['time_ratio']:.2f} | {mem:.2f} |")
                    continue
                o, b = e["ours"], e["peers"][e["best_peer"]]
                se = lambda s: "-" if s["standard_error"] is None else f"{s['standard_error']:.4f}"  # noqa: E731
                ci = "" if e["ci"] is None else f" [{e['ci'][0]:+.4f}, {e['ci'][1]:+.4f}]"
                p = "-" if e["p_value"] is None else f"{e['p_value']:.3g}"
                lines.append(f"| {axis} | {_fmt_value(axis, cell)}{base} | {METRIC_NAMES[m]} | {o['mean']:.4f} "
                             f"({se(o)}) | {PEER_NAMES[e['best_peer']]}: {b['mean']:.4f} ({se(b)}) | "
                             f"{e['difference']:+.4f}{ci} | {p} | {'**yes**' if e['below'] else 'no'} | "
                             f"{e['time_ratio']:.2f} | {mem:.2f} |")
    # summary over unique cells
    below = {m: sorted(k for k in summaries if summaries[k][m]["below"]) for m in METRICS}
    time_max = max(((summaries[k][m]["time_ratio"], k, m) for k in summaries for m in METRICS), default=None)
    mem_max = max(((results[k]["peak_bytes"]["ratio"], k) for k in results), default=None)
    slopes = {"n": slope(axis_cells(plan, "n"), results, "n") if "n" in axes else None,
              "d": slope(axis_cells(plan, "d"), results, "d") if "d" in axes else None}
    failures = sorted({f"{k}: {label}: {err}" for k, r in results.items() for s in r["splits"]
                       for label, err in s["errors"].items()})
    lines += ["", "## Summary", "", f"{len(results)} distinct cells (a cell shared by several axes counted once).", ""]
    for m in METRICS:
        lines.append(f"- {METRIC_NAMES[m]}: ours significantly below the best peer in {len(below[m])} of "
                     f"{len(summaries)} cells" + (": " + "; ".join(below[m]) if below[m] else ""))
    if time_max:
        lines.append(f"- largest fit-time ratio ours / LogisticRegression: {time_max[0]:.2f} "
                     f"({METRIC_NAMES[time_max[2]]}, {time_max[1]})")
    if mem_max:
        pb = results[mem_max[1]]["peak_bytes"]
        lines.append(f"- largest peak-memory ratio ours (F1) / LogisticRegression: {mem_max[0]:.2f} ({mem_max[1]}: "
                     f"{pb['ours:f1'] / 2**20:.1f} MiB against {pb['logreg'] / 2**20:.1f} MiB; the training X itself "
                     f"{pb.get('x_bytes', float('nan')) / 2**20:.1f} MiB)")
    for var, s in slopes.items():
        if s:
            lines.append(f"- fit time against {var} (log-log slope, 1 = linear): ours (F1) {s['ours_f1_slope']:.2f}, "
                         f"LogisticRegression {s['logreg_slope']:.2f} (over {var} = "
                         f"{', '.join(f'{x:,}' for x in s[var])})")
    if failures:
        lines += ["", "Failed fits:", ""] + [f"- {f}" for f in failures[:50]]
    summary = {"below": below, "max_time_ratio": time_max and {"ratio": time_max[0], "cell": time_max[1],
                                                                "metric": time_max[2]},
               "max_memory_ratio": mem_max and {"ratio": mem_max[0], "cell": mem_max[1]}, "slopes": slopes,
               "failed_fits": failures, "cells": summaries}
    return "\n".join(lines) + "\n", summary


def draw_figure(plan, axes, summaries, results, path, settings):
    plt = pyplot()
    n_axes = len(axes)
    cols = min(3, n_axes)
    rows = math.ceil(n_axes / cols)
    fig, grid = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False)
    for panel, axis in zip(grid.flat, axes):
        cells = [c for c in axis_cells(plan, axis) if cell_key(c) in results]
        categorical = axis == "features"
        for j, (m, colour) in enumerate((("f1", "tab:blue"), ("jaccard", "tab:orange"))):
            xs, ys, lo, hi = [], [], [], []
            for i, c in enumerate(cells):
                e = summaries[cell_key(c)][m]
                if e.get("difference") is None:
                    continue
                x = i if categorical else float(c["value"])
                shift = (j - 0.5) * 0.12
                xs.append(x + shift if categorical else (x * 10 ** shift if axis in LOG_AXES else x + shift * 0.1))
                ys.append(e["difference"])
                ci = e["ci"] or [e["difference"], e["difference"]]
                lo.append(e["difference"] - ci[0])
                hi.append(ci[1] - e["difference"])
            panel.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", color=colour, capsize=3, ms=4,
                           label=f"{METRIC_NAMES[m]}: ours - best peer")
            for x, y, c in zip(xs, ys, cells):
                if summaries[cell_key(c)][m]["below"]:
                    panel.plot([x], [y], marker="x", color="red", ms=9, mew=2, ls="none")
        panel.plot([], [], marker="x", color="red", ms=9, mew=2, ls="none", label="ours significantly below")
        panel.axhline(0.0, color="black", lw=0.8)
        if categorical:
            panel.set_xticks(range(len(cells)))
            panel.set_xticklabels([c["value"] for c in cells], fontsize=8)
        elif axis in LOG_AXES:
            panel.set_xscale("log")
            panel.set_xticks([float(c["value"]) for c in cells])
            panel.set_xticklabels([f"{c['value']:g}" for c in cells], fontsize=8)
            panel.minorticks_off()
        panel.set_xlabel(AXIS_LABELS[axis])
        panel.set_ylabel("test metric: ours - best peer")
        panel.set_title(f"axis: {axis}", fontsize=10)
        panel.legend(fontsize=7, loc="best")
    for panel in list(grid.flat)[n_axes:]:
        panel.set_visible(False)
    fig.suptitle("LinearFractionalClassifier vs. the best linear peer per cell (mean over "
                 f"{settings['splits']} splits; bars: 95 % Welch interval; red x: significantly below, one-sided "
                 f"p < {ALPHA})", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    save_figure(fig, path)


# ---------------------------------------------------------------------- main
def _machine():
    import scipy
    import sklearn

    import lfverify

    return {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
            "scikit-learn": sklearn.__version__, "lfverify": lfverify.__version__, "cpus": os.cpu_count(),
            "platform": platform.platform(), "load_average_1min": os.getloadavg()[0], "blas_threads_limit": 1}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, 3 splits (seconds; a smoke test)")
    parser.add_argument("--splits", type=int, default=None, help=f"splits per cell (default {SPLITS}; "
                        f"{QUICK_SPLITS} with --quick)")
    parser.add_argument("--axes", default=",".join(AXES), help=f"comma list of axes to run (default all: "
                        f"{','.join(AXES)})")
    parser.add_argument("--json", type=Path, default=OUT, help=f"JSON output; the .md and .png go beside it "
                        f"(default {OUT})")
    parser.add_argument("--resume", action="store_true", help="keep the finished cells of the JSON, run the rest")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    try:
        return _run(args, argv)
    except KeyboardInterrupt:
        print(f"estimator_regimes: interrupted; the finished cells are in {args.json} (continue with --resume)",
              file=sys.stderr)
        return 130
    except Exception as exc:
        print(f"estimator_regimes: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _run(args, argv):
    start_clock()
    splits = args.splits if args.splits is not None else (QUICK_SPLITS if args.quick else SPLITS)
    if splits < 2:
        raise ValueError(f"--splits must be >= 2 (a Welch test needs two splits); got {splits}")
    axes = [a.strip() for a in args.axes.split(",") if a.strip()]
    unknown = [a for a in axes if a not in AXES]
    if unknown or not axes:
        raise ValueError(f"unknown axes {unknown}; choose from {', '.join(AXES)}")
    plan = QUICK if args.quick else FULL
    settings = {"seed": SEED, "quick": args.quick, "splits": splits, "alpha": ALPHA,
                "command": " ".join(["python benchmarks/estimator_regimes.py", *argv])}
    results, previous_axes = {}, []
    if args.resume and args.json.exists():
        old = json.loads(args.json.read_text())
        mismatch = {k: (old["settings"].get(k), settings[k]) for k in ("seed", "quick", "splits")
                    if old["settings"].get(k) != settings[k]}
        if mismatch:
            raise ValueError(f"--resume: {args.json} was made with other settings {mismatch}; "
                             "use another --json or drop --resume")
        results, previous_axes = old["cells"], old.get("axes", [])
    all_axes = [a for a in AXES if a in set(axes) | set(previous_axes)]
    todo = list({cell_key(c): c for a in axes for c in axis_cells(plan, a)}.values())
    done = sum(1 for c in todo if cell_key(c) in results)

    def write_json():
        payload = {"generated_by": "benchmarks/estimator_regimes.py (GENERATED FILE: do not edit by hand)",
                   "settings": settings, "machine": _machine(), "plan": plan, "axes": all_axes,
                   "seeding": "root = SeedSequence(seed); cell = child(root, *seed_key); problem = child(cell, 0); "
                              "split k = child(cell, 1, k): training sample child(split, 0), test sample "
                              "child(split, 1), methods' random_state = int_seed(child(split, 2))",
                   "cells": results}
        write_text_atomically(args.json, json.dumps(payload, indent=1, default=float) + "\n")

    with threadpool_limits(limits=1), Progress(len(todo), "regimes", "cell", initial=done, every=1) as progress:
        for cell in todo:
            key = cell_key(cell)
            if key in results:
                continue
            result = run_cell(cell, plan, splits)
            results[key] = result
            write_json()
            f1 = summarize_cell(result)["f1"]
            diff = "failed" if f1.get("difference") is None else f"{f1['difference']:+.4f}"
            progress.advance(f"{key}: F1 ours - best peer {diff}{' BELOW' if f1['below'] else ''}, "
                             f"time ratio {f1['time_ratio']:.2f}, {result['seconds']:.1f} s")
    write_json()
    report, summary = build_report(plan, all_axes, results, settings)
    md, png = args.json.with_suffix(".md"), args.json.with_suffix(".png")
    write_text_atomically(md, report)
    draw_figure(plan, all_axes, summary["cells"], results, png, settings)
    payload = json.loads(args.json.read_text())
    payload["summary"] = {k: v for k, v in summary.items() if k != "cells"}
    write_text_atomically(args.json, json.dumps(payload, indent=1, default=float) + "\n")
    for line in report.split("## Summary", 1)[1].strip().splitlines():
        print(line)
    print(f"results: {args.json}, {md}, {png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
