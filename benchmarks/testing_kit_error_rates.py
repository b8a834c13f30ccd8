"""Error rates and run time of lfverify.testing's checks: false-alarm rate on correct implementations and power
against each named wrong implementation, over independent seeds, with Clopper-Pearson intervals.

Each row runs one named check (``TheoryCheck.run``) of one implementation at seeds 0, 1, ..., S - 1 (the check's
``seed`` option: its samples, populations and replications) and counts failures.  For a correct implementation
the failure fraction estimates the false-alarm rate (target <= 1 %); for a wrong one it estimates the power
(target >= 99 %).  The interval is the exact (Clopper-Pearson) 95 % interval of
``scipy.stats.binomtest(k, S).proportion_ci()``.  Deterministic checks are included too: their false alarms are 0 by
construction, and their power depends on the seeded population, so it is measured the same way.

Then the kit is timed: every check of ``check_gradient_direction_estimator`` on lfverify's V_hat (the slowest
estimator kind), of ``check_metric`` on scikit-learn's ``f1_score``, of ``check_metric_classifier`` on
:class:`~lfverify.testing.implementations.BestThresholdClassifier`, with the slowest single check.

Usage::

    python benchmarks/testing_kit_error_rates.py                  # 200 seeds per row (about an hour on 2 cores)
    python benchmarks/testing_kit_error_rates.py --seeds 50 --expensive-seeds 20   # a reduced run
    python benchmarks/testing_kit_error_rates.py --jobs 2
    python benchmarks/testing_kit_error_rates.py --rows 0 8 --seeds 150 --expensive-seeds 150 --start-seed 50 \
        --name testing_kit_false_alarms --no-timing   # more seeds for two rows (counts add to the first run's)

``benchmarks/testing_kit_combine.py`` sums the runs that measured each check as it is now into one table.

Writes ``benchmarks/results/testing_kit_error_rates.json`` and ``.md`` (``--name`` changes the stem; generated;
written atomically, and rewritten every 100 checks, so a stopped run leaves its counts so far).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scipy.stats import binomtest

from lfverify.core import logistic
from lfverify.io import write_text_atomically
from lfverify.testing import (
    Subject,
    check_gradient_direction_estimator,
    check_metric,
    check_metric_classifier,
    check_surrogate_loss,
    check_surrogate_utility_estimator,
    implementations,
    theory_checks,
)

RESULTS = Path(__file__).resolve().parent / "results"

#: (row name, kind "false alarm" / "power", the check's kind, the check's name, expensive?).  Expensive rows (a
#: Monte-Carlo check of a correct implementation, or an exact enumeration that a correct implementation runs to
#: its end) take seconds per seed and run at --expensive-seeds.
ROWS = (
    ("lfverify V_hat", "false alarm", "vhat", "unbiased_monte_carlo", True),
    ("same-sample V_hat", "power", "vhat", "unbiased_monte_carlo", True),
    ("plug-in-prior V_hat", "power", "vhat", "unbiased_monte_carlo", True),
    ("wrong-sign V_hat", "power", "vhat", "unbiased_monte_carlo", True),
    ("lfverify V_hat", "false alarm", "vhat", "unbiased_exact", True),
    ("same-sample V_hat", "power", "vhat", "unbiased_exact", False),
    ("plug-in-prior V_hat", "power", "vhat", "unbiased_exact", False),
    ("wrong-sign V_hat", "power", "vhat", "unbiased_exact", False),
    ("lfverify U_hat", "false alarm", "uhat", "expectation_monte_carlo", True),
    ("dropped-offset U_hat", "power", "uhat", "expectation_monte_carlo", False),
    ("dropped-offset U_hat", "power", "uhat", "expectation_exact", False),
    ("logistic loss", "false alarm", "loss", "convexity", False),
    ("non-convex loss claiming convexity", "power", "loss", "convexity", False),
    ("BestThresholdClassifier", "false alarm", "classifier", "consistency_finite", False),
    ("BestThresholdClassifier", "false alarm", "classifier", "consistency_gaussian", False),
    ("BestThresholdClassifier", "false alarm", "classifier", "sample_order_invariance", False),
    ("LogisticRegression thresholded at 1/2", "power", "classifier", "consistency_finite", False),
    ("LogisticRegression thresholded at 1/2", "power", "classifier", "consistency_gaussian", False),
    ("ShiftedThresholdClassifier", "false alarm", "classifier", "consistency_gaussian", False),
)

METRIC = "f1"
LOSS = logistic()


def subject(row_name: str, seed: int) -> Subject:
    """The subject of one row at one seed (each implementation in the interface a user's would have)."""
    vhat = {"lfverify V_hat": implementations.gradient_direction,
            "same-sample V_hat": implementations.same_sample_gradient_direction,
            "plug-in-prior V_hat": implementations.plug_in_prior_gradient_direction,
            "wrong-sign V_hat": implementations.wrong_sign_gradient_direction}
    uhat = {"lfverify U_hat": implementations.surrogate_utility,
            "dropped-offset U_hat": implementations.dropped_offset_surrogate_utility}
    if row_name in vhat:  # split=None: the kit is not told the split, as for a user's own implementation
        return Subject(check_gradient_direction_estimator, vhat[row_name](METRIC, LOSS), metric=METRIC, loss=LOSS,
                       split=None, seed=seed)
    if row_name in uhat:
        return Subject(check_surrogate_utility_estimator, uhat[row_name](METRIC, LOSS), metric=METRIC, loss=LOSS,
                       seed=seed)
    if row_name == "logistic loss":
        return Subject(check_surrogate_loss, logistic(), seed=seed)
    if row_name == "non-convex loss claiming convexity":
        return Subject(check_surrogate_loss, implementations.nonconvex_loss_claiming_convexity(), seed=seed)
    if row_name == "BestThresholdClassifier":
        return Subject(check_metric_classifier, implementations.BestThresholdClassifier(METRIC), metric=METRIC,
                       seed=seed)
    if row_name == "ShiftedThresholdClassifier":
        return Subject(check_metric_classifier, implementations.ShiftedThresholdClassifier(METRIC), metric=METRIC,
                       seed=seed)
    if row_name == "LogisticRegression thresholded at 1/2":
        return Subject(check_metric_classifier, implementations.threshold_at_one_half_classifier(), metric=METRIC,
                       seed=seed)
    raise ValueError(f"unknown row {row_name!r}")


def run_one(task) -> tuple[int, int, str, float]:
    """(row index, seed, outcome "pass" / "fail" / "not applicable" / "crash: ...", seconds)."""
    index, seed = task
    row_name, _, _, check_name, _ = ROWS[index]
    target = subject(row_name, seed)
    (check,) = [c for c in theory_checks(target) if c.name == check_name]
    start = time.perf_counter()
    try:
        outcome = "pass" if check.run(target) is None else "not applicable"
    except AssertionError:
        outcome = "fail"
    except Exception as exc:  # noqa: BLE001 - a crash of the kit is recorded, never hidden
        outcome = f"crash: {type(exc).__name__}: {exc}"
    return index, seed, outcome, time.perf_counter() - start


def time_kit() -> list[dict]:
    """Wall time of every check of three subjects (one process, seed 0)."""
    from sklearn.metrics import f1_score

    subjects = [("check_gradient_direction_estimator on lfverify's V_hat",
                 Subject(check_gradient_direction_estimator, implementations.gradient_direction(METRIC, LOSS),
                         metric=METRIC, loss=LOSS)),
                ("check_surrogate_utility_estimator on lfverify's U_hat",
                 Subject(check_surrogate_utility_estimator, implementations.surrogate_utility(METRIC, LOSS),
                         metric=METRIC, loss=LOSS)),
                ("check_metric on sklearn.metrics.f1_score", Subject(check_metric, f1_score, metric=METRIC)),
                ("check_surrogate_loss on the logistic loss", Subject(check_surrogate_loss, logistic())),
                ("check_metric_classifier on BestThresholdClassifier",
                 Subject(check_metric_classifier, implementations.BestThresholdClassifier(METRIC), metric=METRIC,
                         claims_optimal_threshold=True))]
    out = []
    for label, target in subjects:
        times = {}
        for check in theory_checks(target):
            start = time.perf_counter()
            try:
                check.run(target)
            except AssertionError:
                pass
            times[check.name] = round(time.perf_counter() - start, 3)
        out.append({"subject": label, "total_s": round(sum(times.values()), 2), "checks_s": times})
    return out


def summarise(outcomes: dict, seeds_of: dict) -> list[dict]:
    rows = []
    for index, (row_name, what, _kind, check_name, _expensive) in enumerate(ROWS):
        if index not in seeds_of:
            continue
        results = outcomes.get(index, [])
        failures = sum(o == "fail" for _, o, _ in results)
        skipped = sum(o == "not applicable" for _, o, _ in results)
        crashes = [o for _, o, _ in results if o.startswith("crash")]
        n = len(results) - skipped - len(crashes)
        ci = binomtest(failures, n).proportion_ci(confidence_level=0.95, method="exact") if n else None
        rate = failures / n if n else float("nan")
        target_met = (ci.high <= 0.01 if what == "false alarm" else ci.low >= 0.99) if ci else False
        point_met = (rate <= 0.01 if what == "false alarm" else rate >= 0.99) if n else False
        rows.append({"implementation": row_name, "measures": what, "check": check_name, "seeds": n,
                     "first_seed": min((seed for seed, _, _ in results), default=None),
                     "failures": failures, "rate": rate, "ci95": [ci.low, ci.high] if ci else None,
                     "point_estimate_meets_target": point_met, "interval_within_target": target_met,
                     "not_applicable": skipped, "crashes": crashes[:3],
                     "mean_seconds": (sum(t for _, _, t in results) / len(results)) if results else None})
    return rows


def markdown(rows, timing, args, wall) -> str:
    lines = ["# lfverify.testing: error rates and run time", "",
             f"Generated by `python benchmarks/testing_kit_error_rates.py {' '.join(args.argv)}` on "
             f"{platform.node() or 'this machine'} "
             f"({os.cpu_count()} CPUs, Python {platform.python_version()}); {wall / 60:.1f} min wall.", "",
             "Targets: false-alarm rate <= 1 % and power >= 99 %.  Rate = failures / seeds; 95 % Clopper-Pearson "
             "interval (`scipy.stats.binomtest(k, n).proportion_ci()`).  \"point\" = the rate meets the target; "
             "\"interval\" = the whole interval does (a false-alarm row needs >= 368 seeds at 0 failures for an upper "
             "bound <= 1 %: the two-sided 95 % interval's upper end at 0 of n is 1 - 0.025^(1/n)), and a power row "
             "needs >= 368 seeds at 0 misses.", "",
             "| implementation | measures | check | seeds | failures | rate | 95 % CI | point | interval | s/seed |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]" if r["ci95"] else "-"
        lines.append(f"| {r['implementation']} | {r['measures']} | `{r['check']}` | {r['seeds']} | {r['failures']} | "
                     f"{r['rate']:.3f} | {ci} | {'yes' if r['point_estimate_meets_target'] else 'NO'} | "
                     f"{'yes' if r['interval_within_target'] else 'no'} | {r['mean_seconds']:.2f} |")
        if r["crashes"]:
            lines.append(f"|   crashes | {r['crashes']} | | | | | | | | |")
    if not timing:
        return "\n".join(lines + [""])
    lines += ["", "## Run time of the kit (seed 0, one process)", "",
              "| subject | total (s) | slowest check (s) |", "|---|---|---|"]
    for t in timing:
        slowest = max(t["checks_s"].items(), key=lambda kv: kv[1])
        lines.append(f"| {t['subject']} | {t['total_s']:.1f} | `{slowest[0]}` {slowest[1]:.1f} |")
    lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200, help="seeds per cheap row (default 200)")
    parser.add_argument("--expensive-seeds", type=int, default=200,
                        help="seeds per expensive row (Monte-Carlo / full enumeration of a correct one)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rows", type=int, nargs="+", default=None,
                        help="run only these rows (0-based indices of ROWS); default: every row")
    parser.add_argument("--start-seed", type=int, default=0,
                        help="first seed (to extend an earlier run with new seeds: its counts add to this run's)")
    parser.add_argument("--name", default="testing_kit_error_rates", help="stem of the result files")
    parser.add_argument("--no-timing", action="store_true", help="skip the timing of the kit")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder of the results")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    start = time.perf_counter()
    selected = range(len(ROWS)) if args.rows is None else args.rows
    seeds_of = {i: (args.expensive_seeds if ROWS[i][4] else args.seeds) for i in selected}
    tasks = [(i, s) for i in selected for s in range(args.start_seed, args.start_seed + seeds_of[i])]
    tasks.sort(key=lambda t: (t[1], t[0]))  # interleave rows: a run stopped early still covers every row
    outcomes: dict = {}
    args.out.mkdir(parents=True, exist_ok=True)

    def write(timing, done):
        rows = summarise(outcomes, seeds_of)
        wall = time.perf_counter() - start
        record = {"seeds": args.seeds, "expensive_seeds": args.expensive_seeds, "jobs": args.jobs, "wall_s": wall,
                  "rows_run": list(selected), "start_seed": args.start_seed,
                  "tasks_done": done, "tasks": len(tasks), "python": platform.python_version(),
                  "cpus": os.cpu_count(), "rows": rows, "timing": timing}
        write_text_atomically(args.out / f"{args.name}.json", json.dumps(record, indent=2) + "\n")
        text = markdown(rows, timing, args, wall)
        if done < len(tasks):  # a run stopped early leaves its counts so far (tasks run in seed order)
            text = text.replace("\n\nTargets:", f"\n\n**Partial: {done} of {len(tasks)} checks run.**\n\nTargets:", 1)
        write_text_atomically(args.out / f"{args.name}.md", text)
        return text

    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, (index, seed, outcome, seconds) in enumerate(pool.map(run_one, tasks, chunksize=2), 1):
            outcomes.setdefault(index, []).append((seed, outcome, seconds))
            if done % 100 == 0:
                print(f"{done}/{len(tasks)} checks run, {time.perf_counter() - start:.0f} s", flush=True)
                write([], done)
    print(write([] if args.no_timing else time_kit(), len(tasks)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
