"""``lfverify verify``: every claim of the registry (derivations, self-checks, studies, benchmark) into REPORT.md,
or only the quick self-checks (``--self-checks``).

Loaded by :mod:`lfverify.app` when the command is ``verify``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import json
import sys
import time

from lfverify.app._executor_options import add_executor_arguments, executor_from_args
from lfverify.app._report import print_summary, report_json, run_verification
from lfverify.app._self_checks import run_checks

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify verify``."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="the quick version of every check (default; a few minutes on 2 cores)")
    size.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="the full simulations and the 50-trial benchmark (hours; use --dask for large sweeps)")
    parser.set_defaults(mode="quick")
    parser.add_argument("--out", metavar="DIR", default="lfverify-report",
                        help="output folder: REPORT.md, report.json, figures, records (default: lfverify-report; "
                             "re-running resumes finished simulation tasks and benchmark trials)")
    parser.add_argument("--json", action="store_true", help="print report.json instead of the table")
    parser.add_argument("--self-checks", action="store_true",
                        help="only the quick numerical self-checks (seconds)")
    add_executor_arguments(parser)
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")


def _run_self_checks(args) -> int:
    def progress(name):
        if not args.json and sys.stderr.isatty():
            print(f"  running: {name}", file=sys.stderr)

    results = run_checks(progress=progress)
    if args.json:
        json.dump([{**r.__dict__, "as_expected": r.as_expected} for r in results], sys.stdout, indent=2)
        print()
    else:
        width = max(len(r.name) for r in results)
        print(f"{'claim':<{width}}  {'verdict':<9} {'expected':<9} {'seconds':>7}  key figure")
        for r in results:
            flag = "" if r.as_expected else "  <-- REGRESSION"
            print(f"{r.name:<{width}}  {r.verdict:<9} {r.expected:<9} {r.seconds:7.2f}  {r.detail}{flag}")
        bad = sum(not r.as_expected for r in results)
        print(f"\n{len(results) - bad} of {len(results)} checks as expected.")
    return 0 if all(r.as_expected for r in results) else 1


def run(args) -> int:
    """Run ``lfverify verify``; exit status 1 if a claim regressed."""
    if args.self_checks:
        return _run_self_checks(args)
    executor = executor_from_args(args)
    executor.check()  # a Dask scheduler must answer before the derivations start
    started = time.perf_counter()

    def progress(step):
        if not args.json:
            print(f"[{time.perf_counter() - started:6.1f} s] {step}", file=sys.stderr, flush=True)

    report = run_verification(args.mode, out=args.out, executor=executor, jobs=args.workers, progress=progress,
                              figures=not args.no_figures)
    if args.json:
        json.dump(report_json(report), sys.stdout, indent=1, default=repr)
        print()
    else:
        print_summary(report, args.out)
    return 1 if report.regressed else 0
