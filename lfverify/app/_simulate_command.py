"""``lfverify simulate NAME [--quick|--full] --out DIR``: run (or resume) a Monte-Carlo study.

Loaded by :mod:`lfverify.app` when the command is ``simulate``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys

from lfverify.app._executor_options import add_executor_arguments, executor_from_args
from lfverify.io._output_folder import (
    check_output_folder,
    claim_output_folder,
    settings_fingerprint,
)
from lfverify.simulations import STUDIES, STUDY_NAMES
from lfverify.simulations._engine import run as run_engine

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify simulate``."""

    parser.add_argument("name", choices=[*STUDY_NAMES, "all"],
                        help="the study (uniform-convergence: Lemma 4; consistency: Thm. 5; calibration: Thms. 1-2; "
                             "unbiasedness: Lemma 3); 'all' runs each into OUT/NAME")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="the committed sizes, under a minute per study on 2 cores (default)")
    size.add_argument("--full", dest="mode", action="store_const", const="full", help="the issue's full sizes")
    size.add_argument("--mode", dest="mode", choices=("smoke", "quick", "full"), help=argparse.SUPPRESS)
    parser.set_defaults(mode="quick")
    parser.add_argument("--out", required=True, metavar="DIR", help="output folder; re-running resumes")
    parser.add_argument("--seed", type=int, default=None, help="study seed (default: the study's fixed seed)")
    add_executor_arguments(parser)
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    parser.add_argument("--progress", action="store_true", default=None,
                        help="force the progress bar (default: only when stderr is a terminal)")


def _verdict_lines(summary: dict) -> list[str]:
    """Every verdict sentence of a summary (keys "verdict" / "rate_verdict", with their path), then the flat
    "verdicts" block and the number of findings."""
    lines = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("verdict", "rate_verdict") and isinstance(value, str):
                    lines.append(f"  {'/'.join(path)}: {value}")
                elif key != "verdicts":
                    walk(value, path + [str(key)])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + [str(i)])

    walk({k: v for k, v in summary.items() if k in ("settings", "main")}, [])

    def flat(node, prefix):
        for key, value in node.items():
            if isinstance(value, dict):
                flat(value, f"{prefix}{key}/")
            else:
                lines.append(f"  {prefix}{key}: {value}")

    flat(summary.get("verdicts", {}), "verdict ")
    if summary.get("findings"):
        lines.append(f"  {len(summary['findings'])} findings (summary.json, 'findings')")
    return lines


def run(args) -> int:
    """Run the selected study (or all of them) and print where the results went and the verdicts."""

    executor = executor_from_args(args)
    executor.check()  # a Dask scheduler must answer before any work starts
    names = list(STUDY_NAMES) if args.name == "all" else [args.name]
    out = check_output_folder(args.out, option="--out")
    if args.name == "all":  # each study also claims its own subfolder
        seed = "default" if args.seed is None else args.seed
        claim_output_folder(out, command="simulate all", settings=f"mode {args.mode}, seed {seed}",
                            fingerprint=settings_fingerprint({"mode": args.mode, "seed": args.seed}))
    for name in names:
        target = out / name if args.name == "all" else out
        line = f"{name} ({args.mode}, {executor.describe()}) -> {target}"
        result = run_engine(STUDIES[name], mode=args.mode, out=target, executor=executor, seed=args.seed,
                            progress=args.progress, figures=not args.no_figures,
                            announce=lambda line=line: print(line, file=sys.stderr, flush=True))
        print(f"{name}: {result.computed} tasks computed, {result.skipped} found done; {target / 'summary.json'}")
        for line in _verdict_lines(result.summary):
            print(line)
    return 0
