"""The remedy around gradient boosting against TunedThresholdClassifierCV of the same learner across the regimes
benchmark's cells (issue 42, item 3: "the regime sweep", and its "Done when": not significantly below in any
regime cell for F_1 and Jaccard).

The cells, populations and samples are drawn by ``estimator_regimes.py``'s generator (its ``Problem``,
``axis_cells``, ``test_size``, ``scale`` and seeding rule: cell ``child(root, *text_key(cell key))``, problem
``child(cell, 0)``, split k ``child(cell, 1, k)`` with children 0 / 1 / 2 for the training sample, the test sample
and every method's ``random_state``), around a smaller base cell than that script's: n = 5,000 training rows
(``BASE_N``; a weighted fit of scikit-learn 1.9's HistGradientBoostingClassifier costs about 10x its unweighted
fit at n = 20,000, d = 20, which would make the full sweep take hours here), d = 20, prior 0.1, flip 0.05,
Gaussian features; the axes ``prior``, ``flip``, ``features`` and ``minority`` as in that script, without its sparse
feature family (gradient boosting takes no sparse input, and a weighted fit on its d = 1,000 columns made dense
would cost minutes).  The generator is a linear-logistic
model, so this sweep asks how the two threshold rules compare around one flexible learner, not which model class
wins (``nonlinear_peers.py`` does that on the staged data sets).

Methods, for HGB = ``HistGradientBoostingClassifier(random_state=seed)``: HGB plain (fitted once, scored on every
metric), ``TunedThresholdClassifierCV(HGB, scoring=<metric>)``, ``MetricOptimalClassifier(HGB, metric)`` (5 folds,
2 levels), ``MetricOptimalClassifier(HGB, metric, cv=2)`` and ``MetricOptimalClassifier(HGB, metric,
max_level_iter=1)`` (5 folds, one level at equal class weights: the exact threshold without reweighting, which tells
the reweighting's part from the threshold's).  Metrics F_1 and Jaccard of the test sample
(``estimator_regimes.metric_score``).  Per cell and metric: each method's mean; the one-sided Welch test
(``one_sided_p_value``) of each remedy against the tuned peer at alpha = 0.05 either way (a 5 % false-alarm rate
per cell and direction when the two are equal); the median over splits of each method's fit time over the plain
fit's.  Every fit on one thread; (cell, split) tasks in ``--workers`` processes, each finished one written to
``--work`` and read back by a later run with the same settings.

Usage::

    python benchmarks/ensemble_regimes.py --splits 5        # what was run here (about an hour on 2 cores)
    python benchmarks/ensemble_regimes.py --quick           # the regimes script's small plan, 2 splits (a smoke test)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import estimator_regimes as regimes  # benchmarks/estimator_regimes.py
from nonlinear_peers import _tuned, run_resumable, timed_fitter, welch_verdict  # benchmarks/nonlinear_peers.py
from threadpoolctl import threadpool_limits

from lfverify.core._seeding import child
from lfverify.io import settings_fingerprint, write_text_atomically
from lfverify.learn import MetricOptimalClassifier

OUT = Path(__file__).with_name("results") / "ensemble_regimes"
BASE_N = 5_000
AXES = ("prior", "flip", "features", "minority")
METRICS = ("f1", "jaccard")
METHODS = ("HGB", "HGB+tuned", "HGB+remedy (5 folds)", "HGB+remedy (2 folds)", "HGB+remedy (5 folds, 1 level)")
REMEDIES = METHODS[2:]


FEATURES = ("gaussian", "student_t2", "redundant")


def plan(quick: bool) -> dict:
    """The regimes script's plan (its QUICK plan with ``--quick``; the full one around n = BASE_N), dense feature
    families only."""
    base = regimes.QUICK if quick else {**regimes.FULL, "base": {**regimes.FULL["base"], "n": BASE_N}}
    return {**base, "axes": {**base["axes"], "features": FEATURES}}


def cells(the_plan: dict, axes) -> list[dict]:
    """The cells of ``axes``, each once (a cell two axes share, such as the base cell, under its first axis)."""
    out, seen = [], set()
    for axis in axes:
        for cell in regimes.axis_cells(the_plan, axis):
            key = regimes.cell_key(cell)
            if key not in seen:
                seen.add(key)
                out.append({**cell, "axis": axis, "key": key})
    return out


def scored(models_for, X_test, y_test) -> tuple[dict, dict]:
    """({metric: {method: test value}}, {metric: {method: fit seconds}}) over METRICS, where ``models_for(metric)``
    gives {method: (fitted model, seconds)} (shared with nonlinear_truth.py)."""
    test, seconds = {m: {} for m in METRICS}, {m: {} for m in METRICS}
    for metric in METRICS:
        for method, (model, s) in models_for(metric).items():
            test[metric][method] = regimes.metric_score(metric, y_test, model.predict(X_test))
            seconds[metric][method] = s
    return test, seconds


def run_split(key: str, index: int, split: int, quick: bool) -> dict:
    """Every method on split ``split`` of the cell with key ``key``: {"dataset": key, "trial": split, "test":
    {metric: {method: value}}, "seconds": {metric: {method: s}}} (the field names of nonlinear_peers' records)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    the_plan = plan(quick)
    cell = next(c for c in cells(the_plan, AXES) if c["key"] == key)
    cell_seq = regimes.cell_seed_sequence(cell)
    problem = regimes.Problem(cell, the_plan, child(cell_seq, 0))
    X_train, y_train, X_test, y_test, seed = regimes.split_data(problem, cell, the_plan, cell_seq, split)
    fit = timed_fitter(X_train, y_train)

    def models_for(metric):
        return {"HGB": plain,
                "HGB+tuned": fit(_tuned(HistGradientBoostingClassifier(random_state=seed), metric, seed)),
                "HGB+remedy (5 folds)": fit(MetricOptimalClassifier(
                    HistGradientBoostingClassifier(random_state=seed), metric, random_state=seed)),
                "HGB+remedy (2 folds)": fit(MetricOptimalClassifier(
                    HistGradientBoostingClassifier(random_state=seed), metric, cv=2, random_state=seed)),
                "HGB+remedy (5 folds, 1 level)": fit(MetricOptimalClassifier(
                    HistGradientBoostingClassifier(random_state=seed), metric, max_level_iter=1, random_state=seed))}

    with threadpool_limits(1):
        plain = fit(HistGradientBoostingClassifier(random_state=seed))
        test, seconds = scored(models_for, X_test, y_test)
    return {"dataset": key, "trial": split, "n_train": int(y_train.size), "test": test, "seconds": seconds}


def summarize(records, the_cells) -> list[dict]:
    """Per cell and metric: the means, each remedy's verdict against the tuned peer and the median time ratios."""
    rows = []
    for cell in the_cells:
        mine = [r for r in records if r["dataset"] == cell["key"]]
        for metric in METRICS:
            values = {m: [r["test"][metric][m] for r in mine] for m in METHODS}
            rows.append({"axis": cell["axis"], "value": cell["value"], "cell": cell["key"], "metric": metric,
                         "splits": len(mine), "mean": {m: statistics.fmean(v) for m, v in values.items()},
                         "vs_tuned": {m: welch_verdict(values[m], values["HGB+tuned"]) for m in REMEDIES},
                         "time_ratio": {m: statistics.median(r["seconds"][metric][m] / r["seconds"][metric]["HGB"]
                                                             for r in mine) for m in METHODS[1:]}})
    return rows


def markdown(rows, settings) -> str:
    count = {m: {v: sum(r["vs_tuned"][m] == v for r in rows) for v in ("below", "tie", "above")} for m in REMEDIES}
    cost = {m: statistics.median(r["time_ratio"][m] for r in rows) for m in METHODS[1:]}
    lines = ["# The remedy around gradient boosting across the regimes", "",
             f"Generated by `python benchmarks/ensemble_regimes.py {settings['argv']}` ({settings['splits']} splits "
             f"per cell, base cell n = {settings['base_n']}; {settings['fit_seconds']:.0f} s of fits on one "
             "thread).", "",
             *(f"{m} against `TunedThresholdClassifierCV(HGB)`, one-sided Welch at {regimes.ALPHA}: "
               f"{count[m]['below']} cells below, {count[m]['tie']} not significantly different, "
               f"{count[m]['above']} above (of {len(rows)})." for m in REMEDIES), "",
             "Fit time over the plain HGB fit, median over the cells: " +
             ", ".join(f"{m} {cost[m]:.1f}x" for m in METHODS[1:]) + ".", "",
             "| axis | value | metric | " + " | ".join(METHODS) + " | " +
             " | ".join(f"{m} vs tuned" for m in REMEDIES) + " | " + " | ".join(f"time {m}/HGB" for m in METHODS[1:])
             + " |",
             "|" + "---|" * (3 + len(METHODS) + len(REMEDIES) + len(METHODS) - 1)]
    for r in rows:
        lines.append(f"| {r['axis']} | {r['value']} | {regimes.METRIC_NAMES[r['metric']]} | " +
                     " | ".join(f"{r['mean'][m]:.3f}" for m in METHODS) + " | " +
                     " | ".join(r["vs_tuned"][m] for m in REMEDIES) + " | " +
                     " | ".join(f"{r['time_ratio'][m]:.1f}" for m in METHODS[1:]) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--axes", nargs="+", default=list(AXES), choices=AXES)
    parser.add_argument("--splits", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="the regimes script's small plan, 2 splits")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--task-timeout", type=float, default=3600.0, help="seconds allowed per (cell, split)")
    parser.add_argument("--work", type=Path, default=Path(__file__).with_name(".work") / "ensemble_regimes")
    args = parser.parse_args(argv)
    splits = 2 if args.quick else args.splits
    if splits < 2 or args.workers < 1:
        parser.error(f"--splits must be >= 2 (a Welch test needs two), --workers >= 1; got {splits}, {args.workers}")
    the_cells = cells(plan(args.quick), args.axes)
    key = settings_fingerprint({"seed": regimes.SEED, "quick": args.quick, "base_n": BASE_N, "methods": METHODS,
                               "features": FEATURES, "v": 1})[:12]
    records = run_resumable(run_split, [(c["key"], i, k) for i, c in enumerate(the_cells) for k in range(splits)],
                            (args.quick,), work=args.work, key=key, workers=args.workers,
                            task_timeout=args.task_timeout)
    records.sort(key=lambda r: (r["dataset"], r["trial"]))
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "splits": splits,
                "axes": args.axes, "quick": args.quick, "base_n": plan(args.quick)["base"]["n"],
                "seed": regimes.SEED, "workers": args.workers,
                "fit_seconds": sum(sum(m.values()) for r in records for m in r["seconds"].values())}
    rows = summarize(records, the_cells)
    OUT.parent.mkdir(exist_ok=True)
    write_text_atomically(OUT.with_suffix(".json"), json.dumps({"settings": settings, "rows": rows,
                                                                "records": records}, indent=1))
    write_text_atomically(OUT.with_suffix(".md"), markdown(rows, settings))
    print("\n".join(markdown(rows, settings).split("\n")[4:4 + len(REMEDIES)]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
