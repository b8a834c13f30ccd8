"""The remedy around a random forest with out-of-bag levels (``cv="oob"``) against its 5 folds and
TunedThresholdClassifierCV of the same forest, in one run (issue 42, item 3's cost goal).

``MetricOptimalClassifier(B)`` with 5 folds and 2 levels makes 11 fits of B (10.1-11.5x the plain fit in
``nonlinear_peers.py``; goal <= 3x).  For a bagging learner each level's held-out scores can instead be its
out-of-bag scores: one fit on every row per level, the kept one being the final model.  This script measures
whether that loses anything.  On App. C.1's 8:2 split of each staged data set (the training part optionally cut to
``--max-train`` rows), per trial and metric: B = ``RandomForestClassifier(n_estimators=100, min_samples_leaf=5)``
(as ``nonlinear_peers.py``), ``TunedThresholdClassifierCV(B, scoring=<metric>)``, ``MetricOptimalClassifier(B,
metric)`` (5 folds) and ``MetricOptimalClassifier(B, metric, cv="oob")``, each scored on the test part; the fit time
of each over the plain forest's on the same split (median over trials).  Verdicts: the one-sided Welch test
(``one_sided_p_value``) of the out-of-bag remedy against each of the two others at alpha = 0.05, either way (a 5 %
false-alarm rate per cell and direction when the two are equal).  Seeding as ``nonlinear_peers.py`` (its SEED, its
``child(root, data set, trial)``), every fit on one thread.

Usage::

    python benchmarks/out_of_bag_remedy.py --trials 5 --max-train 5000     # what was run here
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from data_splits import eight_two_split  # benchmarks/data_splits.py
from nonlinear_peers import SEED, _base, _score_function, _tuned  # benchmarks/nonlinear_peers.py
from threadpoolctl import threadpool_limits

from lfverify.core import child, int_seed
from lfverify.experiments._statistics import one_sided_p_value
from lfverify.io import write_text_atomically
from lfverify.learn import MetricOptimalClassifier, available_datasets

OUT = Path(__file__).with_name("results") / "out_of_bag_remedy"
ALPHA = 0.05
METHODS = ("RF", "RF+tuned", "RF+remedy (5 folds)", "RF+remedy (oob)")


def run_task(name: str, index: int, trial: int, metrics, max_train) -> dict:
    """The four methods on one split: {"dataset", "trial", "test": {metric: {method: value}}, "seconds": ...}."""
    seed = int_seed(child(np.random.SeedSequence(SEED), index, trial))
    X_train, y_train, X_test, y_test = eight_two_split(name, seed, max_train)
    test, seconds = {m: {} for m in metrics}, {m: {} for m in metrics}

    def fit(model):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a forest's 'some inputs do not have OOB scores': rows left out
            model.fit(X_train, y_train)
        return model, time.perf_counter() - start

    with threadpool_limits(1):
        plain = fit(_base("RF", seed))
        for metric in metrics:
            models = {"RF": plain, "RF+tuned": fit(_tuned(_base("RF", seed), metric, seed)),
                      "RF+remedy (5 folds)": fit(MetricOptimalClassifier(_base("RF", seed), metric,
                                                                         random_state=seed)),
                      "RF+remedy (oob)": fit(MetricOptimalClassifier(_base("RF", seed), metric, cv="oob",
                                                                     random_state=seed))}
            for method, (model, s) in models.items():
                test[metric][method] = float(_score_function(metric)(y_test, model.predict(X_test)))
                seconds[metric][method] = s
    return {"dataset": name, "trial": trial, "n_train": int(y_train.size), "test": test, "seconds": seconds}


def _verdict(ours, other) -> str:
    below, above = one_sided_p_value(other, ours), one_sided_p_value(ours, other)
    return ("below" if below is not None and below < ALPHA else "above" if above is not None and above < ALPHA
            else "tie")


def summarize(records, metrics) -> list[dict]:
    rows = []
    for name in sorted({r["dataset"] for r in records}):
        mine = [r for r in records if r["dataset"] == name]
        for metric in metrics:
            values = {m: [r["test"][metric][m] for r in mine] for m in METHODS}
            ratio = {m: statistics.median(r["seconds"][metric][m] / r["seconds"][metric]["RF"] for r in mine)
                     for m in METHODS[1:]}
            rows.append({"dataset": name, "metric": metric, "trials": len(mine),
                         "mean": {m: statistics.fmean(v) for m, v in values.items()},
                         "vs_tuned": _verdict(values["RF+remedy (oob)"], values["RF+tuned"]),
                         "vs_folds": _verdict(values["RF+remedy (oob)"], values["RF+remedy (5 folds)"]),
                         "time_ratio": ratio})
    return rows


def markdown(rows, settings) -> str:
    count = {k: {v: sum(r[k] == v for r in rows) for v in ("below", "tie", "above")} for k in ("vs_tuned", "vs_folds")}
    cost = {m: statistics.median(r["time_ratio"][m] for r in rows) for m in METHODS[1:]}
    lines = ["# The remedy around a random forest: out-of-bag levels", "",
             f"Generated by `python benchmarks/out_of_bag_remedy.py {settings['argv']}` ({settings['trials']} trials, "
             f"metrics {', '.join(settings['metrics'])}, training rows cut to {settings['max_train'] or 'all'}; "
             f"{settings['fit_seconds']:.0f} s of fits on one thread).", "",
             f"Out-of-bag remedy against `TunedThresholdClassifierCV(RF)`, one-sided Welch at {ALPHA}: "
             f"{count['vs_tuned']['below']} cells below, {count['vs_tuned']['tie']} not significantly different, "
             f"{count['vs_tuned']['above']} above (of {len(rows)}); against the 5-fold remedy: "
             f"{count['vs_folds']['below']} below, {count['vs_folds']['tie']} not different, "
             f"{count['vs_folds']['above']} above.", "",
             "Fit time over the plain forest's, median over the cells: " +
             ", ".join(f"{m} {cost[m]:.1f}x" for m in METHODS[1:]) + " (issue 42's goal for the remedy: <= 3x).", "",
             "| data set | metric | " + " | ".join(METHODS) + " | oob vs tuned | oob vs folds | " +
             " | ".join(f"time {m}/RF" for m in METHODS[1:]) + " |",
             "|" + "---|" * (2 + len(METHODS) + 2 + len(METHODS) - 1)]
    for r in rows:
        lines.append(f"| {r['dataset']} | {r['metric']} | " + " | ".join(f"{r['mean'][m]:.3f}" for m in METHODS) +
                     f" | {r['vs_tuned']} | {r['vs_folds']} | " +
                     " | ".join(f"{r['time_ratio'][m]:.1f}" for m in METHODS[1:]) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=None, help="default: every staged data set")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--metrics", nargs="+", default=["f1", "jaccard"], choices=("f1", "jaccard", "f0.5", "f2"))
    parser.add_argument("--max-train", type=int, default=None)
    args = parser.parse_args(argv)
    if args.trials < 2 or (args.max_train is not None and args.max_train < 10):
        parser.error("--trials must be >= 2, --max-train >= 10")
    every = available_datasets()
    names = args.datasets or every
    unknown = [n for n in names if n not in every]
    if unknown:
        parser.error(f"--datasets: not staged here: {unknown}; staged: {every}")
    records, start = [], time.perf_counter()
    tasks = [(n, every.index(n), t) for n in names for t in range(args.trials)]
    for done, (name, index, trial) in enumerate(tasks, 1):
        records.append(run_task(name, index, trial, args.metrics, args.max_train))
        print(f"[{done}/{len(tasks)}] {name} trial {trial} ({time.perf_counter() - start:.0f} s)", flush=True)
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "trials": args.trials,
                "metrics": args.metrics, "max_train": args.max_train, "seed": SEED,
                "fit_seconds": sum(sum(m.values()) for r in records for m in r["seconds"].values())}
    rows = summarize(records, args.metrics)
    OUT.parent.mkdir(exist_ok=True)
    write_text_atomically(OUT.with_suffix(".json"), json.dumps({"settings": settings, "rows": rows,
                                                                "records": records}, indent=1))
    write_text_atomically(OUT.with_suffix(".md"), markdown(rows, settings))
    print("\n".join(markdown(rows, settings).split("\n")[4:8]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
