"""README's "Which estimator should I use?" advice, generated from the committed benchmark results (issue 42).

Every number and every verdict of the advice is read from a committed results file, so a re-run that changes a
result changes the advice (``tests/scripts/test_which_estimator.py`` keeps README's block equal to this script's
output):

* the model class of a tree ensemble: ``benchmarks/results/nonlinear_peers.json`` (``benchmarks/nonlinear_peers.py``);
  the one-level remedy against the tuned peer: ``benchmarks/results/remedy_levels.json`` (the staged data sets) and
  ``benchmarks/results/ensemble_regimes.json`` (the regime sweep, with the default two levels); the forest's
  out-of-bag remedy: ``benchmarks/results/out_of_bag_remedy.json``;
* the linear default against ``TunedThresholdClassifierCV(LogisticRegression())``: the ``compare`` experiment's
  runs in :data:`LINEAR_RUNS`, a later run replacing an earlier one on the data sets it measured (the few-samples
  rule's nine data sets were re-measured after it changed the default there);
* U-BFGS against the same peer: :data:`PAPER_RUN`, the one run that has the paper's methods;
* the model class per regime cell of a simulated linear-logistic truth: ``benchmarks/results/regime_model_class.json``
  (``benchmarks/regime_model_class.py``, on the splits of ``ensemble_regimes.py``'s sweep), and per level of a truth
  moving from linear to quadratic log-odds: ``benchmarks/results/nonlinear_truth.json``
  (``benchmarks/nonlinear_truth.py``).

"Below" / "above" is the one-sided Welch test at 5 % that produced each file's verdicts (read, not recomputed:
the results' own tests recompute them from the records).

Usage::

    python benchmarks/which_estimator.py           # print the block
    python benchmarks/which_estimator.py --write   # rewrite README.md's block between its two markers
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import textwrap
from pathlib import Path

from lfverify.experiments._comparison import compare_targets
from lfverify.io import write_text_atomically

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
#: the compare runs of the linear default and its peer, oldest first (a later run replaces an earlier one per data set)
LINEAR_RUNS = ("paper/compare-0.3", "paper/compare-few-samples")
#: the compare run with the paper's U-GD / U-BFGS
PAPER_RUN = "paper/compare"
DEFAULT, PEER, TIME_BASE = "Cost-sensitive", "Tuned-threshold", "LogReg"
#: the regime sweep's one-level and default (two-level) remedy columns (ensemble_regimes.py)
SWEEP_ONE_LEVEL, SWEEP_TWO_LEVELS = "HGB+remedy (5 folds, 1 level)", "HGB+remedy (5 folds)"
METRICS = ("f1", "jaccard")
BEGIN, END = "<!-- measured: which-estimator -->\n", "<!-- end measured -->"
_BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)


def _read(name: str, root: Path) -> dict:
    return json.loads((root / "benchmarks" / "results" / name).read_text(encoding="utf-8"))


def _span(values, unit: str = "") -> str:
    """"lo-hi" of ``values`` with the tables' rounding (a single value once)."""
    fmt = (lambda v: f"{v:.2g}{unit}" if v < 10 else f"{v:.0f}{unit}") if unit else (lambda v: f"{v:.2f}")
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo.rstrip(unit)}-{hi}" if unit else f"{lo}-{hi}"


def _below(what: str, datasets, total: int) -> str:
    """"not significantly <what> on any of the <total> data sets", or which ones it is significantly <what> on."""
    if not datasets:
        return f"not significantly {what} on any of the {total}"
    return f"significantly {what} on {len(datasets)} of {total} ({', '.join(datasets)})"


def linear_summary(root: Path = ROOT) -> dict:
    """The default against its peer per (metric, data set), the latest run measuring each, and the time ratios."""
    verdicts, default_times, peer_times, trials = {}, {}, {}, set()
    for run in LINEAR_RUNS:
        summary = _read(f"{run}/summary.json", root)
        trials.add(summary["options"]["trials"])
        compare = summary["compare"]
        for metric in METRICS:
            target = compare["targets"][metric][DEFAULT]
            for dataset in target["datasets"]:
                verdicts[metric, dataset] = "below" if dataset in target["below_peer"] else "not below"
                ratios = compare["fit_time_ratio"][metric][dataset]
                default_times[metric, dataset] = ratios[DEFAULT] / ratios[TIME_BASE]
                peer_times[metric, dataset] = ratios[PEER] / ratios[TIME_BASE]
    datasets = {d for _, d in verdicts}
    return {"datasets": len(datasets), "trials": sorted(trials),
            "below": sorted({d for (m, d), v in verdicts.items() if v == "below"}),
            "default_times": list(default_times.values()), "peer_times": list(peer_times.values())}


def paper_method_below(root: Path = ROOT, method: str = "U-BFGS") -> dict:
    """metric -> the data sets where ``method`` is significantly below the peer, and how many were measured."""
    compare = _read(f"{PAPER_RUN}/summary.json", root)["compare"]
    out = {}
    for metric in METRICS:
        target = compare_targets(compare["values"][metric], {}, remedies=(method,))[method]
        out[metric] = (target["below_peer"], len(target["datasets"]))
    return out


def tree_summary(root: Path = ROOT) -> dict:
    """The model class (best tree-ensemble method against the linear default); the one-level remedy against the tuned
    peer of the same base on the staged data sets and the regime sweep (and the default two levels there); the
    one-level remedy's, the tuned peer's and the forest's out-of-bag remedy's fit times over the plain base fit."""
    peers, oob = _read("nonlinear_peers.json", root), _read("out_of_bag_remedy.json", root)
    classes = peers["classes"]
    trees_win = [c for c in classes if c["winner"] == "trees"]
    oob_rows = [r["verdicts"]["RF+remedy (oob)"]["vs_tuned"] for r in oob["rows"]]
    levels, sweep = _read("remedy_levels.json", root), _read("ensemble_regimes.json", root)
    one_level = {base: statistics.median(r["time_ratio"]["remedy (1 level)"] for r in levels["rows"]
                                         if r["base"] == base) for base in ("HGB", "RF")}
    tuned = {base: statistics.median(r["time_ratio"]["tuned"] for r in levels["rows"] if r["base"] == base)
             for base in ("HGB", "RF")}
    return {"one_level_verdicts": {"staged": [r["vs_tuned"] for r in levels["rows"]],
                                   "regime": [r["vs_tuned"][SWEEP_ONE_LEVEL] for r in sweep["rows"]]},
            "two_level_regime_verdicts": [r["vs_tuned"][SWEEP_TWO_LEVELS] for r in sweep["rows"]],
            "one_level_times": one_level, "tuned_times": tuned,
            "trials": peers["settings"]["trials"], "cells": len(classes),
            "datasets": len({c["dataset"] for c in classes}),
            "trees_above": trees_win, "linear_above": [c for c in classes if c["winner"] == "linear"],
            "oob_time": statistics.median(r["time_ratio"]["RF+remedy (oob)"] for r in oob["rows"]),
            "oob_verdicts": oob_rows, "oob_trials": oob["settings"]["trials"]}


def regime_summary(root: Path = ROOT) -> dict:
    """The model class per regime cell: the cells each class won and the winner's margin over the loser per cell
    (means, F_1 and Jaccard)."""
    rows = _read("regime_model_class.json", root)["rows"]
    margins = [abs(row["mean"]["linear default"] - row["mean"][row["best_tree"]])
               for row in rows if row["winner"] != "no difference"]
    return {"cells": len(rows), "margins": margins,
            "won": {w: [r for r in rows if r["winner"] == w] for w in ("linear", "tree ensemble", "no difference")}}


def truth_summary(root: Path = ROOT) -> dict:
    """The model class per nonlinearity level of the part-quadratic truth (F_1 and Jaccard rows): the levels at which
    each class won both metrics' rows, and the levels with any other verdict."""
    rows = _read("nonlinear_truth.json", root)["rows"]
    by_level = {}
    for row in rows:
        by_level.setdefault(row["value"], set()).add(row["winner"])
    return {"levels": sorted(by_level),
            "won": {w: [v for v, winners in sorted(by_level.items()) if winners == {w}]
                    for w in ("linear", "tree ensemble")},
            "split": [v for v, winners in sorted(by_level.items()) if len(winners) > 1 or winners == {"no difference"}]}


def _levels(values) -> str:
    return ", ".join(f"{v:g}" for v in values) or "none"


def _regime_line(regimes: dict, truth: dict) -> str:
    """The bullet on the model class by regime: a linear truth (the axes are in the linked table) and a truth moving
    from linear (0) to purely quadratic (1)."""
    won = regimes["won"]
    return (f"* **By regime, linear truth** ([{regimes['cells']} cells](benchmarks/results/regime_model_class.md)): "
            "the linear default significantly above the ensemble in "
            f"{len(won['linear'])}, below in {len(won['tree ensemble'])}"
            + (f", by {_span(regimes['margins'])}" if regimes["margins"] else "")
            + "; log-odds from linear (0) to quadratic (1) ([table](benchmarks/results/nonlinear_truth.md)): "
            f"linear above at {_levels(truth['won']['linear'])}, the ensemble at "
            f"{_levels(truth['won']['tree ensemble'])}"
            + (f", neither or mixed at {_levels(truth['split'])}." if truth["split"] else "."))


def advice(root: Path = ROOT) -> str:
    """The block's body: three bullets, every number and verdict read from the committed results."""
    trees, linear, paper = tree_summary(root), linear_summary(root), paper_method_below(root)
    regimes = regime_summary(root)
    won = sorted({c["dataset"] for c in trees["trees_above"]},
                 key=lambda d: -max(c["difference"] for c in trees["trees_above"] if c["dataset"] == d))
    gains = [c["difference"] for c in trees["trees_above"]]
    one = trees["one_level_verdicts"]
    cells = f"{len(one['staged'])} staged, {len(one['regime'])} regime cells"
    one_below = (f"never significantly below `TunedThresholdClassifierCV` ({cells}" if one["staged"].count("below")
                 + one["regime"].count("below") == 0 else f"significantly below `TunedThresholdClassifierCV` in "
                 f"{one['staged'].count('below')} and {one['regime'].count('below')} of {cells}")
    two = trees["two_level_regime_verdicts"]
    oob = trees["oob_verdicts"]
    oob_word = "" if oob.count("below") == 0 else f", below the tuned peer in {oob.count('below')} of {len(oob)}"
    bfgs = ", ".join(f"{'F_1' if m == 'f1' else 'Jaccard'} {len(b)} of {n}" for m, (b, n) in paper.items())
    trees_below = sorted({c["dataset"] for c in trees["linear_above"]})
    lines = [
        f"Measured on the {linear['datasets']} staged data sets and simulated cells, F_1 and Jaccard "
        "([tables and commands](docs/estimators.md)):",
        "",
        f"* **Model class first.**  A tree ensemble with the metric's threshold was significantly above the linear "
        f"default by {_span(gains)} on {len(won)} data sets ({', '.join(won[:3])}, ...), "
        f"{_below('below it', trees_below, trees['datasets'])} ({trees['trials']} trials): "
        "`MetricOptimalClassifier(HistGradientBoostingClassifier(), metric=\"f1\", max_level_iter=1)`, "
        f"{one_below}; the default two levels: {two.count('below')} below), at "
        f"{_span(list(trees['one_level_times'].values()), 'x')} the ensemble's fit (tuned: "
        f"{_span(list(trees['tuned_times'].values()), 'x')}; a forest's `cv=\"oob\"`: {trees['oob_time']:.2g}x"
        f"{oob_word}).",
        _regime_line(regimes, truth_summary(root)),
        "* **Linear: the default** `LinearFractionalClassifier()` is "
        + _below("below `TunedThresholdClassifierCV(LogisticRegression())`", linear["below"], linear["datasets"])
        + f" ({'/'.join(map(str, linear['trials']))} trials), at {_span(linear['default_times'], 'x')} a "
        f"LogisticRegression fit (peer: {_span(linear['peer_times'], 'x')}).  Avoid U-BFGS (below that peer: "
        f"{bfgs}).",
    ]
    return "\n".join(_wrap(line) for line in lines) + "\n"


def _wrap(paragraph: str, width: int = 120) -> str:
    """A bullet or paragraph wrapped at ``width`` columns, continuation lines indented under a bullet's text."""
    return textwrap.fill(paragraph, width, subsequent_indent="  " if paragraph.startswith("* ") else "",
                         break_long_words=False, break_on_hyphens=False)


def readme_with_advice(text: str, body: str) -> str:
    """``text`` (README.md) with its one measured block's body replaced by ``body``."""
    blocks = _BLOCK.findall(text)
    if len(blocks) != 1:
        raise ValueError(f"README.md must hold exactly one {BEGIN.strip()} ... {END} block; found {len(blocks)}")
    return _BLOCK.sub(lambda _: BEGIN + body + END, text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite README.md's block instead of printing it")
    args = parser.parse_args(argv)
    body = advice()
    if not args.write:
        sys.stdout.write(body)
        return 0
    readme = ROOT / "README.md"
    write_text_atomically(readme, readme_with_advice(readme.read_text(encoding="utf-8"), body))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
