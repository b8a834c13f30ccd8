"""Which estimator, with nonlinear peers: the remedy around tree ensembles against TunedThresholdClassifierCV of the
same base learner, in one run (issue 42, items 1 and 3).

For each staged data set, trial and metric, on App. C.1's 8:2 split (``data_splits.eight_two_split``; the training
part optionally cut to ``--max-train`` rows of its random order), every method is fitted on the training part and
scored on the test part (scikit-learn's ``f1_score`` / ``fbeta_score`` / ``jaccard_score``, ``zero_division=0``):

* for each base learner B in {HistGradientBoostingClassifier(), RandomForestClassifier(n_estimators=100,
  min_samples_leaf=5)} (each with the split's ``random_state``): B plain (fitted once, scored on every metric),
  ``TunedThresholdClassifierCV(B, scoring=<metric>)`` (scikit-learn's defaults: 5 folds, 100 thresholds) and
  ``MetricOptimalClassifier(B, metric)`` (lfverify's defaults: 5 folds, 2 levels);
* the linear context: ``LinearFractionalClassifier(metric)`` (the default) and
  ``TunedThresholdClassifierCV(LogisticRegression(max_iter=1000), scoring=<metric>)``.

Per data set, metric and base: the mean test metric of each method over the trials; "below" / "above" = the
one-sided Welch test (``lfverify.experiments._statistics.one_sided_p_value``) of the remedy against the tuned peer of
the same base rejects at alpha = 0.05 (a false-alarm rate of 5 % per cell when the two are equal, so among 68 cells
about 3 "below" or "above" are expected by chance); the fit time of each method over the plain base learner's on the
same split (median over trials).  Every fit runs on one thread (threadpoolctl), tasks in ``--workers`` processes.

Seeding: ``root = SeedSequence(SEED)``; data set i (its place in ``SEEDING_ORDER``, Table 3's staged data sets
whether present or not), trial t: ``child(root, i, t)``; its ``int_seed`` draws the split and is every method's
``random_state``.

Usage::

    python benchmarks/nonlinear_peers.py                                   # 17 data sets x 20 trials x 4 metrics
    python benchmarks/nonlinear_peers.py --trials 5 --metrics f1 jaccard --max-train 10000   # what was run here

Each finished (data set, trial) is written atomically to ``--work`` (resumed from there; the settings are part of
its name); the tables go to ``--out`` + ``.json`` / ``.md`` (default ``benchmarks/results/nonlinear_peers``, the
committed tables: a trial run elsewhere names another ``--out``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np
from data_splits import eight_two_split  # benchmarks/data_splits.py
from threadpoolctl import threadpool_limits

from lfverify.core import child, int_seed
from lfverify.experiments._statistics import one_sided_p_value
from lfverify.io import settings_fingerprint, write_text_atomically
from lfverify.learn import STAGED_DATASETS, LinearFractionalClassifier, MetricOptimalClassifier, available_datasets

SEED = 20261206
#: Data set i of the seeding rule is the i-th of Table 3's staged data sets, whichever of them are present here.
SEEDING_ORDER = tuple(STAGED_DATASETS)
METRICS = ("f1", "jaccard", "f0.5", "f2")
BASES = ("HGB", "RF")
OUT = Path(__file__).with_name("results") / "nonlinear_peers"
ALPHA = 0.05


def _base(name: str, seed: int):
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

    if name == "HGB":
        return HistGradientBoostingClassifier(random_state=seed)
    return RandomForestClassifier(n_estimators=100, min_samples_leaf=5, random_state=seed, n_jobs=1)


def _score_function(metric: str):
    from sklearn.metrics import fbeta_score, jaccard_score

    if metric == "jaccard":
        return lambda y, p: jaccard_score(y, p, zero_division=0)
    beta = 1.0 if metric == "f1" else float(metric[1:])
    return lambda y, p: fbeta_score(y, p, beta=beta, zero_division=0)


def _tuned(base, metric: str, seed: int):
    from sklearn.metrics import make_scorer
    from sklearn.model_selection import TunedThresholdClassifierCV

    return TunedThresholdClassifierCV(base, scoring=make_scorer(_score_function(metric)), random_state=seed)


def split_and_fitter(name: str, index: int, trial: int, max_train):
    """The split of (data set ``index``, ``trial``) and a timed fit on its training part (shared with
    out_of_bag_remedy.py): (seed, X_train, y_train, X_test, y_test, fit), ``fit(model)`` -> (the fitted model, its
    seconds), with warnings silenced (convergence, fit quality, a forest's rows without out-of-bag scores: the
    scores say what matters)."""
    seed = int_seed(child(np.random.SeedSequence(SEED), index, trial))
    X_train, y_train, X_test, y_test = eight_two_split(name, seed, max_train)
    return seed, X_train, y_train, X_test, y_test, timed_fitter(X_train, y_train)


def timed_fitter(X_train, y_train):
    """``fit(model)`` -> (the model fitted on X_train, y_train, its seconds), with warnings silenced (shared with
    ensemble_regimes.py)."""
    def fit(model):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X_train, y_train)
        return model, time.perf_counter() - start

    return fit


def welch_verdict(ours, other) -> str:
    """"below" / "above" where the one-sided Welch test of ``other`` > ``ours`` / ``ours`` > ``other`` rejects at
    ALPHA, else "tie"."""
    below, above = one_sided_p_value(other, ours), one_sided_p_value(ours, other)
    return ("below" if below is not None and below < ALPHA else "above" if above is not None and above < ALPHA
            else "tie")


def run_task(name: str, index: int, trial: int, metrics, max_train) -> dict:
    """Every method of the module docstring on one split: {"dataset", "trial", "n_train", "test": {metric:
    {method: value}}, "seconds": {metric: {method: s}}}."""
    from sklearn.linear_model import LogisticRegression

    seed, X_train, y_train, X_test, y_test, fit = split_and_fitter(name, index, trial, max_train)
    test, seconds = {m: {} for m in metrics}, {m: {} for m in metrics}

    with threadpool_limits(1):
        plain = {base: fit(_base(base, seed)) for base in BASES}
        for metric in metrics:
            score = _score_function(metric)
            models = {}
            for base in BASES:
                models[base] = plain[base]
                models[f"{base}+tuned"] = fit(_tuned(_base(base, seed), metric, seed))
                models[f"{base}+remedy"] = fit(MetricOptimalClassifier(_base(base, seed), metric, random_state=seed))
            models["Linear default"] = fit(LinearFractionalClassifier(metric=metric, random_state=seed))
            models["LogReg+tuned"] = fit(_tuned(LogisticRegression(max_iter=1000), metric, seed))
            for method, (model, s) in models.items():
                test[metric][method] = float(score(y_test, model.predict(X_test)))
                seconds[metric][method] = round(s, 4)
    return {"dataset": name, "trial": trial, "n_train": int(y_train.size), "test": test, "seconds": seconds}


def summarize(records, metrics) -> dict:
    """Per data set, metric and base: means, standard errors, the remedy's verdict against the tuned peer, and
    the median fit-time ratios to the plain base learner."""
    rows = []
    for name in sorted({r["dataset"] for r in records}):
        mine = [r for r in records if r["dataset"] == name]
        for metric in metrics:
            for base in BASES:
                values = {m: [r["test"][metric][m] for r in mine]
                          for m in (base, f"{base}+tuned", f"{base}+remedy", "Linear default", "LogReg+tuned")}
                ratios = {m: statistics.median(r["seconds"][metric][m] / r["seconds"][metric][base] for r in mine)
                          for m in (f"{base}+tuned", f"{base}+remedy")}
                remedy, tuned = values[f"{base}+remedy"], values[f"{base}+tuned"]
                rows.append({"dataset": name, "metric": metric, "base": base, "trials": len(mine),
                             "mean": {m: statistics.fmean(v) for m, v in values.items()},
                             "se": {m: (statistics.stdev(v) / len(v) ** 0.5 if len(v) > 1 else None)
                                    for m, v in values.items()},
                             "verdict": welch_verdict(remedy, tuned), "p_below": one_sided_p_value(tuned, remedy),
                             "p_above": one_sided_p_value(remedy, tuned), "time_ratio": ratios})
    return {"rows": rows, "classes": _model_classes(records, metrics)}


#: The tree-ensemble methods a user would pick for a metric (the base learner with the metric's threshold).
_TREE_METHODS = ("HGB+tuned", "HGB+remedy", "RF+tuned", "RF+remedy")


def _model_classes(records, metrics) -> list[dict]:
    """Per data set and metric: the best tree-ensemble method (highest mean) against the linear default, with the
    one-sided Welch verdict at ALPHA either way (which model class wins there)."""
    out = []
    for name in sorted({r["dataset"] for r in records}):
        mine = [r for r in records if r["dataset"] == name]
        for metric in metrics:
            values = {m: [r["test"][metric][m] for r in mine] for m in (*_TREE_METHODS, "Linear default")}
            tree = max(_TREE_METHODS, key=lambda m: statistics.fmean(values[m]))
            linear = values["Linear default"]
            winner = {"above": "trees", "below": "linear", "tie": "tie"}[welch_verdict(values[tree], linear)]
            out.append({"dataset": name, "metric": metric, "tree_method": tree,
                        "tree_mean": statistics.fmean(values[tree]), "linear_mean": statistics.fmean(linear),
                        "difference": statistics.fmean(values[tree]) - statistics.fmean(linear), "winner": winner})
    return out


def markdown(summary: dict, settings: dict) -> str:
    rows = summary["rows"]
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("below", "tie", "above")}
    lines = ["# Nonlinear peers: the remedy around tree ensembles against TunedThresholdClassifierCV", "",
             f"Generated by `python benchmarks/nonlinear_peers.py {settings['argv']}` "
             f"({settings['trials']} trials, metrics {', '.join(settings['metrics'])}, training rows cut to "
             f"{settings['max_train'] or 'all'}; the fits took {settings['fit_seconds']:.0f} s in all, on one thread "
             "each).", "",
             f"Remedy (`MetricOptimalClassifier(B)`) against `TunedThresholdClassifierCV(B)` of the same base, "
             f"one-sided "
             f"Welch at {ALPHA}: {counts['below']} cells below, {counts['tie']} not significantly different, "
             f"{counts['above']} above (of {len(rows)}).", "",
             "| data set | metric | base | B | B+tuned | B+remedy | verdict | linear default | LogReg+tuned | "
             "time tuned/B | time remedy/B |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for base in BASES:
        mine = [r for r in rows if r["base"] == base]
        tuned = statistics.median(r["time_ratio"][f"{base}+tuned"] for r in mine)
        remedy = statistics.median(r["time_ratio"][f"{base}+remedy"] for r in mine)
        lines.insert(6, f"Fit time over the plain {base} fit, median over its cells: tuned {tuned:.1f}x, remedy "
                        f"{remedy:.1f}x (issue 42's goal for the remedy: <= 3x).")
    lines.insert(6 + len(BASES), "")
    classes = summary["classes"]
    wins = {w: sum(c["winner"] == w for c in classes) for w in ("trees", "tie", "linear")}
    lines[6:6] = [f"Model class (the best of the four tree-ensemble methods with the metric's threshold - the best "
                  f"of four, so "
                  f"slightly favoured - against "
                  f"`LinearFractionalClassifier()`, one-sided Welch at {ALPHA}): trees above in {wins['trees']} of "
                  f"{len(classes)} (data set, metric) cells, the linear default above in {wins['linear']}, "
                  f"{wins['tie']} not significantly different.", "",
                  "| data set | metric | best tree method | its mean | linear default | difference | above |",
                  "|---|---|---|---|---|---|---|",
                  *(f"| {c['dataset']} | {c['metric']} | {c['tree_method']} | {c['tree_mean']:.3f} | "
                    f"{c['linear_mean']:.3f} | {c['difference']:+.3f} | {c['winner']} |" for c in classes), ""]
    for r in rows:
        b = r["base"]
        m = r["mean"]
        lines.append(f"| {r['dataset']} | {r['metric']} | {b} | {m[b]:.3f} | {m[b + '+tuned']:.3f} | "
                     f"{m[b + '+remedy']:.3f} | {r['verdict']} | {m['Linear default']:.3f} | "
                     f"{m['LogReg+tuned']:.3f} | {r['time_ratio'][b + '+tuned']:.1f} | "
                     f"{r['time_ratio'][b + '+remedy']:.1f} |")
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=1)
def committed_by_split(records_path: str) -> dict:
    """(record's "dataset", its "trial") -> the record, of the results file ``records_path`` (shared with
    remedy_levels.py and regime_model_class.py, which refit on a committed run's splits), read once per process."""
    return {(r["dataset"], r["trial"]): r
            for r in json.loads(Path(records_path).read_text(encoding="utf-8"))["records"]}


def run_resumable(task, tasks, extra, *, work: Path, key: str, workers: int, task_timeout: float) -> list[dict]:
    """Run ``task(name, index, trial, *extra)`` for each (name, index, trial) of ``tasks`` in ``workers`` processes
    (shared with out_of_bag_remedy.py and ensemble_regimes.py), each finished record written atomically to ``work``
    under ``key`` and read back from there by a later run with the same key; every record, read back or new."""
    work.mkdir(parents=True, exist_ok=True)
    records, todo = [], []
    for name, index, trial in tasks:
        path = work / f"{key}-{name}-{trial}.json"
        if path.exists():
            records.append(json.loads(path.read_text(encoding="utf-8")))
        else:
            todo.append((name, index, trial, path))
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(task, n, i, t, *extra): (n, t, p) for n, i, t, p in todo}
        for done, future in enumerate(as_completed(futures, timeout=task_timeout * max(1, len(todo))), 1):
            name, trial, path = futures[future]
            record = future.result()
            write_text_atomically(path, json.dumps(record))
            records.append(record)
            print(f"[{done}/{len(todo)}] {name} trial {trial} ({time.perf_counter() - start:.0f} s)", flush=True)
    return records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=None, help="default: every staged data set")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--metrics", nargs="+", default=list(METRICS), choices=METRICS)
    parser.add_argument("--max-train", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--task-timeout", type=float, default=3600.0, help="seconds allowed per (data set, trial)")
    parser.add_argument("--work", type=Path, default=Path(__file__).with_name(".work") / "nonlinear_peers")
    parser.add_argument("--out", type=Path, default=OUT, help="the tables' path without suffix: OUT.json and OUT.md "
                        f"(default {OUT.relative_to(OUT.parents[2])}, the committed tables)")
    args = parser.parse_args(argv)
    if args.trials < 2 or args.workers < 1 or (args.max_train is not None and args.max_train < 10):
        parser.error("--trials must be >= 2, --workers >= 1, --max-train >= 10")
    names = args.datasets or available_datasets()
    every = available_datasets()
    unknown = [n for n in names if n not in every]
    if unknown:
        parser.error(f"--datasets: not staged here: {unknown}; staged: {every}")
    key = settings_fingerprint({"seed": SEED, "metrics": args.metrics, "max_train": args.max_train, "v": 1})[:12]
    start = time.perf_counter()
    records = run_resumable(run_task, [(n, SEEDING_ORDER.index(n), t) for n in names for t in range(args.trials)],
                            (args.metrics, args.max_train), work=args.work, key=key, workers=args.workers,
                            task_timeout=args.task_timeout)
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "trials": args.trials,
                "metrics": args.metrics, "max_train": args.max_train, "workers": args.workers,
                "seconds": time.perf_counter() - start, "seed": SEED}
    # the fits' own time (a resumed run's wall time would leave out the tasks read back)
    settings["fit_seconds"] = sum(sum(m.values()) for r in records for m in r["seconds"].values())
    summary = summarize(sorted(records, key=lambda r: (r["dataset"], r["trial"])), args.metrics)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(args.out.with_suffix(".json"), json.dumps({"settings": settings, **summary,
                                                                     "records": records}, indent=1))
    write_text_atomically(args.out.with_suffix(".md"), markdown(summary, settings))
    print(markdown(summary, settings).split("\n\n")[2])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
