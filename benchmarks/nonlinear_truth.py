"""Which model class wins as the truth leaves the linear class: the linear default against gradient boosting with the
metric's threshold on populations whose log-odds are part linear, part quadratic (issue 42: "names the model class
that wins in each regime"; the regime sweeps so far had a linear-logistic truth only).

The populations are ``estimator_regimes.py``'s (its ``Problem``: Gaussian features, the score scaled to a robust
standard deviation of SIGNAL, the intercept solving the prior, class-conditional samples with exactly the prior's
positives, a fraction ``flip`` of the positives and as many negatives swapped) around ``ensemble_regimes.py``'s base
cell (n = 5,000, d = 20, prior 0.1, flip 0.05), with the latent score replaced by

    g(x) = cos(theta) u'x + sin(theta) v'q(x),   theta = (pi / 2) * nonlinearity,   q_j(x) = (x_j^2 - 1) / sqrt(2),

u = w / |w| (the base problem's weights) and v a unit vector of independent normal draws (the problem's seed child
1).  Both parts have unit variance and are uncorrelated (odd Gaussian moments vanish), and the quadratic part has
no linear component at all, so nonlinearity 0 is a linear-logistic truth, 1 a truth no linear score can rank better
than chance, and the axis moves between them.  Seeding as ``estimator_regimes.py`` (cell ``child(root, *text_key(cell
key))``, the key extended by ``nonlinearity=...``; problem ``child(cell, 0)``; split k ``child(cell, 1, k)``).

Methods on each split: ``LinearFractionalClassifier(metric)`` (the linear default); for HGB =
``HistGradientBoostingClassifier(random_state=seed)``: HGB plain, ``TunedThresholdClassifierCV(HGB,
scoring=<metric>)``, ``MetricOptimalClassifier(HGB, metric, max_level_iter=1)`` and ``MetricOptimalClassifier(HGB,
metric)`` (two levels, the default).  Metrics F_1 and Jaccard of the test sample.  Per cell and metric: each
method's mean; the model class that wins (the linear default against the best of the three tree rules by mean,
one-sided Welch at alpha = 0.05 either way: a 5 % false-alarm rate per cell and direction when the two are equal;
the best of three is slightly favoured); each remedy against the tuned peer (the same test); the median over splits
of each method's fit time over the plain HGB fit's.  Every fit on one thread; (cell, split) tasks in ``--workers``
processes, each finished one written to ``--work`` and read back by a later run with the same settings.

Usage::

    python benchmarks/nonlinear_truth.py                  # 5 cells x 10 splits (about 15 minutes on 2 cores)
    python benchmarks/nonlinear_truth.py --quick          # the regimes script's small plan, 2 cells x 2 splits
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path

import ensemble_regimes as ensemble  # benchmarks/ensemble_regimes.py
import estimator_regimes as regimes  # benchmarks/estimator_regimes.py
import numpy as np
from nonlinear_peers import _tuned, run_resumable, timed_fitter, welch_verdict  # benchmarks/nonlinear_peers.py
from threadpoolctl import threadpool_limits

from lfverify.core._seeding import child
from lfverify.io import settings_fingerprint, write_text_atomically
from lfverify.learn import LinearFractionalClassifier, MetricOptimalClassifier

OUT = Path(__file__).with_name("results") / "nonlinear_truth"
LEVELS = (0.0, 0.25, 0.5, 0.75, 1.0)
QUICK_LEVELS = (0.0, 1.0)
METRICS = ensemble.METRICS
LINEAR = "linear default"
TREES = ("HGB+tuned", "HGB+remedy (1 level)", "HGB+remedy (2 levels)")
REMEDIES = TREES[1:]
METHODS = (LINEAR, "HGB", *TREES)


class NonlinearProblem(regimes.Problem):
    """``estimator_regimes.Problem`` (Gaussian features) with the module docstring's part-quadratic latent score."""

    def __init__(self, cell: dict, plan: dict, seq: np.random.SeedSequence):
        if cell["features"] != "gaussian":
            raise ValueError(f"NonlinearProblem draws Gaussian features only; got {cell['features']!r}")
        theta = math.pi / 2 * cell["nonlinearity"]
        self.weights = (math.cos(theta), math.sin(theta))
        v = np.random.default_rng(child(seq, 1)).standard_normal(cell["d"])
        self.v = v / np.linalg.norm(v)
        super().__init__(cell, plan, seq)  # draws w and calibrates the scale and the intercept with _rows below

    def _rows(self, rng, m):
        X = rng.standard_normal((m, self.d))
        linear, quadratic = self.weights
        g = linear * (X @ (self.w / np.linalg.norm(self.w))) + quadratic * (((X * X - 1.0) / math.sqrt(2.0)) @ self.v)
        return X, self.scale * g


def cells(quick: bool) -> list[dict]:
    """One cell per nonlinearity level, around the plan's base cell."""
    base = ensemble.plan(quick)["base"]
    out = []
    for level in QUICK_LEVELS if quick else LEVELS:
        cell = {**base, "nonlinearity": level, "value": level, "axis": "nonlinearity"}
        out.append({**cell, "key": f"{regimes.cell_key(cell)},nonlinearity={level:g}"})
    return out


def run_split(key: str, index: int, split: int, quick: bool) -> dict:
    """Every method on split ``split`` of the cell with key ``key``: {"dataset": key, "trial": split, "test":
    {metric: {method: value}}, "seconds": {metric: {method: s}}} (the field names of nonlinear_peers' records)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    the_plan = ensemble.plan(quick)
    cell = next(c for c in cells(quick) if c["key"] == key)
    cell_seq = child(regimes.as_seed_sequence(regimes.SEED), *regimes.text_key(key))  # the regimes' rule, this key
    problem = NonlinearProblem(cell, the_plan, child(cell_seq, 0))
    X_train, y_train, X_test, y_test, seed = regimes.split_data(problem, cell, the_plan, cell_seq, split)
    fit = timed_fitter(X_train, y_train)
    def models_for(metric):
        return {LINEAR: fit(LinearFractionalClassifier(metric=metric, random_state=seed)),
                "HGB": plain,
                "HGB+tuned": fit(_tuned(HistGradientBoostingClassifier(random_state=seed), metric, seed)),
                "HGB+remedy (1 level)": fit(MetricOptimalClassifier(
                    HistGradientBoostingClassifier(random_state=seed), metric, max_level_iter=1, random_state=seed)),
                "HGB+remedy (2 levels)": fit(MetricOptimalClassifier(
                    HistGradientBoostingClassifier(random_state=seed), metric, max_level_iter=2, random_state=seed))}

    with threadpool_limits(1):
        plain = fit(HistGradientBoostingClassifier(random_state=seed))
        test, seconds = ensemble.scored(models_for, X_test, y_test)
    return {"dataset": key, "trial": split, "n_train": int(y_train.size), "test": test, "seconds": seconds}


def summarize(records, the_cells) -> list[dict]:
    """Per cell and metric: the means, the model class that wins, each remedy's verdict against the tuned peer and
    the median time ratios to the plain HGB fit."""
    rows = []
    for cell in the_cells:
        mine = sorted((r for r in records if r["dataset"] == cell["key"]), key=lambda r: r["trial"])
        for metric in METRICS:
            values = {m: [r["test"][metric][m] for r in mine] for m in METHODS}
            best = max(TREES, key=lambda m: statistics.fmean(values[m]))
            winner = {"above": "linear", "below": "tree ensemble", "tie": "no difference"}[
                welch_verdict(values[LINEAR], values[best])]
            rows.append({"value": cell["value"], "cell": cell["key"], "metric": metric, "splits": len(mine),
                         "mean": {m: statistics.fmean(v) for m, v in values.items()}, "best_tree": best,
                         "winner": winner,
                         "vs_tuned": {m: welch_verdict(values[m], values["HGB+tuned"]) for m in REMEDIES},
                         "time_ratio": {m: statistics.median(r["seconds"][metric][m] / r["seconds"][metric]["HGB"]
                                                             for r in mine) for m in METHODS if m != "HGB"}})
    return rows


def markdown(rows, settings) -> str:
    won = {w: [r for r in rows if r["winner"] == w] for w in ("linear", "tree ensemble", "no difference")}
    count = {m: {v: sum(r["vs_tuned"][m] == v for r in rows) for v in ("below", "tie", "above")} for m in REMEDIES}
    cost = {m: statistics.median(r["time_ratio"][m] for r in rows) for m in METHODS if m != "HGB"}

    def levels(rows_):
        return ", ".join(f"{v:g}" for v in sorted({r["value"] for r in rows_})) or "none"

    lines = ["# Which model class wins as the truth leaves the linear class", "",
             f"Generated by `python benchmarks/nonlinear_truth.py {settings['argv']}` ({settings['splits']} splits "
             f"per cell, n = {settings['n']}, d = {settings['d']}, prior {settings['prior']:g}, flip "
             f"{settings['flip']:g}; {settings['fit_seconds']:.0f} s of fits on one thread).", "",
             f"- Model class, one-sided Welch at {regimes.ALPHA} either way (F_1 and Jaccard, {len(rows)} rows): the "
             f"linear default above the best tree rule at nonlinearity {levels(won['linear'])}, the tree ensemble "
             f"above at {levels(won['tree ensemble'])}, no significant difference at "
             f"{levels(won['no difference'])}.",
             *(f"- {m} against `TunedThresholdClassifierCV(HGB)`, one-sided Welch at {regimes.ALPHA}: "
               f"{count[m]['below']} rows below, {count[m]['tie']} not significantly different, {count[m]['above']} "
               f"above (of {len(rows)})." for m in REMEDIES),
             "- Fit time over the plain HGB fit, median over the rows: "
             + ", ".join(f"{m} {cost[m]:.2g}x" for m in cost) + ".", "",
             "| nonlinearity | metric | " + " | ".join(METHODS) + " | model class that wins | "
             + " | ".join(f"{m} vs tuned" for m in REMEDIES) + " |",
             "|" + "---|" * (2 + len(METHODS) + 1 + len(REMEDIES))]
    for r in rows:
        lines.append(f"| {r['value']:g} | {regimes.METRIC_NAMES[r['metric']]} | "
                     + " | ".join(f"{r['mean'][m]:.3f}" for m in METHODS) + f" | {r['winner']} | "
                     + " | ".join(r["vs_tuned"][m] for m in REMEDIES) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", type=int, default=None, help="splits per cell (default 10; 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help="the regimes script's small plan, two levels")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT, help="the results' path without its suffix")
    parser.add_argument("--task-timeout", type=float, default=1800.0, help="seconds allowed per (cell, split)")
    parser.add_argument("--work", type=Path, default=Path(__file__).with_name(".work") / "nonlinear_truth")
    args = parser.parse_args(argv)
    splits = args.splits if args.splits is not None else (2 if args.quick else 10)
    if splits < 2 or args.workers < 1:
        parser.error(f"--splits must be >= 2 and --workers >= 1; got {splits} and {args.workers}")
    the_cells = cells(args.quick)
    key = settings_fingerprint({"quick": args.quick, "levels": [c["value"] for c in the_cells], "v": 1})[:12]
    records = run_resumable(run_split, [(c["key"], i, k) for i, c in enumerate(the_cells) for k in range(splits)],
                            (args.quick,), work=args.work, key=key, workers=args.workers,
                            task_timeout=args.task_timeout)
    base = ensemble.plan(args.quick)["base"]
    settings = {"argv": " ".join(argv if argv is not None else sys.argv[1:]), "splits": splits, "quick": args.quick,
                **{k: base[k] for k in ("n", "d", "prior", "flip")},
                "fit_seconds": sum(sum(m.values()) for r in records for m in r["seconds"].values())}
    rows = summarize(records, the_cells)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(args.out.with_suffix(".json"), json.dumps({"settings": settings, "rows": rows,
                                                                     "records": records}, indent=1))
    write_text_atomically(args.out.with_suffix(".md"), markdown(rows, settings))
    print("\n".join(markdown(rows, settings).split("\n")[4:8]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
