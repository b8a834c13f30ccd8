"""The ``lfverify`` command line: ``--version``, ``verify``, ``proofs``, ``metrics``, ``bench``, ``simulate``,
``data``.

Commands are listed in :data:`COMMANDS`, each in a module of its own. :func:`main` is the one place where failures
meet the user, classified by ``lfverify/app/_failures.py``: an expected failure (bad input or option, an output
location that cannot be written, belongs to another command or is in use by another run, a Dask address that does
not answer, a missing data folder: ValueError, TypeError, OSError) is one line on stderr and exit status 2; a fault
of the environment (a worker killed, a lost Dask scheduler, no Dask workers, out of memory, a standard stream that
cannot be written) is one line saying that every finished record is kept and exit status 2; an unexpected
exception is one line naming it and exit status 3; Ctrl-C (SIGINT), SIGTERM and SIGHUP stop the run - the
executors stop their workers, finished records stay - with one line and the shell's status (130, 143, 129).
``--debug`` shows the traceback instead.  Exit status 1 means that a claim regressed.  Before the command runs,
its path options are checked (:data:`PATH_OPTIONS`), and every output folder it claims stays locked until it ends.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys

from lfverify._version import __version__
from lfverify.app._failures import (
    STREAM_LOST,
    Interrupted,
    _raise_interrupted,
    classify,
    closed_stream,
    guarded_streams,
    quiet_cluster_logs,
    signals_as_exceptions,
)
from lfverify.io import check_path_argument, holding_output_folders, start_clock
from lfverify.parallel import start_resource_tracker

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


#: SIGTERM / SIGHUP raise this in the main thread (``lfverify/app/_failures.py``); ``Terminated()`` is SIGTERM's.
Terminated = Interrupted
#: The handler of SIGTERM and SIGHUP while a command runs.
_terminate = _raise_interrupted

#: Path options checked before any work (:func:`lfverify.io.check_path_argument`): attribute -> (option, kind).
PATH_OPTIONS = {"out": ("--out", "folder"), "errata": ("--errata", "file"), "render": ("--render", "folder"),
                "data_root": ("--data-root", "folder")}


def _check_path_options(args) -> None:
    for attribute, (option, want) in PATH_OPTIONS.items():
        value = getattr(args, attribute, None)
        if value is not None:
            check_path_argument(value, option, want=want)


def main(argv=None) -> int:
    """Run ``lfverify`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status
    (``lfverify/app/_failures.py`` lists every status and its line)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    closed = closed_stream(sys.stdout, sys.stderr)
    if closed is not None:  # >&- or 2>&-: say so on the other stream, before any work (and any file opened as fd 1)
        for stream in (sys.stderr, sys.stdout):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    print(f"lfverify: error: {closed} is closed; nothing was run: redirect it to a file or "
                          "/dev/null instead", file=stream, flush=True)
        return 2
    stop = None
    with guarded_streams() as (out, err, say):
        try:
            status = _main(argv, say)
        except SystemExit as exc:  # argparse's --help, --version and usage errors end this way
            stop, status = exc, exc.code
        failed = next((s.failure for s in (out, err) if s.failure is not None), None)
        if failed is None:
            out.flush()  # stdout is block-buffered into a file: a full disk shows here
            err.flush()
            failed = next((s.failure for s in (out, err) if s.failure is not None), None)
        if failed is not None and status in (0, 1, None):  # a lost line is never a success
            command = _chosen_command(argv)
            say(f"lfverify{' ' + command if command else ''}: {STREAM_LOST.format(failure=failed)}")
            return 2
    if stop is not None:
        raise stop
    return status


#: Commands that run worker processes: multiprocessing's resource tracker is started before their modules load.
WORKER_COMMANDS = ("verify", "simulate", "bench")


def _main(argv, say) -> int:
    command = _chosen_command(argv)
    with signals_as_exceptions():  # from the start: a command's imports take seconds, a SIGHUP may come meanwhile
        try:
            return _run(argv, say)
        except (Interrupted, KeyboardInterrupt) as exc:  # before the command ran (its own endings: see _run)
            if "--debug" in argv:
                raise
            status, text = classify(exc)
            say(f"lfverify{' ' + command if command else ''}: {text}")
            return status


def _run(argv, say) -> int:
    if _chosen_command(argv) in WORKER_COMMANDS:
        start_resource_tracker()  # before scikit-learn's import starts it without SIGHUP ignored
    parser = build_parser(argv)
    args = parser.parse_args(argv)  # --help or a usage message into a failed stream: main's ending says so
    if args.command is None:
        parser.print_help()
        return 2
    debug = getattr(args, "debug", False)
    start_clock()  # the progress lines of the command count from here
    try:
        with quiet_cluster_logs(debug), holding_output_folders(" ".join(["lfverify", *argv]), {"out": "--out"}):
            _check_path_options(args)
            return command_module(args.command).run(args)
    except BaseException as exc:  # noqa: BLE001 - every ending is classified in lfverify.app._failures
        if debug or isinstance(exc, (SystemExit, GeneratorExit)):
            raise
        status, text = classify(exc)
        say(f"lfverify {args.command}: {text}")
        return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
