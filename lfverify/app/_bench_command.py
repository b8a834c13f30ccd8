"""``lfverify bench``: the paper's experiments (Sec. 6, App. C) on the staged data sets, as files in ``--out``.

Loaded by :mod:`lfverify.app` when the command is ``bench``: :func:`add_arguments`, :func:`options_from_args`
and :func:`run`; the experiments themselves are :func:`lfverify.experiments.run_benchmark`.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import lfverify.experiments as protocol
from lfverify.app._executor_options import add_executor_arguments
from lfverify.app._report import PROTOCOL_EXPERIMENTS, benchmark_verdict
from lfverify.experiments import (
    DEFAULT_EXPERIMENTS,
    EXPERIMENTS,
    QUICK,
    BenchOptions,
    run_benchmark,
)
from lfverify.io import read_text

__all__ = ["add_arguments", "options_from_args", "run"]


def _csv(kind):
    def parse(text):
        items = [t.strip() for t in text.split(",") if t.strip()]
        try:
            return tuple(kind(t) for t in items)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {kind.__name__}; got {text!r}") from exc
    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``lfverify bench``."""
    parser.add_argument("--out", metavar="DIR", default="bench-results",
                        help="output folder: report, summary.json, figures, records (default: bench-results)")
    parser.add_argument("--quick", action="store_true",
                        help="a few minutes on 2 cores: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()))
    parser.add_argument("--datasets", type=_csv(str), help="comma-separated names (default: every available one)")
    parser.add_argument("--metrics", type=_csv(str), help="comma-separated, of f1,jaccard (default: both)")
    parser.add_argument("--methods", type=_csv(str),
                        help=f"the table's methods, comma-separated, of {','.join(protocol.ALL_METHODS)} (default: "
                             f"{','.join(protocol.TABLE_METHODS)})")
    parser.add_argument("--experiments", type=_csv(str),
                        help=f"comma-separated, of {','.join(EXPERIMENTS)} (default: {','.join(DEFAULT_EXPERIMENTS)})")
    parser.add_argument("--trials", type=int, help="trials per data set (default 50)")
    parser.add_argument("--compare-methods", type=_csv(str),
                        help=f"the compare experiment's methods (default: {','.join(protocol.COMPARE_METHODS)})")
    parser.add_argument("--compare-trials", type=int, help="trials of the compare experiment (default: --trials)")
    parser.add_argument("--max-iter", type=int, help="U-GD / U-BFGS iterations in the tables (default 100)")
    parser.add_argument("--sizes", type=_csv(int), help="training-set sizes (default 20,40,...,400)")
    parser.add_argument("--size-trials", type=int, help="trials per size (default: --trials)")
    parser.add_argument("--taus", type=_csv(float), help="taus of the sensitivity study (default 0.1,...,0.9)")
    parser.add_argument("--tau-trials", type=int, help="trials per tau (default: --trials)")
    parser.add_argument("--convergence-iter", type=int, help="iterations of the convergence study (default 300)")
    parser.add_argument("--convergence-trials", type=int, help="trials of the convergence study (default: --trials)")
    parser.add_argument("--seed", type=int, help="root seed (default 0)")

    where = add_executor_arguments(parser)
    where.add_argument("--jobs", type=int, metavar="N", help="the same as --workers N (default: the number of CPUs)")
    parser.add_argument("--test", choices=("welch", "paired"), help="the one-sided t-test of the bold rule")
    parser.add_argument("--alpha", type=float, help="significance level of the bold rule (default 0.05)")
    parser.add_argument("--data-root", metavar="DIR",
                        help="an offline copy of the data sets (default: $LFVERIFY_DATASETS, else the user cache, "
                             "filled on demand; see lfverify data)")
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a bar on a terminal, a line per tenth of each "
                             "experiment's trials otherwise)")


def options_from_args(args) -> BenchOptions:
    """BenchOptions from parsed arguments: defaults < --quick < explicit options."""
    values = {}
    if args.quick:
        values.update(QUICK)
    mapping = {"datasets": "datasets", "metrics": "metrics", "methods": "methods", "experiments": "experiments",
               "compare_methods": "compare_methods", "compare_trials": "compare_trials",
               "trials": "trials", "max_iter": "max_iter", "sizes": "sizes", "size_trials": "size_trials",
               "taus": "taus", "tau_trials": "tau_trials", "convergence_iter": "convergence_iter",
               "convergence_trials": "convergence_trials", "seed": "seed", "jobs": "jobs", "workers": "jobs",
               "test": "test", "alpha": "alpha", "data_root": "data_root", "dask": "dask_address",
               "dask_local": "dask_local", "dask_timeout": "dask_timeout"}
    for arg, option in mapping.items():
        value = getattr(args, arg, None)
        if value is not None:
            values[option] = value
    if getattr(args, "serial", False):
        values["executor"] = "serial"
    values.setdefault("jobs", os.cpu_count() or 1)
    return BenchOptions(out=Path(args.out), figures=not args.no_figures, command=_command_line(args),
                        progress="off" if getattr(args, "quiet", False) else "auto",
                        show_fit_warnings=bool(getattr(args, "debug", False)), **values)


def _command_line(args) -> str:
    """The invocation rebuilt from the parsed options (for the report's "Command:" line)."""
    parts = ["lfverify bench"]
    if args.quick:
        parts.append("--quick")
    parts += ["--out", str(args.out)]
    for name, value in sorted(vars(args).items()):
        if (name in ("quick", "out", "no_figures", "command", "debug", "quiet") or value is None or value is False
                or callable(value)):
            continue
        flag = "--" + name.replace("_", "-")
        parts += [flag] if value is True else [
            flag, ",".join(map(str, value)) if isinstance(value, tuple) else str(value)]
    if args.no_figures:
        parts.append("--no-figures")
    return " ".join(parts)


def run(args) -> int:
    """Run ``lfverify bench``: the report's path, then one line per experiment of App. C's protocol with its
    criterion, met or not, and the figure that decides it (the criteria ``lfverify verify`` records)."""
    options = options_from_args(args)
    path = run_benchmark(options)
    summary = json.loads(read_text(Path(options.out) / "summary.json"))
    for name in PROTOCOL_EXPERIMENTS:
        if name in summary:
            met, figure = benchmark_verdict(name, summary)
            print(f"{name}: criterion {'met' if met else 'not met'}: {figure}")
    print(f"wrote {path}")
    return 0
