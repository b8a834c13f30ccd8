"""Which model class wins in each regime cell: the linear default against the tree ensemble with the metric's
threshold, on the splits of the committed gradient-boosting sweep (issue 42, "Done when": README names the model
class that wins in each regime).

The cells and splits are those of ``benchmarks/results/ensemble_regimes.json`` (``ensemble_regimes.py``, which draws
them with ``estimator_regimes.py``'s generator and seeding rule).  Each split's data are drawn again here, and the plain
``HistGradientBoostingClassifier(random_state=seed)`` is refitted on them: its F_1 and Jaccard must equal the committed
record's to the last digit, or the run stops (the records were then made on other data, and a comparison with them
would mean nothing).  On each split ``LinearFractionalClassifier(metric=..., random_state=seed)`` (the default) is
fitted and scored on the test sample.  Per cell and metric: the linear default's mean, the tree ensemble's two
threshold rules (``HGB+tuned``, ``TunedThresholdClassifierCV(HGB)``, and ``HGB+remedy (5 folds)``,
``MetricOptimalClassifier(HGB)``) from the records, and the one-sided Welch verdict of the linear default against
the better of the two by mean at alpha = 0.05 either way (a 5 % false-alarm rate per cell and direction when the
two are equal): "linear" when the linear default is significantly above, "tree ensemble" when significantly below,
"no difference" otherwise; and the median over splits of each tree rule's fit time over the linear default's (the
tree rule's time over the plain HGB fit's in the committed run, times the plain HGB refit's time over the linear
default's here: each factor is a ratio within one run).

The generator is linear-logistic (the truth is in the linear class), so the table tells where a flexible learner's
variance costs more than its capacity gains; ``nonlinear_peers.py`` answers on the staged data sets, where the truth
is unknown.

Usage::

    python benchmarks/regime_model_class.py              # the committed sweep's cells and splits (minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import ensemble_regimes as ensemble  # benchmarks/ensemble_regimes.py
import estimator_regimes as regimes  # benchmarks/estimator_regimes.py
from nonlinear_peers import (  # benchmarks/nonlinear_peers.py
    committed_by_split,
    run_resumable,
    timed_fitter,
    welch_verdict,
)
from threadpoolctl import threadpool_limits

from lfverify.core._seeding import child
from lfverify.io import settings_fingerprint, write_text_atomically
from lfverify.learn import LinearFractionalClassifier

RECORDS = Path(__file__).with_name("results") / "ensemble_regimes.json"
OUT = Path(__file__).with_name("results") / "regime_model_class"
TREES = ("HGB+tuned", "HGB+remedy (5 folds)")
LINEAR = "linear default"


def run_split(key: str, index: int, split: int, quick: bool, records_path: str) -> dict:
    """The linear default on split ``split`` of cell ``key``, after the plain HGB refit matches that split's record
    in ``records_path``: {"dataset", "trial", "test": {metric: value}, "seconds": {metric: s}, "hgb_seconds": s}."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    committed = committed_by_split(records_path)[(key, split)]

    the_plan = ensemble.plan(quick)
    cell = next(c for c in ensemble.cells(the_plan, ensemble.AXES) if c["key"] == key)
    cell_seq = regimes.cell_seed_sequence(cell)
    problem = regimes.Problem(cell, the_plan, child(cell_seq, 0))
    X_train, y_train, X_test, y_test, seed = regimes.split_data(problem, cell, the_plan, cell_seq, split)
    fit = timed_fitter(X_train, y_train)
    test, seconds = {}, {}
    with threadpool_limits(1):
        plain, hgb_seconds = fit(HistGradientBoostingClassifier(random_state=seed))
        for metric in ensemble.METRICS:
            again = regimes.metric_score(metric, y_test, plain.predict(X_test))
            if again != committed["test"][metric]["HGB"]:
                raise RuntimeError(f"cell {key}, split {split}: the plain HGB refitted here scores {metric} {again!r}, "
                                   f"the committed record {committed['test'][metric]['HGB']!r}: not the same data")
            model, seconds[metric] = fit(LinearFractionalClassifier(metric=metric, random_state=seed))
            test[metric] = regimes.metric_score(metric, y_test, model.predict(X_test))
    return {"dataset": key, "trial": split, "test": test, "seconds": seconds, "hgb_seconds": hgb_seconds}


def summarize(records, committed_records, the_cells) -> list[dict]:
    """Per cell and metric: the means, the verdict against the better tree rule, and the median time ratios."""
    rows = []
    for cell in the_cells:
        mine = sorted((r for r in records if r["dataset"] == cell["key"]), key=lambda r: r["trial"])
        theirs = sorted((r for r in committed_records if r["dataset"] == cell["key"]), key=lambda r: r["trial"])
        for metric in ensemble.METRICS:
            linear = [r["test"][metric] for r in mine]
            trees = {m: [r["test"][metric][m] for r in theirs] for m in TREES}
            best = max(TREES, key=lambda m: statistics.fmean(trees[m]))
            verdict = welch_verdict(linear, trees[best])
            rows.append({"axis": cell["axis"], "value": cell["value"], "cell": cell["key"], "metric": metric,
                         "splits": len(mine), "mean": {LINEAR: statistics.fmean(linear),
                                                       **{m: statistics.fmean(v) for m, v in trees.items()}},
                         "best_tree": best,
                         "winner": {"above": "linear", "below": "tree ensemble", "tie": "no difference"}[verdict],
                         # each factor measured within one run: (tree rule / plain HGB) there, (plain HGB / linear) here
                         "time_ratio": {m: statistics.median(t["seconds"][metric][m] / t["seconds"][metric]["HGB"]
                                                             * r["hgb_seconds"] / r["seconds"][metric]
                                                             for r, t in zip(mine, theirs)) for m in TREES}})
    return rows


def markdown(rows, settings) -> str:
    count = {w: sum(r["winner"] == w for r in rows) for w in ("linear", "tree ensemble", "no difference")}
    lines = ["# Which model class wins in each regime cell", "",
             f"Generated by `python benchmarks/regime_model_class.py {settings['argv']}` from the {settings['splits']} "
             "splits per cell of benchmarks/results/ensemble_regimes.json (the plain HGB refitted on every split "
             "matched its committed scores exactly); a linear-logistic truth.", "",
             f"The linear default against the better tree-ensemble rule, one-sided Welch at {regimes.ALPHA} either "
             f"way: linear above in {count['linear']} cells, the tree ensemble above in {count['tree ensemble']}, no "
             f"significant difference in {count['no difference']} (of {len(rows)}, F_1 and Jaccard).", "",
             "| axis | value | metric | " + " | ".join((LINEAR, *TREES)) + " | model class that wins | "
             + " | ".join(f"time {m}/linear" for m in TREES) + " |",
             "|" + "---|" * (4 + len(TREES) + 1 + len(TREES))]
    for r in rows:
        lines.append(f"| {r['axis']} | {r['value']} | {regimes.METRIC_NAMES[r['metric']]} | "
                     + " | ".join(f"{r['mean'][m]:.3f}" for m in (LINEAR, *TREES)) + f" | {r['winner']} | "
                     + " | ".join(f"{r['time_ratio'][m]:.1f}" for m in TREES) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, default=RECORDS, help="an ensemble_regimes.py results file")
    parser.add_argument("--out", type=Path, default=OUT, help="the results' path without its suffix")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--task-timeout", type=float, default=1800.0, help="seconds allowed per (cell, split)")
    parser.add_argument("--work", type=Path, default=Path(__file__).with_name(".work") / "regime_model_class")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be >= 1; got {args.workers}")
    try:
        source = json.loads(args.records.read_text(encoding="utf-8"))
        quick, committed_records = bool(source["settings"]["quick"]), source["records"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        parser.error(f"--records must be an ensemble_regimes.py results file; could not read {args.records}: {exc}")
    measured = {r["dataset"] for r in committed_records}
    the_cells = [c for c in ensemble.cells(ensemble.plan(quick), source["settings"]["axes"]) if c["key"] in measured]
    tasks = [(c["key"], i, k) for i, c in enumerate(the_cells)
             for k in sorted(r["trial"] for r in committed_records if r["dataset"] == c["key"])]
    if not tasks:
        parser.error(f"--records holds no split of a cell of ensemble_regimes.py's plan: {args.records}")
    key = settings_fingerprint({"records": settings_fingerprint(source), "v": 1})[:12]
    records = run_resumable(run_split, tasks, (quick, str(args.records.resolve())), work=args.work, key=key,
                            workers=args.workers, task_timeout=args.task_timeout)
    splits = {len([t for t in tasks if t[0] == c["key"]]) for c in the_cells}
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "records": args.records.name,
                "splits": min(splits), "quick": quick, "axes": source["settings"]["axes"],
                "fit_seconds": sum(sum(r["seconds"].values()) for r in records)}
    rows = summarize(records, committed_records, the_cells)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(args.out.with_suffix(".json"), json.dumps({"settings": settings, "rows": rows,
                                                                     "records": records}, indent=1))
    write_text_atomically(args.out.with_suffix(".md"), markdown(rows, settings))
    print(markdown(rows, settings).split("\n")[4])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
