"""The ``lfverify`` command line: ``--version``, ``verify``, ``proofs``, ``metrics``, ``bench``, ``simulate``,
``data``.

Commands are listed in :data:`COMMANDS`, each in a module of its own. :func:`main` is the one place where failures
meet the user: an expected failure (bad input or option, an output location that cannot be written or belongs to
another command, a Dask address that does not answer, a missing data folder: ValueError, TypeError, OSError) is one
line on stderr and exit status 2; an unexpected exception is one line naming it and exit status 3; Ctrl-C (SIGINT)
and SIGTERM stop the run - the executors stop their workers, finished records stay - with one line and the shell's
status (130, 143). ``--debug`` shows the traceback instead. Exit status 1 means that a claim regressed.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading

from lfverify._version import __version__
from lfverify.io._progress import start_clock

#: name -> (one-line help, the module that defines its ``add_arguments(parser)`` and ``run(args)``).  A command's
#: module imports the wings it needs (SymPy, scikit-learn, ...); only the command being run is loaded, so that
#: ``lfverify --help`` and ``lfverify metrics`` start in a fraction of a second.
COMMANDS = {
    "verify": ("check every claim of the paper and write REPORT.md (derivations, self-checks, simulations, "
               "benchmark)", "lfverify.app._verify_command"),
    "proofs": ("derive the paper's closed forms with SymPy and compare them with the printed ones",
               "lfverify.app._proofs_command"),
    "metrics": ("print Table 1's coefficients and Definition 1's constraints for each metric",
                "lfverify.app._metrics_command"),
    "bench": ("the paper's experiments (Tables 2, 4, 5; convergence, sample-complexity and tau figures)",
              "lfverify.app._bench_command"),
    "simulate": ("Monte-Carlo studies of Lemma 4, Thm. 5, Thms. 1-2 and Lemma 3 against exact population values",
                 "lfverify.app._simulate_command"),
    "data": ("the paper's data sets: fetch them (pinned sources, sha256-checked, cached) or list where they are",
             "lfverify.app._data_command"),
}


def command_module(name: str):
    """The module of command ``name`` (imported on first use)."""
    return importlib.import_module(COMMANDS[name][1])


def _chosen_command(argv) -> str | None:
    """The command named in ``argv``: its first word that is not an option (the options before a command are flags)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv=None) -> argparse.ArgumentParser:
    """The parser of ``lfverify``.  With ``argv``, only the command it names gets its options (the others are listed
    with their help, their modules not loaded); without, every command does (the reference of docs/cli.md)."""
    parser = argparse.ArgumentParser(
        prog="lfverify",
        description="Bao & Sugiyama (AISTATS 2020), 'Calibrated Surrogate Maximization of Linear-fractional "
                    "Utility in Binary Classification', executable and machine-checked.",
    )
    parser.add_argument("--version", action="version", version=f"lfverify {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure (default: one line)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = None if argv is None else _chosen_command(argv)
    for name, (help_text, _) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        if argv is None or name == chosen:
            command_module(name).add_arguments(command)
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
    """Run ``lfverify`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    debug = getattr(args, "debug", False)
    start_clock()  # the progress lines of the command count from here
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return command_module(args.command).run(args)
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
