"""The ``lfverify`` command line: ``--version``, ``verify``, ``proofs``, ``metrics``, ``bench``, ``simulate``.

Subcommands are listed in :data:`SUBCOMMANDS`.  :func:`main` is the one place where failures meet the user: an
expected failure (bad input or option, an output location that cannot be written or belongs to another command,
a Dask address that does not answer, a missing data folder: ValueError, TypeError, OSError) is one line on stderr
and exit status 2; an unexpected exception is one line naming it and exit status 3; Ctrl-C (SIGINT) and SIGTERM
stop the run - the executors stop their workers, finished records stay - with one line and the shell's status
(130, 143).  ``--debug`` shows the traceback instead.  Exit status 1 means that a claim regressed.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time

from lfverify._version import __version__
from lfverify.io._atomic import write_text_atomically


def _cmd_verify_self_checks(args) -> int:
    from lfverify.app._self_checks import run_checks

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


def _cmd_verify(args) -> int:
    if args.self_checks:
        return _cmd_verify_self_checks(args)
    from lfverify.app._report import print_summary, report_json, run_verification
    from lfverify.app._simulate_command import executor_from_args

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


def _cmd_proofs(args) -> int:
    from lfverify.proofs import all_claims, run_claims
    from lfverify.proofs._errata import errata_markdown

    if args.errata:  # before the derivations, not after them
        from lfverify.io._output_folder import check_output_file

        check_output_file(args.errata, option="--errata")
    claims = all_claims()
    if args.only:
        claims = [c for c in claims if args.only in c.key]
        if not claims:
            raise ValueError(f"--only: no claim key contains {args.only!r}")
        if args.errata:
            raise ValueError("--errata needs every claim; drop --only")
        if args.render:
            raise ValueError("--render needs every claim; drop --only")
    if args.render:
        from pathlib import Path

        target = Path(args.render)
        if target.exists() and not target.is_dir():  # fail before the derivations run
            raise ValueError(f"--render: {str(target)!r} is a file, not a folder")

    def progress(claim):
        if not args.json and sys.stderr.isatty():
            print(f"  deriving: {claim.title}", file=sys.stderr)

    results = run_claims(claims, progress=progress)
    if args.json:
        json.dump([{"key": r.claim.key, "title": r.claim.title, "label": r.claim.label,
                    "status": r.outcome.status, "expected": r.claim.expected, "regressed": r.regressed,
                    "seconds": round(r.seconds, 3), "method": r.outcome.method, "summary": r.outcome.summary,
                    "errata": [e.__dict__ for e in r.outcome.errata]} for r in results], sys.stdout, indent=2)
        print()
    else:
        width = min(max(len(r.claim.title) for r in results), 72)
        print(f"{'claim':<{width}}  {'label':<40} {'status':<9} {'seconds':>7}")
        for r in results:
            flag = f"  <-- REGRESSION (recorded: {r.claim.expected})" if r.regressed else ""
            print(f"{r.claim.title[:width]:<{width}}  {r.claim.label[:40]:<40} {r.outcome.status:<9} "
                  f"{r.seconds:7.2f}{flag}")
        counts = {s: sum(r.outcome.status == s for r in results) for s in ("verified", "erratum", "undecided")}
        print(f"\n{len(results)} claims: {counts['verified']} verified, {counts['erratum']} with errata, "
              f"{counts['undecided']} undecided; {sum(r.regressed for r in results)} regressions; "
              f"{sum(r.seconds for r in results):.1f} s")
    if args.errata:
        write_text_atomically(args.errata, errata_markdown(results))
        if not args.json:
            print(f"wrote {args.errata}")
    if args.render:
        from lfverify.proofs._render import render_documents, write_documents

        written = write_documents(args.render, render_documents(results))
        if not args.json:
            print(f"wrote {len(written)} documents into {args.render}")
    return 1 if any(r.regressed for r in results) else 0


def _cmd_metrics(args) -> int:
    import lfverify.core._metrics as M

    rows = [M.f_beta(args.beta), M.jaccard(), M.gower_legendre(args.alpha), M.accuracy()]
    print(f"{'metric':<22} {'a0p':>6} {'a0n':>6} {'b0':>12} {'a1p':>6} {'a1n':>6} {'b1':>14}  Definition 1")
    for m in rows:
        b0 = f"{m.b0_const:g}{m.b0_prior:+g}pi"
        b1 = f"{m.b1_const:g}{m.b1_prior:+g}pi"
        report = m.admissibility()
        status = "admissible" if report.admissible else "violates " + "; ".join(report.violations)
        print(f"{m.name:<22} {m.a0p:6g} {m.a0n:6g} {b0:>12} {m.a1p:6g} {m.a1n:6g} {b1:>14}  {status}")
    return 0


def _cmd_bench(args) -> int:
    from lfverify.experiments._command import run

    return run(args)


def _cmd_simulate(args) -> int:
    from lfverify.app._simulate_command import run

    return run(args)


SUBCOMMANDS = {
    "verify": ("check every claim of the paper and write REPORT.md (derivations, self-checks, simulations, "
               "benchmark)", _cmd_verify),
    "proofs": ("derive the paper's closed forms with SymPy and compare them with the printed ones", _cmd_proofs),
    "metrics": ("print Table 1's coefficients and Definition 1's constraints for each metric", _cmd_metrics),
    "bench": ("the paper's experiments (Tables 2, 4, 5; convergence, sample-complexity and tau figures)", _cmd_bench),
    "simulate": ("Monte-Carlo studies of Lemma 4, Thm. 5, Thms. 1-2 and Lemma 3 against exact population values",
                 _cmd_simulate),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lfverify",
        description="Bao & Sugiyama (AISTATS 2020), 'Calibrated Surrogate Maximization of Linear-fractional "
                    "Utility in Binary Classification', executable and machine-checked.",
    )
    parser.add_argument("--version", action="version", version=f"lfverify {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure (default: one line)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    verify = sub.add_parser("verify", help=SUBCOMMANDS["verify"][0])
    size = verify.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="mode", action="store_const", const="quick",
                      help="the quick version of every check (default; a few minutes on 2 cores)")
    size.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="the full simulations and the 50-trial benchmark (hours; use --dask for large sweeps)")
    verify.set_defaults(mode="quick")
    verify.add_argument("--out", metavar="DIR", default="lfverify-report",
                        help="output folder: REPORT.md, report.json, figures, records (default: lfverify-report; "
                             "re-running resumes finished simulation tasks and benchmark trials)")
    verify.add_argument("--json", action="store_true", help="print report.json instead of the table")
    verify.add_argument("--self-checks", action="store_true",
                        help="only the quick self-checks of lfverify.app._self_checks (seconds)")
    from lfverify.app._simulate_command import add_executor_arguments

    add_executor_arguments(verify)
    verify.add_argument("--no-figures", action="store_true", help="skip the PNG figures")
    proofs = sub.add_parser("proofs", help=SUBCOMMANDS["proofs"][0])
    proofs.add_argument("--json", action="store_true", help="machine-readable output")
    proofs.add_argument("--errata", metavar="PATH", help="also write the errata report (ERRATA.md) to PATH")
    proofs.add_argument("--only", metavar="TEXT", help="only the claims whose key contains TEXT")
    proofs.add_argument("--render", metavar="DIR",
                        help="also write the readable proofs: one Markdown document per claim and an index into DIR "
                             "(the repository's proofs/ folder; deterministic, each file written atomically)")
    metrics = sub.add_parser("metrics", help=SUBCOMMANDS["metrics"][0])
    metrics.add_argument("--beta", type=float, default=1.0, help="beta of F_beta (default 1)")
    metrics.add_argument("--alpha", type=float, default=0.5, help="alpha of Gower-Legendre (default 0.5)")
    from lfverify.experiments._command import add_arguments as add_bench_arguments

    add_bench_arguments(sub.add_parser("bench", help=SUBCOMMANDS["bench"][0]))
    from lfverify.app._simulate_command import add_arguments as add_simulate_arguments

    add_simulate_arguments(sub.add_parser("simulate", help=SUBCOMMANDS["simulate"][0]))
    for command in sub.choices.values():  # --debug also after the command's name
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help="show the traceback of a failure (default: one line)")
    return parser


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM (what ``timeout``, batch schedulers and container stops send), so that
    the executors' cleanup runs as for Ctrl-C."""


def _terminate(signum, frame):
    raise Terminated


#: Exceptions that are expected failures of a command (exit status 2).
EXPECTED_ERRORS = (ValueError, TypeError, OSError)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    debug = getattr(args, "debug", False)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return SUBCOMMANDS[args.command][1](args)
    except (KeyboardInterrupt, Terminated) as exc:
        if debug:
            raise
        name, status = ("SIGTERM", 143) if isinstance(exc, Terminated) else ("Ctrl-C", 130)
        print(f"lfverify {args.command}: interrupted ({name}); the workers were stopped and every finished "
              "record is kept: run the same command again to resume", file=sys.stderr)
        return status
    except EXPECTED_ERRORS as exc:
        if debug:
            raise
        print(f"lfverify {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug: one line, the traceback with --debug
        if debug:
            raise
        print(f"lfverify {args.command}: internal error: {type(exc).__name__}: {_one_line(exc)} (a bug; run again "
              "with --debug for the traceback and please report it)", file=sys.stderr)
        return 3
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
