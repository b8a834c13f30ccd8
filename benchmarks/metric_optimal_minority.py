"""MetricOptimalClassifier(LogisticRegression()) on the regimes benchmark's minority axis (issue 42, item 5: "the
default (and the meta-estimator)" in the few-minority regime).

The cells, their populations, training and test samples and seeds are exactly those of
``estimator_regimes.py --axes minority`` (its ``Problem``, ``axis_cells``, ``scale`` and seeding rule: cell
``child(root, *text_key(key))``, problem ``child(cell, 0)``, split k ``child(cell, 1, k)`` with children 0 / 1 / 2
for the training sample, the test sample and ``random_state``), so the peers' per-split scores are read from that
run's committed JSON (``benchmarks/results/estimator_minority.json``) instead of refitted.  Per cell and metric: the
remedy's mean test metric, the best peer (highest mean of LogisticRegression(), its balanced form and
TunedThresholdClassifierCV(LogisticRegression())), and the one-sided Welch p of best peer > remedy
(``one_sided_p_value``; "below" at p < 0.05, a 5 % false-alarm rate per cell when the two are equal).

Usage::

    python benchmarks/metric_optimal_minority.py            # 20 splits, as the committed minority run (minutes)
    python benchmarks/metric_optimal_minority.py --max-level-iter 1 \
        --out benchmarks/results/metric_optimal_minority_1_level       # one level (no reweighting)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import warnings
from pathlib import Path

import estimator_regimes as regimes  # benchmarks/estimator_regimes.py
from nonlinear_peers import welch_verdict  # benchmarks/nonlinear_peers.py
from threadpoolctl import threadpool_limits

from lfverify.core._seeding import child
from lfverify.experiments._statistics import one_sided_p_value
from lfverify.io import write_text_atomically
from lfverify.learn import MetricOptimalClassifier

PEERS_RUN = Path(__file__).with_name("results") / "estimator_minority.json"
OUT = Path(__file__).with_name("results") / "metric_optimal_minority"


def remedy_scores(cell: dict, splits: int, max_level_iter: int = 2) -> dict:
    """{metric: [test value per split]} of MetricOptimalClassifier(LogisticRegression(), metric, max_level_iter=...)
    on the cell."""
    from sklearn.linear_model import LogisticRegression

    plan = regimes.FULL
    cell_seq = regimes.cell_seed_sequence(cell)
    problem = regimes.Problem(cell, plan, child(cell_seq, 0))
    scores = {m: [] for m in regimes.METRICS}
    for k in range(splits):
        X_train, y_train, X_test, y_test, seed = regimes.split_data(problem, cell, plan, cell_seq, k)
        for metric in regimes.METRICS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # convergence warnings of tiny folds: the scores say what matters
                model = MetricOptimalClassifier(LogisticRegression(), metric=metric, max_level_iter=max_level_iter,
                                                random_state=seed)
                model.fit(X_train, y_train)
            scores[metric].append(regimes.metric_score(metric, y_test, model.predict(X_test)))
    return scores


def _against_default(rows, max_level_iter) -> list[str]:
    """With levels other than the default two: the summary line of the one-sided Welch tests (either way, at alpha =
    0.05: ``nonlinear_peers.welch_verdict``) of this run's remedy against the committed two-level run's on the same
    splits."""
    if max_level_iter == 2 or not OUT.with_suffix(".json").exists():
        return []
    default = {(r["cell"], r["metric"]): r["remedy"]
               for r in json.loads(OUT.with_suffix(".json").read_text(encoding="utf-8"))["rows"]}
    verdicts = [welch_verdict(r["remedy"], default[(r["cell"], r["metric"])][:len(r["remedy"])]) for r in rows]
    below, above = verdicts.count("below"), verdicts.count("above")
    return [f"- Against the two-level remedy (`{OUT.name}.md`, the same splits), one-sided Welch at {regimes.ALPHA}: "
            f"{below} cells below, {above} above (of {len(rows)}, every metric)"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--splits", type=int, default=20, help="splits per cell (at most the peers' run's)")
    parser.add_argument("--max-level-iter", type=int, default=2, help="the remedy's levels (default 2, its default)")
    parser.add_argument("--out", type=Path, default=OUT, help="the results' path without its suffix")
    args = parser.parse_args(argv)
    if args.max_level_iter < 1:
        parser.error(f"--max-level-iter must be >= 1; got {args.max_level_iter}")
    peers_run = json.loads(PEERS_RUN.read_text(encoding="utf-8"))
    if not 2 <= args.splits <= peers_run["settings"]["splits"]:
        parser.error(f"--splits must be in [2, {peers_run['settings']['splits']}] (the peers' run); got {args.splits}")
    rows = []
    with threadpool_limits(1):
        for cell in regimes.axis_cells(regimes.FULL, "minority"):
            key = regimes.cell_key(cell)
            if key not in peers_run["cells"]:
                parser.error(f"{PEERS_RUN} has no cell {key}: re-run estimator_regimes.py --axes minority")
            ours = remedy_scores(cell, args.splits, args.max_level_iter)
            splits = peers_run["cells"][key]["splits"][:args.splits]
            for metric in regimes.METRICS:
                peers = {p: [s["scores"][p][metric] for s in splits] for p in regimes.PEERS}
                best = max(peers, key=lambda p: statistics.fmean(peers[p]))
                p = one_sided_p_value(peers[best], ours[metric])
                rows.append({"cell": key, "m": cell["value"], "metric": metric, "remedy": ours[metric],
                             "best_peer": best, "best_mean": statistics.fmean(peers[best]),
                             "default_mean": statistics.fmean(s["scores"]["ours"][metric] for s in splits),
                             "p_below": p, "below": p is not None and p < regimes.ALPHA})
            print(f"m = {cell['value']} done", flush=True)
    below = {m: sum(r["below"] for r in rows if r["metric"] == m) for m in regimes.METRICS}
    against_default = _against_default(rows, args.max_level_iter)
    setting = "" if args.max_level_iter == 2 else f", max_level_iter={args.max_level_iter}"
    lines = [f"# MetricOptimalClassifier(LogisticRegression(){setting}) on the minority axis", "",
             f"Generated by `python benchmarks/metric_optimal_minority.py {' '.join(argv or sys.argv[1:])}` "
             f"({args.splits} splits per cell; the peers' and the default's scores from "
             f"`benchmarks/results/estimator_minority.json`, the same samples).", "",
             *(f"- {regimes.METRIC_NAMES[m]}: the remedy significantly below the best peer in {below[m]} of "
               f"{len(rows) // len(regimes.METRICS)} cells" for m in regimes.METRICS), *against_default, "",
             "| m | metric | remedy | best peer | its mean | default | p (best peer > remedy) | below |",
             "|---|---|---|---|---|---|---|---|",
             *(f"| {r['m']} | {regimes.METRIC_NAMES[r['metric']]} | {statistics.fmean(r['remedy']):.4f} | "
               f"{regimes.PEER_NAMES[r['best_peer']]} | {r['best_mean']:.4f} | {r['default_mean']:.4f} | "
               f"{r['p_below']:.3g} | {'yes' if r['below'] else 'no'} |" for r in rows)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(args.out.with_suffix(".json"), json.dumps(
        {"splits": args.splits, "max_level_iter": args.max_level_iter, "rows": rows}, indent=1))
    write_text_atomically(args.out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines[4:4 + len(regimes.METRICS)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
