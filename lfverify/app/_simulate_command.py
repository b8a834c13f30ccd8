"""``lfverify simulate NAME [--quick|--full] --out DIR``: run (or resume) a Monte-Carlo study.

Loaded by :mod:`lfverify.app` when the command is ``simulate``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys

from lfverify.app._executor_options import add_executor_arguments, executor_from_args
from lfverify.app._report import _study_evidence, study_claim_lines, study_rows
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
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", default=None,
                       help="force the progress bar (default: a bar on a terminal, a line per tenth of the tasks "
                            "otherwise)")
    shown.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _verdict_lines(summary: dict, mode: str | None = None, name: str | None = None) -> list[str]:
    """What a study found, in REPORT.md's words: for each claim the study is evidence for, the claim's verdict and
    the study's outcome against its record (:func:`lfverify.app._report.study_claim_lines`); each row of its
    "verdicts" block as yes / no with its outcome and, where it reads against the claim's verdict, why that is
    expected (:func:`lfverify.app._report.study_rows`); then every verdict sentence of the summary (keys "verdict" /
    "rate_verdict", with their path) and the number of findings."""
    lines = []
    name = summary.get("study") if name is None else name
    if name is not None and mode is not None and isinstance(summary.get("verdicts"), dict):
        evidence = _study_evidence(name, mode, summary, 0.0)
        lines += [f"  {line}" for line in study_claim_lines(name, evidence)]
        lines += [f"  {row.text}" for row in study_rows(name, mode, summary)]

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
        progress = True if args.progress else "off" if args.quiet else "auto"
        result = run_engine(STUDIES[name], mode=args.mode, out=target, executor=executor, seed=args.seed,
                            progress=progress, figures=not args.no_figures,
                            announce=lambda line=line: args.quiet or print(line, file=sys.stderr, flush=True))
        print(f"{name}: {result.computed} tasks computed, {result.skipped} found done; {target / 'summary.json'}")
        recorded = args.mode if args.seed is None else f"{args.mode}, seed {args.seed}"  # no record: measured only
        for line in _verdict_lines(result.summary, recorded, name):
            print(line)
    return 0
