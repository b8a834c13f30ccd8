"""Every printed cell of Tables 4-5 against the runs that cover it, and a diagnosis of each disagreement.

The issue's acceptance rule: a cell of ours agrees with the paper when |mean - printed| <= 3 sqrt(se^2 +
se_paper^2) (:func:`lfverify.paper_benchmark.statistics.within_combined_standard_errors`); a U-GD / U-BFGS cell
that does not must be explained.  :func:`diagnose` attaches to each such cell the first of these readings that
the numbers support (each "below" / "above" again decided by the same 3-combined-standard-error band):

1. ``paper below its ERM``: the printed value lies below the paper's own ERM cell - the linear SVM that App. C.2
   uses as the start of U-GD / U-BFGS - while ours lies above the printed value (the paper's optimizer ended
   far below its start; ours did not);
2. ``left its start``: ours lies below the printed value *and* below our own ERM cell: the optimizer moved from
   its start to a maximiser of U_hat that tests worse (U-BFGS, which maximises U_hat hardest);
3. ``start differs``: our ERM cell differs from the paper's ERM cell in the same direction as the disagreement
   (the method inherits a different start);
4. ``tiny standard errors``: |ours - printed| < 0.005, outside the band only because both standard errors are
   a few 10^-4;
5. ``unexplained`` otherwise.

These are diagnoses read off the numbers, not proofs; README "Findings" discusses them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import NamedTuple

from .paper_values import PAPER_METHODS, printed_result
from .statistics import TrialSummary, summarize, within_combined_standard_errors

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


def load_table_values(folders) -> tuple[dict, dict]:
    """(metric -> data set -> method -> trial values, data set -> folder) from the ``summary.json`` of each
    ``lfverify bench`` output folder; a data set found in two folders is an error (which run would count?)."""
    values, source = {}, {}
    for folder in map(Path, folders):
        path = folder / "summary.json"
        if not path.is_file():
            raise ValueError(f"folders must be lfverify bench output folders with a summary.json; got {folder}")
        table = json.loads(path.read_text()).get("table", {})
        for metric, per_dataset in table.items():
            for dataset, per_method in per_dataset.items():
                if source.setdefault(dataset, folder) != folder:
                    raise ValueError(f"data set {dataset!r} is in two folders: {source[dataset]} and {folder}")
                values.setdefault(metric, {})[dataset] = per_method
    return values, source


def _disagreement(mean, standard_error, other_mean, other_standard_error) -> int:
    """+1 / -1 when ``mean`` lies above / below ``other_mean`` by more than 3 combined standard errors, else 0."""
    if within_combined_standard_errors(mean, standard_error, other_mean, other_standard_error) is not False:
        return 0
    return 1 if mean > other_mean else -1


def diagnose(metric: str, dataset: str, method: str, per_method: dict) -> str:
    """The reading (module docstring) of a U-GD / U-BFGS cell outside the band; ``""`` for a cell inside it."""
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
    if _disagreement(our_erm.mean, our_erm.standard_error, paper_erm.mean, paper_erm.standard_error) == side:
        return (f"start differs: our ERM {our_erm.mean:.3f} against the paper's {paper_erm.mean:.3f}, "
                f"{'above' if side > 0 else 'below'} as this cell is")
    if abs(ours.mean - paper.mean) < SMALL_DIFFERENCE:
        return (f"tiny standard errors: a difference of {ours.mean - paper.mean:+.4f} at standard errors "
                f"{ours.standard_error:.4f} (ours) and {paper.standard_error:.4f} (paper)")
    return "unexplained"


def compare_with_paper(values: dict) -> list[CellComparison]:
    """Every cell of ``values`` (metric -> data set -> method -> trial values) that the paper prints."""
    rows = []
    for metric in sorted(values):
        for dataset in sorted(values[metric]):
            per_method = values[metric][dataset]
            for method in PAPER_METHODS:
                paper = printed_result(metric, dataset, method)
                if paper is None or not per_method.get(method):
                    continue
                ours = summarize(per_method[method])
                within = within_combined_standard_errors(ours.mean, ours.standard_error, paper.mean,
                                                         paper.standard_error)
                z = (None if ours.standard_error is None else
                     (ours.mean - paper.mean) / math.hypot(ours.standard_error, paper.standard_error))
                rows.append(CellComparison(metric, dataset, method, ours, paper.mean, paper.standard_error,
                                           within, z, diagnose(metric, dataset, method, per_method)
                                           if method in PROPOSED else ""))
    return rows


def markdown_reproduction(rows: list[CellComparison], *, groups: dict | None = None) -> str:
    """Counts of cells within the band per method (and per group of data sets, ``groups``: label -> data sets),
    then every U-GD / U-BFGS cell outside it with its diagnosis."""
    groups = groups or {"all data sets": sorted({r.dataset for r in rows})}
    methods = [m for m in PAPER_METHODS if any(r.method == m for r in rows)]
    lines = ["| data sets | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for label, datasets in groups.items():
        cells = []
        for method in methods:
            mine = [r for r in rows if r.method == method and r.dataset in datasets and r.within is not None]
            cells.append(f"{sum(r.within for r in mine)} / {len(mine)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    outside = [r for r in rows if r.method in PROPOSED and r.within is False]
    lines += ["", f"U-GD / U-BFGS cells outside the band ({len(outside)} of "
              f"{sum(r.method in PROPOSED and r.within is not None for r in rows)}):", "",
              "| metric | dataset | method | ours (se x 10^4) | paper | z | diagnosis |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r.metric} | {r.dataset} | {r.method} | {r.ours.mean:.3f} ({r.ours.standard_error * 1e4:.0f}) | "
              f"{r.paper_mean:.3f} ({r.paper_standard_error * 1e4:.0f}) | {r.z:+.1f} | {r.diagnosis} |"
              for r in outside]
    return "\n".join(lines) + "\n"
