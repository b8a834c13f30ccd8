"""The ``compare`` experiment's report: the paper's methods, the remedies and the estimators a user would pick.

Not an experiment of the paper.  Every method of :data:`lfverify.experiments.COMPARE_METHODS` runs on
the same splits (App. C.1's 8:2); the report gives, per data set and metric,

* the mean test metric and its standard error (x 10^4), **bold** when it is the best or not significantly below
  the best by the one-sided t-test of :func:`lfverify.experiments._statistics.bold_methods` (every method may
  be the best);
* the fit time as a ratio to ``LogisticRegression()`` fitted in the same trial, on the same training set, by the
  same worker: the median over trials of (method seconds / LogReg seconds).  A method's fit time includes its
  own validation; U-GD and U-BFGS are charged the ERM starts they need (App. C's protocol computes them once per
  trial for both, :class:`lfverify.experiments`); the test predictions are not timed;

and the issue's targets for each remedy, decided by the same one-sided test at level ``alpha``:

* *not below the peer*: the remedy is not significantly below ``TunedThresholdClassifierCV(LogisticRegression)``;
* *above U-BFGS where it falls short*: on every data set where the paper's U-BFGS is significantly below the peer
  (where it "falls short" of what a user would pick), the remedy's mean is above U-BFGS's (and whether
  significantly);
* *fit time*: the remedy's median time ratio is not above the peer's.
"""

from __future__ import annotations

import math
import statistics as _statistics
from collections import defaultdict

from lfverify.core import metric_title
from lfverify.experiments._markdown import bold_mean_se, collect_table_values
from lfverify.experiments._statistics import (
    bold_methods,
    one_sided_p_value,
    rejects,
    summarize,
)

__all__ = ["TIME_BASE", "PEER", "PAPER_METHOD", "REMEDIES", "collect_fit_time_ratios", "median_ratios",
           "compare_targets", "format_ratio", "markdown_compare_table", "markdown_compare_targets", "compare_section",
           "README_METHODS", "markdown_readme_table"]

#: The method every fit time is divided by.
TIME_BASE = "LogReg"
#: The estimator a user would pick instead (the issue's peer).
PEER = "Tuned-threshold"
#: The paper's method the remedies must beat where it falls short.
PAPER_METHOD = "U-BFGS"
#: The remedies whose targets are decided.
REMEDIES = ("U-BFGS+refit", "Cost-sensitive", "Cost-sensitive+CV")
_ERM_START_USERS = ("U-GD", "U-BFGS")


def collect_fit_time_ratios(records, timings, metric: str) -> dict:
    """dataset -> method -> [per-trial fit seconds / the same trial's LogReg fit seconds].

    ``records`` and ``timings`` are parallel sequences (a trial's record and its timing file, or None where the
    timing file is missing: that trial has no ratio).  Trials without a LogReg time, or with one that is not a
    finite positive number (zero, NaN, inf: a damaged timing file), are skipped, at any position; so is a method's
    time (or an ERM start it adds) that is not a finite number >= 0.
    """
    ratios = defaultdict(lambda: defaultdict(list))
    for record, timing in zip(records, timings):
        if not timing:
            continue
        seconds = timing.get("methods", {}).get(metric, {})
        base = seconds.get(TIME_BASE)
        if not (_readable_time(base) and base > 0):
            continue
        starts = list(timing.get("methods", {}).get("erm_start", {}).values())
        erm_start = sum(starts) if all(_readable_time(v) for v in starts) else math.nan
        for method, value in seconds.items():
            total = value + (erm_start if method in _ERM_START_USERS else 0.0) if _readable_time(value) else math.nan
            if math.isfinite(total):
                ratios[record["dataset"]][method].append(total / base)
    return {d: dict(m) for d, m in ratios.items()}


def _readable_time(value) -> bool:
    """Whether a timing file's entry is a wall time: a finite number >= 0 (not a bool)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            and value >= 0)


def median_ratios(ratios: dict) -> dict:
    """dataset -> method -> the median per-trial time ratio."""
    return {d: {m: float(_statistics.median(v)) for m, v in ms.items() if v} for d, ms in ratios.items()}


def compare_targets(values: dict, ratios: dict, *, remedies=REMEDIES, alpha: float = 0.05,
                    test: str = "welch") -> dict:
    """The issue's three targets for each remedy on one metric (module docstring).

    Parameters
    ----------
    values : dict
        dataset -> method -> per-trial test values (:func:`lfverify.experiments._markdown.collect_table_values`).
    ratios : dict
        dataset -> method -> median time ratio (:func:`median_ratios`).

    Returns
    -------
    dict
        remedy -> {"datasets": n, "not_below_peer": [datasets], "below_peer": [datasets],
        "paper_short": [datasets where U-BFGS is significantly below the peer], "above_paper_where_short":
        [those where the remedy's mean is above U-BFGS's], "significantly_above_paper_where_short": [...],
        "time_not_above_peer": [datasets], "time_above_peer": [datasets]}
    """
    out = {}
    for remedy in remedies:
        entry = defaultdict(list)
        for dataset in sorted(values):
            row = values[dataset]
            if remedy not in row or PEER not in row:
                continue
            entry["datasets"].append(dataset)
            below = rejects(one_sided_p_value(row[PEER], row[remedy], test=test), alpha)
            entry["below_peer" if below else "not_below_peer"].append(dataset)
            if PAPER_METHOD in row and rejects(one_sided_p_value(row[PEER], row[PAPER_METHOD], test=test), alpha):
                entry["paper_short"].append(dataset)
                if summarize(row[remedy]).mean > summarize(row[PAPER_METHOD]).mean:
                    entry["above_paper_where_short"].append(dataset)
                if rejects(one_sided_p_value(row[remedy], row[PAPER_METHOD], test=test), alpha):
                    entry["significantly_above_paper_where_short"].append(dataset)
            times = ratios.get(dataset, {})
            if remedy in times and PEER in times:
                entry["time_not_above_peer" if times[remedy] <= times[PEER] else "time_above_peer"].append(dataset)
        keys = ("datasets", "not_below_peer", "below_peer", "paper_short", "above_paper_where_short",
                "significantly_above_paper_where_short", "time_not_above_peer", "time_above_peer")
        out[remedy] = {k: list(entry.get(k, [])) for k in keys}
    return out


def format_ratio(ratio: float) -> str:
    """A time ratio for a table cell: two significant digits below 10, whole numbers above ("0.53x", "3.1x", "46x")."""
    return f"{ratio:.2g}x" if ratio < 10 else f"{ratio:.0f}x"


def markdown_compare_table(values: dict, ratios: dict, metric: str, *, methods, alpha: float = 0.05,
                           test: str = "welch", errors: dict | None = None) -> str:
    """One metric's comparison table: mean (s.e. x 10^4), bold by the t-test rule, and the median time ratio."""
    methods = list(methods)
    lines = [f"### {metric_title(metric)}", "",
             f"Cells: mean test {metric} (standard error x 10^4; bold = best or not significantly below the best, "
             f"one-sided {test} t-test at {alpha:g}) and the median fit time as a ratio to {TIME_BASE} in the same "
             "trial.", "",
             "| dataset | " + " | ".join(methods) + " |", "|" + "---|" * (len(methods) + 1)]
    for dataset in sorted(values):
        row = {m: v for m, v in values[dataset].items() if m in methods and len(v)}
        if not row:
            continue
        decision = bold_methods(row, alpha=alpha, test=test)
        cells = []
        for method in methods:
            if method not in row:
                cells.append("-")
                continue
            text = bold_mean_se(row[method], decision.bold[method])
            ratio = ratios.get(dataset, {}).get(method)
            cells.append(text if ratio is None else f"{text} {format_ratio(ratio)}")
        lines.append(f"| {dataset} ({max(len(v) for v in row.values())}) | " + " | ".join(cells) + " |")
    lines.append("")
    for dataset in sorted(errors or {}):
        for method, messages in sorted(errors[dataset].items()):
            lines.append(f"* {dataset}, {method}: {len(messages)} failed trial(s), e.g. `{messages[0]}`")
    return "\n".join(lines).rstrip() + "\n"


def markdown_compare_targets(targets_by_metric: dict, *, alpha: float = 0.05) -> str:
    """The targets' verdicts for every remedy and metric (counts, with the data sets that miss)."""
    lines = ["### Targets of the remedies", "",
             f"Decided by the one-sided t-test at {alpha:g}: *not below {PEER}* counts the data sets where the remedy "
             f"is not significantly below it; *{PAPER_METHOD} short* are the data sets where {PAPER_METHOD} is "
             f"significantly below {PEER}, and the remedy should be above {PAPER_METHOD} there; *time* counts the "
             f"data sets where the remedy's median fit-time ratio is not above {PEER}'s.", "",
             f"| remedy | metric | not below {PEER} | below it on | {PAPER_METHOD} short | remedy above it there "
             f"(significantly) | time not above {PEER}'s | slower on |",
             "|---|---|---|---|---|---|---|---|"]
    for metric, targets in targets_by_metric.items():
        for remedy, t in targets.items():
            n = len(t["datasets"])
            timed = len(t["time_not_above_peer"]) + len(t["time_above_peer"])
            lines.append(
                f"| {remedy} | {metric} | {len(t['not_below_peer'])} / {n} | {', '.join(t['below_peer']) or '-'} | "
                f"{len(t['paper_short'])} | {len(t['above_paper_where_short'])} / {len(t['paper_short'])} "
                f"({len(t['significantly_above_paper_where_short'])}) | {len(t['time_not_above_peer'])} / {timed} | "
                f"{', '.join(t['time_above_peer']) or '-'} |")
    return "\n".join(lines) + "\n"


def compare_section(records, timings, *, metrics, methods, alpha: float = 0.05, test: str = "welch"):
    """The markdown of the compare experiment and its summary.json block."""
    lines = ["## Which estimator? The paper's methods, the remedies and their peers (compare)", ""]
    summary = {"values": {}, "fit_time_ratio": {}, "targets": {}}
    for metric in metrics:
        values, errors = collect_table_values(records, metric)
        ratios = median_ratios(collect_fit_time_ratios(records, timings, metric))
        lines.append(markdown_compare_table(values, ratios, metric, methods=methods, alpha=alpha, test=test,
                                            errors=errors))
        summary["values"][metric] = {d: {m: list(v) for m, v in ms.items()} for d, ms in values.items()}
        summary["fit_time_ratio"][metric] = ratios
        summary["targets"][metric] = compare_targets(values, ratios, remedies=[m for m in REMEDIES if m in methods],
                                                     alpha=alpha, test=test)
    lines.append(markdown_compare_targets(summary["targets"], alpha=alpha))
    return "\n".join(lines), summary


#: The columns of the short table of docs/estimators.md: the paper's two methods, the estimator's default and the peer.
README_METHODS = ("U-GD", "U-BFGS", "Cost-sensitive", PEER)
_README_TIMES = ("Cost-sensitive", PEER, "U-GD")


def markdown_readme_table(compare: dict, *, alpha: float = 0.05, test: str = "welch") -> str:
    """The table of docs/estimators.md from a compare run's summary.json block (``compare``).

    Per data set: the mean test F_1 and Jaccard of :data:`README_METHODS`, bold by the t-test rule among these four,
    and the median fit time as a ratio to LogReg of the default, the peer and U-GD.  A test keeps the copy in
    docs/estimators.md equal to this.
    """
    names = {"Cost-sensitive": "default", PEER: "Tuned", "U-GD": "U-GD", "U-BFGS": "U-BFGS"}
    header = ("| data set | " + " | ".join(f"F1 {names[m]}" for m in README_METHODS) + " | "
              + " | ".join(f"Jaccard {names[m]}" for m in README_METHODS) + " | "
              + " | ".join(f"time {names[m]}" for m in _README_TIMES) + " |")
    lines = [header, "|---|" + "---:|" * (2 * len(README_METHODS) + len(_README_TIMES))]
    for dataset in sorted(compare["values"]["f1"]):
        cells = []
        for metric in ("f1", "jaccard"):
            row = {m: compare["values"][metric][dataset][m] for m in README_METHODS}
            bold = bold_methods(row, alpha=alpha, test=test).bold
            for method in README_METHODS:
                text = f"{summarize(row[method]).mean:.3f}"
                cells.append(f"**{text}**" if bold[method] else text)
        times = compare["fit_time_ratio"]["f1"][dataset]
        cells += [format_ratio(times[m]) for m in _README_TIMES]
        lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
