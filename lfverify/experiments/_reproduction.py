"""Every printed cell of Tables 4-5 against the runs that cover it, and a diagnosis of each disagreement.

The issue's acceptance rule: a cell of ours agrees with the paper when |mean - printed| <= 3 sqrt(se^2 +
se_paper^2) (:func:`lfverify.experiments._statistics.within_combined_standard_errors`); a U-GD / U-BFGS cell
that does not must be explained.  :func:`diagnose` attaches to each such cell the first of these readings that
the numbers support (each "below" / "above" again decided by the same 3-combined-standard-error band):

1. ``paper below its ERM``: the printed value lies below the paper's own ERM cell - the linear SVM that App. C.2
   uses as the start of U-GD / U-BFGS - while ours lies above the printed value (the paper's optimizer ended
   far below its start; ours did not);
2. ``left its start``: ours lies below the printed value *and* below our own ERM cell: the optimizer moved from
   its start to a maximiser of U_hat that tests worse (U-BFGS, which maximises U_hat hardest);
2b. ``U_hat over the metric`` (U-BFGS, with the training-set values of the run): ours lies below the printed
   value while on the training set U-BFGS reaches a significantly higher U_hat than U-GD *and* a significantly
   lower training metric (paired one-sided t-tests at 5 %): the shortfall is the surrogate's, not
   generalisation's - maximising U_hat harder lowers the metric on the very data it is maximised on;
3. ``start differs``: our ERM cell differs from the paper's ERM cell in the same direction as the disagreement
   (the method inherits a different start);
4. ``tiny standard errors``: |ours - printed| < 0.005, outside the band only because both standard errors are
   a few 10^-4;
5. ``unexplained`` otherwise.

These are diagnoses read off the numbers, not proofs; FINDINGS.md discusses them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import NamedTuple

from lfverify.experiments._markdown import surrogate_metric_tradeoff
from lfverify.experiments._statistics import (
    TrialSummary,
    summarize,
    within_combined_standard_errors,
)
from lfverify.io import is_regular, read_text
from lfverify.paper import PAPER_METHODS, printed_result

__all__ = ["CellComparison", "load_table_values", "compare_with_paper", "diagnose", "markdown_reproduction",
           "SMALL_DIFFERENCE"]

PROPOSED = ("U-GD", "U-BFGS")
#: Below this |ours - printed| a disagreement is put down to tiny standard errors (reading 4).
SMALL_DIFFERENCE = 0.005


class CellComparison(NamedTuple):
    """One (metric, data set, method) cell of ours beside the printed one."""

    metric: str
    dataset: str
    method: str
    ours: TrialSummary
    paper_mean: float
    paper_standard_error: float
    within: bool | None  #: None: a single trial (no standard error)
    z: float | None  #: (ours - printed) / combined standard error
    diagnosis: str  #: "" unless a U-GD / U-BFGS cell is outside the band


def load_table_values(folders) -> tuple[dict, dict, dict]:
    """(metric -> data set -> method -> test values by trial, metric -> data set -> the training-set values of
    :func:`lfverify.experiments._markdown.collect_training_values`, data set -> folder) from the
    ``summary.json`` of each ``lfverify bench`` output folder; a data set found in two folders is an error
    (which run would count?)."""
    values, training, source = {}, {}, {}
    for folder in map(Path, folders):
        path = folder / "summary.json"
        if not is_regular(path):  # a FIFO, folder or device in its place: NotARegularFile, never a wait
            raise ValueError(f"folders must be lfverify bench output folders with a summary.json; got {folder}")
        summary = json.loads(read_text(path))
        for metric, per_dataset in summary.get("table", {}).items():
            for dataset, per_method in per_dataset.items():
                if source.setdefault(dataset, folder) != folder:
                    raise ValueError(f"data set {dataset!r} is in two folders: {source[dataset]} and {folder}")
                values.setdefault(metric, {})[dataset] = per_method
        for metric, per_dataset in summary.get("training", {}).items():
            training.setdefault(metric, {}).update(per_dataset)
    return values, training, source


def _disagreement(mean, standard_error, other_mean, other_standard_error) -> int:
    """+1 / -1 when ``mean`` lies above / below ``other_mean`` by more than 3 combined standard errors, else 0."""
    if within_combined_standard_errors(mean, standard_error, other_mean, other_standard_error) is not False:
        return 0
    return 1 if mean > other_mean else -1


def _training_gains(training: dict) -> tuple[float, float]:
    """(mean U_hat of U-BFGS - of U-GD, mean training metric of U-BFGS - of U-GD) on one data set."""
    surrogate, metric = (summarize(training["U-BFGS"][k]).mean - summarize(training["U-GD"][k]).mean
                         for k in ("surrogate", "metric"))
    return surrogate, metric


def diagnose(metric: str, dataset: str, method: str, per_method: dict, training: dict | None = None) -> str:
    """The reading (module docstring) of a U-GD / U-BFGS cell outside the band; ``""`` for a cell inside it.
    ``per_method``: method -> test values; ``training``: this data set's training-set values
    (:func:`lfverify.experiments._markdown.collect_training_values`), or None."""
    paper = printed_result(metric, dataset, method)
    ours = summarize(per_method[method])
    side = _disagreement(ours.mean, ours.standard_error, paper.mean, paper.standard_error)
    if side == 0:
        return ""
    paper_erm = printed_result(metric, dataset, "ERM")
    our_erm = summarize(per_method["ERM"]) if per_method.get("ERM") else None
    if side > 0 and _disagreement(paper.mean, paper.standard_error, paper_erm.mean, paper_erm.standard_error) < 0:
        return (f"paper below its ERM: the printed {paper.mean:.3f} is below the paper's own ERM start "
                f"{paper_erm.mean:.3f}; ours {ours.mean:.3f}" +
                (f" (our ERM {our_erm.mean:.3f})" if our_erm else ""))
    if our_erm is None:
        return "unexplained (no ERM trials in the run)"
    if side < 0 and _disagreement(ours.mean, ours.standard_error, our_erm.mean, our_erm.standard_error) < 0:
        return (f"left its start: ours {ours.mean:.3f} is below our ERM start {our_erm.mean:.3f} (the paper's "
                f"{method} {paper.mean:.3f}, its ERM {paper_erm.mean:.3f})")
    if side < 0 and method == "U-BFGS" and training and training["U-GD"]["surrogate"]:
        t = surrogate_metric_tradeoff(training)
        if t.higher_surrogate and t.lower_metric:
            surrogate_gain, metric_gain = _training_gains(training)
            return (f"U_hat over the metric: on the training set U-BFGS's U_hat is {surrogate_gain:+.3f} and its "
                    f"{metric} {metric_gain:+.3f} against U-GD's")
    if _disagreement(our_erm.mean, our_erm.standard_error, paper_erm.mean, paper_erm.standard_error) == side:
        return (f"start differs: our ERM {our_erm.mean:.3f} against the paper's {paper_erm.mean:.3f}, "
                f"{'above' if side > 0 else 'below'} as this cell is")
    if abs(ours.mean - paper.mean) < SMALL_DIFFERENCE:
        return (f"tiny standard errors: a difference of {ours.mean - paper.mean:+.4f} at standard errors "
                f"{ours.standard_error:.4f} (ours) and {paper.standard_error:.4f} (paper)")
    return "unexplained"


class CellComparisons(list):
    """The :class:`CellComparison` rows of :func:`compare_with_paper` (a list), with the cells it left out.

    ``left_out`` holds one ``(metric, dataset, method, reason)`` per cell of a compared (metric, data set) that has
    a value on one side only: ``"no trial values"`` (the paper prints it, the run has no values for it) or ``"not
    printed"`` (the run has values, the paper prints no such cell), so that a missing side is reported, not
    silently dropped from the counts.
    """

    left_out: tuple = ()


def compare_with_paper(values: dict, training: dict | None = None) -> CellComparisons:
    """Every cell of ``values`` (metric -> data set -> method -> trial values) that the paper prints;
    ``training`` (metric -> data set -> training-set values) feeds reading 2b of the diagnosis.  A cell of the
    paper's methods with a value on one side only is left out and named in the result's ``left_out``."""
    training = training or {}
    rows, left_out = CellComparisons(), []
    for metric in sorted(values):
        for dataset in sorted(values[metric]):
            per_method = values[metric][dataset]
            for method in PAPER_METHODS:
                paper = printed_result(metric, dataset, method)
                if paper is None or not per_method.get(method):
                    if (paper is None) != (not per_method.get(method)):
                        left_out.append((metric, dataset, method,
                                         "not printed" if paper is None else "no trial values"))
                    continue
                ours = summarize(per_method[method])
                within = within_combined_standard_errors(ours.mean, ours.standard_error, paper.mean,
                                                         paper.standard_error)
                z = (None if ours.standard_error is None else
                     (ours.mean - paper.mean) / math.hypot(ours.standard_error, paper.standard_error))
                rows.append(CellComparison(metric, dataset=dataset, method=method, ours=ours, paper_mean=paper.mean,
                                           paper_standard_error=paper.standard_error,
                                           within=within, z=z,
                                           diagnosis=diagnose(metric, dataset, method, per_method=per_method,
                                                               training=training.get(metric, {}).get(dataset))
                                           if method in PROPOSED else ""))
    rows.left_out = tuple(left_out)
    return rows


def _training_note(training: dict, metric: str, dataset: str, alpha: float) -> str:
    """'U_hat +0.21 (p), train f1 -0.045 (p)' for U-BFGS against U-GD on the training set, or '-'."""
    per_method = training.get(metric, {}).get(dataset)
    if not per_method or not per_method["U-GD"]["surrogate"]:
        return "-"
    t = surrogate_metric_tradeoff(per_method, alpha=alpha)
    surrogate_gain, metric_gain = _training_gains(per_method)
    return (f"U_hat {surrogate_gain:+.3f}{'' if t.higher_surrogate else ' (n.s.)'}, train {metric} "
            f"{metric_gain:+.3f}{'' if t.lower_metric else ' (n.s.)'}")


def markdown_reproduction(rows: list[CellComparison], *, groups: dict | None = None, training: dict | None = None,
                          alpha: float = 0.05) -> str:
    """Counts of cells within the band per method (and per group of data sets, ``groups``: label -> data sets),
    then every U-GD / U-BFGS cell outside it with its diagnosis; with ``training`` (metric -> data set -> method
    -> ``{"surrogate": [...], "metric": [...]}``: the training-set U_hat and metric by trial) also U-BFGS against
    U-GD on the training set (paired one-sided t-tests at ``alpha``; "n.s." = not significant)."""
    training = training or {}
    groups = groups or {"all data sets": sorted({r.dataset for r in rows})}
    methods = [m for m in PAPER_METHODS if any(r.method == m for r in rows)]
    lines = ["| data sets | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for label, datasets in groups.items():
        cells = []
        for method in methods:
            mine = [r for r in rows if r.method == method and r.dataset in datasets and r.within is not None]
            cells.append(f"{sum(r.within for r in mine)} / {len(mine)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    left_out = getattr(rows, "left_out", ())
    if left_out:
        lines += ["", f"Cells left out ({len(left_out)}, a value on one side only): "
                  + ", ".join(f"{m} / {d} / {method} ({reason})" for m, d, method, reason in left_out) + "."]
    outside = [r for r in rows if r.method in PROPOSED and r.within is False]
    lines += ["", f"U-GD / U-BFGS cells outside the band ({len(outside)} of "
              f"{sum(r.method in PROPOSED and r.within is not None for r in rows)}):", "",
              "| metric | dataset | method | ours (se x 10^4) | paper | z | diagnosis | training set: U-BFGS - U-GD |",
              "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r.metric} | {r.dataset} | {r.method} | {r.ours.mean:.3f} ({r.ours.standard_error * 1e4:.0f}) | "
              f"{r.paper_mean:.3f} ({r.paper_standard_error * 1e4:.0f}) | {r.z:+.1f} | {r.diagnosis} | "
              f"{_training_note(training, r.metric, r.dataset, alpha) if r.method == 'U-BFGS' else '-'} |"
              for r in outside]
    pairs = [(metric, dataset) for metric in sorted(training) for dataset in sorted(training[metric])
             if training[metric][dataset]["U-GD"]["surrogate"]]
    if pairs:
        verdicts = [surrogate_metric_tradeoff(training[m][d], alpha=alpha) for m, d in pairs]
        lines += ["", f"U-BFGS against U-GD on the training set, over all {len(pairs)} (metric, data set) pairs: "
                  f"U_hat significantly higher on {sum(t.higher_surrogate for t in verdicts)}, the training metric "
                  f"significantly lower on {sum(t.lower_metric for t in verdicts)}, both on "
                  f"{sum(t.higher_surrogate and t.lower_metric for t in verdicts)} (paired one-sided t-tests at "
                  f"{alpha:g})."]
    return "\n".join(lines) + "\n"
