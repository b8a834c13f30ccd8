"""``lfverify simulate NAME [--quick|--full] --out DIR``: run (or resume) a Monte-Carlo study.

Registered in :mod:`lfverify.app._cli` through :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["add_arguments", "add_executor_arguments", "executor_from_args", "run", "HELP"]

HELP = "run a Monte-Carlo study of Lemma 4, Thm. 5, Thms. 1-2 or Lemma 3 (resumable; serial, processes or Dask)"


def add_arguments(parser) -> None:
    """The options of ``lfverify simulate``."""
    from lfverify.simulations import STUDY_NAMES

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


def add_executor_arguments(parser):
    """Where the tasks run: --serial, --workers N, --dask ADDRESS or --dask-local N (exclusive).

    Shared by ``lfverify simulate``, ``lfverify verify`` and ``lfverify bench``; :func:`executor_from_args` reads
    them.  Returns the mutually exclusive group (``bench`` adds its older ``--jobs N`` to it).
    """
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--serial", action="store_true", help="run the simulations in this process")
    where.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: all cores)")
    where.add_argument("--dask", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://127.0.0.1:8786")
    where.add_argument("--dask-local", type=int, metavar="N", help="start a Dask LocalCluster of N worker processes")
    parser.add_argument("--dask-timeout", type=float, metavar="SECONDS",
                        help="seconds to reach the --dask scheduler and hear it answer (default 10)")
    return where


def executor_from_args(args):
    """The executor selected by :func:`add_executor_arguments`' options."""
    from lfverify.parallel._executors import make_executor

    if args.serial:
        return make_executor("serial")
    if args.dask or args.dask_local is not None:
        return make_executor(dask_address=args.dask, dask_local=args.dask_local, dask_timeout=args.dask_timeout)
    if args.dask_timeout is not None:
        raise ValueError("--dask-timeout applies to --dask ADDRESS only")
    return make_executor("processes", workers=args.workers)


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
    from lfverify.io._output_folder import check_output_folder
    from lfverify.simulations import STUDIES, STUDY_NAMES
    from lfverify.simulations._engine import run as run_engine

    executor = executor_from_args(args)
    executor.check()  # a Dask scheduler must answer before any work starts
    names = list(STUDY_NAMES) if args.name == "all" else [args.name]
    out = check_output_folder(args.out, option="--out")
    if args.name == "all":  # each study also claims its own subfolder
        from lfverify.io._output_folder import claim_output_folder, settings_fingerprint

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
