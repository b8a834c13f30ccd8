"""One trial of the paper's benchmark protocol (Sec. 6 "Implementation Details", App. C.1-C.4).

A trial on a data set (App. C.1, Sec. 6):

1. split the data at random 8:2 into training and test sets (App. C.1);
2. optionally subsample the training set to ``train_size`` points (App. C.5, sample complexity; the test set
   stays the held-out 20 %);
3. U-GD and U-BFGS: split the training set 4:1 at random, fit :class:`LinearFractionalClassifier` (ERM / SVM
   start, tau = 0.33 for F_1 and 0.75 for Jaccard, ``max_iter`` = 100 as in Tables 4-5) on the 4/5 for each
   learning rate of {10, 0.1, 1e-3, 1e-5} (Sec. 6), keep the rate with the best validation metric, refit on the
   whole training set with it (scikit-learn's ``refit``; the paper does not say whether it refits), and score
   the test set;
4. baselines from :func:`lfverify.learn.make_baseline` (ERM, W-ERM, Plug-in as App. C.2, and scikit-learn's
   ``TunedThresholdClassifierCV`` as a modern plug-in peer, and a plain ``LogisticRegression()``), fit on the
   whole training set (each does its own App. C.2 validation splits), scored on the test set.  ERM does not
   depend on the metric and is fitted once per trial;
5. the remedies (extensions, :data:`REMEDY_METHODS`): :class:`LinearFractionalClassifier` with its options, fit
   on the whole training set with no validation of its own beyond what the options do, scored on the test set;
6. the nonlinear peers (:data:`NONLINEAR_METHODS`, :func:`lfverify.learn.make_nonlinear_peer`): scikit-learn's
   tree ensembles alone, inside ``TunedThresholdClassifierCV`` and inside the remedy ``MetricOptimalClassifier``,
   fit on the whole training set, scored on the test set.

Randomness: one :class:`numpy.random.SeedSequence` per (data set, trial) (:func:`trial_seed_sequence`), whose
fixed children seed the test split (0), the validation split (1), the baselines (2), the training subsample (3,
with the size in the key) and the random starts of the convergence study (4), so a trial's numbers do not depend
on which worker runs it, in which order, or on the other experiments.  The U-GD / U-BFGS objective uses the
paper's first-half split S_0 / S_1 of the (randomly ordered) training rows.

Metric values of predictions use sgn(0) = -1 and define 0/0 (no positive label and no positive prediction in a
test set) as 0, scikit-learn's value.
"""

from __future__ import annotations

import functools
import math
import time
import zlib
from dataclasses import dataclass

import numpy as np

from lfverify.core import (
    EmpiricalSurrogateUtility,
    as_seed_sequence,
    check_real,
    child,
    paper_tau,
    resolve_metric,
    tau_logistic,
)
from lfverify.learn import (
    LinearFractionalClassifier,
    erm_initial_parameters,
    make_baseline,
    make_nonlinear_peer,
    maximize_surrogate_utility,
)

__all__ = ["PROPOSED_METHODS", "BASELINE_METHODS", "REMEDY_METHODS", "NONLINEAR_METHODS", "ALL_METHODS",
           "TABLE_METHODS",
           "COMPARE_METHODS", "LEARNING_RATES", "PAPER_TAU", "METRICS",
           "ProtocolConfig", "trial_seed_sequence", "split_indices", "run_trial", "run_convergence",
           "metric_object", "check_metric_names", "check_methods"]

#: The proposed methods (Sec. 6): Alg. 1 with normalized gradient ascent (Alg. 2) or normalized BFGS.
PROPOSED_METHODS = {"U-GD": "gd", "U-BFGS": "bfgs"}
#: Table column name -> lfverify.learn name.
BASELINE_METHODS = {"ERM": "erm", "W-ERM": "w-erm", "Plug-in": "plug-in", "Tuned-threshold": "tuned-threshold",
                    "LogReg": "logistic-regression"}
#: The nonlinear peers (issue 42): column name -> lfverify.learn.make_nonlinear_peer name (scikit-learn's tree
#: ensembles alone, with a tuned threshold, and inside the remedy MetricOptimalClassifier).
NONLINEAR_METHODS = {"HGB": "hist-gradient-boosting", "HGB+tuned": "hist-gradient-boosting+tuned",
                     "HGB+remedy": "hist-gradient-boosting+remedy", "RF": "random-forest",
                     "RF+tuned": "random-forest+tuned", "RF+remedy": "random-forest+remedy"}
#: The remedies (extensions beyond the paper): column name -> options of LinearFractionalClassifier, spelled out
#: (the benchmark's cell settings, and so the fingerprint that decides whether old records may be reused, include
#: them, so a change of a remedy or of the estimator's defaults cannot reuse stale records).
#: "U-BFGS+refit" keeps the paper's direction (Alg. 1, U-BFGS, tau of Sec. 6) and refits only the threshold on the
#: training sample; "Cost-sensitive" is the estimator's default; "Cost-sensitive+CV" always takes 5 folds.
REMEDY_METHODS = {"U-BFGS+refit": {"objective": "surrogate-utility", "threshold": "refit", "threshold_cv": None,
                                   "init": "zeros"},
                  "Cost-sensitive": {"objective": "cost-sensitive", "threshold": "refit", "threshold_cv": "auto",
                                     "init": "zeros", "C": 1.0},
                  "Cost-sensitive+CV": {"objective": "cost-sensitive", "threshold": "refit", "threshold_cv": 5,
                                        "init": "zeros", "C": 1.0}}
#: Every method; a method's position seeds its fits (child(seq, 2, index)), so new methods go last.
ALL_METHODS = ("U-GD", "U-BFGS", "ERM", "W-ERM", "Plug-in", "Tuned-threshold", "LogReg", "U-BFGS+refit",
               "Cost-sensitive", "Cost-sensitive+CV", "HGB", "HGB+tuned", "HGB+remedy", "RF", "RF+tuned", "RF+remedy")
#: Tables 2, 4 and 5 (and the sample-complexity figure): the paper's five methods and the modern peer.
TABLE_METHODS = ALL_METHODS[:6]
#: The ``compare`` experiment: the paper's methods, the remedies and what a user would pick instead.
COMPARE_METHODS = ("U-GD", "U-BFGS", "U-BFGS+refit", "Cost-sensitive", "Cost-sensitive+CV", "Plug-in",
                   "Tuned-threshold", "LogReg", "HGB", "HGB+tuned", "HGB+remedy", "RF", "RF+tuned", "RF+remedy")
#: Sec. 6: "a common learning rate ... chosen from {10^1, 10^-1, 10^-3, 10^-5} by cross validation".
LEARNING_RATES = (10.0, 0.1, 1e-3, 1e-5)
#: The metrics of the paper's experiments (Sec. 6).
METRICS = ("f1", "jaccard")
#: Sec. 6's tau of each (the metric registry's ``paper_tau``).
PAPER_TAU = {name: paper_tau(name) for name in METRICS}

_TEST_FRACTION = 0.2  # App. C.1: 8:2
_VALIDATION_FRACTION = 0.2  # Sec. 6: "divided into 4 to 1"


def metric_object(name: str):
    """The LinearFractionalMetric of a benchmark metric name ("f1" or "jaccard")."""

    check_metric_names((name,))
    return resolve_metric(name)


def _check_names(names, known, what: str) -> tuple:
    names = tuple(names)
    if not names:
        raise ValueError(f"{what} must name at least one of {known}; got none")
    for name in names:
        if name not in known:
            raise ValueError(f"{what}: unknown {what[:-1]} {name!r}; expected some of {known}")
    return names


def check_metric_names(names) -> tuple:
    """Validate benchmark metric names (the paper's experiments use F_1 and Jaccard)."""
    return _check_names(names, METRICS, "metrics")


def check_methods(names) -> tuple:
    """Validate method names (the paper's five methods, the peers and the remedies: :data:`ALL_METHODS`)."""
    return _check_names(names, ALL_METHODS, "methods")


@dataclass(frozen=True)
class ProtocolConfig:
    """Settings of one trial (the defaults are the paper's Tables 4-5 settings).

    Attributes
    ----------
    metrics : tuple of {"f1", "jaccard"}
    methods : tuple of str
        Columns to run (:data:`TABLE_METHODS` by default).
    max_iter : int
        Phase-2 iterations of U-GD / U-BFGS (Tables 4-5: 100).
    learning_rates : tuple of float
        Grid for the validation choice of the learning rate.
    tau : float or None
        Override of the loss's tau for every metric (``None``: :data:`PAPER_TAU`).
    train_size : int or None
        Subsample the training set to this many points (sample-complexity study).
    """

    metrics: tuple = METRICS
    methods: tuple = TABLE_METHODS
    max_iter: int = 100
    learning_rates: tuple = LEARNING_RATES
    tau: float | None = None
    train_size: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "metrics", check_metric_names(self.metrics))
        object.__setattr__(self, "methods", check_methods(self.methods))
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, int) or self.max_iter < 0:
            raise ValueError(f"max_iter must be an int >= 0; got {self.max_iter!r}")
        rates = tuple(check_real(r, "learning_rates", low=0.0, low_inclusive=False) for r in self.learning_rates)
        if not rates:
            raise ValueError("learning_rates must hold at least one positive rate; got none")
        object.__setattr__(self, "learning_rates", rates)
        if self.tau is not None:
            object.__setattr__(self, "tau", check_real(self.tau, "tau", low=0.0, high=1.0, low_inclusive=False))
        if self.train_size is not None and (isinstance(self.train_size, bool) or not isinstance(self.train_size, int)
                                            or self.train_size < 4):
            raise ValueError(f"train_size must be an int >= 4 or None; got {self.train_size!r}")

    def tau_for(self, metric: str) -> float:
        return PAPER_TAU[metric] if self.tau is None else self.tau


def trial_seed_sequence(seed: int, dataset: str, trial: int) -> np.random.SeedSequence:
    """The SeedSequence of one (data set, trial): entropy ``seed``, spawn key (crc32(dataset), trial)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an int >= 0; got {seed!r}")
    return child(as_seed_sequence(seed, "seed"), zlib.crc32(dataset.encode()), trial)


def _has_both_classes(y, minimum: int = 1) -> bool:
    return int(np.count_nonzero(y == 1)) >= minimum and int(np.count_nonzero(y != 1)) >= minimum


def split_indices(n: int, fraction: float, seed, *, y=None, min_per_class: int = 1, max_draws: int = 1000):
    """A random split of range(n) into (rest, held_out) with round(fraction n) held-out points.

    With ``y``, the draw is repeated (same generator, so still deterministic) until both parts hold at least
    ``min_per_class`` points of each class; tiny samples (App. C.5's n = 20) would otherwise give a
    single-class training or validation set.  Raises ValueError if no such split is found.
    """
    rng = np.random.default_rng(seed)
    n_out = int(round(fraction * n))
    if not 1 <= n_out < n:
        raise ValueError(f"cannot hold out {fraction:g} of {n} samples (both parts must be non-empty)")
    for _ in range(max_draws):
        order = rng.permutation(n)
        rest, held = order[n_out:], order[:n_out]
        if y is None or (_has_both_classes(y[rest], min_per_class) and _has_both_classes(y[held], min_per_class)):
            return rest, held
    raise ValueError(f"no split of {n} samples with {min_per_class} of each class on both sides was found")


def _subsample(n: int, size: int, seed, y, *, min_per_class: int = 2, max_draws: int = 1000):
    rng = np.random.default_rng(seed)
    if size > n:
        raise ValueError(f"train_size {size} exceeds the {n} training samples")
    for _ in range(max_draws):
        idx = np.sort(rng.choice(n, size=size, replace=False))
        if _has_both_classes(y[idx], min_per_class):
            return idx
    raise ValueError(f"no subsample of {size} with {min_per_class} samples of each class was found")


def _score(metric, y_true, predicted_positive) -> float:
    return float(metric.score(y_true, np.where(predicted_positive, 1, -1), zero_division=0.0))


class _ERMStarts:
    """The validation split of a trial and the ERM starts on it and on the whole training set, computed once.

    They depend on the trial only (not on the method or metric), and one liblinear fit at C = 1 / lambda costs
    seconds on the large data sets, so the U-GD / U-BFGS fits of one trial share them.
    """

    def __init__(self, X_train, y_train, seq):
        self.X_train, self.y_train = X_train, y_train
        self.fit_idx, self.val_idx = split_indices(X_train.shape[0], _VALIDATION_FRACTION, child(seq, 1),
                                                   y=y_train)
        self.seconds = {}  #: wall time of each start computed ("fit_start", "train_start")

    def _timed_start(self, name, rows):
        started = time.perf_counter()
        theta = erm_initial_parameters(self.X_train[rows], self.y_train[rows])
        self.seconds[name] = time.perf_counter() - started
        return theta

    @functools.cached_property
    def fit_start(self):
        """The ERM start on the 4/5 fitting part (the learning-rate validation's fits start here)."""
        return self._timed_start("fit_start", self.fit_idx)

    @functools.cached_property
    def train_start(self):
        """The ERM start on the whole training set (the final refit starts here)."""
        return self._timed_start("train_start", slice(None))


def _fit_proposed(method, metric_name, config, starts: _ERMStarts):
    """Learning rate by 4:1 validation, then refit on the whole training set.  Returns (classifier, info)."""

    metric = metric_object(metric_name)
    X_train, y_train, fit_idx, val_idx = starts.X_train, starts.y_train, starts.fit_idx, starts.val_idx
    X_fit, y_fit = X_train[fit_idx], y_train[fit_idx]
    start_fit = starts.fit_start

    def classifier(rate, init):
        return LinearFractionalClassifier(metric=metric_name, objective="surrogate-utility", threshold="zero",
                                          tau=config.tau_for(metric_name), method=PROPOSED_METHODS[method],
                                          learning_rate=rate, max_iter=config.max_iter, init=init, split="first-half",
                                          random_state=0)  # nothing is drawn (explicit start, first-half split);
        # a fixed seed keeps it so if that changes, instead of fresh OS entropy (random_state=None)

    validation = {}
    for rate in config.learning_rates:
        clf = classifier(rate, start_fit).fit(X_fit, y_fit)
        validation[rate] = _score(metric, y_train[val_idx], clf.predict(X_train[val_idx]) == 1)
    best_rate = max(config.learning_rates, key=lambda r: validation[r])  # the first of equals wins
    clf = classifier(best_rate, starts.train_start).fit(X_train, y_train)
    result = clf.optimization_result_
    info = {"learning_rate": best_rate, "validation": {repr(r): v for r, v in validation.items()},
            "iterations": int(result.iterations), "phase1_steps": int(result.phase1_steps),
            "converged": bool(result.converged), "message": str(result.message),
            "train_surrogate": _finite_or_none(result.surrogate_utility),
            "train_metric": _finite_or_none(result.true_utility)}
    return clf, info


def _fit_remedy(method, metric_name, config, X_train, y_train, seed):
    """A remedy of :data:`REMEDY_METHODS` fitted on the whole training set.  Returns (classifier, info)."""

    options = dict(REMEDY_METHODS[method])
    if options.get("objective") == "surrogate-utility":
        options.update(tau=config.tau_for(metric_name), max_iter=config.max_iter)
    clf = LinearFractionalClassifier(metric=metric_name, random_state=seed, **options).fit(X_train, y_train)
    info = {"iterations": int(clf.n_iter_), "converged": bool(clf.converged_), "threshold": float(clf.threshold_),
            "threshold_cv": clf.threshold_cv_}
    return clf, info


def _finite_or_none(value):
    value = float(value)
    return value if math.isfinite(value) else None


def run_trial(dataset, trial: int, config: ProtocolConfig, *, seed: int = 0) -> dict:
    """One trial on ``dataset`` (an :class:`lfverify.learn.Dataset`): every method and metric of ``config``.

    Returns
    -------
    dict
        A JSON-serialisable record: ``{"dataset", "trial", "n_train", "n_test", "results": {metric: {method:
        {"test": value, ...}}}, "errors": {metric: {method: message}}, "timing": {metric: {method: seconds}}}``.
        A method that raises is recorded under ``errors`` (its message), never as a number.  ``timing`` holds
        the wall time of each method's fit (its validation included, the test predictions not), and under
        ``"erm_start"`` the wall time of the ERM starts U-GD and U-BFGS share; the runner
        stores it apart from the record, which is then the same whoever runs it.
    """
    seq = trial_seed_sequence(seed, dataset.name, trial)
    X, y = dataset.X, dataset.y
    train_idx, test_idx = split_indices(X.shape[0], _TEST_FRACTION, child(seq, 0), y=y)
    X_train, y_train, X_test, y_test = X[train_idx], y[train_idx], X[test_idx], y[test_idx]
    if config.train_size is not None:
        keep = _subsample(X_train.shape[0], config.train_size, child(seq, 3, config.train_size), y_train)
        X_train, y_train = X_train[keep], y_train[keep]
    results = {m: {} for m in config.metrics}
    errors = {m: {} for m in config.metrics}
    timing = {m: {} for m in config.metrics}
    starts = _ERMStarts(X_train, y_train, seq)
    fitted_baselines = {}  # method -> (metric name, fitted ERM / W-ERM / Plug-in): their fits ignore the metric
    for metric_name in config.metrics:
        metric = metric_object(metric_name)
        for method in config.methods:
            start = time.perf_counter()
            try:
                if method in PROPOSED_METHODS:
                    model, info = _fit_proposed(method, metric_name, config, starts)
                elif method in REMEDY_METHODS:
                    model, info = _fit_remedy(method, metric_name=metric_name, config=config, X_train=X_train,
                                              y_train=y_train, seed=child(seq, 2, ALL_METHODS.index(method)))
                elif method in fitted_baselines:  # the first metric's fit, re-selected for this one (no refit)
                    first_metric, fitted, fit_seconds = fitted_baselines[method]
                    model, info = fitted.for_metric(metric), {"fitted_for": first_metric}
                    start -= fit_seconds  # a standalone fit for this metric would have cost the whole fit
                elif method in NONLINEAR_METHODS:
                    model = make_nonlinear_peer(NONLINEAR_METHODS[method], metric,
                                                seed=child(seq, 2, ALL_METHODS.index(method)))
                    model.fit(X_train, y_train)
                    info = {}
                else:
                    model = make_baseline(BASELINE_METHODS[method], metric,
                                          seed=child(seq, 2, ALL_METHODS.index(method)))
                    model.fit(X_train, y_train)
                    info = {}
                    if hasattr(model, "for_metric"):  # not the tuned-threshold peer: its CV scores the metric
                        fitted_baselines[method] = (metric_name, model, time.perf_counter() - start)
                seconds = time.perf_counter() - start
                predicted = np.asarray(model.predict(X_test)) == 1
            except (ValueError, ArithmeticError, np.linalg.LinAlgError) as exc:
                errors[metric_name][method] = f"{type(exc).__name__}: {exc}"
                continue
            timing[metric_name][method] = round(seconds, 4)
            results[metric_name][method] = {"test": _score(metric, y_test, predicted), **info}
    if starts.seconds:
        timing["erm_start"] = {name: round(value, 4) for name, value in starts.seconds.items()}
    return {"dataset": dataset.name, "trial": int(trial), "n_train": int(X_train.shape[0]),
            "n_test": int(X_test.shape[0]), "results": results,
            "errors": {m: e for m, e in errors.items() if e}, "timing": timing}


def run_convergence(dataset, trial: int, *, metrics=METRICS, max_iter: int = 300, learning_rate: float = 0.1,
                    checkpoints=None, seed: int = 0) -> dict:
    """Sec. 6 "Convergence Comparison": U-GD and U-BFGS for ``max_iter`` iterations from theta ~ N(0, I).

    Per method and metric the record holds the training surrogate utility U_hat and the training metric after
    every iteration (Alg. 1's histories), and the *test* metric and the training metric at the ``checkpoints``
    (the iterate of pass k, taken by the optimizer's ``callback`` during the one full run; a run that stopped
    before pass k contributes its last iterate).  The start, the split and the learning rate are shared by both
    methods.
    """

    metrics = check_metric_names(metrics)
    if checkpoints is None:
        checkpoints = convergence_checkpoints(max_iter)
    checkpoints = sorted({int(k) for k in checkpoints if 0 <= int(k) <= max_iter} | {max_iter})
    seq = trial_seed_sequence(seed, dataset.name, trial)
    X, y = dataset.X, dataset.y
    train_idx, test_idx = split_indices(X.shape[0], _TEST_FRACTION, child(seq, 0), y=y)
    Z_train = np.hstack([X[train_idx], np.ones((train_idx.size, 1))])
    Z_test = np.hstack([X[test_idx], np.ones((test_idx.size, 1))])
    theta0 = np.random.default_rng(child(seq, 4)).standard_normal(Z_train.shape[1])
    out = {"dataset": dataset.name, "trial": int(trial), "checkpoints": checkpoints, "results": {}, "timing": {}}
    for metric_name in metrics:
        metric = metric_object(metric_name)
        objective = EmpiricalSurrogateUtility(metric, tau_logistic(PAPER_TAU[metric_name]), Z_train, y[train_idx])
        per_method = {}
        for name, method in PROPOSED_METHODS.items():
            start = time.perf_counter()
            wanted = set(checkpoints)
            iterates = {}

            def keep_checkpoints(t, theta, wanted=wanted, iterates=iterates):
                if t in wanted:
                    iterates[t] = theta

            full = maximize_surrogate_utility(objective, theta0, method=method, learning_rate=learning_rate,
                                              max_iter=max_iter, callback=keep_checkpoints)
            last = int(full.iterations)  # checkpoints after the last pass see the final iterate
            test_curve = [float(metric.score_decision(y[test_idx], Z_test @ iterates.get(min(k, last), full.theta),
                                                      zero_division=0.0)) for k in checkpoints]
            train_curve = [_finite_or_none(full.true_history[min(k, last)]) for k in checkpoints]
            per_method[name] = {
                "surrogate_history": [_finite_or_none(v) for v in full.surrogate_history],
                "train_history": [_finite_or_none(v) for v in full.true_history],
                "test_at_checkpoints": test_curve, "train_at_checkpoints": train_curve,
                "iterations": int(full.iterations),
                "converged": bool(full.converged), "message": str(full.message)}
            out["timing"].setdefault(metric_name, {})[name] = round(time.perf_counter() - start, 4)
        out["results"][metric_name] = per_method
    return out


def convergence_checkpoints(max_iter: int) -> list:
    """Iterations at which the convergence study scores the test set: dense early, sparse late."""
    base = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250, 300]
    return sorted({k for k in base if k <= max_iter} | {max_iter})
