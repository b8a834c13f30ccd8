"""The remedy's cheap settings against its 5 folds and TunedThresholdClassifierCV of the same ensemble, in one run
(issue 42, item 3's cost goal: the remedy's fit <= 3x the base learner's own).

``MetricOptimalClassifier(B)`` with 5 folds and 2 levels makes 11 fits of B (10.1-11.5x the plain fit in
``nonlinear_peers.py``).  The cheap settings measured here, per base learner (``--base``):

* RF = ``RandomForestClassifier(n_estimators=100, min_samples_leaf=5)``: ``cv="oob"``, each level's held-out scores
  are its out-of-bag scores, one fit on every row per level, the kept one being the final model (2 fits);
* HGB = ``HistGradientBoostingClassifier()``: ``cv=2`` (two levels of two half-sample fits and the final fit), and
  ``cv=2, max_level_iter=1`` (one level at equal class weights: the base learner's own fits, the exact threshold of
  their held-out scores; no reweighting); and beside them HGB(class_weight="balanced"), one weighted fit of the
  base learner (its time is what any weighted fit costs: scikit-learn 1.9's HistGradientBoostingClassifier bins
  by weighted percentiles when it is given weights).

On App. C.1's 8:2 split of each staged data set (the training part optionally cut to ``--max-train`` rows), per
trial and metric: B, ``TunedThresholdClassifierCV(B, scoring=<metric>)``, ``MetricOptimalClassifier(B, metric)``
(5 folds) and the cheap settings, each scored on the test part; the fit time of each over the plain B's on the same
split (median over trials).  Verdicts: the one-sided Welch test (``one_sided_p_value``) of each cheap setting against
the tuned peer and against the 5-fold remedy at alpha = 0.05, either way (a 5 % false-alarm rate per cell and
direction when the two are equal).  Seeding as ``nonlinear_peers.py`` (its SEED, its ``child(root, data set,
trial)``), every fit on one thread, tasks in ``--workers`` processes (resumed from ``--work``).

Usage::

    python benchmarks/out_of_bag_remedy.py --trials 5 --max-train 2000                  # RF, what was run here
    python benchmarks/out_of_bag_remedy.py --base HGB --trials 5 --max-train 5000       # HGB, what was run here
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from nonlinear_peers import (  # benchmarks/nonlinear_peers.py
    ALPHA,
    SEED,
    SEEDING_ORDER,
    _base,
    _score_function,
    _tuned,
    run_resumable,
    split_and_fitter,
    welch_verdict,
)
from threadpoolctl import threadpool_limits

from lfverify.io import settings_fingerprint, write_text_atomically
from lfverify.learn import MetricOptimalClassifier, available_datasets

RESULTS = Path(__file__).with_name("results")

#: Per base learner: where its tables go, their title, the plain fit's noun, the cheap settings measured (method
#: name -> MetricOptimalClassifier's keyword arguments) and further variants of the base learner itself (method
#: name -> its parameters), timed and scored beside them.
BASES = {
    "RF": {"out": "out_of_bag_remedy", "title": "The remedy around a random forest: out-of-bag levels",
           "noun": "forest", "cheap": {"RF+remedy (oob)": {"cv": "oob"}}, "variants": {}},
    "HGB": {"out": "two_fold_remedy", "title": "The remedy around gradient boosting: two folds",
            "noun": "gradient boosting", "cheap": {"HGB+remedy (2 folds)": {"cv": 2},
                                                   "HGB+remedy (2 folds, 1 level)": {"cv": 2, "max_level_iter": 1}},
            "variants": {"HGB(balanced)": {"class_weight": "balanced"}}},
}


def methods(base: str) -> tuple[str, ...]:
    """The methods of ``base``'s table: plain, tuned, the 5-fold remedy, its cheap settings, its variants."""
    return (base, f"{base}+tuned", f"{base}+remedy (5 folds)", *BASES[base]["cheap"], *BASES[base]["variants"])


def run_task(name: str, index: int, trial: int, metrics, max_train, base: str = "RF") -> dict:
    """Every method of ``base`` on one split: {"dataset", "trial", "n_train", "test": {metric: {method: value}},
    "seconds": {metric: {method: s}}}."""
    seed, _, y_train, X_test, y_test, fit = split_and_fitter(name, index, trial, max_train)
    test, seconds = {m: {} for m in metrics}, {m: {} for m in metrics}
    variants = {}  # (fitted once, scored on every metric, as the plain base learner)
    with threadpool_limits(1):
        plain = fit(_base(base, seed))
        for metric in metrics:
            models = {base: plain, f"{base}+tuned": fit(_tuned(_base(base, seed), metric, seed)),
                      f"{base}+remedy (5 folds)": fit(MetricOptimalClassifier(_base(base, seed), metric,
                                                                              random_state=seed))}
            for method, options in BASES[base]["cheap"].items():
                models[method] = fit(MetricOptimalClassifier(_base(base, seed), metric, random_state=seed,
                                                             **options))
            for method, params in BASES[base]["variants"].items():
                if method not in variants:
                    variants[method] = fit(_base(base, seed).set_params(**params))
                models[method] = variants[method]
            for method, (model, s) in models.items():
                test[metric][method] = float(_score_function(metric)(y_test, model.predict(X_test)))
                seconds[metric][method] = s
    return {"dataset": name, "trial": trial, "n_train": int(y_train.size), "test": test, "seconds": seconds}


def summarize(records, metrics, base: str = "RF") -> list[dict]:
    """Per data set and metric: each method's mean, each cheap setting's verdicts against the tuned peer and the
    5-fold remedy, and each method's median fit-time ratio to the plain base learner."""
    names = methods(base)
    rows = []
    for name in sorted({r["dataset"] for r in records}):
        mine = [r for r in records if r["dataset"] == name]
        for metric in metrics:
            values = {m: [r["test"][metric][m] for r in mine] for m in names}
            ratio = {m: statistics.median(r["seconds"][metric][m] / r["seconds"][metric][base] for r in mine)
                     for m in names[1:]}
            rows.append({"dataset": name, "metric": metric, "trials": len(mine),
                         "mean": {m: statistics.fmean(v) for m, v in values.items()},
                         "verdicts": {m: {"vs_tuned": welch_verdict(values[m], values[names[1]]),
                                          "vs_folds": welch_verdict(values[m], values[names[2]])}
                                      for m in BASES[base]["cheap"]},
                         "time_ratio": ratio})
    return rows


def markdown(rows, settings) -> str:
    base = settings.get("base", "RF")
    names, spec = methods(base), BASES[base]
    cost = {m: statistics.median(r["time_ratio"][m] for r in rows) for m in names[1:]}
    lines = [f"# {spec['title']}", "",
             f"Generated by `python benchmarks/out_of_bag_remedy.py {settings['argv']}` ({settings['trials']} trials, "
             f"metrics {', '.join(settings['metrics'])}, training rows cut to {settings['max_train'] or 'all'}; "
             f"{settings['fit_seconds']:.0f} s of fits on one thread).", ""]
    cheap = tuple(spec["cheap"])
    for m in cheap:
        count = {k: {v: sum(r["verdicts"][m][k] == v for r in rows) for v in ("below", "tie", "above")}
                 for k in ("vs_tuned", "vs_folds")}
        lines += [f"{m} against `TunedThresholdClassifierCV({base})`, one-sided Welch at {ALPHA}: "
                  f"{count['vs_tuned']['below']} cells below, {count['vs_tuned']['tie']} not significantly "
                  f"different, {count['vs_tuned']['above']} above (of {len(rows)}); against the 5-fold remedy: "
                  f"{count['vs_folds']['below']} below, {count['vs_folds']['tie']} not different, "
                  f"{count['vs_folds']['above']} above.", ""]
    lines += [f"Fit time over the plain {spec['noun']}'s, median over the cells: " +
              ", ".join(f"{m} {cost[m]:.1f}x" for m in names[1:]) + " (issue 42's goal for the remedy: <= 3x).", "",
              "| data set | metric | " + " | ".join(names) + " | " +
              " | ".join(f"{m} vs tuned | {m} vs folds" for m in cheap) + " | " +
              " | ".join(f"time {m}/{base}" for m in names[1:]) + " |",
              "|" + "---|" * (2 + len(names) + 2 * len(cheap) + len(names) - 1)]
    for r in rows:
        lines.append(f"| {r['dataset']} | {r['metric']} | " + " | ".join(f"{r['mean'][m]:.3f}" for m in names) +
                     " | " + " | ".join(f"{r['verdicts'][m]['vs_tuned']} | {r['verdicts'][m]['vs_folds']}"
                                        for m in cheap) + " | " +
                     " | ".join(f"{r['time_ratio'][m]:.1f}" for m in names[1:]) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", choices=tuple(BASES), default="RF")
    parser.add_argument("--datasets", nargs="+", default=None, help="default: every staged data set")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--metrics", nargs="+", default=["f1", "jaccard"], choices=("f1", "jaccard", "f0.5", "f2"))
    parser.add_argument("--max-train", type=int, default=None)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--task-timeout", type=float, default=3600.0, help="seconds allowed per (data set, trial)")
    parser.add_argument("--work", type=Path, default=Path(__file__).with_name(".work") / "out_of_bag_remedy")
    args = parser.parse_args(argv)
    if args.trials < 2 or args.workers < 1 or (args.max_train is not None and args.max_train < 10):
        parser.error("--trials must be >= 2, --workers >= 1, --max-train >= 10")
    every = available_datasets()
    names = args.datasets or every
    unknown = [n for n in names if n not in every]
    if unknown:
        parser.error(f"--datasets: not staged here: {unknown}; staged: {every}")
    key = settings_fingerprint({"seed": SEED, "base": args.base, "cheap": BASES[args.base]["cheap"],
                               "variants": BASES[args.base]["variants"],
                               "metrics": args.metrics, "max_train": args.max_train, "v": 1})[:12]
    records = run_resumable(run_task, [(n, SEEDING_ORDER.index(n), t) for n in names for t in range(args.trials)],
                            (args.metrics, args.max_train, args.base), work=args.work, key=key,
                            workers=args.workers, task_timeout=args.task_timeout)
    records.sort(key=lambda r: (r["dataset"], r["trial"]))
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "trials": args.trials,
                "metrics": args.metrics, "max_train": args.max_train, "seed": SEED, "base": args.base,
                "workers": args.workers,
                "fit_seconds": sum(sum(m.values()) for r in records for m in r["seconds"].values())}
    rows = summarize(records, args.metrics, args.base)
    out = RESULTS / BASES[args.base]["out"]
    out.parent.mkdir(exist_ok=True)
    write_text_atomically(out.with_suffix(".json"), json.dumps({"settings": settings, "rows": rows,
                                                                "records": records}, indent=1))
    write_text_atomically(out.with_suffix(".md"), markdown(rows, settings))
    print("\n".join(markdown(rows, settings).split("\n")[4:4 + 2 * len(BASES[args.base]["cheap"]) + 1]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
