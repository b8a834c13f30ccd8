"""Markdown reports of the benchmark: Tables 2/4/5 beside the paper's printed values, and the convergence claim.

Table cells read ``ours / paper / difference``:

* ours: mean test metric over the trials and its standard error x 10^4 in parentheses, as the paper prints
  them, **bold** when the method is the best of the paper's five methods or not significantly worse than it
  (:func:`lfverify.experiments._statistics.bold_methods`; the TunedThresholdClassifierCV peer is judged
  against that best by the same rule but cannot be the best, so the paper's methods are bolded as in the paper);
* paper: the printed cell of Table 4 / 5 (bold in the paper marked with a trailing ``*``), or ``-``;
* difference: ours - paper, then ``ok`` when |difference| <= 3 sqrt(se_ours^2 + se_paper^2) (the issue's
  acceptance rule) and ``FAR`` otherwise.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

import numpy as np

from lfverify.core import metric_title
from lfverify.experiments._curve_claims import (
    plug_in_significant_wins,
    small_sample_comparisons,
    tau_shapes,
)
from lfverify.experiments._statistics import (
    bold_methods,
    one_sided_p_value,
    rejects,
    summarize,
    within_combined_standard_errors,
)
from lfverify.paper import (
    PAPER_METHODS,
    PAPER_SMALL_SAMPLE_WINS,
    PAPER_TAU_EXTREMUM,
    PAPER_TAU_INCREASING,
    printed_result,
)

__all__ = ["method_sort_key", "collect_table_values", "markdown_results_table", "format_mean_se", "bold_mean_se",
           "markdown_learning_rate_table", "iterations_to_final",
           "convergence_summary", "markdown_convergence_table", "collect_curve_values", "collect_curve_errors",
           "markdown_curve_table", "markdown_sample_complexity_claims", "markdown_tau_claims",
           "collect_training_values", "SurrogateMetricTradeoff", "surrogate_metric_tradeoff",
           "markdown_training_table"]

_METHOD_ORDER = ("U-GD", "U-BFGS", "ERM", "W-ERM", "Plug-in", "Tuned-threshold")


def method_sort_key(method: str):
    """Sort key putting the methods in the order of the paper's tables (the peer last)."""
    return (_METHOD_ORDER.index(method), method) if method in _METHOD_ORDER else (len(_METHOD_ORDER), method)


def format_mean_se(mean: float, standard_error: float | None) -> str:
    """"0.652 (23)": the mean to three decimals and the standard error x 10^4 rounded, as the paper prints."""
    se = "n/a" if standard_error is None else f"{int(round(standard_error * 1e4))}"
    return f"{mean:.3f} ({se})"


def bold_mean_se(values, bold: bool) -> str:
    """A table cell: :func:`format_mean_se` of the trial values, in bold when ``bold``."""
    s = summarize(values)
    text = format_mean_se(s.mean, s.standard_error)
    return f"**{text}**" if bold else text


def collect_table_values(records, metric: str):
    """From trial records: ({dataset: {method: [test values by trial]}}, {dataset: {method: [error messages]}}).

    Trials are ordered by their index, so paired tests pair the same splits.
    """
    values = defaultdict(lambda: defaultdict(list))
    errors = defaultdict(lambda: defaultdict(list))
    for record in sorted(records, key=lambda r: (r["dataset"], r["trial"])):
        for method, result in record["results"].get(metric, {}).items():
            values[record["dataset"]][method].append(float(result["test"]))
        for method, message in record.get("errors", {}).get(metric, {}).items():
            errors[record["dataset"]][method].append(message)
    return ({d: dict(m) for d, m in values.items()}, {d: dict(m) for d, m in errors.items()})


def markdown_results_table(values: dict, metric: str, *, methods, alpha: float = 0.05, test: str = "welch",
                           errors: dict | None = None, notes: dict | None = None) -> str:
    """The benchmark table of one metric (see the module docstring for the cell format).

    Parameters
    ----------
    values : dict
        dataset -> method -> sequence of per-trial test values.
    metric : {"f1", "jaccard"}
    methods : sequence of str, keyword-only
        Column order.
    alpha, test : keyword-only
        The bold rule (:func:`lfverify.experiments._statistics.bold_methods`).
    errors : dict or None
        dataset -> method -> list of error messages (failed trials, reported under the table).
    notes : dict or None
        dataset -> a remark printed under the table (e.g. sonar's prior).
    """
    methods = list(methods)
    header = "| dataset | " + " | ".join(methods) + " |"
    lines = [f"### {metric_title(metric)}", "",
             "Cells: ours (mean, standard error x 10^4; bold = best or not significantly worse, one-sided "
             f"{test} t-test at {alpha:g}) / the paper's printed value (`*` = bold in the paper) / ours - paper, "
             "`ok` if within 3 combined standard errors, `FAR` if not.", "",
             header, "|" + "---|" * (len(methods) + 1)]
    tally = defaultdict(lambda: [0, 0])
    for dataset in sorted(values):
        row = {m: v for m, v in values[dataset].items() if m in methods and len(v)}
        if not row:
            continue
        contenders = [m for m in methods if m in row and m in PAPER_METHODS] or list(row)
        decision = bold_methods(row, alpha=alpha, test=test, contenders=contenders)
        cells = []
        for method in methods:
            if method not in row:
                cells.append("-")
                continue
            s = summarize(row[method])
            ours = bold_mean_se(row[method], decision.bold[method])
            printed = printed_result(metric, dataset, method)
            if printed is None:
                cells.append(f"{ours} / - ")
                continue
            paper = format_mean_se(printed.mean, printed.standard_error) + ("*" if printed.bold else "")
            within = within_combined_standard_errors(s.mean, s.standard_error, printed.mean,
                                                     printed.standard_error)
            verdict = "" if within is None else (" ok" if within else " FAR")
            if within is not None:
                tally[method][0] += int(within)
                tally[method][1] += 1
            cells.append(f"{ours} / {paper} / {s.mean - printed.mean:+.3f}{verdict}")
        n_trials = max(len(v) for v in row.values())
        lines.append(f"| {dataset} ({n_trials}) | " + " | ".join(cells) + " |")
    lines.append("")
    if tally:
        lines.append("Within 3 combined standard errors of the paper: " + ", ".join(
            f"{m} {tally[m][0]}/{tally[m][1]}" for m in methods if m in tally) + ".")
    for dataset in sorted(errors or {}):
        for method, messages in sorted(errors[dataset].items()):
            lines.append(f"* {dataset}, {method}: {len(messages)} failed trial(s), e.g. `{messages[0]}`")
    for dataset in sorted(notes or {}):
        if dataset in values:
            lines.append(f"* {dataset}: {notes[dataset]}")
    return "\n".join(lines).rstrip() + "\n"


def markdown_learning_rate_table(records, metric: str, *, methods=("U-GD", "U-BFGS"), rates=None) -> str:
    """How often each learning rate won the 4:1 validation (Sec. 6), per data set and proposed method.

    A small rate keeps the fit near its ERM start within 100 iterations, so these counts tell how much of a
    method's result is the surrogate maximisation itself.
    """
    counts = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    seen = set()
    for record in records:
        for method in methods:
            result = record["results"].get(metric, {}).get(method)
            if result is not None and "learning_rate" in result:
                counts[record["dataset"]][method][result["learning_rate"]] += 1
                seen.add(result["learning_rate"])
    rates = sorted(seen | set(rates or ()), reverse=True)
    lines = [f"### Learning rates chosen on validation, {metric_title(metric)}", "",
             "Trials in which each rate won (rates " + ", ".join(f"{r:g}" for r in rates) + ").", "",
             "| dataset | " + " | ".join(methods) + " |", "|" + "---|" * (len(methods) + 1)]
    for dataset in sorted(counts):
        cells = [" / ".join(str(counts[dataset][m].get(r, 0)) for r in rates) for m in methods]
        lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- convergence (Sec. 6, App. C.3)
def iterations_to_final(history, *, relative: float | None = None, absolute: float | None = None) -> int:
    """The first iteration k after which a history stays within a tolerance of its final value.

    With ``relative`` the band is relative * |final - initial| (the share of the total change still to come);
    with ``absolute`` it is a fixed width.  ``None`` entries (undefined U_hat before phase 2) count as outside.
    """
    if (relative is None) == (absolute is None):
        raise ValueError("give exactly one of relative and absolute")
    h = np.array([np.nan if v is None else v for v in history], dtype=np.float64)
    if h.size == 0 or not np.isfinite(h[-1]):
        raise ValueError("history must end with a finite value")
    finite_start = h[np.isfinite(h)][0]
    band = absolute if absolute is not None else relative * abs(h[-1] - finite_start)
    outside = ~(np.abs(h - h[-1]) <= band)  # NaN counts as outside
    idx = np.flatnonzero(outside)
    return 0 if idx.size == 0 else int(idx[-1] + 1)


def convergence_summary(records, metric: str, *, reach: int = 30, surrogate_share: float = 0.01,
                        metric_band: float = 0.005, test_band: float = 0.01) -> dict:
    """Per data set and method: iterations until the training U_hat is within ``surrogate_share`` of its total
    gain and until the training metric is within ``metric_band`` of its final value (medians over trials); the
    first checkpoint from which the *mean test curve* (the paper's figures) stays within ``test_band`` of its
    final value; and the mean test metric at iteration ``reach`` and at the last iteration."""
    out = {}
    curves = {}
    for record in records:
        results = record["results"].get(metric)
        if not results:
            continue
        checkpoints = record["checkpoints"]
        per_dataset = out.setdefault(record["dataset"], {})
        for method, r in results.items():
            entry = per_dataset.setdefault(method, {"surrogate_iters": [], "metric_iters": [], "test_reach": [],
                                                    "test_final": []})
            entry["surrogate_iters"].append(iterations_to_final(r["surrogate_history"], relative=surrogate_share))
            entry["metric_iters"].append(iterations_to_final(r["train_history"], absolute=metric_band))
            if reach in checkpoints:
                entry["test_reach"].append(r["test_at_checkpoints"][checkpoints.index(reach)])
            entry["test_final"].append(r["test_at_checkpoints"][-1])
            curves.setdefault((record["dataset"], method), (checkpoints, []))[1].append(r["test_at_checkpoints"])
    summary = {}
    for dataset, methods in out.items():
        summary[dataset] = {}
        for method, e in methods.items():
            summary[dataset][method] = {
                "trials": len(e["test_final"]),
                "median_surrogate_iters": float(np.median(e["surrogate_iters"])),
                "median_metric_iters": float(np.median(e["metric_iters"])),
                "test_curve_iters": _curve_iterations(*curves[(dataset, method)], test_band),
                "test_at_reach": summarize(e["test_reach"]) if e["test_reach"] else None,
                "test_final": summarize(e["test_final"]),
            }
    return summary


def _curve_iterations(checkpoints, test_curves, band):
    """The first checkpoint from which the mean of the test curves stays within ``band`` of its last value."""
    mean = np.mean(np.array(test_curves, dtype=np.float64), axis=0)
    return int(checkpoints[iterations_to_final(mean, absolute=band)])


def markdown_convergence_table(summary: dict, metric: str, *, reach: int = 30, max_iter: int = 300,
                               surrogate_share: float = 0.01, metric_band: float = 0.005,
                               test_band: float = 0.01) -> str:
    """Sec. 6's claim "U-BFGS converges much faster than U-GD ..., up to 30 iterations", measured."""
    methods = ["U-GD", "U-BFGS"]
    lines = [f"### Convergence, {metric_title(metric)} (N(0, I) start, {max_iter} iterations)", "",
             f"Iterations until the training surrogate utility stays within {surrogate_share:.0%} of its total "
             f"gain / until the training {metric} stays within {metric_band:g} of its final value (medians over "
             f"trials) / until the mean test curve (the paper's figures) stays within {test_band:g} of its final "
             f"value; test {metric} at iteration {reach} and at {max_iter} (mean (se x 10^4)).", "",
             "| dataset | " + " | ".join(f"{m} iters (U_hat / train / test curve) | {m} test @{reach} | "
                                          f"{m} test @{max_iter}" for m in methods) + " |",
             "|" + "---|" * (1 + 3 * len(methods))]
    fast = fast_test = 0
    for dataset in sorted(summary):
        cells = []
        for method in methods:
            s = summary[dataset].get(method)
            if s is None:
                cells += ["-", "-", "-"]
                continue
            at = s["test_at_reach"]
            cells += [f"{s['median_surrogate_iters']:g} / {s['median_metric_iters']:g} / {s['test_curve_iters']}",
                      "-" if at is None else format_mean_se(at.mean, at.standard_error),
                      format_mean_se(s["test_final"].mean, s["test_final"].standard_error)]
        bfgs = summary[dataset].get("U-BFGS")
        if bfgs is not None:
            fast += bfgs["median_surrogate_iters"] <= reach
            fast_test += bfgs["test_curve_iters"] <= reach
        lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
    lines += ["", f"U-BFGS reaches its final surrogate utility (within {surrogate_share:.0%}) within {reach} "
                  f"iterations on {fast} of {len(summary)} data sets (median over trials); its mean test curve is "
                  f"within {test_band:g} of its final value from iteration {reach} or earlier on {fast_test} of "
                  f"{len(summary)}."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- curves (App. C.5, C.6)
def collect_curve_values(records, metric: str, key: str) -> dict:
    """dataset -> method -> x -> [test values] for sample-complexity (key "train_size") or tau ("tau") records."""
    out = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for record in records:
        x = record["settings"][key]
        for method, result in record["results"].get(metric, {}).items():
            out[record["dataset"]][method][x].append(float(result["test"]))
    return {d: {m: dict(xs) for m, xs in ms.items()} for d, ms in out.items()}


def collect_curve_errors(records, metric: str, key: str) -> list:
    """(dataset, method, x, message) of every failed trial of a curve study (excluded from the means)."""
    return sorted((r["dataset"], method, r["settings"][key], message)
                  for r in records for method, message in r.get("errors", {}).get(metric, {}).items())


def markdown_curve_table(curves: dict, metric: str, *, label: str, title: str, errors=()) -> str:
    """A compact table of a curve study: one row per (data set, method), one column per x value; failed
    trials (``errors`` from :func:`collect_curve_errors`) are listed under it."""
    xs = sorted({x for d in curves.values() for m in d.values() for x in m})
    lines = [f"### {title}, {metric_title(metric)}", "",
             f"Mean test {metric} (se x 10^4) by {label}.", "",
             "| dataset | method | " + " | ".join(f"{x:g}" for x in xs) + " |", "|" + "---|" * (len(xs) + 2)]
    for dataset in sorted(curves):
        for method in sorted(curves[dataset], key=method_sort_key):
            row = curves[dataset][method]
            cells = []
            for x in xs:
                if x in row and row[x]:
                    s = summarize(row[x])
                    cells.append(format_mean_se(s.mean, s.standard_error))
                else:
                    cells.append("-")
            lines.append(f"| {dataset} | {method} | " + " | ".join(cells) + " |")
    if errors:
        lines.append("")
        lines += [f"* failed trial (excluded from the mean): {d}, {m}, {label} = {x:g}: `{msg}`"
                  for d, m, x, msg in errors]
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    """'1 data set', '2 data sets'."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _format_p(p_value: float | None) -> str:
    return "n/a" if p_value is None else f"{p_value:.3g}"


def markdown_sample_complexity_claims(curves: dict, metric: str, *, alpha: float = 0.05) -> str:
    """App. C.5's two statements decided on the run (:mod:`lfverify.experiments`)."""
    named = PAPER_SMALL_SAMPLE_WINS.get(metric, ())
    rows = small_sample_comparisons(curves, alpha=alpha)
    lines = [f"App. C.5, {metric_title(metric)}: \"either U-GD or U-BFGS works better than Plug-in "
             f"even if sample sizes are quite small around 20 to 40\" (named by the paper for "
             f"{', '.join(named) or 'no data set'}). The better proposed method against Plug-in, one-sided "
             f"Welch t-test at {alpha:g}:", "",
             "| dataset | named by the paper | n | better proposed | its mean | Plug-in mean | p | better |",
             "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r.dataset} | {'yes' if r.dataset in named else 'no'} | {r.size} | {r.method} | {r.mean:.3f} | "
              f"{r.plug_in_mean:.3f} | {_format_p(r.p_value)} | {'yes' if r.significant else 'no'} |" for r in rows]
    datasets = sorted({r.dataset for r in rows})
    held = [d for d in datasets if any(r.significant for r in rows if r.dataset == d)]
    named_here = [d for d in datasets if d in named]
    lines += ["", f"Significantly better at some n <= 40 on {len(held)} of {_count(len(datasets), 'data set')} "
              f"({', '.join(held) or 'none'}); of the {len(named_here)} the paper names and this run has, "
              f"{sum(d in held for d in named_here)}."]
    wins, compared = plug_in_significant_wins(curves, alpha=alpha)
    lines += ["", f"\"Plug-in seldom works significantly better than the gradient-based methods [...] around 100 "
              f"to 400\": Plug-in significantly better than both U-GD and U-BFGS in {len(wins)} of {compared} "
              f"(data set, n) with 100 <= n <= 400"
              + (f" ({', '.join(f'{d} n = {n}' for d, n in wins)})." if wins else ".")]
    return "\n".join(lines) + "\n"


def markdown_tau_claims(curves: dict, metric: str, *, alpha: float = 0.05) -> str:
    """App. C.6's two statements decided on the run (:mod:`lfverify.experiments`)."""
    increasing, extremum = PAPER_TAU_INCREASING.get(metric, ()), PAPER_TAU_EXTREMUM.get(metric, ())
    rows = sorted(tau_shapes(curves, alpha=alpha), key=lambda r: (r.dataset, method_sort_key(r.method)))

    def named(dataset):
        kinds = [k for k, names in (("increasing", increasing), ("extremum", extremum)) if dataset in names]
        return ", ".join(kinds) or "-"

    lines = [f"App. C.6, {metric_title(metric)}: \"the performance becomes better as tau becomes "
             f"closer to 1\" (increasing: the mean at the largest tau above the mean at the smallest) and \"there "
             f"exist extrema\" (the best tau strictly inside, above both ends); one-sided Welch t-tests at "
             f"{alpha:g}:", "",
             "| dataset | named by the paper | method | largest - smallest tau | p | increasing | best tau | "
             "interior maximum |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r.dataset} | {named(r.dataset)} | {r.method} | {r.rise:+.3f} | {_format_p(r.rise_p_value)} | "
              f"{'yes' if r.increasing else 'no'} | {r.best_tau:g} | {'yes' if r.interior_maximum else 'no'} |"
              for r in rows]
    for kind, names, flag in (("increasing", increasing, "increasing"), ("extremum", extremum, "interior_maximum")):
        here = sorted({r.dataset for r in rows if r.dataset in names})
        shown = [d for d in here if any(getattr(r, flag) for r in rows if r.dataset == d)]
        lines += ["", f"Named {kind} by the paper and in this run: {_count(len(here), 'data set')}; U-GD or U-BFGS "
                  f"shows it significantly on {len(shown)} ({', '.join(shown) or 'none'})."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the training set (U-GD beside U-BFGS)
def collect_training_values(records, metric: str, *, methods=("U-GD", "U-BFGS")) -> dict:
    """dataset -> method -> {"surrogate": [...], "metric": [...]}: the training-set U_hat (Eq. (6)) and metric
    of the final theta of each of ``methods``, by trial, over the trials in which all of them succeeded (so the
    lists pair trial by trial; a trial without a finite value of every method is left out)."""
    out = defaultdict(lambda: {m: {"surrogate": [], "metric": []} for m in methods})
    for record in sorted(records, key=lambda r: (r["dataset"], r["trial"])):
        results = record["results"].get(metric, {})
        if not all(results.get(m, {}).get(k) is not None for m in methods for k in ("train_surrogate",
                                                                                     "train_metric")):
            continue  # a failed fit, or a non-finite value (an unbounded U_hat is recorded as None)
        for method in methods:
            out[record["dataset"]][method]["surrogate"].append(float(results[method]["train_surrogate"]))
            out[record["dataset"]][method]["metric"].append(float(results[method]["train_metric"]))
    return dict(out)


class SurrogateMetricTradeoff(NamedTuple):
    """U-BFGS against U-GD on the training set of one data set (paired one-sided t-tests, trial by trial)."""

    higher_surrogate_p: float | None  #: H1: U-BFGS's U_hat > U-GD's
    lower_metric_p: float | None  #: H1: U-BFGS's training metric < U-GD's
    higher_surrogate: bool
    lower_metric: bool


def surrogate_metric_tradeoff(per_method: dict, *, alpha: float = 0.05) -> SurrogateMetricTradeoff:
    """Does U-BFGS reach a higher surrogate utility than U-GD and yet a lower training metric?  ``per_method``:
    one data set of :func:`collect_training_values`."""
    gd, bfgs = per_method["U-GD"], per_method["U-BFGS"]
    p_surrogate = one_sided_p_value(bfgs["surrogate"], gd["surrogate"], test="paired")
    p_metric = one_sided_p_value(gd["metric"], bfgs["metric"], test="paired")
    return SurrogateMetricTradeoff(p_surrogate, p_metric, rejects(p_surrogate, alpha), rejects(p_metric, alpha))


def markdown_training_table(training: dict, metric: str, *, alpha: float = 0.05) -> str:
    """U-GD beside U-BFGS on the training set: mean U_hat and training metric, and the paired tests of
    :func:`surrogate_metric_tradeoff`."""
    lines = [f"### U-GD and U-BFGS on the training set, {metric_title(metric)}", "",
             f"Mean training-set U_hat (Eq. (6)) and training {metric} of the final theta; one-sided paired t-tests "
             f"at {alpha:g}, trial by trial: is U-BFGS's U_hat higher, and its training {metric} lower?", "",
             f"| dataset | U_hat U-GD | U_hat U-BFGS | train {metric} U-GD | train {metric} U-BFGS | "
             f"U_hat higher (p) | {metric} lower (p) |", "|---|---|---|---|---|---|---|"]
    both = 0
    for dataset in sorted(training):
        per_method = training[dataset]
        if not per_method["U-GD"]["surrogate"]:
            continue
        t = surrogate_metric_tradeoff(per_method, alpha=alpha)
        both += t.higher_surrogate and t.lower_metric
        means = [summarize(per_method[m][k]).mean for k in ("surrogate", "metric") for m in ("U-GD", "U-BFGS")]
        lines.append(f"| {dataset} | " + " | ".join(f"{v:.3f}" for v in means) +
                     f" | {'yes' if t.higher_surrogate else 'no'} ({_format_p(t.higher_surrogate_p)}) | "
                     f"{'yes' if t.lower_metric else 'no'} ({_format_p(t.lower_metric_p)}) |")
    n = sum(bool(per_method["U-GD"]["surrogate"]) for per_method in training.values())
    lines += ["", f"U-BFGS reaches a significantly higher U_hat and a significantly lower training {metric} than "
              f"U-GD on {both} of {_count(n, 'data set')}."]
    return "\n".join(lines) + "\n"
