"""``lfverify verify``: every claim of the registry (derivations, self-checks, studies, benchmark) into REPORT.md,
or only the quick self-checks (``--self-checks``).

Loaded by :mod:`lfverify.app` when the command is ``verify``: :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import json
import sys

import lfverify.app._self_checks as self_checks
from lfverify.app._executor_options import add_executor_arguments, executor_from_args
from lfverify.app._report import print_summary, report_json, run_verification, selected_claims
from lfverify.io import Progress, progress_line

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """The options of ``lfverify verify``."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="the quick version of every check (default; about a minute on 2 idle cores)")
    size.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="the full simulations and the 50-trial benchmark (hours; use --dask for large sweeps)")
    parser.set_defaults(mode="quick")
    parser.add_argument("--out", metavar="DIR", default="lfverify-report",
                        help="output folder: REPORT.md, report.json, figures, records (default: lfverify-report; "
                             "re-running resumes finished simulation tasks and benchmark trials)")
    parser.add_argument("--json", action="store_true", help="print report.json instead of the table")
    parser.add_argument("--self-checks", action="store_true",
                        help="only the quick numerical self-checks (seconds)")
    parser.add_argument("--only", metavar="NAME",
                        help="only one claim (and its corrected statement), named as printed ('Theorem 1', 'Thm. "
                             "1'), by its LaTeX label or its proofs/ file name: only its evidence runs")
    parser.add_argument("--data-root", metavar="DIR",
                        help="an offline copy of the data sets (default: $LFVERIFY_DATASETS, else the user cache, "
                             "filled on demand; see lfverify data)")
    add_executor_arguments(parser)
    parser.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a bar on a terminal, a line per finished derivation, "
                             "self-check and tenth of a study or benchmark experiment otherwise)")


def _run_self_checks(args) -> int:
    if args.only:
        raise ValueError("--only selects a claim's evidence; --self-checks runs every self-check: drop one of them")
    quiet = args.quiet or args.json
    checks = self_checks.CHECKS
    with Progress(len(checks), "self-checks", "check", mode="off" if quiet else "auto", every=1) as bar:
        results = self_checks.run_checks(checks, done=lambda result: bar.advance(result.name))
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
    """Run ``lfverify verify``; exit status 1 if a claim regressed, 2 if the environment kept claims from being
    checked (data that cannot be had) and none regressed."""
    if args.self_checks:
        return _run_self_checks(args)
    only = None
    if args.only:
        only = [args.only]
        selected_claims(only)  # an unknown name fails before any work, with the close matches
    executor = executor_from_args(args)
    executor.check()  # a Dask scheduler must answer before the derivations start
    quiet = args.quiet or args.json

    def progress(step):
        if not quiet:
            progress_line(step)

    report = run_verification(args.mode, out=args.out, executor=executor, jobs=args.workers, progress=progress,
                              figures=not args.no_figures, only=only, data_root=args.data_root,
                              progress_mode="off" if quiet else "auto")
    if args.json:
        json.dump(report_json(report), sys.stdout, indent=1, default=repr)
        print()
    else:
        print_summary(report, args.out)
    if report.regressed:
        return 1
    if report.not_run:  # the environment kept claims from being checked: never a success, never a regression
        cause = report.not_run[0].not_run.removeprefix("not run: ")
        print(f"lfverify verify: {len(report.not_run)} claims not run: {cause}", file=sys.stderr, flush=True)
        return 2
    return 0
